//! Finding nodes by meaning: role, id, label, value, state, action.

use super::{Node, Role, StateFlags, Tree};

/// A filter over nodes; every criterion set must match.
///
/// # Examples
///
/// ```
/// use taria::{Query, Role, StateFlags, testing::Harness};
///
/// let tree = Harness::new(20, 2).render(|_| {
///     for (key, title, selected) in [(1, "Buy milk", false), (2, "Walk dog", true)] {
///         taria::leaf(|n| {
///             n.role(Role::ListItem).key(key).label(title).selected(selected);
///         });
///     }
/// });
/// let selected_items = Query::new().role(Role::ListItem).state(StateFlags::SELECTED);
/// assert_eq!(tree.find(&selected_items).unwrap().label.as_deref(), Some("Walk dog"));
/// assert_eq!(tree.find_all(&Query::new().label("buy")).len(), 1, "labels match in any case");
/// ```
#[derive(Clone, Debug, Default, PartialEq)]
#[must_use]
pub struct Query {
    role: Option<Role>,
    custom_role: Option<String>,
    id: Option<String>,
    label: Option<String>,
    value: Option<String>,
    state: StateFlags,
    action: Option<String>,
}

impl Query {
    /// A query that matches every node.
    pub fn new() -> Query {
        Query::default()
    }

    /// Nodes with this core role (a custom role matches its base).
    pub fn role(mut self, role: Role) -> Query {
        self.role = Some(role);
        self
    }

    /// Nodes with this custom role name.
    pub fn custom_role(mut self, name: impl Into<String>) -> Query {
        self.custom_role = Some(name.into());
        self
    }

    /// The node with exactly this id.
    pub fn id(mut self, id: impl Into<String>) -> Query {
        self.id = Some(id.into());
        self
    }

    /// Nodes whose label contains `text` (case-insensitive).
    pub fn label(mut self, text: impl Into<String>) -> Query {
        self.label = Some(text.into().to_lowercase());
        self
    }

    /// Nodes whose value, as text (`true`, `42`, the text itself), contains `text`
    /// (case-insensitive).
    pub fn value(mut self, text: impl Into<String>) -> Query {
        self.value = Some(text.into().to_lowercase());
        self
    }

    /// Nodes that have every flag in `flags`.
    pub fn state(mut self, flags: StateFlags) -> Query {
        self.state = StateFlags::EMPTY.with(self.state, true).with(flags, true);
        self
    }

    /// Nodes that offer this action (core or custom, by name).
    pub fn action(mut self, name: impl Into<String>) -> Query {
        self.action = Some(name.into());
        self
    }

    /// Whether `node` matches.
    #[must_use]
    pub fn matches(&self, node: &Node) -> bool {
        self.role.is_none_or(|r| node.role == r)
            && self
                .custom_role
                .as_deref()
                .is_none_or(|c| node.custom_role.as_deref() == Some(c))
            && self.id.as_deref().is_none_or(|id| node.id.as_str() == id)
            && self.label.as_deref().is_none_or(|l| {
                node.label
                    .as_deref()
                    .is_some_and(|nl| nl.to_lowercase().contains(l))
            })
            && self.value.as_deref().is_none_or(|v| {
                node.value
                    .as_ref()
                    .is_some_and(|nv| nv.to_string().to_lowercase().contains(v))
            })
            && node.state.flags().contains(self.state)
            && self.action.as_deref().is_none_or(|a| node.offers(a))
    }
}

impl Tree {
    /// The first node (depth first) that matches.
    #[must_use]
    pub fn find(&self, query: &Query) -> Option<&Node> {
        self.iter().find(|n| query.matches(n))
    }

    /// Every node that matches, depth first.
    #[must_use]
    pub fn find_all(&self, query: &Query) -> Vec<&Node> {
        self.iter().filter(|n| query.matches(n)).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::Query;
    use crate::model::{Node, Role, Value};

    fn node(role: Role, value: Option<Value>) -> Node {
        Node {
            role,
            value,
            ..Node::default()
        }
    }

    #[test]
    fn a_value_matches_by_its_text_in_any_case() {
        let log = node(Role::Log, Some("00:01:03 ERROR disk full".into()));
        let seats = node(Role::Slider, Some(Value::from(42)));
        let label_only = node(Role::Status, None);
        assert!(Query::new().value("error").matches(&log));
        assert!(!Query::new().value("warn").matches(&log));
        assert!(Query::new().value("42").matches(&seats));
        assert!(!Query::new().value("4").matches(&label_only));
        assert!(Query::new().matches(&label_only));
    }
}
