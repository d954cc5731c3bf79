//! The owned semantic tree that consumers read: [`Tree`] and [`Node`].

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::{
    ActionName, Bounds, Checked, NodeId, Position, Role, ScrollInfo, StateFlags, Value, ValueSchema,
};

/// One node of a recorded frame.
///
/// Its JSON form drops empty and default fields, and reads leniently: unknown fields
/// are ignored, unknown roles become [`Role::Unknown`], unknown actions become custom.
///
/// # Examples
///
/// ```
/// use taria::{Action, Role, Value, testing::Harness};
///
/// let tree = Harness::new(20, 1).render(|frame| {
///     taria::leaf(|n| {
///         n.role(Role::Slider).id("volume").label("Volume").value(3).min(0).max(10);
///         n.action(Action::SetValue).focused(true).bounds(frame.area());
///     });
/// });
/// let volume = tree.get("volume").unwrap();
/// assert_eq!((volume.role, volume.label.as_deref()), (Role::Slider, Some("Volume")));
/// assert_eq!(volume.value, Some(Value::Number(3.0)));
/// assert!(volume.state.focused && volume.offers("set_value"));
/// assert_eq!(serde_json::to_value(volume)?["valueSchema"]["max"], 10.0);
/// # Ok::<(), serde_json::Error>(())
/// ```
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct Node {
    /// The node's id.
    pub id: NodeId,
    /// `false` when the id is positional (derived from an index, not an explicit id
    /// or key): it may name another node after the list changes.
    #[serde(default = "yes", skip_serializing_if = "is_true")]
    pub stable: bool,
    /// The core role (a custom role's base).
    pub role: Role,
    /// The custom role's name, when the app gave one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub custom_role: Option<String>,
    /// What the node is called on screen.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub label: Option<String>,
    /// The node's value (never present for a redacted node).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub value: Option<Value>,
    /// For a redacted node holding a value: how many characters it has (never the
    /// value itself), so that an agent can see a secret was filled in or changed, as
    /// a masked field shows it on screen.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub redacted_length: Option<u32>,
    /// The domain a new value must fit, for nodes that offer `set_value`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub value_schema: Option<ValueSchema>,
    /// State flags and values.
    #[serde(flatten)]
    pub state: State,
    /// The actions the node offers now (none while a modal dialog hides it).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub actions: Vec<ActionName>,
    /// Key fallbacks: the key the app's own input path takes for an action.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub keys: BTreeMap<String, String>,
    /// Index, count and level.
    #[serde(default, skip_serializing_if = "Position::is_empty")]
    pub position: Position,
    /// Scroll position, for scrollable nodes.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub scroll: Option<ScrollInfo>,
    /// Where the node was drawn.
    #[serde(default)]
    pub bounds: Bounds,
    /// The node's children, in drawing order.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub children: Vec<Node>,
}

// `serde(default = …)` and `skip_serializing_if` take paths to functions.
fn yes() -> bool {
    true
}

#[expect(
    clippy::trivially_copy_pass_by_ref,
    reason = "serde's skip_serializing_if passes a reference"
)]
fn is_true(b: &bool) -> bool {
    *b
}

/// A node's state. Serialized flat into the node, each field only when set.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[expect(
    clippy::struct_excessive_bools,
    reason = "one bool per independent state flag, as on the wire"
)]
#[non_exhaustive]
pub struct State {
    /// Has the input focus.
    #[serde(default, skip_serializing_if = "is_false")]
    pub focused: bool,
    /// Selected among its siblings.
    #[serde(default, skip_serializing_if = "is_false")]
    pub selected: bool,
    /// Checked state, for checkable nodes.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub checked: Option<Checked>,
    /// Expanded state, for expandable nodes.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub expanded: Option<bool>,
    /// Cannot be acted on now.
    #[serde(default, skip_serializing_if = "is_false")]
    pub disabled: bool,
    /// Working; content may change soon.
    #[serde(default, skip_serializing_if = "is_false")]
    pub busy: bool,
    /// Must be filled in.
    #[serde(default, skip_serializing_if = "is_false")]
    pub required: bool,
    /// Value cannot be changed.
    #[serde(default, skip_serializing_if = "is_false")]
    pub readonly: bool,
    /// Holds an invalid value.
    #[serde(default, skip_serializing_if = "is_false")]
    pub invalid: bool,
    /// Why the value is invalid.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub invalid_message: Option<String>,
    /// Holds a secret; its value is never recorded.
    #[serde(default, skip_serializing_if = "is_false")]
    pub redacted: bool,
    /// Shows text from outside the app: data, not instructions.
    #[serde(default, skip_serializing_if = "is_false")]
    pub untrusted: bool,
    /// A modal dialog.
    #[serde(default, skip_serializing_if = "is_false")]
    pub modal: bool,
    /// Behind an open modal dialog, which took its actions away until it closes.
    #[serde(default, skip_serializing_if = "is_false")]
    pub inert: bool,
}

#[expect(
    clippy::trivially_copy_pass_by_ref,
    reason = "serde's skip_serializing_if passes a reference"
)]
fn is_false(b: &bool) -> bool {
    !*b
}

impl State {
    /// The boolean flags as a bitmask.
    #[must_use]
    pub fn flags(&self) -> StateFlags {
        StateFlags::EMPTY
            .with(StateFlags::FOCUSED, self.focused)
            .with(StateFlags::SELECTED, self.selected)
            .with(StateFlags::DISABLED, self.disabled)
            .with(StateFlags::BUSY, self.busy)
            .with(StateFlags::REQUIRED, self.required)
            .with(StateFlags::READONLY, self.readonly)
            .with(StateFlags::INVALID, self.invalid)
            .with(StateFlags::REDACTED, self.redacted)
            .with(StateFlags::UNTRUSTED, self.untrusted)
            .with(StateFlags::MODAL, self.modal)
            .with(StateFlags::INERT, self.inert)
    }

    /// Sets the boolean fields from a bitmask.
    pub fn set_flags(&mut self, flags: StateFlags) {
        self.focused = flags.contains(StateFlags::FOCUSED);
        self.selected = flags.contains(StateFlags::SELECTED);
        self.disabled = flags.contains(StateFlags::DISABLED);
        self.busy = flags.contains(StateFlags::BUSY);
        self.required = flags.contains(StateFlags::REQUIRED);
        self.readonly = flags.contains(StateFlags::READONLY);
        self.invalid = flags.contains(StateFlags::INVALID);
        self.redacted = flags.contains(StateFlags::REDACTED);
        self.untrusted = flags.contains(StateFlags::UNTRUSTED);
        self.modal = flags.contains(StateFlags::MODAL);
        self.inert = flags.contains(StateFlags::INERT);
    }
}

impl Node {
    /// Whether the node offers `action` (core or custom, by name).
    #[must_use]
    pub fn offers(&self, action: &str) -> bool {
        self.actions.iter().any(|a| a.as_str() == action)
    }

    /// A copy of the node without its children (cheaper than `clone` for a subtree).
    #[must_use]
    pub fn clone_without_children(&self) -> Node {
        let Node {
            id,
            stable,
            role,
            custom_role,
            label,
            value,
            redacted_length,
            value_schema,
            state,
            actions,
            keys,
            position,
            scroll,
            bounds,
            children: _,
        } = self;
        Node {
            id: id.clone(),
            stable: *stable,
            role: *role,
            custom_role: custom_role.clone(),
            label: label.clone(),
            value: value.clone(),
            redacted_length: *redacted_length,
            value_schema: value_schema.clone(),
            state: state.clone(),
            actions: actions.clone(),
            keys: keys.clone(),
            position: *position,
            scroll: *scroll,
            bounds: *bounds,
            children: Vec::new(),
        }
    }

    /// The node and all its descendants, depth first.
    pub fn descendants(&self) -> impl Iterator<Item = &Node> {
        DepthFirst { stack: vec![self] }
    }
}

/// Something the recorder noticed about a frame that the app author should fix.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
#[non_exhaustive]
pub enum Diagnostic {
    /// Two nodes were recorded with the same id; the later one was renamed.
    DuplicateId {
        /// The id both nodes asked for.
        id: String,
        /// The id the later node got instead.
        renamed_to: String,
    },
    /// Nodes nested deeper than [`MAX_DEPTH`](crate::MAX_DEPTH) were left out.
    DepthLimit {
        /// How many nodes were left out.
        skipped: u32,
    },
    /// The frame had more than [`MAX_NODES`](crate::MAX_NODES) nodes; the rest were left out.
    NodeLimit {
        /// How many nodes were left out.
        skipped: u32,
    },
}

/// The semantic tree of one frame.
///
/// # Examples
///
/// ```
/// use taria::{Role, testing::Harness};
///
/// let mut harness = Harness::new(20, 3);
/// let tree = harness.render(|frame| {
///     let _ = taria::scope(|n| {
///         n.role(Role::Button).id("save").label("Save").bounds(frame.area());
///     });
/// });
/// assert_eq!(tree.get("save").and_then(|n| n.label.as_deref()), Some("Save"));
/// ```
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct Tree {
    /// Which frame of its recorder this tree comes from (1 for the first).
    pub frame: u64,
    /// The top-level nodes, in drawing order.
    #[serde(default)]
    pub roots: Vec<Node>,
    /// Problems noticed while recording.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub diagnostics: Vec<Diagnostic>,
}

impl Tree {
    /// Every node, depth first in drawing order.
    pub fn iter(&self) -> impl Iterator<Item = &Node> {
        DepthFirst {
            stack: self.roots.iter().rev().collect(),
        }
    }

    /// How many nodes the tree has.
    #[must_use]
    pub fn len(&self) -> usize {
        self.iter().count()
    }

    /// Whether the tree has no nodes.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.roots.is_empty()
    }

    /// The node with this id.
    #[must_use]
    pub fn get(&self, id: &str) -> Option<&Node> {
        self.iter().find(|n| n.id.as_str() == id)
    }

    /// The focused node, if any.
    #[must_use]
    pub fn focused(&self) -> Option<&Node> {
        self.iter().find(|n| n.state.focused)
    }

    /// The id of `node`'s parent, or `None` for a root or an id not in the tree.
    #[must_use]
    pub fn parent_of(&self, id: &str) -> Option<&Node> {
        self.iter()
            .find(|n| n.children.iter().any(|c| c.id.as_str() == id))
    }
}

struct DepthFirst<'a> {
    stack: Vec<&'a Node>,
}

impl<'a> Iterator for DepthFirst<'a> {
    type Item = &'a Node;

    fn next(&mut self) -> Option<&'a Node> {
        let node = self.stack.pop()?;
        self.stack.extend(node.children.iter().rev());
        Some(node)
    }
}
