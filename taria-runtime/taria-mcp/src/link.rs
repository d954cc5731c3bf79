//! The link to the app: one socket, connected on first use, reconnected (with backoff)
//! when the app restarts, let go after `--idle-release` without a tool call. In spawn
//! mode it knows the app it started ([`Spawned`]): it waits for the socket to appear,
//! and once the app has exited every call answers `app_exited` with its exit status.
//!
//! The state is in owned parts, each behind its own lock, none held across an
//! `.await`:
//!
//! * [`Link`] (here, [`connect`], [`gone`], [`write`](mod@write)): which connection
//!   is open, why the last one ended, the reconnection backoff; connecting one call
//!   at a time.
//! * [`Connection`](connection) (one per connection): its writer, the inputs waiting
//!   for their ack by `seq`, the screen requests, what the app said of itself; its
//!   [`reader`] task feeds it and the mirror.
//! * [`Mirror`]: the tree, the bridge's revisions, and the channel that wakes whoever
//!   waits for a change.
//! * [`Inputs`] ([`send`]): sending inputs: `seq`, the in-flight and rate limits,
//!   acks and effects.
//! * [`Activity`]: tool calls in progress, for idle release.
//!
//! Locks are taken in one order: the link's, a connection's, the rate limit, the
//! mirror's, the recorder's. The recorder hears of each event under the lock that
//! orders it (an input as it takes its `seq`, its ack, each tree, a connection's end),
//! so its lines follow the app's order.
//!
//! Everything the app sends is untrusted: no number from it is added to or indexed by
//! unchecked, and a reader task that ends in any way (a panic included) marks its
//! connection down, so the next call reconnects or says why.

use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use taria_schema::protocol;

use crate::errors::{Code, ToolError};
use crate::lock::lock;
use crate::logs::AppLogs;
use crate::recording::SessionRecorder;
use crate::spawn::Spawned;
use connect::{RECONNECT_MIN, release_when_idle};
use connection::{Closed, Connection};

mod activity;
mod connect;
mod connection;
mod gone;
mod mirror;
mod reader;
mod send;
mod write;

pub(crate) use activity::Activity;
pub(crate) use connection::{Ack, Screen};
pub(crate) use gone::Standing;
pub(crate) use mirror::{Mirror, View};
pub(crate) use send::{Inputs, Sent};

/// What the link attaches to.
pub(crate) enum Target {
    /// An app someone else runs, at this socket.
    Attach(PathBuf),
    /// The app taria-mcp started.
    Spawn(Arc<Spawned>),
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
    mirror: Mirror,
    /// The app's log, as its connections send it.
    logs: AppLogs,
    activity: Activity,
    /// Where the session is recorded (`--record`).
    recorder: Option<SessionRecorder>,
    state: Mutex<State>,
    /// One connection attempt at a time.
    connecting: tokio::sync::Mutex<()>,
    /// Whether the (one) reconnection loop is running.
    reconnecting: AtomicBool,
}

struct State {
    /// The connection, while one is open.
    open: Option<Arc<Connection>>,
    /// The number of the newest connection.
    generation: u64,
    /// Why the last connection ended, once it has (`None` while one is open).
    closed: Option<Closed>,
    /// The reconnection loop's next wait.
    backoff: Duration,
}

impl Inner {
    /// See [`Link::app_left`].
    fn app_left(&self) -> bool {
        let state = lock(&self.state);
        state.open.is_none() && state.closed == Some(Closed::Exited)
    }
}

impl Link {
    /// A link to `target` (not connected yet; an app taria-mcp started is connected to
    /// as soon as it serves), counting idle time by `activity` and recording to
    /// `recorder`. Call from a tokio runtime.
    pub(crate) fn new(
        target: Target,
        idle_release: Option<Duration>,
        activity: Activity,
        recorder: Option<SessionRecorder>,
    ) -> Link {
        let (socket, spawned, idle_release) = match target {
            Target::Attach(socket) => (socket, None, idle_release),
            // The socket is private: no other session can wait for it.
            Target::Spawn(spawned) => (spawned.socket().to_owned(), Some(spawned), None),
        };
        let inner = Arc::new(Inner {
            socket,
            idle_release,
            spawned,
            mirror: Mirror::default(),
            logs: AppLogs::default(),
            activity,
            recorder,
            state: Mutex::new(State {
                open: None,
                generation: 0,
                closed: None,
                backoff: RECONNECT_MIN,
            }),
            connecting: tokio::sync::Mutex::new(()),
            reconnecting: AtomicBool::new(false),
        });
        if inner.spawned.is_some() {
            inner.reconnect_soon();
        }
        if let Some(idle) = idle_release {
            tokio::spawn(release_when_idle(Arc::downgrade(&inner), idle));
        }
        Link { inner }
    }

    /// The socket this link attaches to.
    pub(crate) fn socket(&self) -> &Path {
        &self.inner.socket
    }

    /// The app's tree as the link keeps it.
    pub(crate) fn mirror(&self) -> &Mirror {
        &self.inner.mirror
    }

    /// The app's log as the bridge keeps it (every connection's, numbered for the
    /// session).
    pub(crate) fn logs(&self) -> &AppLogs {
        &self.inner.logs
    }

    /// Whether the app connected now said it captures its log (`None`: no app is
    /// connected, or it has not said hello yet).
    pub(crate) fn app_logs(&self) -> Option<bool> {
        self.open().and_then(|connection| connection.app_logs())
    }

    /// Where the session is recorded, with `--record`.
    pub(crate) fn recorder(&self) -> Option<&SessionRecorder> {
        self.inner.recorder.as_ref()
    }

    /// Notes in the recording (when there is one) that the spawned app's terminal was
    /// just resized to `size`, when the newest tree was `before`: its line takes the
    /// first tree drawn since, which may be in already (an app quick to redraw).
    pub(crate) fn record_resize(&self, size: taria_schema::recording::RecordedSize, before: u64) {
        if let Some(recorder) = self.recorder() {
            let generation = self.generation();
            self.inner
                .mirror
                .with_newest(|now| recorder.resized(generation, size, before, now));
        }
    }

    /// The app taria-mcp started, in spawn mode.
    pub(crate) fn spawned_app(&self) -> Option<&Arc<Spawned>> {
        self.inner.spawned.as_ref()
    }

    /// Whether a connection is open.
    pub(crate) fn is_connected(&self) -> bool {
        lock(&self.inner.state).open.is_some()
    }

    /// The connection open now.
    fn open(&self) -> Option<Arc<Connection>> {
        lock(&self.inner.state).open.clone()
    }

    /// The number of the newest connection.
    pub(crate) fn generation(&self) -> u64 {
        lock(&self.inner.state).generation
    }

    /// The newest tree, connecting first when needed.
    pub(crate) async fn view(&self) -> Result<View, ToolError> {
        self.ensure_connected().await?;
        match self.inner.mirror.view() {
            Some(view) => Ok(view),
            None => Err(self.not_connected_now().await),
        }
    }

    /// Fails when the app speaks another protocol version (inputs would be misread).
    pub(crate) fn check_protocol(&self) -> Result<(), ToolError> {
        match self.open().and_then(|connection| connection.protocol()) {
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
        self.inner.app_left()
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
        cancel: impl Future<Output = ()>,
    ) -> Result<Option<View>, ToolError> {
        self.ensure_connected().await?;
        let mut changes = self.inner.mirror.changes();
        let deadline = tokio::time::Instant::now() + timeout;
        tokio::pin!(cancel);
        loop {
            if !self.is_connected() {
                return Err(self.not_connected_now().await);
            }
            if let Some(view) = self.inner.mirror.view_past(since) {
                return Ok(Some(view));
            }
            tokio::select! {
                _ = changes.changed() => {}
                () = tokio::time::sleep_until(deadline) => return Ok(None),
                () = &mut cancel => return Ok(None),
            }
        }
    }
}
