//! One recorded input as the harness call that replays it (`h.act`, `h.set_value`,
//! `h.scroll`, `h.press`, `h.type_text`, …), with its arguments as Rust literals, a
//! redacted value as the `--secret` given for it, and its snapshot's name.

use taria::wire::protocol::{ActionData, Input, RejectReason};
use taria::wire::recording::{RecordedInput, Secrets};
use taria::{ScrollDirection, StateFlags, Tree, Value};

use super::escape::literal_str;
use super::slug;

/// A short name for a step's snapshot: `tasks-4-toggle`, `new-task-set-value`,
/// `press-enter`, `type-text`.
pub(super) fn step_name(recorded: &RecordedInput) -> String {
    let name = match &recorded.input.input {
        Input::Act(request) => format!("{} {}", request.target, request.action.as_str()),
        Input::Key { key } if !recorded.input.redacted => format!("press {key}"),
        Input::Key { .. } => "press".into(),
        _ => "type text".into(),
    };
    truncate(&slug(&name, '-'), 32)
}

fn truncate(text: &str, max: usize) -> String {
    let mut text: String = text.chars().take(max).collect();
    text.truncate(text.trim_end_matches('-').len());
    text
}

/// The harness call for one step: its head (`h.act`) and arguments, and for a
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
                    "h.set_value".into(),
                    vec![node, secret(Some(request.target.as_str()))],
                ),
                _ if redacted => (
                    "h.act_with".into(),
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
                    ("h.set_value".into(), vec![node, value_literal(value)])
                }
                Some(ActionData::Value { value }) => (
                    "h.act_with".into(),
                    vec![
                        node,
                        literal_str(action),
                        format!("taria::Value::from({})", value_literal(value)),
                    ],
                ),
                Some(ActionData::Scroll { direction, amount }) => (
                    "h.scroll".into(),
                    vec![
                        node,
                        format!("taria::ScrollDirection::{}", direction_name(*direction)),
                        amount.to_string(),
                    ],
                ),
                None => match seen_token(recorded, previous) {
                    Some(token) => (
                        "h.act_seen".into(),
                        vec![node, literal_str(action), literal_str(token)],
                    ),
                    None => ("h.act".into(), vec![node, literal_str(action)]),
                },
            }
        }
        Input::Key { key } => {
            let key = if redacted {
                secret(focused(previous).as_deref())
            } else {
                literal_str(key)
            };
            ("h.press".into(), vec![key])
        }
        Input::Text { text, raw } => {
            let text = if redacted {
                secret(focused(previous).as_deref())
            } else {
                literal_str(text)
            };
            let call = if *raw {
                "h.type_text_raw"
            } else {
                "h.type_text"
            };
            (call.into(), vec![text])
        }
        // `Input` is non-exhaustive, but a kind this build does not know does not
        // parse: a recording never gets here.
        _ => ("h.press".into(), vec![literal_str("")]),
    }
}

/// The recorded identity token of an act, when it decides the app's answer: the id
/// is not drawn in the tree before the step (a positional id scrolled away, refused
/// because of its token), or the app refused the act as stale. Elsewhere the node
/// drawn at the id is the one the agent meant, and a plain `h.act` does the same
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
    tree.find(&taria::Query::new().state(StateFlags::FOCUSED))
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
pub(super) fn variant(value: &(impl serde::Serialize + ?Sized)) -> String {
    taria::wire::protocol::wire_name(value)
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
