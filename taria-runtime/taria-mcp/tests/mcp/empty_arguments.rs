//! Optional arguments a strict host fills in: a model calling through OpenAI's strict
//! mode (or a converter for it) must give every argument, and gives the ones it would
//! leave out as `""`, `0`, `false`, `[]` or `null`. Every tool answers those as it
//! answers the arguments left out. The optional arguments are read from the real
//! `tools/list`, so a new tool or argument is covered without a change here.

use std::time::Duration;

use serde_json::{Map, Value, json};

use crate::harness::{Mcp, RunningApp};
use crate::schema_rules::listed_tools;

/// What a strict host fills a left-out argument with.
#[derive(Clone, Copy, Debug)]
enum Filler {
    /// `""`, `0`, `false`, `[]` by the argument's type.
    Empty,
    /// `null` for every argument.
    Null,
}

/// The value `filler` gives an argument of `schema`.
fn filled(schema: &Value, filler: Filler) -> Value {
    match (filler, schema["type"].as_str()) {
        (Filler::Null, _) => Value::Null,
        (Filler::Empty, Some("integer" | "number")) => json!(0),
        (Filler::Empty, Some("boolean")) => json!(false),
        (Filler::Empty, Some("array")) => json!([]),
        (Filler::Empty, Some("object")) => json!({}),
        // A string, or a value of several types (`anyOf`): its first is a string.
        (Filler::Empty, _) => json!(""),
    }
}

/// `arguments` with every optional argument of `schema` the caller left out filled
/// in, inside array items too (a strict host converts nested objects alike).
fn fill(schema: &Value, arguments: &Value, filler: Filler) -> Value {
    match arguments {
        Value::Object(given) => {
            let required: Vec<&str> = schema["required"]
                .as_array()
                .map(|names| names.iter().filter_map(Value::as_str).collect())
                .unwrap_or_default();
            let mut out = Map::new();
            for (name, property) in schema["properties"].as_object().into_iter().flatten() {
                match given.get(name) {
                    Some(value) => {
                        out.insert(name.clone(), fill(property, value, filler));
                    }
                    None if !required.contains(&name.as_str()) => {
                        out.insert(name.clone(), filled(property, filler));
                    }
                    None => {}
                }
            }
            Value::Object(out)
        }
        Value::Array(items) => Value::Array(
            items
                .iter()
                .map(|item| fill(&schema["items"], item, filler))
                .collect(),
        ),
        other => other.clone(),
    }
}

/// The arguments each tool cannot do without, on the shared test app; a tool with
/// required arguments that is not here fails the test, saying so.
fn required_arguments(tool: &str) -> Option<Value> {
    Some(match tool {
        "act" => json!({"node": "refuse", "action": "activate"}),
        "type_text" => json!({"text": "a"}),
        "press_key" => json!({"key": "f5"}),
        "batch" => json!({"steps": [{"tool": "press_key", "key": "f5"}]}),
        "wait_for_change" => json!({"since": 0}),
        "resize" => json!({"cols": 40, "rows": 10}),
        _ => return None,
    })
}

/// A result as compared: whether it failed and its structured content, without the
/// revisions (the bridges count frames, which their apps draw at their own pace).
fn compared(result: &Value) -> Value {
    fn without_revisions(value: &Value) -> Value {
        match value {
            Value::Object(fields) => Value::Object(
                fields
                    .iter()
                    .filter(|(key, _)| key.as_str() != "revision")
                    .map(|(key, value)| (key.clone(), without_revisions(value)))
                    .collect(),
            ),
            Value::Array(items) => Value::Array(items.iter().map(without_revisions).collect()),
            other => other.clone(),
        }
    }
    json!({"isError": result["isError"], "structuredContent": without_revisions(&result["structuredContent"])})
}

/// Every tool, called with each optional argument filled as a strict host fills it
/// (empty values, then `null`s), answers as it does with them left out: the same
/// calls in the same order on three bridges, each to its own copy of the app.
#[test]
fn every_optional_argument_filled_empty_reads_as_left_out() {
    let tools = listed_tools();
    let apps: Vec<RunningApp> = ["empty-absent", "empty-filled", "empty-null"]
        .into_iter()
        .map(RunningApp::start)
        .collect();
    let mut bridges: Vec<Mcp> = apps
        .iter()
        .map(|app| Mcp::start(&app.socket, &[]))
        .collect();
    let mut covered = Vec::new();
    for tool in &tools {
        let name = tool["name"].as_str().unwrap();
        let schema = &tool["inputSchema"];
        let needs_some = schema["required"].as_array().is_some_and(|r| !r.is_empty());
        let base = match required_arguments(name) {
            Some(arguments) => arguments,
            None if !needs_some => json!({}),
            None => panic!("{name} has required arguments: add them to required_arguments()"),
        };
        let calls = [
            base.clone(),
            fill(schema, &base, Filler::Empty),
            fill(schema, &base, Filler::Null),
        ];
        let results: Vec<Value> = bridges
            .iter_mut()
            .zip(&calls)
            .map(|(mcp, arguments)| compared(&mcp.call(name, arguments.clone())))
            .collect();
        for (result, arguments) in results.iter().zip(&calls).skip(1) {
            assert_eq!(
                result, &results[0],
                "{name} with {arguments} answers otherwise than with {base}"
            );
        }
        covered.push(format!("{name} {}", calls[1]));
    }
    // The filled-in calls did fill something: the table is not empty by mistake.
    assert!(
        covered.iter().any(|c| c.contains("\"root\":\"\"")),
        "{covered:#?}"
    );
    for mcp in bridges {
        mcp.finish();
    }
}

/// `timeout_ms: 0`, a strict host's filler, waits as long as the default does (10 s),
/// not not at all: a change 300 ms later is seen.
#[test]
fn a_wait_with_timeout_zero_waits_the_default_time() {
    let app = RunningApp::start("wait-zero");
    let mut mcp = Mcp::start(&app.socket, &[]);
    let now = mcp.ok("read_tree", json!({}))["revision"].clone();
    let wait = mcp.start_calls(&[("wait_for_change", json!({"since": now, "timeout_ms": 0}))]);
    std::thread::sleep(Duration::from_millis(300));
    let set = mcp.start_calls(&[(
        "act",
        json!({"node": "volume", "action": "set_value", "value": 9}),
    )]);
    let results = mcp.results(wait.start..set.end);
    assert_eq!(results[1]["isError"], false, "{}", results[1]);
    assert_eq!(
        results[0]["structuredContent"]["changed"], true,
        "{}",
        results[0]
    );
    mcp.finish();
}
