//! Gemini's rules: `FunctionDeclaration.parameters` (an OpenAPI 3.0 Schema subset)
//! and `parametersJsonSchema` (a JSON Schema subset).

use serde_json::Value;

use super::{Findings, children, fields, object_root, property_names, required_names};

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
pub(super) fn gemini_parameters(schema: &Value) -> Findings {
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
pub(super) fn gemini_json_schema(schema: &Value) -> Findings {
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
