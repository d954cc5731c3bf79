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

// ---------------------------------------------------------------------------------
// OpenAI

/// OpenAI function calling, non-strict: what the API refuses a request for.
fn openai(schema: &Value) -> Findings {
    fn walk(schema: &Value, at: &str, found: &mut Findings) {
        let Some(fields) = self::fields(schema, at, found) else {
            return;
        };
        // "Invalid schema for function …: In context=(…), object schema missing
        // properties" (also for a tool without arguments, `{"type": "object"}`).
        if is_type(fields, "object") && !fields.get("properties").is_some_and(Value::is_object) {
            found.push(format!("OpenAI: {at}: object schema missing properties"));
        }
        // "array schema missing items".
        if is_type(fields, "array") && !fields.contains_key("items") {
            found.push(format!("OpenAI: {at}: array schema missing items"));
        }
        for (inner_at, inner) in children(fields, at) {
            walk(&inner, &inner_at, found);
        }
    }
    let mut found = Findings::new();
    if let Some(fields) = fields(schema, "OpenAI", &mut found) {
        object_root(fields, "OpenAI", &mut found);
    }
    walk(schema, "", &mut found);
    found
}

/// Keywords structured outputs' strict mode supports ("Supported schemas"); anything
/// else (`allOf`, `not`, `oneOf`, `if`/`then`/`else`, `dependentRequired`,
/// `patternProperties`, `default`, …) is refused.
const OPENAI_STRICT_KEYWORDS: &[&str] = &[
    "type",
    "description",
    "title",
    "properties",
    "required",
    "additionalProperties",
    "items",
    "enum",
    "const",
    "anyOf",
    "$ref",
    "$defs",
    "pattern",
    "format",
    "minimum",
    "maximum",
    "exclusiveMinimum",
    "exclusiveMaximum",
    "multipleOf",
    "minItems",
    "maxItems",
];

/// OpenAI strict mode (`"strict": true`, structured outputs' supported schemas).
fn openai_strict(schema: &Value) -> Findings {
    fn walk(
        schema: &Value,
        at: &str,
        depth: usize,
        totals: &mut (usize, usize),
        found: &mut Findings,
    ) {
        let Some(fields) = self::fields(schema, at, found) else {
            return;
        };
        for keyword in fields.keys() {
            if !OPENAI_STRICT_KEYWORDS.contains(&keyword.as_str()) {
                found.push(format!("OpenAI strict: {at}: `{keyword}` is not supported"));
            }
        }
        // Every schema says its type (a union with "null" is how a value is optional).
        if !["type", "anyOf", "$ref", "enum", "const"]
            .iter()
            .any(|k| fields.contains_key(*k))
        {
            found.push(format!("OpenAI strict: {at}: no `type`"));
        }
        if is_type(fields, "object") {
            // "additionalProperties: false must always be set in objects".
            if fields.get("additionalProperties") != Some(&json!(false)) {
                found.push(format!(
                    "OpenAI strict: {at}: `additionalProperties` is not false"
                ));
            }
            // "All fields must be required": `required` names every property.
            let required = required_names(fields);
            for name in property_names(fields) {
                if !required.contains(&name) {
                    found.push(format!(
                        "OpenAI strict: {at}: `{name}` is not in `required`"
                    ));
                }
            }
            totals.0 += property_names(fields).len();
            // "up to 10 levels of nesting".
            if depth > 10 {
                found.push(format!("OpenAI strict: {at}: over 10 levels of nesting"));
            }
        }
        if let Some(Value::Array(values)) = fields.get("enum") {
            totals.1 += values.len();
        }
        let deeper = depth + usize::from(is_type(fields, "object"));
        for (inner_at, inner) in children(fields, at) {
            walk(&inner, &inner_at, deeper, totals, found);
        }
    }
    let mut found = openai(schema);
    let mut totals = (0, 0);
    walk(schema, "", 0, &mut totals, &mut found);
    // "A schema may have up to 5000 object properties total"; "up to 1000 enum values
    // across all enum properties".
    if totals.0 > 5000 {
        found.push(format!(
            "OpenAI strict: {} properties (over 5000)",
            totals.0
        ));
    }
    if totals.1 > 1000 {
        found.push(format!(
            "OpenAI strict: {} enum values (over 1000)",
            totals.1
        ));
    }
    found
}

/// A schema as a strict-mode host converts it before sending it (OpenAI's Agents SDK,
/// Codex and others): every property required, the ones that were optional nullable,
/// `additionalProperties: false` on every object. A model then fills every optional
/// argument, with `null` or an empty value: see `empty_arguments.rs`.
pub(crate) fn strict_form(schema: &Value) -> Value {
    let mut schema = schema.clone();
    let Value::Object(fields) = &mut schema else {
        return schema;
    };
    let required = required_names(fields)
        .into_iter()
        .map(str::to_owned)
        .collect::<Vec<_>>();
    if let Some(Value::Object(named)) = fields.get_mut("properties") {
        for (name, property) in named.iter_mut() {
            *property = strict_form(property);
            if !required.contains(name)
                && let Value::Object(property) = property
            {
                nullable(property);
            }
        }
    }
    if let Some(items) = fields.get_mut("items") {
        *items = strict_form(items);
    }
    if is_type(fields, "object") {
        let every: Vec<Value> = property_names(fields)
            .into_iter()
            .map(Value::from)
            .collect();
        fields.insert("required".into(), Value::Array(every));
        fields.insert("additionalProperties".into(), Value::Bool(false));
    }
    schema
}

/// `null` allowed too, as a strict host writes an optional argument.
fn nullable(property: &mut Map<String, Value>) {
    if let Some(Value::Array(branches)) = property.get_mut("anyOf") {
        branches.push(json!({"type": "null"}));
    } else if let Some(Value::String(only)) = property.get("type") {
        let only = only.clone();
        property.insert("type".into(), json!([only, "null"]));
    }
    if let Some(Value::Array(values)) = property.get_mut("enum") {
        values.push(Value::Null);
    }
}

// ---------------------------------------------------------------------------------
// Gemini

/// The fields of Gemini's `Schema` (ai.google.dev/api/caching#Schema).
const GEMINI_SCHEMA_FIELDS: &[&str] = &[
    "type",
    "format",
    "title",
    "description",
    "nullable",
    "enum",
    "maxItems",
    "minItems",
    "properties",
    "required",
    "minProperties",
    "maxProperties",
    "minLength",
    "maxLength",
    "pattern",
    "example",
    "anyOf",
    "propertyOrdering",
    "default",
    "items",
    "minimum",
    "maximum",
];

/// Gemini `FunctionDeclaration.parameters`: a `Schema`, an OpenAPI 3.0 subset.
fn gemini_parameters(schema: &Value) -> Findings {
    fn walk(schema: &Value, at: &str, root: bool, found: &mut Findings) {
        let Some(fields) = self::fields(schema, at, found) else {
            return;
        };
        for keyword in fields.keys() {
            if !GEMINI_SCHEMA_FIELDS.contains(&keyword.as_str()) {
                // "Invalid JSON payload received. Unknown name \"additionalProperties\"".
                found.push(format!(
                    "Gemini parameters: {at}: unknown field `{keyword}`"
                ));
            }
        }
        // `type` is one of the OpenAPI data types, one only ("or a union of those
        // types (using anyOf)"): no type arrays, no "null" (that is `nullable`).
        let kind = match fields.get("type") {
            Some(Value::String(kind)) => kind.to_lowercase(),
            Some(other) => {
                found.push(format!(
                    "Gemini parameters: {at}: `type` {other} is not one type"
                ));
                String::new()
            }
            None if fields.contains_key("anyOf") => String::new(),
            None => {
                found.push(format!("Gemini parameters: {at}: no `type`"));
                String::new()
            }
        };
        let known = [
            "string", "number", "integer", "boolean", "array", "object", "",
        ];
        if !known.contains(&kind.as_str()) {
            found.push(format!(
                "Gemini parameters: {at}: `type` {kind} is not an OpenAPI type"
            ));
        }
        // "Only a subset of fields is valid for each Type": properties, required and
        // propertyOrdering for objects ("only allowed for OBJECT type"), items and
        // min/maxItems for arrays, minimum/maximum for numbers, enum for strings.
        let only_for = [
            ("properties", "object"),
            ("required", "object"),
            ("propertyOrdering", "object"),
            ("items", "array"),
            ("minItems", "array"),
            ("maxItems", "array"),
            ("minimum", "number"),
            ("maximum", "number"),
            ("enum", "string"),
        ];
        for (keyword, kinds) in only_for {
            let fits = kind == kinds || (kinds == "number" && kind == "integer");
            if fields.contains_key(keyword) && !fits {
                found.push(format!(
                    "Gemini parameters: {at}: `{keyword}` only for {kinds}"
                ));
            }
        }
        if kind == "object" {
            // "properties: should be non-empty for OBJECT type". A function without
            // parameters leaves `parameters` unset ("For function with no parameters,
            // this can be left unset"), which is what a root without properties says.
            let names = property_names(fields);
            if names.is_empty() && !root {
                found.push(format!(
                    "Gemini parameters: {at}: properties should be non-empty for OBJECT type"
                ));
            }
            // `required` names properties the object has.
            for name in required_names(fields) {
                if !names.contains(&name) {
                    found.push(format!(
                        "Gemini parameters: {at}: required `{name}` is not a property"
                    ));
                }
            }
            // "Parameter names must start with a letter or an underscore and must only
            // contain chars a-z, A-Z, 0-9, or underscores with a maximum length of 64."
            for name in names {
                let first = name
                    .chars()
                    .next()
                    .is_some_and(|c| c.is_ascii_alphabetic() || c == '_');
                let rest = name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
                if !first || !rest || name.len() > 64 {
                    found.push(format!("Gemini parameters: {at}: parameter name `{name}`"));
                }
            }
        }
        if kind == "array" && !fields.contains_key("items") {
            found.push(format!("Gemini parameters: {at}: array without items"));
        }
        if let Some(Value::Array(values)) = fields.get("enum")
            && !values.iter().all(Value::is_string)
        {
            found.push(format!("Gemini parameters: {at}: enum values are strings"));
        }
        for (inner_at, inner) in children(fields, at) {
            walk(&inner, &inner_at, false, found);
        }
    }
    let mut found = Findings::new();
    walk(schema, "", true, &mut found);
    found
}

/// The JSON Schema keywords `parametersJsonSchema` takes (Gemini's structured output
/// docs, "JSON Schema support"); others are refused or silently dropped, so the
/// schema would not say what it means.
const GEMINI_JSON_SCHEMA_KEYWORDS: &[&str] = &[
    "$id",
    "$defs",
    "$ref",
    "$anchor",
    "type",
    "format",
    "title",
    "description",
    "enum",
    "items",
    "prefixItems",
    "minItems",
    "maxItems",
    "minimum",
    "maximum",
    "anyOf",
    "oneOf",
    "properties",
    "additionalProperties",
    "required",
    "propertyOrdering",
];

/// Gemini `FunctionDeclaration.parametersJsonSchema`.
fn gemini_json_schema(schema: &Value) -> Findings {
    fn walk(schema: &Value, at: &str, found: &mut Findings) {
        let Some(fields) = self::fields(schema, at, found) else {
            return;
        };
        for keyword in fields.keys() {
            if !GEMINI_JSON_SCHEMA_KEYWORDS.contains(&keyword.as_str()) {
                found.push(format!(
                    "Gemini parametersJsonSchema: {at}: `{keyword}` is not supported"
                ));
            }
        }
        for (inner_at, inner) in children(fields, at) {
            walk(&inner, &inner_at, found);
        }
    }
    let mut found = Findings::new();
    if let Some(fields) = fields(schema, "Gemini parametersJsonSchema", &mut found) {
        object_root(fields, "Gemini parametersJsonSchema", &mut found);
    }
    walk(schema, "", &mut found);
    found
}

// ---------------------------------------------------------------------------------
// Anthropic

/// JSON Schema's type names.
const JSON_SCHEMA_TYPES: &[&str] = &[
    "string", "number", "integer", "boolean", "array", "object", "null",
];

/// Anthropic `input_schema`: a JSON Schema object for the arguments.
fn anthropic(schema: &Value) -> Findings {
    fn walk(schema: &Value, at: &str, found: &mut Findings) {
        let Some(fields) = self::fields(schema, at, found) else {
            return;
        };
        let types: Vec<&Value> = match fields.get("type") {
            Some(Value::Array(types)) => types.iter().collect(),
            Some(one) => vec![one],
            None => Vec::new(),
        };
        for kind in types {
            if !kind
                .as_str()
                .is_some_and(|k| JSON_SCHEMA_TYPES.contains(&k))
            {
                found.push(format!(
                    "Anthropic: {at}: `type` {kind} is not a JSON Schema type"
                ));
            }
        }
        if let Some(required) = fields.get("required")
            && !required
                .as_array()
                .is_some_and(|names| names.iter().all(Value::is_string))
        {
            found.push(format!(
                "Anthropic: {at}: `required` is not a list of names"
            ));
        }
        for (inner_at, inner) in children(fields, at) {
            walk(&inner, &inner_at, found);
        }
    }
    let mut found = Findings::new();
    if let Some(fields) = fields(schema, "Anthropic", &mut found) {
        object_root(fields, "Anthropic", &mut found);
    }
    walk(schema, "", &mut found);
    found
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
    assert!(tools.len() >= 10, "{tools:?}");
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
