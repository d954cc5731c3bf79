//! Uses every role and every action the macros know, so the macros' vocabulary
//! (`taria-derive/src/vocabulary.rs`) and the runtime's `Role`/`Action` enums can't
//! drift apart: a name the runtime lacks fails to compile here, a name the macros
//! lack fails to compile here, and a name missing from this file fails the checks
//! in `main`.

use std::collections::BTreeSet;

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use taria::testing::Harness;
use taria::{Action, ActionName, Role};

/// One module per role, each with a render function annotated with that role.
macro_rules! every_role {
    ($($role:ident),+ $(,)?) => {
        $(
            mod $role {
                #[taria::widget(role = $role, key = stringify!($role))]
                pub(crate) fn render(area: ratatui::layout::Rect, buf: &mut ratatui::buffer::Buffer) {
                    let _ = (area, buf);
                }
            }
        )+
        const ROLES_USED: &[(&str, fn(Rect, &mut Buffer))] = &[$((stringify!($role), $role::render)),+];
    };
}

every_role!(
    app, region, group, dialog, tabs, tab, menu, menu_item, list, list_item, tree, tree_item,
    table, row, cell, column_header, text_input, text_area, button, checkbox, radio, switch,
    select, option, slider, spin_button, link, text, heading, log, progress, status, scrollbar,
    chart, image, terminal, form, form_field, notification, toolbar, separator, tooltip,
);

#[taria::widget(
    role = group,
    id = "all-actions",
    actions(
        activate, focus, select, toggle, expand, collapse, increment, decrement, scroll,
        set_value, dismiss, copy, submit,
    ),
)]
fn render_all_actions(area: Rect, buf: &mut Buffer) {
    let _ = (area, buf);
}

const ACTIONS_USED: &[&str] = &[
    "activate", "focus", "select", "toggle", "expand", "collapse", "increment", "decrement",
    "scroll", "set_value", "dismiss", "copy", "submit",
];

/// The quoted names in the `const <name>: &[&str] = &[…];` list of vocabulary.rs.
fn vocabulary(list: &str) -> BTreeSet<&'static str> {
    let source = include_str!("../../../../taria-derive/src/vocabulary.rs");
    let start = source
        .find(&format!("const {list}: &[&str] = &["))
        .unwrap_or_else(|| panic!("`{list}` not found in vocabulary.rs"));
    let body = &source[start..];
    let body = &body[body.find("= &[").unwrap() + 4..body.find("];").unwrap()];
    body.split(',').map(|name| name.trim().trim_matches('"')).filter(|name| !name.is_empty()).collect()
}

fn main() {
    let tree = Harness::new(10, 1).render(|frame| {
        for (_, render) in ROLES_USED {
            render(frame.area(), frame.buffer_mut());
        }
        render_all_actions(frame.area(), frame.buffer_mut());
    });

    // Each role name records the runtime role of the same name.
    for (name, _) in ROLES_USED {
        let node = tree.get(name).unwrap_or_else(|| panic!("no node for role `{name}`"));
        assert_eq!(node.role.name(), *name);
        assert_eq!(Role::from_name(name), Some(node.role));
    }
    let used: BTreeSet<&str> = ROLES_USED.iter().map(|(name, _)| *name).collect();
    assert_eq!(used.len(), ROLES_USED.len(), "a role is listed twice");
    assert_eq!(Role::ALL.len(), ROLES_USED.len(), "taria::Role and this list differ");
    assert_eq!(used, Role::ALL.iter().map(|r| r.name()).collect());
    assert_eq!(used, vocabulary("ROLES"), "vocabulary.rs ROLES and taria::Role differ");

    // Each action name offers the runtime action of the same name.
    let node = tree.get("all-actions").unwrap();
    let offered: Vec<&str> = node.actions.iter().map(ActionName::as_str).collect();
    assert_eq!(offered, ACTIONS_USED, "actions differ from the list (or their order)");
    assert!(node.actions.iter().all(|a| matches!(a, ActionName::Core(_))));
    assert_eq!(Action::ALL.len(), ACTIONS_USED.len(), "taria::Action and this list differ");
    let used: BTreeSet<&str> = ACTIONS_USED.iter().copied().collect();
    assert_eq!(used, vocabulary("ACTIONS"), "vocabulary.rs ACTIONS and taria::Action differ");
}
