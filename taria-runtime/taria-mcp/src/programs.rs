//! The programs `taria-mcp` runs, one module each, chosen by the command line
//! (`crate::cli`): [`serve`], the MCP server on stdio (the default); [`view`], a
//! recording in the inspector; [`test_from`], a recording written as a Rust test;
//! [`audit`], an app explored behind the bridge and each answer checked. The MCP
//! server's modules (`server`, `tools`, `link`, `order`, `stdio`, …) import none of
//! them. Here, what more than one program shares: the log on stderr and the stop
//! signal.

pub(crate) mod audit;
pub(crate) mod serve;
pub(crate) mod test_from;
pub(crate) mod view;

use tracing_subscriber::EnvFilter;

/// The target the programs' own events are logged under: the crate's, as when they
/// were written in `main.rs`, so the log reads as it did.
const LOG_TARGET: &str = "taria_mcp";

/// Logs to stderr, filtered by `TARIA_LOG` (default: warnings), never with a secret
/// in it ([`carries_no_secret`]).
pub(crate) fn init_tracing() {
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
        .with_filter(wanted.and(filter::filter_fn(|event| {
            carries_no_secret(event) && not_per_glyph(event)
        })));
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

/// Whether an event is more than the picture renderer's warning for each character
/// no font has (`read_tree` with `format: picture` on a machine with no CJK font:
/// one line per character per picture); docs/tools.md ("The screen as a picture") says what to install.
fn not_per_glyph(event: &tracing::Metadata<'_>) -> bool {
    !event.target().starts_with("usvg::text") || *event.level() <= tracing::Level::ERROR
}

/// Resolves when the process gets SIGTERM, SIGINT or SIGHUP. The handlers are
/// installed when this is called, not when it is first polled.
#[cfg(unix)]
pub(crate) fn stop_signal() -> impl Future<Output = ()> {
    use tokio::signal::unix::{SignalKind, signal};
    let listen = |kind| {
        signal(kind)
            .inspect_err(
                |e| tracing::warn!(target: LOG_TARGET, error = %e, "cannot listen for a signal"),
            )
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
pub(crate) fn stop_signal() -> impl Future<Output = ()> {
    use tokio::signal::windows::{ctrl_break, ctrl_c};
    fn listen<T>(signal: std::io::Result<T>) -> Option<T> {
        signal
            .inspect_err(|e| tracing::warn!(target: LOG_TARGET, error = %e, "cannot listen for a console event"))
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
