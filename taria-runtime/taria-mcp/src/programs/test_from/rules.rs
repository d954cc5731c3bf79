//! The rules (`--exclude`, `--label`, `--at`, `--draw-order`) in the generated test,
//! and a recorded tree under them, with a conflict said in the command line's terms.

use taria_schema::Tree;
use taria_schema::recording::{Match, Pattern, Rule, RuleConflict, RuleKind};

use super::Options;
use crate::replay_code::escape::literal_str;
use crate::replay_code::layout::stmt;

/// `let rules = taria::testing::Match::new();`, then one `let rules = rules.…;` per
/// rule, in the order given (a rule for some steps as `rules.at_steps(3..=5, …)`),
/// `comment` before the rule at index `comment_at`.
pub(super) fn rules_code(rules: &Match, comment_at: usize, comment: &str) -> String {
    let mut out = "    let rules = taria::testing::Match::new();\n".to_owned();
    for (index, rule) in rules.rules().iter().enumerate() {
        if index == comment_at {
            out.push_str(comment);
        }
        let (callee, args) = match rule.steps() {
            None => call("rules", rule),
            Some(steps) => {
                let (callee, args) = call("taria::testing::Match::new()", rule);
                let inner = format!("{callee}({})", args.join(", "));
                let range = format!("{}..={}", steps.start(), steps.end());
                ("rules.at_steps".to_owned(), vec![range, inner])
            }
        };
        out.push_str(&stmt("let rules = ", &callee, &args, ";", false));
    }
    if rules.compares_draw_order() {
        out.push_str("    let rules = rules.draw_order();\n");
    }
    out
}

/// `receiver.exclude` / `receiver.label` and the rule's arguments.
fn call(receiver: &str, rule: &Rule) -> (String, Vec<String>) {
    let id = pattern_code(rule.id());
    match rule.kind() {
        RuleKind::Label(label) => (format!("{receiver}.label"), vec![id, pattern_code(label)]),
        RuleKind::Screen => (format!("{receiver}.screen"), vec![id]),
        // `Exclude`, and any kind a later taria adds (this build writes only these).
        _ => (format!("{receiver}.exclude"), vec![id]),
    }
}

/// A glob as a string literal; a regex as the `Pattern` that compiles it (test-from
/// compiled it already, so the `expect` cannot fail).
fn pattern_code(pattern: &Pattern) -> String {
    if pattern.is_regex() {
        format!(
            "taria::testing::Pattern::regex({}).expect(\"compiled by test-from\")",
            literal_str(pattern.as_str())
        )
    } else {
        literal_str(pattern.as_str())
    }
}

/// `tree`'s outline under the rules at `step`, newline-ended, and with a `screen`,
/// the screen section the rules ask for; two label rules on one node are an error
/// naming both flags.
pub(super) fn outline(
    options: &Options,
    tree: &Tree,
    step: u64,
    screen: Option<&[String]>,
) -> Result<String, String> {
    let compared = match screen {
        Some(rows) => options.rules.outline_with_screen(tree, step, rows),
        None => options.rules.outline(tree, step),
    };
    let mut outline = compared.map_err(|conflict| conflict_message(options, &conflict))?;
    if !outline.ends_with('\n') {
        outline.push('\n');
    }
    Ok(outline)
}

fn conflict_message(options: &Options, conflict: &RuleConflict) -> String {
    let flag = |rule: usize| {
        options
            .rule_flags
            .get(rule)
            .cloned()
            .unwrap_or_else(|| options.rules.rules()[rule].to_string())
    };
    format!(
        "{} and {} both apply to `{}` (at step {}): a node is held to one label rule; keep \
         one, or narrow the other's ID",
        flag(conflict.rules[0]),
        flag(conflict.rules[1]),
        conflict.node,
        conflict.step
    )
}
