//! The bridge's check of an input before it is sent: the node at a positional id is
//! the one the agent saw, offers the action, is enabled, and the value fits its domain.

use std::fmt::Write as _;
use std::sync::Arc;

use serde_json::Value as Json;
use taria_schema::ActionName;
use taria_schema::check::{FocusedNode, Refusal, check_action, check_typing};
use taria_schema::outline::OutlineName;
use taria_schema::protocol::target_token;
use taria_schema::{Node, Tree, Value};

use crate::errors::{Code, ToolError};

/// For a positional id: the token of the node the agent saw at that id, or
/// `stale_reference` when another node is there now.
pub(crate) fn position(seen: Option<&Arc<Tree>>, node: &Node) -> Result<Option<String>, ToolError> {
    if node.stable {
        return Ok(None);
    }
    let now = target_token(node);
    let Some(old) = seen.and_then(|t| t.get(node.id.as_str())) else {
        return Ok(Some(now));
    };
    if target_token(old) == now {
        return Ok(Some(now));
    }
    Err(ToolError::new(
        Code::StaleReference,
        format!(
            "`{}` is a positional id and the node there changed since you read it (it was {}, now {}); nothing was sent. Find the node you meant again (find_nodes by label) and retry with its current id",
            OutlineName(node.id.as_str()),
            old.outline_line(),
            node.outline_line()
        ),
    ))
}

/// Checks `action` (with `value`, if given) on `node` as the agent last saw it, with
/// the same [`check_action`] the app runs on the frame it drew; returns the value to
/// send. Refusals are worded for the agent.
pub(crate) fn precheck(
    node: &Node,
    action: &ActionName,
    value: Option<&Json>,
) -> Result<Option<Value>, ToolError> {
    let parsed = match value.map(|v| serde_json::from_value::<Value>(v.clone())) {
        None => None,
        Some(Ok(value)) => Some(value),
        Some(Err(_)) => {
            // Whether the node takes the action at all is said first.
            match check_action(node, action, None) {
                Ok(_) | Err(Refusal::MissingValue) => {}
                Err(refusal) => return Err(refused(node, action, refusal)),
            }
            let value = value.unwrap_or(&Json::Null);
            return Err(ToolError::new(
                Code::OutOfDomain,
                format!(
                    "a value is text, a number or a boolean, not {value}{}",
                    domain_hint(node)
                ),
            ));
        }
    };
    check_action(node, action, parsed).map_err(|refusal| refused(node, action, refusal))
}

/// The agent's error for a refusal: what the node offers, its keys, its domain.
fn refused(node: &Node, action: &ActionName, refusal: Refusal) -> ToolError {
    let id = OutlineName(node.id.as_str());
    match refusal {
        Refusal::NotOffered => {
            let offered: Vec<&str> = node.actions.iter().map(ActionName::as_str).collect();
            // App strings (the id, custom action names, keys) as the outline writes them.
            let mut message = format!("`{id}` does not offer `{action}`");
            if offered.is_empty() {
                message.push_str("; it offers no actions now");
            } else {
                let names: Vec<String> =
                    offered.iter().map(|a| OutlineName(a).to_string()).collect();
                let _ = write!(message, "; it offers: {}", names.join(", "));
            }
            if !node.keys.is_empty() {
                let keys: Vec<String> = node
                    .keys
                    .iter()
                    .map(|(a, k)| format!("{} = {}", OutlineName(a), OutlineName(k)))
                    .collect();
                let _ = write!(message, " (keys: {})", keys.join(", "));
            }
            message.push_str(". Otherwise press_key or type_text reach the app's own key handling");
            ToolError::new(Code::ActionUnsupported, message).with(
                "offered",
                offered.into_iter().map(str::to_owned).collect::<Vec<_>>(),
            )
        }
        Refusal::Disabled => ToolError::new(
            Code::Disabled,
            format!("`{id}` is disabled now; change what it depends on first, or wait_for_change"),
        ),
        Refusal::MissingValue => ToolError::new(
            Code::OutOfDomain,
            format!("set_value needs a `value`{}", domain_hint(node)),
        ),
        Refusal::OutOfDomain(e) => ToolError::new(
            Code::OutOfDomain,
            format!("`{id}`: {e}{}", domain_hint(node)),
        ),
    }
}

/// Refuses text to type (not raw) when no node of `tree` drawn with focus takes it,
/// in the words the app uses ([`check_typing`]).
pub(crate) fn typing(tree: &Tree) -> Result<(), ToolError> {
    let focused = tree
        .iter()
        .filter(|node| node.state.focused)
        .map(FocusedNode::from);
    check_typing(focused)
        .map_err(|refused| ToolError::new(Code::ActionUnsupported, refused.to_string()))
}

fn domain_hint(node: &Node) -> String {
    node.value_schema
        .as_ref()
        .and_then(|s| serde_json::to_string(s).ok())
        .map(|s| format!(" (its valueSchema: {s})"))
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use ratatui::Frame;
    use serde_json::json;
    use taria::testing::AppHarness;
    use taria::{Action, Actions, Invocation, Outcome, Role};
    use taria_schema::protocol::{AckStatus, RejectReason};

    use super::*;

    /// An app whose handlers take every action, so whatever validation lets
    /// through is delivered.
    struct TakesAll;

    impl Actions for TakesAll {
        fn handle_action(&mut self, _: &Invocation<'_>) -> Outcome {
            Outcome::Handled
        }
    }

    fn draw(frame: &mut Frame<'_>, _: &mut TakesAll) {
        let area = frame.area();
        taria::leaf(|n| {
            n.role(Role::Checkbox)
                .id("check")
                .checked(true)
                .actions([Action::Toggle, Action::SetValue])
                .bounds(area);
        });
        taria::leaf(|n| {
            n.role(Role::Slider)
                .id("slider")
                .value(3.0)
                .min(0.0)
                .max(10.0)
                .step(1.0)
                .actions([Action::SetValue, Action::Increment])
                .bounds(area);
        });
        taria::leaf(|n| {
            n.role(Role::TextInput)
                .id("name")
                .value("ada")
                .max_len(5)
                .action(Action::SetValue)
                .bounds(area);
        });
        taria::leaf(|n| {
            n.role(Role::Select)
                .id("mode")
                .value("a")
                .options(["a", "b"])
                .action(Action::SetValue)
                .bounds(area);
        });
        taria::leaf(|n| {
            n.role(Role::Button)
                .id("off")
                .disabled(true)
                .action(Action::Activate)
                .bounds(area);
        });
        taria::leaf(|n| {
            n.role(Role::Button)
                .id("tag")
                .custom_action("archive")
                .bounds(area);
        });
    }

    /// What a check decided, in words both sides share.
    #[derive(Debug, PartialEq, Eq)]
    enum Verdict {
        Accepted,
        NotOffered,
        Disabled,
        OutOfDomain,
    }

    fn bridge(
        tree: &taria_schema::Tree,
        node: &str,
        action: &str,
        value: Option<&Json>,
    ) -> Verdict {
        let node = tree.get(node).expect("the node is drawn");
        match precheck(node, &ActionName::parse(action), value) {
            Ok(_) => Verdict::Accepted,
            Err(e) => match e.code {
                Code::ActionUnsupported => Verdict::NotOffered,
                Code::Disabled => Verdict::Disabled,
                Code::OutOfDomain => Verdict::OutOfDomain,
                other => panic!("the bridge answered {other:?}: {}", e.message),
            },
        }
    }

    fn app(
        harness: &mut AppHarness<TakesAll>,
        node: &str,
        action: &str,
        value: Option<&Json>,
    ) -> Verdict {
        let result = match value {
            Some(value) => {
                let value: Value = serde_json::from_value(value.clone()).expect("a value");
                harness.act_with(node, action, value)
            }
            None => harness.act(node, action),
        };
        match result {
            Ok(()) => Verdict::Accepted,
            Err(e) => match (e.status, e.reason) {
                (AckStatus::Rejected, RejectReason::ActionNotOffered) => Verdict::NotOffered,
                (AckStatus::Rejected, RejectReason::Disabled) => Verdict::Disabled,
                (AckStatus::Rejected, RejectReason::OutOfDomain) => Verdict::OutOfDomain,
                _ => panic!("the app answered {e:?}"),
            },
        }
    }

    /// The bridge's pre-check and the app's validation decide every case alike:
    /// one table through both.
    #[test]
    fn the_bridge_and_the_app_validate_an_action_alike() {
        use Verdict::{Accepted, Disabled, NotOffered, OutOfDomain};
        let cases: &[(&str, &str, Option<Json>, Verdict)] = &[
            ("check", "toggle", None, Accepted),
            ("check", "toggle", Some(json!("maybe")), OutOfDomain),
            ("check", "set_value", Some(json!(false)), Accepted),
            ("check", "set_value", Some(json!("false")), Accepted),
            ("check", "set_value", None, OutOfDomain),
            ("check", "activate", None, NotOffered),
            ("slider", "set_value", Some(json!(4)), Accepted),
            ("slider", "set_value", Some(json!("5")), Accepted),
            ("slider", "set_value", Some(json!(11)), OutOfDomain),
            ("slider", "set_value", Some(json!(2.5)), OutOfDomain),
            ("slider", "set_value", Some(json!(true)), OutOfDomain),
            ("slider", "increment", None, Accepted),
            ("name", "set_value", Some(json!("grace")), Accepted),
            ("name", "set_value", Some(json!("hopper!")), OutOfDomain),
            ("mode", "set_value", Some(json!("b")), Accepted),
            ("mode", "set_value", Some(json!("c")), OutOfDomain),
            ("off", "activate", None, Disabled),
            ("off", "toggle", None, NotOffered),
            ("tag", "archive", None, Accepted),
            ("tag", "archive", Some(json!("x")), Accepted),
            ("tag", "toggle", None, NotOffered),
        ];
        let mut harness = AppHarness::new(TakesAll, 20, 4, draw);
        let tree = harness.tree();
        let mut disagree = Vec::new();
        for (node, action, value, expected) in cases {
            let by_bridge = bridge(&tree, node, action, value.as_ref());
            let by_app = app(&mut harness, node, action, value.as_ref());
            if by_bridge != *expected || by_app != *expected {
                disagree.push(format!(
                    "{node} {action} {value:?}: expected {expected:?}, bridge {by_bridge:?}, app {by_app:?}"
                ));
            }
        }
        assert!(disagree.is_empty(), "{}", disagree.join("\n"));
    }

    /// Text with no text input focused: the bridge's pre-check refuses it in the
    /// app's words, and a focused text input lets both through.
    #[test]
    fn the_bridge_and_the_app_refuse_typing_in_the_same_words() {
        for focus in [None, Some(Role::Button), Some(Role::TextArea)] {
            let draw = move |frame: &mut Frame<'_>, _: &mut TakesAll| {
                taria::leaf(|n| {
                    let role = focus.unwrap_or(Role::Button);
                    n.role(role)
                        .id("here")
                        .label("Here")
                        .focused(focus.is_some())
                        .bounds(frame.area());
                });
            };
            let mut harness = AppHarness::new(TakesAll, 20, 2, draw).on_event(|_, _| {});
            let by_bridge = typing(&harness.tree()).map_err(|e| e.message);
            let by_app = harness.type_text("x").map_err(|e| e.message);
            assert_eq!(by_bridge, by_app, "focus {focus:?}");
            assert_eq!(by_app.is_ok(), focus == Some(Role::TextArea), "{by_app:?}");
        }
    }
}
