//! `type_text`'s text sent a segment at a time. It is split where a key can move the
//! focus (tab, enter): runs of those keys and runs of the other characters. Each
//! segment goes once the app has drawn the one before, so the tree before it says
//! where its keys land, and the recording (record.rs) keeps out exactly the segments
//! typed into a secret. The app gets the same keys in the same order, with frames
//! drawn between segments; the agent gets one answer for the whole text.

use std::time::Instant;

use taria_schema::protocol::{AckStatus, Input};

use super::answer::ack_error;
use crate::errors::{Code, ToolError};
use crate::limits::{EFFECT_TIMEOUT, ack_bound};
use crate::link::{Ack, Inputs, Sent};
use crate::order::Turn;
use crate::recording::moves_focus;

/// `text` as runs of keys that can move the focus and runs of the others.
fn segments(text: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut start = 0;
    let mut kind = None;
    for (at, c) in text.char_indices() {
        let here = moves_focus(c);
        if kind.is_some_and(|k| k != here) {
            out.push(&text[start..at]);
            start = at;
        }
        kind = Some(here);
    }
    if start < text.len() {
        out.push(&text[start..]);
    }
    out
}

/// Types `text` in this call's turn, a segment at a time (each after the app drew
/// the tree showing the one before); the last segment's input and its ack. Each
/// segment has its own ack bound ([`ack_bound`] of its keys); the segments after
/// the first wait for room under the in-flight and rate limits as a repeated key's
/// presses do, and never go to another connection (an app restarted mid-text). A
/// segment not delivered, or not drawn within [`EFFECT_TIMEOUT`], ends the call with
/// an error saying how much was typed.
pub(crate) async fn type_text(
    inputs: &Inputs,
    text: &str,
    raw: bool,
    turn: &mut Turn,
) -> Result<(Sent, Ack), ToolError> {
    let parts = segments(text);
    let total = text.chars().count();
    let mut typed = 0;
    let mut first: Option<Sent> = None;
    for (i, part) in parts.iter().enumerate() {
        let input = Input::Text {
            text: (*part).to_owned(),
            raw,
        };
        let last = i + 1 == parts.len();
        let partly = |error: ToolError| partial(error, typed, total);
        // An app reads typed keys one frame at a time: the bound grows with the keys.
        let bound = ack_bound(part.chars().count());
        let deadline = Instant::now() + bound;
        let sent = match &first {
            None if last => turn.send_last(inputs, input).await,
            None => turn.send(inputs, input).await,
            Some(first) => turn.send_paced(inputs, input, first, deadline).await,
        };
        let mut sent = sent.map_err(partly)?;
        if last {
            // Every segment is sent: the next call may send while the ack comes.
            turn.done_sending();
        }
        let ack = inputs
            .ack_by(&mut sent, deadline, bound)
            .await
            .map_err(partly)?;
        if last {
            return Ok((sent, ack));
        }
        if ack.status != Ok(AckStatus::Delivered) {
            return Err(partly(ack_error(&ack, None)));
        }
        typed += part.chars().count();
        if inputs.effect(&sent).await.is_none() {
            let why = if inputs.link().is_connected() {
                format!(
                    "the app drew no frame after them within {} s, and where the rest goes \
                     depends on where they moved the focus; wait_for_change, then type the rest",
                    EFFECT_TIMEOUT.as_secs()
                )
            } else {
                "the app's connection ended after them; read_tree to see where it stands".into()
            };
            return Err(partial(ToolError::new(Code::Timeout, why), typed, total));
        }
        first.get_or_insert(sent);
    }
    Err(ToolError::invalid("the text is empty; nothing to type"))
}

/// `error` for a text of which the first `typed` of `total` characters were typed.
fn partial(error: ToolError, typed: usize, total: usize) -> ToolError {
    if typed == 0 {
        return error;
    }
    let message = format!(
        "the first {typed} of {total} characters were typed, the rest not: {}",
        error.message
    );
    let mut partial = ToolError::new(error.code, message);
    partial.extra = error.extra;
    partial.with("typed", typed)
}

#[cfg(test)]
mod tests {
    use super::segments;

    #[test]
    fn text_is_split_where_a_key_can_move_the_focus() {
        assert_eq!(
            segments("ada\thunter2\t\tok\r\n"),
            ["ada", "\t", "hunter2", "\t\t", "ok", "\r\n"]
        );
        assert_eq!(segments("plain"), ["plain"]);
        assert_eq!(segments("\n"), ["\n"]);
        assert_eq!(segments("é\tü"), ["é", "\t", "ü"]);
    }
}
