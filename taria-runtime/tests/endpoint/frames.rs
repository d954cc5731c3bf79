//! The frame an input is answered with: after a widget took it mid-frame, the frame
//! after; stamps that never claim an input early; a loop woken for it, not spun.

use std::sync::atomic::Ordering;
use std::time::Duration;

use serde_json::json;
use taria::Session;

use crate::support::{self, Between, Client, RunningApp, temp_dir};

/// An app whose header, drawn before its list, names the selected task, and whose
/// list takes `select` itself while it renders (as a stateful widget does).
#[derive(Default)]
struct HeaderApp {
    selected: usize,
}

const HEADER_TASKS: [&str; 3] = ["Buy milk", "Walk dog", "Ship v0"];

impl taria::Actions for HeaderApp {
    fn handle_action(&mut self, inv: &taria::Invocation<'_>) -> taria::Outcome {
        match (inv.target(), inv.action().as_str()) {
            ("ping", "activate") => taria::Outcome::Handled,
            _ => taria::Outcome::NotHandled,
        }
    }
}

impl support::LoopApp for HeaderApp {
    fn render(&mut self, _: &mut ratatui::Frame<'_>) {
        let header = format!("Selected: {}", HEADER_TASKS[self.selected]);
        taria::leaf(|n| {
            n.role(taria::Role::Heading).id("header").label(&header);
        });
        let selected = &mut self.selected;
        taria::widget::take_widget_actions("tasks", |action| {
            match action
                .matches("tasks/*")
                .and_then(|i| i.parse::<usize>().ok())
            {
                Some(i) if action.is(taria::Action::Select) && i < HEADER_TASKS.len() => {
                    *selected = i;
                    taria::Outcome::Handled
                }
                _ => taria::Outcome::NotHandled,
            }
        });
        let list = taria::scope(|n| {
            n.role(taria::Role::List).id("tasks");
        });
        for (i, title) in HEADER_TASKS.iter().enumerate() {
            taria::leaf(|n| {
                n.role(taria::Role::ListItem)
                    .key(i)
                    .label(*title)
                    .selected(i == self.selected)
                    .action(taria::Action::Select);
            });
        }
        drop(list);
        taria::leaf(|n| {
            n.role(taria::Role::Button)
                .id("ping")
                .action(taria::Action::Activate);
        });
    }

    fn on_event(&mut self, _: &ratatui::crossterm::event::Event) {}
}

/// A widget takes an action in the middle of a frame, after the header above it
/// was drawn: the tree an agent gets back is the frame after, which shows the whole
/// app's reaction, not that half-updated one.
///
/// The app's loop waits 10 s for events, as a real loop waits without a timer: the
/// frame after is drawn because the session wakes the loop for it, not by a tick.
#[test]
fn the_tree_after_a_widget_took_an_action_shows_the_whole_apps_reaction() {
    let socket = temp_dir("reaction").join("app.sock");
    let wait = Duration::from_secs(10);
    let app = RunningApp::launch_waiting(
        &socket,
        HeaderApp::default(),
        (40, 8),
        Between::Events(wait),
    );
    let (mut client, _) = Client::handshake(&app.socket);
    for (node, header) in [
        ("tasks/2", "Selected: Ship v0"),
        ("tasks/1", "Selected: Walk dog"),
    ] {
        let started = std::time::Instant::now();
        let (ack, tree) =
            client.input_and_tree(json!({"kind": "act", "node": node, "action": "select"}));
        let took = started.elapsed();
        assert!(
            took < wait / 2,
            "{took:?}: the frame after waited for the loop's timeout"
        );
        assert_eq!(ack["status"], "delivered", "{ack}");
        assert!(tree.get(node).unwrap().state.selected);
        assert_eq!(
            tree.get("header").unwrap().label.as_deref(),
            Some(header),
            "{}",
            tree.outline()
        );
    }
    // Wake the loop from its long wait so that it sees the stop at once.
    app.ask_to_stop();
    client.send(
        &json!({"type": "input", "seq": 3, "kind": "act", "node": "ping", "action": "activate"}),
    );
}

/// A widget's input and a handler's later input, drained in one turn: the frame the
/// widget took its input in is stamped below both, so neither gets it as its effect.
/// The loop draws every 200 ms on its own clock, so that frame is sent on its own
/// (not merged by the writer with the one after).
#[test]
fn a_later_handled_input_does_not_stamp_the_frame_a_widget_took_an_earlier_one_in() {
    let socket = temp_dir("same-turn").join("app.sock");
    let between = Between::Sleep(Duration::from_millis(200));
    let app = RunningApp::launch_waiting(&socket, HeaderApp::default(), (40, 8), between);
    let (mut client, _) = Client::handshake(&app.socket);
    app.pause();
    client.send(
        &json!({"type": "input", "seq": 1, "kind": "act", "node": "tasks/2", "action": "select"}),
    );
    client.send(
        &json!({"type": "input", "seq": 2, "kind": "act", "node": "ping", "action": "activate"}),
    );
    std::thread::sleep(Duration::from_millis(50));
    app.resume();
    client.until("the tree after input 1", |m| {
        m["input"].as_u64().is_some_and(|i| i >= 1)
    });
    let tree = client.current();
    assert_eq!(
        tree.get("header").unwrap().label.as_deref(),
        Some("Selected: Ship v0"),
        "{}",
        tree.outline()
    );
}

/// A loop that draws only when its own state changed (here: once) and then only
/// waits for events: an input held for its widgets wakes it once, not in a spin.
#[test]
fn a_loop_that_does_not_draw_is_woken_once_for_a_held_input_not_spun() {
    use std::sync::Arc;
    use std::sync::atomic::{AtomicBool, AtomicUsize};

    let socket = temp_dir("no-spin").join("app.sock");
    let options = Session::builder("test-app")
        .socket(&socket)
        .terminal_input(false);
    let mut session = options.try_start().unwrap();
    let (turns, stop) = (
        Arc::new(AtomicUsize::new(0)),
        Arc::new(AtomicBool::new(false)),
    );
    let thread = {
        let (turns, stop) = (Arc::clone(&turns), Arc::clone(&stop));
        std::thread::spawn(move || {
            let mut app = HeaderApp::default();
            let backend = ratatui::backend::TestBackend::new(40, 8);
            let mut terminal = ratatui::Terminal::new(backend).unwrap();
            let mut drawn = false;
            while !stop.load(Ordering::Relaxed) {
                session.drain(&mut app);
                if !drawn && session.is_connected() {
                    session
                        .draw(&mut terminal, |f| support::LoopApp::render(&mut app, f))
                        .unwrap();
                    drawn = true;
                }
                turns.fetch_add(1, Ordering::Relaxed);
                let _ = session.next_event(Some(Duration::from_millis(200)));
            }
        })
    };
    let (mut client, _) = Client::handshake(&socket);
    std::thread::sleep(Duration::from_millis(100));
    let before = turns.load(Ordering::Relaxed);
    client.send(
        &json!({"type": "input", "seq": 1, "kind": "act", "node": "tasks/2", "action": "select"}),
    );
    std::thread::sleep(Duration::from_millis(500));
    let spent = turns.load(Ordering::Relaxed) - before;
    stop.store(true, Ordering::Relaxed);
    thread.join().unwrap();
    // Woken by the input's arrival and once by drain; then 200 ms waits.
    assert!(spent < 20, "{spent} loop turns in 0.5 s");
}
