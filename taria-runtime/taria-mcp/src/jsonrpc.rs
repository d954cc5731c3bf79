//! One line from stdin, read strictly: a message rmcp can serve passes to it, anything
//! else is answered here with the error JSON-RPC defines, carrying the request's id
//! whenever it can be read.
//!
//! rmcp 3.11 ignores lines that are not JSON (truncated, a lone surrogate `"\ud800"`,
//! bytes that are not UTF-8), answers well-formed JSON of the wrong shape with -32600
//! and no id, and routes a known method with params that do not fit it to its "custom
//! request" fallback, answered -32601. A client waiting on such a request would wait
//! forever, or cannot tell which request failed.

use std::fmt;

use rmcp::model::{
    CallToolRequestParams, ClientJsonRpcMessage, ClientRequest, ErrorCode, ErrorData, GetMeta as _,
    InitializeRequestParams, JsonRpcMessage, JsonRpcRequest, ProtocolVersion,
    ReadResourceRequestParams, ServerJsonRpcMessage, SubscribeRequestParams,
};
use serde::de::{DeserializeSeed, Deserializer, IgnoredAny, MapAccess, Visitor};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use serde_json::error::Category;

mod tool_call;

/// What to do with one line.
pub(crate) enum Verdict {
    /// A message rmcp serves.
    Pass(Box<ClientJsonRpcMessage>),
    /// Not one: write this line (JSON and its newline) back instead.
    Answer(Vec<u8>),
    /// Nothing to answer (a blank line, a notification or response that cannot be read).
    Ignore,
}

/// Where a message read before the session started leaves it.
pub(crate) enum Lifecycle {
    /// It starts the session: `initialize`, or a request of a version without a
    /// handshake that names it (and the client) in `_meta`.
    Starts,
    /// rmcp answers it and still waits for the session to start (`ping`,
    /// `server/discover`, a request it refuses for its `_meta`).
    Waits,
    /// A notification or a response: rmcp 3.11 would end the session on it (it expects
    /// a request first), so it is dropped.
    Dropped,
}

/// What `message`, read before the session started, does to it (mirrors rmcp's
/// `serve_server`).
pub(crate) fn before_start(message: &ClientJsonRpcMessage) -> Lifecycle {
    let JsonRpcMessage::Request(request) = message else {
        return Lifecycle::Dropped;
    };
    match &request.request {
        ClientRequest::InitializeRequest(_) => Lifecycle::Starts,
        ClientRequest::PingRequest(_) | ClientRequest::DiscoverRequest(_) => Lifecycle::Waits,
        other => {
            let meta = other.get_meta();
            let named = meta
                .missing_required_keys(&ProtocolVersion::V_2026_07_28)
                .is_empty()
                && meta
                    .protocol_version()
                    .is_some_and(|v| ProtocolVersion::KNOWN_VERSIONS.contains(&v));
            if named {
                Lifecycle::Starts
            } else {
                Lifecycle::Waits
            }
        }
    }
}

/// The requests a client sends that rmcp has a type for: with params of another shape,
/// rmcp reads them as an unknown method.
const KNOWN_METHODS: [&str; 21] = [
    "initialize",
    "ping",
    "server/discover",
    "completion/complete",
    "logging/setLevel",
    "prompts/get",
    "prompts/list",
    "resources/list",
    "resources/templates/list",
    "resources/read",
    "resources/directory/read",
    "resources/subscribe",
    "resources/unsubscribe",
    "subscriptions/listen",
    "tools/call",
    "tools/list",
    "tasks/get",
    "tasks/update",
    "tasks/cancel",
    "skills/list",
    "skills/get",
];

const BATCH: &str = "batches are not supported (MCP has had no JSON-RPC batching since \
                     2025-06-18): send each message on its own line";

/// Reads one line (its newline, a carriage return and a UTF-8 byte order mark are
/// dropped, as rmcp drops them).
pub(crate) fn triage(line: &[u8]) -> Verdict {
    let line = line.strip_suffix(b"\n").unwrap_or(line);
    let line = line.strip_suffix(b"\r").unwrap_or(line);
    let line = line.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(line);
    if line.iter().all(u8::is_ascii_whitespace) {
        return Verdict::Ignore;
    }
    // Most lines are tool calls: read those without rmcp's trial of every type.
    if let Some(message) = tool_call::read(line) {
        return check(message);
    }
    match serde_json::from_slice::<ClientJsonRpcMessage>(line) {
        Ok(message) => check(message),
        Err(e) if e.classify() == Category::Data => match serde_json::from_slice::<Value>(line) {
            Ok(value) => misshapen(&value, &e),
            Err(_) => unreadable(line, &e),
        },
        Err(e) => unreadable(line, &e),
    }
}

/// A line longer than `max` bytes, of which `head` is the start: refused, with the id
/// when the start shows it.
pub(crate) fn too_long(head: &[u8], max: usize) -> Verdict {
    let skeleton = Skeleton::read(head);
    answer(
        skeleton.id.as_ref().and_then(readable_id),
        ErrorCode::INVALID_REQUEST,
        format!(
            "invalid request: the message is longer than {} MiB, the most taria-mcp reads",
            max >> 20
        ),
    )
}

/// The methods MCP 2026-07-28 removed, and what a client of that version does instead.
const REMOVED_IN_2026_07_28: [(&str, &str); 5] = [
    (
        "initialize",
        "there is no handshake: each request names the version in `_meta` \
         (`server/discover` tells which versions the server speaks)",
    ),
    ("ping", "nothing replaces it"),
    (
        "logging/setLevel",
        "a request asks for logs with `io.modelcontextprotocol/logLevel` in its `_meta`",
    ),
    (
        "resources/subscribe",
        "subscribe with `subscriptions/listen`",
    ),
    (
        "resources/unsubscribe",
        "cancel the `subscriptions/listen` request instead",
    ),
];

/// A request whose `_meta` names a version without the `initialize` handshake
/// (2026-07-28 on) for a method that version removed: method not found, whatever its
/// params. rmcp answers `ping` before the session starts whatever `_meta` says, and
/// the rest with -32602 when their params lack the old fields or serves them when
/// they have them.
fn removed_method(request: &JsonRpcRequest<ClientRequest>) -> Option<Verdict> {
    let method = request.request.method();
    let (_, instead) = REMOVED_IN_2026_07_28
        .iter()
        .find(|(removed, _)| *removed == method)?;
    let version = request
        .request
        .get_meta()
        .protocol_version()
        .filter(|v| ProtocolVersion::KNOWN_VERSIONS.contains(v) && !v.has_initialize())?;
    let id = request.id.clone().into_json_value();
    Some(answer(
        Some(&id),
        ErrorCode::METHOD_NOT_FOUND,
        format!(
            "method not found: `{method}` is not a method of MCP {version}, which this \
             request's `_meta` names; {instead}"
        ),
    ))
}

/// A message rmcp read: passed on, unless it is a method the version its `_meta` names
/// does not have, or a known method whose params rmcp could not read (it then took it
/// for an unknown method).
fn check(message: ClientJsonRpcMessage) -> Verdict {
    if let JsonRpcMessage::Request(request) = &message
        && let Some(verdict) = removed_method(request)
    {
        return verdict;
    }
    if let JsonRpcMessage::Request(request) = &message
        && let ClientRequest::CustomRequest(custom) = &request.request
        && KNOWN_METHODS.contains(&custom.method.as_str())
    {
        let id = request.id.clone().into_json_value();
        let why = params_error(&custom.method, custom.params.as_ref());
        return answer(
            Some(&id),
            ErrorCode::INVALID_PARAMS,
            format!("invalid params for `{}`: {why}", custom.method),
        );
    }
    Verdict::Pass(Box::new(message))
}

/// Why `params` do not fit `method`, as serde says it where we know the type.
fn params_error(method: &str, params: Option<&Value>) -> String {
    fn why<T: for<'de> Deserialize<'de>>(params: &Value) -> Option<String> {
        T::deserialize(params).err().map(|e| e.to_string())
    }
    let Some(params) = params else {
        return "`params` is missing".to_owned();
    };
    let said = match method {
        "tools/call" => why::<CallToolRequestParams>(params),
        "initialize" => why::<InitializeRequestParams>(params),
        "resources/read" => why::<ReadResourceRequestParams>(params),
        "resources/subscribe" | "resources/unsubscribe" => why::<SubscribeRequestParams>(params),
        _ => None,
    };
    said.unwrap_or_else(|| "they do not fit the method's schema".to_owned())
}

/// Well-formed JSON that is not a JSON-RPC message rmcp can read.
fn misshapen(value: &Value, error: &serde_json::Error) -> Verdict {
    let fields = match value {
        Value::Object(fields) => fields,
        Value::Array(items) => return batch(items),
        _ => {
            return answer(
                None,
                ErrorCode::INVALID_REQUEST,
                "a JSON-RPC message is an object",
            );
        }
    };
    let id = fields.get("id");
    let readable = id.and_then(readable_id);
    let Some(method) = fields.get("method") else {
        if fields.contains_key("result") || fields.contains_key("error") {
            // A response: JSON-RPC never answers one.
            tracing::warn!(error = %unquoted(&error.to_string()), "ignoring a response from the client that cannot be read");
            return Verdict::Ignore;
        }
        return answer(
            readable,
            ErrorCode::INVALID_REQUEST,
            "no `method`: a request names the method it calls",
        );
    };
    if id.is_none() {
        tracing::warn!(error = %unquoted(&error.to_string()), %method, "ignoring a notification that cannot be read");
        return Verdict::Ignore;
    }
    let why = if fields.get("jsonrpc").and_then(Value::as_str) != Some("2.0") {
        "`jsonrpc` must be \"2.0\"".to_owned()
    } else if !method.is_string() {
        "`method` must be a string".to_owned()
    } else if readable.is_none_or(|id| id.is_number() && rmcp_id(id).is_none()) {
        "`id` must be a string or an integer".to_owned()
    } else if fields
        .get("params")
        .is_some_and(|params| !params.is_object())
    {
        "`params` must be an object".to_owned()
    } else {
        format!("not a request rmcp can read: {error}")
    };
    answer(
        readable,
        ErrorCode::INVALID_REQUEST,
        format!("invalid request: {why}"),
    )
}

/// A JSON array: a JSON-RPC batch. Each request in it is answered (in an array, as
/// JSON-RPC answers a batch) that batches are not supported.
fn batch(items: &[Value]) -> Verdict {
    if items.is_empty() {
        return answer(
            None,
            ErrorCode::INVALID_REQUEST,
            format!("an empty batch; {BATCH}"),
        );
    }
    // Each request is answered, with `null` for an id that cannot be read (an item
    // that is not an object has none); notifications and responses are not.
    let answers: Vec<ErrorLine<'_>> = items
        .iter()
        .filter_map(|item| {
            let Some(fields) = item.as_object() else {
                return Some(ErrorLine::new(None, ErrorCode::INVALID_REQUEST, BATCH));
            };
            fields.get("method")?;
            let id = fields.get("id")?;
            Some(ErrorLine::new(
                readable_id(id),
                ErrorCode::INVALID_REQUEST,
                BATCH,
            ))
        })
        .collect();
    if answers.is_empty() {
        tracing::warn!("ignoring a batch of notifications: {BATCH}");
        return Verdict::Ignore;
    }
    line(&answers)
}

/// A line that is not JSON, or JSON whose strings are not Unicode text.
fn unreadable(line: &[u8], error: &serde_json::Error) -> Verdict {
    let skeleton = Skeleton::read(line);
    let id = skeleton.id.as_ref().and_then(readable_id);
    if !skeleton.complete {
        return answer(
            id,
            ErrorCode::PARSE_ERROR,
            format!("parse error: not JSON ({error}); send one JSON-RPC message per line"),
        );
    }
    // Well-formed except inside `params`, which serde_json refuses to read as text.
    match (skeleton.method, skeleton.id.is_some()) {
        (Some(_), true) => answer(
            id,
            ErrorCode::INVALID_PARAMS,
            format!(
                "invalid params: a string in them is not Unicode text ({error}): a lone UTF-16 \
                 surrogate escape such as \\ud800, or bytes that are not UTF-8; send valid \
                 Unicode"
            ),
        ),
        (Some(method), false) => {
            tracing::warn!(error = %unquoted(&error.to_string()), %method, "ignoring a notification that cannot be read");
            Verdict::Ignore
        }
        (None, _) => answer(
            id,
            ErrorCode::INVALID_REQUEST,
            "no `method`: a request names the method it calls",
        ),
    }
}

/// An id that can be echoed back: a string or a number (rmcp reads only strings and
/// integers, but a client matches the answer by the id it sent).
fn readable_id(id: &Value) -> Option<&Value> {
    (id.is_string() || id.is_number()).then_some(id)
}

/// A numeric id as rmcp reads it: an integer in `i64` (`1.0` included).
fn rmcp_id(id: &Value) -> Option<i64> {
    let number = id.as_number()?;
    number.as_i64().or_else(|| {
        number
            .as_f64()
            .filter(|f| f.fract() == 0.0 && f.abs() < 9_007_199_254_740_992.0)
            .map(|f| {
                #[expect(
                    clippy::cast_possible_truncation,
                    reason = "an integer below 2^53, checked above"
                )]
                let n = f as i64;
                n
            })
    })
}

/// One error response, laid out as rmcp writes them, except that an id that cannot be
/// read is `null` (JSON-RPC 2.0 §5: "it MUST be Null"), not left out as rmcp does.
#[derive(Serialize)]
struct ErrorLine<'a> {
    jsonrpc: &'static str,
    id: Option<&'a Value>,
    error: ErrorData,
}

impl<'a> ErrorLine<'a> {
    fn new(id: Option<&'a Value>, code: ErrorCode, message: impl Into<String>) -> ErrorLine<'a> {
        ErrorLine {
            jsonrpc: "2.0",
            id,
            error: ErrorData::new(code, message.into(), None),
        }
    }
}

/// A message from rmcp as the line written to stdout. An error rmcp could not give an
/// id gets `"id": null`, as JSON-RPC 2.0 wants (rmcp leaves the member out, which
/// MCP 2026-07-28 allows but clients that read JSON-RPC strictly refuse).
pub(crate) fn outgoing(message: &ServerJsonRpcMessage) -> serde_json::Result<Vec<u8>> {
    let mut line = match message {
        JsonRpcMessage::Error(error) if error.id.is_none() => {
            let mut value = serde_json::to_value(message)?;
            if let Value::Object(fields) = &mut value {
                fields.insert("id".into(), Value::Null);
            }
            serde_json::to_vec(&value)?
        }
        _ => serde_json::to_vec(message)?,
    };
    line.push(b'\n');
    Ok(line)
}

/// The answer: one error response.
fn answer(id: Option<&Value>, code: ErrorCode, message: impl Into<String>) -> Verdict {
    let message = message.into();
    let logged = unquoted(&message);
    tracing::warn!(code = code.0, id = ?id, message = %logged, "answered a message rmcp cannot serve");
    line(&ErrorLine::new(id, code, message))
}

/// `message` for the log: what it quotes (serde quotes the value it could not read,
/// which may be a tool call's arguments, a password among them) as `"…"`.
fn unquoted(message: &str) -> String {
    let mut out = String::with_capacity(message.len());
    let mut chars = message.chars();
    while let Some(c) = chars.next() {
        if c != '"' && c != '`' {
            out.push(c);
            continue;
        }
        // To the matching close (a backslash escapes the next character), or the end.
        let close = c;
        let mut escaped = false;
        for inner in chars.by_ref() {
            match inner {
                _ if escaped => escaped = false,
                '\\' => escaped = true,
                _ if inner == close => break,
                _ => {}
            }
        }
        out.push(close);
        out.push('…');
        out.push(close);
    }
    out
}

fn line(answer: &impl Serialize) -> Verdict {
    match serde_json::to_vec(answer) {
        Ok(mut line) => {
            line.push(b'\n');
            Verdict::Answer(line)
        }
        Err(e) => {
            tracing::error!(error = %e, "an error response could not be written");
            Verdict::Ignore
        }
    }
}

/// What can be read of a line that is not JSON rmcp accepts: its `id` and `method` when
/// they come before the damage, and whether the rest is well-formed with `params`
/// skipped unread (`serde_json` skips a string without checking that it is text).
#[derive(Default)]
struct Skeleton {
    id: Option<Value>,
    method: Option<Value>,
    complete: bool,
}

impl Skeleton {
    fn read(line: &[u8]) -> Skeleton {
        let mut skeleton = Skeleton::default();
        let mut reader = serde_json::Deserializer::from_slice(line);
        let read = ReadSkeleton(&mut skeleton).deserialize(&mut reader);
        skeleton.complete = read.is_ok() && reader.end().is_ok();
        skeleton
    }
}

/// Fills a [`Skeleton`] field by field, so what was read before an error is kept.
struct ReadSkeleton<'a>(&'a mut Skeleton);

impl<'de> DeserializeSeed<'de> for ReadSkeleton<'_> {
    type Value = ();

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<(), D::Error> {
        deserializer.deserialize_map(self)
    }
}

impl<'de> Visitor<'de> for ReadSkeleton<'_> {
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a JSON-RPC message (an object)")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        while let Some(key) = map.next_key::<String>()? {
            match key.as_str() {
                "id" => self.0.id = Some(map.next_value()?),
                "method" => self.0.method = Some(map.next_value()?),
                "params" => drop(map.next_value::<IgnoredAny>()?),
                _ => drop(map.next_value::<Value>()?),
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {

    /// What an error quotes (serde quotes the value it could not read: a tool call's
    /// arguments, a password among them) is left out of the log's copy of it.
    #[test]
    fn the_log_leaves_out_what_an_error_quotes() {
        assert_eq!(
            super::unquoted(
                r#"invalid type: string "{\"text\":\"hunter2\"}", expected a map at `x y`"#
            ),
            r#"invalid type: string "…", expected a map at `…`"#
        );
        assert_eq!(super::unquoted("no quotes"), "no quotes");
        assert_eq!(super::unquoted("open \"secret"), "open \"…\"");
    }
    use serde_json::{Value, json};

    use super::{Verdict, triage};

    /// The answer to `line`, parsed.
    fn answer(line: &[u8]) -> Value {
        match triage(line) {
            Verdict::Answer(answer) => serde_json::from_slice(&answer).unwrap(),
            Verdict::Pass(message) => panic!("passed: {message:?}"),
            Verdict::Ignore => panic!("ignored"),
        }
    }

    fn code_and_id(line: &[u8]) -> (i64, Value) {
        let answer = answer(line);
        (
            answer["error"]["code"].as_i64().unwrap(),
            answer.get("id").cloned().expect("every error carries `id`"),
        )
    }

    #[test]
    fn good_lines_pass() {
        for line in [
            &br#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#[..],
            br#"{"jsonrpc":"2.0","id":"a","method":"tools/call","params":{"name":"act","arguments":{"node":"x"}}}"#,
            b"\xEF\xBB\xBF{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}\r\n",
            br#"{"jsonrpc":"2.0","id":2,"method":"no/such/method"}"#,
            br#"{"jsonrpc":"2.0","id":3,"result":{}}"#,
            br#"{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"t","arguments":{"text":"\ud83d\ude00"}}}"#,
        ] {
            assert!(matches!(triage(line), Verdict::Pass(_)), "{line:?}");
        }
        assert!(matches!(triage(b" \r\n"), Verdict::Ignore));
    }

    #[test]
    fn each_edge_gets_its_code_and_the_id() {
        let cases: [(&[u8], i64, Value); 14] = [
            (
                br#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"type_text","arguments":{"text":"\ud800"}}}"#,
                -32602,
                json!(1),
            ),
            (
                b"{\"jsonrpc\":\"2.0\",\"id\":\"b\",\"method\":\"tools/call\",\"params\":{\"name\":\"t\",\"arguments\":{\"text\":\"\xff\"}}}",
                -32602,
                json!("b"),
            ),
            (br#"{"jsonrpc":"2.0","id":2,"method":"tools/li"#, -32700, json!(2)),
            (br#"{"jsonrpc":"2.0","method":"tools/list","id":22"#, -32700, json!(22)),
            (b"not json", -32700, Value::Null),
            (br#"{"jsonrpc":"2.0","id":11,"method":"ping"} x"#, -32700, json!(11)),
            (br#"{"jsonrpc":"2.0","id":3}"#, -32600, json!(3)),
            (br#"{"jsonrpc":"2.0","id":4,"method":"tools/list","params":"nope"}"#, -32600, json!(4)),
            (
                br#"{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"act","arguments":"nope"}}"#,
                -32602,
                json!(5),
            ),
            (br#"{"jsonrpc":"2.0","id":8,"method":"tools/call"}"#, -32602, json!(8)),
            (br#"{"jsonrpc":"2.0","id":9.5,"method":"ping"}"#, -32600, json!(9.5)),
            (br#"{"jsonrpc":"2.0","id":null,"method":"ping"}"#, -32600, Value::Null),
            (br#"{"jsonrpc":"1.0","id":10,"method":"ping"}"#, -32600, json!(10)),
            (br#"{"jsonrpc":"2.0","id":"\ud800","method":"ping"}"#, -32700, Value::Null),
        ];
        for (line, code, id) in cases {
            assert_eq!(
                code_and_id(line),
                (code, id),
                "{}",
                String::from_utf8_lossy(line)
            );
        }
    }

    /// MCP 2026-07-28 removed `initialize`, `ping`, `logging/setLevel` and resource
    /// subscriptions: a request for one of them that names that version in `_meta` is
    /// method not found, with params of the old shape or not; one that names no
    /// version, or one that still has them, passes to rmcp.
    #[test]
    fn the_methods_2026_07_28_removed_are_not_found_in_its_requests() {
        let meta = |version: &str| {
            json!({
                "io.modelcontextprotocol/protocolVersion": version,
                "io.modelcontextprotocol/clientCapabilities": {},
            })
        };
        let old_params = [
            (
                "initialize",
                json!({"protocolVersion": "2025-11-25", "capabilities": {},
                "clientInfo": {"name": "c", "version": "0"}}),
            ),
            ("ping", json!({})),
            ("logging/setLevel", json!({"level": "info"})),
            ("resources/subscribe", json!({"uri": "taria://tree"})),
            ("resources/unsubscribe", json!({"uri": "taria://tree"})),
        ];
        for (id, (method, params)) in (1..).zip(old_params) {
            let mut with_meta = params.clone();
            with_meta["_meta"] = meta("2026-07-28");
            for params in [json!({"_meta": meta("2026-07-28")}), with_meta] {
                let line = json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params});
                let answer = answer(line.to_string().as_bytes());
                assert_eq!(answer["error"]["code"], -32601, "{line}: {answer}");
                assert_eq!(answer["id"], id, "{line}: {answer}");
                let message = answer["error"]["message"].as_str().unwrap();
                assert!(message.contains(method), "{message}");
            }
            let mut older = params.clone();
            older["_meta"] = meta("2025-11-25");
            for params in [params, older] {
                let line = json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params});
                assert!(
                    matches!(triage(line.to_string().as_bytes()), Verdict::Pass(_)),
                    "{line}"
                );
            }
        }
        let listed = json!({"jsonrpc": "2.0", "id": 9, "method": "tools/list",
            "params": {"_meta": meta("2026-07-28")}});
        assert!(matches!(
            triage(listed.to_string().as_bytes()),
            Verdict::Pass(_)
        ));
    }

    #[test]
    fn a_batch_is_refused_request_by_request() {
        let answer = answer(
            br#"[{"jsonrpc":"2.0","id":6,"method":"ping"},{"jsonrpc":"2.0","method":"notifications/initialized"},{"jsonrpc":"2.0","id":"x","method":"tools/list"}]"#,
        );
        let ids: Vec<&Value> = answer
            .as_array()
            .unwrap()
            .iter()
            .map(|a| &a["id"])
            .collect();
        assert_eq!(ids, [&json!(6), &json!("x")]);
        assert!(
            answer
                .as_array()
                .unwrap()
                .iter()
                .all(|a| a["error"]["code"] == -32600)
        );
        assert_eq!(code_and_id(b"[]"), (-32600, Value::Null));
        let unreadable = super::tests::answer(br#"[1,{"jsonrpc":"2.0","id":{},"method":"ping"}]"#);
        assert_eq!(
            unreadable,
            json!([
                {"jsonrpc": "2.0", "id": null, "error": {"code": -32600, "message": super::BATCH}},
                {"jsonrpc": "2.0", "id": null, "error": {"code": -32600, "message": super::BATCH}},
            ])
        );
    }

    #[test]
    fn an_error_rmcp_writes_without_an_id_gets_id_null() {
        let error: rmcp::model::ServerJsonRpcMessage =
            rmcp::model::JsonRpcMessage::Error(rmcp::model::JsonRpcError::new(
                None,
                rmcp::model::ErrorData::new(rmcp::model::ErrorCode::PARSE_ERROR, "x", None),
            ));
        let line: Value = serde_json::from_slice(&super::outgoing(&error).unwrap()).unwrap();
        assert_eq!(line["id"], Value::Null);
        assert!(line.get("id").is_some(), "{line}");
    }

    #[test]
    fn notifications_and_responses_are_never_answered() {
        for line in [
            &br#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"\ud800"}}"#[..],
            br#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":"nope"}"#,
            br#"{"jsonrpc":"2.0","id":1,"result":{},"error":{}}"#,
        ] {
            assert!(
                matches!(triage(line), Verdict::Ignore | Verdict::Pass(_)),
                "{}",
                String::from_utf8_lossy(line)
            );
        }
    }
}
