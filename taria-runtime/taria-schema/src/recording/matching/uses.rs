//! What the rules of a [`Match`] did over a run: [`Uses`] notes it, [`Unused`] says
//! which did nothing, [`RuleConflict`] is two label rules on one node.

use std::fmt;

use super::{Match, Rule, RuleKind};

/// Two label rules that apply to one node at one step: which label it is held to
/// would depend on the order they were given in, so neither is taken.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct RuleConflict {
    /// The step (0: the first tree).
    pub step: u64,
    /// The node's id.
    pub node: String,
    /// The two rules' places in [`Match::rules`].
    pub rules: [usize; 2],
    described: [String; 2],
}

impl RuleConflict {
    pub(super) fn new(step: u64, node: &str, rules: [(usize, &Rule); 2]) -> RuleConflict {
        RuleConflict {
            step,
            node: node.to_owned(),
            rules: rules.map(|(index, _)| index),
            described: rules.map(|(_, rule)| rule.to_string()),
        }
    }
}

impl fmt::Display for RuleConflict {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "two label rules apply to `{}` at step {}: {} and {}; a node is held to one \
             label rule: keep one, or narrow the other's id pattern",
            self.node, self.step, self.described[0], self.described[1]
        )
    }
}

impl std::error::Error for RuleConflict {}

/// A rule that did nothing over a run, and why.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Unused {
    /// The rule's place in [`Match::rules`].
    pub rule: usize,
    described: String,
    why: String,
}

impl Unused {
    /// Why it did nothing: `matched no node`, or which labels its pattern missed.
    #[must_use]
    pub fn reason(&self) -> &str {
        &self.why
    }
}

impl fmt::Display for Unused {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {}: it does nothing", self.described, self.why)
    }
}

/// What each rule of one [`Match`] did so far (a replay notes it to report the rules
/// that never matched).
#[doc(hidden)]
#[derive(Clone, Debug, Default)]
pub struct Uses {
    rules: Vec<Use>,
}

#[derive(Clone, Debug, Default)]
struct Use {
    /// Its id pattern matched a node.
    id: bool,
    /// Its label pattern fit a label.
    label: bool,
    /// A label it did not fit (the first).
    missed: Option<String>,
}

impl Uses {
    /// No rule of `rules` used yet.
    #[must_use]
    pub fn new(rules: &Match) -> Uses {
        Uses {
            rules: vec![Use::default(); rules.rules.len()],
        }
    }

    pub(super) fn matched_id(&mut self, rule: usize) {
        if let Some(used) = self.rules.get_mut(rule) {
            used.id = true;
        }
    }

    pub(super) fn matched_label(&mut self, rule: usize) {
        if let Some(used) = self.rules.get_mut(rule) {
            used.label = true;
        }
    }

    pub(super) fn missed_label(&mut self, rule: usize, label: Option<&str>) {
        if let Some(used) = self.rules.get_mut(rule)
            && used.missed.is_none()
        {
            used.missed = Some(label.unwrap_or("").to_owned());
        }
    }

    /// The rules of `rules` (the `Match` these uses were noted for) that did nothing.
    /// The rules of `rules` that matched nothing so far.
    #[must_use]
    pub fn unused(&self, rules: &Match) -> Vec<Unused> {
        rules
            .rules
            .iter()
            .zip(&self.rules)
            .enumerate()
            .filter_map(|(index, (rule, used))| {
                let why = match &rule.kind {
                    _ if !used.id => "matched no node".to_owned(),
                    RuleKind::Label(pattern) if !used.label => format!(
                        "matched nodes, but none of their labels fits {:?} (one was {:?})",
                        pattern.to_string(),
                        used.missed.as_deref().unwrap_or("")
                    ),
                    _ => return None,
                };
                Some(Unused {
                    rule: index,
                    described: rule.to_string(),
                    why,
                })
            })
            .collect()
    }
}
