//! OpenAI's rules: function calling's `parameters`, and structured outputs' strict
//! mode, on the schema as a strict host converts it ([`strict_form`]).

use serde_json::{Map, Value, json};

use super::{Findings, children, fields, is_type, object_root, property_names, required_names};

/// OpenAI function calling, non-strict: what the API refuses a request for.
pub(super) fn openai(schema: &Value) -> Findings {
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
pub(super) fn openai_strict(schema: &Value) -> Findings {
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
