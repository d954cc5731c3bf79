//! What can be done to a node: the core action set, custom named actions, payloads.

use serde::{Deserialize, Deserializer, Serialize, Serializer};

use super::{NodeId, Value};

macro_rules! actions {
    ($($(#[doc = $doc:literal])+ $variant:ident = $name:literal,)+) => {
        /// A core action a node can offer.
        ///
        /// # Examples
        ///
        /// ```
        /// use taria::Action;
        ///
        /// assert_eq!(Action::from_name("set_value"), Some(Action::SetValue));
        /// assert_eq!(Action::SetValue.to_string(), "set_value");
        /// assert_eq!(Action::from_name("archive"), None, "a custom action's name");
        /// ```
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        #[repr(u8)]
        #[non_exhaustive]
        pub enum Action {
            $($(#[doc = $doc])+ $variant,)+
        }

        impl Action {
            /// Every core action, in declaration order.
            pub const ALL: &'static [Action] = &[$(Action::$variant,)+];

            /// The `snake_case` name used in attributes and on the wire.
            #[must_use]
            pub const fn name(self) -> &'static str {
                match self {
                    $(Action::$variant => $name,)+
                }
            }

            /// Looks a core action up by its `snake_case` name.
            #[must_use]
            pub fn from_name(name: &str) -> Option<Action> {
                match name {
                    $($name => Some(Action::$variant),)+
                    _ => None,
                }
            }
        }
    };
}

actions! {
    /// Press, open or run the node (Enter on a list item, a button press).
    Activate = "activate",
    /// Move the input focus to the node.
    Focus = "focus",
    /// Make the node the selected one among its siblings.
    Select = "select",
    /// Flip a two-state node (checkbox, switch).
    Toggle = "toggle",
    /// Show the node's children.
    Expand = "expand",
    /// Hide the node's children.
    Collapse = "collapse",
    /// Raise the value by one step.
    Increment = "increment",
    /// Lower the value by one step.
    Decrement = "decrement",
    /// Scroll the content; payload [`ActionData::Scroll`].
    Scroll = "scroll",
    /// Replace the value; payload [`ActionData::Value`].
    SetValue = "set_value",
    /// Close the node (a dialog, a notification).
    Dismiss = "dismiss",
    /// Copy the node's content.
    Copy = "copy",
    /// Submit the node (a form, a text input).
    Submit = "submit",
    /// Sort what the node heads by it (a table's column header: the app's own sort,
    /// its direction the app's, as a person's key or click on the header gives it).
    Sort = "sort",
}

impl Action {
    /// The bit of this action in an [`ActionSet`].
    #[must_use]
    pub const fn bit(self) -> u16 {
        1 << (self as u8)
    }
}

impl std::fmt::Display for Action {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// A set of core actions, one bit each.
///
/// # Examples
///
/// ```
/// use taria::Action;
/// use taria::node::ActionSet;
/// let set = ActionSet::EMPTY.with(Action::Toggle).with(Action::Focus);
/// assert!(set.contains(Action::Toggle));
/// assert_eq!(set.iter().collect::<Vec<_>>(), [Action::Focus, Action::Toggle]);
/// ```
#[derive(Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct ActionSet(u16);

impl ActionSet {
    /// No actions.
    pub const EMPTY: ActionSet = ActionSet(0);

    /// This set plus `action`.
    #[must_use]
    pub const fn with(self, action: Action) -> ActionSet {
        ActionSet(self.0 | action.bit())
    }

    /// This set without `action`.
    #[must_use]
    pub const fn without(self, action: Action) -> ActionSet {
        ActionSet(self.0 & !action.bit())
    }

    /// Whether `action` is in the set.
    #[must_use]
    pub const fn contains(self, action: Action) -> bool {
        self.0 & action.bit() != 0
    }

    /// Whether the set is empty.
    #[must_use]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The actions in declaration order.
    pub fn iter(self) -> impl Iterator<Item = Action> {
        Action::ALL
            .iter()
            .copied()
            .filter(move |a| self.contains(*a))
    }
}

impl std::fmt::Debug for ActionSet {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_set().entries(self.iter()).finish()
    }
}

/// An action as it appears in a tree: a core one, or a custom name the app defined.
///
/// On the wire both are plain strings; a name this build does not know as a core
/// action is read as a custom action, so a newer peer's actions degrade gracefully.
///
/// # Examples
///
/// ```
/// use taria::Action;
/// use taria::node::ActionName;
///
/// assert_eq!(ActionName::parse("toggle"), ActionName::Core(Action::Toggle));
/// let archive = ActionName::parse("archive");
/// assert_eq!((archive.core(), archive.as_str()), (None, "archive"));
/// assert_eq!(serde_json::from_str::<ActionName>(r#""set_value""#)?.core(), Some(Action::SetValue));
/// # Ok::<(), serde_json::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum ActionName {
    /// A core action.
    Core(Action),
    /// A custom action, e.g. `archive`.
    Custom(String),
}

impl ActionName {
    /// Parses a name: a core action if the name is one, else custom.
    #[must_use]
    pub fn parse(name: &str) -> ActionName {
        Action::from_name(name)
            .map_or_else(|| ActionName::Custom(name.to_owned()), ActionName::Core)
    }

    /// The core action, when it is one.
    #[must_use]
    pub fn core(&self) -> Option<Action> {
        match self {
            ActionName::Core(action) => Some(*action),
            ActionName::Custom(_) => None,
        }
    }

    /// The name as written on the wire.
    #[must_use]
    pub fn as_str(&self) -> &str {
        match self {
            ActionName::Core(action) => action.name(),
            ActionName::Custom(name) => name,
        }
    }
}

impl std::fmt::Display for ActionName {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Parses a name (see [`ActionName::parse`]).
impl From<&str> for ActionName {
    fn from(name: &str) -> Self {
        ActionName::parse(name)
    }
}

impl From<Action> for ActionName {
    fn from(action: Action) -> Self {
        ActionName::Core(action)
    }
}

impl Serialize for ActionName {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.as_str())
    }
}

impl<'de> Deserialize<'de> for ActionName {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let name = std::borrow::Cow::<'de, str>::deserialize(deserializer)?;
        Ok(ActionName::parse(&name))
    }
}

/// Which way to scroll.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ScrollDirection {
    /// Towards the start.
    Up,
    /// Towards the end.
    Down,
    /// Towards the left edge.
    Left,
    /// Towards the right edge.
    Right,
}

/// The typed payload of an action.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "kind")]
pub enum ActionData {
    /// The new value for [`Action::SetValue`].
    Value {
        /// The value.
        value: Value,
    },
    /// How far to go for [`Action::Scroll`].
    Scroll {
        /// The direction.
        direction: ScrollDirection,
        /// How many lines or columns.
        amount: u32,
    },
}

/// A request to perform an action on a node: what the wire's `act` input decodes
/// into, validated by the app and handed to its handlers and widgets, typed end to end.
///
/// On the wire its fields are flat (`node`, `action`, `value`, `direction`, `amount`,
/// `token`; docs/protocol.md); `data` is the scroll payload for [`Action::Scroll`] and
/// the value for any other action.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(from = "WireAct", into = "WireAct")]
pub struct ActionRequest {
    /// The node the action is for.
    pub target: NodeId,
    /// The action.
    pub action: ActionName,
    /// Its payload, if the action takes one.
    pub data: Option<ActionData>,
    /// The target's identity as the sender last saw it (see
    /// [`target_token`](crate::protocol::target_token)): the app refuses the action when
    /// the node at `target` changed since.
    pub token: Option<String>,
}

impl ActionRequest {
    /// A request for `action` on `target`, with no payload.
    ///
    /// # Examples
    ///
    /// ```
    /// use taria::Action;
    /// use taria_schema::protocol::ActionRequest;
    /// let request = ActionRequest::new("tasks/3", Action::Toggle);
    /// assert_eq!(request.target.as_str(), "tasks/3");
    /// ```
    #[must_use]
    pub fn new(target: impl Into<NodeId>, action: impl Into<ActionName>) -> ActionRequest {
        ActionRequest {
            target: target.into(),
            action: action.into(),
            data: None,
            token: None,
        }
    }

    /// The value it carries (`set_value`, or a custom action's payload).
    #[must_use]
    pub fn value(&self) -> Option<&Value> {
        match &self.data {
            Some(ActionData::Value { value }) => Some(value),
            _ => None,
        }
    }

    /// The scroll direction and amount, for [`Action::Scroll`] (without a payload:
    /// down by one).
    #[must_use]
    pub fn scroll(&self) -> Option<(ScrollDirection, u32)> {
        match self.data {
            Some(ActionData::Scroll { direction, amount }) => Some((direction, amount)),
            _ if self.action == ActionName::Core(Action::Scroll) => {
                Some((ScrollDirection::Down, 1))
            }
            _ => None,
        }
    }
}

/// An `act` input's fields as they are on the wire (see [`ActionRequest`]).
#[derive(Clone, Serialize, Deserialize)]
struct WireAct {
    node: NodeId,
    action: ActionName,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    value: Option<Value>,
    /// For `scroll`: `up`, `down`, `left` or `right` (default down).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    direction: Option<ScrollDirection>,
    /// For `scroll`: how far (default 1).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    amount: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    token: Option<String>,
}

impl From<WireAct> for ActionRequest {
    fn from(wire: WireAct) -> ActionRequest {
        let WireAct {
            node,
            action,
            value,
            direction,
            amount,
            token,
        } = wire;
        // A scroll carries its payload (defaults: down, 1); any other action its value.
        let data = match action {
            ActionName::Core(Action::Scroll) if direction.is_some() || amount.is_some() => {
                Some(ActionData::Scroll {
                    direction: direction.unwrap_or(ScrollDirection::Down),
                    amount: amount.unwrap_or(1),
                })
            }
            ActionName::Core(Action::Scroll) => None,
            _ => value.map(|value| ActionData::Value { value }),
        };
        ActionRequest {
            target: node,
            action,
            data,
            token,
        }
    }
}

impl From<ActionRequest> for WireAct {
    fn from(request: ActionRequest) -> WireAct {
        let ActionRequest {
            target,
            action,
            data,
            token,
        } = request;
        let (value, direction, amount) = match data {
            Some(ActionData::Value { value }) => (Some(value), None, None),
            Some(ActionData::Scroll { direction, amount }) => (None, Some(direction), Some(amount)),
            None => (None, None, None),
        };
        WireAct {
            node: target,
            action,
            value,
            direction,
            amount,
            token,
        }
    }
}
