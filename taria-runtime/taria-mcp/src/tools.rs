//! The tools, one file each (`read_tree.rs`, `act.rs`, …): its arguments, what it
//! does and its result's text for the model. Below them, what they share: the reply
//! ([`reply`]), argument helpers ([`args`]), the filters of `find_nodes` and
//! `wait_for_change` ([`filters`]), finding a node by id ([`lookup`]), the input tools'
//! checks, answers and result ([`input`]) and what an input changed ([`change`]).
//! `server.rs` only routes to them.

pub(crate) mod act;
pub(crate) mod args;
pub(crate) mod batch;
pub(crate) mod change;
pub(crate) mod filters;
pub(crate) mod find_nodes;
pub(crate) mod input;
pub(crate) mod lookup;
pub(crate) mod press_key;
pub(crate) mod read_logs;
pub(crate) mod read_tree;
pub(crate) mod reply;
pub(crate) mod resize;
pub(crate) mod type_text;
pub(crate) mod wait_for_change;

#[cfg(test)]
mod tests {
    //! The tools' argument parsing, fuzzed: any JSON object an MCP client sends is
    //! read or refused with a message, never a panic (`TARIA_FUZZ_CASES` for more).

    use proptest::collection::vec;
    use proptest::prelude::*;
    use serde_json::{Map, Value as Json};

    use super::act::ActArgs;
    use super::find_nodes::FindNodesArgs;
    use super::press_key::PressKeyArgs;
    use super::read_logs::ReadLogsArgs;
    use super::read_tree::ReadTreeArgs;
    use super::reply::parse;
    use super::resize::ResizeArgs;
    use super::type_text::TypeTextArgs;
    use super::wait_for_change::WaitArgs;

    /// Every argument name the tools take, and a few they do not.
    const NAMES: &[&str] = &[
        "format",
        "root",
        "depth",
        "bounds",
        "role",
        "label",
        "id",
        "action",
        "state",
        "limit",
        "since",
        "timeout_ms",
        "node",
        "value",
        "direction",
        "amount",
        "text",
        "key",
        "repeat",
        "cols",
        "rows",
        "timeoutMs",
        "gone",
        "level",
        "_meta",
        "",
    ];

    fn json() -> impl Strategy<Value = Json> {
        let leaf = prop_oneof![
            Just(Json::Null),
            any::<bool>().prop_map(Json::from),
            any::<i64>().prop_map(Json::from),
            any::<u64>().prop_map(Json::from),
            any::<f64>().prop_map(Json::from),
            prop::sample::select(
                &[
                    "outline", "json", "yaml", "button", "selected", "down", "ctrl+s", "", "\u{0}"
                ][..]
            )
            .prop_map(Json::from),
            any::<String>().prop_map(Json::from),
        ];
        leaf.prop_recursive(3, 24, 4, |inner| {
            prop_oneof![
                vec(inner.clone(), 0..4).prop_map(Json::Array),
                vec((prop::sample::select(NAMES), inner), 0..4).prop_map(|fields| {
                    Json::Object(fields.into_iter().map(|(k, v)| (k.to_owned(), v)).collect())
                }),
            ]
        })
    }

    fn arguments() -> impl Strategy<Value = Map<String, Json>> {
        vec((prop::sample::select(NAMES), json()), 0..5)
            .prop_map(|fields| fields.into_iter().map(|(k, v)| (k.to_owned(), v)).collect())
    }

    fn parses_or_explains<T: serde::de::DeserializeOwned + std::fmt::Debug>(
        args: &Map<String, Json>,
    ) -> Option<T> {
        match parse::<T>(args.clone()) {
            Ok(parsed) => Some(parsed),
            Err(e) => {
                assert!(
                    e.message.contains("see the tool's input schema"),
                    "{}",
                    e.message
                );
                None
            }
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig {
            cases: std::env::var("TARIA_FUZZ_CASES").ok().and_then(|c| c.parse().ok()).unwrap_or(256),
            ..ProptestConfig::default()
        })]

        #[test]
        fn any_arguments_are_read_or_refused(args in arguments()) {
            let _ = parses_or_explains::<ReadTreeArgs>(&args);
            let _ = parses_or_explains::<FindNodesArgs>(&args);
            let _ = parses_or_explains::<WaitArgs>(&args);
            let _ = parses_or_explains::<ActArgs>(&args);
            let _ = parses_or_explains::<TypeTextArgs>(&args);
            let _ = parses_or_explains::<ResizeArgs>(&args);
            let _ = parses_or_explains::<ReadLogsArgs>(&args);
            if let Some(press) = parses_or_explains::<PressKeyArgs>(&args) {
                let _ = press.key.parse::<taria_schema::protocol::KeyChord>();
            }
        }
    }
}
