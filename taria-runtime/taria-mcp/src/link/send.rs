//! Sending inputs to the app: an input takes a `seq` and a place among those waiting
//! for their ack on the open connection (under the in-flight and rate limits), is
//! written with a timeout, and waits for its ack or its effect.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use taria_schema::protocol::{BridgeMessage, Input};
use tokio::sync::oneshot;

use super::Link;
use super::connection::{Ack, Answer, Connection, NoPlace, Writer};
use super::mirror::{Showing, View};
use crate::errors::{Code, ToolError};
use crate::limits::{
    EFFECT_TIMEOUT, RATE_PER_SECOND, RateLimit, ack_bound, check_in_flight, rate_busy,
};
use crate::lock::lock;

/// How long a spawned app may leave an input unanswered, drawing nothing for the last
/// half of it, before its terminal is resized to make it draw (`Spawned::nudge`).
/// Longer than a loaded machine keeps a live app from answering: the resize reaches
/// the app as two resize events, which a list may scroll by.
const UNANSWERED_NUDGE_AFTER: Duration = Duration::from_millis(1500);
use crate::logs::InputId;
use crate::recording::CallTag;

/// Inputs on their way to the app. Cheap to clone (the clones share the `seq` and
/// the rate limit).
#[derive(Clone)]
pub(crate) struct Inputs(Arc<Shared>);

struct Shared {
    link: Link,
    next_seq: AtomicU64,
    /// Inputs per second (see [`crate::limits`]).
    rate: Mutex<RateLimit>,
}

/// An input on its way: its `seq` and the receiver of its ack.
pub(crate) struct Sent {
    /// The input's sequence number.
    pub(crate) seq: u64,
    /// The connection it went on.
    connection: Arc<Connection>,
    ack: oneshot::Receiver<Answer<Ack>>,
    /// How many terminal answers a spawned app had read as keys when it was sent
    /// ([`crate::spawn::Spawned::keyed_answers`]).
    pub(crate) keyed_answers: u64,
    /// When it was sent.
    pub(crate) at: std::time::Instant,
}

impl Sent {
    /// The input as the app's log names it: its connection and `seq`.
    pub(crate) fn id(&self) -> InputId {
        InputId {
            generation: self.connection.generation(),
            seq: self.seq,
        }
    }
}

/// An input that has its place, to be written ([`Inputs::place`]).
pub(crate) struct Placed {
    reserved: Reserved,
    ack: oneshot::Receiver<Answer<Ack>>,
}

/// An input's place: its connection and `seq`, its ack awaited.
struct Reserved {
    connection: Arc<Connection>,
    writer: Arc<Writer>,
    seq: u64,
}

/// Why an input could not take its place: `tx` is given back to try again.
enum NoRoom {
    /// [`MAX_IN_FLIGHT`](crate::limits::MAX_IN_FLIGHT) inputs wait for their ack.
    InFlight(oneshot::Sender<Answer<Ack>>),
    /// The rate limit is reached: a token comes in this long.
    Rate(oneshot::Sender<Answer<Ack>>, Duration),
    /// The connection has ended.
    Closed(oneshot::Sender<Answer<Ack>>),
}

/// Why the place was refused, from inside the connection's lock.
enum Over {
    InFlight(ToolError),
    Rate(Duration),
}

impl Inputs {
    /// Inputs sent on `link`'s connection.
    pub(crate) fn new(link: Link) -> Inputs {
        Inputs(Arc::new(Shared {
            link,
            next_seq: AtomicU64::new(1),
            rate: Mutex::new(RateLimit::new(Instant::now())),
        }))
    }

    /// The link they go on.
    pub(crate) fn link(&self) -> &Link {
        &self.0.link
    }

    /// Sends an input; the ack comes through [`Inputs::ack`]. Refused with `busy`
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
    /// need be; what [`Inputs::send`] does before writing. When the rate limit has no
    /// token, it waits for one if one comes by `until`
    /// ([`RATE_WAIT_MAX`](crate::limits::RATE_WAIT_MAX) after the input was ready),
    /// else it is refused `busy` with the wait.
    pub(crate) async fn place(
        &self,
        input: &Input,
        tag: Option<&CallTag>,
        until: Instant,
    ) -> Result<Placed, ToolError> {
        let link = self.link();
        link.ensure_connected().await?;
        link.check_protocol()?;
        let (mut tx, ack) = oneshot::channel();
        loop {
            let Some(connection) = link.open() else {
                return Err(link.not_connected());
            };
            match self.reserve(&connection, tx, input, tag) {
                Ok(reserved) => return Ok(Placed { reserved, ack }),
                Err((NoRoom::Rate(back, wait), error)) => {
                    if Instant::now() + wait > until {
                        return Err(error);
                    }
                    tx = back;
                    tokio::time::sleep(wait).await;
                }
                // It ended just now: the next one, if one opened meanwhile.
                Err((NoRoom::Closed(back), _)) => tx = back,
                Err((NoRoom::InFlight(_), error)) => return Err(error),
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
        self.link().check_protocol()?;
        let connection = &first.connection;
        let (mut tx, rx) = oneshot::channel();
        let reserved = loop {
            // Registered before the check, so an ack in between is not missed.
            let room = connection.room().notified();
            tokio::pin!(room);
            room.as_mut().enable();
            let (returned, error, wait_for_ack) = match self.reserve(connection, tx, &input, tag) {
                Ok(reserved) => break reserved,
                Err((NoRoom::InFlight(tx), error)) => (tx, error, true),
                Err((NoRoom::Rate(tx, _), error)) => (tx, error, false),
                Err((NoRoom::Closed(_), error)) => return Err(error),
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

    /// Takes a `seq` and a place among the inputs waiting for an ack on `connection`,
    /// or says why not (and gives `tx` back). The recording notes `input` as it takes
    /// its place, so its lines are in `seq` order.
    fn reserve(
        &self,
        connection: &Arc<Connection>,
        tx: oneshot::Sender<Answer<Ack>>,
        input: &Input,
        tag: Option<&CallTag>,
    ) -> Result<Reserved, (NoRoom, ToolError)> {
        let admit = |waiting| {
            check_in_flight(waiting).map_err(Over::InFlight)?;
            lock(&self.0.rate)
                .take(Instant::now())
                .map_err(Over::Rate)?;
            let seq = self.0.next_seq.fetch_add(1, Ordering::Relaxed);
            if let Some(recorder) = self.link().recorder() {
                self.link().mirror().with_newest(|now| {
                    let tree = now.map(|(_, tree, _)| tree);
                    recorder.sent(connection.generation(), seq, input, tag, tree);
                });
            }
            Ok(seq)
        };
        match connection.expect_ack(tx, admit) {
            Ok((seq, writer)) => Ok(Reserved {
                connection: Arc::clone(connection),
                writer,
                seq,
            }),
            Err(NoPlace::Refused(tx, Over::InFlight(error))) => Err((NoRoom::InFlight(tx), error)),
            Err(NoPlace::Refused(tx, Over::Rate(wait))) => {
                Err((NoRoom::Rate(tx, wait), rate_busy(wait)))
            }
            Err(NoPlace::Closed(tx)) => Err((NoRoom::Closed(tx), self.closed_error(connection))),
        }
    }

    /// The error for an input whose connection has ended: in the middle of a burst
    /// when another has opened since, else why there is none.
    fn closed_error(&self, connection: &Connection) -> ToolError {
        let link = self.link();
        if link.generation() == connection.generation() {
            return link.not_connected();
        }
        ToolError::new(
            Code::AppExited,
            "the app's connection ended in the middle of the burst (the app exited or \
             restarted): the rest of the presses were not sent; read the tree to see where it \
             stands",
        )
    }

    async fn send_reserved(
        &self,
        reserved: Reserved,
        input: Input,
        ack: oneshot::Receiver<Answer<Ack>>,
    ) -> Result<Sent, ToolError> {
        let Reserved {
            connection,
            writer,
            seq,
        } = reserved;
        let message = BridgeMessage::Input { seq, input };
        if let Err(e) = self.link().write(&connection, &writer, &message).await {
            connection.forget(seq);
            if let Some(recorder) = self.link().recorder() {
                recorder.unsent(seq);
            }
            return Err(e);
        }
        tracing::trace!(target: crate::latency::TARGET, seq, "input sent");
        let keyed_answers = self
            .link()
            .spawned_app()
            .map_or(0, |spawned| spawned.keyed_answers());
        Ok(Sent {
            seq,
            connection,
            ack,
            keyed_answers,
            at: std::time::Instant::now(),
        })
    }

    /// Waits (at most [`ACK_TIMEOUT`](crate::limits::ACK_TIMEOUT)) for the ack of a
    /// sent one-key input.
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
        // A spawned app that has not answered for a while is made to draw, once, with a
        // resize: an app whose loop draws only when its own state changed takes the
        // agent's inputs only in the turn before it draws (`#[taria::app]`'s drain),
        // and an action waits for the frame after it, so it would never answer.
        // Not an app that is drawing (one busy typing a long text draws every key):
        // only one that drew nothing in the last part of the wait.
        let mut answered = None;
        if let Some(spawned) = self.link().spawned_app() {
            let nudge_at = tokio::time::Instant::now() + UNANSWERED_NUDGE_AFTER;
            let mut changes = self.link().mirror().changes();
            let mut last_drawn = tokio::time::Instant::now();
            while answered.is_none() && nudge_at < deadline {
                tokio::select! {
                    answer = &mut sent.ack => answered = Some(answer),
                    tree = changes.changed() => {
                        if tree.is_err() {
                            break;
                        }
                        last_drawn = tokio::time::Instant::now();
                    }
                    () = tokio::time::sleep_until(nudge_at) => {
                        if nudge_at.duration_since(last_drawn) >= UNANSWERED_NUDGE_AFTER / 2 {
                            spawned.nudge();
                        }
                        break;
                    }
                }
            }
        }
        let answered = match answered {
            Some(answer) => Ok(answer),
            None => tokio::time::timeout_at(deadline, &mut sent.ack).await,
        };
        match answered {
            Ok(Ok(Ok(ack))) => Ok(ack),
            Ok(Ok(Err(why))) => Err(self
                .link()
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
                     stuck. Check read_tree (format screen) or wait_for_change before retrying (it may still \
                     happen)",
                    seconds(bound)
                ),
            )
            .with("sent", true)),
        }
    }

    /// Waits (at most [`EFFECT_TIMEOUT`]) for the first tree that shows the effect of
    /// the input; `None` when it did not come in time or its connection ended.
    pub(crate) async fn effect(&self, sent: &Sent) -> Option<View> {
        let mirror = self.link().mirror();
        let mut changes = mirror.changes();
        let deadline = tokio::time::Instant::now() + EFFECT_TIMEOUT;
        loop {
            match mirror.showing(sent.connection.generation(), sent.seq) {
                Showing::Shown(view) => return Some(view),
                Showing::Gone => return None,
                Showing::NotYet => {}
            }
            if tokio::time::timeout_at(deadline, changes.changed())
                .await
                .is_err()
            {
                return None;
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
