//! The app endpoint: a local socket (Unix socket, named pipe on Windows) that serves
//! the semantic tree to one bridge at a time and queues its inputs for the app.
//!
//! All socket I/O runs on the endpoint's own threads. The UI thread only swaps data
//! in and out of [`Shared`] under a mutex held for a copy, never for I/O.
//!
//! ```text
//! UI thread (app loop)                        endpoint threads
//! Session::drain(&mut app)  ◀── inbox ─────── taria-endpoint-reader: lines -> BridgeMessage
//!    validate, route, queue keys                                   (capped, never panics)
//!    ack ─────────────────────── outbox ───▶ taria-endpoint-writer: acks first, then a
//! Session::draw / record                                           tree or a patch, screen
//!    record (only while connected)
//!    publish: copy arena + buffer ─ frame ─▶ (taken under the lock; the Tree built and
//!    then ratatui diffs, writes the terminal   diffed off the UI thread)
//! taria::event::read: agent keys first,
//!    terminal events, FocusGained to turn     taria-endpoint: accepts; refuses a second
//!                                             client (`busy`) and other users
//! ```
//!
//! A slow client gets the newest frame: a frame not yet taken is overwritten, never
//! queued. Writes have a 5 s send timeout (`connection::SEND_TIMEOUT`; named pipes have
//! none, so there a stalled client blocks only the writer thread), and a stalled client
//! is dropped, never waited for by the app. Each connection has a number (`Shared::live`,
//! an atomic stored under the lock that changes it, so the event wait checks each agent
//! key without locking): queued inputs, queued agent keys (a half-typed `text`) and acks
//! of a closed connection are dropped, so a reconnecting bridge never applies or hears of
//! another's input. When only the stamp of the newest input handled advanced, the writer
//! sends an empty patch, so a bridge can tell "handled, nothing changed" from "not drawn
//! yet".
//!
//! taria installs no signal handlers: a library that catches SIGTERM or SIGHUP changes
//! how the app dies (and may fight the app's own handlers) for a file that does no harm.
//! An app killed by a signal leaves its socket file; a client is refused meanwhile (the
//! bridge says the app is no longer running), and the app's next start replaces the file
//! (`remove_stale_socket` connects first, so a live app's socket is never taken).

mod connection;
mod line;
mod screen_text;

pub(crate) use screen_text::screen_styles;
pub use screen_text::screen_text;

use std::collections::VecDeque;
use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicU64;
use std::sync::{Arc, Condvar, Mutex, MutexGuard};

use interprocess::local_socket::traits::{Listener as _, Stream as _};
use interprocess::local_socket::{Listener, ListenerOptions, Stream};
use ratatui::buffer::Buffer;

use crate::lock::lock;
use crate::logs::LogSink;
use crate::recorder::FrameArena;
use taria_schema::protocol::{AppMessage, Input};
use taria_schema::socket::EndpointError;
use taria_schema::socket::{self, socket_name, socket_path};

/// What the app's event wait wakes up for.
#[derive(Default)]
pub(crate) struct Wake {
    /// Inputs arrived, or a client came or went: the app should drain and redraw.
    pub(crate) poked: bool,
    /// Terminal events read by the terminal-input thread.
    pub(crate) terminal: VecDeque<ratatui::crossterm::event::Event>,
    /// Why the terminal-input thread stopped, if it did.
    pub(crate) terminal_error: Option<std::io::Error>,
    /// How many [`crate::event::Paused`] guards are alive: while any is, the
    /// terminal-input thread does not read (see [`crate::event::pause`]).
    pub(crate) paused: u32,
    /// The terminal-input thread runs (it has started and not failed).
    pub(crate) reader_running: bool,
    /// The terminal-input thread is waiting, not reading, while `paused > 0`.
    pub(crate) reader_parked: bool,
}

/// Wakes the app's event wait (see [`crate::event`]).
#[derive(Default)]
pub(crate) struct Signal {
    pub(crate) wake: Mutex<Wake>,
    pub(crate) cond: Condvar,
}

impl Signal {
    pub(crate) fn poke(&self) {
        lock(&self.wake).poked = true;
        self.cond.notify_all();
    }
}

/// An input waiting for the app, tagged with the connection it came from.
pub(crate) struct QueuedInput {
    pub(crate) connection: u64,
    pub(crate) seq: u64,
    pub(crate) input: Input,
}

/// The last frame the app published, for the writer to send.
#[derive(Default)]
pub(crate) struct PublishedFrame {
    pub(crate) arena: FrameArena,
    pub(crate) buffer: Buffer,
    /// The newest input handled before this frame was drawn.
    pub(crate) input: u64,
    /// Set by the app when it publishes, cleared when the writer takes the frame.
    pub(crate) fresh: bool,
    /// Whether any frame was published on the current connection.
    pub(crate) any: bool,
}

/// What the bridge asked of the screen since the writer last sent one.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum ScreenWanted {
    /// Nothing.
    #[default]
    No,
    /// Its text.
    Text,
    /// Its text and styles (answers a request for the text too).
    Styled,
}

/// State shared by the UI thread and the endpoint threads.
#[derive(Default)]
#[expect(
    clippy::struct_excessive_bools,
    reason = "independent request and lifecycle flags"
)]
pub(crate) struct SharedState {
    /// The current connection's number (0: none). Inputs and acks of another
    /// connection are discarded.
    pub(crate) connection: u64,
    pub(crate) inbox: VecDeque<QueuedInput>,
    pub(crate) outbox: VecDeque<AppMessage>,
    pub(crate) frame: PublishedFrame,
    /// Log entries wait in the app's sink for this connection (its wake-up sets it).
    pub(crate) logs_ready: bool,
    pub(crate) want_tree: bool,
    pub(crate) want_screen: ScreenWanted,
    /// The screen sent after each tree and patch: `Text` once the bridge's hello
    /// asked for it (`screens`), else `No`.
    pub(crate) push_screens: ScreenWanted,
    pub(crate) shutdown: bool,
    /// Set by the writer once it has sent what was queued at shutdown.
    pub(crate) flushed: bool,
}

pub(crate) struct Shared {
    pub(crate) state: Mutex<SharedState>,
    /// Wakes the writer thread.
    pub(crate) writer: Condvar,
    /// The connected client's number (0: none), readable without the lock: the app
    /// records frames only while a client is connected, and drops the queued keys of
    /// a connection that has closed.
    pub(crate) live: AtomicU64,
    pub(crate) next_connection: AtomicU64,
    pub(crate) signal: Arc<Signal>,
    pub(crate) label: String,
    /// The app's log entries, for a connection that asks for them (none when the app
    /// has no `taria::logs` layer).
    pub(crate) logs: Option<Arc<LogSink>>,
}

/// The target of the events that time an agent's input through the app, one per
/// step (queued by the reader, the loop woken, the input routed, the frame begun,
/// drawn and published, sent by the writer), at TRACE: nothing unless the app
/// installs a `tracing` subscriber that enables them, and then one flag check each.
/// `benches/mcp/act_latency.py --split` reads them from the `todo` example's log.
pub(crate) const LATENCY: &str = "taria::latency";

impl Shared {
    pub(crate) fn lock(&self) -> MutexGuard<'_, SharedState> {
        lock(&self.state)
    }

    /// Queues a message for the current connection, if it is still `connection`.
    pub(crate) fn send(&self, connection: u64, message: AppMessage) {
        let mut state = self.lock();
        if state.connection == connection && connection != 0 {
            state.outbox.push_back(message);
            self.writer.notify_all();
        }
    }
}

/// A running endpoint. Dropping it stops accepting and removes the socket file (if
/// it is still the one this endpoint made).
pub(crate) struct Endpoint {
    pub(crate) shared: Arc<Shared>,
    path: PathBuf,
    /// The socket file this endpoint made (device and inode), so that it removes
    /// that one only, never a newer app's at the same path.
    file: Option<FileId>,
}

impl std::fmt::Debug for Endpoint {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Endpoint")
            .field("label", &self.shared.label)
            .field("path", &self.path)
            .finish_non_exhaustive()
    }
}

impl Endpoint {
    /// Binds the socket for `label` (see [`socket_path`]) and starts serving; a
    /// connection that asks for logs takes them from `logs`.
    pub(crate) fn bind(
        label: &str,
        signal: Arc<Signal>,
        logs: Option<Arc<LogSink>>,
    ) -> Result<Endpoint, EndpointError> {
        let path = socket_path(label)?;
        Endpoint::bind_at(label, &path, signal, logs)
    }

    /// Binds the socket at `path`.
    pub(crate) fn bind_at(
        label: &str,
        path: &Path,
        signal: Arc<Signal>,
        logs: Option<Arc<LogSink>>,
    ) -> Result<Endpoint, EndpointError> {
        socket::check_label(label)?;
        socket::check_socket_path(path)?;
        socket::prepare_dir(path)?;
        remove_stale_socket(label, path)?;
        let io_error = |source| EndpointError::Io {
            path: path.to_owned(),
            source,
        };
        let (listener, file) = listen(path).map_err(|source| {
            if source.kind() == std::io::ErrorKind::AddrInUse {
                EndpointError::LabelInUse {
                    label: label.to_owned(),
                    path: path.to_owned(),
                }
            } else {
                io_error(source)
            }
        })?;
        let shared = Arc::new(Shared {
            state: Mutex::new(SharedState::default()),
            writer: Condvar::new(),
            live: AtomicU64::new(0),
            next_connection: AtomicU64::new(1),
            signal,
            label: label.to_owned(),
            logs,
        });
        let accept_shared = Arc::clone(&shared);
        std::thread::Builder::new()
            .name("taria-endpoint".into())
            .spawn(move || accept_loop(&listener, &accept_shared))
            .map_err(io_error)?;
        tracing::info!(label, path = %path.display(), "taria endpoint listening");
        Ok(Endpoint {
            shared,
            path: path.to_owned(),
            file,
        })
    }

    /// The socket's path.
    #[must_use]
    pub(crate) fn path(&self) -> &Path {
        &self.path
    }
}

/// How long dropping an endpoint waits for the writer to send what is queued (such
/// as the ack of the action that made the app quit).
const FLUSH_ON_DROP: std::time::Duration = std::time::Duration::from_millis(250);

impl Drop for Endpoint {
    fn drop(&mut self) {
        {
            let mut state = self.shared.lock();
            state.shutdown = true;
            self.shared.writer.notify_all();
            let deadline = std::time::Instant::now() + FLUSH_ON_DROP;
            while state.connection != 0 && !state.flushed {
                let now = std::time::Instant::now();
                if now >= deadline {
                    break;
                }
                state = self
                    .shared
                    .writer
                    .wait_timeout(state, deadline - now)
                    .map_or_else(|e| e.into_inner().0, |r| r.0);
            }
            state.connection = 0;
            state.inbox.clear();
        }
        self.shared.writer.notify_all();
        // Another app may have taken the path since (after this one's file was
        // removed): then it is not ours to connect to, nor to remove. A named pipe
        // has no file, and its name is ours while this listener holds it.
        let ours = match self.file {
            Some(file) => FileId::of(&self.path) == Some(file),
            None => cfg!(not(unix)),
        };
        if !ours {
            // The accept thread stays parked on a listener nobody can reach any more,
            // until the process ends.
            tracing::debug!(path = %self.path.display(), "the socket file is not ours any more; left in place");
            return;
        }
        // Unblock the accept loop with a connection of our own; it sees `shutdown`.
        if let Ok(name) = socket_name(&self.path) {
            let _ = Stream::connect(name);
        }
        #[cfg(unix)]
        let _ = std::fs::remove_file(&self.path);
    }
}

/// Which file a path names: device and inode (Unix; named pipes have no file).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct FileId {
    device: u64,
    inode: u64,
}

impl FileId {
    #[cfg(unix)]
    fn of(path: &Path) -> Option<FileId> {
        use std::os::unix::fs::MetadataExt as _;
        let meta = std::fs::symlink_metadata(path).ok()?;
        Some(FileId {
            device: meta.dev(),
            inode: meta.ino(),
        })
    }

    #[cfg(not(unix))]
    fn of(_: &Path) -> Option<FileId> {
        None
    }
}

/// A listener on `path` (`AddrInUse` when the name is taken).
///
/// On Unix the socket file appears only once it accepts connections, so a client that
/// sees the file can connect at once: binding a socket creates its file a moment
/// before `listen`, and a connection in between is refused (as if from a dead app).
/// So the listener is made under a temporary name beside `path` and hard-linked into
/// place; unlike `rename`, `link` fails if another app took the name meanwhile. Where
/// that cannot be done (a temporary name too long for a socket path, a filesystem
/// without hard links), it binds `path` directly.
/// Also returns the socket file made, to remove only that one later.
#[cfg(unix)]
fn listen(path: &Path) -> std::io::Result<(Listener, Option<FileId>)> {
    static NEXT: AtomicU64 = AtomicU64::new(0);
    let n = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let temporary = path.with_file_name(format!(".{}-{n}.tmp", std::process::id()));
    let created = socket_name(&temporary).and_then(|name| {
        ListenerOptions::new()
            .name(name)
            .reclaim_name(false)
            .create_sync()
    });
    let listener = match created {
        Ok(listener) => listener,
        Err(e) => {
            tracing::debug!(path = %temporary.display(), error = %e, "cannot listen under a temporary name");
            return listen_directly(path);
        }
    };
    // The temporary name and `path` are one file once linked: its identity is known
    // before anyone else can replace `path`.
    let file = FileId::of(&temporary);
    let published = std::fs::hard_link(&temporary, path);
    let _ = std::fs::remove_file(&temporary);
    match published {
        Ok(()) => Ok((listener, file)),
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => Err(std::io::Error::new(
            std::io::ErrorKind::AddrInUse,
            "the socket name is taken",
        )),
        Err(e) => {
            tracing::debug!(path = %path.display(), error = %e, "cannot link the socket into place");
            drop(listener);
            listen_directly(path)
        }
    }
}

/// A listener on `path`, a named pipe on Windows (there is no file to appear early).
#[cfg(not(unix))]
fn listen(path: &Path) -> std::io::Result<(Listener, Option<FileId>)> {
    listen_directly(path)
}

/// `Endpoint::drop` removes the socket file; the listener must not, later, when a new
/// app may have taken the name.
fn listen_directly(path: &Path) -> std::io::Result<(Listener, Option<FileId>)> {
    let listener = ListenerOptions::new()
        .name(socket_name(path)?)
        .reclaim_name(false)
        .create_sync()?;
    Ok((listener, FileId::of(path)))
}

/// Removes a socket file nobody listens on; refuses when somebody does.
fn remove_stale_socket(label: &str, path: &Path) -> Result<(), EndpointError> {
    let Ok(meta) = std::fs::symlink_metadata(path) else {
        return Ok(());
    };
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt as _;
        if !meta.file_type().is_socket() {
            return Err(EndpointError::NotASocket {
                path: path.to_owned(),
            });
        }
    }
    #[cfg(not(unix))]
    let _ = meta;
    let name = socket_name(path).map_err(|source| EndpointError::Io {
        path: path.to_owned(),
        source,
    })?;
    if Stream::connect(name).is_ok() {
        return Err(EndpointError::LabelInUse {
            label: label.to_owned(),
            path: path.to_owned(),
        });
    }
    tracing::debug!(path = %path.display(), "removing stale taria socket");
    std::fs::remove_file(path).map_err(|source| EndpointError::Io {
        path: path.to_owned(),
        source,
    })
}

fn accept_loop(listener: &interprocess::local_socket::Listener, shared: &Arc<Shared>) {
    loop {
        let stream = match listener.accept() {
            Ok(stream) => stream,
            Err(error) => {
                if lock(&shared.state).shutdown {
                    return;
                }
                tracing::warn!(%error, "taria endpoint: accept failed");
                std::thread::sleep(std::time::Duration::from_millis(50));
                continue;
            }
        };
        if shared.lock().shutdown {
            return;
        }
        connection::serve(stream, shared);
    }
}
