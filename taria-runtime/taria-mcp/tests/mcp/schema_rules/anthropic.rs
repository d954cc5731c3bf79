//! Anthropic's rules: `input_schema`, a JSON Schema object for the arguments.

use serde_json::Value;

use super::{Findings, children, fields, object_root};

/// JSON Schema's type names.
const JSON_SCHEMA_TYPES: &[&str] = &[
    "string", "number", "integer", "boolean", "array", "object", "null",
];

/// Anthropic `input_schema`: a JSON Schema object for the arguments.
pub(super) fn anthropic(schema: &Value) -> Findings {
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
