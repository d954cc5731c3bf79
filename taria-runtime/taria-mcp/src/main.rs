//! `taria-mcp`: an MCP server (stdio) that lets an agent read and drive a running
//! taria app through its semantic tree. See `--help`.
//!
//! Nothing but JSON-RPC is written to stdout; logs go to stderr (filter: `TARIA_LOG`).

mod audit;
mod cli;
mod errors;
mod input_log;
mod inspect;
mod journal;
mod jsonrpc;
mod latency;
mod limits;
mod link;
mod lock;
mod logs;
mod order;
mod plural;
mod recording;
mod render;
mod seen;
mod server;
mod spawn;
mod stdio;
mod subscriptions;
mod test_from;
mod tools;
mod unprompted_frame;

use std::process::ExitCode;
use std::sync::Arc;

use link::Target;
use rmcp::ServiceExt as _;
use tracing_subscriber::EnvFilter;

fn main() -> ExitCode {
    let command = match cli::parse(std::env::args().skip(1)) {
        Ok(command) => command,
        Err(message) => {
            eprintln!("{message}");
            return ExitCode::from(2);
        }
    };
    let options = match command {
        cli::Command::Help(usage) => {
            eprintln!("{usage}");
            return ExitCode::SUCCESS;
        }
        // A recording turned into a Rust test: no MCP server.
        cli::Command::TestFrom(options) => return test_from::run(&options),
        // A recording in the inspector: no app, no MCP server.
        cli::Command::View(options) => return view(&options),
        // An app explored and checked: no MCP server on stdio (the bridge is served
        // in-process to the audit's own client).
        cli::Command::Audit(options) => {
            init_tracing();
            return audit::run(&options);
        }
        cli::Command::Version => {
            eprintln!("taria-mcp {}", env!("CARGO_PKG_VERSION"));
            return ExitCode::SUCCESS;
        }
        cli::Command::Run(options) => options,
    };
    init_tracing();
    // Before anything starts: a recording that cannot be written fails the session
    // now, not after the agent's work is done.
    let recorder = match &options.record {
        Some(path) => match start_recording(path, &options) {
            Ok(recorder) => Some(recorder),
            Err(message) => {
                eprintln!("taria-mcp: {message}");
                return ExitCode::FAILURE;
            }
        },
        None => None,
    };
    let runtime = match tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
    {
        Ok(runtime) => runtime,
        Err(e) => {
            eprintln!("taria-mcp: cannot start the async runtime: {e}");
            return ExitCode::FAILURE;
        }
    };
    let target = match &options.target {
        cli::Target::Socket(path) => Target::Attach(path.clone()),
        cli::Target::Label(label) => match taria_schema::socket::socket_path(label) {
            Ok(path) => Target::Attach(path),
            Err(e) => {
                eprintln!("taria-mcp: {e}");
                return ExitCode::from(2);
            }
        },
        cli::Target::Spawn(command) => {
            // Started before serving, so the app builds and starts while the host connects.
            // When it cannot start, the session still runs and every tool says why.
            let spawned = Arc::new(spawn::Spawned::start(command, options.size));
            if let Some(e) = spawned.start_error() {
                eprintln!("taria-mcp: {e}");
            }
            Target::Spawn(spawned)
        }
    };
    if let Target::Attach(socket) = &target
        && !spawn::socket_exists(socket)
    {
        // One line for the host's log; the session runs and connects when the app is up.
        eprintln!(
            "taria-mcp: no app is running at {} yet: start it (taria-mcp connects on the next \
             tool call), or let taria-mcp start it: taria-mcp -- <command>",
            socket.display()
        );
    }
    let spawned = match &target {
        Target::Spawn(spawned) => Some(Arc::clone(spawned)),
        Target::Attach(_) => None,
    };
    let result = runtime.block_on(serve(target, &options, recorder.clone()));
    // Written out before the app is stopped: its exit is not part of the session.
    if let Some(recorder) = &recorder {
        if let Some(spawned) = &spawned {
            recorder.exit_if_seen(spawned);
        }
        recorder.finish();
    }
    // Never leave the app running: SIGTERM (Windows: its console closed), a grace
    // period, then SIGKILL (Windows: TerminateProcess).
    if let Some(spawned) = spawned {
        spawned.stop();
    }
    // The stdin reader may still be blocked (after a signal): do not wait for it.
    runtime.shutdown_background();
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            tracing::error!(error = %e, "taria-mcp stopped");
            ExitCode::FAILURE
        }
    }
}

/// Creates (or truncates) the recording at `path` and starts its writer; the error
/// is the line to print.
fn start_recording(
    path: &std::path::Path,
    options: &cli::Options,
) -> Result<recording::SessionRecorder, String> {
    use taria_schema::recording::{RecordedSize, RecordingMode};
    let file = taria_schema::recording::create_recording_file(path).map_err(|e| {
        format!(
            "cannot write the recording {}: {e}; give --record a file in a directory that \
             exists and that you can write to",
            path.display()
        )
    })?;
    let (mode, pty) = match options.target {
        cli::Target::Spawn(_) => (
            RecordingMode::Spawn,
            Some(RecordedSize {
                width: options.size.cols,
                height: options.size.rows,
            }),
        ),
        cli::Target::Label(_) | cli::Target::Socket(_) => (RecordingMode::Attach, None),
    };
    Ok(recording::SessionRecorder::start(
        file,
        path.to_owned(),
        mode,
        pty,
    ))
}

/// Logs to stderr, filtered by `TARIA_LOG` (default: warnings), never with a secret
/// in it ([`carries_no_secret`]).
fn init_tracing() {
    use tracing_subscriber::Layer as _;
    use tracing_subscriber::filter::{self, FilterExt as _};
    use tracing_subscriber::layer::SubscriberExt as _;
    use tracing_subscriber::util::SubscriberInitExt as _;
    let wanted = EnvFilter::try_from_env("TARIA_LOG").unwrap_or_else(|_| EnvFilter::new("warn"));
    let stderr = tracing_subscriber::fmt::layer()
        .with_writer(std::io::stderr)
        .with_ansi(false)
        // Otherwise a log line that cannot be written (the host closed stderr) is
        // reported with `eprintln!`, which panics: before a spawned app is stopped.
        .log_internal_errors(false)
        // One filter, both conditions: two nested `with_filter`s made every callsite
        // the first one passed a per-event question, and built every span (rmcp's,
        // one per request) though nothing logged it.
        .with_filter(wanted.and(filter::filter_fn(carries_no_secret)));
    tracing_subscriber::registry().with(stderr).init();
}

/// Whether an event may be logged at all, whatever `TARIA_LOG` asks for: not the MCP
/// library's debug and trace events, which print each request (a tool call's
/// arguments: the password an agent types or sets) and response whole. The bridge's
/// own events name inputs by their number, never by what they carry.
fn carries_no_secret(event: &tracing::Metadata<'_>) -> bool {
    let rmcp = event.target() == "rmcp" || event.target().starts_with("rmcp::");
    !rmcp || *event.level() <= tracing::Level::INFO
}

/// Serves MCP on stdin/stdout until the client closes stdin or the process is asked to
/// stop (SIGTERM, SIGINT, SIGHUP; on Windows Ctrl+C, Ctrl+Break).
async fn serve(
    target: Target,
    options: &cli::Options,
    recorder: Option<recording::SessionRecorder>,
) -> Result<(), Box<dyn std::error::Error>> {
    let activity = link::Activity::default();
    let link = link::Link::new(target, options.idle_release, activity.clone(), recorder);
    // The recording's `app` line says how a spawned app exited, and what it printed.
    if let (Some(recorder), Some(spawned)) = (link.recorder(), link.spawned_app()) {
        recorder.follow_exit(std::sync::Arc::clone(spawned));
    }
    tracing::info!(socket = %link.socket().display(), "taria-mcp serving on stdio");
    // What the inspector shows, besides the link's tree and log: the input calls.
    let input_log = input_log::InputLog::default();
    let inspector = match options.inspect {
        Some(port) => start_inspector(port, &link, &input_log).await,
        None => None,
    };
    // Listening starts now, before the handshake: a stop request is never lost.
    let stop = stop_signal();
    tokio::pin!(stop);
    // Input calls are numbered by the transport as they arrive, with the tree the agent
    // had seen then, and sent in that order.
    let seen = seen::Seen::default();
    let arrivals = order::Arrivals::new(seen.clone(), tools::takes_turn);
    let (transport, input_closed) = stdio::transport(arrivals.clone());
    let inspector_url = inspector.as_ref().map(|i| i.url().to_owned());
    let form = if options.structured {
        server::ResultForm::Structured
    } else {
        server::ResultForm::Text
    };
    let bridge = server::Bridge::new(
        link,
        activity,
        seen,
        arrivals,
        input_log,
        inspector_url,
        form,
    );
    let service = tokio::select! {
        service = bridge.serve(transport) => service?,
        () = &mut stop => return Ok(()),
    };
    let cancel = service.cancellation_token();
    // After stdin closes, rmcp answers the requests still in flight for up to 5 s
    // before cancelling them. Some only end when cancelled (a listen stream, a long
    // wait_for_change), and a handler can also be stuck inside rmcp (a listen stream
    // acknowledged just as stdin closed never hears that the acknowledgement was
    // sent). None of that should hold the bridge, or a spawned app, for long: past a
    // short grace the session is over.
    let input_over = async {
        input_closed.wait().await;
        tokio::time::sleep(EOF_GRACE).await;
    };
    tokio::select! {
        done = service.waiting() => drop(done?),
        () = &mut stop => {
            tracing::info!("asked to stop");
            cancel.cancel();
        }
        () = input_over => {
            tracing::info!("stdin closed {EOF_GRACE:?} ago; not waiting longer for requests in flight");
            cancel.cancel();
        }
    }
    Ok(())
}

/// `taria-mcp view FILE`: the recording in the inspector, until Ctrl+C (or SIGTERM).
fn view(options: &cli::ViewOptions) -> ExitCode {
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

/// Starts the inspector on `port` for `link`'s app and the calls in `input_log`, and
/// says where on stderr. A person's view of the session: the agent's work goes on
/// without it when it cannot start.
async fn start_inspector(
    port: u16,
    link: &link::Link,
    input_log: &input_log::InputLog,
) -> Option<inspect::Inspector> {
    let watched = inspect::Watched::Live(link.clone(), input_log.clone());
    match inspect::Inspector::start(port, watched).await {
        Ok(inspector) => {
            eprintln!(
                "taria-mcp: inspector at {} (this machine only; the address is the key: share \
                 it with no one)",
                inspector.url()
            );
            Some(inspector)
        }
        Err(message) => {
            eprintln!("taria-mcp: {message}; serving without the inspector");
            None
        }
    }
}

/// How long requests in flight may still answer after the client closed stdin.
const EOF_GRACE: std::time::Duration = std::time::Duration::from_millis(500);

/// Resolves when the process gets SIGTERM, SIGINT or SIGHUP. The handlers are
/// installed when this is called, not when it is first polled.
#[cfg(unix)]
fn stop_signal() -> impl Future<Output = ()> {
    use tokio::signal::unix::{SignalKind, signal};
    let listen = |kind| {
        signal(kind)
            .inspect_err(|e| tracing::warn!(error = %e, "cannot listen for a signal"))
            .ok()
    };
    let (mut term, mut int, mut hup) = (
        listen(SignalKind::terminate()),
        listen(SignalKind::interrupt()),
        listen(SignalKind::hangup()),
    );
    async move {
        tokio::select! {
            () = next(term.as_mut()) => {}
            () = next(int.as_mut()) => {}
            () = next(hup.as_mut()) => {}
        }
    }
}

/// The next delivery of a signal (never, when listening failed).
#[cfg(unix)]
async fn next(stream: Option<&mut tokio::signal::unix::Signal>) {
    match stream {
        Some(stream) => drop(stream.recv().await),
        None => std::future::pending().await,
    }
}

/// Resolves on Ctrl+C or Ctrl+Break (what a Windows host sends a console program it
/// wants stopped). The handlers are installed when this is called.
#[cfg(windows)]
fn stop_signal() -> impl Future<Output = ()> {
    use tokio::signal::windows::{ctrl_break, ctrl_c};
    fn listen<T>(signal: std::io::Result<T>) -> Option<T> {
        signal
            .inspect_err(|e| tracing::warn!(error = %e, "cannot listen for a console event"))
            .ok()
    }
    let (mut c, mut brk) = (listen(ctrl_c()), listen(ctrl_break()));
    async move {
        let c = async {
            match c.as_mut() {
                Some(c) => drop(c.recv().await),
                None => std::future::pending().await,
            }
        };
        let brk = async {
            match brk.as_mut() {
                Some(brk) => drop(brk.recv().await),
                None => std::future::pending().await,
            }
        };
        tokio::select! {
            () = c => {}
            () = brk => {}
        }
    }
}
