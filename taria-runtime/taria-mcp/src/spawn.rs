//! Spawn mode: the bridge runs the app itself, in a pseudo-terminal of a real size,
//! pointed at a private socket through `TARIA_SOCKET` (on Unix a fresh 0700 directory;
//! on Windows, where the endpoint is a named pipe named after the path's file stem, a
//! stem nobody can guess), so the app's label does not matter and no other session
//! can take the app.
//!
//! Three threads per app: one reads the terminal's output all the time (an unread
//! pseudo-terminal blocks the app once its buffer fills), keeps the last few KiB, so
//! an app that dies before serving its socket can be explained, and feeds it to an
//! emulated terminal that answers the app's terminal queries (cursor position, device
//! attributes, window size, keyboard flags, modes) as a terminal would; one writes
//! those answers to the terminal's input; one waits for the app to exit and publishes
//! its exit status. [`Spawned::stop`] ends the app when the MCP session ends: on Unix
//! SIGTERM to its process group, up to [`STOP_GRACE`], then SIGKILL; on Windows
//! (`ConPTY`) the console is closed, which ends every process attached to it, then
//! after [`STOP_GRACE`] the child is terminated.
//!
//! By concern: [`process`] (the pseudo-terminal and the command), [`output`] (reading
//! the terminal), [`terminal`] (the emulated terminal and its answers), [`socket`]
//! (the private socket).
//!
//! The app runs in the bridge's working directory with its environment plus
//! `TARIA_SOCKET` (and `TERM` when unset; not on Windows), 120×40 unless `--cols`/`--rows`
//! say otherwise (bounds 10–1000 columns, 5–500 rows); it is a session leader with the
//! pty as its controlling terminal, so `resize` reaches it as a resize signal (Windows:
//! `ResizePseudoConsole`). A tool call waits up to `STARTUP_WAIT` for the socket
//! (`cargo run` may be compiling), then answers `app_not_connected`; a command that
//! cannot be started gets one line on stderr and every tool answers with the reason, the
//! session staying up so the agent can say what is wrong. Once the app has exited every
//! tool answers `app_exited` with its status. If the bridge itself is killed, closing the
//! pty's master side hangs up the terminal and the kernel sends the app SIGHUP.
//!
//! An app that draws only when its own state changed (`examples/lazy`) draws nothing for a
//! bridge that connects after its first frame if it ignores the `FocusGained` taria's
//! event reader returns then, and it takes an agent's input only in the turn before it
//! draws, so every call would time out. The bridge owns its terminal, so it makes it draw
//! ([`Spawned::nudge`]): with no first tree 500 ms after connecting (`link/connect.rs`),
//! and when an input is unanswered for 1.5 s while the app drew nothing for half of that
//! (`link/send.rs`; not sooner: a list may scroll on the shorter size, and a live app on a
//! loaded machine can take that long). When even that draws nothing, the first-tree
//! timeout names the likely cause and the match arm to add, and `read_tree` format
//! `screen` answers from the emulated terminal, saying it is not a frame taria recorded.
//!
//! Tested against the built `before-after` example (`tests/mcp/spawn.rs`, failing with a
//! message when it is missing) and with ratatui apps that ask their terminal before they
//! draw (`tests/mcp/terminal_queries.rs`). Windows is linted only, plus the wine smoke test
//! (`.ci/wine-smoke/run`).

use std::collections::VecDeque;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use portable_pty::MasterPty;
use tokio::sync::watch;

use crate::errors::{Code, ToolError};
mod output;
mod process;
pub(crate) mod size;
mod socket;
mod terminal;

use output::append_output;
pub(crate) use process::shell_words;
use process::{pty_size, run};
use size::Size;
use socket::private_socket;
pub(crate) use socket::socket_exists;
use terminal::Terminal;

/// How long the app's exit waits to be made known for its last output to be read.
const OUTPUT_AFTER_EXIT: Duration = Duration::from_millis(500);

/// How much of the terminal's output is kept (the tail).
const TAIL_BYTES: usize = 8 * 1024;
/// How long the app may take to exit after SIGTERM (Unix) or after its console is
/// closed (Windows) before it is killed.
pub(crate) const STOP_GRACE: Duration = Duration::from_secs(2);
/// How long a tool call waits for a starting app to open its socket.
pub(crate) const STARTUP_WAIT: Duration = Duration::from_secs(10);

/// How the app ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Exit {
    /// The exit code (1 when killed by a signal).
    pub(crate) code: u32,
    /// The signal that ended it, if one did.
    pub(crate) signal: Option<String>,
}

/// How the app ended, as the end of "the app …": `exited with exit status 3`, or
/// `was killed by a signal (Killed)` (not "exited with killed by a signal").
impl std::fmt::Display for Exit {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match &self.signal {
            Some(signal) => write!(f, "was killed by a signal ({signal})"),
            None => write!(f, "exited with exit status {}", self.code),
        }
    }
}

/// The app the bridge started (or why it could not).
pub(crate) struct Spawned {
    /// The command line, for messages.
    command: String,
    /// The socket the app was told to serve.
    socket: PathBuf,
    /// The private directory holding it (removed on stop; none on Windows, where the
    /// socket is a named pipe and no file is made).
    dir: Option<PathBuf>,
    app: Result<Running, String>,
}

struct Running {
    pid: u32,
    started: Instant,
    /// The terminal's master side; taken when the console is closed (Windows stop).
    master: Mutex<Option<Box<dyn MasterPty + Send>>>,
    size: Mutex<Size>,
    exit: watch::Receiver<Option<Exit>>,
    tail: Arc<Mutex<VecDeque<u8>>>,
    /// Whether the link ever connected to it.
    served: AtomicBool,
    /// Ends the app at once.
    killer: Mutex<Killer>,
    /// The emulated terminal (the output reader feeds it; a resize resizes it).
    terminal: Arc<Mutex<Terminal>>,
    /// Its count of answers the app reads as keys.
    keyed: Arc<terminal::Keyed>,
    /// The terminal's input: held for the app's lifetime (`ConPTY` may end the
    /// session when it closes; on Unix closing it sends the app an end of file), and
    /// used only to answer the app's terminal queries.
    _input: ConsoleInput,
}

/// The terminal's input side, shared by the app's record and the output reader.
type ConsoleInput = Arc<Mutex<Box<dyn Write + Send>>>;

/// Ends the app at once: SIGKILL to its process group on Unix; on Windows, which has
/// no process groups, `TerminateProcess` on the child (what it started ends with the
/// console).
struct Killer {
    pid: u32,
    #[cfg(windows)]
    child: Box<dyn portable_pty::ChildKiller + Send + Sync>,
}

impl Killer {
    fn kill(&mut self) {
        #[cfg(unix)]
        signal_group(self.pid, true);
        #[cfg(windows)]
        {
            // portable-pty 0.9's Windows killer reports success as an error (and the
            // other way round), so the result says nothing: the exit status does.
            let result = self.child.kill();
            tracing::debug!(pid = self.pid, ?result, "TerminateProcess");
        }
    }
}

use crate::lock::lock;

impl Spawned {
    /// Starts `command` in a pseudo-terminal of `size`. When it cannot be started the
    /// result still describes it: every tool then answers with the reason.
    pub(crate) fn start(command: &[String], size: Size) -> Spawned {
        let line = shell_words(command);
        let (socket, dir) = match private_socket() {
            Ok(place) => place,
            Err(e) => {
                return Spawned {
                    command: line,
                    socket: PathBuf::new(),
                    dir: None,
                    app: Err(format!("cannot create a private socket directory: {e}")),
                };
            }
        };
        let app = run(command, size, &socket).map_err(|e| format!("cannot start `{line}`: {e}"));
        match &app {
            Ok(running) => tracing::info!(
                pid = running.pid,
                command = %line,
                socket = %socket.display(),
                cols = size.cols,
                rows = size.rows,
                "spawned the app"
            ),
            Err(_) => {
                if let Some(dir) = &dir {
                    let _ = std::fs::remove_dir_all(dir);
                }
            }
        }
        Spawned {
            command: line,
            socket,
            dir,
            app,
        }
    }

    /// Why the app could not be started, if it could not.
    pub(crate) fn start_error(&self) -> Option<&str> {
        self.app.as_ref().err().map(String::as_str)
    }

    /// The socket the app serves.
    pub(crate) fn socket(&self) -> &Path {
        &self.socket
    }

    /// The app's process id, when it was started.
    pub(crate) fn pid(&self) -> Option<u32> {
        self.app.as_ref().ok().map(|r| r.pid)
    }

    /// How the app ended, if it has.
    pub(crate) fn exit(&self) -> Option<Exit> {
        self.app.as_ref().ok().and_then(|r| r.exit.borrow().clone())
    }

    /// Waits up to `limit` for the app to end; its exit, if it did.
    pub(crate) async fn exited_within(&self, limit: Duration) -> Option<Exit> {
        let running = self.app.as_ref().ok()?;
        let mut exit = running.exit.clone();
        tokio::time::timeout(limit, exit.wait_for(Option::is_some))
            .await
            .ok()?
            .ok()
            .and_then(|e| e.clone())
    }

    /// Waits for the app to end; its exit (`None`: it was never started).
    pub(crate) async fn exited(&self) -> Option<Exit> {
        let running = self.app.as_ref().ok()?;
        let mut exit = running.exit.clone();
        exit.wait_for(Option::is_some)
            .await
            .ok()
            .and_then(|e| e.clone())
    }

    /// What the app printed after leaving its screen (its result, or a panic's
    /// message; untrusted); `None` for nothing. Complete once the app's exit is known:
    /// the exit is made known after its last output is read (`process.rs`).
    pub(crate) fn printed(&self) -> Option<String> {
        let running = self.app.as_ref().ok()?;
        output::after_screen(&running.tail)
    }

    /// Notes that the link connected (from then on, output is not quoted in errors).
    pub(crate) fn mark_served(&self) {
        if let Ok(running) = &self.app {
            running.served.store(true, Ordering::Relaxed);
        }
    }

    /// The pseudo-terminal's size now.
    pub(crate) fn size(&self) -> Option<Size> {
        self.app.as_ref().ok().map(|r| *lock(&r.size))
    }

    /// The emulated terminal's screen with its colours (`None` when the app was not
    /// started): what a person would see in the app's terminal.
    pub(crate) fn screen_styles(&self) -> Option<taria_schema::protocol::ScreenStyles> {
        let running = self.app.as_ref().ok()?;
        Some(lock(&running.terminal).styles())
    }

    /// How many of the terminal's answers so far a crossterm app reads as key presses
    /// (0 when the app was not started). Read as each input is sent, without the
    /// terminal's lock.
    pub(crate) fn keyed_answers(&self) -> u64 {
        self.app.as_ref().map_or(0, |running| running.keyed.count())
    }

    /// Those answers not taken before, which count as taken from now on (`None` when
    /// the app was not started).
    pub(crate) fn take_keyed_answers(&self) -> Option<terminal::KeyedAnswers> {
        Some(self.app.as_ref().ok()?.keyed.take())
    }

    /// The emulated terminal's text, one string per row (`None` when the app was not
    /// started), and its width: what a screen scraper would read.
    pub(crate) fn screen_text(&self) -> Option<(u16, Vec<String>)> {
        let running = self.app.as_ref().ok()?;
        let size = *lock(&running.size);
        let rows = lock(&running.terminal).rows();
        Some((size.cols, rows))
    }

    /// Makes a resize happen, to an app that draws on resize events: the terminal
    /// one row shorter, then its size again (the emulated terminal keeps its size, so
    /// nothing that asks it sees the step between). For an app that has not drawn
    /// since the bridge connected, which most apps do on a resize.
    pub(crate) fn nudge(&self) {
        let Ok(running) = &self.app else { return };
        if self.exit().is_some() {
            return;
        }
        let size = *lock(&running.size);
        let master = lock(&running.master);
        let Some(master) = master.as_ref() else {
            return;
        };
        let shorter = Size {
            rows: size.rows.saturating_sub(1).max(*size::ROWS.start()),
            ..size
        };
        if shorter == size {
            return;
        }
        let resized = master
            .resize(pty_size(shorter))
            .and_then(|()| master.resize(pty_size(size)));
        match resized {
            Ok(()) => tracing::info!(
                "the app has not drawn since connecting: resized its terminal to make it draw"
            ),
            Err(e) => {
                tracing::debug!(error = %e, "could not resize the terminal to make the app draw");
            }
        }
    }

    /// Resizes the pseudo-terminal (the app gets SIGWINCH; on Windows a resize event).
    pub(crate) fn resize(&self, size: Size) -> Result<(), ToolError> {
        let running = self.app.as_ref().map_err(|e| Spawned::not_started(e))?;
        if let Some(exit) = self.exit() {
            return Err(self.exited_error(&exit));
        }
        let master = lock(&running.master);
        let Some(master) = master.as_ref() else {
            return Err(ToolError::new(
                Code::AppNotConnected,
                "the app's terminal is closed: taria-mcp is stopping it",
            ));
        };
        // The emulated terminal first: an app that asks its size when told of the
        // resize must get the new one.
        let old = std::mem::replace(&mut *lock(&running.size), size);
        lock(&running.terminal).resize(size);
        master.resize(pty_size(size)).map_err(|e| {
            *lock(&running.size) = old;
            lock(&running.terminal).resize(old);
            // The app is connected and keeps its size: the bridge's own failure.
            ToolError::new(
                Code::Internal,
                format!("the pseudo-terminal could not be resized: {e}; the app keeps its size"),
            )
        })?;
        Ok(())
    }

    /// Whether the app is running but has not been connected to yet.
    pub(crate) fn starting(&self) -> bool {
        self.app
            .as_ref()
            .is_ok_and(|r| !r.served.load(Ordering::Relaxed))
            && self.exit().is_none()
    }

    /// Waits until `deadline` for the app's socket file (on Windows its named pipe) to
    /// appear: `Ok` once it exists; an error when the app was not started, has exited,
    /// or is still starting.
    pub(crate) async fn ready(&self, deadline: Instant) -> Result<(), ToolError> {
        let running = self.app.as_ref().map_err(|e| Spawned::not_started(e))?;
        loop {
            if let Some(exit) = self.exit() {
                return Err(self.exited_error(&exit));
            }
            if socket_exists(&self.socket) {
                return Ok(());
            }
            if Instant::now() >= deadline {
                let mut message = format!(
                    "the app (`{}`, started {} s ago) has not opened its socket yet: it may still \
                     be starting (`cargo run` compiles first, which can take minutes), or it is \
                     not a taria app (#[taria::app] or a taria::Session). Retry in a while, or \
                     use wait_for_change",
                    self.command,
                    running.started.elapsed().as_secs()
                );
                append_output(&mut message, &running.tail);
                return Err(ToolError::new(Code::AppNotConnected, message));
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }

    /// What an input's result says when the app exited right after taking it: its
    /// exit and what it printed after leaving its screen (its result, untrusted), so
    /// a task that ends by exiting reports in the same call.
    pub(crate) fn exit_note(&self, exit: &Exit) -> String {
        match self.printed() {
            Some(printed) => format!(
                "the app {exit}; after leaving its screen it printed (untrusted): {}",
                taria_schema::outline::OutlineQuoted(&printed)
            ),
            None => {
                format!("the app {exit}; it printed nothing after leaving its screen")
            }
        }
    }

    /// The error for an app that has exited.
    pub(crate) fn exited_error(&self, exit: &Exit) -> ToolError {
        let mut message = format!(
            "the app (`{}`{}) {exit}. taria-mcp stays up, but there is nothing to \
             drive: restart the MCP server to start the app again",
            self.command,
            self.pid().map(|p| format!(", pid {p}")).unwrap_or_default()
        );
        let mut printed = None;
        if let Ok(running) = &self.app {
            if running.served.load(Ordering::Relaxed) {
                // A result it reports as it exits: what it printed after its screen.
                // Said once: the text a model reads shows `output` after the message.
                printed = output::after_screen(&running.tail);
                if printed.is_some() {
                    message.push_str(
                        ". What it printed after leaving its screen is in `output` (untrusted)",
                    );
                }
            } else {
                message.push_str(". It exited before serving its socket");
                append_output(&mut message, &running.tail);
            }
        }
        let mut error = ToolError::new(Code::AppExited, message).with("exitCode", exit.code);
        if let Some(printed) = printed {
            error = error.with("output", printed);
        }
        if let Some(signal) = &exit.signal {
            error = error.with("signal", signal.clone());
        }
        error
    }

    fn not_started(why: &str) -> ToolError {
        ToolError::new(
            Code::AppNotConnected,
            format!(
                "{why}. Fix the command in the MCP server's configuration (`taria-mcp -- <command> \
                 [args…]`; it runs in taria-mcp's working directory) and restart it"
            ),
        )
    }

    /// Ends the app: SIGTERM to its process group (Windows: closes its console, which
    /// ends every process attached to it), up to [`STOP_GRACE`] for it to exit, then
    /// SIGKILL (Windows: `TerminateProcess`); then removes the private socket
    /// directory. Blocks the caller.
    pub(crate) fn stop(&self) {
        if let Ok(running) = &self.app
            && self.exit().is_none()
        {
            #[cfg(unix)]
            {
                tracing::info!(pid = running.pid, "stopping the app (SIGTERM)");
                signal_group(running.pid, false);
            }
            #[cfg(windows)]
            {
                tracing::info!(pid = running.pid, "stopping the app (closing its console)");
                close_console(running);
            }
            if !wait_exit(&running.exit, STOP_GRACE) {
                #[cfg(unix)]
                tracing::warn!(pid = running.pid, "the app ignored SIGTERM; SIGKILL");
                #[cfg(windows)]
                tracing::warn!(
                    pid = running.pid,
                    "the app is still running after its console closed; terminating it"
                );
                lock(&running.killer).kill();
                let _ = wait_exit(&running.exit, Duration::from_secs(2));
            }
        }
        if let Some(dir) = &self.dir {
            let _ = std::fs::remove_dir_all(dir);
        }
    }
}

/// Polls for the exit (the waiter thread publishes it) for up to `limit`.
fn wait_exit(exit: &watch::Receiver<Option<Exit>>, limit: Duration) -> bool {
    let deadline = Instant::now() + limit;
    loop {
        if exit.borrow().is_some() {
            return true;
        }
        if Instant::now() >= deadline {
            return false;
        }
        std::thread::sleep(Duration::from_millis(10));
    }
}

#[cfg(unix)]
fn signal_group(pid: u32, kill: bool) {
    use rustix::process::{Pid, Signal, kill_process_group};
    let signal = if kill { Signal::KILL } else { Signal::TERM };
    // The child is a session leader (portable-pty calls setsid), so its process group
    // has its pid and holds whatever it started (a `cargo run`'s app, a shell's job).
    if let Some(pid) = i32::try_from(pid).ok().and_then(Pid::from_raw)
        && let Err(e) = kill_process_group(pid, signal)
    {
        tracing::debug!(error = %e, "signalling the app failed");
    }
}

/// Closes the app's console (`ConPTY`): Windows sends every process attached to it
/// `CTRL_CLOSE_EVENT` and ends them. On a thread, since `ClosePseudoConsole` may block
/// until the console host is done, and the grace is counted from here.
#[cfg(windows)]
fn close_console(running: &Running) {
    let Some(master) = lock(&running.master).take() else {
        return;
    };
    let closer = std::thread::Builder::new()
        .name("taria-mcp-pty-close".into())
        .spawn(move || drop(master));
    if let Err(e) = closer {
        tracing::debug!(error = %e, "no thread to close the console on");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_exit_is_described() {
        let code = Exit {
            code: 3,
            signal: None,
        };
        assert_eq!(code.to_string(), "exited with exit status 3");
        let signal = Exit {
            code: 1,
            signal: Some("Terminated".into()),
        };
        assert_eq!(signal.to_string(), "was killed by a signal (Terminated)");
    }
}
