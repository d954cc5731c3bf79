//! Value domains: `ValueSchema::check` agrees with what the schema means, and any
//! schema from a peer is read or refused.

use proptest::collection::vec;
use proptest::option;
use proptest::prelude::*;
use serde_json::json;
use taria::Value;
use taria::node::ValueSchema;

use crate::generators::{config, json, text, value};

proptest! {
    #![proptest_config(config())]

    #[test]
    fn a_value_fits_its_domain_exactly_when_check_says_so(
        schema in json(),
        typed in prop_oneof![
            (option::of(-1e3f64..1e3), option::of(-1e3f64..1e3), option::of(prop_oneof![0.0f64..10.0, Just(0.0), Just(1e-300), Just(f64::MAX)])).prop_map(|(min, max, step)| json!({"type": "number", "min": min, "max": max, "step": step})),
            option::of(0u32..5).prop_map(|max_len| json!({"type": "text", "maxLen": max_len})),
            vec(text(), 0..4).prop_map(|options| json!({"type": "options", "options": options})),
            Just(json!({"type": "bool"})),
        ],
        value in prop_oneof![value(), any::<f64>().prop_map(Value::Number)],
    ) {
        // From a peer: any JSON is read or refused, never a panic.
        if let Ok(schema) = serde_json::from_value::<ValueSchema>(schema) {
            let _ = schema.check(&value);
        }
        let schema: ValueSchema = match serde_json::from_value(typed.clone()) {
            Ok(schema) => schema,
            // `null` bounds are absent bounds; anything else must read.
            Err(e) => return Err(TestCaseError::fail(format!("{typed}: {e}"))),
        };
        let verdict = schema.check(&value);
        match (&schema, &value) {
            (ValueSchema::Number { min, max, .. }, Value::Number(n)) => {
                if verdict.is_ok() {
                    prop_assert!(n.is_finite());
                    prop_assert!(min.is_none_or(|m| *n >= m) && max.is_none_or(|m| *n <= m));
                }
            }
            (ValueSchema::Text { max_len }, Value::Text(t)) => {
                let fits = max_len.is_none_or(|m| t.chars().count() <= m as usize);
                prop_assert_eq!(verdict.is_ok(), fits);
            }
            (ValueSchema::Options { options }, Value::Text(t)) => {
                prop_assert_eq!(verdict.is_ok(), options.contains(t));
            }
            (ValueSchema::Bool, Value::Bool(_)) => prop_assert!(verdict.is_ok()),
            _ => prop_assert!(verdict.is_err()),
        }
        if let Err(e) = verdict {
            prop_assert!(!e.to_string().is_empty());
        }
    }
}
