//! Connecting to the app: the first connection (and waiting for a spawned app to
//! serve), a connection's end, reconnection with backoff after the app went away, and
//! letting go of an idle app.

use std::sync::atomic::Ordering;
use std::sync::{Arc, Weak};
use std::time::{Duration, Instant};

use taria_schema::protocol;

use taria_schema::protocol::BridgeMessage;
use tokio::io::BufReader;

use super::connection::{Closed, Connection, Half, Stream, write_message};
use super::gone::connect_failed;
use super::reader::read_loop;
use super::{Inner, Link};
use crate::errors::{Code, ToolError};
use crate::limits::WRITE_TIMEOUT;
use crate::lock::lock;
use crate::spawn::Spawned;

/// How long a fresh connection may take to deliver its first tree.
const FIRST_TREE_TIMEOUT: Duration = Duration::from_secs(3);
/// How long a spawned app may stay without its first tree before its terminal is
/// resized to make it draw ([`Spawned::nudge`]).
const NUDGE_AFTER: Duration = Duration::from_millis(500);
/// The first wait before reconnecting to an app that went away; it doubles with every
/// attempt up to [`RECONNECT_MAX`], and starts again from here once a connection has
/// lasted [`RECONNECT_STABLE`].
pub(super) const RECONNECT_MIN: Duration = Duration::from_millis(100);
/// The longest wait between reconnection attempts.
const RECONNECT_MAX: Duration = Duration::from_secs(2);
/// A connection that lasted this long resets the reconnection backoff.
const RECONNECT_STABLE: Duration = Duration::from_secs(2);

impl Link {
    /// Connects (or reconnects) unless connected with a tree, then waits for the first
    /// tree. One call connects at a time; the others wait for it no longer than they
    /// would connect themselves, and every call waits for the first tree on its own
    /// clock (calls at once to an app that accepts but never draws each fail after
    /// [`FIRST_TREE_TIMEOUT`], not one after another).
    pub(crate) async fn ensure_connected(&self) -> Result<(), ToolError> {
        if self.has_tree() {
            self.size_recording().await;
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
                self.size_recording().await;
                return Ok(());
            }
            if !self.is_connected() {
                match &self.inner.spawned {
                    Some(spawned) => self.connect_spawned(spawned, deadline).await?,
                    None => self.inner.connect().await?,
                }
            }
        }
        self.wait_first_tree().await?;
        self.size_recording().await;
        Ok(())
    }

    /// In attach mode, the recording's header waits for the terminal's size: the
    /// app's screen says it (asked once).
    async fn size_recording(&self) {
        let Some(recorder) = &self.inner.recorder else {
            return;
        };
        if !recorder.wants_size() {
            return;
        }
        let size = match self.screen_now(false).await {
            Ok(screen) => Some(taria_schema::recording::RecordedSize {
                width: screen.cols,
                height: u16::try_from(screen.rows.len()).unwrap_or(u16::MAX),
            }),
            Err(e) => {
                tracing::debug!(error = %e.message, "no screen for the recording's size");
                None
            }
        };
        recorder.sized(size);
    }

    /// Whether a connection is open and has drawn its first tree.
    fn has_tree(&self) -> bool {
        self.inner.mirror.view().is_some()
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
                        "the app has created its socket but has not accepted a connection for \
                         {} s; is it stuck while starting? Retry in a while",
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
        let mut changes = self.inner.mirror.changes();
        let started = tokio::time::Instant::now();
        let deadline = started + FIRST_TREE_TIMEOUT;
        // A spawned app still quiet by then is made to draw with a resize.
        let mut nudge_at = self.inner.spawned.as_ref().map(|_| started + NUDGE_AFTER);
        loop {
            if self.has_tree() {
                return Ok(());
            }
            if !self.is_connected() {
                return Err(self.not_connected_now().await);
            }
            let wake = nudge_at.map_or(deadline, |at| at.min(deadline));
            if tokio::time::timeout_at(wake, changes.changed())
                .await
                .is_ok()
            {
                continue;
            }
            if let (Some(_), Some(spawned)) = (nudge_at.take(), &self.inner.spawned) {
                spawned.nudge();
                continue;
            }
            return Err(self.never_drew());
        }
    }

    /// The error when the app connected but drew no frame within [`FIRST_TREE_TIMEOUT`]:
    /// the likely cause, a loop that draws only when its own state changes and not on
    /// the `FocusGained` taria's event reader gives it when a bridge connects, and the
    /// one line that fixes it.
    fn never_drew(&self) -> ToolError {
        let (whose, tried) = match &self.inner.spawned {
            Some(_) => (
                String::new(),
                " (taria-mcp resized its terminal to make it draw)",
            ),
            None => (format!(" at {}", self.inner.socket.display()), ""),
        };
        ToolError::new(
            Code::Timeout,
            format!(
                "connected to the app{whose}, but it has drawn no frame in {} s{tried}: its loop \
                 seems to draw only when its own state changes. In the app, draw on \
                 Event::FocusGained too (taria::event::read returns it when an agent connects \
                 or sends input: one match arm, see the integration guide, \"Expect \
                 Event::FocusGained\"); or its event loop is not running.{}",
                FIRST_TREE_TIMEOUT.as_secs(),
                match &self.inner.spawned {
                    Some(_) => " Meanwhile read_tree with format screen reads its terminal",
                    None => "",
                }
            ),
        )
    }
}

impl Inner {
    async fn connect(self: &Arc<Self>) -> Result<(), ToolError> {
        use interprocess::local_socket::traits::tokio::Stream as _;
        let connected = match taria_schema::socket::socket_name(&self.socket) {
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
                    _ => self.not_connected(state.closed.as_ref()),
                });
            }
        };
        let stream = Arc::new(stream);
        let (read, write) = (Half(Arc::clone(&stream)), Half(stream));
        let writer = Arc::new(tokio::sync::Mutex::new(write));
        // A recording keeps the screen drawn with each tree.
        let hello = BridgeMessage::Hello {
            v: protocol::PROTOCOL_VERSION,
            client: format!("taria-mcp {}", env!("CARGO_PKG_VERSION")),
            screens: self.recorder.is_some(),
            // The app's log, for read_logs, input results and the recording.
            logs: true,
        };
        // The app may refuse us right away (busy); the reader will say so.
        let _ = write_message(&writer, &hello, || true).await;
        let connection = {
            let mut state = lock(&self.state);
            state.generation += 1;
            let connection = Connection::open(state.generation, Arc::clone(&writer));
            state.open = Some(Arc::clone(&connection));
            state.closed = None;
            self.mirror.open(state.generation);
            connection
        };
        let task = tokio::spawn(read_loop(
            Arc::clone(self),
            Arc::clone(&connection),
            BufReader::new(read),
            writer,
        ));
        connection.read_by(task);
        if let Some(spawned) = &self.spawned {
            spawned.mark_served();
        }
        tracing::info!(socket = %self.socket.display(), "connected to the app");
        Ok(())
    }

    /// Starts the reconnection loop unless it runs already: one loop per link, so an
    /// app that keeps accepting and closing is tried at the backoff's pace, not by a
    /// new loop for every failed attempt.
    pub(super) fn reconnect_soon(self: &Arc<Self>) {
        if !self.reconnecting.swap(true, Ordering::AcqRel) {
            tokio::spawn(reconnect(Arc::downgrade(self)));
        }
    }

    /// Forgets connection `generation` (once; later calls for it do nothing): waiters
    /// learn it is gone.
    pub(super) fn disconnected(self: &Arc<Self>, generation: u64, why: Closed) {
        let letting_go = why.letting_go();
        let (retry, reader) = {
            let mut state = lock(&self.state);
            let Some(connection) = state
                .open
                .take_if(|connection| connection.generation() == generation)
            else {
                return;
            };
            if connection.opened().elapsed() >= RECONNECT_STABLE {
                state.backoff = RECONNECT_MIN;
            }
            self.mirror.close(generation);
            // Whatever still waits for an answer on this connection hears why none comes.
            let noted = |why: &Closed| {
                if let Some(recorder) = &self.recorder {
                    recorder.closed(generation, why.cut_off().1);
                }
            };
            let (why, reader) = connection.close(why.clone(), noted).unwrap_or((why, None));
            let retry = why == Closed::Exited;
            state.closed = Some(why);
            (retry, reader)
        };
        if let Some(task) = reader
            && letting_go
        {
            task.abort();
        }
        tracing::info!("disconnected from the app");
        if retry {
            self.reconnect_soon();
        }
    }

    /// Drops connection `generation`: the app has stopped reading its socket.
    pub(super) fn stalled(self: &Arc<Self>, generation: u64) {
        tracing::warn!(
            socket = %self.socket.display(),
            "the app has not read its socket for {} s; dropping the connection",
            WRITE_TIMEOUT.as_secs()
        );
        self.disconnected(generation, Closed::Stalled);
    }
}

/// After the app went away: tries to reconnect with backoff while the link is in use,
/// so a restarted app is picked up (and resource subscribers hear of it). One loop per
/// link ([`Inner::reconnect_soon`]); the wait doubles with every attempt, kept across
/// loops, and starts again from [`RECONNECT_MIN`] once a connection has lasted.
async fn reconnect(weak: Weak<Inner>) {
    let connected = reconnect_attempts(&weak).await;
    let Some(inner) = weak.upgrade() else { return };
    inner.reconnecting.store(false, Ordering::Release);
    // The connection made may have closed before the flag was down: that close
    // started no loop, so start one.
    if connected && inner.app_left() {
        inner.reconnect_soon();
    }
}

/// The reconnection attempts; whether one connected.
async fn reconnect_attempts(weak: &Weak<Inner>) -> bool {
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
        if inner
            .activity
            .idle_for()
            .is_some_and(|idle| idle > idle_limit)
        {
            return false;
        }
        let link = Link { inner };
        if link.is_connected() {
            return true;
        }
        match link.ensure_connected().await {
            Ok(()) => return true,
            Err(e) => tracing::debug!(error = %e, "reconnect failed"),
        }
    }
}

/// Lets go of the app after `idle` without a tool call.
pub(super) async fn release_when_idle(inner: Weak<Inner>, idle: Duration) {
    let tick = (idle / 4).clamp(Duration::from_millis(100), Duration::from_secs(5));
    loop {
        tokio::time::sleep(tick).await;
        let Some(inner) = inner.upgrade() else { return };
        let Some(generation) = lock(&inner.state).open.as_ref().map(|c| c.generation()) else {
            continue;
        };
        if inner.activity.idle_for().is_some_and(|i| i >= idle) {
            tracing::info!(idle_secs = idle.as_secs(), "idle: releasing the app");
            inner.disconnected(generation, Closed::Released);
        }
    }
}
