use super::{Match, Pattern};
use crate::model::Tree;

/// A tree of `(id, label, [x, y, width, height])` roots.
fn tree(nodes: &[(&str, &str, [u16; 4])]) -> Tree {
    let roots: Vec<serde_json::Value> = nodes
        .iter()
        .map(|(id, label, bounds)| {
            serde_json::json!({"id": id, "role": "status", "label": label, "bounds": bounds})
        })
        .collect();
    serde_json::from_value(serde_json::json!({"frame": 1, "roots": roots})).unwrap()
}

fn ids(outline: &str) -> Vec<&str> {
    outline
        .lines()
        .filter_map(|line| line.split("[id=").nth(1)?.split(']').next())
        .collect()
}

#[test]
fn siblings_are_compared_in_reading_order_unless_draw_order_is_asked() {
    // The input drawn before the list, on the same screen.
    let list_first = tree(&[
        ("list", "Tasks", [0, 0, 40, 10]),
        ("input", "New", [0, 10, 40, 3]),
    ]);
    let input_first = tree(&[
        ("input", "New", [0, 10, 40, 3]),
        ("list", "Tasks", [0, 0, 40, 10]),
    ]);
    let rules = Match::new();
    assert_eq!(
        rules.outline(&list_first, 1).unwrap(),
        rules.outline(&input_first, 1).unwrap()
    );
    assert_eq!(
        ids(&rules.outline(&input_first, 1).unwrap()),
        ["list", "input"]
    );
    let strict = Match::new().draw_order();
    assert_ne!(
        strict.outline(&list_first, 1).unwrap(),
        strict.outline(&input_first, 1).unwrap()
    );
    assert_eq!(
        ids(&strict.outline(&input_first, 1).unwrap()),
        ["input", "list"]
    );
}

#[test]
fn reading_order_is_by_row_then_column_and_keeps_arealess_nodes_in_place() {
    let drawn = tree(&[
        ("right", "R", [20, 0, 10, 1]),
        ("below", "B", [0, 5, 10, 1]),
        ("no-area", "N", [0, 0, 0, 0]),
        ("left", "L", [0, 0, 10, 1]),
        ("same-place-later", "S", [0, 0, 10, 1]),
    ]);
    let outline = Match::new().outline(&drawn, 0).unwrap();
    assert_eq!(
        ids(&outline),
        ["left", "same-place-later", "right", "below", "no-area"]
    );
}

#[test]
fn two_label_rules_on_one_node_are_an_error_naming_both() {
    let drawn = tree(&[("status", "Saved 3", [0, 0, 10, 1])]);
    let rules = Match::new().label("status", "A*").label("sta*", "Saved *");
    let error = rules.outline(&drawn, 2).unwrap_err();
    assert_eq!(error.node, "status");
    assert_eq!(error.step, 2);
    assert_eq!(error.rules, [0, 1]);
    assert_eq!(
        error.to_string(),
        "two label rules apply to `status` at step 2: label(\"status\", \"A*\") and \
         label(\"sta*\", \"Saved *\"); a node is held to one label rule: keep one, or \
         narrow the other's id pattern"
    );
    // The same id twice is one case of it.
    let twice = Match::new().label("status", "A").label("status", "B");
    assert!(twice.outline(&drawn, 0).is_err());
}

#[test]
fn a_rule_for_some_steps_takes_the_place_of_the_one_for_all_there() {
    let saved = tree(&[("status", "Saved 3", [0, 0, 10, 1])]);
    let deleted = tree(&[("status", "Deleted 1", [0, 0, 10, 1])]);
    let rules = Match::new()
        .label("status", "Saved *")
        .at_steps(6..=7, Match::new().label("status", "Deleted *"));
    assert_eq!(
        rules.outline(&saved, 5).unwrap(),
        "- status \"Saved *\" [id=status]\n"
    );
    assert_eq!(
        rules.outline(&deleted, 6).unwrap(),
        "- status \"Deleted *\" [id=status]\n"
    );
    // Outside its steps the rule for steps 6-7 does nothing: the label is compared.
    assert_eq!(
        rules.outline(&deleted, 8).unwrap(),
        "- status \"Deleted 1\" [id=status]\n"
    );
    // An exclude for some steps.
    let clock = tree(&[("clock", "12:00", [0, 0, 5, 1])]);
    let rules = Match::new().at_steps(2..=2, Match::new().exclude("clock"));
    assert_eq!(rules.outline(&clock, 2).unwrap(), "");
    assert_eq!(
        rules.outline(&clock, 3).unwrap(),
        "- status \"12:00\" [id=clock]\n"
    );
    assert_eq!(rules.rules()[0].to_string(), "exclude(\"clock\") at step 2");
}

#[test]
fn a_rule_that_matched_nothing_is_said_with_why() {
    let first = tree(&[("status", "Deleted 1", [0, 0, 10, 1])]);
    let second = tree(&[("status", "Deleted 2", [0, 0, 10, 1])]);
    let rules = Match::new()
        .exclude("clock")
        .label("status", "Saved *")
        .exclude("sta?us")
        .label("tasks/*", Pattern::glob("[0-9]*"));
    let unused = rules.unused([(0, &first), (1, &second)]).unwrap();
    let said: Vec<String> = unused.iter().map(ToString::to_string).collect();
    assert_eq!(
        said,
        [
            "exclude(\"clock\") matched no node: it does nothing",
            // The exclude took the node first: the label rule never saw it.
            "label(\"status\", \"Saved *\") matched no node: it does nothing",
            "label(\"tasks/*\", \"[0-9]*\") matched no node: it does nothing",
        ]
    );
    assert_eq!(unused.iter().map(|u| u.rule).collect::<Vec<_>>(), [0, 1, 3]);

    let rules = Match::new().label("status", "Saved *");
    let said = rules.unused([(0, &first)]).unwrap()[0].to_string();
    assert_eq!(
        said,
        "label(\"status\", \"Saved *\") matched nodes, but none of their labels fits \
         \"Saved *\" (one was \"Deleted 1\"): it does nothing"
    );
    assert!(
        Match::new()
            .label("status", "Deleted *")
            .unused([(0, &first)])
            .unwrap()
            .is_empty()
    );
}

#[cfg(feature = "regex")]
#[test]
fn a_label_rule_with_a_regex_or_a_class_keeps_the_pattern_in_the_outline() {
    let drawn = tree(&[("clock", "12:45", [0, 0, 5, 1])]);
    let glob = Match::new().label("clock", "[0-2][0-9]:[0-5][0-9]");
    assert_eq!(
        glob.outline(&drawn, 0).unwrap(),
        "- status \"[0-2][0-9]:[0-5][0-9]\" [id=clock]\n"
    );
    let regex = Match::new().label(
        Pattern::regex("c.*").unwrap(),
        Pattern::regex(r"\d\d:\d\d").unwrap(),
    );
    assert_eq!(
        regex.outline(&drawn, 0).unwrap(),
        "- status \"re:\\\\d\\\\d:\\\\d\\\\d\" [id=clock]\n"
    );
    let other = tree(&[("clock", "12:4", [0, 0, 5, 1])]);
    assert_eq!(
        regex.outline(&other, 0).unwrap(),
        "- status \"12:4\" [id=clock]\n"
    );
}
