//! Listing and reading: `initialize`, `tools/list` and its budget, the instructions,
//! protocol versions, `read_tree` and `find_nodes`.

use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Command, Stdio};

use serde_json::{Value, json};

use crate::harness::{Mcp, RunningApp, outline, temp_socket};

#[test]
fn initialize_lists_tools_with_schemas_and_annotations() {
    let socket = temp_socket("list");
    let mut mcp = Mcp::start(&socket, &[]);
    let tools = mcp.request("tools/list", json!({}));
    let tools = tools["result"]["tools"].as_array().unwrap().clone();
    let names: Vec<&str> = tools.iter().map(|t| t["name"].as_str().unwrap()).collect();
    for name in [
        "read_tree",
        "find_nodes",
        "act",
        "type_text",
        "press_key",
        "wait_for_change",
        "read_logs",
    ] {
        assert!(names.contains(&name), "{name} missing from {names:?}");
    }
    // Folded to pay for read_logs and wait_for_change's filters (issue 24): a value is
    // set with act's set_value, the screen read with read_tree's format screen.
    for gone in ["set_value", "read_screen"] {
        assert!(!names.contains(&gone), "{gone} is folded: {names:?}");
    }
    for tool in &tools {
        let name = tool["name"].as_str().unwrap();
        assert_eq!(tool["inputSchema"]["type"], "object", "{name}");
        // No output schemas: `{"type": "object"}` on every tool said nothing MCP does
        // not (structuredContent is an object), in bytes the budget needs elsewhere.
        assert!(tool.get("outputSchema").is_none(), "{name}");
        assert!(tool["description"].as_str().unwrap().len() > 10, "{name}");
        // Left out, `readOnlyHint` is false (MCP's default).
        let read_only = tool["annotations"]["readOnlyHint"]
            .as_bool()
            .unwrap_or(false);
        let reads = ["read_tree", "find_nodes", "wait_for_change", "read_logs"];
        assert_eq!(read_only, reads.contains(&name), "{name}");
        // Inputs drive the app however it reacts (an act may delete): MCP's default,
        // destructive, is the honest hint; resize (idempotent) is not.
        let not_destructive = tool["annotations"]["destructiveHint"] == false;
        assert_eq!(not_destructive, name == "resize", "{name}");
        // Every argument is described, but those whose name says it all (the
        // instructions and tool descriptions say what a node id is; `amount` sits
        // beside `direction`, "for scroll"; a resize out of range says the range;
        // find_nodes' value sits beside label, "part of the label"; wait_for_change's
        // filters are find_nodes', its description says; read_logs' since is the
        // cursor its description names, and its limit is find_nodes').
        let arguments = tool["inputSchema"]["properties"].as_object();
        for (field, schema) in arguments.into_iter().flatten() {
            let plain = matches!(
                (name, field.as_str()),
                ("act", "node" | "amount")
                    | ("find_nodes", "id" | "value")
                    | (
                        "wait_for_change",
                        "role" | "label" | "value" | "id" | "action" | "state"
                    )
                    | ("read_logs", "since" | "limit")
                    | ("resize", "cols" | "rows")
            );
            assert_eq!(
                schema["description"].is_string(),
                !plain,
                "{name}.{field}: described unless its name says it all"
            );
        }
    }
    let act = tools.iter().find(|t| t["name"] == "act").unwrap();
    assert_eq!(act["inputSchema"]["required"], json!(["node", "action"]));

    let resources = mcp.request("resources/list", json!({}));
    assert_eq!(resources["result"]["resources"][0]["uri"], "taria://tree");
    mcp.finish();
}

/// The tool surface a host puts in front of the model on every turn stays small:
/// `tools/list` (its tools array as compact JSON) is at most 4,000 bytes with every
/// tool in it, and its schemas use only keywords every client maps (what MCP
/// Inspector's `--strict` check asks for; CI runs that check too).
#[test]
fn tools_list_fits_its_budget_with_every_tool_and_portable_schemas() {
    /// Fails on a keyword a portable schema does without, anywhere in `schema`.
    fn portable(schema: &Value, at: &str) {
        let Value::Object(fields) = schema else {
            panic!("{at}: `{schema}` is not a schema object");
        };
        for keyword in ["$schema", "$defs", "$ref", "oneOf", "format", "default"] {
            assert!(
                !fields.contains_key(keyword),
                "{at} has `{keyword}`: {schema}"
            );
        }
        let union = fields.get("type").is_some_and(Value::is_array);
        assert!(!union, "{at}: a union type: {schema}");
        for (keyword, inner) in fields {
            match (keyword.as_str(), inner) {
                ("properties", Value::Object(named)) => {
                    for (name, property) in named {
                        portable(property, &format!("{at}.{name}"));
                    }
                }
                ("items", inner) => portable(inner, &format!("{at}[]")),
                ("anyOf", Value::Array(branches)) => {
                    for branch in branches {
                        portable(branch, &format!("{at}|"));
                    }
                }
                _ => {}
            }
        }
    }
    let socket = temp_socket("budget");
    let mut mcp = Mcp::start(&socket, &[]);
    let tools = mcp.request("tools/list", json!({}))["result"]["tools"].clone();
    let names: Vec<&str> = tools
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["name"].as_str().unwrap())
        .collect();
    for name in [
        "read_tree",
        "find_nodes",
        "act",
        "type_text",
        "press_key",
        "wait_for_change",
        "read_logs",
        "resize",
        "batch",
    ] {
        assert!(names.contains(&name), "{name} missing from {names:?}");
    }
    let listed = serde_json::to_string(&tools).unwrap().len();
    assert!(listed <= 4_000, "tools/list is {listed} bytes: {tools:#}");

    for tool in tools.as_array().unwrap() {
        let name = tool["name"].as_str().unwrap();
        portable(&tool["inputSchema"], &format!("{name}.inputSchema"));
    }
    mcp.finish();
}

/// Starts a fresh bridge, sends `initialize` with `version`, returns the answer.
fn initialize_once(socket: &Path, version: &str) -> Value {
    let mut child = Command::new(env!("CARGO_BIN_EXE_taria-mcp"))
        .arg("--socket")
        .arg(socket)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    writeln!(
        stdin,
        "{}",
        json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
            "protocolVersion": version, "capabilities": {},
            "clientInfo": {"name": "t", "version": "0"}}})
    )
    .unwrap();
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    drop(stdin);
    let _ = child.wait();
    serde_json::from_str(&line).unwrap()
}

#[test]
fn instructions_say_app_text_is_untrusted() {
    let init = initialize_once(&temp_socket("instructions"), "2025-11-25");
    let instructions = init["result"]["instructions"].as_str().unwrap();
    assert!(instructions.contains("untrusted"), "{instructions}");
    // What results no longer repeat is said here once (issue 12.4).
    for said in [
        "positional",
        "stale_reference",
        "inert part of its parent",
        "JSON string",
    ] {
        assert!(instructions.contains(said), "{said}: {instructions}");
    }
    assert_eq!(init["result"]["serverInfo"]["name"], "taria-mcp");
    assert!(init["result"]["capabilities"]["resources"]["subscribe"] == true);
}

/// Every handshake version rmcp knows is agreed to as asked (2026-07-28, which has no
/// handshake, is `the_newest_protocol_needs_no_handshake_and_streams_tree_updates`).
/// Clients before 2025-06-18 know no `structuredContent`: every result's text copy
/// carries the same JSON.
#[test]
fn every_handshake_protocol_version_is_negotiated() {
    let socket = temp_socket("versions");
    for version in ["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25"] {
        let init = initialize_once(&socket, version);
        assert_eq!(init["result"]["protocolVersion"], version, "{init}");
    }
    // A version the bridge does not know: it offers its newest with a handshake.
    let init = initialize_once(&socket, "2030-01-01");
    assert_eq!(init["result"]["protocolVersion"], "2025-11-25", "{init}");
}

#[test]
fn read_tree_and_find_nodes() {
    let app = RunningApp::start("read");
    let mut mcp = Mcp::start(&app.socket, &[]);
    let tree = mcp.ok("read_tree", json!({}));
    let text = outline(&tree);
    assert!(text.contains("- list \"Tasks\" [id=tasks]"), "{text}");
    assert!(
        text.contains("list_item \"Walk dog\" [id=tasks/list_item#1 positional]"),
        "{text}"
    );
    assert!(tree["revision"].as_u64().unwrap() >= 1);
    assert_eq!(tree["nodeCount"], 8);
    // Said once, in the instructions, not in every result (issue 12.4).
    assert!(
        tree.get("idGuidance").is_none() && tree.get("note").is_none(),
        "{tree}"
    );

    // Depth 0 is what a strict host fills in for a depth left out: all levels.
    let again = mcp.ok("read_tree", json!({"root": "tasks", "depth": 0}));
    assert!(outline(&again).contains("\"Ship v0\""), "{again}");
    assert!(again.get("truncated").is_none(), "{again}");

    let json_tree = mcp.ok("read_tree", json!({"format": "json", "root": "volume"}));
    assert_eq!(json_tree["tree"][0]["role"], "slider");
    assert_eq!(json_tree["tree"][0]["valueSchema"]["max"], 10.0);
    assert!(
        json_tree["tree"][0].get("children").is_none(),
        "defaults dropped"
    );

    let found = mcp.ok("find_nodes", json!({"role": "list_item", "label": "dog"}));
    assert_eq!(found["total"], 1);
    let hit = &found["matches"][0];
    assert_eq!(hit["id"], "tasks/list_item#1");
    assert_eq!(hit["parentId"], "tasks");
    assert_eq!(hit["actions"], json!(["archive"]));
    assert_eq!(hit["positional"], true);
    assert_eq!(hit["position"], json!({"index": 1, "count": 3}));
    let volume = mcp.ok("find_nodes", json!({"id": "volume"}));
    assert_eq!(
        volume["matches"][0]["valueSchema"],
        json!({"type": "number", "min": 0.0, "max": 10.0, "step": 1.0})
    );
    let invalid = mcp.ok("find_nodes", json!({"state": ["invalid"]}));
    assert_eq!(invalid["matches"][0]["id"], "typed");
    assert_eq!(invalid["matches"][0]["invalidMessage"], "type something");
    let custom = mcp.ok("find_nodes", json!({"action": "archive", "limit": 2}));
    assert_eq!(
        (
            custom["total"].as_u64(),
            custom["matches"].as_array().unwrap().len()
        ),
        (Some(3), 2)
    );

    let bad_role = mcp.fails("find_nodes", json!({"role": "buton"}), "invalid_arguments");
    assert!(bad_role["message"].as_str().unwrap().contains("button"));
    let bad_state = mcp.fails(
        "find_nodes",
        json!({"state": ["pressed"]}),
        "invalid_arguments",
    );
    assert!(bad_state["message"].as_str().unwrap().contains("focused"));
    mcp.fails(
        "find_nodes",
        json!({"action": "explode"}),
        "invalid_arguments",
    );
    mcp.fails("find_nodes", json!({"limit": "many"}), "invalid_arguments");
    mcp.fails("read_tree", json!({"root": "nope"}), "not_found");
    mcp.fails("read_tree", json!({"format": "yaml"}), "invalid_arguments");

    // The tools folded into others (issue 24) say what to call instead.
    let folded = mcp.fails(
        "set_value",
        json!({"node": "volume", "value": 3}),
        "invalid_arguments",
    );
    assert!(
        folded["message"]
            .as_str()
            .unwrap()
            .contains("call act with node, action \"set_value\" and value"),
        "{folded}"
    );
    let folded = mcp.fails("read_screen", json!({}), "invalid_arguments");
    assert!(
        folded["message"]
            .as_str()
            .unwrap()
            .contains("call read_tree with format \"screen\""),
        "{folded}"
    );
    let screen = mcp.ok("read_tree", json!({"format": "screen"}));
    assert_eq!(screen["cols"], 30);
    assert!(
        screen["rows"][1].as_str().unwrap().starts_with("Walk dog"),
        "{screen}"
    );
    mcp.finish();
}
