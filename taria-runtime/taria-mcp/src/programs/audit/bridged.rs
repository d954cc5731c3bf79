//! The audit's [`Target`] for an app in a pseudo-terminal: the real bridge (the same
//! [`Bridge`] an agent's host talks to, its answers in the same words), served over
//! an in-process pipe to a small MCP client here. The tree and the screen the checks
//! compare are taken from the bridge's link to the app: the tree it last drew, and
//! the screen of the same frame with its styles.

use std::sync::Arc;
use std::time::Duration;

use rmcp::ServiceExt as _;
use serde_json::{Value as Json, json};
use taria_audit::{Answer, Input, Observation, Target};
use tokio::io::{AsyncBufReadExt as _, AsyncWriteExt as _, BufReader, DuplexStream};
use tokio::runtime::Runtime;

use crate::link::{self, Link};
use crate::server::{Bridge, ResultForm};
use crate::spawn::Spawned;
use crate::spawn::size::Size;
use crate::{input_log, order, seen, stdio};

/// How long a fresh app has to draw its first frame.
const FIRST_FRAME: Duration = Duration::from_secs(10);
/// How long one MCP call may take before the audit calls the app stuck.
const CALL_TIMEOUT: Duration = Duration::from_secs(15);
/// How often an idle app is looked at.
const IDLE_STEP: Duration = Duration::from_millis(150);

/// An app started by `command`, behind a bridge; restarted by [`Target::start`].
pub(super) struct Bridged<'r> {
    runtime: &'r Runtime,
    command: Vec<String>,
    size: Size,
    /// A shell command run before each start (`--reset`).
    reset: Option<String>,
    session: Option<Session>,
}

/// One app and the bridge in front of it.
struct Session {
    spawned: Arc<Spawned>,
    link: Link,
    client: Client,
}

impl<'r> Bridged<'r> {
    pub(super) fn new(
        runtime: &'r Runtime,
        command: Vec<String>,
        size: Size,
        reset: Option<String>,
    ) -> Bridged<'r> {
        Bridged {
            runtime,
            command,
            size,
            reset,
            session: None,
        }
    }

    /// Stops the app there is, if any.
    pub(super) fn stop(&mut self) {
        if let Some(session) = self.session.take() {
            session.spawned.stop();
            drop(session.client);
        }
    }

    fn session(&mut self) -> Result<&mut Session, String> {
        self.session
            .as_mut()
            .ok_or_else(|| "the app is not running".to_owned())
    }

    /// The latest frame: a tree and the screen the app drew with it.
    fn frame(&mut self) -> Result<Observation, String> {
        let runtime = self.runtime;
        let session = self.session()?;
        runtime.block_on(async {
            if let Some(exit) = session.spawned.exit() {
                return Err(session.spawned.exit_note(&exit));
            }
            for _ in 0..20 {
                let view = tokio::time::timeout(FIRST_FRAME, session.link.view())
                    .await
                    .map_err(|_| "the app drew no frame within 10 s".to_owned())?
                    .map_err(|e| e.message)?;
                let screen = session.link.screen_now(true).await.map_err(|e| e.message)?;
                if screen.revision != view.revision {
                    // The app drew again in between: take both again.
                    tokio::time::sleep(Duration::from_millis(20)).await;
                    continue;
                }
                let Some(styles) = screen.styles else {
                    return Err("the app sent its screen without styles (an older taria)".into());
                };
                return Ok(Observation {
                    tree: (*view.tree).clone(),
                    screen: styles.to_buffer(screen.cols),
                });
            }
            Err("the app redraws faster than its tree and screen can be read together".into())
        })
    }
}

impl Drop for Bridged<'_> {
    fn drop(&mut self) {
        self.stop();
    }
}

impl Target for Bridged<'_> {
    fn start(&mut self) -> Result<Observation, String> {
        self.stop();
        if let Some(reset) = &self.reset {
            run_reset(reset)?;
        }
        let spawned = Arc::new(Spawned::start(&self.command, self.size));
        if let Some(why) = spawned.start_error() {
            return Err(why.to_owned());
        }
        let session = self
            .runtime
            .block_on(Session::start(Arc::clone(&spawned)))
            .inspect_err(|_| spawned.stop())?;
        self.session = Some(session);
        self.frame()
    }

    fn observe(&mut self, wait: Duration) -> Result<Observation, String> {
        if !wait.is_zero() {
            std::thread::sleep(wait);
        }
        self.frame()
    }

    fn idle(&mut self, during: Duration) -> Result<Vec<Observation>, String> {
        let mut frames = Vec::new();
        let steps = (during.as_millis() / IDLE_STEP.as_millis()).max(1);
        for _ in 0..steps {
            std::thread::sleep(IDLE_STEP);
            frames.push(self.frame()?);
        }
        // A redraw with no input: the terminal a row shorter and back, which an app
        // that draws only on its own changes draws on too.
        self.session()?.spawned.nudge();
        std::thread::sleep(IDLE_STEP * 2);
        frames.push(self.frame()?);
        Ok(frames)
    }

    fn perform(&mut self, input: &Input) -> Answer {
        let runtime = self.runtime;
        let session = match self.session() {
            Ok(session) => session,
            Err(message) => return Answer::Exited { message },
        };
        let mut arguments = json!({"node": input.node, "action": input.action.as_str()});
        if let Some(value) = &input.value {
            arguments["value"] = serde_json::to_value(value).unwrap_or(Json::Null);
        }
        if let Some(direction) = input.direction {
            arguments["direction"] = json!(taria_audit::direction_name(direction));
        }
        let answered = runtime.block_on(async {
            // As an agent does: the tree is read before acting on it.
            session.client.call("read_tree", json!({})).await?;
            session.client.call("act", arguments).await
        });
        match answered {
            Ok(result) => answer(&result, &session.spawned),
            Err(message) => Answer::Exited { message },
        }
    }
}

/// What the agent was told, from an `act` result.
fn answer(result: &Json, spawned: &Spawned) -> Answer {
    let text = result["content"][0]["text"]
        .as_str()
        .unwrap_or_default()
        .to_owned();
    let fields = &result["structuredContent"];
    if spawned.exit().is_some() {
        return Answer::Exited { message: text };
    }
    if result["isError"] == true {
        let code = fields["code"].as_str().unwrap_or("unknown").to_owned();
        if code == "app_exited" {
            return Answer::Exited { message: text };
        }
        if fields["status"] == "ignored" {
            return Answer::Ignored { message: text };
        }
        return Answer::Refused {
            code,
            message: text,
        };
    }
    let said_changed = if fields["changed"] == true {
        Some(true)
    } else if text.contains("nothing in the tree changed") {
        Some(false)
    } else {
        None
    };
    Answer::Delivered { said_changed }
}

/// Runs the `--reset` command through the shell; the error says how it failed.
fn run_reset(command: &str) -> Result<(), String> {
    #[cfg(unix)]
    let status = std::process::Command::new("sh")
        .arg("-c")
        .arg(command)
        .status();
    #[cfg(windows)]
    let status = std::process::Command::new("cmd")
        .arg("/C")
        .arg(command)
        .status();
    match status {
        Ok(status) if status.success() => Ok(()),
        Ok(status) => Err(format!("the reset command `{command}` failed ({status})")),
        Err(e) => Err(format!("cannot run the reset command `{command}`: {e}")),
    }
}

impl Session {
    /// The bridge in front of `spawned`, served to a client over an in-process pipe,
    /// the MCP session initialized.
    async fn start(spawned: Arc<Spawned>) -> Result<Session, String> {
        let activity = link::Activity::default();
        let link = Link::new(
            link::Target::Spawn(Arc::clone(&spawned)),
            None,
            activity.clone(),
            None,
        );
        let seen = seen::Seen::default();
        let arrivals = order::Arrivals::new(seen.clone(), crate::tools::takes_turn);
        let (ours, theirs) = tokio::io::duplex(1 << 22);
        let (read, write) = tokio::io::split(theirs);
        let transport = stdio::Lines::new(read, write, arrivals.clone());
        let bridge = Bridge::new(
            link.clone(),
            activity,
            seen,
            arrivals,
            input_log::InputLog::default(),
            None,
            ResultForm::Structured,
        );
        tokio::spawn(async move {
            if let Ok(service) = bridge.serve(transport).await {
                let _ = service.waiting().await;
            }
        });
        let client = Client::new(ours);
        client
            .request(
                "initialize",
                json!({
                    "protocolVersion": "2025-11-25",
                    "capabilities": {},
                    "clientInfo": {"name": "taria-mcp audit", "version": env!("CARGO_PKG_VERSION")},
                }),
            )
            .await?;
        client.notify("notifications/initialized").await?;
        Ok(Session {
            spawned,
            link,
            client,
        })
    }
}

/// A minimal MCP client: one request at a time, over lines of JSON.
struct Client {
    write: tokio::sync::Mutex<tokio::io::WriteHalf<DuplexStream>>,
    read: tokio::sync::Mutex<BufReader<tokio::io::ReadHalf<DuplexStream>>>,
    next: std::sync::atomic::AtomicU64,
}

impl Client {
    fn new(stream: DuplexStream) -> Client {
        let (read, write) = tokio::io::split(stream);
        Client {
            write: tokio::sync::Mutex::new(write),
            read: tokio::sync::Mutex::new(BufReader::new(read)),
            next: std::sync::atomic::AtomicU64::new(1),
        }
    }

    async fn send(&self, message: &Json) -> Result<(), String> {
        let mut line = message.to_string();
        line.push('\n');
        let mut write = self.write.lock().await;
        write
            .write_all(line.as_bytes())
            .await
            .map_err(|e| format!("the bridge stopped reading: {e}"))
    }

    async fn notify(&self, method: &str) -> Result<(), String> {
        self.send(&json!({"jsonrpc": "2.0", "method": method}))
            .await
    }

    /// Sends a request and waits for its response's `result`.
    async fn request(&self, method: &str, params: Json) -> Result<Json, String> {
        let id = self.next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        self.send(&json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}))
            .await?;
        let mut read = self.read.lock().await;
        let wait = async {
            let mut line = String::new();
            loop {
                line.clear();
                let n = read
                    .read_line(&mut line)
                    .await
                    .map_err(|e| format!("the bridge's answer could not be read: {e}"))?;
                if n == 0 {
                    return Err("the bridge closed the session".to_owned());
                }
                let Ok(message) = serde_json::from_str::<Json>(&line) else {
                    continue;
                };
                if message["id"] != json!(id) {
                    continue;
                }
                if let Some(error) = message.get("error") {
                    return Err(format!(
                        "the bridge answered {method} with an error: {error}"
                    ));
                }
                return Ok(message["result"].clone());
            }
        };
        tokio::time::timeout(CALL_TIMEOUT, wait)
            .await
            .map_err(|_| format!("the bridge did not answer {method} within 15 s"))?
    }

    async fn call(&self, tool: &str, arguments: Json) -> Result<Json, String> {
        self.request("tools/call", json!({"name": tool, "arguments": arguments}))
            .await
    }
}
