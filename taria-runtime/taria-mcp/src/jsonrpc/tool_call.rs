//! A `tools/call` request read straight into its type: every tool call is one, and
//! rmcp's reading of a client message finds its type by trial. Its `ClientRequest`
//! is an untagged union of 22 request types, `tools/call` the 14th, so serde
//! buffered the line and tried (and failed, building an error) each type before it:
//! about 50 µs of each act's round trip through the bridge, more than any other
//! step of it (`benches/mcp/act_latency.py`).
//!
//! The reading is rmcp's own (`JsonRpcRequest<CallToolRequest>`), entered at the type
//! the union would have ended at. Anything that is not plainly such a request (another
//! method, a `result` or `error` key, a duplicate key, params that are not a
//! `CallToolRequestParams`) is left to the general reading, which then answers it as
//! before: [`read`] gives the message rmcp's reading gives, or nothing.

use std::borrow::Cow;

use rmcp::model::{
    CallToolRequest, ClientJsonRpcMessage, ClientRequest, JsonRpcMessage, JsonRpcRequest,
};
use serde::Deserialize;
use serde::de::{Deserializer, IgnoredAny};

/// The keys rmcp classifies a message by (`JsonRpcMessageShape`: a request has
/// `method` and `id`, and neither `result` nor `error`), and the method.
#[derive(Deserialize)]
struct Shape<'a> {
    #[serde(borrow, default)]
    method: Option<Cow<'a, str>>,
    #[serde(default)]
    id: Present,
    #[serde(default)]
    result: Present,
    #[serde(default)]
    error: Present,
}

/// Whether a key is there, whatever its value (`null` included, as rmcp counts keys).
#[derive(Default)]
struct Present(bool);

impl<'de> Deserialize<'de> for Present {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Present, D::Error> {
        IgnoredAny::deserialize(deserializer).map(|_| Present(true))
    }
}

/// `line` (one JSON message, without its newline) as rmcp reads it, when it is a
/// `tools/call` request rmcp can read; `None` otherwise.
pub(super) fn read(line: &[u8]) -> Option<ClientJsonRpcMessage> {
    let shape: Shape<'_> = serde_json::from_slice(line).ok()?;
    let request = shape.method.as_deref() == Some("tools/call")
        && shape.id.0
        && !shape.result.0
        && !shape.error.0;
    if !request {
        return None;
    }
    let JsonRpcRequest {
        jsonrpc,
        id,
        request,
    } = serde_json::from_slice::<JsonRpcRequest<CallToolRequest>>(line).ok()?;
    Some(JsonRpcMessage::Request(JsonRpcRequest {
        jsonrpc,
        id,
        request: ClientRequest::CallToolRequest(request),
    }))
}

#[cfg(test)]
mod tests {
    use rmcp::model::ClientJsonRpcMessage;

    /// What rmcp's own reading makes of `line`.
    fn general(line: &str) -> Option<ClientJsonRpcMessage> {
        serde_json::from_str(line).ok()
    }

    /// Both readings as comparable text: the JSON they write back (the request's
    /// `_meta` included) and their `Debug` form (which names the request's type).
    fn seen(message: Option<&ClientJsonRpcMessage>) -> Option<(String, String)> {
        message.map(|m| (serde_json::to_string(m).unwrap(), format!("{m:?}")))
    }

    #[test]
    fn a_tool_call_reads_as_rmcp_reads_it_and_anything_else_is_left_to_rmcp() {
        let calls = [
            r#"{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"act","arguments":{"node":"tasks/2","action":"toggle"}}}"#,
            r#"{"jsonrpc":"2.0","id":"x-1","method":"tools/call","params":{"name":"read_tree"}}"#,
            r#"{"method":"tools/call","params":{"name":"act","arguments":{"value":1.5e300,"n":-0.0,"big":18446744073709551615}},"id":-3,"jsonrpc":"2.0"}"#,
            r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"act","_meta":{"progressToken":"p","io.modelcontextprotocol/protocolVersion":"2026-07-28"},"arguments":{}}}"#,
            r#"{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"act","arguments":{"text":"\ud83d\ude00 \u00e9\n"}},"extra":{"a":[1,2]}}"#,
            r#"{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"act","requestState":"s","inputResponses":{}}}"#,
            r#"{"jsonrpc":"2.0","id":4,"meth\u006fd":"tools/call","params":{"name":"act"}}"#,
        ];
        for line in calls {
            let fast = super::read(line.as_bytes());
            assert!(fast.is_some(), "{line}");
            assert_eq!(seen(fast.as_ref()), seen(general(line).as_ref()), "{line}");
        }
        // Not plainly a tool call rmcp can read: left to the general reading, which
        // refuses it or reads it as another kind of message.
        let others = [
            r#"{"jsonrpc":"2.0","id":1,"method":"tools/list"}"#,
            r#"{"jsonrpc":"2.0","method":"tools/call","params":{"name":"act"}}"#,
            r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"act"},"result":null}"#,
            r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"act"},"error":{}}"#,
            r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","method":"tools/call","params":{"name":"act"}}"#,
            r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"arguments":{}}}"#,
            r#"{"jsonrpc":"2.0","id":1,"method":"tools/call"}"#,
            r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"act","arguments":"nope"}}"#,
            r#"{"jsonrpc":"1.0","id":1,"method":"tools/call","params":{"name":"act"}}"#,
            r#"{"jsonrpc":"2.0","id":null,"method":"tools/call","params":{"name":"act"}}"#,
            r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"act","arguments":{"t":"\ud800"}}}"#,
            r#"{"jsonrpc":"2.0","id":1,"method":7,"params":{"name":"act"}}"#,
            r#"[{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"act"}}]"#,
            r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"act"}"#,
        ];
        for line in others {
            assert!(super::read(line.as_bytes()).is_none(), "{line}");
        }
    }
}
