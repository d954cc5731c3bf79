//! One connection to the app, while it is open: its writer, what waits for an answer
//! on it (inputs by `seq`, screen requests), and what the app said of itself. When it
//! ends, everything still waiting hears why at once; nothing sent on it is ever
//! answered from another connection.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Instant;

use taria_schema::protocol::{AckStatus, BridgeMessage, RejectReason, ScreenStyles};
use taria_schema::recording::RecordedAck;
use tokio::io::AsyncWriteExt;
use tokio::sync::{Notify, oneshot};

use crate::errors::Code;
use crate::limits::WRITE_TIMEOUT;
use crate::lock::lock;

/// The app's local socket: a Unix socket, or a named pipe on Windows (the name the
/// app listens on, see `taria_schema::socket::socket_name`).
pub(super) type Stream = interprocess::local_socket::tokio::Stream;

/// The writing end of a connection, one message at a time.
pub(super) type Writer = tokio::sync::Mutex<Half>;

/// One end of a connection shared by its reader and its writer (`&Stream` reads and
/// writes; interprocess advises this over splitting). The connection closes when
/// both ends are dropped.
pub(super) struct Half(pub(super) Arc<Stream>);

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

impl Ack {
    /// As the recording keeps it; `None` for a status this taria-mcp does not know.
    pub(super) fn recorded(&self) -> Option<RecordedAck> {
        let status = *self.status.as_ref().ok()?;
        Some(RecordedAck {
            status,
            reason: self.reason,
            message: self.message.clone(),
        })
    }
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
    /// Its colours and attributes, when asked for and the app sent them.
    pub(crate) styles: Option<ScreenStyles>,
}

/// The app's answer to a request, or why the connection ended before it came.
pub(super) type Answer<T> = Result<T, Closed>;

/// Why a connection ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum Closed {
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
    pub(super) fn cut_off(&self) -> (Code, &'static str) {
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

    /// Whether taria-mcp ended it itself (the reader still holds the stream open).
    pub(super) fn letting_go(&self) -> bool {
        matches!(self, Closed::Released | Closed::Stalled)
    }
}

/// One connection, numbered by the link (`generation`).
pub(super) struct Connection {
    generation: u64,
    opened: Instant,
    state: Mutex<State>,
    /// Woken whenever inputs stop waiting for their ack (room under
    /// [`MAX_IN_FLIGHT`](crate::limits::MAX_IN_FLIGHT)), and when the connection ends.
    room: Notify,
}

struct State {
    /// `None` once the connection ended.
    writer: Option<Arc<Writer>>,
    reader: Option<tokio::task::JoinHandle<()>>,
    /// The protocol version the app said it speaks.
    protocol: Option<u32>,
    /// Whether the app said it captures its log (its hello's `logs`).
    logs: bool,
    /// The app refused us on it (busy, another user): why it ends, unless we let go.
    refusal: Option<Closed>,
    /// Inputs waiting for their ack, by `seq`.
    acks: HashMap<u64, oneshot::Sender<Answer<Ack>>>,
    screens: Vec<oneshot::Sender<Answer<Screen>>>,
}

/// Why an input could not take a place on a connection; `tx` is given back to try
/// again.
pub(super) enum NoPlace<E> {
    /// The connection has ended.
    Closed(oneshot::Sender<Answer<Ack>>),
    /// The caller's check said no.
    Refused(oneshot::Sender<Answer<Ack>>, E),
}

impl Connection {
    /// Connection `generation`, writing through `writer`.
    pub(super) fn open(generation: u64, writer: Arc<Writer>) -> Arc<Connection> {
        Arc::new(Connection {
            generation,
            opened: Instant::now(),
            state: Mutex::new(State {
                writer: Some(writer),
                reader: None,
                protocol: None,
                logs: false,
                refusal: None,
                acks: HashMap::new(),
                screens: Vec::new(),
            }),
            room: Notify::new(),
        })
    }

    pub(super) fn generation(&self) -> u64 {
        self.generation
    }

    /// When it opened.
    pub(super) fn opened(&self) -> Instant {
        self.opened
    }

    /// Its writer, while it is open (a test's second reader writes with it).
    #[cfg(all(test, unix))]
    pub(super) fn writer(&self) -> Option<Arc<Writer>> {
        lock(&self.state).writer.clone()
    }

    /// Whether it is still open.
    pub(super) fn is_open(&self) -> bool {
        lock(&self.state).writer.is_some()
    }

    /// Woken when inputs stop waiting for their ack on it, and when it ends.
    pub(super) fn room(&self) -> &Notify {
        &self.room
    }

    /// Keeps its reader task, to stop it when taria-mcp lets go.
    pub(super) fn read_by(&self, reader: tokio::task::JoinHandle<()>) {
        let mut state = lock(&self.state);
        if state.writer.is_some() {
            state.reader = Some(reader);
        }
    }

    /// The protocol version the app said it speaks, once it has.
    pub(super) fn protocol(&self) -> Option<u32> {
        lock(&self.state).protocol
    }

    /// The app said hello, speaking protocol `v`, capturing its log or not.
    pub(super) fn said_hello(&self, v: u32, logs: bool) {
        let mut state = lock(&self.state);
        state.protocol = Some(v);
        state.logs = logs;
    }

    /// Whether the app said it captures its log (`None` before its hello).
    pub(super) fn app_logs(&self) -> Option<bool> {
        let state = lock(&self.state);
        state.protocol.map(|_| state.logs)
    }

    /// The app refused us (busy, another user); the connection ends with that.
    pub(super) fn refused(&self, why: Closed) {
        lock(&self.state).refusal = Some(why);
    }

    /// Takes a place for an input among those awaiting an ack: `admit`, told how many
    /// wait, gives its `seq` or says why not, while no other input can take a place
    /// and the connection cannot end. Then `tx` hears its ack.
    pub(super) fn expect_ack<E>(
        &self,
        tx: oneshot::Sender<Answer<Ack>>,
        admit: impl FnOnce(usize) -> Result<u64, E>,
    ) -> Result<(u64, Arc<Writer>), NoPlace<E>> {
        let mut state = lock(&self.state);
        let Some(writer) = state.writer.clone() else {
            return Err(NoPlace::Closed(tx));
        };
        match admit(state.acks.len()) {
            Ok(seq) => {
                state.acks.insert(seq, tx);
                Ok((seq, writer))
            }
            Err(e) => Err(NoPlace::Refused(tx, e)),
        }
    }

    /// Input `seq` was not written after all: it waits for no ack.
    pub(super) fn forget(&self, seq: u64) {
        lock(&self.state).acks.remove(&seq);
        self.room.notify_waiters();
    }

    /// Hands `ack` to whoever waits for input `seq`; `noted` sees it first, unless
    /// the connection has ended (then nobody waits).
    pub(super) fn answer(&self, seq: u64, ack: Ack, noted: impl FnOnce(&Ack)) {
        let tx = {
            let mut state = lock(&self.state);
            if state.writer.is_none() {
                return;
            }
            noted(&ack);
            state.acks.remove(&seq)
        };
        if let Some(tx) = tx {
            let _ = tx.send(Ok(ack));
            self.room.notify_waiters();
        }
    }

    /// Waits for the app's next screen with `tx`; its writer, to ask for it (`None`
    /// when the connection has ended).
    pub(super) fn expect_screen(&self, tx: oneshot::Sender<Answer<Screen>>) -> Option<Arc<Writer>> {
        let mut state = lock(&self.state);
        let writer = state.writer.clone()?;
        state.screens.push(tx);
        Some(writer)
    }

    /// Hands `screen` to every request waiting for one.
    pub(super) fn screen(&self, screen: &Screen) {
        for tx in lock(&self.state).screens.drain(..) {
            let _ = tx.send(Ok(screen.clone()));
        }
    }

    /// Ends the connection (once; `None` after): why it ended (`why`, or the app's
    /// refusal unless taria-mcp let go), which `noted` sees first, and everything still
    /// waiting hears. Returns why, and its reader task.
    pub(super) fn close(
        &self,
        why: Closed,
        noted: impl FnOnce(&Closed),
    ) -> Option<(Closed, Option<tokio::task::JoinHandle<()>>)> {
        let ended = {
            let mut state = lock(&self.state);
            state.writer.take()?;
            let why = match state.refusal.take() {
                Some(refusal) if !why.letting_go() => refusal,
                _ => why,
            };
            noted(&why);
            for (_, tx) in state.acks.drain() {
                let _ = tx.send(Err(why.clone()));
            }
            for tx in state.screens.drain(..) {
                let _ = tx.send(Err(why.clone()));
            }
            (why, state.reader.take())
        };
        self.room.notify_waiters();
        Some(ended)
    }
}

/// Writes one message line, waiting at most [`WRITE_TIMEOUT`] for the writer and for
/// room in the socket; `NotConnected` (nothing written) when, once it has the writer,
/// `current` says the connection was dropped meanwhile.
pub(super) async fn write_message(
    writer: &Writer,
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

#[cfg(all(test, unix))]
mod tests {
    use std::sync::Arc;

    use taria_schema::protocol::AckStatus;
    use tokio::sync::oneshot;

    use super::{Ack, Closed, Connection, Half, NoPlace, Stream};

    /// A connection to a socket nobody reads (the listener is kept open).
    async fn connection(
        generation: u64,
    ) -> (
        Arc<Connection>,
        std::os::unix::net::UnixListener,
        std::path::PathBuf,
    ) {
        use interprocess::local_socket::traits::tokio::Stream as _;
        let dir = std::env::temp_dir().join(format!(
            "taria-connection-test-{}-{generation}",
            std::process::id()
        ));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("a temporary directory");
        let path = dir.join("app.sock");
        let listener = std::os::unix::net::UnixListener::bind(&path).expect("a socket");
        let name = taria_schema::socket::socket_name(&path).expect("a socket name");
        let stream = Stream::connect(name).await.expect("connected");
        let writer = Arc::new(tokio::sync::Mutex::new(Half(Arc::new(stream))));
        (Connection::open(generation, writer), listener, dir)
    }

    fn delivered() -> Ack {
        Ack {
            status: Ok(AckStatus::Delivered),
            reason: None,
            unknown_reason: None,
            message: None,
        }
    }

    /// Inputs are answered by `seq` on the connection they went on; when it ends,
    /// everything still waiting hears why at once, and nothing more is taken on it.
    #[tokio::test]
    async fn an_ended_connection_answers_everything_waiting_on_it() {
        let (connection, _listener, dir) = connection(1).await;
        let (tx1, rx1) = oneshot::channel();
        let (tx2, rx2) = oneshot::channel();
        let placed = connection.expect_ack(tx1, |waiting| Ok::<_, ()>(10 + waiting as u64));
        assert!(matches!(placed, Ok((10, _))));
        let placed = connection.expect_ack(tx2, |waiting| Ok::<_, ()>(10 + waiting as u64));
        assert!(matches!(placed, Ok((11, _))));
        let (screen_tx, screen_rx) = oneshot::channel();
        assert!(connection.expect_screen(screen_tx).is_some());
        let mut noted = Vec::new();
        connection.answer(10, delivered(), |_| noted.push(10));
        assert!(matches!(rx1.await, Ok(Ok(_))));
        let (why, _) = connection
            .close(Closed::Exited, |why| assert_eq!(*why, Closed::Exited))
            .expect("it was open");
        assert_eq!(why, Closed::Exited);
        assert!(matches!(rx2.await, Ok(Err(Closed::Exited))));
        assert!(matches!(screen_rx.await, Ok(Err(Closed::Exited))));
        assert!(
            connection
                .close(Closed::Failed, |_| panic!("closed twice"))
                .is_none()
        );
        connection.answer(11, delivered(), |_| noted.push(11));
        assert_eq!(noted, [10], "nothing is answered on an ended connection");
        let (tx, _rx) = oneshot::channel();
        let refused = connection.expect_ack(tx, |_| -> Result<u64, ()> { panic!("admitted") });
        assert!(matches!(refused, Err(NoPlace::Closed(_))));
        let _ = std::fs::remove_dir_all(dir);
    }

    /// The app's refusal (busy, another user) is why its connection ended, unless
    /// taria-mcp let go of it itself.
    #[tokio::test]
    async fn a_refusal_is_why_a_connection_ends_unless_taria_mcp_let_go() {
        for (generation, why, ended) in [
            (2, Closed::Exited, Closed::Busy("held".into())),
            (3, Closed::Released, Closed::Released),
        ] {
            let (connection, _listener, dir) = connection(generation).await;
            connection.refused(Closed::Busy("held".into()));
            let (closed, _) = connection.close(why, |_| {}).unwrap();
            assert_eq!(closed, ended);
            let _ = std::fs::remove_dir_all(dir);
        }
    }
}
