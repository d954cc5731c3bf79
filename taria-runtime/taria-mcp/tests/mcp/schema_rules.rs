//! Every host's documented rules for a tool's input schema, checked on the real
//! `tools/list` (no network): OpenAI function calling (and its strict mode), Gemini's
//! `parameters` (an OpenAPI 3.0 Schema subset) and `parametersJsonSchema`, Anthropic's
//! `input_schema`. One bad schema fails a host's whole request, so each rule here is
//! one a host refuses a request for. Each rule cites where it is written.
//!
//! Sources (as of late 2026):
//! * OpenAI: platform.openai.com/docs/guides/function-calling and
//!   /docs/guides/structured-outputs#supported-schemas; the API's own refusals
//!   (`invalid_function_parameters`: "object schema missing properties", "array
//!   schema missing items", "'additionalProperties' is required to be supplied and to
//!   be false", "'required' is required to be supplied and to be an array including
//!   every key in properties").
//! * Gemini: ai.google.dev/api/caching#FunctionDeclaration and #Schema ("a select
//!   subset of an OpenAPI 3.0 schema object"), its refusals ("properties: should be
//!   non-empty for OBJECT type", "only allowed for OBJECT type"), and
//!   ai.google.dev/gemini-api/docs/structured-output (the JSON Schema subset
//!   `parametersJsonSchema` takes).
//! * Anthropic: docs.anthropic.com/en/docs/build-with-claude/tool-use (`input_schema`,
//!   a JSON Schema object; tool names `^[a-zA-Z0-9_-]{1,64}$`).

use serde_json::{Map, Value, json};

use crate::harness::{Mcp, temp_socket};

mod anthropic;
mod gemini;
mod openai;

use anthropic::anthropic;
use gemini::{gemini_json_schema, gemini_parameters};
pub(crate) use openai::strict_form;
use openai::{openai, openai_strict};

/// What a checker found: one line per broken rule, with where in the schema.
type Findings = Vec<String>;

/// A schema object's fields, or a finding that it is not one.
fn fields<'s>(schema: &'s Value, at: &str, found: &mut Findings) -> Option<&'s Map<String, Value>> {
    let fields = schema.as_object();
    if fields.is_none() {
        found.push(format!("{at}: `{schema}` is not a schema object"));
    }
    fields
}

/// The schemas directly inside `fields`, with their paths.
fn children(fields: &Map<String, Value>, at: &str) -> Vec<(String, Value)> {
    let mut inner = Vec::new();
    if let Some(Value::Object(named)) = fields.get("properties") {
        inner.extend(
            named
                .iter()
                .map(|(name, s)| (format!("{at}.{name}"), s.clone())),
        );
    }
    if let Some(items) = fields.get("items") {
        inner.push((format!("{at}[]"), items.clone()));
    }
    for keyword in ["anyOf", "oneOf", "allOf"] {
        if let Some(Value::Array(branches)) = fields.get(keyword) {
            inner.extend(
                branches
                    .iter()
                    .enumerate()
                    .map(|(i, s)| (format!("{at}|{i}"), s.clone())),
            );
        }
    }
    inner
}

/// The object's property names.
fn property_names(fields: &Map<String, Value>) -> Vec<&str> {
    fields
        .get("properties")
        .and_then(Value::as_object)
        .map(|named| named.keys().map(String::as_str).collect())
        .unwrap_or_default()
}

/// The names in `required`.
fn required_names(fields: &Map<String, Value>) -> Vec<&str> {
    fields
        .get("required")
        .and_then(Value::as_array)
        .map(|names| names.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default()
}

fn is_type(fields: &Map<String, Value>, name: &str) -> bool {
    match fields.get("type") {
        Some(Value::String(t)) => t == name,
        Some(Value::Array(types)) => types.iter().any(|t| t == name),
        _ => false,
    }
}

/// The root rule three hosts share: the arguments are an object, and the root is not
/// a combination of schemas.
fn object_root(fields: &Map<String, Value>, host: &str, found: &mut Findings) {
    // OpenAI function calling: "parameters" must be `type: object`; strict mode: "the
    // root level object must not be anyOf". Anthropic: `input_schema` has `type:
    // object` and no oneOf/allOf/anyOf at the top level. Gemini: "The schema must
    // describe an object where the properties are the parameters to the function".
    if fields.get("type") != Some(&json!("object")) {
        found.push(format!("{host}: the root is not `type: object`"));
    }
    for keyword in ["anyOf", "oneOf", "allOf", "enum", "not"] {
        if fields.contains_key(keyword) {
            found.push(format!("{host}: `{keyword}` at the root"));
        }
    }
}

/// Tool names every host takes: OpenAI and Anthropic `^[a-zA-Z0-9_-]{1,64}$`; Gemini
/// "must start with a letter or an underscore", letters, digits, `_`, `.`, `-`, ≤ 64.
fn tool_name(name: &str) -> Findings {
    let ok = (1..=64).contains(&name.len())
        && name.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_')
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-');
    if ok {
        Vec::new()
    } else {
        vec![format!("tool name `{name}`")]
    }
}

/// Every checker's findings on one tool's input schema.
fn every_host(schema: &Value) -> Findings {
    let mut found = openai(schema);
    found.extend(openai_strict(&strict_form(schema)));
    found.extend(gemini_parameters(schema));
    found.extend(gemini_json_schema(schema));
    found.extend(anthropic(schema));
    found
}

/// The real bridge's `tools/list` tools (no app needed).
pub(crate) fn listed_tools() -> Vec<Value> {
    let socket = temp_socket("schema-rules");
    let mut mcp = Mcp::start(&socket, &[]);
    let tools = mcp.request("tools/list", json!({}))["result"]["tools"].clone();
    mcp.finish();
    tools.as_array().unwrap().clone()
}

/// Every tool of the real `tools/list` is accepted by every host's rules: OpenAI
/// (non-strict, and strict after the conversion strict hosts make), Gemini (both
/// fields) and Anthropic. The strict form is not what the bridge lists (its every
/// argument would be required for non-strict hosts too): its size is printed.
#[test]
fn every_host_accepts_every_tool_schema() {
    let tools = listed_tools();
    assert!(tools.len() >= 9, "{tools:?}");
    let mut found = Findings::new();
    let mut strict = Vec::new();
    for tool in &tools {
        let name = tool["name"].as_str().unwrap();
        found.extend(tool_name(name).into_iter().map(|f| format!("{name}: {f}")));
        found.extend(
            every_host(&tool["inputSchema"])
                .into_iter()
                .map(|f| format!("{name}: {f}")),
        );
        let mut converted = tool.clone();
        converted["inputSchema"] = strict_form(&tool["inputSchema"]);
        strict.push(converted);
    }
    assert!(
        found.is_empty(),
        "schemas hosts refuse:\n{}",
        found.join("\n")
    );
    let listed = serde_json::to_string(&tools).unwrap().len();
    let strict = serde_json::to_string(&strict).unwrap().len();
    println!(
        "tools/list: {listed} bytes; in strict form (as strict hosts convert it): {strict} bytes"
    );
}

/// Each checker fails on what its host refuses: the schemas that broke hosts before
/// (`read_screen`'s `{"type":"object"}` on OpenAI, `batch`'s old steps items on
/// Gemini) and one case of each other rule.
#[test]
fn each_checker_refuses_what_its_host_refuses() {
    let refuses = |found: Findings, what: &str| {
        assert!(
            found.iter().any(|f| f.contains(what)),
            "expected `{what}` in {found:?}"
        );
    };
    // The old read_screen.
    refuses(
        openai(&json!({"type": "object"})),
        "object schema missing properties",
    );
    // The old batch: steps' items declare no properties yet require `tool`.
    let old_batch = json!({
        "type": "object",
        "properties": {"steps": {"type": "array", "items": {"type": "object", "required": ["tool"]}}},
        "required": ["steps"],
    });
    refuses(
        gemini_parameters(&old_batch),
        "properties should be non-empty",
    );
    refuses(
        gemini_parameters(&old_batch),
        "required `tool` is not a property",
    );
    refuses(
        openai(&old_batch),
        "steps[]: object schema missing properties",
    );
    // A nullable type written as a union, and a field Gemini's Schema does not have.
    let union = json!({"type": "object", "properties": {"a": {"type": ["string", "null"]}}});
    refuses(gemini_parameters(&union), "is not one type");
    let closed = json!({"type": "object", "properties": {"a": {"type": "string"}}, "additionalProperties": false});
    refuses(
        gemini_parameters(&closed),
        "unknown field `additionalProperties`",
    );
    refuses(
        gemini_parameters(&json!({"type": "string", "properties": {}})),
        "only for object",
    );
    refuses(
        openai(&json!({"type": "object", "properties": {"a": {"type": "array"}}})),
        "array schema missing items",
    );
    // Strict mode: an optional argument as a plain JSON Schema, an unsupported keyword.
    let optional = json!({"type": "object", "properties": {"a": {"type": "string"}}});
    refuses(
        openai_strict(&optional),
        "`additionalProperties` is not false",
    );
    refuses(openai_strict(&optional), "`a` is not in `required`");
    refuses(
        openai_strict(
            &json!({"type": "object", "properties": {}, "additionalProperties": false, "oneOf": []}),
        ),
        "`oneOf` is not supported",
    );
    assert!(openai_strict(&strict_form(&optional)).is_empty());
    // Roots that are not an object of arguments.
    refuses(
        anthropic(&json!({"anyOf": [{"type": "object"}]})),
        "the root is not `type: object`",
    );
    refuses(
        gemini_json_schema(&json!({"type": "object", "properties": {}, "not": {}})),
        "`not` at the root",
    );
    refuses(
        gemini_json_schema(
            &json!({"type": "object", "properties": {"a": {"type": "string", "default": "x"}}}),
        ),
        "`default` is not supported",
    );
    refuses(tool_name("read tree"), "tool name");
}
