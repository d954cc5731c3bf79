//! Inputs reach the app in the order their calls arrived on stdin.
//!
//! rmcp runs each request in a task of its own, so handlers start in any order. The
//! transport numbers input tool calls (`act`, `type_text`, `press_key`, `batch`) as
//! it reads them; a handler sends only once every earlier number has been queued for
//! the app's socket or is done with (answered, cancelled, refused before sending).
//! Only sending takes turns: acks are awaited concurrently.

use std::collections::{BTreeSet, HashMap, VecDeque};
use std::pin::pin;
use std::sync::{Arc, Mutex};
use std::task::Poll;
use std::time::{Duration, Instant};

use rmcp::model::{
    ClientJsonRpcMessage, ClientNotification, ClientRequest, JsonRpcMessage, RequestId,
    ServerJsonRpcMessage,
};
use taria_schema::Tree;
use taria_schema::protocol::Input;
use tokio::sync::watch;

use crate::errors::ToolError;
use crate::limits::RATE_WAIT_MAX;
use crate::link::{Inputs, Sent};
use crate::lock::lock;
use crate::logs::InputId;
use crate::recording::CallTag;
use crate::seen::Seen;

/// When no earlier call has passed its turn on for this long, a waiting call sends
/// anyway (and it is logged). Every numbered call passes its turn on within the
/// bounds of connecting and writing (10 s, 3 s, 5 s), so this only keeps a case no
/// one foresaw from holding every later input forever.
const TURN_WAIT_MAX: Duration = Duration::from_secs(30);

/// How long the turn of a cancelled call waits for its handler to claim it.
const CANCEL_GRACE: Duration = Duration::from_secs(1);

/// The input calls read from stdin and not yet done with; shared by the transport
/// (which numbers them) and the tool handlers (which take turns).
#[derive(Clone)]
pub(crate) struct Arrivals(Arc<Shared>);

struct Shared {
    state: Mutex<State>,
    /// What the agent saw: the tree it was last given, noted as each input call
    /// arrives, is what that call's positional ids were read from.
    seen: Seen,
    /// Every number below this one is done with.
    front: watch::Sender<u64>,
    /// Whether a call of the tool so named takes a turn: the tools whose calls send
    /// inputs, and `resize`, which changes what the app sees as an input does
    /// (`crate::tools::takes_turn`, from the list of tools).
    takes_turn: fn(&str) -> bool,
}

/// An input call's number, the tree the agent had when it arrived, and when.
type Arrival = (u64, Option<Arc<Tree>>, Instant);

#[derive(Default)]
struct State {
    /// The number for the next input call.
    next: u64,
    /// Numbers at or above the front that are done with.
    done: BTreeSet<u64>,
    /// Numbers not yet claimed by a handler, with the tree the agent had been given
    /// when the call arrived, by request id (in arrival order when a client reuses
    /// an id).
    unclaimed: HashMap<RequestId, VecDeque<Arrival>>,
}

impl Arrivals {
    /// Arrivals noting, for each call of a tool that `takes_turn`, the tree in `seen`
    /// when it arrived.
    pub(crate) fn new(seen: Seen, takes_turn: fn(&str) -> bool) -> Arrivals {
        Arrivals(Arc::new(Shared {
            state: Mutex::new(State::default()),
            seen,
            front: watch::Sender::new(0),
            takes_turn,
        }))
    }

    /// Called by the transport for each message it passes to rmcp, in the order read.
    pub(crate) fn arrived(&self, message: &ClientJsonRpcMessage) {
        match message {
            JsonRpcMessage::Request(request) => {
                if let ClientRequest::CallToolRequest(call) = &request.request
                    && (self.0.takes_turn)(call.params.name.as_ref())
                {
                    let seen = self.0.seen.last();
                    let mut state = self.lock();
                    let number = state.next;
                    state.next += 1;
                    state
                        .unclaimed
                        .entry(request.id.clone())
                        .or_default()
                        .push_back((number, seen, Instant::now()));
                }
            }
            // rmcp drops the answer to a cancelled request, and a later rmcp might not run
            // its handler at all. rmcp 3.11 does run it, at once: its turn is kept for
            // it a moment, so that input still goes in order.
            JsonRpcMessage::Notification(notification) => {
                if let ClientNotification::CancelledNotification(cancelled) =
                    &notification.notification
                    && let Some(id) = cancelled.params.request_id.clone()
                    && self.lock().unclaimed.contains_key(&id)
                {
                    let arrivals = self.clone();
                    tokio::spawn(async move {
                        tokio::time::sleep(CANCEL_GRACE).await;
                        let numbers = arrivals.lock().unclaimed.remove(&id).unwrap_or_default();
                        for (number, _, _) in numbers {
                            arrivals.release(number);
                        }
                    });
                }
            }
            _ => {}
        }
    }

    /// Called by the transport for each message it writes: an answer to a request no
    /// handler claimed (rmcp refused it) releases its number.
    pub(crate) fn answered(&self, message: &ServerJsonRpcMessage) {
        let id = match message {
            JsonRpcMessage::Response(response) => &response.id,
            JsonRpcMessage::Error(error) => match &error.id {
                Some(id) => id,
                None => return,
            },
            _ => return,
        };
        if let Some((number, _, _)) = self.take_unclaimed(id) {
            self.release(number);
        }
    }

    /// The oldest number handed to request `id` that no handler has claimed yet.
    fn take_unclaimed(&self, id: &RequestId) -> Option<Arrival> {
        let mut state = self.lock();
        let number = state.unclaimed.get_mut(id).and_then(VecDeque::pop_front);
        if state.unclaimed.get(id).is_some_and(VecDeque::is_empty) {
            state.unclaimed.remove(id);
        }
        number
    }

    /// The turn of the input call `id`, for its handler (no turn to wait for when the
    /// transport did not number it).
    pub(crate) fn claim(&self, id: &RequestId) -> Turn {
        let (number, seen_at_arrival, ready) = match self.take_unclaimed(id) {
            Some((number, seen, arrived)) => (Some(number), seen, arrived),
            None => (None, self.0.seen.last(), Instant::now()),
        };
        Turn {
            arrivals: self.clone(),
            number,
            kept: false,
            seen_at_arrival,
            waited: false,
            tag: None,
            ready,
            sent: Vec::new(),
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, State> {
        lock(&self.0.state)
    }

    /// Number `n` is done with; the front moves past every done number.
    fn release(&self, n: u64) {
        let mut state = self.lock();
        let mut front = *self.0.front.borrow();
        if n < front || !state.done.insert(n) {
            return;
        }
        while state.done.remove(&front) {
            front += 1;
        }
        self.0.front.send_replace(front);
    }
}

/// One input call's place in the order. Dropping it passes the turn on.
pub(crate) struct Turn {
    arrivals: Arrivals,
    number: Option<u64>,
    waited: bool,
    /// Held until dropped (see [`Turn::keep`]).
    kept: bool,
    /// The tree the agent had been given when this call arrived.
    seen_at_arrival: Option<Arc<Tree>>,
    /// Which call this is, for the recording.
    tag: Option<CallTag>,
    /// When its next input was ready to send (the call arrived; a batch step began):
    /// the rate limit is waited for until [`RATE_WAIT_MAX`] after it.
    ready: Instant,
    /// The inputs this call sent, in order.
    sent: Vec<InputId>,
}

impl Turn {
    /// The tree the agent had been given when this call arrived: the one its
    /// positional ids name nodes of. Not the newest result's tree: a call sent
    /// before the result of an earlier one came back was read off an older tree.
    pub(crate) fn seen_at_arrival(&self) -> Option<&Arc<Tree>> {
        self.seen_at_arrival.as_ref()
    }

    /// Names the call's tool for the recording of its inputs and reads.
    pub(crate) fn tag(&mut self, tag: CallTag) {
        self.tag = Some(tag);
    }

    /// The call's tag for the recording, if it has one.
    pub(crate) fn call_tag(&self) -> Option<&CallTag> {
        self.tag.as_ref()
    }

    /// The inputs this call sent so far, in order (the app's log names them).
    pub(crate) fn sent(&self) -> &[InputId] {
        &self.sent
    }

    /// Notes an input this call sent.
    fn noted(&mut self, sent: Result<Sent, ToolError>) -> Result<Sent, ToolError> {
        if let Ok(sent) = &sent {
            self.sent.push(sent.id());
        }
        sent
    }

    /// The next input of this call is ready to send now (a batch's next step): its
    /// wait for the rate limit counts from here.
    pub(crate) fn ready_now(&mut self) {
        self.ready = Instant::now();
    }

    /// Until when an input of this call waits for the rate limit.
    fn rate_until(&self) -> Instant {
        self.ready + RATE_WAIT_MAX
    }

    /// Sends `input` in this call's turn and keeps the turn: more inputs of this call
    /// follow (the presses of a repeated key).
    pub(crate) async fn send(&mut self, inputs: &Inputs, input: Input) -> Result<Sent, ToolError> {
        self.wait().await;
        let sent = inputs
            .send(input, self.tag.as_ref(), self.rate_until())
            .await;
        self.noted(sent)
    }

    /// Sends the next input of a burst in this call's turn, waiting for room until
    /// `deadline` (see [`Inputs::send_paced`]); keeps the turn.
    pub(crate) async fn send_paced(
        &mut self,
        inputs: &Inputs,
        input: Input,
        first: &Sent,
        deadline: std::time::Instant,
    ) -> Result<Sent, ToolError> {
        self.wait().await;
        let sent = inputs
            .send_paced(input, self.tag.as_ref(), first, deadline)
            .await;
        self.noted(sent)
    }

    /// Sends this call's last input in its turn and passes the turn on as soon as the
    /// input is queued for the app's socket: the write itself (up to 5 s when the app
    /// stops reading) is not waited for in turn.
    pub(crate) async fn send_last(
        &mut self,
        inputs: &Inputs,
        input: Input,
    ) -> Result<Sent, ToolError> {
        self.wait().await;
        // In turn: connecting if need be, and waiting for the rate limit, then the
        // input's seq.
        let placed = match inputs
            .place(&input, self.tag.as_ref(), self.rate_until())
            .await
        {
            Ok(placed) => placed,
            Err(e) => {
                self.pass();
                return Err(e);
            }
        };
        // The first poll joins the writer's queue (tokio's mutex serves in the order of
        // first polls), or writes it: its place is fixed. Unconstrained, so tokio's
        // cooperative budget cannot make that first poll a no-op.
        let mut send = pin!(tokio::task::unconstrained(
            inputs.write_placed(placed, input)
        ));
        let first = std::future::poll_fn(|cx| Poll::Ready(send.as_mut().poll(cx))).await;
        self.pass();
        let result = match first {
            Poll::Ready(result) => result,
            Poll::Pending => send.await,
        };
        self.noted(result)
    }

    /// Waits until every input call that arrived earlier is queued or done with.
    /// The limit is on time without progress: a queue of slow calls that each move
    /// the front on in time is waited out whole.
    pub(crate) async fn wait(&mut self) {
        let Some(number) = self.number else { return };
        if self.waited {
            return;
        }
        self.waited = true;
        let mut front = self.arrivals.0.front.subscribe();
        while *front.borrow_and_update() < number {
            match tokio::time::timeout(TURN_WAIT_MAX, front.changed()).await {
                Ok(Ok(())) => {}
                Ok(Err(_)) => return,
                Err(_) => {
                    tracing::warn!(
                        number,
                        "no earlier input call has moved on for {TURN_WAIT_MAX:?}; sending anyway"
                    );
                    return;
                }
            }
        }
    }

    /// Passes the turn on (once), unless it is [kept](Turn::keep).
    fn pass(&mut self) {
        if self.kept {
            return;
        }
        if let Some(number) = self.number.take() {
            self.arrivals.release(number);
        }
    }

    /// Keeps the turn until the `Turn` is dropped: the steps of a batch send in one
    /// turn, each after the one before was answered, with no other call's input
    /// between them.
    pub(crate) fn keep(&mut self) {
        self.kept = true;
    }

    /// Passes the turn on now, unless it is kept (a call done sending).
    pub(crate) fn done_sending(&mut self) {
        self.pass();
    }
}

impl Drop for Turn {
    fn drop(&mut self) {
        self.kept = false;
        self.pass();
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use rmcp::model::{ClientJsonRpcMessage, RequestId, ServerJsonRpcMessage};
    use serde_json::json;

    use super::Arrivals;

    fn call(id: i64, tool: &str) -> ClientJsonRpcMessage {
        serde_json::from_value(json!({"jsonrpc": "2.0", "id": id, "method": "tools/call",
            "params": {"name": tool, "arguments": {}}}))
        .unwrap()
    }

    fn front(arrivals: &Arrivals) -> u64 {
        *arrivals.0.front.borrow()
    }

    #[tokio::test]
    async fn turns_follow_arrival_and_every_way_out_passes_them_on() {
        let arrivals = Arrivals::new(crate::seen::Seen::default(), crate::tools::takes_turn);
        for (id, tool) in [
            (1, "act"),
            (2, "read_tree"),
            (3, "type_text"),
            (4, "press_key"),
        ] {
            arrivals.arrived(&call(id, tool));
        }
        arrivals.arrived(&call(5, "type_text"));
        // 2 is not an input: not numbered. 3 is answered without a handler (refused).
        let error: ServerJsonRpcMessage = serde_json::from_value(
            json!({"jsonrpc": "2.0", "id": 3, "error": {"code": -32602, "message": "no"}}),
        )
        .unwrap();
        arrivals.answered(&error);
        // 4 is cancelled before its handler runs.
        let cancel: ClientJsonRpcMessage = serde_json::from_value(json!({"jsonrpc": "2.0",
            "method": "notifications/cancelled", "params": {"requestId": 4}}))
        .unwrap();
        arrivals.arrived(&cancel);
        // Its handler may still come for its turn: it is kept for a moment.
        assert_eq!(front(&arrivals), 0);
        let mut fifth = arrivals.claim(&RequestId::Number(5));
        let waiting = tokio::spawn(async move {
            fifth.wait().await;
            fifth
        });
        tokio::time::sleep(Duration::from_millis(50)).await;
        assert!(!waiting.is_finished(), "5 went before 1");
        let first = arrivals.claim(&RequestId::Number(1));
        drop(first);
        assert_eq!(front(&arrivals), 2, "1 and 3 are done, 4 is cancelled");
        let fifth = tokio::time::timeout(Duration::from_secs(5), waiting)
            .await
            .expect("5's turn came")
            .unwrap();
        assert_eq!(front(&arrivals), 3);
        drop(fifth);
        assert_eq!(front(&arrivals), 4);
        // A cancelled call whose handler comes at once keeps its place.
        arrivals.arrived(&call(6, "act"));
        arrivals.arrived(&call(7, "act"));
        let cancel: ClientJsonRpcMessage = serde_json::from_value(json!({"jsonrpc": "2.0",
            "method": "notifications/cancelled", "params": {"requestId": 6}}))
        .unwrap();
        arrivals.arrived(&cancel);
        let sixth = arrivals.claim(&RequestId::Number(6));
        let mut seventh = arrivals.claim(&RequestId::Number(7));
        let waiting = tokio::spawn(async move { seventh.wait().await });
        tokio::time::sleep(Duration::from_millis(1500)).await;
        assert!(
            !waiting.is_finished(),
            "7 went before the cancelled 6 it follows"
        );
        drop(sixth);
        tokio::time::timeout(Duration::from_secs(5), waiting)
            .await
            .expect("7's turn came")
            .unwrap();
        // Unnumbered calls do not wait.
        let mut other = arrivals.claim(&RequestId::Number(2));
        tokio::time::timeout(Duration::from_secs(5), other.wait())
            .await
            .unwrap();
    }

    /// A call's positional ids were read off the tree the agent had when it sent the
    /// call: the turn keeps that one, even if an earlier call's result (a newer tree
    /// the agent had not seen yet) was recorded before this call's handler ran.
    #[tokio::test]
    async fn a_turn_keeps_the_tree_the_agent_had_when_the_call_arrived() {
        use std::sync::Arc;
        let seen = crate::seen::Seen::default();
        let arrivals = Arrivals::new(seen.clone(), crate::tools::takes_turn);
        let mut before = taria_schema::Tree::default();
        before.frame = 1;
        seen.saw(&Arc::new(before));
        arrivals.arrived(&call(7, "act"));
        let mut after = taria_schema::Tree::default();
        after.frame = 2;
        seen.saw(&Arc::new(after));
        let turn = arrivals.claim(&RequestId::Number(7));
        assert_eq!(turn.seen_at_arrival().map(|t| t.frame), Some(1));
        let unnumbered = arrivals.claim(&RequestId::Number(8));
        assert_eq!(unnumbered.seen_at_arrival().map(|t| t.frame), Some(2));
    }
}
