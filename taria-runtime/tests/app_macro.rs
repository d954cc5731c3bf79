//! `#[taria::app]` on an app in the standard ratatui shape, driven over the socket:
//! generated handlers get typed arguments, key fallbacks reach `event::read`, and a
//! handler that ends the loop ends it at once; an action costs the loop one frame.
#![cfg(unix)]

mod support;

use std::io;
use std::sync::mpsc;
use std::time::Duration;

use ratatui::Terminal;
use ratatui::backend::TestBackend;
use ratatui::crossterm::event::{self, Event, KeyCode};
use ratatui::widgets::Paragraph;
use serde_json::json;
use support::{Client, temp_dir};
use taria::{Action, Role, ScrollDirection, Session, Value};

#[derive(Default)]
struct App {
    items: Vec<String>,
    volume: u8,
    name: String,
    scrolled: Vec<(ScrollDirection, u16)>,
    toggled: Vec<u32>,
    selected_index: Option<usize>,
    keys: Vec<KeyCode>,
    exit: bool,
}

#[taria::app(label = "macro-app")]
impl App {
    fn run(&mut self, terminal: &mut Terminal<TestBackend>) -> io::Result<()> {
        while !self.exit {
            let Ok(_) = terminal.draw(|frame| self.draw(frame));
            self.handle_events()?;
        }
        Ok(())
    }

    fn draw(&self, frame: &mut ratatui::Frame<'_>) {
        let list = taria::scope(|n| {
            n.role(Role::List).id("items").action(Action::Scroll);
        });
        for (i, item) in self.items.iter().enumerate() {
            taria::leaf(|n| {
                n.role(Role::ListItem)
                    .key(i * 10)
                    .label(item)
                    .index(i)
                    .selected(self.selected_index == Some(i));
                n.actions([Action::Toggle, Action::Select]);
                n.key_fallback(Action::Activate, "enter");
            });
        }
        drop(list);
        taria::leaf(|n| {
            n.role(Role::Slider)
                .id("volume")
                .value(self.volume)
                .min(0)
                .max(100)
                .action(Action::SetValue);
        });
        taria::leaf(|n| {
            n.role(Role::TextInput)
                .id("name")
                .value(self.name.as_str())
                .action(Action::SetValue);
        });
        taria::leaf(|n| {
            n.role(Role::Button)
                .id("quit")
                .label("Quit")
                .action(Action::Activate);
        });
        frame.render_widget(
            Paragraph::new(format!("volume {}", self.volume)),
            frame.area(),
        );
    }

    fn handle_events(&mut self) -> io::Result<()> {
        if let Event::Key(key) = event::read()? {
            self.keys.push(key.code);
        }
        Ok(())
    }

    #[action(node = "items/*", toggle)]
    fn toggle(&mut self, key: u32) {
        self.toggled.push(key);
    }

    #[action(node = "items/*", select)]
    fn select(&mut self, index: usize) {
        self.selected_index = Some(index);
    }

    #[action(node = "items", scroll)]
    fn scroll(&mut self, direction: ScrollDirection, amount: u16) {
        self.scrolled.push((direction, amount));
    }

    #[action(node = "volume", set_value)]
    fn set_volume(&mut self, value: u8) {
        self.volume = value;
    }

    #[action(node = "name", set_value)]
    fn set_name(&mut self, value: String) -> Result<(), String> {
        if value.contains('!') {
            return Err("no shouting".into());
        }
        self.name = value;
        Ok(())
    }

    #[action(node = "quit", activate)]
    fn quit(&mut self) {
        self.exit = true;
    }
}

/// Runs `run` (an app's loop, on a test terminal of `size`) on a thread of its own with
/// a session labelled `label`, and connects to it once it listens. The receiver gets
/// what `run` returns when the loop ends.
fn run_app<T: Send + 'static>(
    label: &'static str,
    size: (u16, u16),
    run: impl FnOnce(&mut Terminal<TestBackend>) -> T + Send + 'static,
) -> (Client, mpsc::Receiver<T>) {
    let socket = temp_dir(label).join("app.sock");
    let (done_tx, done_rx) = mpsc::channel();
    let app_socket = socket.clone();
    std::thread::spawn(move || {
        let options = Session::builder(label)
            .socket(&app_socket)
            .terminal_input(false);
        taria::install(options.try_start().expect("the app's endpoint starts"));
        let mut terminal =
            Terminal::new(TestBackend::new(size.0, size.1)).expect("a test terminal");
        done_tx
            .send(run(&mut terminal))
            .expect("the test waits for the loop's end");
    });
    // The socket file appears once the app listens: connect as soon as it is there.
    while !socket.exists() {
        std::thread::sleep(Duration::from_millis(5));
    }
    (Client::handshake(&socket).0, done_rx)
}

#[test]
fn generated_handlers_get_typed_arguments_and_the_loop_ends_when_told() {
    let (mut client, done_rx) = run_app("macro-app", (30, 4), |terminal| {
        let mut app = App {
            items: vec!["a".into(), "b".into(), "c".into()],
            ..App::default()
        };
        let result = app.run(terminal);
        (result.is_ok(), app)
    });
    let acts = [
        (
            json!({"kind": "act", "node": "items/20", "action": "toggle"}),
            "delivered",
        ),
        (
            json!({"kind": "act", "node": "items/10", "action": "select"}),
            "delivered",
        ),
        (
            json!({"kind": "act", "node": "items", "action": "scroll", "direction": "up", "amount": 3}),
            "delivered",
        ),
        (
            json!({"kind": "act", "node": "volume", "action": "set_value", "value": 42}),
            "delivered",
        ),
        (
            json!({"kind": "act", "node": "name", "action": "set_value", "value": "Ada"}),
            "delivered",
        ),
        (
            json!({"kind": "act", "node": "name", "action": "set_value", "value": "Ada!"}),
            "rejected",
        ),
        (
            json!({"kind": "act", "node": "items/10", "action": "activate"}),
            "delivered",
        ),
    ];
    for (input, status) in acts {
        let (ack, _) = client.input_and_tree(input.clone());
        assert_eq!(ack["status"], status, "{input} -> {ack}");
    }
    let tree = client.current();
    assert_eq!(tree.get("volume").unwrap().value, Some(Value::Number(42.0)));
    assert_eq!(
        tree.get("name").unwrap().value,
        Some(Value::Text("Ada".into()))
    );

    let ack = client.input(json!({"kind": "act", "node": "quit", "action": "activate"}));
    assert_eq!(ack["status"], "delivered");
    let (ok, app) = done_rx
        .recv_timeout(Duration::from_secs(10))
        .expect("the loop ended without any more input");
    assert!(ok);
    assert_eq!(app.toggled, [20]);
    assert_eq!(app.selected_index, Some(1));
    assert_eq!(app.scrolled, [(ScrollDirection::Up, 3)]);
    assert_eq!(app.name, "Ada");
    assert_eq!(
        app.keys.iter().filter(|k| **k == KeyCode::Enter).count(),
        1,
        "activate went through the key fallback"
    );
}

/// Frames the counting app has drawn.
static COUNTER_FRAMES: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);

/// The shape of `ratatui`'s templates and the todo example: the read is in the loop,
/// after the draw, and the loop's condition is a field a handler sets.
#[derive(Default)]
struct Counter {
    count: i64,
    exit: bool,
}

#[taria::app(label = "counter")]
impl Counter {
    fn run(&mut self, terminal: &mut Terminal<TestBackend>) -> io::Result<()> {
        while !self.exit {
            let Ok(_) = terminal.draw(|frame| self.draw(frame));
            if let Event::Key(key) = event::read()?
                && key.code == KeyCode::Char('+')
            {
                self.count += 1;
            }
        }
        Ok(())
    }

    fn draw(&self, frame: &mut ratatui::Frame<'_>) {
        COUNTER_FRAMES.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
        taria::leaf(|n| {
            n.role(Role::SpinButton)
                .id("count")
                .value(self.count)
                .action(Action::Increment);
        });
        taria::leaf(|n| {
            n.role(Role::Button)
                .id("quit")
                .label("Quit")
                .action(Action::Activate);
        });
        frame.render_widget(Paragraph::new(self.count.to_string()), frame.area());
    }

    #[action(node = "count", increment)]
    fn increment(&mut self) {
        self.count += 1;
    }

    #[action(node = "quit", activate)]
    fn quit(&mut self) {
        self.exit = true;
    }
}

#[test]
fn an_action_costs_the_loop_one_frame_and_a_handler_that_ends_the_loop_ends_it() {
    use std::sync::atomic::Ordering::SeqCst;
    let (mut client, done_rx) = run_app("counter", (20, 2), |terminal| {
        let mut app = Counter::default();
        let result = app.run(terminal);
        (result.is_ok(), app.count)
    });
    for expected in 1..=5 {
        let before = COUNTER_FRAMES.load(SeqCst);
        let (ack, tree) =
            client.input_and_tree(json!({"kind": "act", "node": "count", "action": "increment"}));
        assert_eq!(ack["status"], "delivered", "{ack}");
        assert_eq!(
            tree.get("count").unwrap().value,
            Some(Value::Number(f64::from(expected)))
        );
        // Were the loop woken once more after the frame that showed the change (to
        // see a loop condition the handler might have changed), it would draw that
        // frame again within a few milliseconds: give it far longer than that.
        std::thread::sleep(Duration::from_millis(150));
        assert_eq!(
            COUNTER_FRAMES.load(SeqCst) - before,
            1,
            "frames drawn for increment {expected}"
        );
    }
    let ack = client.input(json!({"kind": "act", "node": "quit", "action": "activate"}));
    assert_eq!(ack["status"], "delivered");
    let (ok, count) = done_rx
        .recv_timeout(Duration::from_secs(10))
        .expect("the loop ended without any more input");
    assert!(ok);
    assert_eq!(count, 5);
}
