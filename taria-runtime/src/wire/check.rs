//! The one check of an action on a node (offered? enabled? value in domain?), which
//! the app runs against the frame it drew and a bridge against the tree it read, so
//! the two cannot disagree.

use std::borrow::Cow;

use super::RejectReason;
use crate::{Action, ActionName, DomainError, Node, Value, ValueSchema};

/// A node an action is checked against: a [`Node`] of a tree a consumer read, or the
/// app's own record of the node it drew.
pub trait ActionTarget {
    /// Whether the node offers `action` now.
    fn offers(&self, action: &ActionName) -> bool;
    /// Whether the node is disabled now.
    fn is_disabled(&self) -> bool;
    /// The domain of the node's value, when it offers `set_value`.
    fn value_schema(&self) -> Option<Cow<'_, ValueSchema>>;
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
}

/// Why [`check_action`] refuses an action.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
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
/// ```
/// use taria::wire::{Refusal, check_action};
/// use taria::{Action, Role};
///
/// let mut recorder = taria::Recorder::new();
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
