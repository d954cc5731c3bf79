//! `type_text`'s text sent a segment at a time. It is split where a key can move the
//! focus (tab, enter): runs of those keys and runs of the other characters. Each
//! segment goes once the app has drawn the one before, so the tree before it says
//! where its keys land, and the recording (record.rs) keeps out exactly the segments
//! typed into a secret. The app gets the same keys in the same order, with frames
//! drawn between segments; the agent gets one answer for the whole text.

use std::time::{Duration, Instant};

use taria::wire::{AckStatus, Input};

use super::ack_error;
use crate::errors::{Code, ToolError};
use crate::link::{Ack, EFFECT_TIMEOUT, Link, Sent};
use crate::order::Turn;

/// Whether the key typed for `c` can move the focus (tab, enter), as a character
/// typed into a field does not.
pub(crate) fn moves_focus(c: char) -> bool {
    matches!(c, '\t' | '\n' | '\r')
}

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
/// the tree showing the one before); the last segment's input and its ack. A
/// segment not delivered, or not drawn within [`EFFECT_TIMEOUT`], ends the call with
/// an error saying how much was typed. `deadline` and `bound` cover every ack.
pub(super) async fn type_text(
    link: &Link,
    text: &str,
    turn: &mut Turn,
    deadline: Instant,
    bound: Duration,
) -> Result<(Sent, Ack), ToolError> {
    let parts = segments(text);
    let total = text.chars().count();
    let mut typed = 0;
    for (i, part) in parts.iter().enumerate() {
        let input = Input::Text {
            text: (*part).to_owned(),
        };
        let partly = |error: ToolError| partial(error, typed, total);
        if i + 1 == parts.len() {
            let mut sent = turn.send_last(link, input).await.map_err(partly)?;
            let ack = link
                .ack_by(&mut sent, deadline, bound)
                .await
                .map_err(partly)?;
            return Ok((sent, ack));
        }
        let mut sent = turn.send(link, input).await.map_err(partly)?;
        let ack = link
            .ack_by(&mut sent, deadline, bound)
            .await
            .map_err(partly)?;
        if ack.status != Ok(AckStatus::Delivered) {
            return Err(partly(ack_error(&ack, None)));
        }
        typed += part.chars().count();
        if link.effect(&sent).await.is_none() {
            let why = if link.last_revision().1 {
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
