//! The audit's report: the violations, and what it reached and could not; as text for
//! people and agents ([`Display`](std::fmt::Display)) and as JSON for CI
//! ([`AuditReport::to_json`]).

use std::collections::BTreeSet;
use std::fmt::Write as _;

use serde_json::{Value as Json, json};

use crate::{Check, Violation};

/// What an audit found and covered.
#[derive(Clone, Debug, Default)]
#[non_exhaustive]
pub struct AuditReport {
    /// Everything found untrue, by check.
    pub violations: Vec<Violation>,
    /// Each action tried, in the order tried, with its answer.
    pub tried: Vec<Tried>,
    /// Each `(node, action)` offered but not tried, and why.
    pub untried: Vec<Untried>,
    /// Every node id seen in a frame the audit checked.
    pub nodes: BTreeSet<String>,
    /// The ids that changed with no input (an animation, a clock): left out of the
    /// checks that compare text with the screen or frames with each other.
    pub moving: Vec<String>,
    /// Inputs performed (repeats, and the inputs that bring a fresh app back to a
    /// state, included).
    pub inputs: usize,
    /// Fresh starts after the first.
    pub restarts: usize,
    /// How long it took.
    pub seconds: f64,
}

/// An offered action the audit tried, and how it was answered.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Tried {
    /// The node.
    pub node: String,
    /// The action.
    pub action: String,
    /// The inputs from a fresh start before it (`act …` each).
    pub after: Vec<String>,
    /// The answer, in short: `delivered`, `delivered (nothing changed)`, `ignored: …`,
    /// `refused <code>: …` or `the app exited: …`.
    pub answer: String,
}

/// An offered action the audit did not try, and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Untried {
    /// The node.
    pub node: String,
    /// The action.
    pub action: String,
    /// Why not.
    pub why: String,
}

/// The coverage part of a report, for a summary line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Coverage {
    /// Actions tried.
    pub tried: usize,
    /// Actions offered in all (tried or not).
    pub offered: usize,
    /// Nodes seen.
    pub nodes: usize,
}

impl AuditReport {
    /// Whether nothing untrue was found.
    #[must_use]
    pub fn is_clean(&self) -> bool {
        self.violations.is_empty()
    }

    /// How much of the app the audit reached.
    #[must_use]
    pub fn coverage(&self) -> Coverage {
        Coverage {
            tried: self.tried.len(),
            offered: self.tried.len() + self.untried.len(),
            nodes: self.nodes.len(),
        }
    }

    /// How many violations each check has, for the checks with any.
    #[must_use]
    pub fn counts(&self) -> Vec<(Check, usize)> {
        Check::ALL
            .iter()
            .map(|&check| {
                let n = self.violations.iter().filter(|v| v.check == check).count();
                (check, n)
            })
            .filter(|(_, n)| *n > 0)
            .collect()
    }

    /// The report as JSON: `clean`, `violations` (`check`, `node`, `path`,
    /// `message`), `coverage` (`tried`, `offered`, `nodes`, `untried`), `tried` (each
    /// action tried: `node`, `action`, `after`, `answer`), `moving`, `inputs`,
    /// `restarts`, `seconds`.
    #[must_use]
    pub fn to_json(&self) -> Json {
        let coverage = self.coverage();
        json!({
            "clean": self.is_clean(),
            "violations": self.violations.iter().map(|v| json!({
                "check": v.check.name(),
                "node": v.node,
                "path": v.path,
                "message": v.message,
            })).collect::<Vec<_>>(),
            "coverage": {
                "tried": coverage.tried,
                "offered": coverage.offered,
                "nodes": coverage.nodes,
                "untried": self.untried.iter().map(|u| json!({
                    "node": u.node, "action": u.action, "why": u.why,
                })).collect::<Vec<_>>(),
            },
            "tried": self.tried.iter().map(|t| json!({
                "node": t.node, "action": t.action, "after": t.after, "answer": t.answer,
            })).collect::<Vec<_>>(),
            "moving": self.moving,
            "inputs": self.inputs,
            "restarts": self.restarts,
            "seconds": (self.seconds * 10.0).round() / 10.0,
        })
    }
}

impl std::fmt::Display for AuditReport {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let coverage = self.coverage();
        let verdict = match self.violations.len() {
            0 => "no violations".to_owned(),
            1 => "1 violation".to_owned(),
            n => format!("{n} violations"),
        };
        writeln!(
            f,
            "{verdict}; tried {} of {} offered actions on {} nodes ({} inputs, {} restarts, \
             {:.1} s)",
            coverage.tried,
            coverage.offered,
            coverage.nodes,
            self.inputs,
            self.restarts,
            self.seconds
        )?;
        for violation in &self.violations {
            let mut line = format!("  {}", violation.check);
            if let Some(node) = &violation.node {
                let _ = write!(line, " `{node}`");
            }
            if !violation.path.is_empty() {
                let _ = write!(line, " (after {})", violation.path.join(", then "));
            }
            writeln!(f, "{line}: {}", violation.message)?;
        }
        if !self.moving.is_empty() {
            let shown: Vec<&str> = self.moving.iter().take(8).map(String::as_str).collect();
            let more = self.moving.len().saturating_sub(shown.len());
            let more = if more > 0 {
                format!(" and {more} more")
            } else {
                String::new()
            };
            writeln!(
                f,
                "changes with no input (judged only in part): {}{more}",
                shown.join(", ")
            )?;
        }
        if !self.untried.is_empty() {
            writeln!(f, "not tried:")?;
            for untried in self.untried.iter().take(20) {
                writeln!(
                    f,
                    "  `{}` {}: {}",
                    untried.node, untried.action, untried.why
                )?;
            }
            if self.untried.len() > 20 {
                writeln!(f, "  … and {} more", self.untried.len() - 20)?;
            }
        }
        Ok(())
    }
}
