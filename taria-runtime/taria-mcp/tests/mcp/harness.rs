//! What the tests share: the test app (a list with positional ids, a slider, a button
//! whose handler refuses) and a line-based MCP client over the bridge's stdio ([`Mcp`]).

use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::{Arc, Mutex, mpsc};
use std::time::{Duration, Instant};

use ratatui::Frame;
use ratatui::crossterm::event::{Event, KeyCode};
use ratatui::widgets::Paragraph;
use serde_json::{Value, json};
use taria::{Action, Actions, FromValue, Invocation, Outcome, Role};

use crate::support;

// ---------------------------------------------------------------------------------
// The app: a list with positional ids, a slider, a button whose handler refuses.

#[derive(Default)]
pub(crate) struct App {
    pub(crate) tasks: Vec<String>,
    pub(crate) volume: u8,
    pub(crate) typed: String,
}

impl App {
    pub(crate) fn new() -> App {
        App {
            tasks: vec!["Buy milk".into(), "Walk dog".into(), "Ship v0".into()],
            ..App::default()
        }
    }

    pub(crate) fn render(&self, frame: &mut Frame<'_>) {
        {
            let _list = taria::scope(|n| {
                n.role(Role::List).id("tasks").label("Tasks");
            });
            for (i, title) in self.tasks.iter().enumerate() {
                // No key: the ids are positional (`tasks/list_item#i`).
                taria::leaf(|n| {
                    n.role(Role::ListItem)
                        .label(title)
                        .index(i)
                        .count(self.tasks.len())
                        .custom_action("archive");
                });
            }
        }
        taria::leaf(|n| {
            n.role(Role::Slider)
                .id("volume")
                .label("Volume")
                .value(self.volume)
                .min(0)
                .max(10)
                .step(1)
                .action(Action::SetValue);
        });
        taria::leaf(|n| {
            n.role(Role::Button)
                .id("refuse")
                .label("Refuse")
                .action(Action::Activate);
        });
        taria::leaf(|n| {
            n.role(Role::Button)
                .id("locked")
                .label("Locked")
                .action(Action::Activate)
                .disabled(true);
        });
        taria::leaf(|n| {
            n.role(Role::TextInput)
                .id("typed")
                .label("Typed")
                // Every character the app reads goes here.
                .focused(true)
                .value(self.typed.as_str())
                .invalid(self.typed.is_empty().then_some("type something"));
        });
        frame.render_widget(Paragraph::new(self.tasks.join("\n")), frame.area());
    }

    pub(crate) fn on_event(&mut self, event: &Event) {
        if let Event::Key(key) = event
            && let KeyCode::Char(c) = key.code
        {
            self.typed.push(c);
        }
    }
}

impl Actions for App {
    fn handle_action(&mut self, inv: &Invocation<'_>) -> Outcome {
        match (inv.target(), inv.action().as_str()) {
            ("volume", "set_value") => {
                self.volume = inv
                    .value()
                    .and_then(|v| u8::from_value(v).ok())
                    .unwrap_or(0);
                if self.volume == 10 {
                    tracing::error!(target: "bridge_app", volume = self.volume, "the volume is at its maximum");
                }
                Outcome::Handled
            }
            ("refuse", "activate") => {
                tracing::warn!(target: "bridge_app", "refused a press: not today");
                Outcome::Rejected("not today".into())
            }
            (_, "archive") => {
                let index = inv
                    .target()
                    .rsplit('#')
                    .next()
                    .and_then(|i| i.parse::<usize>().ok());
                match index {
                    Some(i) if i < self.tasks.len() => {
                        let title = self.tasks.remove(i);
                        tracing::info!(target: "bridge_app", "archived {title}");
                        Outcome::Handled
                    }
                    _ => Outcome::Rejected("no such task".into()),
                }
            }
            _ => Outcome::NotHandled,
        }
    }
}

/// The bridge tests' app in the shared test loop.
pub(crate) type RunningApp = support::RunningApp<App>;

impl support::LoopApp for App {
    fn render(&mut self, frame: &mut Frame<'_>) {
        App::render(self, frame);
    }

    fn on_event(&mut self, event: &Event) {
        App::on_event(self, event);
    }
}

pub(crate) fn temp_socket(name: &str) -> PathBuf {
    support::temp_dir(name).join("app.sock")
}

impl support::RunningApp<App> {
    pub(crate) fn start_at(socket: &Path) -> RunningApp {
        Self::launch(socket, App::new(), 30, 6)
    }

    pub(crate) fn start(name: &str) -> RunningApp {
        Self::start_at(&temp_socket(name))
    }
}

// ---------------------------------------------------------------------------------
// A line-based MCP client over the bridge's stdio.

pub(crate) struct Mcp {
    pub(crate) child: Child,
    pub(crate) stdin: Option<ChildStdin>,
    pub(crate) lines: mpsc::Receiver<Value>,
    /// Lines on stdout that were not JSON-RPC.
    pub(crate) stray: Arc<Mutex<Vec<String>>>,
    /// Lines on stderr (the logs).
    pub(crate) stderr: Arc<Mutex<Vec<String>>>,
    pub(crate) notifications: Vec<Value>,
    pub(crate) next_id: u64,
    /// MCP 2026-07-28: no `initialize`; every request names the version in `_meta`.
    pub(crate) modern: bool,
}

/// The protocol version without a handshake, and the `_meta` its requests carry.
pub(crate) const MODERN: &str = "2026-07-28";

/// The text a model reads of a result is a status line and outline lines, not a
/// JSON copy of `structuredContent` with the outline escaped inside it: an error
/// starts `error <code>:`, and every outline line and change line the structured
/// result carries is in the text as it is.
pub(crate) fn check_model_text(result: &Value) {
    let text = result["content"][0]["text"].as_str().unwrap();
    let structured = &result["structuredContent"];
    if structured.is_null() {
        // A host's session (no `--structured`): the text is all there is.
        assert!(
            serde_json::from_str::<serde_json::Map<String, Value>>(text).is_err(),
            "the text is not a JSON object: {text}"
        );
        return;
    }
    assert!(
        serde_json::from_str::<serde_json::Map<String, Value>>(text).is_err(),
        "the text is not a JSON object: {text}"
    );
    if result["isError"] == true {
        let code = structured["code"].as_str().unwrap();
        assert!(text.starts_with(&format!("error {code}: ")), "{text}");
        return;
    }
    for field in ["outline", "changes"] {
        for line in structured[field].as_str().unwrap_or_default().lines() {
            assert!(
                text.lines().any(|l| l == line),
                "{field} line {line:?} not in the text: {text}"
            );
        }
    }
}

impl Mcp {
    pub(crate) fn start(socket: &Path, extra: &[&str]) -> Mcp {
        let mut args = vec!["--socket", socket.to_str().unwrap()];
        args.extend_from_slice(extra);
        Mcp::launch(&args)
    }

    /// Starts `taria-mcp --socket <socket>` for a client of MCP 2026-07-28: no
    /// handshake, `server/discover` first.
    pub(crate) fn start_modern(socket: &Path) -> Mcp {
        Mcp::launch_as(&["--socket", socket.to_str().unwrap()], true)
    }

    /// Starts `taria-mcp <args>` and initializes the session.
    pub(crate) fn launch(args: &[&str]) -> Mcp {
        Mcp::launch_as(args, false)
    }

    /// Starts `taria-mcp <args>`; then `initialize` (2025-11-25), or, when `modern`,
    /// `server/discover` (2026-07-28).
    pub(crate) fn launch_as(args: &[&str], modern: bool) -> Mcp {
        Mcp::launch_after(args, modern, &[])
    }

    /// [`Mcp::launch_as`], writing `first` (raw lines) before the session starts.
    /// The session is a program's (`--structured`): results carry `structuredContent`
    /// beside the text, which these tests read fields from (and check the text
    /// against, [`check_model_text`]); [`Mcp::launch_for_host`] starts one as hosts do.
    pub(crate) fn launch_after(args: &[&str], modern: bool, first: &[&[u8]]) -> Mcp {
        let mut args = args.to_vec();
        let options_at = usize::from(args.first() == Some(&"spawn"));
        args.insert(options_at, "--structured");
        Mcp::launch_exactly(&args, modern, first, "info")
    }

    /// Starts `taria-mcp <args>` as a model's host does (no `--structured`) and
    /// initializes the session (2025-11-25).
    pub(crate) fn launch_for_host(args: &[&str]) -> Mcp {
        Mcp::launch_exactly(args, false, &[], "info")
    }

    /// [`Mcp::launch`], logging what `TARIA_LOG=<log>` asks for.
    pub(crate) fn launch_logging(args: &[&str], log: &str) -> Mcp {
        let mut args = args.to_vec();
        args.insert(0, "--structured");
        Mcp::launch_exactly(&args, false, &[], log)
    }

    /// Starts `taria-mcp` with exactly `args`, logging at `log`.
    fn launch_exactly(args: &[&str], modern: bool, first: &[&[u8]], log: &str) -> Mcp {
        let mut child = Command::new(env!("CARGO_BIN_EXE_taria-mcp"))
            .args(args)
            .env("TARIA_LOG", log)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let stderr = Arc::new(Mutex::new(Vec::new()));
        {
            let (pipe, stderr) = (child.stderr.take().unwrap(), Arc::clone(&stderr));
            std::thread::spawn(move || {
                for line in BufReader::new(pipe).lines() {
                    let Ok(line) = line else { break };
                    stderr.lock().unwrap().push(line);
                }
            });
        }
        let stdout = child.stdout.take().unwrap();
        let (tx, lines) = mpsc::channel();
        let stray = Arc::new(Mutex::new(Vec::new()));
        {
            let stray = Arc::clone(&stray);
            std::thread::spawn(move || {
                for line in BufReader::new(stdout).lines() {
                    let Ok(line) = line else { break };
                    match serde_json::from_str::<Value>(&line) {
                        // An array: the answer to a batch.
                        Ok(message) if message["jsonrpc"] == "2.0" || message.is_array() => {
                            let _ = tx.send(message);
                        }
                        _ => stray.lock().unwrap().push(line),
                    }
                }
            });
        }
        let mut mcp = Mcp {
            stdin: child.stdin.take(),
            child,
            lines,
            stray,
            stderr,
            notifications: Vec::new(),
            next_id: 1,
            modern,
        };
        for line in first {
            let stdin = mcp.stdin.as_mut().unwrap();
            stdin.write_all(line).unwrap();
            stdin.write_all(b"\n").unwrap();
            stdin.flush().unwrap();
        }
        if modern {
            let discovered = mcp.request("server/discover", json!({}));
            let versions = &discovered["result"]["supportedVersions"];
            assert!(
                versions.as_array().unwrap().contains(&json!(MODERN)),
                "{discovered}"
            );
            return mcp;
        }
        let init = mcp.request(
            "initialize",
            json!({
                "protocolVersion": "2025-11-25",
                "capabilities": {},
                "clientInfo": {"name": "taria-test", "version": "0"}
            }),
        );
        assert_eq!(init["result"]["protocolVersion"], "2025-11-25", "{init}");
        mcp.send(&json!({"jsonrpc": "2.0", "method": "notifications/initialized"}));
        mcp
    }

    pub(crate) fn send(&mut self, message: &Value) {
        let stdin = self.stdin.as_mut().unwrap();
        writeln!(stdin, "{message}").unwrap();
        stdin.flush().unwrap();
    }

    /// A request's params as this client's protocol version wants them: from
    /// 2026-07-28 on, each request says who is asking in `_meta`.
    pub(crate) fn params(&self, mut params: Value) -> Value {
        if self.modern {
            params["_meta"] = json!({
                "io.modelcontextprotocol/protocolVersion": MODERN,
                "io.modelcontextprotocol/clientInfo": {"name": "taria-test", "version": "0"},
                "io.modelcontextprotocol/clientCapabilities": {},
            });
        }
        params
    }

    /// Sends a request and returns the whole response (`result` or `error`).
    pub(crate) fn request(&mut self, method: &str, params: Value) -> Value {
        let id = self.next_id;
        self.next_id += 1;
        let params = self.params(params);
        self.send(&json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}));
        let deadline = Instant::now() + Duration::from_secs(20);
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            let message = self
                .lines
                .recv_timeout(left)
                .unwrap_or_else(|_| panic!("no answer to {method}"));
            if message["id"] == id {
                return message;
            }
            self.notifications.push(message);
        }
    }

    /// Waits (up to 5 s) for a notification `matching`, kept or still to come; returns
    /// it and forgets it.
    pub(crate) fn notification(&mut self, what: &str, matching: impl Fn(&Value) -> bool) -> Value {
        let deadline = Instant::now() + Duration::from_secs(5);
        loop {
            if let Some(i) = self.notifications.iter().position(&matching) {
                return self.notifications.remove(i);
            }
            let left = deadline.saturating_duration_since(Instant::now());
            let message = self
                .lines
                .recv_timeout(left)
                .unwrap_or_else(|_| panic!("no {what}: {:?}", self.notifications));
            self.notifications.push(message);
        }
    }

    /// Calls a tool; returns its result (`structuredContent`, `isError`, `content`).
    pub(crate) fn call(&mut self, tool: &str, arguments: Value) -> Value {
        let response = self.request("tools/call", json!({"name": tool, "arguments": arguments}));
        let result = response["result"].clone();
        assert!(result.is_object(), "{tool}: {response}");
        check_model_text(&result);
        result
    }

    /// Sends every call at once (the bridge runs them concurrently); their results, in
    /// the same order.
    pub(crate) fn call_all(&mut self, calls: &[(&str, Value)]) -> Vec<Value> {
        let ids = self.start_calls(calls);
        self.results(ids)
    }

    /// Sends the calls without waiting; their request ids.
    pub(crate) fn start_calls(&mut self, calls: &[(&str, Value)]) -> std::ops::Range<u64> {
        let first = self.next_id;
        for (tool, arguments) in calls {
            let params = self.params(json!({"name": tool, "arguments": arguments}));
            let id = self.next_id;
            self.next_id += 1;
            self.send(
                &json!({"jsonrpc": "2.0", "id": id, "method": "tools/call", "params": params}),
            );
        }
        first..self.next_id
    }

    /// The results of the calls `ids`, in order (up to 20 s).
    pub(crate) fn results(&mut self, ids: std::ops::Range<u64>) -> Vec<Value> {
        self.responses(&ids.collect::<Vec<_>>())
            .into_iter()
            .map(|response| response["result"].clone())
            .collect()
    }

    /// Writes `lines` (one message each) to stdin in one write, as a client that
    /// pipelines its calls does.
    pub(crate) fn write_at_once(&mut self, lines: &[String]) {
        let mut bytes = Vec::new();
        for line in lines {
            bytes.extend_from_slice(line.as_bytes());
            bytes.push(b'\n');
        }
        let stdin = self.stdin.as_mut().unwrap();
        stdin.write_all(&bytes).unwrap();
        stdin.flush().unwrap();
    }

    /// Writes one raw line; returns the next answer (a response, an error or an array
    /// of them), up to 10 s.
    pub(crate) fn answer_to(&mut self, line: &[u8]) -> Value {
        let stdin = self.stdin.as_mut().unwrap();
        stdin.write_all(line).unwrap();
        stdin.write_all(b"\n").unwrap();
        stdin.flush().unwrap();
        let deadline = Instant::now() + Duration::from_secs(10);
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            let message = self
                .lines
                .recv_timeout(left)
                .unwrap_or_else(|_| panic!("no answer to {}", String::from_utf8_lossy(line)));
            if message.is_array() || message.get("method").is_none() {
                return message;
            }
            self.notifications.push(message);
        }
    }

    /// The whole responses (`result` or `error`) to the requests `ids`, in order (up
    /// to 20 s).
    pub(crate) fn responses(&mut self, ids: &[u64]) -> Vec<Value> {
        let mut results = vec![Value::Null; ids.len()];
        let deadline = Instant::now() + Duration::from_secs(20);
        while results.iter().any(Value::is_null) {
            let left = deadline.saturating_duration_since(Instant::now());
            let message = self.lines.recv_timeout(left).unwrap_or_else(|_| {
                panic!(
                    "not every call was answered: {results:?}; the bridge's log: {:#?}",
                    self.stderr.lock().unwrap()
                )
            });
            match message["id"].as_u64() {
                Some(id) if ids.contains(&id) && message.get("method").is_none() => {
                    let index = ids.iter().position(|i| *i == id).unwrap();
                    results[index] = message;
                }
                _ => self.notifications.push(message),
            }
        }
        results
    }

    /// Calls a tool that must succeed; returns its structured content.
    pub(crate) fn ok(&mut self, tool: &str, arguments: Value) -> Value {
        let result = self.call(tool, arguments);
        assert_eq!(result["isError"], false, "{tool}: {result}");
        result["structuredContent"].clone()
    }

    /// Calls a tool that must fail with `code`; returns its structured content.
    pub(crate) fn fails(&mut self, tool: &str, arguments: Value, code: &str) -> Value {
        let result = self.call(tool, arguments);
        assert_eq!(result["isError"], true, "{tool}: {result}");
        let content = result["structuredContent"].clone();
        assert_eq!(content["code"], code, "{tool}: {content}");
        assert!(content["message"].as_str().unwrap().len() > 20, "{content}");
        content
    }

    /// Waits (up to 10 s) for a log line containing `needle`; returns it.
    pub(crate) fn log_line(&self, needle: &str) -> String {
        let deadline = Instant::now() + Duration::from_secs(10);
        loop {
            if let Some(line) = self
                .stderr
                .lock()
                .unwrap()
                .iter()
                .find(|l| l.contains(needle))
            {
                return line.clone();
            }
            assert!(
                Instant::now() < deadline,
                "no log line with `{needle}`: {:?}",
                self.stderr.lock().unwrap()
            );
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    /// Closes stdin; the bridge must exit promptly, having written only JSON-RPC.
    pub(crate) fn finish(self) {
        self.finish_within(Duration::from_secs(5));
    }

    /// Closes stdin; the bridge must exit within `limit`, having written only JSON-RPC.
    pub(crate) fn finish_within(mut self, limit: Duration) {
        drop(self.stdin.take());
        let deadline = Instant::now() + limit;
        while self.child.try_wait().unwrap().is_none() {
            assert!(
                Instant::now() < deadline,
                "taria-mcp did not exit on stdin EOF within {limit:?}; its log: {:#?}",
                self.stderr.lock().unwrap()
            );
            std::thread::sleep(Duration::from_millis(10));
        }
        assert!(
            self.stray.lock().unwrap().is_empty(),
            "non-JSON-RPC on stdout: {:?}",
            self.stray.lock().unwrap()
        );
    }
}

impl Drop for Mcp {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

pub(crate) fn outline(content: &Value) -> String {
    content["outline"].as_str().unwrap_or_default().to_owned()
}
