//! `taria-mcp` serving MCP on stdin/stdout (every form of the command line but the
//! subcommands): the parts built, the app attached to or spawned, the recording and
//! the inspector started when asked for, served until stdin closes or a signal, a
//! spawned app stopped.

use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;
use std::time::Duration;

use rmcp::ServiceExt as _;

use super::{LOG_TARGET, init_tracing, stop_signal};
use crate::link;
use crate::spawn::size::Size;
use crate::{input_log, order, recording, seen, server, spawn, stdio, tools};

/// Where the app is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Target {
    /// An app label, resolved like the app does (`taria_schema::socket::socket_path`).
    Label(String),
    /// An explicit socket path.
    Socket(PathBuf),
    /// A command to run in a pseudo-terminal (spawn mode).
    Spawn(Vec<String>),
}

/// What the command line asks the server for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Options {
    /// What to attach to.
    pub(crate) target: Target,
    /// Release the app after this long without a tool call (`None`: never).
    pub(crate) idle_release: Option<Duration>,
    /// The pseudo-terminal's size (spawn mode).
    pub(crate) size: Size,
    /// Where to record the session (`--record`).
    pub(crate) record: Option<PathBuf>,
    /// Serve the inspector on this port of 127.0.0.1 (`--inspect`; 0: any free port).
    pub(crate) inspect: Option<u16>,
    /// Results carry `structuredContent` too (`--structured`).
    pub(crate) structured: bool,
}

/// Serves MCP as `options` say, until the session ends.
pub(crate) fn run(options: &Options) -> ExitCode {
    init_tracing();
    // Before anything starts: a recording that cannot be written fails the session
    // now, not after the agent's work is done.
    let recorder = match &options.record {
        Some(path) => match start_recording(path, options) {
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
        Target::Socket(path) => link::Target::Attach(path.clone()),
        Target::Label(label) => match taria_schema::socket::socket_path(label) {
            Ok(path) => link::Target::Attach(path),
            Err(e) => {
                eprintln!("taria-mcp: {e}");
                return ExitCode::from(2);
            }
        },
        Target::Spawn(command) => {
            // Started before serving, so the app builds and starts while the host connects.
            // When it cannot start, the session still runs and every tool says why.
            let spawned = Arc::new(spawn::Spawned::start(command, options.size));
            if let Some(e) = spawned.start_error() {
                eprintln!("taria-mcp: {e}");
            }
            link::Target::Spawn(spawned)
        }
    };
    if let link::Target::Attach(socket) = &target
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
        link::Target::Spawn(spawned) => Some(Arc::clone(spawned)),
        link::Target::Attach(_) => None,
    };
    let result = runtime.block_on(serve(target, options, recorder.clone()));
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
            tracing::error!(target: LOG_TARGET, error = %e, "taria-mcp stopped");
            ExitCode::FAILURE
        }
    }
}

/// Creates (or truncates) the recording at `path` and starts its writer; the error
/// is the line to print.
fn start_recording(
    path: &std::path::Path,
    options: &Options,
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
        Target::Spawn(_) => (
            RecordingMode::Spawn,
            Some(RecordedSize {
                width: options.size.cols,
                height: options.size.rows,
            }),
        ),
        Target::Label(_) | Target::Socket(_) => (RecordingMode::Attach, None),
    };
    Ok(recording::SessionRecorder::start(
        file,
        path.to_owned(),
        mode,
        pty,
    ))
}

/// Serves MCP on stdin/stdout until the client closes stdin or the process is asked to
/// stop (SIGTERM, SIGINT, SIGHUP; on Windows Ctrl+C, Ctrl+Break).
async fn serve(
    target: link::Target,
    options: &Options,
    recorder: Option<recording::SessionRecorder>,
) -> Result<(), Box<dyn std::error::Error>> {
    let activity = link::Activity::default();
    let link = link::Link::new(target, options.idle_release, activity.clone(), recorder);
    // The recording's `app` line says how a spawned app exited, and what it printed.
    if let (Some(recorder), Some(spawned)) = (link.recorder(), link.spawned_app()) {
        recorder.follow_exit(std::sync::Arc::clone(spawned));
    }
    tracing::info!(
        target: LOG_TARGET,
        socket = %link.socket().display(),
        "taria-mcp serving on stdio"
    );
    // What the inspector shows, besides the link's tree and log: the input calls.
    let input_log = input_log::InputLog::default();
    let inspector_url = match options.inspect {
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
            tracing::info!(target: LOG_TARGET, "asked to stop");
            cancel.cancel();
        }
        () = input_over => {
            tracing::info!(
                target: LOG_TARGET,
                "stdin closed {EOF_GRACE:?} ago; not waiting longer for requests in flight"
            );
            cancel.cancel();
        }
    }
    Ok(())
}

/// Starts the inspector on `port` for `link`'s app and the calls in `input_log`, and
/// says where on stderr; its address. A person's view of the session: the agent's work
/// goes on without it when it cannot start.
#[cfg(feature = "inspector")]
async fn start_inspector(
    port: u16,
    link: &link::Link,
    input_log: &input_log::InputLog,
) -> Option<String> {
    let watched = crate::inspect::Watched::Live(link.clone(), input_log.clone());
    match crate::inspect::Inspector::start(port, watched).await {
        Ok(inspector) => {
            eprintln!(
                "taria-mcp: inspector at {} (this machine only; the address is the key: share \
                 it with no one)",
                inspector.url()
            );
            Some(inspector.url().to_owned())
        }
        Err(message) => {
            eprintln!("taria-mcp: {message}; serving without the inspector");
            None
        }
    }
}

/// Without the inspector built in, `--inspect` is said to be missing, and the session
/// goes on without it.
#[cfg(not(feature = "inspector"))]
#[expect(
    clippy::unused_async,
    reason = "the same signature as with the inspector built in"
)]
async fn start_inspector(
    _port: u16,
    _link: &link::Link,
    _input_log: &input_log::InputLog,
) -> Option<String> {
    eprintln!(
        "taria-mcp: this taria-mcp was built without the inspector (cargo feature \
         `inspector`); serving without it"
    );
    None
}

/// How long requests in flight may still answer after the client closed stdin.
const EOF_GRACE: std::time::Duration = std::time::Duration::from_millis(500);
