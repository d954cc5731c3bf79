//! `press_key`: presses a key chord, `repeat` times in one turn.
//!
//! `repeat` goes to 64 while at most 32 inputs may await an ack (`limits::MAX_IN_FLIGHT`):
//! a press past that waits for room (and for the rate limit) within the call's deadline
//! instead of being refused mid-burst. Refusing `repeat` over 32 up front was the other
//! choice; it would have broken the documented 64 for no safety gain, since a waiting
//! press keeps the bound the app is protected by. Only the first press of a burst is
//! refused `busy`, when other calls already fill the bound.

use std::str::FromStr as _;
use std::time::Instant;

use schemars::JsonSchema;
use serde::Deserialize;
use taria_schema::protocol::{AckStatus, Input, KEY_GRAMMAR, KeyChord};

use super::input::answer::{ack_error, settle};
use super::input::result::InputResult;
use crate::errors::{Code, ToolError};
use crate::limits::ack_bound;
use crate::link::{Ack, Inputs};
use crate::order::Turn;
use crate::seen::Seen;

/// The most times `press_key` repeats a key.
pub(crate) const MAX_REPEAT: u32 = 64;

/// `press_key` arguments.
#[derive(Debug, Deserialize, JsonSchema)]
pub(crate) struct PressKeyArgs {
    /// e.g. enter, ctrl+s, shift+tab, f5, a.
    pub(crate) key: String,
    /// Default 1, max 64.
    #[serde(default, deserialize_with = "super::args::optional")]
    pub(crate) repeat: Option<u32>,
}

impl PressKeyArgs {
    /// How many presses, once the key is known to be one.
    pub(crate) fn check(&self) -> Result<u32, ToolError> {
        if let Err(e) = KeyChord::from_str(&self.key) {
            return Err(ToolError::invalid(format!("{e}; {KEY_GRAMMAR}")));
        }
        let repeat = self.repeat.unwrap_or(1);
        if !(1..=MAX_REPEAT).contains(&repeat) {
            return Err(ToolError::invalid(format!(
                "repeat must be 1 to {MAX_REPEAT}, not {repeat}"
            )));
        }
        Ok(repeat)
    }
}

/// `press_key`: with `repeat`, the presses are sent one after another in one turn (no
/// other call's input between them) without waiting for their acks, except that a
/// press waits for room when the inputs awaiting an ack are at their bound
/// (`limits::MAX_IN_FLIGHT`, below `MAX_REPEAT`) or the rate limit is reached; each
/// ack is counted. One deadline, `ack_bound(repeat)`, covers the whole call. Any
/// press not delivered makes the call fail, saying how many were.
pub(crate) async fn press_key(
    inputs: &Inputs,
    seen: &Seen,
    args: PressKeyArgs,
    turn: &mut Turn,
) -> Result<InputResult, ToolError> {
    let repeat = args.check()?;
    // The call's clock starts once the calls before it have sent.
    turn.wait().await;
    let before = inputs.link().view().await?.tree;
    let bound = ack_bound(repeat as usize);
    let deadline = Instant::now() + bound;
    let mut sent = Vec::new();
    let mut send_failure = None;
    for _ in 0..repeat {
        let key = Input::Key {
            key: args.key.clone(),
        };
        // The first press is refused like any input when there is no room; the
        // others wait for it, so a burst is never cut short by its own presses.
        let result = match sent.first() {
            _ if repeat == 1 => turn.send_last(inputs, key).await,
            None => turn.send(inputs, key).await,
            Some(first) => turn.send_paced(inputs, key, first, deadline).await,
        };
        match result {
            Ok(s) => sent.push(s),
            Err(e) if sent.is_empty() => return Err(e),
            Err(e) => {
                send_failure = Some(e);
                break;
            }
        }
    }
    // Every press is queued or sent: the next call may send while the acks come.
    turn.done_sending();
    let mut delivered = 0;
    let mut first_failure: Option<ToolError> = None;
    for s in &mut sent {
        match inputs.ack_by(s, deadline, bound).await {
            Ok(ack) if ack.status == Ok(AckStatus::Delivered) => {
                delivered += 1;
            }
            Ok(ack) => {
                first_failure.get_or_insert_with(|| ack_error(&ack, None));
            }
            Err(e) => {
                first_failure.get_or_insert(e);
            }
        }
    }
    match first_failure.or(send_failure) {
        None => {
            let last = sent
                .last()
                .ok_or_else(|| ToolError::new(Code::AppExited, "no key was sent"))?;
            let mut result = settle(
                inputs,
                seen,
                (&before, last),
                Ack {
                    status: Ok(AckStatus::Delivered),
                    reason: None,
                    unknown_reason: None,
                    message: None,
                },
                None,
            )
            .await?;
            if repeat > 1 {
                result.delivered = Some(delivered);
            }
            Ok(result)
        }
        Some(failure) => {
            if repeat == 1 {
                return Err(failure);
            }
            Err(partial_failure(&args.key, delivered, repeat, failure)
                .with("revision", inputs.link().mirror().revision()))
        }
    }
}

/// The error for a repeated key some presses of which were not delivered: the first
/// failure's code and fields, and how many presses were.
fn partial_failure(key: &str, delivered: u32, repeat: u32, failure: ToolError) -> ToolError {
    let message = format!(
        "{delivered} of {repeat} presses of `{key}` were delivered; the others were not: {}",
        failure.message
    );
    let mut error = ToolError::new(failure.code, message);
    error.extra = failure.extra;
    error.with("delivered", delivered).with("repeat", repeat)
}

/// The `press_key` tool.
pub(crate) struct PressKey;

impl super::Tool for PressKey {
    const NAME: &'static str = "press_key";
    const DESCRIPTION: &'static str = "Presses a key chord.";
    const KIND: super::Kind = super::Kind::Input(taria_schema::recording::InputTool::PressKey);
    type Args = PressKeyArgs;
    type Result = InputResult;

    async fn run(mut cx: super::Cx<'_>, args: PressKeyArgs) -> Result<InputResult, ToolError> {
        press_key(cx.inputs, cx.seen, args, cx.turn()?).await
    }
}
