//! Spawn mode: the bridge runs the app itself, in a pseudo-terminal of a real size,
//! pointed at a private socket through `TARIA_SOCKET` (a fresh 0700 directory, so the
//! app's label does not matter and no other session can take the app).
//!
//! Two threads per app: one reads the terminal's output all the time (an unread
//! pseudo-terminal blocks the app once its buffer fills) and keeps the last few KiB,
//! so an app that dies before serving its socket can be explained; one waits for the
//! app to exit and publishes its exit status. [`Spawned::stop`] ends the app when the
//! MCP session ends: SIGTERM to its process group, up to [`STOP_GRACE`], then SIGKILL.

use std::collections::VecDeque;
use std::ffi::OsString;
use std::io::Read as _;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use portable_pty::{CommandBuilder, MasterPty, PtySize, native_pty_system};
use tokio::sync::watch;

use crate::cli::Size;
use crate::errors::{Code, ToolError};

/// How much of the terminal's output is kept (the tail).
const TAIL_BYTES: usize = 8 * 1024;
/// How long the app may take to exit after SIGTERM before it gets SIGKILL.
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

impl std::fmt::Display for Exit {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match &self.signal {
            Some(signal) => write!(f, "killed by a signal ({signal})"),
            None => write!(f, "exit status {}", self.code),
        }
    }
}

/// The app the bridge started (or why it could not).
pub(crate) struct Spawned {
    /// The command line, for messages.
    command: String,
    /// The socket the app was told to serve.
    socket: PathBuf,
    /// The private directory holding it (removed on stop).
    dir: Option<PathBuf>,
    app: Result<Running, String>,
}

struct Running {
    pid: u32,
    started: Instant,
    master: Mutex<Box<dyn MasterPty + Send>>,
    size: Mutex<Size>,
    exit: watch::Receiver<Option<Exit>>,
    tail: Arc<Mutex<VecDeque<u8>>>,
    /// Whether the link ever connected to it.
    served: AtomicBool,
}

fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

impl Spawned {
    /// Starts `command` in a pseudo-terminal of `size`. When it cannot be started the
    /// result still describes it: every tool then answers with the reason.
    pub(crate) fn start(command: &[String], size: Size) -> Spawned {
        let line = shell_words(command);
        let dir = match private_dir() {
            Ok(dir) => dir,
            Err(e) => {
                return Spawned {
                    command: line,
                    socket: PathBuf::new(),
                    dir: None,
                    app: Err(format!("cannot create a private socket directory: {e}")),
                };
            }
        };
        let socket = dir.join(format!("{}.sock", std::process::id()));
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
                let _ = std::fs::remove_dir_all(&dir);
            }
        }
        Spawned {
            command: line,
            socket,
            dir: Some(dir),
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

    /// Resizes the pseudo-terminal (the app gets SIGWINCH).
    pub(crate) fn resize(&self, size: Size) -> Result<(), ToolError> {
        let running = self.app.as_ref().map_err(|e| Spawned::not_started(e))?;
        if let Some(exit) = self.exit() {
            return Err(self.exited_error(&exit));
        }
        lock(&running.master).resize(pty_size(size)).map_err(|e| {
            ToolError::new(
                Code::AppNotConnected,
                format!("the pseudo-terminal could not be resized: {e}"),
            )
        })?;
        *lock(&running.size) = size;
        Ok(())
    }

    /// Whether the app is running but has not been connected to yet.
    pub(crate) fn starting(&self) -> bool {
        self.app
            .as_ref()
            .is_ok_and(|r| !r.served.load(Ordering::Relaxed))
            && self.exit().is_none()
    }

    /// Waits until `deadline` for the app's socket file to appear: `Ok` once it
    /// exists; an error when the app was not started, has exited, or is still starting.
    pub(crate) async fn ready(&self, deadline: Instant) -> Result<(), ToolError> {
        let running = self.app.as_ref().map_err(|e| Spawned::not_started(e))?;
        loop {
            if let Some(exit) = self.exit() {
                return Err(self.exited_error(&exit));
            }
            if self.socket.exists() {
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

    /// The error for an app that has exited.
    pub(crate) fn exited_error(&self, exit: &Exit) -> ToolError {
        let mut message = format!(
            "the app (`{}`{}) exited with {exit}. taria-mcp stays up, but there is nothing to \
             drive: restart the MCP server to start the app again",
            self.command,
            self.pid().map(|p| format!(", pid {p}")).unwrap_or_default()
        );
        if let Ok(running) = &self.app
            && !running.served.load(Ordering::Relaxed)
        {
            message.push_str(". It exited before serving its socket");
            append_output(&mut message, &running.tail);
        }
        let mut error = ToolError::new(Code::AppExited, message).with("exitCode", exit.code);
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

    /// Ends the app: SIGTERM to its process group, up to [`STOP_GRACE`] for it to exit,
    /// then SIGKILL; then removes the private socket directory. Blocks the caller.
    pub(crate) fn stop(&self) {
        if let Ok(running) = &self.app
            && self.exit().is_none()
        {
            tracing::info!(pid = running.pid, "stopping the app (SIGTERM)");
            signal_group(running.pid, false);
            if !wait_exit(&running.exit, STOP_GRACE) {
                tracing::warn!(pid = running.pid, "the app ignored SIGTERM; SIGKILL");
                signal_group(running.pid, true);
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

#[cfg(not(unix))]
fn signal_group(_pid: u32, _kill: bool) {}

fn pty_size(size: Size) -> PtySize {
    PtySize {
        rows: size.rows,
        cols: size.cols,
        pixel_width: 0,
        pixel_height: 0,
    }
}

/// Opens the pseudo-terminal, starts the command and the two threads.
fn run(command: &[String], size: Size, socket: &Path) -> Result<Running, String> {
    let pair = native_pty_system()
        .openpty(pty_size(size))
        .map_err(|e| format!("no pseudo-terminal: {e}"))?;
    let mut argv: Vec<OsString> = command.iter().map(OsString::from).collect();
    let cwd = std::env::current_dir().ok();
    // Like a shell: a program name with a `/` is a path, never looked up in PATH
    // (portable-pty searches PATH for `dir/app` unless it starts with `./`).
    if let (Some(cwd), Some(program)) = (&cwd, command.first())
        && program.contains('/')
        && Path::new(program).is_relative()
    {
        argv[0] = cwd.join(program).into_os_string();
    }
    let mut builder = CommandBuilder::from_argv(argv);
    // portable-pty would start it in $HOME; `cargo run` needs the caller's directory.
    if let Some(cwd) = cwd {
        builder.cwd(cwd);
    }
    builder.env(taria::SOCKET_ENV, socket);
    if std::env::var_os("TERM").is_none_or(|t| t.is_empty()) {
        builder.env("TERM", "xterm-256color");
    }
    let mut child = pair
        .slave
        .spawn_command(builder)
        .map_err(|e| format!("{e:#}"))?;
    // Only the child holds the terminal's slave side now: its exit ends our reads.
    drop(pair.slave);
    let pid = child.process_id().unwrap_or(0);
    let tail = Arc::new(Mutex::new(VecDeque::with_capacity(TAIL_BYTES)));
    let reader = pair.master.try_clone_reader();
    let (exit_tx, exit) = watch::channel(None);
    let waiter = std::thread::Builder::new()
        .name("taria-mcp-app-wait".into())
        .spawn(move || {
            let exit = match child.wait() {
                Ok(status) => Exit {
                    code: status.exit_code(),
                    signal: status.signal().map(str::to_owned),
                },
                Err(e) => Exit {
                    code: 1,
                    signal: Some(format!("unknown: {e}")),
                },
            };
            tracing::info!(pid, %exit, "the app exited");
            exit_tx.send_replace(Some(exit));
        });
    if let Err(e) = waiter {
        signal_group(pid, true);
        return Err(format!("cannot start a thread: {e}"));
    }
    match reader {
        Ok(reader) => {
            let tail = Arc::clone(&tail);
            let pump = std::thread::Builder::new()
                .name("taria-mcp-pty-read".into())
                .spawn(move || pump(reader, &tail));
            if let Err(e) = pump {
                signal_group(pid, true);
                return Err(format!("cannot start a thread: {e}"));
            }
        }
        Err(e) => {
            signal_group(pid, true);
            return Err(format!("cannot read the pseudo-terminal: {e}"));
        }
    }
    Ok(Running {
        pid,
        started: Instant::now(),
        master: Mutex::new(pair.master),
        size: Mutex::new(size),
        exit,
        tail,
        served: AtomicBool::new(false),
    })
}

/// Reads the terminal until the app closes it, keeping the last [`TAIL_BYTES`].
fn pump(mut reader: Box<dyn std::io::Read + Send>, tail: &Mutex<VecDeque<u8>>) {
    let mut buf = [0u8; 8192];
    loop {
        match reader.read(&mut buf) {
            Ok(0) => break,
            Ok(n) => {
                let mut tail = lock(tail);
                tail.extend(&buf[..n]);
                let excess = tail.len().saturating_sub(TAIL_BYTES);
                tail.drain(..excess);
            }
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(_) => break,
        }
    }
}

/// Appends the app's last output lines (escape sequences removed) to `message`.
fn append_output(message: &mut String, tail: &Mutex<VecDeque<u8>>) {
    let bytes: Vec<u8> = lock(tail).iter().copied().collect();
    let text = plain_text(&bytes);
    let lines: Vec<&str> = text
        .lines()
        .map(str::trim_end)
        .filter(|l| !l.trim().is_empty())
        .collect();
    if lines.is_empty() {
        return;
    }
    let mut last = lines[lines.len().saturating_sub(12)..].join("\n");
    if last.len() > 1500 {
        let mut cut = last.len() - 1500;
        while !last.is_char_boundary(cut) {
            cut += 1;
        }
        last = format!("…{}", &last[cut..]);
    }
    message.push_str(". Its last output (untrusted):\n");
    message.push_str(&last);
}

/// Terminal output as plain text: escape sequences and carriage returns removed.
pub(crate) fn plain_text(bytes: &[u8]) -> String {
    let text = String::from_utf8_lossy(bytes);
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\u{1b}' => match chars.next() {
                // CSI: parameters, then a final byte in @..~.
                Some('[') => {
                    for c in chars.by_ref() {
                        if ('@'..='~').contains(&c) {
                            break;
                        }
                    }
                }
                // OSC, DCS, …: up to BEL or ESC \.
                Some(']' | 'P' | '_' | '^') => {
                    while let Some(c) = chars.next() {
                        if c == '\u{7}' {
                            break;
                        }
                        if c == '\u{1b}' && chars.peek() == Some(&'\\') {
                            chars.next();
                            break;
                        }
                    }
                }
                // Charset selection takes one more character.
                Some('(' | ')' | '*' | '+') => {
                    chars.next();
                }
                _ => {}
            },
            '\r' => {}
            '\n' | '\t' => out.push(c),
            c if c.is_control() => {}
            c => out.push(c),
        }
    }
    out
}

/// The command as one line, quoted where needed.
fn shell_words(command: &[String]) -> String {
    command
        .iter()
        .map(|word| {
            if !word.is_empty()
                && word
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || "-_./=:,+@%".contains(c))
            {
                word.clone()
            } else {
                format!("'{}'", word.replace('\'', r"'\''"))
            }
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// A fresh directory only this user can enter, for the app's socket:
/// `mcp-<pid>-<n>` in the per-user socket directory apps use
/// (`$XDG_RUNTIME_DIR/taria`, else `<temp dir>/taria-<uid>`), which is checked to be
/// private first.
fn private_dir() -> std::io::Result<PathBuf> {
    let base = taria::__private::private_socket_dir().map_err(std::io::Error::other)?;
    let prefix = "mcp";
    let seed = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.subsec_nanos());
    let mut last = None;
    for attempt in 0..64u32 {
        let dir = base.join(format!(
            "{prefix}-{}-{:08x}",
            std::process::id(),
            seed.wrapping_add(attempt.wrapping_mul(0x9e37_79b9))
        ));
        // Not recursive: an existing entry (a planted symlink too) is never reused.
        match private_builder().create(&dir) {
            Ok(()) => return Ok(dir),
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => last = Some(e),
            Err(e) => return Err(e),
        }
    }
    Err(last.unwrap_or_else(|| std::io::Error::other("no free directory name")))
}

/// Makes one directory (not its parents), mode 0700.
fn private_builder() -> std::fs::DirBuilder {
    #[cfg(unix)]
    {
        use std::os::unix::fs::DirBuilderExt as _;
        let mut builder = std::fs::DirBuilder::new();
        builder.mode(0o700);
        builder
    }
    #[cfg(not(unix))]
    std::fs::DirBuilder::new()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escape_sequences_are_removed() {
        let raw = b"\x1b[?1049h\x1b[1;1H\x1b[38;5;2mhello\x1b[0m\r\n\x1b]0;title\x07world\x1b(B!";
        assert_eq!(plain_text(raw), "hello\nworld!");
    }

    #[test]
    fn commands_are_quoted_for_messages() {
        let words = ["cargo", "run", "--example", "todo", "a b", "it's"].map(str::to_owned);
        assert_eq!(
            shell_words(&words),
            r"cargo run --example todo 'a b' 'it'\''s'"
        );
    }

    #[test]
    fn the_exit_is_described() {
        let code = Exit {
            code: 3,
            signal: None,
        };
        assert_eq!(code.to_string(), "exit status 3");
        let signal = Exit {
            code: 1,
            signal: Some("Terminated".into()),
        };
        assert_eq!(signal.to_string(), "killed by a signal (Terminated)");
    }
}
