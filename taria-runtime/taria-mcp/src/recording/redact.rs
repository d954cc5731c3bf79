//! A recorded input's line with its secrets left out: the value of a `set_value` on
//! a redacted node, and text or character keys typed while one has the focus (in
//! the tree before the input or after it). A `type_text` comes in segments split
//! where a key can move the focus ([`moves_focus`], tools/input/typing.rs), so each
//! is judged by where its own keys land.

use taria_schema::protocol::{ActionData, Input};
use taria_schema::recording::{RecordedInput, RecordedInputData, RecordedLine};
use taria_schema::{Node, Tree};

use super::book::PendingInput;

/// Whether the key typed for `c` can move the focus (tab, enter), as a character
/// typed into a field does not: `type_text` sends its text in segments split here.
pub(crate) fn moves_focus(c: char) -> bool {
    matches!(c, '\t' | '\n' | '\r')
}

/// An input's line, its secrets left out.
pub(super) fn input_line(pending: PendingInput, step: u64) -> RecordedLine {
    let PendingInput {
        call,
        tool,
        input,
        target,
        before,
        ack,
        acked,
        sent,
        after,
        screen,
        ..
    } = pending;
    let answered_in_us =
        acked.map(|at| u64::try_from(at.duration_since(sent).as_micros()).unwrap_or(u64::MAX));
    let trees = || {
        before
            .iter()
            .map(|t| &**t)
            .chain(after.iter().map(|(_, t)| &**t))
    };
    let (input, redacted) = match input {
        Input::Act(mut request)
            if matches!(request.data, Some(ActionData::Value { .. }))
                && trees().any(|tree| {
                    tree.get(request.target.as_str())
                        .is_some_and(|node| node.state.redacted)
                }) =>
        {
            request.data = None;
            (Input::Act(request), true)
        }
        Input::Text { text, raw }
            if !text.chars().all(moves_focus) && trees().any(secret_focused) =>
        {
            (
                Input::Text {
                    text: String::new(),
                    raw,
                },
                true,
            )
        }
        Input::Key { key } if types_a_character(&key) && trees().any(secret_focused) => {
            (Input::Key { key: String::new() }, true)
        }
        other => (other, false),
    };
    // The app's answer to a secret may quote it ("`1234` is outside 0..=255"): its
    // status and reason are kept (a replay compares those), its message is not.
    let ack = match ack {
        Some(mut ack) if redacted => {
            ack.message = None;
            Some(ack)
        }
        ack => ack,
    };
    let (revision, tree) = match after {
        Some((revision, tree)) => (Some(revision), Some(Tree::clone(&tree))),
        None => (None, None),
    };
    RecordedLine::Input(Box::new(RecordedInput {
        step,
        call,
        tool,
        input: RecordedInputData { input, redacted },
        target,
        ack,
        revision,
        tree,
        screen: screen.into_rows(),
        answered_in_us,
    }))
}

/// Leaves the secrets out of a refused call's `arguments` as [`input_line`] leaves
/// them out of an input: a `value` for a redacted node, `text` or a character `key`
/// while the focus holds one, in any of `trees` (and in each step of a batch);
/// whether it left one out.
pub(super) fn redact_arguments(
    arguments: &mut serde_json::Map<String, serde_json::Value>,
    trees: &[&Tree],
) -> bool {
    let mut redacted = false;
    if let Some(serde_json::Value::Array(steps)) = arguments.get_mut("steps") {
        for step in steps {
            if let serde_json::Value::Object(step) = step {
                redacted |= redact_arguments(step, trees);
            }
        }
    }
    let node = arguments
        .get("node")
        .and_then(serde_json::Value::as_str)
        .map(str::to_owned);
    let focused = trees.iter().any(|tree| secret_focused(tree));
    let secret_node = node.is_some_and(|node| {
        trees
            .iter()
            .any(|tree| tree.get(&node).is_some_and(|n| n.state.redacted))
    });
    let typed = |value: &serde_json::Value, of_key: bool| {
        value.as_str().is_some_and(|text| {
            if of_key {
                types_a_character(text)
            } else {
                !text.chars().all(moves_focus)
            }
        })
    };
    for (field, secret) in [("value", secret_node), ("text", focused), ("key", focused)] {
        if let Some(value) = arguments.get_mut(field)
            && secret
            && (field == "value" || typed(value, field == "key"))
        {
            *value = serde_json::Value::String(String::new());
            redacted = true;
        }
    }
    redacted
}

/// Whether the focus is on a redacted node (or on one holding a redacted node).
fn secret_focused(tree: &Tree) -> bool {
    fn holds_secret(node: &Node) -> bool {
        node.state.redacted || node.children.iter().any(holds_secret)
    }
    tree.focused().is_some_and(holds_secret)
}

/// Whether `key` types a character (no ctrl, alt or super), as into a text field.
fn types_a_character(key: &str) -> bool {
    use ratatui::crossterm::event::{KeyCode, KeyModifiers};
    key.parse::<taria_schema::protocol::KeyChord>()
        .is_ok_and(|chord| {
            matches!(chord.code, KeyCode::Char(_))
                && !chord
                    .modifiers
                    .intersects(KeyModifiers::CONTROL | KeyModifiers::ALT | KeyModifiers::SUPER)
        })
}

#[cfg(test)]
mod tests {
    use super::types_a_character;

    #[test]
    fn character_keys_are_the_ones_that_type() {
        for key in ["a", "A", "shift+a", "space", "?", "plus"] {
            assert!(types_a_character(key), "{key}");
        }
        for key in [
            "enter",
            "tab",
            "ctrl+a",
            "alt+x",
            "super+v",
            "f5",
            "backspace",
            "nope+",
        ] {
            assert!(!types_a_character(key), "{key}");
        }
    }
}
