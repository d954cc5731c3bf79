//! One recorded input as the step that replays it: `h.step(N, &rules)`, what the
//! step meant (`.seen(role, label)`) and what the app answered (`.refused(…)`), then
//! the harness call (`.act`, `.set_value`, `.scroll`, `.press`, `.type_text`, …) with
//! its arguments as Rust literals, a redacted value as the `--secret` given for it;
//! and its snapshot's name.

use std::fmt::Write as _;

use taria_schema::protocol::{ActionData, Input, KeyChord, RejectReason};
use taria_schema::recording::{RecordedInput, Secrets};
use taria_schema::{ScrollDirection, StateFlags, Tree, Value};

use super::escape::literal_str;
use super::slug;

/// A short name for a step's snapshot: `tasks-4-toggle`, `new-task-set-value`,
/// `press-enter`, `press-plus`, `type-ship-v0`; `press` and `type-text` for a secret.
pub(crate) fn step_name(recorded: &RecordedInput) -> String {
    let name = match &recorded.input.input {
        Input::Act(request) => format!("{} {}", request.target, request.action.as_str()),
        Input::Key { key } if !recorded.input.redacted => format!("press {}", key_words(key)),
        Input::Key { .. } => "press".into(),
        Input::Text { text, .. } if !recorded.input.redacted && !slug(text, '-').is_empty() => {
            format!("type {}", key_words(text))
        }
        Input::Text { .. } => "type text".into(),
    };
    truncate(&slug(&name, '-'), 32)
}

/// A key chord (or typed text) with each character a name would drop spelled out:
/// `ctrl+plus` stays, `+` is `plus`, `/` `slash`, `é` `u00e9`.
fn key_words(key: &str) -> String {
    let chord = key
        .parse::<KeyChord>()
        .map_or_else(|_| key.to_owned(), |chord| chord.to_string());
    let mut out = String::new();
    for c in chord.chars() {
        match c {
            c if c.is_ascii_alphanumeric() || c == ' ' => out.push(c),
            // A chord's own separator.
            '+' if chord.len() > 1 => out.push(' '),
            c => {
                let _ = write!(out, " {} ", char_name(c));
            }
        }
    }
    out
}

/// A character's name in a snapshot's name.
fn char_name(c: char) -> String {
    const NAMES: &[(char, &str)] = &[
        ('!', "bang"),
        ('"', "quote"),
        ('#', "hash"),
        ('$', "dollar"),
        ('%', "percent"),
        ('&', "ampersand"),
        ('\'', "apostrophe"),
        ('(', "left-paren"),
        (')', "right-paren"),
        ('*', "star"),
        ('+', "plus"),
        (',', "comma"),
        ('-', "minus"),
        ('.', "dot"),
        ('/', "slash"),
        (':', "colon"),
        (';', "semicolon"),
        ('<', "less"),
        ('=', "equals"),
        ('>', "greater"),
        ('?', "question"),
        ('@', "at"),
        ('[', "left-bracket"),
        ('\\', "backslash"),
        (']', "right-bracket"),
        ('^', "caret"),
        ('_', "underscore"),
        ('`', "backtick"),
        ('{', "left-brace"),
        ('|', "pipe"),
        ('}', "right-brace"),
        ('~', "tilde"),
    ];
    NAMES.iter().find(|(named, _)| *named == c).map_or_else(
        || format!("u{:04x}", u32::from(c)),
        |(_, name)| (*name).to_owned(),
    )
}

fn truncate(text: &str, max: usize) -> String {
    let mut text: String = text.chars().take(max).collect();
    text.truncate(text.trim_end_matches('-').len());
    text
}

/// What a step's chain names beyond `taria::testing` (each a `use` in the test).
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Uses {
    pub(crate) role: bool,
    pub(crate) ack_status: bool,
    pub(crate) reject_reason: bool,
}

/// The calls between `h.step(N, &rules)` and the harness call: what the step was
/// aimed at (`.seen(Role::ListItem, "Buy milk")`, or `.refind(…)` with `refind`),
/// unless the app refused it as stale (then the agent had aimed at another node than
/// the app drew), and the recorded answer when it was not `delivered`.
pub(super) fn modifiers(
    recorded: &RecordedInput,
    refind: bool,
    uses: &mut Uses,
) -> Vec<(&'static str, Vec<String>)> {
    let mut calls = Vec::new();
    let ack = recorded.ack.as_ref();
    let stale = ack.is_some_and(|ack| ack.reason == Some(RejectReason::StaleTarget));
    if let Some(target) = recorded.target.as_ref().filter(|_| !stale) {
        uses.role = true;
        let role = format!("Role::{}", variant(&target.role));
        let label = literal_str(target.label.as_deref().unwrap_or(""));
        calls.push((if refind { "refind" } else { "seen" }, vec![role, label]));
    }
    match ack {
        None => calls.push(("any_answer", Vec::new())),
        Some(ack) if ack.status == taria_schema::protocol::AckStatus::Delivered => {}
        Some(ack) => {
            uses.ack_status = true;
            let status = format!("AckStatus::{}", variant(&ack.status));
            let reason = match ack.reason {
                Some(reason) => {
                    uses.reject_reason = true;
                    format!("RejectReason::{}", variant(&reason))
                }
                None => "None".into(),
            };
            calls.push(("refused", vec![status, reason]));
            if let Some(message) = &ack.message {
                calls.push(("saying", vec![literal_str(message)]));
            }
        }
    }
    calls
}

/// The harness call for one step: its method (`act`) and arguments, and for a
/// redacted input whose `--secret` was not given, the `compile_error!` message that
/// says so (the call then gets `""`). A node's `--secret`s are taken in order, the
/// last one again when there are more inputs ([`Secrets`]).
pub(super) fn step_call(
    recorded: &RecordedInput,
    previous: &Tree,
    secrets: &mut Secrets<String>,
) -> (String, Vec<String>, Option<String>) {
    let redacted = recorded.input.redacted;
    let missing = std::cell::RefCell::new(None);
    let secrets = std::cell::RefCell::new(secrets);
    let secret = |node: Option<&str>| -> String {
        if let Some(expr) = node.and_then(|node| secrets.borrow_mut().take(node).cloned()) {
            return expr;
        }
        let node = node.unwrap_or("the focused node");
        *missing.borrow_mut() = Some(format!(
            "step {}: the value for `{node}` was redacted in the recording: regenerate with \
             --secret {node}=EXPR",
            recorded.step
        ));
        literal_str("")
    };
    let (head, args) = step_call_parts(recorded, previous, redacted, &secret);
    (head, args, missing.into_inner())
}

fn step_call_parts(
    recorded: &RecordedInput,
    previous: &Tree,
    redacted: bool,
    secret: &dyn Fn(Option<&str>) -> String,
) -> (String, Vec<String>) {
    match &recorded.input.input {
        Input::Act(request) => {
            let node = literal_str(request.target.as_str());
            let action = request.action.as_str();
            match &request.data {
                _ if redacted && action == "set_value" => (
                    "set_value".into(),
                    vec![node, secret(Some(request.target.as_str()))],
                ),
                _ if redacted => (
                    "act_with".into(),
                    vec![
                        node,
                        literal_str(action),
                        format!(
                            "taria::Value::from({})",
                            secret(Some(request.target.as_str()))
                        ),
                    ],
                ),
                Some(ActionData::Value { value }) if action == "set_value" => {
                    ("set_value".into(), vec![node, value_literal(value)])
                }
                Some(ActionData::Value { value }) => (
                    "act_with".into(),
                    vec![
                        node,
                        literal_str(action),
                        format!("taria::Value::from({})", value_literal(value)),
                    ],
                ),
                Some(ActionData::Scroll { direction, amount }) => (
                    "scroll".into(),
                    vec![
                        node,
                        format!("taria::ScrollDirection::{}", direction_name(*direction)),
                        amount.to_string(),
                    ],
                ),
                None => match seen_token(recorded, previous) {
                    Some(token) => (
                        "act_seen".into(),
                        vec![node, literal_str(action), literal_str(token)],
                    ),
                    None => ("act".into(), vec![node, literal_str(action)]),
                },
            }
        }
        Input::Key { key } => {
            let key = if redacted {
                secret(focused(previous).as_deref())
            } else {
                literal_str(key)
            };
            ("press".into(), vec![key])
        }
        Input::Text { text, raw } => {
            let text = if redacted {
                secret(focused(previous).as_deref())
            } else {
                literal_str(text)
            };
            let call = if *raw { "type_text_raw" } else { "type_text" };
            (call.into(), vec![text])
        }
    }
}

/// The recorded identity token of an act, when it decides the app's answer: the id
/// is not drawn in the tree before the step (a positional id scrolled away, refused
/// because of its token), or the app refused the act as stale. Elsewhere the node
/// drawn at the id is the one the agent meant, and a plain `act` does the same
/// without tying the test to the node's label.
fn seen_token<'r>(recorded: &'r RecordedInput, previous: &Tree) -> Option<&'r str> {
    let Input::Act(request) = &recorded.input.input else {
        return None;
    };
    let token = request.token.as_deref()?;
    let stale = recorded
        .ack
        .as_ref()
        .is_some_and(|ack| ack.reason == Some(RejectReason::StaleTarget));
    (stale || previous.get(request.target.as_str()).is_none()).then_some(token)
}

fn focused(tree: &Tree) -> Option<String> {
    tree.find(&taria_schema::Query::new().state(StateFlags::FOCUSED))
        .map(|n| n.id.to_string())
}

fn direction_name(direction: ScrollDirection) -> &'static str {
    match direction {
        ScrollDirection::Up => "Up",
        ScrollDirection::Down => "Down",
        ScrollDirection::Left => "Left",
        ScrollDirection::Right => "Right",
    }
}

/// A wire enum's Rust variant: `unknown_node` → `UnknownNode`.
fn variant(value: &(impl serde::Serialize + ?Sized)) -> String {
    taria_schema::protocol::wire_name(value)
        .split('_')
        .map(|part| {
            let mut chars = part.chars();
            chars.next().map_or_else(String::new, |c| {
                c.to_ascii_uppercase().to_string() + chars.as_str()
            })
        })
        .collect()
}

/// A Rust literal that converts into `value` (`"text"`, `5`, `2.5`, `true`).
fn value_literal(value: &Value) -> String {
    match value {
        Value::Text(text) => literal_str(text),
        Value::Bool(b) => b.to_string(),
        Value::Number(n) if n.fract() == 0.0 && n.abs() <= f64::from(i32::MAX) => {
            format!("{n:.0}")
        }
        Value::Number(n) => format!("{n:?}"),
    }
}
