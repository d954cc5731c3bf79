//! The node filters `find_nodes` and `wait_for_change` share: role, label, value, id,
//! action, state flags, read into a [`Query`] with the same names and the same refusals.

use std::fmt::Write as _;

use taria_schema::{Action, Query, Role, StateFlags, Tree};

use crate::errors::ToolError;

/// The filters given, by name.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Filters<'a> {
    pub(crate) role: Option<&'a str>,
    pub(crate) label: Option<&'a str>,
    pub(crate) value: Option<&'a str>,
    pub(crate) id: Option<&'a str>,
    pub(crate) action: Option<&'a str>,
    pub(crate) state: &'a [String],
}

/// Custom names (a role or an action the core vocabulary lacks): refused unless a
/// node of the tree has them now, or taken as they are (a node that has them may
/// appear later).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Custom {
    /// Only those some node has now (`find_nodes`).
    Seen,
    /// Any (`wait_for_change`, waiting for a node that is not drawn yet).
    Any,
}

impl Filters<'_> {
    /// Whether any filter is given.
    pub(crate) fn any(&self) -> bool {
        self.role.is_some()
            || self.label.is_some()
            || self.value.is_some()
            || self.id.is_some()
            || self.action.is_some()
            || !self.state.is_empty()
    }

    /// The query they make, checked against `tree` for custom names as `custom` says;
    /// `invalid_arguments` naming the vocabulary for a name it lacks.
    pub(crate) fn query(&self, tree: &Tree, custom: Custom) -> Result<Query, ToolError> {
        let mut query = Query::new();
        if let Some(role) = self.role {
            query = match Role::from_name(role) {
                Some(core) => query.role(core),
                None if custom == Custom::Any
                    || tree.iter().any(|n| n.custom_role.as_deref() == Some(role)) =>
                {
                    query.custom_role(role.to_owned())
                }
                None => {
                    let names: Vec<&str> = Role::ALL.iter().map(|r| r.name()).collect();
                    return Err(ToolError::invalid(format!(
                        "unknown role `{role}`; roles are: {}",
                        names.join(", ")
                    )));
                }
            };
        }
        if let Some(action) = self.action {
            let known = Action::from_name(action).is_some()
                || custom == Custom::Any
                || tree.iter().any(|n| n.offers(action));
            if !known {
                let names: Vec<&str> = Action::ALL.iter().map(|a| a.name()).collect();
                return Err(ToolError::invalid(format!(
                    "unknown action `{action}`; actions are: {} (or a custom action a node offers)",
                    names.join(", ")
                )));
            }
            query = query.action(action.to_owned());
        }
        for name in self.state {
            let Some(flag) = StateFlags::from_name(name) else {
                let names: Vec<&str> = StateFlags::NAMED.iter().map(|(_, n)| *n).collect();
                return Err(ToolError::invalid(format!(
                    "unknown state `{name}`; states are: {}",
                    names.join(", ")
                )));
            };
            query = query.state(flag);
        }
        if let Some(label) = self.label {
            query = query.label(label.to_owned());
        }
        if let Some(value) = self.value {
            query = query.value(value.to_owned());
        }
        if let Some(id) = self.id {
            query = query.id(id.to_owned());
        }
        Ok(query)
    }

    /// The filters as the agent gave them, for a message: `role=row state=[selected]`
    /// (app-facing names as JSON strings where they are not plain words).
    pub(crate) fn describe(&self) -> String {
        let mut out = String::new();
        let named = [
            ("role", self.role),
            ("label", self.label),
            ("value", self.value),
            ("id", self.id),
            ("action", self.action),
        ];
        for (name, value) in named {
            if let Some(value) = value {
                let shown = clipped(value);
                let _ = write!(
                    out,
                    " {name}={}",
                    taria_schema::outline::OutlineName(&shown)
                );
            }
        }
        if !self.state.is_empty() {
            let state = super::reply::compact(&self.state);
            let _ = write!(out, " state={}", clipped(&state));
        }
        out.trim_start().to_owned()
    }
}

/// The most characters of one filter a message repeats: the agent wrote it, and a
/// long one (a 1 MiB label) must not make a message as long.
const FILTER_SHOWN_CHARS: usize = 80;

/// `value`, or its first [`FILTER_SHOWN_CHARS`] characters and `…`.
pub(crate) fn clipped(value: &str) -> std::borrow::Cow<'_, str> {
    match value.char_indices().nth(FILTER_SHOWN_CHARS) {
        None => value.into(),
        Some((end, _)) => format!("{}…", &value[..end]).into(),
    }
}

#[cfg(test)]
mod tests {
    use super::Filters;

    /// A filter is repeated in messages (a wait's timeout, `find_nodes`' note) at most
    /// 80 characters long: a 1 MiB label gives a short message.
    #[test]
    fn a_long_filter_is_described_clipped() {
        let label = "x".repeat(1 << 20);
        let filters = Filters {
            label: Some(&label),
            role: Some("button"),
            ..Filters::default()
        };
        let described = filters.describe();
        assert_eq!(described, format!("role=button label={}…", "x".repeat(80)));
    }
}
