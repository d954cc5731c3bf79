//! Protocol messages from arbitrary bytes and from valid lines mangled (fields
//! replaced, removed, cut short), and a tree's JSON round trip.

use proptest::collection::vec;
use proptest::option;
use proptest::prelude::*;
use serde_json::Value as Json;
use taria::{Tree, Value};

use crate::checks::decodes_sanely;
use crate::generators::{KEYS, config, json, tree};

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
    r##"{"type":"screen","revision":3,"cols":4,"rows":["ok界"],"styles":{"styles":[{"fg":"Red","bg":"#0080FF","modifiers":["bold","reversed"]},{}],"rows":[[["ok",2,0],["界",2,1]]]}}"##,
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
    r#"{"type":"get_screen","styles":true}"#,
];

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
    fn a_tree_survives_its_json(tree in tree()) {
        let json = serde_json::to_string(&tree).unwrap();
        let back: Tree = serde_json::from_str(&json).unwrap();
        prop_assert_eq!(back, tree, "{}", json);
    }
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
