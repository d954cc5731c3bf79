//! The one check of an action on a node (offered? enabled? value in domain?), which
//! the app runs against the frame it drew and a bridge against the tree it read, so
//! the two cannot disagree.

use std::borrow::Cow;

use super::protocol::RejectReason;
use crate::model::{
    Action, ActionName, DomainError, Node, OutlineName, OutlineQuoted, Role, ScrollInfo, Value,
    ValueSchema,
};

/// A node an action is checked against: a [`Node`] of a tree a consumer read, or the
/// app's own record of the node it drew.
pub trait ActionTarget {
    /// Whether the node offers `action` now.
    fn offers(&self, action: &ActionName) -> bool;
    /// Whether the node is disabled now.
    fn is_disabled(&self) -> bool;
    /// The domain of the node's value, when it offers `set_value`.
    fn value_schema(&self) -> Option<Cow<'_, ValueSchema>>;
    /// How far the node's content scrolls, if it scrolls (none by default).
    fn scroll(&self) -> Option<ScrollInfo> {
        None
    }
}

impl ActionTarget for Node {
    fn offers(&self, action: &ActionName) -> bool {
        self.actions.contains(action)
    }

    fn is_disabled(&self) -> bool {
        self.state.disabled
    }

    fn value_schema(&self) -> Option<Cow<'_, ValueSchema>> {
        self.value_schema.as_ref().map(Cow::Borrowed)
    }

    fn scroll(&self) -> Option<ScrollInfo> {
        self.scroll
    }
}

/// A borrowed node is checked as the node.
impl<T: ActionTarget + ?Sized> ActionTarget for &T {
    fn offers(&self, action: &ActionName) -> bool {
        (**self).offers(action)
    }

    fn is_disabled(&self) -> bool {
        (**self).is_disabled()
    }

    fn value_schema(&self) -> Option<Cow<'_, ValueSchema>> {
        (**self).value_schema()
    }

    fn scroll(&self) -> Option<ScrollInfo> {
        (**self).scroll()
    }
}

/// For an action on `id`, which is not in the tree: its nearest ancestor by id
/// (`people` for `people/19`), found with `find`, when that ancestor may hold the
/// action for its widget, which can find items it did not draw: it scrolls with some
/// of its content out of view, offers `scroll` and is not disabled. The app holds such
/// an action (and answers `unknown_node` if no widget takes it); a bridge sends it on
/// instead of answering that there is no such node: both decide with this, so they
/// cannot disagree.
pub fn scrolled_holder<T: ActionTarget>(
    id: &str,
    find: impl Fn(&str) -> Option<T>,
) -> Option<(&str, T)> {
    let mut rest = id;
    while let Some((parent, _)) = rest.rsplit_once('/') {
        if let Some(node) = find(parent) {
            let holds = node.scroll().is_some_and(|s| s.content > s.viewport)
                && node.offers(&ActionName::Core(Action::Scroll))
                && !node.is_disabled();
            return holds.then_some((parent, node));
        }
        rest = parent;
    }
    None
}

/// Why [`check_action`] refuses an action.
#[derive(Clone, Debug, PartialEq)]
// Not `non_exhaustive`: the app runtime (`taria`) matches every variant, so that a new
// one cannot go unhandled there; the schema and the runtime are released together.
pub enum Refusal {
    /// The node does not offer the action now.
    NotOffered,
    /// The node is disabled.
    Disabled,
    /// `set_value` without a value.
    MissingValue,
    /// The value does not fit the node's domain.
    OutOfDomain(DomainError),
}

impl Refusal {
    /// The reason an app's `ack` gives for it.
    #[must_use]
    pub fn reason(&self) -> RejectReason {
        match self {
            Refusal::NotOffered => RejectReason::ActionNotOffered,
            Refusal::Disabled => RejectReason::Disabled,
            Refusal::MissingValue | Refusal::OutOfDomain(_) => RejectReason::OutOfDomain,
        }
    }
}

/// Checks `action` with `value` on `target`: it is offered, the node is enabled, a
/// `set_value` has a value, and a value fits the node's domain (text that reads as a
/// number or boolean is taken as one when the domain wants it). Returns the value as
/// the app applies it.
///
/// # Examples
///
/// ```
/// use taria_schema::check::{Refusal, check_action};
/// use taria::{Action, Role};
///
/// let mut recorder = taria::widget::Recorder::new();
/// recorder.record(|| {
///     taria::leaf(|n| {
///         n.role(Role::Slider).id("volume").value(3.0).min(0.0).max(10.0).action(Action::SetValue);
///     });
/// });
/// let tree = recorder.tree();
/// let volume = tree.get("volume").unwrap();
/// let set = Action::SetValue.into();
/// assert_eq!(check_action(volume, &set, Some("5".into())), Ok(Some(5.0.into())));
/// assert!(matches!(check_action(volume, &set, Some(11.0.into())), Err(Refusal::OutOfDomain(_))));
/// assert_eq!(check_action(volume, &Action::Toggle.into(), None), Err(Refusal::NotOffered));
/// ```
pub fn check_action(
    target: &(impl ActionTarget + ?Sized),
    action: &ActionName,
    value: Option<Value>,
) -> Result<Option<Value>, Refusal> {
    if !target.offers(action) {
        return Err(Refusal::NotOffered);
    }
    if target.is_disabled() {
        return Err(Refusal::Disabled);
    }
    let Some(mut value) = value else {
        return match action {
            ActionName::Core(Action::SetValue) => Err(Refusal::MissingValue),
            _ => Ok(None),
        };
    };
    let Some(schema) = target.value_schema() else {
        return Ok(Some(value));
    };
    if let Value::Text(text) = &value {
        match *schema {
            ValueSchema::Number { .. } => {
                if let Ok(n) = text.trim().parse::<f64>() {
                    value = Value::Number(n);
                }
            }
            ValueSchema::Bool => {
                if let Ok(b) = text.trim().parse::<bool>() {
                    value = Value::Bool(b);
                }
            }
            _ => {}
        }
    }
    schema.check(&value).map_err(Refusal::OutOfDomain)?;
    Ok(Some(value))
}

/// A node drawn with focus, as [`check_typing`] sees it: of a [`Tree`](crate::model::Tree)
/// a consumer read, or of the frame the app drew.
#[derive(Clone, Copy, Debug)]
pub struct FocusedNode<'a> {
    /// Its core role (a custom role's base).
    pub role: Role,
    /// Its custom role, if any.
    pub custom_role: Option<&'a str>,
    /// Its id.
    pub id: &'a str,
    /// Its label, if any.
    pub label: Option<&'a str>,
}

impl<'a> From<&'a Node> for FocusedNode<'a> {
    fn from(node: &'a Node) -> FocusedNode<'a> {
        FocusedNode {
            role: node.role,
            custom_role: node.custom_role.as_deref(),
            id: node.id.as_str(),
            label: node.label.as_deref(),
        }
    }
}

/// Why [`check_typing`] refuses text: no focused node takes it. Its `Display` is the
/// sentence both the app and a bridge answer with.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TypingRefused {
    /// What has focus in words (`` `tasks` (list "Tasks") ``), `None`: nothing.
    focus: Option<String>,
}

impl std::fmt::Display for TypingRefused {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let focus = self.focus.as_deref().unwrap_or("nothing");
        write!(
            f,
            "no text input has focus ({focus} has it), so nothing was typed or pressed; focus a \
             text input first (act focus on it, or the app's key for it), or pass raw=true to \
             press the keys wherever the app sends them"
        )
    }
}

/// Whether text may be typed: some node in `focused` (the nodes drawn with focus, in
/// tree order) takes text: a text input, a text area (custom roles on either base
/// count) or an embedded terminal. Else the refusal names the innermost focused node,
/// or says nothing has focus. The app runs it on the frame it drew before typing a
/// `text` input that is not `raw`, a bridge on the tree it read, so they agree.
///
/// # Examples
///
/// ```
/// use taria_schema::check::{FocusedNode, check_typing};
/// use taria::Role;
///
/// let list = FocusedNode { role: Role::List, custom_role: None, id: "tasks", label: Some("Tasks") };
/// let refused = check_typing([list]).unwrap_err().to_string();
/// assert!(refused.starts_with("no text input has focus (`tasks` (list \"Tasks\") has it)"));
/// let field = FocusedNode { role: Role::TextInput, id: "name", ..list };
/// assert!(check_typing([list, field]).is_ok());
/// assert!(check_typing([]).unwrap_err().to_string().contains("(nothing has it)"));
/// ```
pub fn check_typing<'a>(
    focused: impl IntoIterator<Item = FocusedNode<'a>>,
) -> Result<(), TypingRefused> {
    let mut last = None;
    for node in focused {
        if matches!(node.role, Role::TextInput | Role::TextArea | Role::Terminal) {
            return Ok(());
        }
        last = Some(node);
    }
    Err(TypingRefused {
        focus: last.map(|node| {
            let mut role = node.role.name().to_owned();
            if let Some(custom) = node.custom_role {
                role = format!("{}, a {role}", OutlineName(custom));
            }
            match node.label {
                Some(label) => format!(
                    "`{}` ({role} {})",
                    OutlineName(node.id),
                    OutlineQuoted(label)
                ),
                None => format!("`{}` ({role})", OutlineName(node.id)),
            }
        }),
    })
}
