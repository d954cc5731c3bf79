//! What the properties draw from: text full of characters that break line- and
//! bracket-framed text, values, nodes and trees (with unique ids or not), any JSON;
//! and the run's case count.

use proptest::collection::vec;
use proptest::option;
use proptest::prelude::*;
use serde_json::{Map, Value as Json};
use taria::node::{ActionName, NodeId};
use taria::{Action, Checked, Node, Role, Tree, Value};

/// Cases per property: `TARIA_FUZZ_CASES`, else 256.
pub(crate) fn config() -> ProptestConfig {
    let cases = std::env::var("TARIA_FUZZ_CASES")
        .ok()
        .and_then(|c| c.parse().ok())
        .unwrap_or(256);
    ProptestConfig {
        cases,
        // Beside the module of the property: `tests/fuzz/mirror.proptest-regressions`.
        failure_persistence: Some(Box::new(
            proptest::test_runner::FileFailurePersistence::WithSource("proptest-regressions"),
        )),
        ..ProptestConfig::default()
    }
}

/// Characters that break line- and bracket-framed text, and some that look harmless.
pub(crate) const TRICKY: &[char] = &[
    '\n', '\r', '"', '\\', ']', '[', '{', '}', ',', ' ', '\t', '=', ':', '/', '#', '~', '\0',
    '\u{1b}', '\u{7f}', '\u{85}', '\u{a0}', '\u{2028}', '\u{2029}', '\u{200b}', '\u{202e}',
    '\u{feff}', '\u{301}', '…', '-', 'é', '🦀',
];

pub(crate) fn tricky_char() -> impl Strategy<Value = char> {
    prop_oneof![
        3 => prop::sample::select(TRICKY),
        2 => prop::char::range('a', 'z'),
        1 => any::<char>(),
    ]
}

/// App text: mostly plain, often hostile.
pub(crate) fn text() -> impl Strategy<Value = String> {
    prop_oneof![
        3 => "[a-z0-9]{1,6}",
        2 => "[a-z0-9/#~._ -]{0,10}",
        3 => vec(tricky_char(), 0..12).prop_map(String::from_iter),
        1 => any::<String>(),
    ]
}

pub(crate) fn value() -> impl Strategy<Value = Value> {
    prop_oneof![
        any::<bool>().prop_map(Value::Bool),
        (-1e6f64..1e6).prop_map(Value::Number),
        text().prop_map(Value::Text),
    ]
}

pub(crate) fn action_name() -> impl Strategy<Value = ActionName> {
    prop_oneof![
        prop::sample::select(Action::ALL).prop_map(ActionName::Core),
        text().prop_map(|t| ActionName::parse(&t)),
    ]
}

/// A small or an extreme u32 (`u32::MAX` from a peer must not overflow anything).
pub(crate) fn count() -> impl Strategy<Value = Option<u32>> {
    option::of(prop_oneof![
        4 => 0u32..8,
        1 => Just(u32::MAX),
        1 => any::<u32>(),
    ])
}

/// One node without children.
pub(crate) fn node() -> impl Strategy<Value = Node> {
    (
        (text(), any::<bool>(), prop::sample::select(Role::ALL)),
        (option::of(text()), option::of(text()), option::of(value())),
        (
            vec(action_name(), 0..3),
            option::of(text()),
            any::<[bool; 4]>(),
        ),
        (count(), count(), count()),
        option::of(prop::sample::select(
            &[Checked::True, Checked::False, Checked::Mixed][..],
        )),
    )
        .prop_map(
            |(
                (id, stable, role),
                (custom_role, label, value),
                (actions, invalid, [selected, focused, disabled, expanded]),
                (index, count, level),
                checked,
            )| {
                let mut node = Node::default();
                node.id = NodeId::new(id);
                node.stable = stable;
                node.role = role;
                node.custom_role = custom_role;
                node.label = label;
                node.value = value;
                node.actions = actions;
                node.state.selected = selected;
                node.state.focused = focused;
                node.state.disabled = disabled;
                node.state.expanded = expanded.then_some(selected);
                node.state.checked = checked;
                node.state.invalid = invalid.is_some();
                node.state.invalid_message = invalid;
                node.position.index = index;
                node.position.count = count;
                node.position.level = level;
                node
            },
        )
}

/// A tree of up to ~60 nodes, four levels deep; ids need not be unique.
pub(crate) fn tree() -> impl Strategy<Value = Tree> {
    let node_tree = node().prop_recursive(4, 60, 6, |inner| {
        (node(), vec(inner, 0..6)).prop_map(|(mut node, children)| {
            node.children = children;
            node
        })
    });
    vec(node_tree, 0..4).prop_map(|roots| {
        let mut tree = Tree::default();
        tree.roots = roots;
        tree
    })
}

/// A tree whose ids are unique, as a recorder makes them.
pub(crate) fn unique_tree() -> impl Strategy<Value = Tree> {
    tree().prop_map(|mut tree| {
        let mut n = 0;
        let mut stack: Vec<&mut Node> = tree.roots.iter_mut().collect();
        while let Some(node) = stack.pop() {
            node.id = NodeId::new(format!("{n}:{}", node.id.as_str()));
            n += 1;
            stack.extend(node.children.iter_mut());
        }
        tree
    })
}

pub(crate) fn ids(tree: &Tree) -> Vec<NodeId> {
    tree.iter().map(|n| n.id.clone()).collect()
}

/// Any JSON up to a few levels, with keys a node or message has.
pub(crate) fn json() -> impl Strategy<Value = Json> {
    let key = prop_oneof![
        3 => prop::sample::select(KEYS).prop_map(str::to_owned),
        1 => text(),
    ];
    let leaf = prop_oneof![
        Just(Json::Null),
        any::<bool>().prop_map(Json::from),
        any::<i64>().prop_map(Json::from),
        any::<u64>().prop_map(Json::from),
        (-1e9f64..1e9).prop_map(Json::from),
        prop::sample::select(WORDS).prop_map(Json::from),
        text().prop_map(Json::from),
    ];
    leaf.prop_recursive(4, 48, 6, move |inner| {
        prop_oneof![
            vec(inner.clone(), 0..6).prop_map(Json::Array),
            vec((key.clone(), inner), 0..8).prop_map(|fields| Json::Object(Map::from_iter(fields))),
        ]
    })
}

/// Field names of the wire messages and of nodes.
pub(crate) const KEYS: &[&str] = &[
    "type",
    "v",
    "app",
    "pid",
    "taria",
    "client",
    "revision",
    "input",
    "tree",
    "roots",
    "frame",
    "diagnostics",
    "added",
    "updated",
    "removed",
    "seq",
    "kind",
    "node",
    "action",
    "value",
    "direction",
    "amount",
    "token",
    "key",
    "text",
    "status",
    "reason",
    "message",
    "cols",
    "rows",
    "code",
    "id",
    "stable",
    "role",
    "customRole",
    "label",
    "valueSchema",
    "actions",
    "keys",
    "position",
    "index",
    "count",
    "level",
    "scroll",
    "offset",
    "content",
    "viewport",
    "bounds",
    "children",
    "childIds",
    "parent",
    "checked",
    "expanded",
    "focused",
    "selected",
    "disabled",
    "modal",
    "invalid",
    "invalidMessage",
    "redacted",
    "min",
    "max",
    "step",
    "maxLen",
    "options",
];

/// Values those fields take.
pub(crate) const WORDS: &[&str] = &[
    "hello",
    "tree",
    "patch",
    "ack",
    "screen",
    "error",
    "input",
    "get_tree",
    "get_screen",
    "act",
    "key",
    "text",
    "delivered",
    "rejected",
    "dropped",
    "ignored",
    "unknown_node",
    "button",
    "list",
    "list_item",
    "activate",
    "set_value",
    "scroll",
    "down",
    "up",
    "true",
    "false",
    "mixed",
    "number",
    "bool",
    "options",
    "ctrl+s",
    "shift+tab",
    "f5",
    "duplicate_id",
];
