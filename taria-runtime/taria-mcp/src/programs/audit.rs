//! `taria-mcp audit -- <command>`: the app explored as an agent would, each answer
//! checked against the frames and the screen that follow (`taria::testing::audit`'s
//! explorer and checks, driving the real bridge: [`bridged`]).

pub(crate) mod args;
mod bridged;

use std::process::ExitCode;

use taria_audit::explore;

/// Runs the audit `options` ask for and prints its report: text, or JSON with
/// `--json`. Exits 1 on a violation, 0 when there is none.
pub(crate) fn run(options: &args::Options) -> ExitCode {
    super::init_tracing();
    let runtime = match tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
    {
        Ok(runtime) => runtime,
        Err(e) => {
            eprintln!("taria-mcp audit: cannot start the async runtime: {e}");
            return ExitCode::FAILURE;
        }
    };
    let mut target = bridged::Bridged::new(
        &runtime,
        options.command.clone(),
        options.size,
        options.reset.clone(),
    );
    let report = explore(&mut target, &options.limits);
    target.stop();
    drop(target);
    runtime.shutdown_background();
    if options.json {
        println!("{}", report.to_json());
    } else {
        print!(
            "taria-mcp audit: {}\n{report}",
            crate::spawn::shell_words(&options.command)
        );
    }
    if report.is_clean() {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}
