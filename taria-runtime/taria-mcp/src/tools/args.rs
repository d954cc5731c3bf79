//! Optional arguments filled with empty values mean what leaving them out means.
//!
//! Hosts that call tools in strict mode (OpenAI's structured outputs, and the
//! converters that target it) make every argument required and have the model fill the
//! ones it would leave out with `""`, `null`, `0`, `false` or `[]`. So every optional
//! argument reads those as absent: `root: ""` is the whole tree, `limit: 0` the default.
//! No optional number of ours has a use for 0 (0 levels, results, presses, scroll
//! steps or milliseconds of waiting), so 0 is the filler there too.

use serde::de::{Deserialize, DeserializeOwned, Deserializer, Error as _};
use serde_json::Value as Json;

/// An optional argument: `null`, `""` and `0` are absent, anything else is read as `T`.
pub(crate) fn optional<'de, D, T>(deserializer: D) -> Result<Option<T>, D::Error>
where
    D: Deserializer<'de>,
    T: DeserializeOwned,
{
    let value = Json::deserialize(deserializer)?;
    if is_empty(&value) {
        return Ok(None);
    }
    serde_json::from_value(value)
        .map(Some)
        .map_err(D::Error::custom)
}

/// A flag: `null` is `false`.
pub(crate) fn flag<'de, D: Deserializer<'de>>(deserializer: D) -> Result<bool, D::Error> {
    Ok(Option::<bool>::deserialize(deserializer)?.unwrap_or(false))
}

/// A list of names: `null` is none, and an empty name in it is left out.
pub(crate) fn names<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Vec<String>, D::Error> {
    let names = Option::<Vec<String>>::deserialize(deserializer)?.unwrap_or_default();
    Ok(names.into_iter().filter(|name| !name.is_empty()).collect())
}

/// Whether `value` is what a strict host fills a left-out argument with.
fn is_empty(value: &Json) -> bool {
    match value {
        Json::Null => true,
        Json::String(text) => text.is_empty(),
        Json::Number(n) => n.as_u64() == Some(0),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use serde::Deserialize;
    use serde_json::json;

    #[derive(Debug, Deserialize, PartialEq)]
    struct Args {
        #[serde(default, deserialize_with = "super::optional")]
        root: Option<String>,
        #[serde(default, deserialize_with = "super::optional")]
        depth: Option<usize>,
        #[serde(default, deserialize_with = "super::flag")]
        bounds: bool,
        #[serde(default, deserialize_with = "super::names")]
        state: Vec<String>,
    }

    /// Each empty value reads as the argument left out; real values as themselves,
    /// and a value of the wrong type is still refused.
    #[test]
    fn empty_values_read_as_left_out() {
        let absent = Args {
            root: None,
            depth: None,
            bounds: false,
            state: Vec::new(),
        };
        for filled in [
            json!({}),
            json!({"root": "", "depth": 0, "bounds": false, "state": []}),
            json!({"root": null, "depth": null, "bounds": null, "state": null}),
            json!({"state": [""]}),
        ] {
            assert_eq!(serde_json::from_value::<Args>(filled).unwrap(), absent);
        }
        let given: Args = serde_json::from_value(
            json!({"root": "a", "depth": 2, "bounds": true, "state": ["selected"]}),
        )
        .unwrap();
        assert_eq!((given.root.as_deref(), given.depth), (Some("a"), Some(2)));
        assert!(given.bounds && given.state == ["selected"]);
        let wrong = serde_json::from_value::<Args>(json!({"depth": "two"})).unwrap_err();
        assert!(wrong.to_string().contains("expected usize"), "{wrong}");
    }
}
