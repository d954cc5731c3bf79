//! A small app with a real session on a thread, and a raw line client for its socket.

#![allow(dead_code, unreachable_pub, reason = "shared by several test files")]
#![expect(
    clippy::unwrap_used,
    reason = "test support: a failed setup fails the test"
)]

pub mod nested_tabs;

use std::io::{BufRead, BufReader, Write};
use std::os::unix::net::UnixStream;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use ratatui::backend::TestBackend;
use ratatui::crossterm::event::{Event, KeyCode};
use ratatui::widgets::Paragraph;
use ratatui::{Frame, Terminal};
use serde_json::{Value, json};
use taria::{Action, Actions, FromValue, Invocation, Outcome, Role, Session};

/// A fresh private directory under this test process's own folder in the temp dir
/// (`taria-test-<pid>/`). Tests end without a teardown, so each process first removes
/// the folders of test processes that are no longer running: a run leaves at most its
/// own behind, not every run's.
pub fn temp_dir(name: &str) -> PathBuf {
    static NEXT: AtomicUsize = AtomicUsize::new(0);
    static SWEPT: std::sync::Once = std::sync::Once::new();
    SWEPT.call_once(remove_dead_processes_dirs);
    let dir = std::env::temp_dir()
        .join(format!("taria-test-{}", std::process::id()))
        .join(format!("{name}-{}", NEXT.fetch_add(1, Ordering::Relaxed)));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o700)).unwrap();
    }
    dir
}

/// Removes `taria-test-<pid>` folders (and the older `taria-test-<pid>-<name>-<n>`
/// ones) of processes that are gone. Linux only: elsewhere there is no `/proc` to ask,
/// and nothing is removed.
fn remove_dead_processes_dirs() {
    if !Path::new("/proc/self").exists() {
        return;
    }
    let Ok(entries) = std::fs::read_dir(std::env::temp_dir()) else {
        return;
    };
    for entry in entries.flatten() {
        let name = entry.file_name();
        let Some(rest) = name.to_str().and_then(|n| n.strip_prefix("taria-test-")) else {
            continue;
        };
        let pid = rest.split('-').next().unwrap_or_default();
        if pid.parse::<u32>().is_ok() && !Path::new("/proc").join(pid).exists() {
            let _ = std::fs::remove_dir_all(entry.path());
        }
    }
}

/// The app under test: a list of tasks, a volume slider, a name field, a log of
/// the keys it read.
#[derive(Default)]
pub struct TestApp {
    pub tasks: Vec<(String, bool)>,
    pub selected: usize,
    pub volume: u8,
    pub name: String,
    pub keys: Vec<String>,
    pub locked: bool,
    /// The list takes no `select` itself: key fallbacks move its selection by keys.
    pub keys_only: bool,
}

impl TestApp {
    pub fn new() -> TestApp {
        TestApp {
            tasks: vec![
                ("Buy milk".into(), false),
                ("Walk dog".into(), false),
                ("Ship v0".into(), false),
            ],
            ..TestApp::default()
        }
    }

    pub fn render(&mut self, frame: &mut Frame<'_>) {
        let area = frame.area();
        // The list acts as a stateful widget: it takes `select` on its items itself.
        let count = self.tasks.len();
        let selected = &mut self.selected;
        let keys_only = self.keys_only;
        taria::widget::take_widget_actions("tasks", |action| {
            if keys_only {
                return Outcome::NotHandled;
            }
            let index = action
                .matches("tasks/*")
                .and_then(|i| i.parse::<usize>().ok());
            match (action.action().as_str(), index) {
                ("select", Some(i)) if i < count => {
                    *selected = i;
                    Outcome::Handled
                }
                ("select", _) => Outcome::Rejected("no such task".into()),
                _ => Outcome::NotHandled,
            }
        });
        {
            let _list = taria::scope(|n| {
                n.role(Role::List)
                    .id("tasks")
                    .label("Tasks")
                    .action(Action::Select);
            });
            for (i, (title, done)) in self.tasks.iter().enumerate() {
                taria::leaf(|n| {
                    n.role(Role::ListItem)
                        .key(i)
                        .label(title)
                        .checked(*done)
                        .selected(i == self.selected)
                        .index(i)
                        .count(self.tasks.len())
                        .key_fallback(Action::Toggle, "space")
                        .action(Action::Select)
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
                .step(1);
            n.action(Action::SetValue).disabled(self.locked);
        });
        taria::leaf(|n| {
            n.role(Role::TextInput)
                .id("name")
                .label("Name")
                .value(self.name.as_str())
                .action(Action::SetValue);
        });
        taria::leaf(|n| {
            n.role(Role::Button)
                .id("refuse")
                .label("Refuse")
                .action(Action::Activate);
        });
        let lines: Vec<String> = self
            .tasks
            .iter()
            .map(|(t, d)| format!("[{}] {t}", if *d { "x" } else { " " }))
            .collect();
        frame.render_widget(Paragraph::new(lines.join("\n")), area);
    }

    pub fn on_event(&mut self, event: &Event) {
        let Event::Key(key) = event else { return };
        self.keys.push(
            taria_schema::protocol::KeyChord {
                code: key.code,
                modifiers: key.modifiers,
            }
            .to_string(),
        );
        match key.code {
            KeyCode::Down => self.selected = (self.selected + 1).min(self.tasks.len() - 1),
            KeyCode::Up => self.selected = self.selected.saturating_sub(1),
            KeyCode::Char(' ') => self.tasks[self.selected].1 ^= true,
            _ => {}
        }
    }
}

impl Actions for TestApp {
    fn handle_action(&mut self, inv: &Invocation<'_>) -> Outcome {
        match (inv.target(), inv.action().as_str()) {
            ("volume", "set_value") => {
                self.volume = inv
                    .value()
                    .and_then(|v| u8::from_value(v).ok())
                    .unwrap_or(0);
                if self.volume == 10 {
                    tracing::error!(target: "test_app", volume = self.volume, "the volume is at its maximum");
                }
                Outcome::Handled
            }
            ("name", "set_value") if inv.value() == Some(&taria::Value::Text("panic!".into())) => {
                panic!("asked to panic by name");
            }
            ("refuse", "activate") => {
                tracing::warn!(target: "test_app", "refused a press: not today");
                Outcome::Rejected("not today".into())
            }
            (target, "archive") => {
                match inv.matches("tasks/*").and_then(|i| i.parse::<usize>().ok()) {
                    Some(i) if i < self.tasks.len() => {
                        self.tasks.remove(i);
                        self.selected = self.selected.min(self.tasks.len().saturating_sub(1));
                        Outcome::Handled
                    }
                    _ => Outcome::Rejected(format!("no task {target}")),
                }
            }
            _ => Outcome::NotHandled,
        }
    }
}

/// What the test loop runs: an app that draws, takes handlers, and reads events.
pub trait LoopApp: Actions + Send + 'static {
    fn render(&mut self, frame: &mut Frame<'_>);
    fn on_event(&mut self, event: &Event);
}

impl LoopApp for TestApp {
    fn render(&mut self, frame: &mut Frame<'_>) {
        TestApp::render(self, frame);
    }

    fn on_event(&mut self, event: &Event) {
        TestApp::on_event(self, event);
    }
}

/// An app loop running on its own thread with a real session.
pub struct RunningApp<A = TestApp> {
    pub socket: PathBuf,
    pub app: Arc<Mutex<A>>,
    /// While set, the loop does nothing (alive, but reads no input): see [`Self::pause`].
    paused: Arc<AtomicBool>,
    /// Set by the loop once it has seen `paused`.
    parked: Arc<AtomicBool>,
    /// Loop turns so far.
    pub turns: Arc<AtomicUsize>,
    stop: Arc<AtomicBool>,
    thread: Option<JoinHandle<()>>,
}

impl RunningApp<TestApp> {
    pub fn start(name: &str) -> RunningApp {
        let socket = temp_dir(name).join("app.sock");
        Self::start_at(&socket)
    }

    pub fn start_at(socket: &Path) -> RunningApp {
        Self::launch(socket, TestApp::new(), 40, 8)
    }
}

/// What a test app's loop does between frames.
#[derive(Clone, Copy, Debug)]
pub enum Between {
    /// Waits up to this long for an event (`Session::next_event`): a real app's loop;
    /// a long wait means it draws only when something wakes it.
    Events(Duration),
    /// Sleeps this long, reading no events: a custom loop on its own clock.
    Sleep(Duration),
}

impl<A: LoopApp> RunningApp<A> {
    /// Runs `app` in a `cols` x `rows` headless terminal, serving `socket`; the loop
    /// waits up to 20 ms for an event between frames.
    pub fn launch(socket: &Path, app: A, cols: u16, rows: u16) -> RunningApp<A> {
        Self::launch_waiting(
            socket,
            app,
            (cols, rows),
            Between::Events(Duration::from_millis(20)),
        )
    }

    /// The same, with the loop doing `between` between frames. The app's thread logs
    /// through a subscriber with `taria::logs::layer()` (at `DEBUG`), so a bridge
    /// that asks gets its log.
    pub fn launch_waiting(
        socket: &Path,
        app: A,
        (cols, rows): (u16, u16),
        between: Between,
    ) -> RunningApp<A> {
        use tracing_subscriber::layer::SubscriberExt as _;
        let options = Session::builder("test-app")
            .socket(socket)
            .terminal_input(false);
        let logs = tracing::Dispatch::new(
            tracing_subscriber::registry().with(taria::logs::layer().level(tracing::Level::DEBUG)),
        );
        let mut session = tracing::dispatcher::with_default(&logs, || options.try_start())
            .expect("session starts");
        let app = Arc::new(Mutex::new(app));
        let (stop, paused, parked) = (
            Arc::new(AtomicBool::new(false)),
            Arc::new(AtomicBool::new(false)),
            Arc::new(AtomicBool::new(false)),
        );
        let turns = Arc::new(AtomicUsize::new(0));
        let thread = {
            let (app, stop, paused, parked, turns) = (
                Arc::clone(&app),
                Arc::clone(&stop),
                Arc::clone(&paused),
                Arc::clone(&parked),
                Arc::clone(&turns),
            );
            std::thread::spawn(move || {
                let _logs = tracing::dispatcher::set_default(&logs);
                let mut terminal = Terminal::new(TestBackend::new(cols, rows)).unwrap();
                while !stop.load(Ordering::Relaxed) {
                    if paused.load(Ordering::SeqCst) {
                        parked.store(true, Ordering::SeqCst);
                        std::thread::sleep(Duration::from_millis(5));
                        continue;
                    }
                    parked.store(false, Ordering::SeqCst);
                    let mut guard = app.lock().unwrap();
                    session.drain(&mut *guard);
                    session
                        .draw(&mut terminal, |frame| guard.render(frame))
                        .unwrap();
                    drop(guard);
                    turns.fetch_add(1, Ordering::Relaxed);
                    match between {
                        Between::Events(wait) => {
                            if let Some(event) = session.next_event(Some(wait)).unwrap() {
                                app.lock().unwrap().on_event(&event);
                            }
                        }
                        Between::Sleep(pause) => std::thread::sleep(pause),
                    }
                }
            })
        };
        RunningApp {
            socket: socket.to_owned(),
            app,
            paused,
            parked,
            turns,
            stop,
            thread: Some(thread),
        }
    }
}

impl<A> RunningApp<A> {
    /// Pauses the loop between turns (alive, but reading no input); returns once it
    /// is paused, so that nothing sent after this is drained until [`Self::resume`].
    pub fn pause(&self) {
        // Not parked until the loop says so again (it may still be from a last pause).
        self.parked.store(false, Ordering::SeqCst);
        self.paused.store(true, Ordering::SeqCst);
        let deadline = Instant::now() + Duration::from_secs(10);
        while !self.parked.load(Ordering::SeqCst) {
            assert!(Instant::now() < deadline, "the loop did not pause");
            std::thread::sleep(Duration::from_millis(1));
        }
    }

    /// Lets a paused loop run again.
    pub fn resume(&self) {
        self.paused.store(false, Ordering::SeqCst);
    }

    /// Asks the loop to stop after this turn, without waiting for it: a loop parked
    /// in a long event wait stops once something (an input) wakes it.
    pub fn ask_to_stop(&self) {
        self.stop.store(true, Ordering::Relaxed);
    }

    /// Stops the loop and waits for it (the session ends, its socket goes away).
    pub fn stop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

impl<A> Drop for RunningApp<A> {
    fn drop(&mut self) {
        self.stop();
    }
}

/// A raw line client on the app's socket.
pub struct Client {
    pub stream: UnixStream,
    reader: BufReader<UnixStream>,
    pub next_seq: u64,
    /// The newest full tree, rebuilt from trees and patches.
    pub tree: Option<taria_schema::mirror::FlatTree>,
    pub revision: u64,
    pub input: u64,
}

impl Client {
    pub fn connect(socket: &Path) -> Client {
        let stream = UnixStream::connect(socket).expect("connects");
        stream
            .set_read_timeout(Some(Duration::from_secs(5)))
            .unwrap();
        let reader = BufReader::new(stream.try_clone().unwrap());
        Client {
            stream,
            reader,
            next_seq: 1,
            tree: None,
            revision: 0,
            input: 0,
        }
    }

    /// Connects and reads the app's hello, retrying while the app still answers
    /// `busy`: it serves one client, and a client that has just disconnected counts
    /// until the app has seen its connection close.
    pub fn hello_when_free(socket: &Path) -> (Client, Value) {
        let deadline = Instant::now() + Duration::from_secs(10);
        loop {
            let mut client = Client::connect(socket);
            let first = client.next().expect("a first line");
            if first["code"] != "busy" {
                return (client, first);
            }
            assert!(Instant::now() < deadline, "the app stayed busy: {first}");
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    pub fn send_raw(&mut self, bytes: &[u8]) {
        self.stream.write_all(bytes).unwrap();
    }

    pub fn send(&mut self, message: &Value) {
        let mut line = serde_json::to_vec(message).unwrap();
        line.push(b'\n');
        self.send_raw(&line);
    }

    /// The next line as JSON; `None` at end of stream. Tracks trees and patches.
    pub fn next(&mut self) -> Option<Value> {
        let mut line = String::new();
        match self.reader.read_line(&mut line) {
            Ok(0) => None,
            Ok(_) => {
                let message: Value = serde_json::from_str(&line)
                    .unwrap_or_else(|e| panic!("bad line {line:?}: {e}"));
                self.track(&message);
                Some(message)
            }
            Err(e) => panic!("read failed: {e}"),
        }
    }

    fn track(&mut self, message: &Value) {
        match message["type"].as_str() {
            Some("tree") => {
                let tree: taria::Tree = serde_json::from_value(message["tree"].clone()).unwrap();
                self.tree = Some(taria_schema::mirror::FlatTree::from_tree(&tree));
            }
            Some("patch") => {
                let patch: taria_schema::mirror::Patch =
                    serde_json::from_value(message.clone()).unwrap();
                assert_eq!(
                    message["revision"].as_u64(),
                    Some(self.revision + 1),
                    "patches are consecutive"
                );
                self.tree
                    .as_mut()
                    .expect("a tree before patches")
                    .apply(&patch);
            }
            _ => return,
        }
        self.revision = message["revision"].as_u64().unwrap();
        self.input = message["input"].as_u64().unwrap();
    }

    /// Reads until a message matches; panics after 5 s.
    pub fn until(&mut self, what: &str, mut matches: impl FnMut(&Value) -> bool) -> Value {
        let deadline = Instant::now() + Duration::from_secs(5);
        while Instant::now() < deadline {
            match self.next() {
                Some(message) if matches(&message) => return message,
                Some(_) => {}
                None => panic!("stream ended waiting for {what}"),
            }
        }
        panic!("timed out waiting for {what}");
    }

    /// Connects and reads the hello and the first tree.
    pub fn handshake(socket: &Path) -> (Client, Value) {
        let mut client = Client::connect(socket);
        let hello = client.next().expect("hello");
        client.until("first tree", |m| m["type"] == "tree");
        (client, hello)
    }

    /// Connects, says hello asking for the app's log, and reads the app's hello and
    /// first tree.
    pub fn handshake_with_logs(socket: &Path) -> (Client, Value) {
        let mut client = Client::connect(socket);
        client.send(&json!({"type": "hello", "v": 1, "client": "test", "logs": true}));
        let hello = client.next().expect("hello");
        client.until("first tree", |m| m["type"] == "tree");
        (client, hello)
    }

    /// Sends an input, returns its ack.
    pub fn input(&mut self, input: Value) -> Value {
        let Value::Object(fields) = input else {
            panic!("an input is a JSON object")
        };
        let seq = self.next_seq;
        self.next_seq += 1;
        let mut message = json!({"type": "input", "seq": seq});
        message.as_object_mut().unwrap().extend(fields);
        self.send(&message);
        self.until("ack", |m| m["type"] == "ack" && m["seq"] == seq)
    }

    /// Sends an input, waits for its ack and for the tree that shows its effect.
    pub fn input_and_tree(&mut self, input: Value) -> (Value, taria::Tree) {
        let ack = self.input(input);
        let seq = ack["seq"].as_u64().unwrap();
        if ack["status"] == "delivered" && self.input < seq {
            self.until("tree after input", |m| {
                m["input"].as_u64().is_some_and(|i| i >= seq)
            });
        }
        (ack, self.current())
    }

    pub fn current(&self) -> taria::Tree {
        self.tree.as_ref().expect("a tree").to_tree()
    }
}
