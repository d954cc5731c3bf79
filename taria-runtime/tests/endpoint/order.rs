//! One input at a time: each checked against what the inputs before it did, none
//! held forever by a loop that draws no frame, none left behind by a drain.

use std::sync::atomic::Ordering;
use std::time::Duration;

use serde_json::json;
use taria::Session;

use crate::support::{self, Client, RunningApp, temp_dir};

/// A task list whose `delete` opens a confirmation dialog over the whole app (modal);
/// its `submit` deletes the task it was opened for. A filter can be chosen behind it.
struct ConfirmApp {
    tasks: Vec<&'static str>,
    confirming: Option<usize>,
    filter: &'static str,
}

impl ConfirmApp {
    fn new() -> ConfirmApp {
        ConfirmApp {
            tasks: vec!["Buy milk", "Write the README", "Record a demo"],
            confirming: None,
            filter: "all",
        }
    }
}

impl taria::Actions for ConfirmApp {
    fn handle_action(&mut self, inv: &taria::Invocation<'_>) -> taria::Outcome {
        let task = inv.matches("tasks/*").and_then(|i| i.parse::<usize>().ok());
        match (inv.action().as_str(), task, inv.target()) {
            ("delete", Some(i), _) if i < self.tasks.len() => self.confirming = Some(i),
            ("select", None, "filter/done") => self.filter = "done",
            ("submit", None, "confirm") => {
                if let Some(i) = self.confirming.take() {
                    self.tasks.remove(i);
                }
            }
            _ => return taria::Outcome::NotHandled,
        }
        taria::Outcome::Handled
    }
}

impl support::LoopApp for ConfirmApp {
    fn render(&mut self, frame: &mut ratatui::Frame<'_>) {
        {
            let _list = taria::scope(|n| {
                n.role(taria::Role::List).id("tasks");
            });
            for (i, title) in self.tasks.iter().enumerate() {
                taria::leaf(|n| {
                    n.role(taria::Role::ListItem)
                        .key(i)
                        .label(title)
                        .custom_action("delete");
                });
            }
        }
        taria::leaf(|n| {
            n.role(taria::Role::Tab)
                .id("filter/done")
                .label("Done")
                .selected(self.filter == "done")
                .action(taria::Action::Select);
        });
        if let Some(i) = self.confirming {
            taria::leaf(|n| {
                n.role(taria::Role::Dialog)
                    .id("confirm")
                    .label(format_args!("Delete \"{}\"?", self.tasks[i]))
                    .modal(true)
                    .action(taria::Action::Submit);
            });
        }
        frame.render_widget(
            ratatui::widgets::Paragraph::new(self.tasks.join("\n")),
            frame.area(),
        );
    }

    fn on_event(&mut self, _: &ratatui::crossterm::event::Event) {}
}

/// The bug: inputs sent in one write were all checked against the tree drawn before
/// the first, so `select` went through behind the dialog `delete` had just opened.
#[test]
fn an_input_is_checked_against_what_the_inputs_before_it_did() {
    let socket = temp_dir("settle").join("app.sock");
    let app = RunningApp::launch(&socket, ConfirmApp::new(), 40, 8);
    let (mut client, _) = Client::handshake(&app.socket);
    // Both in one write, as a bridge pipelining two calls sends them.
    client.send_raw(
        concat!(
            r#"{"type":"input","seq":1,"kind":"act","node":"tasks/2","action":"delete"}"#,
            "\n",
            r#"{"type":"input","seq":2,"kind":"act","node":"filter/done","action":"select"}"#,
            "\n",
        )
        .as_bytes(),
    );
    let first = client.until("ack 1", |m| m["type"] == "ack" && m["seq"] == 1);
    let second = client.until("ack 2", |m| m["type"] == "ack" && m["seq"] == 2);
    assert_eq!(first["status"], "delivered");
    assert_eq!(second["status"], "rejected", "{second}");
    assert_eq!(second["reason"], "action_not_offered", "{second}");
    assert_eq!(
        app.app.lock().unwrap().filter,
        "all",
        "nothing behind the dialog moved"
    );
    client.next_seq = 3;
    let (ack, tree) =
        client.input_and_tree(json!({"kind": "act", "node": "confirm", "action": "submit"}));
    assert_eq!(ack["status"], "delivered");
    let titles: Vec<_> = tree
        .iter()
        .filter(|n| n.role == taria::Role::ListItem)
        .filter_map(|n| n.label.clone())
        .collect();
    assert_eq!(
        titles,
        ["Buy milk", "Write the README"],
        "the task the dialog was for went"
    );
}

/// A node gone: the second `archive` of `tasks/1`, read before the first removed it,
/// names a task that has moved into its place; its token says so.
#[test]
fn an_input_after_one_that_removed_its_node_is_stale_not_misapplied() {
    let app = RunningApp::start("settle-gone");
    let (mut client, _) = Client::handshake(&app.socket);
    let token = taria_schema::protocol::target_token(client.current().get("tasks/1").unwrap());
    let archive = |seq: u64| json!({"type": "input", "seq": seq, "kind": "act", "node": "tasks/1", "action": "archive", "token": token});
    let mut both = serde_json::to_vec(&archive(1)).unwrap();
    both.push(b'\n');
    both.extend(serde_json::to_vec(&archive(2)).unwrap());
    both.push(b'\n');
    client.send_raw(&both);
    let first = client.until("ack 1", |m| m["type"] == "ack" && m["seq"] == 1);
    let second = client.until("ack 2", |m| m["type"] == "ack" && m["seq"] == 2);
    assert_eq!(first["status"], "delivered");
    assert_eq!(second["status"], "rejected", "{second}");
    assert_eq!(second["reason"], "stale_target", "{second}");
    let titles: Vec<String> = app
        .app
        .lock()
        .unwrap()
        .tasks
        .iter()
        .map(|t| t.0.clone())
        .collect();
    assert_eq!(
        titles,
        ["Buy milk", "Ship v0"],
        "only the task that was read went"
    );
}

/// An app loop on a thread, driving `session`: each turn drains, draws when `draw`
/// says so (given whether it drew before), sleeps `after_inputs` after a turn that
/// took inputs, then blocks in the event wait as `event::read` does. Stops once
/// `stop` is set and something (a client leaving) wakes it.
fn blocking_loop(
    mut session: Session,
    app: std::sync::Arc<std::sync::Mutex<support::TestApp>>,
    stop: std::sync::Arc<std::sync::atomic::AtomicBool>,
    draw: fn(bool) -> bool,
    after_inputs: Duration,
) -> std::thread::JoinHandle<()> {
    std::thread::spawn(move || {
        let mut terminal =
            ratatui::Terminal::new(ratatui::backend::TestBackend::new(40, 8)).unwrap();
        let mut drawn = false;
        while !stop.load(Ordering::Relaxed) {
            let taken = {
                let mut app = app.lock().unwrap();
                let taken = session.drain(&mut *app);
                if session.is_connected() && draw(drawn) {
                    session.draw(&mut terminal, |f| app.render(f)).unwrap();
                    drawn = true;
                }
                taken
            };
            if taken > 0 {
                std::thread::sleep(after_inputs);
            }
            let _ = session.next_event(Some(Duration::from_secs(20)));
        }
    })
}

fn start_session(name: &str) -> (Session, std::path::PathBuf) {
    let socket = temp_dir(name).join("app.sock");
    let options = Session::builder(name).socket(&socket).terminal_input(false);
    (options.try_start().unwrap(), socket)
}

fn set_volume(seq: u64, value: u8) -> serde_json::Value {
    json!({"type": "input", "seq": seq, "kind": "act", "node": "volume", "action": "set_value", "value": value})
}

fn lines(messages: &[serde_json::Value]) -> Vec<u8> {
    let mut bytes = Vec::new();
    for message in messages {
        bytes.extend(serde_json::to_vec(message).unwrap());
        bytes.push(b'\n');
    }
    bytes
}

/// A loop that draws only when its own state says so (here: once) and then blocks
/// in its event wait still gets every input: the one behind an input it drew no
/// frame for waits about a second (the event wait is woken for it), not forever.
#[test]
fn inputs_behind_one_are_not_held_forever_by_a_loop_that_draws_no_frame() {
    use std::sync::Arc;
    use std::sync::atomic::AtomicBool;
    let (session, socket) = start_session("no-draw");
    let stop = Arc::new(AtomicBool::new(false));
    let app = Arc::new(std::sync::Mutex::new(support::TestApp::new()));
    let draw_once = |drawn: bool| !drawn;
    let thread = blocking_loop(
        session,
        Arc::clone(&app),
        Arc::clone(&stop),
        draw_once,
        Duration::ZERO,
    );
    let (mut client, _) = Client::handshake(&socket);
    client.send_raw(&lines(&[set_volume(1, 5), set_volume(2, 6)]));
    for seq in 1..=2 {
        let ack = client.until("ack", |m| m["type"] == "ack" && m["seq"] == seq);
        assert_eq!(ack["status"], "delivered", "{ack}");
    }
    assert_eq!(app.lock().unwrap().volume, 6);
    stop.store(true, Ordering::Relaxed);
    drop(client);
    thread.join().unwrap();
}

/// The bug: the drain that emptied the session's own queue on a rejected input did
/// not look at the endpoint's queue again, and nothing woke the loop for what had
/// arrived there meanwhile: input 3 was never answered. (Found by review.)
#[test]
fn an_input_that_arrives_while_earlier_ones_are_handled_is_taken() {
    use std::sync::Arc;
    use std::sync::atomic::AtomicBool;
    let (session, socket) = start_session("late-input");
    let stop = Arc::new(AtomicBool::new(false));
    let app = Arc::new(std::sync::Mutex::new(support::TestApp::new()));
    let every_turn = |_: bool| true;
    let slow = Duration::from_millis(300);
    let thread = blocking_loop(
        session,
        Arc::clone(&app),
        Arc::clone(&stop),
        every_turn,
        slow,
    );
    let (mut client, _) = Client::handshake(&socket);
    std::thread::sleep(Duration::from_millis(700));
    client.send(&set_volume(10, 1));
    std::thread::sleep(Duration::from_millis(50));
    let unknown =
        json!({"type": "input", "seq": 2, "kind": "act", "node": "nope", "action": "activate"});
    client.send_raw(&lines(&[set_volume(1, 5), unknown]));
    std::thread::sleep(Duration::from_millis(350));
    client.send(&set_volume(3, 7));
    for seq in [10, 1, 2, 3] {
        client.until("ack", |m| m["type"] == "ack" && m["seq"] == seq);
    }
    assert_eq!(app.lock().unwrap().volume, 7);
    stop.store(true, Ordering::Relaxed);
    drop(client);
    thread.join().unwrap();
}
