//! The input calls the bridge answered, as a person watching the agent wants them
//! listed (the inspector's input log): which tool, the inputs it sent, how it ended,
//! what it changed, how long it took.

use std::time::{Duration, SystemTime};

use crate::journal::Journal;
use crate::logs::InputId;
use rmcp::model::CallToolResult;

/// How many input calls are kept; older ones go.
pub(crate) const INPUT_LOG_CAPACITY: usize = 1000;

/// The longest result text kept for one call, in bytes (cut at a character
/// boundary).
const TEXT_MAX: usize = 8 * 1024;

/// One input call, once answered.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct InputRecord {
    /// The tool: `act`, `type_text`, `press_key`, `batch`, `resize`.
    pub(crate) tool: String,
    /// The inputs it sent, in order (a repeated key or a batch sends several; a call
    /// refused before sending, none).
    pub(crate) inputs: Vec<InputId>,
    /// `delivered` (or another status the result gave), or the error's code.
    pub(crate) status: String,
    /// Whether the result was an error.
    pub(crate) failed: bool,
    /// The ids the result lists as changed (structured `changedIds`).
    pub(crate) changed_ids: Vec<String>,
    /// The text the agent read: the status line and what changed (app text in it is
    /// escaped as the outline escapes it), at most 8 KiB.
    pub(crate) text: String,
    /// When the call's handler started.
    pub(crate) started: SystemTime,
    /// How long the call took, from its handler's start (its turn waited for
    /// included) to its answer.
    pub(crate) latency: Duration,
}

impl InputRecord {
    /// The record of a call to `tool` that sent `inputs`, started at `started`
    /// (`latency` ago), answered with `result`.
    pub(crate) fn of(
        tool: String,
        inputs: Vec<InputId>,
        (started, latency): (SystemTime, Duration),
        result: &CallToolResult,
    ) -> InputRecord {
        let failed = result.is_error == Some(true);
        let structured = result.structured_content.as_ref();
        let field = |name: &str| {
            structured
                .and_then(|s| s.get(name))
                .and_then(serde_json::Value::as_str)
                .map(str::to_owned)
        };
        let status = if failed {
            field("code")
        } else {
            field("status")
        }
        .unwrap_or_else(|| if failed { "error" } else { "done" }.to_owned());
        let changed_ids = structured
            .and_then(|s| s.get("changedIds"))
            .and_then(serde_json::Value::as_array)
            .map(|ids| {
                ids.iter()
                    .filter_map(|id| id.as_str().map(str::to_owned))
                    .collect()
            })
            .unwrap_or_default();
        let mut text: String = result
            .content
            .iter()
            .filter_map(|block| match block {
                rmcp::model::ContentBlock::Text(text) => Some(text.text.as_str()),
                _ => None,
            })
            .collect();
        if text.len() > TEXT_MAX {
            let mut end = TEXT_MAX;
            while !text.is_char_boundary(end) {
                end -= 1;
            }
            text.truncate(end);
            text.push('…');
        }
        InputRecord {
            tool,
            inputs,
            status,
            failed,
            changed_ids,
            text,
            started,
            latency,
        }
    }
}

/// The input log: a [`Journal`] of the calls answered, numbered from 1 for the
/// session's first, read by cursor ([`Journal::read`]) and subscribed to. Cheap to
/// clone.
pub(crate) type InputLog = Journal<InputRecord>;

impl Default for InputLog {
    /// The newest [`INPUT_LOG_CAPACITY`] calls kept.
    fn default() -> InputLog {
        Journal::new(INPUT_LOG_CAPACITY)
    }
}

#[cfg(test)]
mod tests {
    use std::time::{Duration, SystemTime};

    use rmcp::model::{CallToolResult, ContentBlock};
    use serde_json::json;

    use super::{InputLog, InputRecord};
    use crate::logs::InputId;

    /// A record says what the result said: its status or error code, the ids it
    /// changed, its text.
    #[test]
    fn a_record_holds_what_the_result_said() {
        let mut done = CallToolResult::structured(
            json!({"status": "delivered", "changedIds": ["tasks/4"], "revision": 3}),
        );
        done.content = vec![ContentBlock::text("delivered, revision 3\n- list_item …")];
        let mut failed = CallToolResult::structured_error(json!({"code": "not_found"}));
        failed.content = vec![ContentBlock::text("error not_found: no node")];
        let at = (SystemTime::now(), Duration::from_millis(12));
        let inputs = vec![InputId {
            generation: 1,
            seq: 7,
        }];
        let log = InputLog::default();
        let newest = log.subscribe();
        log.push(InputRecord::of("act".into(), inputs, at, &done));
        log.push(InputRecord::of("press_key".into(), Vec::new(), at, &failed));
        let page = log.read(0, 10, |_| true);
        let (first, second) = (&page.entries[0].entry, &page.entries[1].entry);
        assert_eq!((first.status.as_str(), first.failed), ("delivered", false));
        assert_eq!(first.changed_ids, ["tasks/4"]);
        assert!(first.text.starts_with("delivered, revision 3"));
        assert_eq!(first.latency, Duration::from_millis(12));
        assert_eq!((second.status.as_str(), second.failed), ("not_found", true));
        assert_eq!(log.newest(), 2);
        assert_eq!(*newest.borrow(), 2, "a subscriber sees the newest");
    }
}
