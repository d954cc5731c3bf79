//! Uses every role, action and node property the macros know, so the macros'
//! vocabulary (`taria-derive/src/vocabulary/table.rs`, included here as a module) and
//! the runtime's `Role`/`Action` enums and `NodeBuilder` can't drift apart: a name
//! the runtime lacks fails to compile here, a name the macros lack fails to compile
//! here, and a name missing from this file, or a `NodeBuilder` setter the table
//! does not account for, fails the checks in `main`.

use std::collections::BTreeSet;

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use taria::testing::Harness;
use taria::{Action, Role};
use taria::node::ActionName;

/// The macros' vocabulary, as the macros themselves read it.
#[path = "../../../../taria-derive/src/vocabulary/table.rs"]
#[expect(dead_code, reason = "the macros read the parts of the table this test does not")]
mod vocabulary;

/// `NodeBuilder` setters that no macro argument expands to, and why.
const BUILDER_ONLY: &[(&str, &str)] = &[
    ("position_key", "widgets name items by position; an app gives a key or nothing"),
    ("actions", "`actions(…)` expands to one `action`/`custom_action` call per item"),
    ("encloses", "a leaf drawn before what lies inside it (taria-widgets' `Block`); an annotated function is a scope"),
    ("focus_cycle", "`actions(focus = cycle(\"l\", \"h\"))` writes its key string through `key_fallback`"),
    ("drawn_value", "a text role given no label nor value takes its value from the screen without an argument"),
];

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
        set_value, dismiss, copy, submit, sort,
    ),
)]
fn render_all_actions(area: Rect, buf: &mut Buffer) {
    let _ = (area, buf);
}

const ACTIONS_USED: &[&str] = &[
    "activate", "focus", "select", "toggle", "expand", "collapse", "increment", "decrement",
    "scroll", "set_value", "dismiss", "copy", "submit", "sort",
];

#[taria::widget(
    role = custom("every_property", group),
    id = "all-properties",
    key = "unused-with-an-id",
    label = "All {ACTIONS_USED:?}",
    value = "v",
    min = 0.0,
    max = 1.0,
    step = 0.5,
    max_len = 8usize,
    options = ["a", "b"],
    focused,
    selected = true,
    checked = true,
    expanded = false,
    disabled,
    busy,
    required,
    readonly,
    invalid = false,
    redacted = false,
    untrusted,
    modal = false,
    actions(activate, "archive" = key("a")),
    index = 0usize,
    count = 1usize,
    level = 1u8,
    scroll(0usize, 1usize, 1usize),
    bounds = area,
)]
fn render_all_properties(area: Rect, buf: &mut Buffer) {
    let _ = buf;
}

/// The arguments `render_all_properties` uses.
const PROPERTIES_USED: &[&str] = &[
    "role", "id", "key", "label", "value", "min", "max", "step", "max_len", "options", "focused",
    "selected", "checked", "expanded", "disabled", "busy", "required", "readonly", "invalid",
    "redacted", "untrusted", "modal", "actions", "index", "count", "level", "scroll", "bounds",
];

/// The names of the `pub fn`s of `impl NodeBuilder` in the runtime's source: its
/// setters (the runtime has no list of them to compare with).
fn builder_setters() -> BTreeSet<&'static str> {
    let source = include_str!("../../../../taria-runtime/src/recorder/builder.rs");
    let start = source.find("impl<'a> NodeBuilder<'a> {").expect("`impl NodeBuilder` in builder.rs");
    let body = &source[start..];
    let body = &body[..body.find("\n}\n").expect("the end of `impl NodeBuilder`")];
    body.match_indices("    pub fn ")
        .map(|(at, prefix)| {
            let name = &body[at + prefix.len()..];
            &name[..name.find(|c: char| !(c.is_alphanumeric() || c == '_')).unwrap_or(name.len())]
        })
        .collect()
}

fn main() {
    let tree = Harness::new(10, 1).render(|frame| {
        for (_, render) in ROLES_USED {
            render(frame.area(), frame.buffer_mut());
        }
        render_all_actions(frame.area(), frame.buffer_mut());
        render_all_properties(frame.area(), frame.buffer_mut());
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
    let roles: BTreeSet<&str> = vocabulary::ROLES.iter().copied().collect();
    assert_eq!(used, roles, "the vocabulary's ROLES and taria::Role differ");

    // Each action name offers the runtime action of the same name.
    let node = tree.get("all-actions").unwrap();
    let offered: Vec<&str> = node.actions.iter().map(ActionName::as_str).collect();
    assert_eq!(offered, ACTIONS_USED, "actions differ from the list (or their order)");
    assert!(node.actions.iter().all(|a| matches!(a, ActionName::Core(_))));
    assert_eq!(Action::ALL.len(), ACTIONS_USED.len(), "taria::Action and this list differ");
    let used: BTreeSet<&str> = ACTIONS_USED.iter().copied().collect();
    let actions: BTreeSet<&str> = vocabulary::ACTIONS.iter().copied().collect();
    assert_eq!(used, actions, "the vocabulary's ACTIONS and taria::Action differ");

    // Every property is used above (so each one's expansion compiles against the
    // runtime's `NodeBuilder`), and every `NodeBuilder` setter is some property's or
    // listed as one no argument expands to.
    let node = tree.get("all-properties").expect("the node using every property");
    assert_eq!(node.label.as_deref(), Some(format!("All {ACTIONS_USED:?}").as_str()));
    let used: BTreeSet<&str> = PROPERTIES_USED.iter().copied().collect();
    assert_eq!(used.len(), PROPERTIES_USED.len(), "a property is listed twice");
    let properties: BTreeSet<&str> = vocabulary::PROPERTIES.iter().map(|p| p.name).collect();
    assert_eq!(used, properties, "this file and the vocabulary's PROPERTIES differ");
    let mut accounted: BTreeSet<&str> =
        vocabulary::PROPERTIES.iter().flat_map(|p| p.builder_methods().iter().copied()).collect();
    accounted.extend(BUILDER_ONLY.iter().map(|(name, _)| *name));
    assert_eq!(
        builder_setters(),
        accounted,
        "NodeBuilder's setters and the vocabulary's PROPERTIES (their `builder` methods) plus BUILDER_ONLY differ"
    );
}
