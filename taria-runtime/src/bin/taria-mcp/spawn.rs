//! Spawn mode: the bridge runs the app itself, in a pseudo-terminal of a real size,
//! pointed at a private socket through `TARIA_SOCKET` (on Unix a fresh 0700 directory;
//! on Windows, where the endpoint is a named pipe named after the path's file stem, a
//! stem nobody can guess), so the app's label does not matter and no other session
//! can take the app.
//!
//! Two threads per app: one reads the terminal's output all the time (an unread
//! pseudo-terminal blocks the app once its buffer fills) and keeps the last few KiB,
//! so an app that dies before serving its socket can be explained; one waits for the
//! app to exit and publishes its exit status. [`Spawned::stop`] ends the app when the
//! MCP session ends: on Unix SIGTERM to its process group, up to [`STOP_GRACE`], then
//! SIGKILL; on Windows (`ConPTY`) the console is closed, which ends every process
//! attached to it, then after [`STOP_GRACE`] the child is terminated.

use std::collections::VecDeque;
use std::ffi::OsString;
use std::io::{Read as _, Write};
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
    /// The console's input (Windows): held for the app's lifetime (`ConPTY` may end
    /// the session when it closes), and used to answer the console's cursor queries.
    #[cfg(windows)]
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
        master.resize(pty_size(size)).map_err(|e| {
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

/// Whether the app's socket is there to connect to. A named pipe has no file: look
/// for it among the pipes instead (opening it, as `Path::exists` would, connects to
/// the app). When the pipes cannot be listed, the connection attempt tells.
#[cfg(windows)]
pub(crate) fn socket_exists(socket: &Path) -> bool {
    let name = pipe_name(socket);
    match std::fs::read_dir(r"\\.\pipe\") {
        Ok(pipes) => pipes
            .filter_map(Result::ok)
            .any(|pipe| pipe.file_name().eq_ignore_ascii_case(&name)),
        Err(e) => {
            tracing::debug!(error = %e, "cannot list named pipes");
            true
        }
    }
}

/// The app's socket file is there.
#[cfg(unix)]
pub(crate) fn socket_exists(socket: &Path) -> bool {
    socket.exists()
}

/// The named pipe an app serving `socket` listens on: `taria-<file stem>`, as
/// `taria::wire::socket_name` makes it on Windows.
#[cfg(windows)]
fn pipe_name(socket: &Path) -> String {
    let stem = socket
        .file_stem()
        .and_then(|s| s.to_str())
        .unwrap_or("taria");
    format!("taria-{stem}")
}

fn pty_size(size: Size) -> PtySize {
    PtySize {
        rows: size.rows,
        cols: size.cols,
        pixel_width: 0,
        pixel_height: 0,
    }
}

/// Opens the pseudo-terminal (`ConPTY` on Windows).
fn open_pty(size: Size) -> Result<portable_pty::PtyPair, String> {
    let open = || {
        native_pty_system()
            .openpty(pty_size(size))
            .map_err(|e| format!("no pseudo-terminal: {e}"))
    };
    // portable-pty panics where Windows has no ConPTY (before Windows 10 1809).
    #[cfg(windows)]
    let open = || {
        std::panic::catch_unwind(open).unwrap_or_else(|_| {
            Err(
                "no pseudo-terminal: this Windows has no ConPTY (Windows 10 1809 or newer is \
                 needed); start the app yourself and attach with --app <label>"
                    .to_owned(),
            )
        })
    };
    open()
}

/// Whether a program name is a path (like a shell: it has a separator), never looked
/// up in PATH.
fn names_a_path(program: &str) -> bool {
    #[cfg(windows)]
    return program.contains(['/', '\\']);
    #[cfg(not(windows))]
    program.contains('/')
}

/// Opens the pseudo-terminal, starts the command and the two threads.
fn run(command: &[String], size: Size, socket: &Path) -> Result<Running, String> {
    let pair = open_pty(size)?;
    let mut argv: Vec<OsString> = command.iter().map(OsString::from).collect();
    let cwd = std::env::current_dir().ok();
    // Like a shell: a program name with a `/` is a path, never looked up in PATH
    // (portable-pty searches PATH for `dir/app` unless it starts with `./`; on Windows
    // an absolute path still gets PATHEXT's `.exe` if it has none).
    if let (Some(cwd), Some(program)) = (&cwd, command.first())
        && names_a_path(program)
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
    // Windows console apps do not read TERM (ConPTY speaks VT whatever it says).
    #[cfg(unix)]
    if std::env::var_os("TERM").is_none_or(|t| t.is_empty()) {
        builder.env("TERM", "xterm-256color");
    }
    // Taken before the child starts: ConPTY, asked by portable-pty to inherit the
    // cursor, may query the cursor position first and wait for the answer.
    #[cfg(windows)]
    let input: ConsoleInput =
        Arc::new(Mutex::new(pair.master.take_writer().map_err(|e| {
            format!("cannot write to the pseudo-terminal: {e}")
        })?));
    let mut child = pair
        .slave
        .spawn_command(builder)
        .map_err(|e| format!("{e:#}"))?;
    // Only the child holds the terminal's slave side now: its exit ends our reads.
    drop(pair.slave);
    let pid = child.process_id().unwrap_or(0);
    let mut killer = Killer {
        pid,
        #[cfg(windows)]
        child: child.clone_killer(),
    };
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
        killer.kill();
        return Err(format!("cannot start a thread: {e}"));
    }
    #[cfg(windows)]
    let answers = Some(Arc::clone(&input));
    #[cfg(not(windows))]
    let answers: Option<ConsoleInput> = None;
    match reader {
        Ok(reader) => {
            let tail = Arc::clone(&tail);
            let pump = std::thread::Builder::new()
                .name("taria-mcp-pty-read".into())
                .spawn(move || pump(reader, &tail, answers.as_deref()));
            if let Err(e) = pump {
                killer.kill();
                return Err(format!("cannot start a thread: {e}"));
            }
        }
        Err(e) => {
            killer.kill();
            return Err(format!("cannot read the pseudo-terminal: {e}"));
        }
    }
    Ok(Running {
        pid,
        started: Instant::now(),
        master: Mutex::new(Some(pair.master)),
        size: Mutex::new(size),
        exit,
        tail,
        served: AtomicBool::new(false),
        killer: Mutex::new(killer),
        #[cfg(windows)]
        _input: input,
    })
}

/// What a terminal answers a cursor position query with: row 1, column 1.
const CURSOR_REPORT: &[u8] = b"\x1b[1;1R";

/// Finds cursor position queries (`ESC [ 6 n`) in the terminal's output, also when
/// one is split between reads.
#[derive(Default)]
struct CursorQueries {
    /// How much of the query the last bytes matched.
    matched: usize,
}

impl CursorQueries {
    const QUERY: &[u8] = b"\x1b[6n";

    /// How many queries end in `chunk`.
    fn count(&mut self, chunk: &[u8]) -> usize {
        let mut found = 0;
        for &byte in chunk {
            // No proper prefix of the query is also its suffix, except ESC alone.
            self.matched = if byte == Self::QUERY[self.matched] {
                self.matched + 1
            } else {
                usize::from(byte == Self::QUERY[0])
            };
            if self.matched == Self::QUERY.len() {
                found += 1;
                self.matched = 0;
            }
        }
        found
    }
}

/// Reads the terminal until the app closes it, keeping the last [`TAIL_BYTES`]; with
/// `answers` (Windows: the console's input), answers cursor position queries there, as
/// a terminal would (`ConPTY` may wait for one before it runs the app).
fn pump(
    mut reader: Box<dyn std::io::Read + Send>,
    tail: &Mutex<VecDeque<u8>>,
    answers: Option<&Mutex<Box<dyn Write + Send>>>,
) {
    let mut buf = [0u8; 8192];
    let mut queries = CursorQueries::default();
    loop {
        match reader.read(&mut buf) {
            Ok(0) => break,
            Ok(n) => {
                if let Some(answers) = answers {
                    for _ in 0..queries.count(&buf[..n]) {
                        let mut input = lock(answers);
                        if let Err(e) = input.write_all(CURSOR_REPORT).and_then(|()| input.flush())
                        {
                            tracing::debug!(error = %e, "cannot answer the terminal's cursor query");
                        }
                    }
                }
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

/// Where the app's socket goes, and the directory to remove afterwards: `<pid>.sock` in
/// a fresh private directory (see [`private_dir`]).
#[cfg(unix)]
fn private_socket() -> std::io::Result<(PathBuf, Option<PathBuf>)> {
    let dir = private_dir()?;
    let socket = dir.join(format!("{}.sock", std::process::id()));
    Ok((socket, Some(dir)))
}

/// Where the app's socket goes: on Windows the endpoint is a named pipe named after
/// the path's file stem, in one namespace for everyone, so the stem is
/// `mcp-<pid>-<64 random bits>`: unique per spawn, and not guessable for another
/// session (or user) to take first. The path is in the per-user socket directory;
/// no file is made there.
#[cfg(windows)]
fn private_socket() -> std::io::Result<(PathBuf, Option<PathBuf>)> {
    use std::hash::BuildHasher as _;
    let base = taria::wire::private_socket_dir().map_err(std::io::Error::other)?;
    // std seeds each RandomState from the OS's random source.
    let token = std::hash::RandomState::new().hash_one((
        std::process::id(),
        std::time::SystemTime::now(),
        Instant::now(),
    ));
    let socket = base.join(format!("mcp-{}-{token:016x}.sock", std::process::id()));
    Ok((socket, None))
}

/// A fresh directory only this user can enter, for the app's socket:
/// `mcp-<pid>-<n>` in the per-user socket directory apps use
/// (`$XDG_RUNTIME_DIR/taria`, else `<temp dir>/taria-<uid>`), which is checked to be
/// private first.
#[cfg(unix)]
fn private_dir() -> std::io::Result<PathBuf> {
    let base = taria::wire::private_socket_dir().map_err(std::io::Error::other)?;
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
#[cfg(unix)]
fn private_builder() -> std::fs::DirBuilder {
    use std::os::unix::fs::DirBuilderExt as _;
    let mut builder = std::fs::DirBuilder::new();
    builder.mode(0o700);
    builder
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
    fn cursor_queries_are_found_across_reads() {
        let mut queries = CursorQueries::default();
        assert_eq!(queries.count(b"\x1b[?1049h\x1b[6"), 0);
        assert_eq!(queries.count(b"n"), 1, "a query split between reads");
        assert_eq!(queries.count(b"\x1b\x1b[6n\x1b[66n\x1b[6n"), 2);
        assert_eq!(queries.count(b"\x1b[1;1R[6n"), 0);
    }

    /// A reader that hands out one chunk per read.
    struct Chunks(VecDeque<&'static [u8]>);

    impl std::io::Read for Chunks {
        fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
            let Some(chunk) = self.0.pop_front() else {
                return Ok(0);
            };
            buf[..chunk.len()].copy_from_slice(chunk);
            Ok(chunk.len())
        }
    }

    /// Collects what is written to it.
    struct Sink(Arc<Mutex<Vec<u8>>>);

    impl Write for Sink {
        fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
            lock(&self.0).extend_from_slice(buf);
            Ok(buf.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    #[test]
    fn the_output_reader_answers_cursor_queries_when_asked_to() {
        let output: [&'static [u8]; 3] = [b"\x1b[6nhello \x1b[", b"6nworld", b"\x1b[6n!"];
        let written = Arc::new(Mutex::new(Vec::new()));
        let input: Mutex<Box<dyn Write + Send>> = Mutex::new(Box::new(Sink(Arc::clone(&written))));
        let tail = Mutex::new(VecDeque::new());
        pump(Box::new(Chunks(output.into())), &tail, Some(&input));
        assert_eq!(lock(&written).as_slice(), b"\x1b[1;1R".repeat(3).as_slice());
        let kept: Vec<u8> = lock(&tail).iter().copied().collect();
        assert_eq!(plain_text(&kept), "hello world!");
        // Without an input to answer on (Unix), the output is only kept.
        let tail = Mutex::new(VecDeque::new());
        pump(Box::new(Chunks(output.into())), &tail, None);
        assert_eq!(lock(&tail).len(), kept.len());
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
