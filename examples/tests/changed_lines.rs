//! Each taria version differs from its plain ratatui app by attributes plus a few lines:
//! `before-after` and the ports of apps in the style of ratatui's own examples and of
//! third-party ones (`ports/`), each within the line budget the integration guide
//! promises (issue 21: at most 6 beyond attributes for the ports added with it).

/// Lines that are part of a taria attribute (`#[taria::…(…)]`, `#[action(…)]`),
/// including continuation lines of a multi-line one.
fn without_attributes(source: &str) -> Vec<&str> {
    let mut lines = Vec::new();
    let mut in_attribute = false;
    for line in source.lines() {
        let trimmed = line.trim_start();
        if trimmed.starts_with("#[taria::") || trimmed.starts_with("#[action(") {
            in_attribute = !trimmed.ends_with(")]");
            continue;
        }
        if in_attribute {
            in_attribute = !trimmed.ends_with(")]");
            continue;
        }
        lines.push(line);
    }
    lines
}

/// How many lines are added or removed going from `a` to `b` (longest common subsequence).
fn changed_lines(a: &[&str], b: &[&str]) -> usize {
    let mut lcs = vec![vec![0usize; b.len() + 1]; a.len() + 1];
    for i in (0..a.len()).rev() {
        for j in (0..b.len()).rev() {
            lcs[i][j] = if a[i] == b[j] {
                lcs[i + 1][j + 1] + 1
            } else {
                lcs[i + 1][j].max(lcs[i][j + 1])
            };
        }
    }
    a.len() + b.len() - 2 * lcs[0][0]
}

/// The lines of `source` that count: no taria attribute, no module doc comment (each
/// file's describes itself), and not the declaration of the port's headless tests
/// (`#[cfg(test)] mod tests;` at the end, with the blank line before it): they test the
/// port, they are not part of porting it.
fn counted(source: &str) -> Vec<&str> {
    let mut lines: Vec<&str> = without_attributes(source)
        .into_iter()
        .filter(|l| !l.starts_with("//!"))
        .collect();
    if lines.ends_with(&["#[cfg(test)]", "mod tests;"]) {
        lines.truncate(lines.len() - 2);
        if lines.last() == Some(&"") {
            lines.pop();
        }
    }
    lines
}

/// Lines changed beyond attributes going from `plain` to `taria`, checked against
/// `budget`.
fn assert_port(name: &str, plain: &str, taria: &str, budget: usize) {
    let changed = changed_lines(&counted(plain), &counted(taria));
    println!("{name}: {changed} lines changed beyond attributes");
    assert!(
        changed <= budget,
        "{name}: {changed} lines changed beyond attributes (budget {budget})"
    );
    assert!(
        changed > 0,
        "{name}: the taria version adds its item annotations"
    );
}

#[test]
fn before_after_changes_at_most_15_lines_beyond_attributes() {
    assert_port(
        "before-after",
        include_str!("../before-after/plain.rs"),
        include_str!("../before-after/taria.rs"),
        15,
    );
}

/// The prelude for the four-line `ratatui::widgets::{…}` block (5 lines), and the
/// list's id, checked states and toggle key (3).
#[test]
fn the_checklist_port_changes_at_most_8_lines_beyond_attributes() {
    assert_port(
        "checklist",
        include_str!("../ports/checklist/plain.rs"),
        include_str!("../ports/checklist/taria.rs"),
        8,
    );
}

/// Over the 10 by one: the form's fields are the app's own widgets, so an
/// agent's `set_value` needs handlers (9 of its 11 lines); taria cannot type into a
/// field it cannot see the focus of (the app keeps the focus in its form, not in the
/// fields it draws).
#[test]
fn the_signup_port_changes_at_most_11_lines_beyond_attributes() {
    assert_port(
        "signup",
        include_str!("../ports/signup/plain.rs"),
        include_str!("../ports/signup/taria.rs"),
        11,
    );
}

/// The prelude for the four-line `ratatui::widgets::{…}` block (5 lines), the
/// scrollbar's position derived after the table (one statement, three lines as rustfmt
/// writes it) and the table's id (1).
#[test]
fn the_contacts_port_changes_at_most_9_lines_beyond_attributes() {
    assert_port(
        "contacts",
        include_str!("../ports/contacts/plain.rs"),
        include_str!("../ports/contacts/taria.rs"),
        9,
    );
}

/// Issue 21: the one import line (`taria_widgets::prelude` for the `widgets::{…}` line,
/// and `taria::{Action, Role}`) and the input line's role (`text_input`, focused while
/// editing, `e` and enter as its `focus` and `submit`): 6 lines.
#[test]
fn the_chat_port_changes_at_most_6_lines_beyond_attributes() {
    assert_port(
        "chat",
        include_str!("../ports/chat/plain.rs"),
        include_str!("../ports/chat/taria.rs"),
        6,
    );
}

/// Issue 21: `ratatui::widgets::*` (and the lint exception a wildcard import needs)
/// becomes `taria_widgets::prelude::*` beside `ratatui::prelude::*`: 3 lines. Tabs,
/// gauge, charts, table, inbox and mail are recorded by the prelude's widgets, and
/// the app's own keys do the rest.
#[test]
fn the_demo_port_changes_at_most_6_lines_beyond_attributes() {
    assert_port(
        "demo",
        include_str!("../ports/demo/plain.rs"),
        include_str!("../ports/demo/taria.rs"),
        6,
    );
}

/// The loop needs no line (`#[taria::app]` on `main` takes its `ratatui::run`
/// closure); the popup's `Block` is given the role it plays (`modal_dialog("esc")`: one
/// dialog node holding the paragraph's text); the rest is the prelude import and the
/// list's `activate_key`.
#[test]
fn the_popup_port_changes_at_most_6_lines_beyond_attributes() {
    assert_port(
        "popup",
        include_str!("../ports/popup/plain.rs"),
        include_str!("../ports/popup/taria.rs"),
        6,
    );
}

#[test]
fn the_typing_port_changes_at_most_6_lines_beyond_attributes() {
    assert_port(
        "typing",
        include_str!("../ports/typing/plain.rs"),
        include_str!("../ports/typing/taria.rs"),
        6,
    );
}

/// State in `main`'s locals (issue 31 item 2): the agent's `set_value` is a closure over
/// the local, given to `taria::drain_with` at the top of the loop (1 line), and its
/// import (1); the slider and the mute switch are attributes on their render functions.
/// Moving the two locals into a struct for an `#[action]` method instead changed 26.
#[test]
fn the_mixer_port_changes_at_most_2_lines_beyond_attributes() {
    assert_port(
        "mixer",
        include_str!("../ports/mixer/plain.rs"),
        include_str!("../ports/mixer/taria.rs"),
        2,
    );
}
