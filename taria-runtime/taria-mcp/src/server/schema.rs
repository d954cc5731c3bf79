//! The tools' input schemas as `tools/list` shows them: slimmed to what they accept
//! (the list is put in front of the model on every turn) and accepted by every host's
//! schema rules (`tests/mcp/schema_rules.rs`). No output schemas: `{"type": "object"}`
//! on every tool spent the list's budget (which batch's typed steps need) to say only
//! what MCP already says of `structuredContent`; typed properties would not fit at all.

use std::sync::Arc;

use rmcp::model::JsonObject;

/// A tool's input schema as the model reads it: the arguments and their descriptions,
/// without what costs bytes and says nothing a model or client needs (see
/// [`slim_input_schema`]).
pub(super) fn input_schema<T: schemars::JsonSchema + 'static>() -> Arc<JsonObject> {
    let generated = rmcp::handler::server::common::schema_for_input::<T>()
        .unwrap_or_else(|_| rmcp::handler::server::common::schema_for_empty_input());
    let mut schema = generated.as_ref().clone();
    slim_input_schema(&mut schema);
    Arc::new(schema)
}

/// Slims a generated input schema for `tools/list`, keeping what it accepts: no
/// `$schema`; `$defs` inlined where they are used; a nullable `["T", "null"]` type
/// (or `anyOf` with `null`) of an optional argument is `T` (the argument is left out
/// instead, as it is not `required`); an enum of documented strings (`oneOf` of
/// `const`s) is a plain `enum`; no integer `format`, no `minimum: 0`, no `default`
/// (descriptions give the defaults), no `additionalProperties: false` (an argument a
/// tool does not name is ignored: hosts add their own, as gemini-cli's
/// `wait_for_previous`); descriptions on one
/// line. MCP Inspector's `--strict` portability check passes on the result.
fn slim_input_schema(schema: &mut JsonObject) {
    schema.remove("$schema");
    let defs = schema.remove("$defs").unwrap_or_default();
    slim_schema(schema, &defs);
}

/// [`slim_input_schema`] for one schema object and the schemas inside it.
fn slim_schema(fields: &mut JsonObject, defs: &serde_json::Value) {
    use serde_json::Value;
    if let Some(Value::String(reference)) = fields.get("$ref") {
        let name = reference.strip_prefix("#/$defs/").unwrap_or_default();
        if let Some(Value::Object(def)) = defs.get(name) {
            let def = def.clone();
            fields.remove("$ref");
            for (key, value) in def {
                fields.entry(key).or_insert(value);
            }
        }
    }
    // `anyOf: [S, {"type": "null"}]` → S.
    if let Some(Value::Array(branches)) = fields.get_mut("anyOf") {
        branches.retain(|branch| branch.get("type") != Some(&Value::from("null")));
        if let [Value::Object(only)] = branches.as_slice() {
            let only = only.clone();
            fields.remove("anyOf");
            for (key, value) in only {
                fields.entry(key).or_insert(value);
            }
            return slim_schema(fields, defs);
        }
    }
    // `oneOf` of documented string constants → `enum`.
    let constants: Option<Vec<Value>> = fields
        .get("oneOf")
        .and_then(Value::as_array)
        .and_then(|branches| branches.iter().map(|b| b.get("const").cloned()).collect());
    if let Some(constants) = constants.filter(|c| c.iter().all(Value::is_string)) {
        fields.remove("oneOf");
        fields.insert("type".into(), "string".into());
        fields.insert("enum".into(), Value::Array(constants));
    }
    if let Some(types) = fields.get_mut("type").and_then(Value::as_array_mut) {
        types.retain(|t| t != "null");
        if let [only] = types.as_slice() {
            let only = only.clone();
            fields.insert("type".into(), only);
        }
    }
    fields.remove("format");
    fields.remove("default");
    // Arguments a tool does not name are ignored, not refused (hosts add their own).
    if fields.get("additionalProperties") == Some(&Value::Bool(false)) {
        fields.remove("additionalProperties");
    }
    if fields.get("minimum") == Some(&Value::from(0)) {
        fields.remove("minimum");
    }
    // Rust's doc comments mark names with backticks; a model reads them without.
    if let Some(Value::String(description)) = fields.get_mut("description") {
        *description = description.replace('\n', " ").replace('`', "");
    }
    for (key, value) in fields.iter_mut() {
        match (key.as_str(), value) {
            // Names of arguments: their keys are names, not keywords.
            ("properties", Value::Object(named)) => {
                for property in named.values_mut() {
                    if let Value::Object(property) = property {
                        slim_schema(property, defs);
                    }
                }
            }
            ("items" | "additionalProperties", Value::Object(inner)) => slim_schema(inner, defs),
            ("anyOf" | "oneOf" | "allOf", Value::Array(branches)) => {
                for branch in branches {
                    if let Value::Object(branch) = branch {
                        slim_schema(branch, defs);
                    }
                }
            }
            // Literal values (`enum`, `const`) and keywords without schemas in them.
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::slim_input_schema;

    /// What schemars generates for optional arguments, an enum with documented
    /// variants and nested schemas is slimmed to plain portable keywords.
    #[test]
    fn input_schemas_are_slimmed_to_what_they_accept() {
        let serde_json::Value::Object(mut schema) = json!({
            "$schema": "https://json-schema.org/draft/2020-12/schema",
            "type": "object",
            "additionalProperties": false,
            "properties": {
                "format": {"anyOf": [{"$ref": "#/$defs/Form"}, {"type": "null"}],
                           "description": "Default\noutline."},
                "depth": {"type": ["integer", "null"], "format": "uint", "minimum": 0,
                          "default": null, "description": "Levels."},
                "cols": {"type": "integer", "format": "uint32", "minimum": 10},
                "state": {"type": "array", "default": [], "items": {"type": ["string", "null"]}},
                "properties": {"type": "string", "description": "a name, not a keyword"},
                "enum": {"type": "string", "enum": ["a", "b"]},
            },
            "required": ["cols"],
            "$defs": {"Form": {"description": "dropped", "oneOf": [
                {"const": "outline", "type": "string", "description": "long"},
                {"const": "json", "type": "string", "description": "long"},
            ]}},
        }) else {
            unreachable!("an object")
        };
        slim_input_schema(&mut schema);
        assert_eq!(
            serde_json::Value::Object(schema),
            json!({
                "type": "object",
                "properties": {
                    "format": {"type": "string", "enum": ["outline", "json"],
                               "description": "Default outline."},
                    "depth": {"type": "integer", "description": "Levels."},
                    "cols": {"type": "integer", "minimum": 10},
                    "state": {"type": "array", "items": {"type": "string"}},
                    "properties": {"type": "string", "description": "a name, not a keyword"},
                    "enum": {"type": "string", "enum": ["a", "b"]},
                },
                "required": ["cols"],
            })
        );
    }
}
