//! `taria-mcp view FILE`: a recording shown in the inspector, with no app and no MCP
//! server.

use std::path::PathBuf;
use std::process::ExitCode;

#[cfg(feature = "inspector")]
use super::{init_tracing, stop_signal};
#[cfg(feature = "inspector")]
use crate::inspect;

/// `view FILE [--port N]`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Options {
    /// The recording.
    pub(crate) file: PathBuf,
    /// The port on 127.0.0.1 (0: any free port).
    pub(crate) port: u16,
}

/// `taria-mcp view FILE`: the recording in the inspector, until Ctrl+C (or SIGTERM).
#[cfg(feature = "inspector")]
pub(crate) fn run(options: &Options) -> ExitCode {
    init_tracing();
    let watched = match inspect::Watched::recording(&options.file) {
        Ok(watched) => watched,
        Err(message) => {
            eprintln!("taria-mcp view: {message}");
            return ExitCode::FAILURE;
        }
    };
    let runtime = match tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
    {
        Ok(runtime) => runtime,
        Err(e) => {
            eprintln!("taria-mcp view: cannot start the async runtime: {e}");
            return ExitCode::FAILURE;
        }
    };
    let served = runtime.block_on(async {
        let stop = stop_signal();
        let inspector = inspect::Inspector::start(options.port, watched).await?;
        eprintln!(
            "taria-mcp view: {} at {} (this machine only; Ctrl+C stops it)",
            options.file.display(),
            inspector.url()
        );
        stop.await;
        Ok::<(), String>(())
    });
    runtime.shutdown_background();
    match served {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("taria-mcp view: {message}");
            ExitCode::FAILURE
        }
    }
}

/// Without the inspector built in, `view` says so.
#[cfg(not(feature = "inspector"))]
pub(crate) fn run(_options: &Options) -> ExitCode {
    eprintln!(
        "taria-mcp view: this taria-mcp was built without the inspector (cargo feature \
         `inspector`)"
    );
    ExitCode::FAILURE
}
