//! Sending to the app: an input takes a `seq` and a place among those waiting for
//! their ack (under the in-flight and rate limits), is written with a timeout, and
//! waits for its ack or its effect; the screen is asked for the same way.

use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

use taria::wire::{BridgeMessage, Input};
use tokio::io::AsyncWriteExt;
use tokio::sync::oneshot;

use super::{
    ACK_TIMEOUT, Ack, Answer, EFFECT_TIMEOUT, Link, Screen, Sent, View, WRITE_TIMEOUT, WriteHalf,
    ack_bound, current_view, lock,
};
use crate::errors::{Code, ToolError};
use crate::limits::{RATE_PER_SECOND, check_in_flight, rate_busy};
use crate::record::CallTag;

impl Link {
    /// Sends an input; the ack comes through [`Link::ack`]. Refused with `busy`
    /// (nothing sent) when [`MAX_IN_FLIGHT`](crate::limits::MAX_IN_FLIGHT) inputs wait
    /// for their ack, or when the rate limit has no token for it by `until`.
    /// `tag` says which call sent it, for the recording.
    pub(crate) async fn send(
        &self,
        input: Input,
        tag: Option<&CallTag>,
        until: Instant,
    ) -> Result<Sent, ToolError> {
        let placed = self.place(&input, tag, until).await?;
        self.write_placed(placed, input).await
    }

    /// An input's place (its `seq`, among those awaiting an ack), connecting first if
    /// need be; what [`Link::send`] does before writing. When the rate limit has no
    /// token, it waits for one if one comes by `until`
    /// ([`RATE_WAIT_MAX`](crate::limits::RATE_WAIT_MAX) after the input was ready),
    /// else it is refused `busy` with the wait.
    pub(crate) async fn place(
        &self,
        input: &Input,
        tag: Option<&CallTag>,
        until: Instant,
    ) -> Result<Placed, ToolError> {
        self.ensure_connected().await?;
        self.check_protocol()?;
        let (mut tx, ack) = oneshot::channel();
        loop {
            match self.reserve(tx, None, input, tag) {
                Ok(reserved) => return Ok(Placed { reserved, ack }),
                Err((NoRoom::Rate(back, wait), error)) => {
                    if Instant::now() + wait > until {
                        return Err(error);
                    }
                    tx = back;
                    tokio::time::sleep(wait).await;
                }
                Err((_, error)) => return Err(error),
            }
        }
    }

    /// Writes an input that has its place.
    pub(crate) async fn write_placed(
        &self,
        placed: Placed,
        input: Input,
    ) -> Result<Sent, ToolError> {
        self.send_reserved(placed.reserved, input, placed.ack).await
    }

    /// Sends the next input of a burst (a repeated key) on the connection `first`
    /// went on: rather than being refused mid-burst, it waits until `deadline` for
    /// room under [`MAX_IN_FLIGHT`](crate::limits::MAX_IN_FLIGHT) and the rate limit,
    /// then fails with the `busy` error it would have had. It never reconnects: the
    /// rest of a burst must not go to an app that restarted in the middle of it.
    pub(crate) async fn send_paced(
        &self,
        input: Input,
        tag: Option<&CallTag>,
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
            let (returned, error, wait_for_ack) =
                match self.reserve(tx, Some(first.generation), &input, tag) {
                    Ok(reserved) => break reserved,
                    Err((NoRoom::InFlight(tx), error)) => (tx, error, true),
                    Err((NoRoom::Rate(tx, _), error)) => (tx, error, false),
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
    /// The recording notes `input` as it takes its place, so its lines are in `seq`
    /// order.
    fn reserve(
        &self,
        tx: oneshot::Sender<Answer<Ack>>,
        on: Option<u64>,
        input: &Input,
        tag: Option<&CallTag>,
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
        if let Err(wait) = lock(&self.inner.rate).take(Instant::now()) {
            return Err((NoRoom::Rate(tx, wait), rate_busy(wait)));
        }
        let seq = self.inner.next_seq.fetch_add(1, Ordering::Relaxed);
        state.acks.insert(seq, tx);
        if let Some(recorder) = &self.inner.recorder {
            recorder.sent(state.generation, seq, input, tag, state.tree.as_ref());
        }
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
            if let Some(recorder) = &self.inner.recorder {
                recorder.unsent(seq);
            }
            self.inner.room.notify_waiters();
            return Err(e);
        }
        tracing::trace!(target: crate::LATENCY, seq, "input sent");
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
            Ok(Ok(Err(why))) => Err(self
                .cut_off_error(
                    &why,
                    ("sent, but", "before answering"),
                    ". Its effect is unknown; read_tree once the app is back",
                )
                .await
                .with("sent", true)),
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
        self.screen_now().await
    }

    /// Asks for the rendered screen on the connection there is.
    pub(super) async fn screen_now(&self) -> Result<Screen, ToolError> {
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
            Ok(Ok(Err(why))) => Err(self
                .cut_off_error(
                    &why,
                    ("", "before sending its screen"),
                    "; retry once it is back",
                )
                .await),
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
    /// The rate limit is reached: a token comes in this long.
    Rate(oneshot::Sender<Answer<Ack>>, Duration),
    /// No connection.
    Closed,
}

/// An input that has its place, to be written ([`Link::place`]).
pub(crate) struct Placed {
    reserved: Reserved,
    ack: oneshot::Receiver<Answer<Ack>>,
}

/// An input's place: its connection and `seq`, its ack awaited.
struct Reserved {
    writer: Arc<tokio::sync::Mutex<WriteHalf>>,
    generation: u64,
    seq: u64,
}

/// Writes one message line, waiting at most [`WRITE_TIMEOUT`] for the writer and for
/// room in the socket; `NotConnected` (nothing written) when, once it has the writer,
/// `current` says the connection was dropped meanwhile.
pub(super) async fn write_message(
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
