//! Property tests ("fuzzing on stable") of every decoder reachable from outside the
//! process, through the public API: the wire messages from arbitrary bytes and JSON,
//! `FlatTree::apply` on arbitrary patches, the key grammar, value domains, and the
//! outline writer on trees full of hostile strings. The line reader and the bridge's
//! tool arguments are fuzzed next to their (private) code, in `endpoint/line.rs` and
//! the `taria-mcp` binary's `tools.rs`.
//!
//! 256 cases per property by default (a few seconds for the file);
//! `TARIA_FUZZ_CASES=100000 cargo test -p taria --all-features --test fuzz`
//! runs a long fuzz. Failures proptest finds are kept in `proptest-regressions/` and
//! replayed first; the bugs found so far also have their own `#[test]` below.
#![expect(clippy::unwrap_used, reason = "tests: a failed step fails the test")]

use std::collections::HashSet;

use proptest::collection::vec;
use proptest::option;
use proptest::prelude::*;
use serde_json::{Map, Value as Json, json};
use taria::node::{ActionName, NodeId, ValueSchema};
use taria::wire::mirror::{FlatNode, FlatTree, NodeUpdate, Patch};
use taria::wire::outline::{OutlineRules as _, outline_line_id};
use taria::wire::protocol::KeyChord;
use taria::wire::protocol::{AppMessage, BridgeMessage};
use taria::{Action, Checked, Node, Role, Tree, Value};

/// Cases per property: `TARIA_FUZZ_CASES`, else 256.
fn config() -> ProptestConfig {
    let cases = std::env::var("TARIA_FUZZ_CASES")
        .ok()
        .and_then(|c| c.parse().ok())
        .unwrap_or(256);
    ProptestConfig {
        cases,
        // Beside this file: `tests/fuzz.proptest-regressions`.
        failure_persistence: Some(Box::new(
            proptest::test_runner::FileFailurePersistence::WithSource("proptest-regressions"),
        )),
        ..ProptestConfig::default()
    }
}

// ---------------------------------------------------------------------------------
// Generators.

/// Characters that break line- and bracket-framed text, and some that look harmless.
const TRICKY: &[char] = &[
    '\n', '\r', '"', '\\', ']', '[', '{', '}', ',', ' ', '\t', '=', ':', '/', '#', '~', '\0',
    '\u{1b}', '\u{7f}', '\u{85}', '\u{a0}', '\u{2028}', '\u{2029}', '\u{200b}', '\u{202e}',
    '\u{feff}', '\u{301}', '…', '-', 'é', '🦀',
];

fn tricky_char() -> impl Strategy<Value = char> {
    prop_oneof![
        3 => prop::sample::select(TRICKY),
        2 => prop::char::range('a', 'z'),
        1 => any::<char>(),
    ]
}

/// App text: mostly plain, often hostile.
fn text() -> impl Strategy<Value = String> {
    prop_oneof![
        3 => "[a-z0-9]{1,6}",
        2 => "[a-z0-9/#~._ -]{0,10}",
        3 => vec(tricky_char(), 0..12).prop_map(String::from_iter),
        1 => any::<String>(),
    ]
}

fn value() -> impl Strategy<Value = Value> {
    prop_oneof![
        any::<bool>().prop_map(Value::Bool),
        (-1e6f64..1e6).prop_map(Value::Number),
        text().prop_map(Value::Text),
    ]
}

fn action_name() -> impl Strategy<Value = ActionName> {
    prop_oneof![
        prop::sample::select(Action::ALL).prop_map(ActionName::Core),
        text().prop_map(|t| ActionName::parse(&t)),
    ]
}

/// A small or an extreme u32 (`u32::MAX` from a peer must not overflow anything).
fn count() -> impl Strategy<Value = Option<u32>> {
    option::of(prop_oneof![
        4 => 0u32..8,
        1 => Just(u32::MAX),
        1 => any::<u32>(),
    ])
}

/// One node without children.
fn node() -> impl Strategy<Value = Node> {
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
fn tree() -> impl Strategy<Value = Tree> {
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
fn unique_tree() -> impl Strategy<Value = Tree> {
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

fn ids(tree: &Tree) -> Vec<NodeId> {
    tree.iter().map(|n| n.id.clone()).collect()
}

/// Any JSON up to a few levels, with keys a node or message has.
fn json() -> impl Strategy<Value = Json> {
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
const KEYS: &[&str] = &[
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
const WORDS: &[&str] = &[
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

/// A message a peer might send: a valid one with fields replaced, added or removed.
fn message(valid: &'static [&'static str]) -> impl Strategy<Value = Json> {
    (
        prop::sample::select(valid),
        vec((prop::sample::select(KEYS), option::of(json())), 0..4),
    )
        .prop_map(|(line, edits)| {
            let mut message: Json = serde_json::from_str(line).unwrap();
            if let Json::Object(fields) = &mut message {
                for (key, value) in edits {
                    match value {
                        Some(value) => fields.insert(key.to_owned(), value),
                        None => fields.remove(key),
                    };
                }
            }
            message
        })
}

const APP_LINES: &[&str] = &[
    r#"{"type":"hello","v":1,"app":"todo","pid":7,"taria":"0.1.0"}"#,
    r#"{"type":"tree","revision":1,"input":0,"tree":{"frame":3,"roots":[{"id":"tasks","role":"list","children":[{"id":"tasks/1","role":"list_item","label":"a","position":{"index":0,"count":1}}]}]}}"#,
    r#"{"type":"patch","revision":2,"input":1,"updated":[{"id":"tasks/1","label":"b"}],"removed":["x"],"frame":4}"#,
    r#"{"type":"ack","seq":1,"status":"rejected","reason":"unknown_node","message":"no"}"#,
    r#"{"type":"screen","revision":2,"cols":10,"rows":["a","b"]}"#,
    r#"{"type":"error","code":"bad_message","message":"what"}"#,
];

const BRIDGE_LINES: &[&str] = &[
    r#"{"type":"hello","v":1,"client":"taria-mcp"}"#,
    r#"{"type":"input","seq":1,"kind":"act","node":"tasks/1","action":"set_value","value":3,"token":"t"}"#,
    r#"{"type":"input","seq":2,"kind":"act","node":"list","action":"scroll","direction":"down","amount":2}"#,
    r#"{"type":"input","seq":3,"kind":"key","key":"ctrl+s"}"#,
    r#"{"type":"input","seq":4,"kind":"text","text":"hi"}"#,
    r#"{"type":"get_tree"}"#,
    r#"{"type":"get_screen"}"#,
];

// ---------------------------------------------------------------------------------
// Checks.

/// Decoding `bytes` as the app (or the bridge) does never panics, and what decodes
/// survives a round trip through its own JSON.
fn decodes_sanely(bytes: &[u8]) {
    if let Ok(message) = serde_json::from_slice::<BridgeMessage>(bytes) {
        let again = serde_json::to_vec(&message).unwrap();
        let back: BridgeMessage = serde_json::from_slice(&again).unwrap();
        assert_eq!(back, message);
    }
    if let Ok(message) = serde_json::from_slice::<AppMessage>(bytes) {
        let again = serde_json::to_vec(&message).unwrap();
        let back: AppMessage = serde_json::from_slice(&again).unwrap();
        assert_eq!(back, message);
        if let AppMessage::Tree { tree, .. } = &message {
            outline_has_a_line_per_node(tree);
            let _ = FlatTree::from_tree(tree).to_tree();
        }
    }
}

/// The outline has one line per node, in `tree.iter()` order, each giving back its
/// node's id (or none, for an inert part of its parent).
fn outline_has_a_line_per_node(tree: &Tree) {
    fn expected<'t>(node: &'t Node, parent: Option<&Node>, out: &mut Vec<Option<&'t str>>) {
        out.push((!node.id_implied(parent)).then(|| node.id.as_str()));
        for child in &node.children {
            expected(child, Some(node), out);
        }
    }
    let outline = tree.outline();
    let lines: Vec<&str> = outline.split('\n').filter(|l| !l.is_empty()).collect();
    assert_eq!(lines.len(), tree.len(), "{outline}");
    let mut want = Vec::new();
    for root in &tree.roots {
        expected(root, None, &mut want);
    }
    for (line, id) in lines.iter().zip(want) {
        assert!(line.trim_start_matches(' ').starts_with("- "), "{line}");
        assert_eq!(outline_line_id(line).as_deref(), id, "{line}");
    }
}

/// What `FlatTree` promises whatever it was fed: a tree with each id once, at most
/// `MAX_DEPTH` + 1 levels, that flattens back to itself.
fn flat_tree_is_sane(flat: &FlatTree) {
    fn depth(node: &Node) -> usize {
        1 + node.children.iter().map(depth).max().unwrap_or(0)
    }
    let tree = flat.to_tree();
    let all = ids(&tree);
    let unique: HashSet<&NodeId> = all.iter().collect();
    assert_eq!(unique.len(), all.len(), "an id twice: {all:?}");
    let deepest = tree.roots.iter().map(depth).max().unwrap_or(0);
    assert!(deepest <= taria::builder::MAX_DEPTH + 1, "{deepest} levels");
    assert_eq!(FlatTree::from_tree(&tree).to_tree(), tree);
    outline_has_a_line_per_node(&tree);
}

/// A patch a peer might send against `tree`: ids from the tree and a few others.
fn patch_for(tree: &Tree) -> impl Strategy<Value = Patch> + use<> {
    let mut pool: Vec<NodeId> = ids(tree);
    pool.extend(["ghost", "n1", "n2"].map(NodeId::from));
    let id = prop::sample::select(pool.clone());
    let ids = vec(id.clone(), 0..4);
    let field_value = prop_oneof![
        2 => json(),
        2 => id.clone().prop_map(|id| Json::from(id.as_str())),
        2 => ids.clone().prop_map(|ids| json!(ids)),
    ];
    let field = (
        prop::sample::select(
            &[
                "id", "childIds", "parent", "role", "label", "value", "position", "stable",
                "actions", "checked",
            ][..],
        ),
        field_value,
    );
    let added =
        (node(), option::of(id.clone()), ids.clone()).prop_map(|(mut node, parent, child_ids)| {
            node.id = NodeId::new(format!("{}+", node.id.as_str()));
            FlatNode {
                node,
                parent,
                child_ids,
            }
        });
    let added = prop_oneof![
        added,
        (node(), id.clone(), ids.clone()).prop_map(|(mut node, id, child_ids)| {
            node.id = id;
            FlatNode {
                node,
                parent: None,
                child_ids,
            }
        }),
    ];
    let updated = (id.clone(), vec(field, 0..3)).prop_map(|(id, fields)| NodeUpdate {
        id,
        fields: fields.into_iter().map(|(k, v)| (k.to_owned(), v)).collect(),
    });
    (
        vec(added, 0..3),
        vec(updated, 0..4),
        ids.clone(),
        option::of(ids),
        any::<u64>(),
    )
        .prop_map(|(added, updated, removed, roots, frame)| Patch {
            added,
            updated,
            removed,
            roots,
            frame,
            ..Patch::default()
        })
}

// ---------------------------------------------------------------------------------
// Properties.

proptest! {
    #![proptest_config(config())]

    #[test]
    fn wire_messages_from_arbitrary_bytes(bytes in vec(any::<u8>(), 0..256)) {
        decodes_sanely(&bytes);
    }

    #[test]
    fn wire_messages_from_mangled_valid_lines(
        app in message(APP_LINES),
        bridge in message(BRIDGE_LINES),
        cut in any::<prop::sample::Index>(),
    ) {
        for message in [app, bridge] {
            let line = serde_json::to_vec(&message).unwrap();
            decodes_sanely(&line);
            // And cut short, as a peer that dies mid-line leaves it.
            decodes_sanely(&line[..cut.index(line.len() + 1)]);
        }
    }

    #[test]
    fn the_outline_has_one_line_per_node_whatever_the_strings(tree in tree()) {
        outline_has_a_line_per_node(&tree);
        for root in &tree.roots {
            let _ = root.outline(1);
            prop_assert!(!root.outline_line().contains('\n'));
        }
    }

    #[test]
    fn a_tree_survives_its_json(tree in tree()) {
        let json = serde_json::to_string(&tree).unwrap();
        let back: Tree = serde_json::from_str(&json).unwrap();
        prop_assert_eq!(back, tree, "{}", json);
    }

    #[test]
    fn a_patch_between_two_trees_rebuilds_the_newer(
        (older, newer) in (unique_tree(), unique_tree()),
    ) {
        let patch = newer.diff(&older);
        // Over the wire, as the bridge gets it.
        let json = serde_json::to_string(&patch).unwrap();
        let patch: Patch = serde_json::from_str(&json).unwrap();
        let mut flat = FlatTree::from_tree(&older);
        flat.apply(&patch);
        prop_assert_eq!(flat.to_tree().roots, newer.roots);
        flat_tree_is_sane(&flat);
    }

    #[test]
    fn any_patch_leaves_a_sane_tree(
        (tree, patches) in unique_tree().prop_flat_map(|tree| {
            let patches = vec(patch_for(&tree), 1..4);
            (Just(tree), patches)
        }),
    ) {
        let mut flat = FlatTree::from_tree(&tree);
        for patch in &patches {
            flat.apply(patch);
            flat_tree_is_sane(&flat);
        }
    }

    #[test]
    fn a_patch_from_arbitrary_json_never_panics(fields in json()) {
        let mut harness = taria::testing::Harness::new(10, 2);
        let tree = harness.render(|_| {
            let _list = taria::scope(|n| { n.role(Role::List).id("tasks"); });
            taria::leaf(|n| { n.role(Role::ListItem).key(1).label("a"); });
        });
        let mut line = json!({"type": "patch", "revision": 2, "input": 0});
        if let (Json::Object(line), Json::Object(fields)) = (&mut line, fields) {
            line.extend(fields);
        }
        if let Ok(AppMessage::Patch { patch, .. }) = serde_json::from_value::<AppMessage>(line) {
            let mut flat = FlatTree::from_tree(&tree);
            flat.apply(&patch);
            flat_tree_is_sane(&flat);
        }
    }

    #[test]
    fn any_key_text_parses_or_is_refused_and_chords_round_trip(
        key in prop_oneof![
            any::<String>(),
            vec(prop_oneof![
                prop::sample::select(&["ctrl", "alt", "shift", "super", "cmd", "+", "++", "f", "f0", "f24", "f25", "f255", "f256", "tab", "enter", "plus", "space", " ", "A", "é", "\u{200b}"][..]).prop_map(str::to_owned),
                tricky_char().prop_map(String::from),
            ], 0..5).prop_map(|parts| parts.join("+")),
        ],
    ) {
        if let Ok(chord) = key.parse::<KeyChord>() {
            let shown = chord.to_string();
            let back: KeyChord = shown.parse().map_err(|e| TestCaseError::fail(format!("{shown:?}: {e}")))?;
            prop_assert_eq!(back, chord, "{:?} shown as {:?}", key, shown);
        }
    }

    #[test]
    fn a_value_fits_its_domain_exactly_when_check_says_so(
        schema in json(),
        typed in prop_oneof![
            (option::of(-1e3f64..1e3), option::of(-1e3f64..1e3), option::of(prop_oneof![0.0f64..10.0, Just(0.0), Just(1e-300), Just(f64::MAX)])).prop_map(|(min, max, step)| json!({"type": "number", "min": min, "max": max, "step": step})),
            option::of(0u32..5).prop_map(|max_len| json!({"type": "text", "maxLen": max_len})),
            vec(text(), 0..4).prop_map(|options| json!({"type": "options", "options": options})),
            Just(json!({"type": "bool"})),
        ],
        value in prop_oneof![value(), any::<f64>().prop_map(Value::Number)],
    ) {
        // From a peer: any JSON is read or refused, never a panic.
        if let Ok(schema) = serde_json::from_value::<ValueSchema>(schema) {
            let _ = schema.check(&value);
        }
        let schema: ValueSchema = match serde_json::from_value(typed.clone()) {
            Ok(schema) => schema,
            // `null` bounds are absent bounds; anything else must read.
            Err(e) => return Err(TestCaseError::fail(format!("{typed}: {e}"))),
        };
        let verdict = schema.check(&value);
        match (&schema, &value) {
            (ValueSchema::Number { min, max, .. }, Value::Number(n)) => {
                if verdict.is_ok() {
                    prop_assert!(n.is_finite());
                    prop_assert!(min.is_none_or(|m| *n >= m) && max.is_none_or(|m| *n <= m));
                }
            }
            (ValueSchema::Text { max_len }, Value::Text(t)) => {
                let fits = max_len.is_none_or(|m| t.chars().count() <= m as usize);
                prop_assert_eq!(verdict.is_ok(), fits);
            }
            (ValueSchema::Options { options }, Value::Text(t)) => {
                prop_assert_eq!(verdict.is_ok(), options.contains(t));
            }
            (ValueSchema::Bool, Value::Bool(_)) => prop_assert!(verdict.is_ok()),
            _ => prop_assert!(verdict.is_err()),
        }
        if let Err(e) = verdict {
            prop_assert!(!e.to_string().is_empty());
        }
    }
}

// ---------------------------------------------------------------------------------
// Inputs the properties above found failing, kept as plain tests.

/// An `[index=…]` of `u32::MAX` from a peer overflowed the outline's "follows its
/// sibling" check (`index + 1`): a panic in the bridge's reader.
#[test]
fn an_index_of_u32_max_does_not_overflow_the_outline() {
    let mut tree = Tree::default();
    let mut list = Node::default();
    list.id = "list".into();
    for (id, index) in [("list/a", u32::MAX), ("list/b", 0)] {
        let mut item = Node::default();
        item.id = id.into();
        item.position.index = Some(index);
        list.children.push(item);
    }
    tree.roots.push(list);
    assert_eq!(tree.outline().lines().count(), 3);
}

/// `serde_json`'s default float parser read `-918051.2901375561` back one ulp off: the
/// bridge showed (and diffed) a value the app never had.
#[test]
fn a_number_crosses_the_wire_exactly() {
    for n in [-918_051.290_137_556_1, 0.1 + 0.2, 1e-300, f64::MAX] {
        let json = serde_json::to_string(&Value::Number(n)).unwrap();
        assert_eq!(
            serde_json::from_str::<Value>(&json).unwrap(),
            Value::Number(n),
            "{json}"
        );
    }
}
