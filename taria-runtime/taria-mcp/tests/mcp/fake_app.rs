//! [`FakeApp`]: a fake app speaking the wire protocol on a plain Unix socket, scripted
//! per input, for what a real app does not do (stall, misnumber, answer oddly).

use std::io::{BufRead, BufReader, Write};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use serde_json::{Value, json};
use taria::{Action, Role};

use crate::harness::temp_socket;

/// A fake app on a plain Unix socket: says hello with protocol `v`, sends a one-button
/// tree, answers `get_tree`, and acks the n-th input (from 1) with `ack(seq, n)` (no
/// answer when that is `null`).
pub(crate) struct FakeApp {
    pub(crate) socket: PathBuf,
    pub(crate) inputs: Arc<Mutex<Vec<Value>>>,
    /// Connections accepted.
    pub(crate) accepts: Arc<AtomicUsize>,
    /// While set, a connection gets the hello and is closed at once.
    pub(crate) hang_up: Arc<AtomicBool>,
    /// Connections that got the hello and the tree and are read.
    pub(crate) served: Arc<AtomicUsize>,
}

/// A [`FakeApp`]'s inputs seen, connections accepted, hang-up switch and connections
/// served, shared with its serving thread.
pub(crate) type Counters = (
    Arc<Mutex<Vec<Value>>>,
    Arc<AtomicUsize>,
    Arc<AtomicBool>,
    Arc<AtomicUsize>,
);

/// What a [`FakeApp`] does, beyond its protocol version and acks.
#[derive(Clone, Copy)]
pub(crate) struct Script {
    pub(crate) v: u32,
    pub(crate) ack: fn(u64, usize) -> Value,
    /// The first `deaf` connections get the hello and the tree, then are never read.
    pub(crate) deaf: usize,
    /// The app's revision of the first tree on each connection.
    pub(crate) first_revision: u64,
    /// Lines sent after the first tree on each connection.
    pub(crate) after_first_tree: &'static [&'static str],
    /// How long the app takes before answering an input (given its line).
    pub(crate) ack_delay: fn(&Value) -> Duration,
    /// Whether connections get the hello and are closed at once, to begin with.
    pub(crate) hang_up: bool,
    /// The first connection served is closed after this many inputs (0: never), as
    /// by an app that restarts; the next ones are served as usual.
    pub(crate) close_after: usize,
}

impl Script {
    pub(crate) fn new(v: u32, ack: fn(u64, usize) -> Value) -> Script {
        Script {
            v,
            ack,
            deaf: 0,
            first_revision: 1,
            after_first_tree: &[],
            ack_delay: |_| Duration::ZERO,
            hang_up: false,
            close_after: 0,
        }
    }
}

impl FakeApp {
    pub(crate) fn start(name: &str, v: u32, ack: fn(u64, usize) -> Value) -> FakeApp {
        FakeApp::start_script(name, Script::new(v, ack))
    }

    /// The same, but the first `deaf` connections get the hello and the tree, then are
    /// never read (the app has stopped reading its socket), only held open.
    pub(crate) fn start_deaf(
        name: &str,
        v: u32,
        ack: fn(u64, usize) -> Value,
        deaf: usize,
    ) -> FakeApp {
        FakeApp::start_script(
            name,
            Script {
                deaf,
                ..Script::new(v, ack)
            },
        )
    }

    pub(crate) fn start_script(name: &str, script: Script) -> FakeApp {
        let socket = temp_socket(name);
        let listener = std::os::unix::net::UnixListener::bind(&socket).unwrap();
        let app = FakeApp {
            socket,
            inputs: Arc::new(Mutex::new(Vec::new())),
            accepts: Arc::new(AtomicUsize::new(0)),
            hang_up: Arc::new(AtomicBool::new(script.hang_up)),
            served: Arc::new(AtomicUsize::new(0)),
        };
        let counters = (
            Arc::clone(&app.inputs),
            Arc::clone(&app.accepts),
            Arc::clone(&app.hang_up),
            Arc::clone(&app.served),
        );
        std::thread::spawn(move || FakeApp::serve(&listener, script, &counters));
        app
    }

    /// Serves connections one at a time while `listener` accepts them; the first
    /// `deaf` are not read.
    pub(crate) fn serve(
        listener: &std::os::unix::net::UnixListener,
        script: Script,
        (seen, accepts, hang_up, served): &Counters,
    ) {
        let Script {
            v,
            ack,
            mut deaf,
            first_revision,
            after_first_tree,
            ack_delay,
            hang_up: _,
            mut close_after,
        } = script;
        let mut held = Vec::new();
        let mut harness = taria::testing::Harness::new(10, 2);
        let tree = harness.render(|_| {
            taria::leaf(|n| {
                n.role(Role::Button)
                    .id("ok")
                    .label("OK")
                    .action(Action::Activate);
            });
        });
        let tree = serde_json::to_value(&tree).unwrap();
        for stream in listener.incoming() {
            let Ok(stream) = stream else { return };
            accepts.fetch_add(1, Ordering::SeqCst);
            let mut writer = stream.try_clone().unwrap();
            let mut revision = first_revision.wrapping_sub(1);
            // The tree, stamped with the newest input it shows the effect of.
            let mut send_tree = |writer: &mut std::os::unix::net::UnixStream, input: u64| {
                revision = revision.wrapping_add(1);
                let message =
                    json!({"type": "tree", "revision": revision, "input": input, "tree": tree});
                writeln!(writer, "{message}").is_ok()
            };
            let hello = json!({"type": "hello", "v": v, "app": "fake", "pid": 1, "taria": "9.0.0"});
            if writeln!(writer, "{hello}").is_err() || hang_up.load(Ordering::SeqCst) {
                continue;
            }
            if !send_tree(&mut writer, 0)
                || !after_first_tree
                    .iter()
                    .all(|line| writeln!(writer, "{line}").is_ok())
            {
                continue;
            }
            served.fetch_add(1, Ordering::SeqCst);
            if deaf > 0 {
                deaf -= 1;
                held.push(stream);
                continue;
            }
            let (mut count, mut last_input) = (0, 0);
            for line in BufReader::new(stream).lines() {
                let Ok(line) = line else { break };
                let Ok(message) = serde_json::from_str::<Value>(&line) else {
                    continue;
                };
                match message["type"].as_str() {
                    Some("get_tree") => {
                        send_tree(&mut writer, last_input);
                    }
                    Some("input") => {
                        count += 1;
                        let seq = message["seq"].as_u64().unwrap();
                        std::thread::sleep(ack_delay(&message));
                        let mut message = message;
                        message["_connection"] = json!(served.load(Ordering::SeqCst));
                        seen.lock().unwrap().push(message);
                        if count == close_after {
                            close_after = 0;
                            break;
                        }
                        let answer = ack(seq, count);
                        if answer.is_null() {
                            continue;
                        }
                        let _ = writeln!(writer, "{answer}");
                        // A delivered input is followed by the frame drawn after it.
                        if answer["status"] == "delivered" {
                            last_input = seq;
                            send_tree(&mut writer, seq);
                        }
                    }
                    _ => {}
                }
            }
        }
    }
}
