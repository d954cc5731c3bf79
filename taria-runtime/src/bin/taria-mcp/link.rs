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

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use taria::Tree;
use taria::wire::FlatTree;
use taria::wire::{self, AckStatus, AppMessage, BridgeMessage, ErrorCode, Input, RejectReason};
use tokio::io::{AsyncBufRead, AsyncBufReadExt, AsyncWriteExt, BufReader};
use tokio::sync::{oneshot, watch};

use crate::errors::{Code, ToolError};
use crate::limits::{RATE_PER_SECOND, RateLimit, check_in_flight};
use crate::spawn::Spawned;

/// The app's local socket: a Unix socket, or a named pipe on Windows (the name the
/// app listens on, see `taria::wire::socket_name`).
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
    /// The tree before the modal dialog that is open now opened, as an input's
    /// result last showed it (see [`crate::tools::change`]).
    before_modal: Mutex<Option<Arc<Tree>>>,
    /// Inputs per second (see [`crate::limits`]).
    rate: Mutex<RateLimit>,
    /// Woken whenever inputs stop waiting for their ack (room under
    /// [`MAX_IN_FLIGHT`](crate::limits::MAX_IN_FLIGHT)).
    room: tokio::sync::Notify,
    /// Whether the (one) reconnection loop is running.
    reconnecting: AtomicBool,
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

fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

impl Link {
    /// A link to the app at `socket` (not connected yet). Call from a tokio runtime.
    pub(crate) fn new(socket: PathBuf, idle_release: Option<Duration>) -> Link {
        Link::with_app(socket, idle_release, None)
    }

    /// A link to an app taria-mcp started; it connects as soon as the app serves.
    pub(crate) fn spawned(spawned: Arc<Spawned>) -> Link {
        let link = Link::with_app(spawned.socket().to_owned(), None, Some(spawned));
        link.inner.reconnect_soon();
        link
    }

    fn with_app(
        socket: PathBuf,
        idle_release: Option<Duration>,
        spawned: Option<Arc<Spawned>>,
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
            before_modal: Mutex::new(None),
            rate: Mutex::new(RateLimit::new(Instant::now())),
            room: tokio::sync::Notify::new(),
            reconnecting: AtomicBool::new(false),
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
    }

    /// Keeps the tree from before a modal dialog opened (or forgets it, with
    /// `None`); returns the one kept until now.
    pub(crate) fn set_before_modal(&self, tree: Option<Arc<Tree>>) -> Option<Arc<Tree>> {
        std::mem::replace(&mut *lock(&self.inner.before_modal), tree)
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
        let state = lock(&self.inner.state);
        current_view(&state).ok_or_else(|| self.inner.not_connected(&state))
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
            Some(v) if v != wire::PROTOCOL_VERSION => Err(ToolError::new(
                Code::ProtocolMismatch,
                format!(
                    "the app speaks taria protocol v{v}, this taria-mcp speaks v{}: reading works, \
                     but inputs are refused so they cannot be misread; use a taria-mcp built with \
                     the app's taria version",
                    wire::PROTOCOL_VERSION
                ),
            )),
            _ => Ok(()),
        }
    }

    /// Connects (or reconnects) unless connected with a tree, then waits for the first
    /// tree. One call connects at a time; the others wait for it no longer than they
    /// would connect themselves, and every call waits for the first tree on its own
    /// clock (calls at once to an app that accepts but never draws each fail after
    /// [`FIRST_TREE_TIMEOUT`], not one after another).
    pub(crate) async fn ensure_connected(&self) -> Result<(), ToolError> {
        if self.has_tree() {
            return Ok(());
        }
        let budget = match &self.inner.spawned {
            Some(_) => crate::spawn::STARTUP_WAIT,
            None => FIRST_TREE_TIMEOUT,
        };
        let deadline = Instant::now() + budget;
        {
            let Ok(_one) = tokio::time::timeout(budget, self.inner.connecting.lock()).await else {
                return Err(ToolError::new(
                    Code::Timeout,
                    format!(
                        "another call has been connecting to the app for {} s and is not done; \
                         retry in a while",
                        budget.as_secs()
                    ),
                ));
            };
            if self.has_tree() {
                return Ok(());
            }
            let connected = lock(&self.inner.state).writer.is_some();
            if !connected {
                match &self.inner.spawned {
                    Some(spawned) => self.connect_spawned(spawned, deadline).await?,
                    None => self.inner.connect().await?,
                }
            }
        }
        self.wait_first_tree().await
    }

    fn has_tree(&self) -> bool {
        let state = lock(&self.inner.state);
        state.writer.is_some() && state.tree.is_some()
    }

    /// Connects to the app taria-mcp started. A starting app's socket file may appear a
    /// moment before it listens (when it binds directly, or with another taria), so
    /// until the first connection a refused one is retried until `deadline`.
    async fn connect_spawned(&self, spawned: &Spawned, deadline: Instant) -> Result<(), ToolError> {
        loop {
            spawned.ready(deadline).await?;
            let error = match self.inner.connect().await {
                Ok(()) => return Ok(()),
                Err(error) => error,
            };
            if spawned.starting() {
                if Instant::now() < deadline {
                    tokio::time::sleep(Duration::from_millis(20)).await;
                    continue;
                }
                return Err(ToolError::new(
                    Code::AppNotConnected,
                    format!(
                        "the app has created its socket {} but has not accepted a connection \
                         for {} s; is it stuck while starting? Retry in a while",
                        self.inner.socket.display(),
                        crate::spawn::STARTUP_WAIT.as_secs()
                    ),
                ));
            }
            // A spawned app that just closed its socket is probably exiting: say how.
            if let Some(exit) = spawned.exited_within(Duration::from_secs(1)).await {
                return Err(spawned.exited_error(&exit));
            }
            return Err(error);
        }
    }

    async fn wait_first_tree(&self) -> Result<(), ToolError> {
        let mut changes = self.changes();
        let deadline = tokio::time::Instant::now() + FIRST_TREE_TIMEOUT;
        loop {
            {
                let state = lock(&self.inner.state);
                if state.writer.is_none() {
                    return Err(self.inner.not_connected(&state));
                }
                if state.tree.is_some() {
                    return Ok(());
                }
            }
            if tokio::time::timeout_at(deadline, changes.changed())
                .await
                .is_err()
            {
                return Err(ToolError::new(
                    Code::Timeout,
                    format!(
                        "connected to the app at {}, but it has not drawn a frame within {} s; \
                         is its event loop running? Try again, or use read_screen",
                        self.inner.socket.display(),
                        FIRST_TREE_TIMEOUT.as_secs()
                    ),
                ));
            }
        }
    }

    /// Sends an input; the ack comes through [`Link::ack`]. Refused with `busy`
    /// (nothing sent) when [`MAX_IN_FLIGHT`](crate::limits::MAX_IN_FLIGHT) inputs wait
    /// for their ack or the rate limit is reached.
    pub(crate) async fn send(&self, input: Input) -> Result<Sent, ToolError> {
        self.ensure_connected().await?;
        self.check_protocol()?;
        let (tx, rx) = oneshot::channel();
        let reserved = self.reserve(tx, None).map_err(|(_, e)| e)?;
        self.send_reserved(reserved, input, rx).await
    }

    /// Sends the next input of a burst (a repeated key) on the connection `first`
    /// went on: rather than being refused mid-burst, it waits until `deadline` for
    /// room under [`MAX_IN_FLIGHT`](crate::limits::MAX_IN_FLIGHT) and the rate limit,
    /// then fails with the `busy` error it would have had. It never reconnects: the
    /// rest of a burst must not go to an app that restarted in the middle of it.
    pub(crate) async fn send_paced(
        &self,
        input: Input,
        first: &Sent,
        deadline: Instant,
    ) -> Result<Sent, ToolError> {
        self.check_protocol()?;
        let (mut tx, rx) = oneshot::channel();
        let reserved = loop {
            // Registered before the check, so an ack in between is not missed.
            let room = self.inner.room.notified();
            tokio::pin!(room);
            room.as_mut().enable();
            let (returned, error, wait_for_ack) = match self.reserve(tx, Some(first.generation)) {
                Ok(reserved) => break reserved,
                Err((NoRoom::InFlight(tx), error)) => (tx, error, true),
                Err((NoRoom::Rate(tx), error)) => (tx, error, false),
                Err((NoRoom::Closed, error)) => return Err(error),
            };
            tx = returned;
            let deadline = tokio::time::Instant::from_std(deadline);
            let waited = if wait_for_ack {
                tokio::time::timeout_at(deadline, room).await.is_ok()
            } else {
                let token = Duration::from_secs_f64(1.0 / RATE_PER_SECOND);
                let until = (tokio::time::Instant::now() + token).min(deadline);
                tokio::time::sleep_until(until).await;
                until < deadline
            };
            if !waited {
                return Err(error);
            }
        };
        self.send_reserved(reserved, input, rx).await
    }

    /// Takes a `seq` and a place among the inputs waiting for an ack, or says why not
    /// (and gives `tx` back). With `on`, only on that connection (the rest of a burst).
    fn reserve(
        &self,
        tx: oneshot::Sender<Answer<Ack>>,
        on: Option<u64>,
    ) -> Result<Reserved, (NoRoom, ToolError)> {
        let mut state = lock(&self.inner.state);
        if on.is_some_and(|generation| generation != state.generation) {
            return Err((
                NoRoom::Closed,
                ToolError::new(
                    Code::AppExited,
                    "the app's connection ended in the middle of the burst (the app exited or \
                     restarted): the rest of the presses were not sent; read the tree to see \
                     where it stands",
                ),
            ));
        }
        let Some(writer) = state.writer.clone() else {
            return Err((NoRoom::Closed, self.inner.not_connected(&state)));
        };
        if let Err(e) = check_in_flight(state.acks.len()) {
            return Err((NoRoom::InFlight(tx), e));
        }
        if let Err(e) = lock(&self.inner.rate).take(Instant::now()) {
            return Err((NoRoom::Rate(tx), e));
        }
        let seq = self.inner.next_seq.fetch_add(1, Ordering::Relaxed);
        state.acks.insert(seq, tx);
        Ok(Reserved {
            writer,
            generation: state.generation,
            seq,
        })
    }

    async fn send_reserved(
        &self,
        reserved: Reserved,
        input: Input,
        ack: oneshot::Receiver<Answer<Ack>>,
    ) -> Result<Sent, ToolError> {
        let Reserved {
            writer,
            generation,
            seq,
        } = reserved;
        let message = BridgeMessage::Input { seq, input };
        if let Err(e) = self.write(&writer, generation, &message).await {
            lock(&self.inner.state).acks.remove(&seq);
            self.inner.room.notify_waiters();
            return Err(e);
        }
        Ok(Sent {
            seq,
            generation,
            ack,
        })
    }

    /// Writes `message` on connection `generation`. When the app has not read its socket
    /// for [`WRITE_TIMEOUT`], the connection is dropped: a line half written cannot be
    /// completed, and the app discards it when it sees the connection close.
    async fn write(
        &self,
        writer: &tokio::sync::Mutex<WriteHalf>,
        generation: u64,
        message: &BridgeMessage,
    ) -> Result<(), ToolError> {
        let current = || {
            let state = lock(&self.inner.state);
            state.generation == generation && state.writer.is_some()
        };
        match write_message(writer, message, current).await {
            Ok(()) => Ok(()),
            Err(e) if e.kind() == std::io::ErrorKind::NotConnected => Err(self
                .inner
                .not_connected(&lock(&self.inner.state))
                .with("sent", false)),
            Err(e) if e.kind() == std::io::ErrorKind::TimedOut => {
                self.inner.stalled(generation);
                Err(ToolError::new(
                    Code::Timeout,
                    format!(
                        "not sent: the app has not read its socket for {} s (is it stopped or \
                         stuck?). taria-mcp dropped the connection, so the app discards anything \
                         half sent, and reconnects on the next call",
                        WRITE_TIMEOUT.as_secs()
                    ),
                )
                .with("sent", false))
            }
            Err(e) => Err(ToolError::new(
                Code::AppExited,
                format!(
                    "not sent: the connection to the app failed ({e}); retry, taria-mcp reconnects"
                ),
            )
            .with("sent", false)),
        }
    }

    /// What ended the last connection, in words that follow "delivered, then", when it
    /// has ended.
    pub(crate) fn cut_off(&self) -> Option<&'static str> {
        lock(&self.inner.state)
            .closed
            .as_ref()
            .map(|c| c.cut_off().1)
    }

    /// Waits (at most [`ACK_TIMEOUT`]) for the ack of a sent one-key input.
    pub(crate) async fn ack(&self, sent: &mut Sent) -> Result<Ack, ToolError> {
        let bound = ack_bound(1);
        self.ack_by(sent, Instant::now() + bound, bound).await
    }

    /// Waits until `deadline` for the ack of a sent input; `bound` is the call's whole
    /// allowance, for the message. An ack already received is taken even when the
    /// deadline has passed.
    pub(crate) async fn ack_by(
        &self,
        sent: &mut Sent,
        deadline: Instant,
        bound: Duration,
    ) -> Result<Ack, ToolError> {
        let deadline = tokio::time::Instant::from_std(deadline);
        match tokio::time::timeout_at(deadline, &mut sent.ack).await {
            Ok(Ok(Ok(ack))) => Ok(ack),
            Ok(Ok(Err(why))) => {
                let (code, cut_off) = why.cut_off();
                Err(ToolError::new(
                    code,
                    format!(
                        "sent, but {cut_off} before answering. Its effect is unknown; read_tree \
                         once the app is back"
                    ),
                )
                .with("sent", true))
            }
            // The sender went without a word: only a bridge bug would do that.
            Ok(Err(_)) => Err(ToolError::new(
                Code::AppExited,
                "sent, but the answer was lost. Its effect is unknown; read_tree to see",
            )
            .with("sent", true)),
            Err(_) => Err(ToolError::new(
                Code::Timeout,
                format!(
                    "sent, but the app did not answer within {}: its loop may be busy or \
                     stuck. Check read_screen or wait_for_change before retrying (it may still \
                     happen)",
                    seconds(bound)
                ),
            )
            .with("sent", true)),
        }
    }

    /// Waits (bounded) for the first tree that shows the effect of input `seq`;
    /// `None` when it did not come in time or the connection changed.
    pub(crate) async fn effect(&self, sent: &Sent) -> Option<View> {
        let mut changes = self.changes();
        let deadline = tokio::time::Instant::now() + EFFECT_TIMEOUT;
        loop {
            {
                let state = lock(&self.inner.state);
                if state.generation != sent.generation || state.writer.is_none() {
                    return None;
                }
                if state.input >= sent.seq {
                    return current_view(&state);
                }
            }
            if tokio::time::timeout_at(deadline, changes.changed())
                .await
                .is_err()
            {
                return None;
            }
        }
    }

    /// Asks for the rendered screen.
    pub(crate) async fn screen(&self) -> Result<Screen, ToolError> {
        self.ensure_connected().await?;
        let (tx, rx) = oneshot::channel();
        let (writer, generation) = {
            let mut state = lock(&self.inner.state);
            let Some(writer) = state.writer.clone() else {
                return Err(self.inner.not_connected(&state));
            };
            state.screens.push(tx);
            (writer, state.generation)
        };
        self.write(&writer, generation, &BridgeMessage::GetScreen {})
            .await?;
        match tokio::time::timeout(ACK_TIMEOUT, rx).await {
            Ok(Ok(Ok(screen))) => Ok(screen),
            Ok(Ok(Err(why))) => {
                let (code, cut_off) = why.cut_off();
                Err(ToolError::new(
                    code,
                    format!("{cut_off} before sending its screen; retry once it is back"),
                ))
            }
            Ok(Err(_)) => Err(ToolError::new(
                Code::AppExited,
                "the screen was lost on the way; retry",
            )),
            Err(_) => Err(ToolError::new(
                Code::Timeout,
                "the app did not send its screen within 5 s; its loop may be busy",
            )),
        }
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
            {
                let state = lock(&self.inner.state);
                if state.writer.is_none() {
                    return Err(self.inner.not_connected(&state));
                }
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

/// `5 s`, or `5.2 s` for a bound that is not whole seconds.
fn seconds(duration: Duration) -> String {
    if duration.subsec_millis() == 0 {
        format!("{} s", duration.as_secs())
    } else {
        format!("{:.1} s", duration.as_secs_f64())
    }
}

/// Why an input could not take its place: `tx` is given back to try again.
enum NoRoom {
    /// [`MAX_IN_FLIGHT`](crate::limits::MAX_IN_FLIGHT) inputs wait for their ack.
    InFlight(oneshot::Sender<Answer<Ack>>),
    /// The rate limit is reached.
    Rate(oneshot::Sender<Answer<Ack>>),
    /// No connection.
    Closed,
}

/// An input's place: its connection and `seq`, its ack awaited.
struct Reserved {
    writer: Arc<tokio::sync::Mutex<WriteHalf>>,
    generation: u64,
    seq: u64,
}

fn current_view(state: &State) -> Option<View> {
    let tree = state.tree.clone()?;
    state.writer.as_ref()?;
    Some(View {
        tree,
        revision: state.revision,
    })
}

/// Writes one message line, waiting at most [`WRITE_TIMEOUT`] for the writer and for
/// room in the socket; `NotConnected` (nothing written) when, once it has the writer,
/// `current` says the connection was dropped meanwhile.
async fn write_message(
    writer: &tokio::sync::Mutex<WriteHalf>,
    message: &BridgeMessage,
    current: impl Fn() -> bool,
) -> std::io::Result<()> {
    let mut line = serde_json::to_vec(message).map_err(std::io::Error::other)?;
    line.push(b'\n');
    let write = async {
        let mut writer = writer.lock().await;
        if !current() {
            return Err(std::io::Error::new(
                std::io::ErrorKind::NotConnected,
                "the connection was dropped",
            ));
        }
        writer.write_all(&line).await
    };
    tokio::time::timeout(WRITE_TIMEOUT, write)
        .await
        .map_err(|_| std::io::Error::new(std::io::ErrorKind::TimedOut, "write timed out"))?
}

/// Why attaching to `socket` failed, and what to do about it.
fn connect_failed(path: &std::path::Path, error: &std::io::Error) -> ToolError {
    if let Err(taria::EndpointError::PathTooLong { len, max, .. }) = taria::check_socket_path(path)
    {
        return ToolError::new(
            Code::AppNotConnected,
            format!(
                "cannot attach to {}: the path is {len} bytes, over the {max} a socket path can \
                 have on this system, so no app can listen there; give the app (TARIA_SOCKET) \
                 and --socket a shorter path",
                path.display()
            ),
        );
    }
    #[cfg(unix)]
    let (is_socket, socket) = {
        use std::os::unix::fs::FileTypeExt as _;
        let is_socket = std::fs::metadata(path).is_ok_and(|m| m.file_type().is_socket());
        (is_socket, path.display().to_string())
    };
    // A named pipe has no file: whatever is at the path is not what was tried. Name
    // the pipe that was.
    #[cfg(not(unix))]
    let (is_socket, socket) = (
        true,
        match taria::wire::socket_name(path) {
            Ok(name) => format!("{} (named pipe {name:?})", path.display()),
            Err(_) => path.display().to_string(),
        },
    );
    let message = match error.kind() {
        std::io::ErrorKind::NotFound | std::io::ErrorKind::ConnectionRefused
            if !is_socket && path.exists() =>
        {
            format!(
                "{socket} is not a socket; check --socket/--app: it must be the socket of a \
             running taria app"
            )
        }
        std::io::ErrorKind::NotFound => format!(
            "no app is running at {socket}. Start the app (e.g. `cargo run --example todo`), \
             then retry; or let taria-mcp start it: `taria-mcp -- <command>`. If it is \
             running, it has another label or TARIA_SOCKET, or it is not built with taria \
             (#[taria::app])"
        ),
        std::io::ErrorKind::ConnectionRefused => format!(
            "{socket} is left over from an app that is no longer running; start the app \
             again, then retry"
        ),
        _ => format!(
            "cannot connect to {socket} ({error}); check --socket/--app: it must be the \
             socket of a running taria app"
        ),
    };
    ToolError::new(Code::AppNotConnected, message)
}

impl Inner {
    /// The error for "no usable connection", by what happened last.
    fn not_connected(&self, state: &State) -> ToolError {
        if let Some(spawned) = &self.spawned
            && let Some(exit) = spawned.exit()
        {
            return spawned.exited_error(&exit);
        }
        let socket = self.socket.display();
        match &state.closed {
            Some(Closed::Busy(message)) => ToolError::new(
                Code::Busy,
                format!(
                    "the app refused the connection: {message}. Another taria-mcp session (or \
                     client) holds it; retry later (sessions let go after their idle time)"
                ),
            ),
            Some(Closed::Refused(message)) => ToolError::new(
                Code::AppNotConnected,
                format!("the app at {socket} refused the connection: {message}"),
            ),
            Some(Closed::Exited) => ToolError::new(
                Code::AppExited,
                format!(
                    "the app exited (its connection at {socket} closed); start it again, then \
                     retry: taria-mcp reconnects on the next call"
                ),
            ),
            Some(Closed::Stalled) => ToolError::new(
                Code::AppNotConnected,
                format!(
                    "the app at {socket} stopped reading its socket, so taria-mcp dropped the \
                     connection; retry: taria-mcp reconnects on the next call"
                ),
            ),
            Some(Closed::Failed) => ToolError::new(
                Code::AppNotConnected,
                format!(
                    "taria-mcp failed on something the app at {socket} sent (a bug in taria-mcp: \
                     its log says more) and dropped the connection; retry: taria-mcp reconnects \
                     on the next call"
                ),
            ),
            Some(Closed::Released) | None => ToolError::new(
                Code::AppNotConnected,
                format!(
                    "no app is listening at {socket}; start the app (it serves its socket while \
                     running), then retry"
                ),
            ),
        }
    }

    async fn connect(self: &Arc<Self>) -> Result<(), ToolError> {
        use interprocess::local_socket::traits::tokio::Stream as _;
        let connected = match taria::wire::socket_name(&self.socket) {
            Ok(name) => Stream::connect(name).await,
            Err(e) => Err(e),
        };
        let stream = match connected {
            Ok(stream) => stream,
            Err(e) => {
                tracing::debug!(socket = %self.socket.display(), error = %e, "connect failed");
                let state = lock(&self.state);
                return Err(match state.closed {
                    None | Some(Closed::Released | Closed::Stalled | Closed::Failed)
                        if self.spawned.is_none() =>
                    {
                        connect_failed(&self.socket, &e)
                    }
                    _ => self.not_connected(&state),
                });
            }
        };
        let stream = Arc::new(stream);
        let (read, write) = (Half(Arc::clone(&stream)), Half(stream));
        let writer = Arc::new(tokio::sync::Mutex::new(write));
        let hello = BridgeMessage::Hello {
            v: wire::PROTOCOL_VERSION,
            client: format!("taria-mcp {}", env!("CARGO_PKG_VERSION")),
        };
        // The app may refuse us right away (busy); the reader will say so.
        let _ = write_message(&writer, &hello, || true).await;
        let generation = {
            let mut state = lock(&self.state);
            state.generation += 1;
            state.writer = Some(Arc::clone(&writer));
            state.connected_at = Some(Instant::now());
            state.app_revision = 0;
            state.input = 0;
            state.flat = None;
            state.tree = None;
            state.protocol = None;
            state.closed = None;
            state.generation
        };
        let task = tokio::spawn(read_loop(
            Arc::clone(self),
            generation,
            BufReader::new(read),
            writer,
        ));
        lock(&self.state).reader = Some(task);
        if let Some(spawned) = &self.spawned {
            spawned.mark_served();
        }
        tracing::info!(socket = %self.socket.display(), "connected to the app");
        Ok(())
    }

    /// Handles one message; returns whether the tree must be asked for again.
    fn handle(&self, generation: u64, message: AppMessage) -> bool {
        let mut state = lock(&self.state);
        if state.generation != generation {
            return false;
        }
        match message {
            AppMessage::Hello { v, app, pid, .. } => {
                tracing::info!(app, pid, v, "app said hello");
                if v != wire::PROTOCOL_VERSION {
                    tracing::warn!(
                        v,
                        "the app speaks another protocol version; inputs are refused"
                    );
                }
                state.protocol = Some(v);
                state.app = Some(app);
            }
            AppMessage::Tree {
                revision,
                input,
                tree,
            } => {
                state.flat = Some(FlatTree::from_tree(&tree));
                state.tree = Some(Arc::new(tree));
                state.app_revision = revision;
                state.revision = state.revision.saturating_add(1);
                state.input = input;
                self.changed.send_modify(|n| *n += 1);
            }
            AppMessage::Patch {
                revision,
                input,
                patch,
            } => {
                let consecutive = state.app_revision.checked_add(1) == Some(revision);
                let Some(flat) = state.flat.as_mut().filter(|_| consecutive) else {
                    tracing::warn!(revision, "a patch out of order; asking for the whole tree");
                    return true;
                };
                flat.apply(&patch);
                let tree = flat.to_tree();
                state.tree = Some(Arc::new(tree));
                state.app_revision = revision;
                state.revision = state.revision.saturating_add(1);
                state.input = input;
                self.changed.send_modify(|n| *n += 1);
            }
            AppMessage::Ack {
                seq,
                status,
                reason,
                message,
            } => {
                drop(state);
                self.answer(
                    generation,
                    seq,
                    Ack {
                        status: Ok(status),
                        reason,
                        unknown_reason: None,
                        message,
                    },
                );
            }
            AppMessage::Screen {
                revision,
                cols,
                rows,
            } => {
                // The bridge's number for the app's `revision` (trees and patches come one
                // revision apart; a screen from the future is the newest).
                let behind = state.app_revision.saturating_sub(revision);
                let revision = state.revision.saturating_sub(behind);
                for tx in state.screens.drain(..) {
                    let _ = tx.send(Ok(Screen {
                        revision,
                        cols,
                        rows: rows.clone(),
                    }));
                }
            }
            AppMessage::Error { code, message } => match code {
                ErrorCode::Busy => state.closed = Some(Closed::Busy(message)),
                ErrorCode::PermissionDenied => state.closed = Some(Closed::Refused(message)),
                other => tracing::warn!(?other, message, "the app reported a protocol error"),
            },
            other => tracing::debug!(?other, "ignored an app message of a newer kind"),
        }
        false
    }

    /// Hands `ack` to whoever waits for input `seq` on connection `generation`.
    fn answer(&self, generation: u64, seq: u64, ack: Ack) {
        let tx = {
            let mut state = lock(&self.state);
            if state.generation != generation {
                return;
            }
            state.acks.remove(&seq)
        };
        if let Some(tx) = tx {
            let _ = tx.send(Ok(ack));
            self.room.notify_waiters();
        }
    }

    /// Starts the reconnection loop unless it runs already: one loop per link, so an
    /// app that keeps accepting and closing is tried at the backoff's pace, not by a
    /// new loop for every failed attempt.
    fn reconnect_soon(self: &Arc<Self>) {
        if !self.reconnecting.swap(true, Ordering::AcqRel) {
            tokio::spawn(reconnect(Arc::downgrade(self)));
        }
    }

    /// Forgets connection `generation` (once; later calls for it do nothing): waiters
    /// learn it is gone.
    fn disconnected(self: &Arc<Self>, generation: u64, why: Closed) {
        // Letting go ourselves: the reader holds the stream open too.
        let letting_go = matches!(why, Closed::Released | Closed::Stalled);
        let (retry, reader) = {
            let mut state = lock(&self.state);
            if state.generation != generation || state.writer.is_none() {
                return;
            }
            state.writer = None;
            let reader = state.reader.take();
            if state
                .connected_at
                .take()
                .is_some_and(|at| at.elapsed() >= RECONNECT_STABLE)
            {
                state.backoff = RECONNECT_MIN;
            }
            state.flat = None;
            state.tree = None;
            if state.closed.is_none() || letting_go {
                state.closed = Some(why);
            }
            // Whatever still waits for an answer on this connection hears why none comes.
            let why = state.closed.clone().unwrap_or(Closed::Exited);
            for (_, tx) in state.acks.drain() {
                let _ = tx.send(Err(why.clone()));
            }
            for tx in state.screens.drain(..) {
                let _ = tx.send(Err(why.clone()));
            }
            (state.closed == Some(Closed::Exited), reader)
        };
        if let Some(task) = reader
            && letting_go
        {
            task.abort();
        }
        tracing::info!("disconnected from the app");
        self.room.notify_waiters();
        self.changed.send_modify(|n| *n += 1);
        if retry {
            self.reconnect_soon();
        }
    }

    /// Drops connection `generation`: the app has stopped reading its socket.
    fn stalled(self: &Arc<Self>, generation: u64) {
        tracing::warn!(
            socket = %self.socket.display(),
            "the app has not read its socket for {} s; dropping the connection",
            WRITE_TIMEOUT.as_secs()
        );
        self.disconnected(generation, Closed::Stalled);
    }

    fn idle_for(&self) -> Option<Duration> {
        (self.in_flight.load(Ordering::Relaxed) == 0).then(|| lock(&self.last_use).elapsed())
    }
}

/// Marks connection `generation` down when its reader ends, however it ends: with
/// `why` once the reader set it, as [`Closed::Failed`] when it did not (it panicked),
/// so the link never looks connected with no one reading.
struct ReaderDown {
    inner: Arc<Inner>,
    generation: u64,
    why: Closed,
}

impl Drop for ReaderDown {
    fn drop(&mut self) {
        self.inner.disconnected(self.generation, self.why.clone());
    }
}

/// Reads the app's lines until the connection ends.
async fn read_loop(
    inner: Arc<Inner>,
    generation: u64,
    mut reader: impl AsyncBufRead + Unpin,
    writer: Arc<tokio::sync::Mutex<WriteHalf>>,
) {
    let mut down = ReaderDown {
        inner: Arc::clone(&inner),
        generation,
        why: Closed::Failed,
    };
    let mut line = Vec::new();
    loop {
        match read_line(&mut reader, &mut line).await {
            Ok(Line::Complete) => {}
            Ok(Line::TooLong) => {
                tracing::warn!("skipped an app line over {} bytes", wire::MAX_LINE_BYTES);
                continue;
            }
            Ok(Line::End) => break,
            Err(e) => {
                tracing::debug!(error = %e, "reading from the app failed");
                break;
            }
        }
        if line.iter().all(u8::is_ascii_whitespace) {
            continue;
        }
        // A panic on what the app sent (a bug) must not leave the link looking
        // connected: the connection is dropped, and the next call reconnects.
        let taken = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            take(&inner, generation, &line)
        }));
        let Ok(ask_tree) = taken else {
            tracing::error!(
                "taria-mcp failed on a line from the app (a bug in taria-mcp: please report it \
                 with this log); dropping the connection"
            );
            return;
        };
        if ask_tree
            && let Err(e) = write_message(&writer, &BridgeMessage::GetTree {}, || true).await
        {
            if e.kind() == std::io::ErrorKind::TimedOut {
                down.why = Closed::Stalled;
                inner.stalled(generation);
                return;
            }
            break;
        }
    }
    down.why = Closed::Exited;
}

/// Decodes and handles one line from the app; returns whether the tree must be asked
/// for again.
fn take(inner: &Inner, generation: u64, line: &[u8]) -> bool {
    match serde_json::from_slice::<AppMessage>(line) {
        Ok(message) => inner.handle(generation, message),
        Err(e) => {
            if let Some((seq, ack)) = loose_ack(line) {
                tracing::warn!(
                    seq,
                    error = %e,
                    "an ack this taria-mcp does not fully know; answering it as such"
                );
                inner.answer(generation, seq, ack);
            } else {
                tracing::warn!(error = %e, "skipped an app line that is not a known message");
            }
            false
        }
    }
}

/// The longest status or reason text from the app kept for a message.
const UNKNOWN_TEXT_MAX: usize = 64;

/// An `ack` line that does not decode as [`AppMessage::Ack`] because its `status` or
/// `reason` is one this taria-mcp does not know (a newer or faulty app): its `seq`,
/// and the ack with the unknown text kept, so the input is answered as what it is
/// rather than left to time out.
fn loose_ack(line: &[u8]) -> Option<(u64, Ack)> {
    let serde_json::Value::Object(object) = serde_json::from_slice(line).ok()? else {
        return None;
    };
    if object.get("type")?.as_str()? != "ack" {
        return None;
    }
    let seq = object.get("seq")?.as_u64()?;
    let text = |value: &serde_json::Value| {
        let text = match value {
            serde_json::Value::String(s) => s.clone(),
            other => other.to_string(),
        };
        text.chars().take(UNKNOWN_TEXT_MAX).collect::<String>()
    };
    let status = match object.get("status") {
        Some(value) => serde_json::from_value::<AckStatus>(value.clone()).map_err(|_| text(value)),
        None => Err("(none)".to_owned()),
    };
    let (reason, unknown_reason) = match object.get("reason") {
        None | Some(serde_json::Value::Null) => (None, None),
        Some(value) => match serde_json::from_value::<RejectReason>(value.clone()) {
            Ok(reason) => (Some(reason), None),
            Err(_) => (None, Some(text(value))),
        },
    };
    let message = object
        .get("message")
        .and_then(serde_json::Value::as_str)
        .map(str::to_owned);
    Some((
        seq,
        Ack {
            status,
            reason,
            unknown_reason,
            message,
        },
    ))
}

enum Line {
    Complete,
    TooLong,
    End,
}

/// Reads one line into `line` (without the newline), capped at [`wire::MAX_LINE_BYTES`]:
/// a longer line is skipped whole. A partial last line is discarded.
async fn read_line(
    reader: &mut (impl AsyncBufRead + Unpin),
    line: &mut Vec<u8>,
) -> std::io::Result<Line> {
    line.clear();
    let mut too_long = false;
    loop {
        let available = reader.fill_buf().await?;
        if available.is_empty() {
            return Ok(Line::End);
        }
        let (chunk, used, done) = match available.iter().position(|b| *b == b'\n') {
            Some(i) => (&available[..i], i + 1, true),
            None => (available, available.len(), false),
        };
        if !too_long {
            if line.len() + chunk.len() > wire::MAX_LINE_BYTES {
                too_long = true;
                line.clear();
            } else {
                line.extend_from_slice(chunk);
            }
        }
        reader.consume(used);
        if done {
            return Ok(if too_long {
                Line::TooLong
            } else {
                Line::Complete
            });
        }
    }
}

/// After the app went away: tries to reconnect with backoff while the link is in use,
/// so a restarted app is picked up (and resource subscribers hear of it). One loop per
/// link ([`Inner::reconnect_soon`]); the wait doubles with every attempt, kept across
/// loops, and starts again from [`RECONNECT_MIN`] once a connection has lasted.
async fn reconnect(weak: std::sync::Weak<Inner>) {
    let connected = reconnect_attempts(&weak).await;
    let Some(inner) = weak.upgrade() else { return };
    inner.reconnecting.store(false, Ordering::Release);
    // The connection made may have closed before the flag was down: that close
    // started no loop, so start one.
    if connected {
        let state = lock(&inner.state);
        let gone = state.writer.is_none() && state.closed == Some(Closed::Exited);
        drop(state);
        if gone {
            inner.reconnect_soon();
        }
    }
}

/// The reconnection attempts; whether one connected.
async fn reconnect_attempts(weak: &std::sync::Weak<Inner>) -> bool {
    loop {
        let delay = {
            let Some(inner) = weak.upgrade() else {
                return false;
            };
            let mut state = lock(&inner.state);
            let delay = state.backoff;
            state.backoff = (delay * 2).min(RECONNECT_MAX);
            delay
        };
        tokio::time::sleep(delay).await;
        let Some(inner) = weak.upgrade() else {
            return false;
        };
        if inner.spawned.as_ref().is_some_and(|s| s.exit().is_some()) {
            return false;
        }
        let idle_limit = inner.idle_release.unwrap_or(Duration::from_secs(600));
        if inner.idle_for().is_some_and(|idle| idle > idle_limit) {
            return false;
        }
        let link = Link { inner };
        if lock(&link.inner.state).writer.is_some() {
            return true;
        }
        match link.ensure_connected().await {
            Ok(()) => return true,
            Err(e) => tracing::debug!(error = %e, "reconnect failed"),
        }
    }
}

/// Lets go of the app after `idle` without a tool call.
async fn release_when_idle(inner: std::sync::Weak<Inner>, idle: Duration) {
    let tick = (idle / 4).clamp(Duration::from_millis(100), Duration::from_secs(5));
    loop {
        tokio::time::sleep(tick).await;
        let Some(inner) = inner.upgrade() else { return };
        let generation = {
            let state = lock(&inner.state);
            if state.writer.is_none() {
                continue;
            }
            state.generation
        };
        if inner.idle_for().is_some_and(|i| i >= idle) {
            tracing::info!(idle_secs = idle.as_secs(), "idle: releasing the app");
            inner.disconnected(generation, Closed::Released);
        }
    }
}

#[cfg(all(test, unix))]
mod tests {
    use std::io::Write as _;

    use super::*;

    /// A reader whose input panics (as a bug on an app's line would).
    struct Panics;

    impl tokio::io::AsyncRead for Panics {
        fn poll_read(
            self: std::pin::Pin<&mut Self>,
            _: &mut std::task::Context<'_>,
            _: &mut tokio::io::ReadBuf<'_>,
        ) -> std::task::Poll<std::io::Result<()>> {
            panic!("a bug met on the app's line");
        }
    }

    /// Issue 11.2: a reader task that panics marks its connection down, so the link
    /// does not look connected with a frozen tree, and a waiting input hears why at
    /// once instead of timing out.
    #[tokio::test]
    async fn a_reader_that_panics_marks_the_link_down() {
        let dir = std::env::temp_dir().join(format!("taria-link-test-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let socket = dir.join("app.sock");
        let listener = std::os::unix::net::UnixListener::bind(&socket).unwrap();
        std::thread::spawn(move || {
            let (mut stream, _) = listener.accept().unwrap();
            let tree = r#"{"type":"tree","revision":1,"input":0,"tree":{"frame":1,"roots":[]}}"#;
            writeln!(
                stream,
                r#"{{"type":"hello","v":1,"app":"fake","pid":1,"taria":"0"}}"#
            )
            .unwrap();
            writeln!(stream, "{tree}").unwrap();
            // Held open, never answering.
            std::thread::sleep(Duration::from_secs(30));
        });
        let link = Link::new(socket, None);
        link.ensure_connected().await.unwrap();
        let mut sent = link.send(Input::Key { key: "a".into() }).await.unwrap();
        // A second reader on the connection, one that panics.
        let (generation, writer) = {
            let state = lock(&link.inner.state);
            (state.generation, state.writer.clone().unwrap())
        };
        let reader = tokio::spawn(read_loop(
            Arc::clone(&link.inner),
            generation,
            BufReader::new(Panics),
            writer,
        ));
        assert!(reader.await.unwrap_err().is_panic());
        assert_eq!(link.last_revision(), (1, false), "the link is marked down");
        assert!(link.cached_view().is_none(), "no frozen tree");
        assert_eq!(lock(&link.inner.state).closed, Some(Closed::Failed));
        let started = Instant::now();
        let error = link.ack(&mut sent).await.unwrap_err();
        assert!(
            started.elapsed() < ACK_TIMEOUT,
            "the waiting input heard at once"
        );
        assert_eq!(error.code, Code::AppNotConnected, "{}", error.message);
        let _ = std::fs::remove_dir_all(&dir);
    }
}
