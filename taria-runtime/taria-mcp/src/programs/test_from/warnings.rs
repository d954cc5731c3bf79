//! What `test-from` tells the author on stderr about the rules: each rule that did
//! nothing over the recorded trees, and each node that changed when the app took no
//! input (a clock, a spinner: volatile, so a rule should leave it out).

use std::collections::BTreeMap;

use taria_schema::protocol::AckStatus;
use taria_schema::recording::{Recording, ReplayLine};
use taria_schema::{Node, Tree};

use super::Options;
use crate::replay_code::escape::shell_word;

/// The warnings for `trees` (the recorded trees the snapshots are made of, each with
/// its step) under the options' rules.
pub(super) fn warnings(
    recording: &Recording,
    options: &Options,
    trees: &[(u64, &Tree)],
) -> Result<Vec<String>, String> {
    let mut notes = Vec::new();
    let unused = options
        .rules
        .unused(trees.iter().copied())
        .map_err(|conflict| conflict.to_string())?;
    for unused in unused {
        let flag = options
            .rule_flags
            .get(unused.rule)
            .cloned()
            .unwrap_or_else(|| options.rules.rules()[unused.rule].to_string());
        notes.push(format!(
            "warning: {flag} {} in the recording: it does nothing; remove it, or fix its \
             pattern",
            unused.reason()
        ));
    }
    notes.extend(changed_on_their_own(recording, options)?);
    let regex = options.rules.rules().iter().any(|rule| {
        rule.id().is_regex()
            || matches!(rule.kind(), taria_schema::recording::RuleKind::Label(l) if l.is_regex())
    });
    if regex {
        notes.push(
            "note: the test's rules name taria::testing::Pattern::regex: build the tests with \
             taria's `regex` feature ([dev-dependencies] taria = { ..., features = [\"regex\"] })"
                .to_owned(),
        );
    }
    Ok(notes)
}

/// Each node whose label or value changed across a step the app took no part in
/// (its answer `ignored`: nothing took the input; `dropped`: it never arrived), as
/// the rules see the trees: a suggestion to leave it out.
fn changed_on_their_own(recording: &Recording, options: &Options) -> Result<Vec<String>, String> {
    let mut notes = Vec::new();
    let mut said: Vec<String> = Vec::new();
    let Some(first) = recording.first_tree() else {
        return Ok(notes);
    };
    let mut before = first;
    for line in recording.replay_lines() {
        let ReplayLine::Input(recorded) = line else {
            continue;
        };
        let Some(tree) = &recorded.tree else {
            continue;
        };
        let took_no_part = match recorded.ack.as_ref().map(|ack| ack.status) {
            Some(AckStatus::Ignored) => Some("ignored (nothing took it)"),
            Some(AckStatus::Dropped) => Some("dropped (it never reached the app)"),
            _ => None,
        };
        if let Some(why) = took_no_part {
            // Both trees as the rules see them at this step.
            let old = texts(&project(options, before, recorded.step)?);
            for (id, text) in texts(&project(options, tree, recorded.step)?) {
                if old.get(&id).is_some_and(|old| *old != text) && !said.contains(&id) {
                    notes.push(format!(
                        "note: `{id}` changed at step {}, an input the app {why}: it changes \
                         on its own, and a test of it fails at random; leave it out with \
                         --exclude {}, or give its label a pattern with --label {}",
                        recorded.step,
                        shell_word(&id),
                        shell_word(&format!("{id}=PATTERN"))
                    ));
                    said.push(id);
                }
            }
        }
        before = tree;
    }
    Ok(notes)
}

fn project(options: &Options, tree: &Tree, step: u64) -> Result<Tree, String> {
    options
        .rules
        .project(tree, step)
        .map_err(|conflict| conflict.to_string())
}

/// Each node's label and value, by id.
fn texts(tree: &Tree) -> BTreeMap<String, (Option<String>, Option<String>)> {
    fn walk(nodes: &[Node], out: &mut BTreeMap<String, (Option<String>, Option<String>)>) {
        for node in nodes {
            let value = node.value.as_ref().map(ToString::to_string);
            out.insert(node.id.to_string(), (node.label.clone(), value));
            walk(&node.children, out);
        }
    }
    let mut out = BTreeMap::new();
    walk(&tree.roots, &mut out);
    out
}
