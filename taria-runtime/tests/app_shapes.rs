//! Every loop shape `#[taria::app]` takes, driven over the app's real socket: in each,
//! an agent's action reaches the app (its `#[action]` handler, or a key fallback
//! through its own key handling) and an agent's key reaches its event read.
//!
//! * a `ratatui::run(|terminal| loop { … })`-style closure in a function, no handlers;
//! * a loop in a free function, its handlers named by `handlers = …`;
//! * a draw in a `&self` method with no loop around it (`taria::draw`), the loop in a
//!   `main`-like function;
//! * the loop's method on its own (`#[taria::app]` on the method);
//! * an impl block whose loop calls a `&mut self` helper that draws;
//! * an impl block whose loop calls a `&self` helper that draws and a `&mut self`
//!   helper that reads.
//!
//! The impl block with the loop in one method is `app_macro.rs`.
#![cfg(unix)]

mod support;

use std::io;
use std::sync::mpsc;
use std::time::Duration;

use ratatui::backend::TestBackend;
use ratatui::crossterm::event::{self, Event, KeyCode, KeyEventKind};
use ratatui::widgets::Paragraph;
use ratatui::{Frame, Terminal};
use serde_json::json;
use support::{Client, temp_dir};
use taria::{Action, Role, Session};

type TestTerminal = Terminal<TestBackend>;

/// Runs `app` on a thread with a session on a socket of its own, connects to it, and
/// hands the client to `drive`; returns what `app` returned once it ended.
fn drive<T: Send + 'static>(
    name: &str,
    app: impl FnOnce(&mut TestTerminal) -> T + Send + 'static,
    drive: impl FnOnce(&mut Client),
) -> T {
    let socket = temp_dir(name).join("app.sock");
    let (done_tx, done_rx) = mpsc::channel();
    let app_socket = socket.clone();
    std::thread::spawn(move || {
        let session = Session::builder("shapes")
            .socket(&app_socket)
            .terminal_input(false)
            .try_start()
            .expect("the session starts");
        taria::install(session);
        let Ok(mut terminal) = Terminal::new(TestBackend::new(30, 4));
        done_tx.send(app(&mut terminal)).expect("the test waits");
    });
    while !socket.exists() {
        std::thread::sleep(Duration::from_millis(5));
    }
    let (mut client, _) = Client::handshake(&socket);
    drive(&mut client);
    done_rx
        .recv_timeout(Duration::from_secs(10))
        .expect("the app's loop ended")
}

/// Sends `input` and asserts the app took it.
fn delivered(client: &mut Client, input: &serde_json::Value) {
    let ack = client.input(input.clone());
    assert_eq!(ack["status"], "delivered", "{input} -> {ack}");
}

/// The key an agent presses, as the app reads it.
fn pressed(event: &Event) -> Option<KeyCode> {
    match event {
        Event::Key(key) if key.kind == KeyEventKind::Press => Some(key.code),
        _ => None,
    }
}

// ---- a `ratatui::run`-style closure in a function, no handlers ----

/// `ratatui::run`'s shape on a test terminal: the closure gets the terminal.
fn run<R>(terminal: &mut TestTerminal, body: impl FnOnce(&mut TestTerminal) -> R) -> R {
    body(terminal)
}

fn render_popup(frame: &mut Frame<'_>, show_popup: bool) {
    taria::leaf(|n| {
        n.role(Role::Button).id("toggle").label("Details");
        n.key_fallback(Action::Activate, "p");
    });
    let text = if show_popup { "popup" } else { "list" };
    frame.render_widget(Paragraph::new(text), frame.area());
}

#[taria::app(label = "shape-closure")]
fn popup(terminal: &mut TestTerminal) -> io::Result<(bool, Vec<KeyCode>)> {
    let mut show_popup = false;
    let mut keys = Vec::new();
    run(terminal, |terminal| {
        loop {
            let Ok(_) = terminal.draw(|frame| render_popup(frame, show_popup));
            if let Some(key) = pressed(&event::read()?) {
                keys.push(key);
                match key {
                    KeyCode::Char('q') => break Ok((show_popup, keys)),
                    KeyCode::Char('p') => show_popup = !show_popup,
                    _ => {}
                }
            }
        }
    })
}

#[test]
fn in_a_ratatui_run_closure_an_action_s_key_and_a_key_reach_the_app() {
    let (shown, keys) = drive(
        "closure",
        |t| popup(t).unwrap(),
        |client| {
            delivered(
                client,
                &json!({"kind": "act", "node": "toggle", "action": "activate"}),
            );
            delivered(client, &json!({"kind": "key", "key": "q"}));
        },
    );
    assert!(shown, "the key fallback's `p` toggled the popup");
    assert_eq!(keys, [KeyCode::Char('p'), KeyCode::Char('q')]);
}

// ---- a loop in a free function, its handlers named ----

#[derive(Default)]
struct Counter {
    count: u32,
    keys: Vec<KeyCode>,
    quit: bool,
}

#[taria::actions]
impl Counter {
    #[action(node = "count", increment)]
    fn increment(&mut self) {
        self.count += 1;
    }

    #[action(node = "quit", activate)]
    fn quit(&mut self) {
        self.quit = true;
    }

    fn draw(&self, frame: &mut Frame<'_>) {
        taria::leaf(|n| {
            n.role(Role::SpinButton).id("count").value(self.count);
            n.action(Action::Increment);
        });
        taria::leaf(|n| {
            n.role(Role::Button).id("quit").action(Action::Activate);
        });
        frame.render_widget(Paragraph::new(self.count.to_string()), frame.area());
    }
}

#[taria::app(label = "shape-function", handlers = counter)]
fn count(terminal: &mut TestTerminal, counter: &mut Counter) -> io::Result<()> {
    while !counter.quit {
        let Ok(_) = terminal.draw(|frame| counter.draw(frame));
        if let Some(key) = pressed(&event::read()?) {
            counter.keys.push(key);
        }
    }
    Ok(())
}

#[test]
fn in_a_free_function_the_named_handlers_and_a_key_reach_the_app() {
    let counter = drive(
        "function",
        |t| {
            let mut counter = Counter::default();
            count(t, &mut counter).unwrap();
            counter
        },
        |client| {
            delivered(
                client,
                &json!({"kind": "act", "node": "count", "action": "increment"}),
            );
            delivered(client, &json!({"kind": "key", "key": "x"}));
            delivered(
                client,
                &json!({"kind": "act", "node": "quit", "action": "activate"}),
            );
        },
    );
    assert_eq!(counter.count, 1);
    assert_eq!(counter.keys, [KeyCode::Char('x')]);
}

/// The same with the app owned by the function (`handlers = counter`, a `let mut`).
#[taria::app(label = "shape-function", handlers = counter)]
fn count_owned(terminal: &mut TestTerminal) -> io::Result<Counter> {
    let mut counter = Counter::default();
    while !counter.quit {
        let Ok(_) = terminal.draw(|frame| counter.draw(frame));
        if let Some(key) = pressed(&event::read()?) {
            counter.keys.push(key);
        }
    }
    Ok(counter)
}

#[test]
fn a_function_that_owns_its_app_lends_it_to_the_handlers() {
    let counter = drive(
        "owned",
        |t| count_owned(t).unwrap(),
        |client| {
            delivered(
                client,
                &json!({"kind": "act", "node": "count", "action": "increment"}),
            );
            delivered(
                client,
                &json!({"kind": "act", "node": "quit", "action": "activate"}),
            );
        },
    );
    assert_eq!(counter.count, 1);
}

// ---- a draw in a method with no loop around it, the loop in a `main`-like function ----

#[derive(Default)]
struct Typing {
    typed: String,
    restarts: u32,
    done: bool,
}

#[taria::actions]
impl Typing {
    #[action(node = "restart", activate)]
    fn restart(&mut self) {
        self.typed.clear();
        self.restarts += 1;
    }

    /// Draws, with no loop around it: the loop is the caller's.
    fn render(&self, terminal: &mut TestTerminal) {
        let Ok(_) = taria::draw(terminal, |frame| {
            taria::leaf(|n| {
                n.role(Role::TextInput)
                    .id("typed")
                    .value(self.typed.as_str());
                n.focused(true);
            });
            taria::leaf(|n| {
                n.role(Role::Button).id("restart").action(Action::Activate);
            });
            frame.render_widget(Paragraph::new(self.typed.as_str()), frame.area());
        });
    }
}

#[taria::app(label = "shape-main", handlers = test)]
fn typing_main(terminal: &mut TestTerminal) -> io::Result<Typing> {
    let mut test = Typing::default();
    while !test.done {
        test.render(terminal);
        match pressed(&event::read()?) {
            Some(KeyCode::Char(c)) => test.typed.push(c),
            Some(KeyCode::Esc) => test.done = true,
            _ => {}
        }
    }
    Ok(test)
}

#[test]
fn with_the_draw_in_a_method_and_the_loop_in_main_text_and_actions_reach_the_app() {
    let test = drive(
        "main",
        |t| typing_main(t).unwrap(),
        |client| {
            // Text needs a focused text input in the tree: `taria::draw` recorded it.
            delivered(client, &json!({"kind": "text", "text": "ab"}));
            let (_, tree) = client
                .input_and_tree(json!({"kind": "act", "node": "restart", "action": "activate"}));
            assert_eq!(
                tree.get("typed").unwrap().value,
                Some(taria::Value::Text(String::new()))
            );
            delivered(client, &json!({"kind": "text", "text": "c"}));
            delivered(client, &json!({"kind": "key", "key": "esc"}));
        },
    );
    assert_eq!((test.typed.as_str(), test.restarts), ("c", 1));
}

// ---- the loop's method annotated on its own ----

#[derive(Default)]
struct Player {
    volume: u8,
    keys: Vec<KeyCode>,
    quit: bool,
}

#[taria::actions]
impl Player {
    #[taria::app(label = "shape-method")]
    fn run(&mut self, terminal: &mut TestTerminal) -> io::Result<()> {
        while !self.quit {
            let Ok(_) = terminal.draw(|frame| {
                taria::leaf(|n| {
                    n.role(Role::Slider).id("volume").value(self.volume);
                    n.action(Action::Increment);
                });
                frame.render_widget(Paragraph::new(self.volume.to_string()), frame.area());
            });
            match pressed(&event::read()?) {
                Some(KeyCode::Char('q')) => self.quit = true,
                Some(key) => self.keys.push(key),
                None => {}
            }
        }
        Ok(())
    }

    #[action(node = "volume", increment)]
    fn louder(&mut self) {
        self.volume += 1;
    }
}

#[test]
fn on_the_loop_s_method_the_impl_s_handlers_and_a_key_reach_the_app() {
    let player = drive(
        "method",
        |t| {
            let mut player = Player::default();
            player.run(t).unwrap();
            player
        },
        |client| {
            delivered(
                client,
                &json!({"kind": "act", "node": "volume", "action": "increment"}),
            );
            delivered(client, &json!({"kind": "key", "key": "x"}));
            delivered(client, &json!({"kind": "key", "key": "q"}));
        },
    );
    assert_eq!(player.volume, 1);
    assert_eq!(player.keys, [KeyCode::Char('x')]);
}

// ---- impl blocks whose loop calls helpers ----

/// What both helper-shaped apps show and do: a checkbox their handler toggles, and
/// the keys they read (`q` quits).
#[derive(Default)]
struct Checks {
    checked: bool,
    keys: Vec<KeyCode>,
    quit: bool,
}

impl Checks {
    fn draw(&self, frame: &mut Frame<'_>) {
        taria::leaf(|n| {
            n.role(Role::Checkbox).id("check").checked(self.checked);
            n.action(Action::Toggle);
        });
        frame.render_widget(Paragraph::new("checks"), frame.area());
    }

    fn on_event(&mut self, event: &Event) {
        match pressed(event) {
            Some(KeyCode::Char('q')) => self.quit = true,
            Some(key) => self.keys.push(key),
            None => {}
        }
    }
}

/// Its loop calls a `&mut self` method that draws: the drain runs just before it.
#[derive(Default)]
struct MutDraw {
    checks: Checks,
    frames: u32,
}

#[taria::app(label = "shape-mut-draw")]
impl MutDraw {
    fn run(&mut self, terminal: &mut TestTerminal) -> io::Result<()> {
        while !self.checks.quit {
            self.render(terminal);
            self.checks.on_event(&event::read()?);
        }
        Ok(())
    }

    fn render(&mut self, terminal: &mut TestTerminal) {
        self.frames += 1;
        let Ok(_) = terminal.draw(|frame| self.checks.draw(frame));
    }

    #[action(node = "check", toggle)]
    fn toggle(&mut self) {
        self.checks.checked = !self.checks.checked;
    }
}

/// Its loop calls a `&self` method that draws and a `&mut self` one that reads: the
/// drain runs before the read.
#[derive(Default)]
struct SharedDraw {
    checks: Checks,
}

#[taria::app(label = "shape-shared-draw")]
impl SharedDraw {
    fn run(&mut self, terminal: &mut TestTerminal) -> io::Result<()> {
        while !self.checks.quit {
            self.render(terminal);
            self.handle_events()?;
        }
        Ok(())
    }

    fn render(&self, terminal: &mut TestTerminal) {
        let Ok(_) = terminal.draw(|frame| self.checks.draw(frame));
    }

    fn handle_events(&mut self) -> io::Result<()> {
        self.checks.on_event(&event::read()?);
        Ok(())
    }

    #[action(node = "check", toggle)]
    fn toggle(&mut self) {
        self.checks.checked = !self.checks.checked;
    }
}

/// The agent toggles the box (the frame after it shows it checked), presses `y`, then
/// `q`; the app saw the toggle and the `y`.
fn check_toggle_and_keys(
    name: &str,
    run: impl FnOnce(&mut TestTerminal) -> Checks + Send + 'static,
) {
    let checks = drive(name, run, |client| {
        let (_, tree) =
            client.input_and_tree(json!({"kind": "act", "node": "check", "action": "toggle"}));
        assert_eq!(
            tree.get("check").expect("the checkbox").state.checked,
            Some(taria::Checked::True),
            "the frame after the act shows it"
        );
        delivered(client, &json!({"kind": "key", "key": "y"}));
        delivered(client, &json!({"kind": "key", "key": "q"}));
    });
    assert!(checks.checked);
    assert_eq!(checks.keys, [KeyCode::Char('y')]);
}

#[test]
fn a_helper_that_draws_with_mut_self_runs_the_handlers_before_its_frame() {
    check_toggle_and_keys("mut-draw", |t| {
        let mut app = MutDraw::default();
        app.run(t).unwrap();
        assert!(app.frames > 1);
        app.checks
    });
}

#[test]
fn a_helper_that_draws_with_shared_self_leaves_the_handlers_to_the_reading_helper() {
    check_toggle_and_keys("shared-draw", |t| {
        let mut app = SharedDraw::default();
        app.run(t).unwrap();
        app.checks
    });
}
