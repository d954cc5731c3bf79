//! The nodes that changed with no input in the recorded session (its `unprompted`
//! lines: a timer's tick, data streaming in), and the rules that keep a replay,
//! which draws only after its inputs, from failing on them: a node whose label alone
//! changed passes with any label; one whose children came and went has them left out;
//! any other is left out. Said in the test (a comment) and on stderr.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;

use taria_schema::recording::{Pattern, RecordedLine, Recording};
use taria_schema::{Node, Tree};

use super::Options;
use crate::replay_code::escape::comment_text;

/// What the recording's `unprompted` lines make of the rules.
#[derive(Debug, Default)]
pub(super) struct Unprompted {
    /// The rules, in the order written, each with what it is for.
    rules: Vec<(Rule, String)>,
}

/// A rule for a node that changed with no input.
#[derive(Debug)]
enum Rule {
    /// Left out, with what is under it.
    Exclude(Pattern),
    /// Any label passes.
    AnyLabel(Pattern),
}

impl Unprompted {
    /// The rules for the nodes that changed with no input in `recording`, but those
    /// the author's own rules (`options`) already name.
    pub(super) fn of(recording: &Recording, options: &Options) -> Unprompted {
        let mut changed: BTreeMap<&str, BTreeSet<&str>> = BTreeMap::new();
        for unprompted in recording.unprompted() {
            for (id, fields) in &unprompted.changed {
                changed
                    .entry(id)
                    .or_default()
                    .extend(fields.iter().map(String::as_str));
            }
        }
        let trees = trees(recording);
        let mut out = Unprompted::default();
        let mut left_out: Vec<Pattern> = Vec::new();
        for (id, fields) in &changed {
            let named = |pattern: &Pattern| pattern.matches(id);
            if options.rules.rules().iter().any(|rule| named(rule.id()))
                || left_out.iter().any(named)
            {
                continue;
            }
            let children = fields.contains("children");
            let own: Vec<&str> = fields
                .iter()
                .copied()
                .filter(|field| *field != "children")
                .collect();
            let node = Pattern::glob(glob_escape(id));
            let under = Pattern::glob(format!("{}/*", glob_escape(id)));
            if !children && own == ["label"] {
                let why = format!("`{id}`: its label changed; any label passes");
                out.rules.push((Rule::AnyLabel(node), why));
            } else if own.is_empty() && keyed_under(&trees, id) {
                let why = format!("`{id}`: its children came, went or moved; they are left out");
                out.rules.push((Rule::Exclude(under.clone()), why));
                left_out.push(under);
            } else {
                let what = match (own.is_empty(), children) {
                    (true, _) => "its children came, went or moved".to_owned(),
                    (false, false) => format!("its {} changed", own.join(", ")),
                    (false, true) => format!(
                        "its {} changed and its children came, went or moved",
                        own.join(", ")
                    ),
                };
                let why = format!("`{id}`: {what}; it is left out");
                out.rules.push((Rule::Exclude(node.clone()), why));
                left_out.extend([node, under]);
            }
        }
        out
    }

    /// `options` with these rules after its own (each said as a flag would be, in
    /// warnings).
    pub(super) fn added_to(&self, options: &Options) -> Options {
        let mut options = options.clone();
        for (rule, _) in &self.rules {
            let current = std::mem::take(&mut options.rules);
            let (rules, flag) = match rule {
                Rule::Exclude(id) => (
                    current.exclude(id.clone()),
                    format!("exclude({:?})", id.as_str()),
                ),
                Rule::AnyLabel(id) => (
                    current.label(id.clone(), "*"),
                    format!("label({:?}, \"*\")", id.as_str()),
                ),
            };
            options.rules = rules;
            options.rule_flags.push(format!(
                "the rule {flag} for a node that changed with no input"
            ));
        }
        options
    }

    /// The comment before the rules in the generated test.
    pub(super) fn comment(&self) -> String {
        if self.rules.is_empty() {
            return String::new();
        }
        let mut out = String::from(
            "    // These nodes changed with no input in the recorded session (its `unprompted`\n    \
             // lines: a timer, data streaming in); a replay draws only after its inputs:\n",
        );
        for (_, why) in &self.rules {
            let _ = writeln!(out, "    // - {}", comment_text(why));
        }
        out
    }

    /// What stderr says of them.
    pub(super) fn notes(&self) -> Vec<String> {
        self.rules
            .iter()
            .map(|(_, why)| format!("note: changed with no input in the recorded session: {why}"))
            .collect()
    }
}

/// Whether every child of node `id`, in every tree it is drawn in, has an id under
/// it (`id/…`): then a pattern names its children, and not the node itself.
fn keyed_under(trees: &[&Tree], id: &str) -> bool {
    let prefix = format!("{id}/");
    let mut found = false;
    for tree in trees {
        if let Some(node) = tree.get(id) {
            found = true;
            if !node
                .children
                .iter()
                .all(|child: &Node| child.id.as_str().starts_with(&prefix))
            {
                return false;
            }
        }
    }
    found
}

/// The recorded trees: the `tree` lines', the inputs' and the resizes'.
fn trees(recording: &Recording) -> Vec<&Tree> {
    recording
        .lines
        .iter()
        .filter_map(|line| match line {
            RecordedLine::Tree(recorded) => Some(&recorded.tree),
            RecordedLine::Input(input) => input.tree.as_ref(),
            RecordedLine::Resize(resize) => resize.tree.as_ref(),
            _ => None,
        })
        .collect()
}

/// `text` as a glob that matches it alone.
fn glob_escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if matches!(c, '*' | '?' | '[' | ']' | '\\') {
            out.push('\\');
        }
        out.push(c);
    }
    out
}
