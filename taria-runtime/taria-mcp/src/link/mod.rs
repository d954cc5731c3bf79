//! The connection to the app: one socket, a reader task that keeps the newest tree
//! (full trees and patches through [`FlatTree`]), acks matched to inputs by `seq`,
//! screen requests, and a [`watch`] channel that wakes whoever waits for a change.
//!
//! The link connects on first use, reconnects (with backoff) when the app restarts,
//! and lets go of the app after `--idle-release` without a tool call. In spawn mode it
//! knows the app it started ([`Spawned`]): it waits for the socket to appear, and once
//! the app has exited every call answers `app_exited` with its exit status.
//!
//! Revisions given to the agent are the bridge's own: one more for every tree or patch
//! taken, so they keep increasing across reconnects (the app counts from 1 on every
//! connection) whatever numbers the app sends.
//!
//! Everything the app sends is untrusted: no number from it is added to or indexed by
//! unchecked, and a reader task that ends in any way (a panic included) marks its
//! connection down, so the next call reconnects or says why.
//!
//! By concern: [`connect`] (connecting, reconnecting, idle release), [`reader`] (the
//! reader task and line decoding), [`send`] (inputs, acks, effects and screens).

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use taria::Tree;
use taria::wire::mirror::FlatTree;
use taria::wire::protocol;
use taria::wire::protocol::{AckStatus, RejectReason};
use tokio::sync::{oneshot, watch};

use crate::errors::{Code, ToolError};
use crate::limits::RateLimit;
use crate::record::Recorder;
use crate::spawn::Spawned;
use connect::release_when_idle;

mod connect;
mod gone;
mod reader;
mod send;

/// The app's local socket: a Unix socket, or a named pipe on Windows (the name the
/// app listens on, see `taria::wire::socket::socket_name`).
type Stream = interprocess::local_socket::tokio::Stream;
type WriteHalf = Half;

/// One end of a connection shared by its reader and its writer (`&Stream` reads and
/// writes; interprocess advises this over splitting). The connection closes when
/// both ends are dropped.
struct Half(Arc<Stream>);

impl tokio::io::AsyncRead for Half {
    fn poll_read(
        self: std::pin::Pin<&mut Self>,
        cx: &mut std::task::Context<'_>,
        buf: &mut tokio::io::ReadBuf<'_>,
    ) -> std::task::Poll<std::io::Result<()>> {
        std::pin::Pin::new(&mut &*self.0).poll_read(cx, buf)
    }
}

impl tokio::io::AsyncWrite for Half {
    fn poll_write(
        self: std::pin::Pin<&mut Self>,
        cx: &mut std::task::Context<'_>,
        buf: &[u8],
    ) -> std::task::Poll<std::io::Result<usize>> {
        std::pin::Pin::new(&mut &*self.0).poll_write(cx, buf)
    }

    fn poll_flush(
        self: std::pin::Pin<&mut Self>,
        cx: &mut std::task::Context<'_>,
    ) -> std::task::Poll<std::io::Result<()>> {
        std::pin::Pin::new(&mut &*self.0).poll_flush(cx)
    }

    fn poll_shutdown(
        self: std::pin::Pin<&mut Self>,
        cx: &mut std::task::Context<'_>,
    ) -> std::task::Poll<std::io::Result<()>> {
        std::pin::Pin::new(&mut &*self.0).poll_shutdown(cx)
    }
}

/// How long an input may wait for its ack (plus [`ACK_PER_KEY`] for each key it types).
pub(crate) const ACK_TIMEOUT: Duration = Duration::from_secs(5);
/// What each key of an input adds to its ack bound: an app reads typed keys one frame
/// at a time (a 4,096-character text took 1.9–4.6 s in a debug build on a loaded
/// 2-core machine), so a long, legal input must not time out on a slower one.
pub(crate) const ACK_PER_KEY: Duration = Duration::from_millis(3);
/// How long to wait for the tree that shows an input's effect.
pub(crate) const EFFECT_TIMEOUT: Duration = Duration::from_secs(5);
/// How long a message to the app may wait for its turn and for room in the socket: past
/// that, the app has stopped reading it.
pub(crate) const WRITE_TIMEOUT: Duration = Duration::from_secs(5);
/// How long a fresh connection may take to deliver its first tree.
const FIRST_TREE_TIMEOUT: Duration = Duration::from_secs(3);
/// The first wait before reconnecting to an app that went away; it doubles with every
/// attempt up to [`RECONNECT_MAX`], and starts again from here once a connection has
/// lasted [`RECONNECT_STABLE`].
const RECONNECT_MIN: Duration = Duration::from_millis(100);
/// The longest wait between reconnection attempts.
const RECONNECT_MAX: Duration = Duration::from_secs(2);
/// A connection that lasted this long resets the reconnection backoff.
const RECONNECT_STABLE: Duration = Duration::from_secs(2);

/// How long an input of `keys` key presses may wait for its ack(s): [`ACK_TIMEOUT`]
/// plus [`ACK_PER_KEY`] for each key (`press_key` with `repeat` counts every press).
pub(crate) fn ack_bound(keys: usize) -> Duration {
    let keys = u32::try_from(keys).unwrap_or(u32::MAX);
    ACK_TIMEOUT.saturating_add(ACK_PER_KEY.saturating_mul(keys))
}

/// The app's answer to one input.
#[derive(Clone, Debug)]
pub(crate) struct Ack {
    /// What happened; `Err` holds a status this taria-mcp does not know, as the app
    /// wrote it (capped).
    pub(crate) status: Result<AckStatus, String>,
    /// Why, when not delivered.
    pub(crate) reason: Option<RejectReason>,
    /// A reason this taria-mcp does not know, as the app wrote it (capped).
    pub(crate) unknown_reason: Option<String>,
    /// The app's sentence.
    pub(crate) message: Option<String>,
}

/// The newest tree and where it stands.
#[derive(Clone, Debug)]
pub(crate) struct View {
    /// The tree.
    pub(crate) tree: Arc<Tree>,
    /// The bridge's revision of it.
    pub(crate) revision: u64,
}

/// The rendered screen.
#[derive(Clone, Debug)]
pub(crate) struct Screen {
    /// The revision drawn in the same frame (the bridge's numbering).
    pub(crate) revision: u64,
    /// Width in columns.
    pub(crate) cols: u16,
    /// One string per row.
    pub(crate) rows: Vec<String>,
}

/// An input on its way: its `seq` and the receiver of its ack.
pub(crate) struct Sent {
    /// The input's sequence number.
    pub(crate) seq: u64,
    generation: u64,
    ack: oneshot::Receiver<Answer<Ack>>,
}

/// The app's answer to a request, or why the connection ended before it came.
type Answer<T> = Result<T, Closed>;

/// The tree of the last result the agent was given, shared with the transport.
#[derive(Clone, Default)]
pub(crate) struct Seen(Arc<Mutex<Option<Arc<Tree>>>>);

impl Seen {
    pub(crate) fn set(&self, tree: &Arc<Tree>) {
        *lock(&self.0) = Some(Arc::clone(tree));
    }

    pub(crate) fn get(&self) -> Option<Arc<Tree>> {
        lock(&self.0).clone()
    }
}

/// Why the last connection ended.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Closed {
    /// The app closed it (it exited or restarted).
    Exited,
    /// The app refused us: another client holds it.
    Busy(String),
    /// The app refused us: another user.
    Refused(String),
    /// We let go after the idle time.
    Released,
    /// We let go because the app stopped reading its socket (a write timed out).
    Stalled,
    /// The reader of the connection ended abnormally (it panicked): a bug in
    /// taria-mcp, met on something the app sent.
    Failed,
}

impl Closed {
    /// What ended the connection in the middle of an exchange, for an error message
    /// ("sent, but … before answering"), and the error code that goes with it.
    fn cut_off(&self) -> (Code, &'static str) {
        match self {
            Closed::Stalled => (
                Code::Timeout,
                "the app stopped reading its socket (taria-mcp dropped the connection)",
            ),
            Closed::Released => (Code::AppNotConnected, "taria-mcp let go of the app"),
            Closed::Failed => (
                Code::AppNotConnected,
                "taria-mcp's reader of the app's connection failed (see its log)",
            ),
            Closed::Exited | Closed::Busy(_) | Closed::Refused(_) => (
                Code::AppExited,
                "the app closed the connection (it exited or restarted)",
            ),
        }
    }
}

/// The link to one app socket. Cheap to clone.
#[derive(Clone)]
pub(crate) struct Link {
    inner: Arc<Inner>,
}

struct Inner {
    socket: PathBuf,
    idle_release: Option<Duration>,
    /// The app taria-mcp started (spawn mode).
    spawned: Option<Arc<Spawned>>,
    state: Mutex<State>,
    /// Bumped on every change of tree or connection.
    changed: watch::Sender<u64>,
    /// One connection attempt at a time.
    connecting: tokio::sync::Mutex<()>,
    next_seq: AtomicU64,
    last_use: Mutex<Instant>,
    in_flight: AtomicUsize,
    /// The tree the agent last saw (through any tool result).
    seen: Seen,
    /// The last tree the agent saw with no modal dialog open: how the nodes behind a
    /// dialog were, with their actions, before it made them inert (see
    /// [`crate::tools::change`]).
    seen_live: Mutex<Option<Arc<Tree>>>,
    /// Inputs per second (see [`crate::limits`]).
    rate: Mutex<RateLimit>,
    /// Woken whenever inputs stop waiting for their ack (room under
    /// [`MAX_IN_FLIGHT`](crate::limits::MAX_IN_FLIGHT)).
    room: tokio::sync::Notify,
    /// Whether the (one) reconnection loop is running.
    reconnecting: AtomicBool,
    /// Where the session is recorded (`--record`).
    recorder: Option<Recorder>,
}

#[derive(Default)]
struct State {
    writer: Option<Arc<tokio::sync::Mutex<WriteHalf>>>,
    reader: Option<tokio::task::JoinHandle<()>>,
    generation: u64,
    protocol: Option<u32>,
    app: Option<String>,
    flat: Option<FlatTree>,
    tree: Option<Arc<Tree>>,
    /// The bridge's revision: one more for every tree or patch taken.
    revision: u64,
    /// The app's revision of the newest tree or patch taken.
    app_revision: u64,
    input: u64,
    acks: HashMap<u64, oneshot::Sender<Answer<Ack>>>,
    screens: Vec<oneshot::Sender<Answer<Screen>>>,
    closed: Option<Closed>,
    /// When the current connection was made.
    connected_at: Option<Instant>,
    /// The reconnection loop's next wait.
    backoff: Duration,
}

/// Marks a tool call in progress (no idle release meanwhile).
pub(crate) struct InUse(Arc<Inner>);

impl Drop for InUse {
    fn drop(&mut self) {
        *lock(&self.0.last_use) = Instant::now();
        self.0.in_flight.fetch_sub(1, Ordering::Relaxed);
    }
}

use crate::lock;

impl Link {
    /// A link to the app at `socket` (not connected yet), recording to `recorder`.
    /// Call from a tokio runtime.
    pub(crate) fn new(
        socket: PathBuf,
        idle_release: Option<Duration>,
        recorder: Option<Recorder>,
    ) -> Link {
        Link::with_app(socket, idle_release, None, recorder)
    }

    /// A link to an app taria-mcp started; it connects as soon as the app serves.
    pub(crate) fn spawned(spawned: Arc<Spawned>, recorder: Option<Recorder>) -> Link {
        let link = Link::with_app(spawned.socket().to_owned(), None, Some(spawned), recorder);
        link.inner.reconnect_soon();
        link
    }

    fn with_app(
        socket: PathBuf,
        idle_release: Option<Duration>,
        spawned: Option<Arc<Spawned>>,
        recorder: Option<Recorder>,
    ) -> Link {
        let inner = Arc::new(Inner {
            socket,
            idle_release,
            spawned,
            state: Mutex::new(State {
                backoff: RECONNECT_MIN,
                ..State::default()
            }),
            changed: watch::Sender::new(0),
            connecting: tokio::sync::Mutex::new(()),
            next_seq: AtomicU64::new(1),
            last_use: Mutex::new(Instant::now()),
            in_flight: AtomicUsize::new(0),
            seen: Seen::default(),
            seen_live: Mutex::new(None),
            rate: Mutex::new(RateLimit::new(Instant::now())),
            room: tokio::sync::Notify::new(),
            reconnecting: AtomicBool::new(false),
            recorder,
        });
        if let Some(idle) = idle_release {
            tokio::spawn(release_when_idle(Arc::downgrade(&inner), idle));
        }
        Link { inner }
    }

    /// The socket this link attaches to.
    pub(crate) fn socket(&self) -> &std::path::Path {
        &self.inner.socket
    }

    /// Where the session is recorded, with `--record`.
    pub(crate) fn recorder(&self) -> Option<&Recorder> {
        self.inner.recorder.as_ref()
    }

    /// The app taria-mcp started, in spawn mode.
    pub(crate) fn spawned_app(&self) -> Option<&Arc<Spawned>> {
        self.inner.spawned.as_ref()
    }

    /// Marks a tool call in progress until the guard drops.
    pub(crate) fn in_use(&self) -> InUse {
        self.inner.in_flight.fetch_add(1, Ordering::Relaxed);
        *lock(&self.inner.last_use) = Instant::now();
        InUse(Arc::clone(&self.inner))
    }

    /// Remembers `tree` as the one the agent last saw: actions on positional ids are
    /// checked against it, so they cannot hit a node that moved into the place.
    pub(crate) fn saw(&self, tree: &Arc<Tree>) {
        self.inner.seen.set(tree);
        if !tree.iter().any(|n| n.state.modal) {
            *lock(&self.inner.seen_live) = Some(Arc::clone(tree));
        }
    }

    /// The last tree the agent saw with no modal dialog open.
    pub(crate) fn seen_live(&self) -> Option<Arc<Tree>> {
        lock(&self.inner.seen_live).clone()
    }

    /// Where the tree the agent last saw is kept, for the transport to note it as
    /// each input call arrives (see [`crate::order::Turn::seen_at_arrival`]).
    pub(crate) fn seen_slot(&self) -> Seen {
        self.inner.seen.clone()
    }

    /// A receiver that wakes on every change of tree or connection.
    pub(crate) fn changes(&self) -> watch::Receiver<u64> {
        self.inner.changed.subscribe()
    }

    /// The newest tree, connecting first when needed.
    pub(crate) async fn view(&self) -> Result<View, ToolError> {
        self.ensure_connected().await?;
        let view = current_view(&lock(&self.inner.state));
        match view {
            Some(view) => Ok(view),
            None => Err(self.not_connected_now().await),
        }
    }

    /// The newest tree if connected, without connecting.
    pub(crate) fn cached_view(&self) -> Option<View> {
        current_view(&lock(&self.inner.state))
    }

    /// The newest revision seen (kept after the connection closed), and whether the
    /// app is connected now.
    pub(crate) fn last_revision(&self) -> (u64, bool) {
        let state = lock(&self.inner.state);
        (state.revision, state.writer.is_some())
    }

    /// Fails when the app speaks another protocol version (inputs would be misread).
    pub(crate) fn check_protocol(&self) -> Result<(), ToolError> {
        match lock(&self.inner.state).protocol {
            Some(v) if v != protocol::PROTOCOL_VERSION => Err(ToolError::new(
                Code::ProtocolMismatch,
                format!(
                    "the app speaks taria protocol v{v}, this taria-mcp speaks v{}: reading works, \
                     but inputs are refused so they cannot be misread; use a taria-mcp built with \
                     the app's taria version",
                    protocol::PROTOCOL_VERSION
                ),
            )),
            _ => Ok(()),
        }
    }

    /// Whether the app closed the last connection (it exited or restarted), and none
    /// has come since.
    pub(crate) fn app_left(&self) -> bool {
        let state = lock(&self.inner.state);
        state.writer.is_none() && state.closed == Some(Closed::Exited)
    }

    /// What ended the last connection, in words that follow "delivered, then", when it
    /// has ended.
    pub(crate) fn cut_off(&self) -> Option<&'static str> {
        lock(&self.inner.state)
            .closed
            .as_ref()
            .map(|c| c.cut_off().1)
    }

    /// Waits until the revision is past `since` (then the newest view), the deadline
    /// passes or `cancel` fires (then `None`).
    pub(crate) async fn wait_past(
        &self,
        since: u64,
        timeout: Duration,
        cancel: impl std::future::Future<Output = ()>,
    ) -> Result<Option<View>, ToolError> {
        self.ensure_connected().await?;
        let mut changes = self.changes();
        let deadline = tokio::time::Instant::now() + timeout;
        tokio::pin!(cancel);
        loop {
            if lock(&self.inner.state).writer.is_none() {
                return Err(self.not_connected_now().await);
            }
            {
                let state = lock(&self.inner.state);
                if state.revision > since
                    && let Some(view) = current_view(&state)
                {
                    return Ok(Some(view));
                }
            }
            tokio::select! {
                _ = changes.changed() => {}
                () = tokio::time::sleep_until(deadline) => return Ok(None),
                () = &mut cancel => return Ok(None),
            }
        }
    }
}

fn current_view(state: &State) -> Option<View> {
    let tree = state.tree.clone()?;
    state.writer.as_ref()?;
    Some(View {
        tree,
        revision: state.revision,
    })
}
