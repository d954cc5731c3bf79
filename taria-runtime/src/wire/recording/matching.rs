//! [`Match`]: which parts of a tree a replay or a snapshot compares.

use crate::model::{Bounds, Node, Tree};

/// Which parts of a tree must match when a replay compares the tree the app draws
/// now with the recorded one (and when a generated test compares it with its
/// snapshot).
///
/// A tree is compared through its [`outline`](Tree::outline) after projecting it:
/// ids, roles, labels, values, states (selected, checked, focused, invalid and its
/// message, …), positions, scroll offsets and the actions offered always count;
/// bounds and the frame count never do (they are not in the outline), so a re-theme,
/// or a relayout that shows the same nodes, passes and a behaviour change fails. Two
/// rules loosen it, each keyed by a node id pattern (`*` matches any run of
/// characters, `/` included; nothing else is special):
///
/// * [`exclude`](Match::exclude): volatile nodes (a clock, a spinner) and their
///   descendants are left out of both trees;
/// * [`label`](Match::label): a label that matches a pattern (e.g. `"Updated *"`)
///   counts as that pattern, so it may change within it.
///
/// ```
/// use taria::testing::Match;
///
/// let tree = |clock: &str, folder: &str| -> taria::Tree {
///     let json = serde_json::json!({"frame": 1, "roots": [
///         {"id": "clock", "role": "status", "label": clock},
///         {"id": "folder", "role": "status", "label": folder},
///     ]});
///     serde_json::from_value(json).unwrap()
/// };
/// let rules = Match::new().exclude("clock").label("folder", "tmp-*");
/// assert_eq!(
///     rules.outline(&tree("12:00", "tmp-1")),
///     rules.outline(&tree("12:01", "tmp-2"))
/// );
/// assert_eq!(rules.outline(&tree("12:00", "tmp-1")), "- status \"tmp-*\" [id=folder]\n");
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Match {
    excluded: Vec<String>,
    labels: Vec<(String, String)>,
}

impl Match {
    /// Everything the outline shows must match, labels exactly.
    #[must_use]
    pub fn new() -> Match {
        Match::default()
    }

    /// Leaves out the nodes whose id matches `id_pattern` (and what is under them).
    #[must_use]
    pub fn exclude(mut self, id_pattern: impl Into<String>) -> Match {
        self.excluded.push(id_pattern.into());
        self
    }

    /// The label of a node whose id matches `id_pattern` passes when it matches
    /// `label_pattern` (`"*"`: any label, or none). The first rule whose id pattern
    /// matches a node is the one applied to it.
    #[must_use]
    pub fn label(
        mut self,
        id_pattern: impl Into<String>,
        label_pattern: impl Into<String>,
    ) -> Match {
        self.labels.push((id_pattern.into(), label_pattern.into()));
        self
    }

    /// The id patterns given to [`exclude`](Match::exclude), in order.
    #[must_use]
    pub fn excluded(&self) -> &[String] {
        &self.excluded
    }

    /// The `(id pattern, label pattern)` rules given to [`label`](Match::label).
    #[must_use]
    pub fn labels(&self) -> &[(String, String)] {
        &self.labels
    }

    /// `tree` as these rules see it: excluded nodes removed, each label that matches
    /// its node's pattern replaced by the pattern, bounds cleared.
    #[must_use]
    pub fn project(&self, tree: &Tree) -> Tree {
        Tree {
            frame: 0,
            roots: self.nodes(&tree.roots),
            diagnostics: Vec::new(),
        }
    }

    /// The outline of [`project`](Match::project)ed `tree`: what is compared.
    #[must_use]
    pub fn outline(&self, tree: &Tree) -> String {
        self.project(tree).outline()
    }

    fn nodes(&self, nodes: &[Node]) -> Vec<Node> {
        nodes
            .iter()
            .filter(|node| !self.excluded.iter().any(|p| glob(p, node.id.as_str())))
            .map(|node| self.node(node))
            .collect()
    }

    fn node(&self, node: &Node) -> Node {
        let mut out = Node {
            children: Vec::new(),
            ..node.clone()
        };
        out.bounds = Bounds::default();
        if let Some((_, pattern)) = self
            .labels
            .iter()
            .find(|(id, _)| glob(id, node.id.as_str()))
            && (pattern == "*" || node.label.as_deref().is_some_and(|l| glob(pattern, l)))
        {
            out.label = Some(pattern.clone());
        }
        out.children = self.nodes(&node.children);
        out
    }
}

/// Whether `text` matches `pattern`, where `*` matches any run of characters.
pub(crate) fn glob(pattern: &str, text: &str) -> bool {
    let mut parts = pattern.split('*');
    let first = parts.next().unwrap_or("");
    let Some(mut rest) = text.strip_prefix(first) else {
        return false;
    };
    let middle: Vec<&str> = parts.collect();
    let Some((last, middle)) = middle.split_last() else {
        // No `*`: the whole text.
        return rest.is_empty();
    };
    for part in middle {
        match rest.find(part) {
            Some(at) => rest = &rest[at + part.len()..],
            None => return false,
        }
    }
    rest.len() >= last.len() && rest.ends_with(last)
}

#[cfg(test)]
mod tests {
    use super::glob;

    #[test]
    fn a_star_matches_any_run_of_characters() {
        assert!(glob("clock", "clock"));
        assert!(!glob("clock", "clocks"));
        assert!(glob("tasks/*", "tasks/12"));
        assert!(glob("*", ""));
        assert!(glob("*/time", "header/clock/time"));
        assert!(glob("a*b*c", "aXbYc"));
        assert!(!glob("a*b*c", "aXcYb"));
        assert!(!glob("ab*ba", "aba"));
        assert!(glob("ab*ba", "abba"));
        assert!(glob("Updated *s ago", "Updated 3s ago"));
        assert!(!glob("x*", "y"));
    }
}
