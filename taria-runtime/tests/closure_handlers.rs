//! Closure handlers for state kept in local variables (`taria::on` chained, given to
//! `taria::drain_with` at the top of the loop), driven over the app's real socket: an
//! agent's `set_value`, `toggle` and `activate` change the function's locals (two
//! closures the same one), an
//! out-of-domain value is refused with the app's reason, an argument that converts for
//! no handler is refused naming each, and each input is answered once.
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
use taria::{Action, FromValue, Key, Role, Session, Value};

type TestTerminal = Terminal<TestBackend>;

/// A day of the month: the app's own type, converted from the agent's value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Day(u8);

impl FromValue for Day {
    fn from_value(value: &Value) -> Result<Self, String> {
        match u8::from_value(value)? {
            day @ 1..=30 => Ok(Day(day)),
            day => Err(format!("June has no day {day}")),
        }
    }
}

fn draw(frame: &mut Frame<'_>, day: Day, marked: &[bool]) {
    taria::leaf(|n| {
        n.role(Role::SpinButton).id("day").label("Day").value(day.0);
        n.action(Action::SetValue);
    });
    let list = taria::scope(|n| {
        n.role(Role::List).id("marks").label("Marked");
    });
    for (i, mark) in marked.iter().enumerate() {
        taria::leaf(|n| {
            n.role(Role::ListItem).key(i).label(format!("mark {i}"));
            n.checked(*mark).action(Action::Toggle);
        });
    }
    drop(list);
    taria::leaf(|n| {
        n.role(Role::Button).id("clear").label("Clear");
        n.action(Action::Activate);
    });
    taria::leaf(|n| {
        n.role(Role::Button)
            .id("quit")
            .label("Quit")
            .action(Action::Activate);
    });
    frame.render_widget(Paragraph::new(format!("June {}", day.0)), frame.area());
}

/// The app: its state in the function's locals, its handlers closures over them.
#[taria::app(label = "locals")]
fn calendar(terminal: &mut TestTerminal) -> io::Result<(Day, Vec<bool>, Vec<KeyCode>)> {
    let mut day = Day(1);
    let mut marked = vec![false; 3];
    let mut quit = false;
    let mut keys = Vec::new();
    while !quit {
        taria::drain_with(
            taria::on("day", Action::SetValue, |value: Day| day = value)
                .on("marks/*", Action::Toggle, |Key(i): Key<usize>| {
                    let mark = marked.get_mut(i).ok_or("no such mark")?;
                    *mark = !*mark;
                    Ok::<_, &str>(())
                })
                .on("clear", Action::Activate, || marked.fill(false))
                .on("quit", Action::Activate, || quit = true),
        );
        let Ok(_) = terminal.draw(|frame| draw(frame, day, &marked));
        if let Event::Key(key) = event::read()?
            && key.kind == KeyEventKind::Press
        {
            keys.push(key.code);
            if key.code == KeyCode::Char('+') {
                day.0 = (day.0 % 30) + 1;
            }
        }
    }
    Ok((day, marked, keys))
}

#[test]
fn an_agent_changes_the_locals_through_closures_and_hears_their_refusals() {
    let socket = temp_dir("closure-handlers").join("app.sock");
    let (done_tx, done_rx) = mpsc::channel();
    let app_socket = socket.clone();
    std::thread::spawn(move || {
        let session = Session::builder("locals")
            .socket(&app_socket)
            .terminal_input(false)
            .try_start()
            .expect("the session starts");
        taria::install(session);
        let Ok(mut terminal) = Terminal::new(TestBackend::new(30, 4));
        done_tx
            .send(calendar(&mut terminal).unwrap())
            .expect("the test waits");
    });
    while !socket.exists() {
        std::thread::sleep(Duration::from_millis(5));
    }
    let (mut client, _) = Client::handshake(&socket);
    drive(&mut client);
    let (day, marked, keys) = done_rx
        .recv_timeout(Duration::from_secs(10))
        .expect("the app's loop ended");
    assert_eq!(day, Day(13), "the `+` key after the agent's 12");
    assert_eq!(marked, [false, false, true]);
    assert_eq!(keys, [KeyCode::Char('+')]);
}

fn drive(client: &mut Client) {
    let (ack, tree) = client
        .input_and_tree(json!({"kind": "act", "node": "day", "action": "set_value", "value": 12}));
    assert_eq!(ack["status"], "delivered", "{ack}");
    assert_eq!(
        tree.get("day").and_then(|n| n.value.clone()),
        Some(Value::Number(12.0))
    );

    // Out of the app's domain: its reason, and the local is unchanged.
    let ack =
        client.input(json!({"kind": "act", "node": "day", "action": "set_value", "value": 31}));
    assert_eq!(ack["status"], "rejected", "{ack}");
    let message = ack["message"].as_str().unwrap_or_default();
    assert!(
        message.contains("`|Day|` (for day): June has no day 31"),
        "{ack}"
    );

    // Two closures change `marked`: each is made only when its turn comes.
    let (ack, tree) =
        client.input_and_tree(json!({"kind": "act", "node": "marks/0", "action": "toggle"}));
    assert_eq!(ack["status"], "delivered", "{ack}");
    let checked = tree.get("marks/0").map(|n| n.state.checked);
    assert_eq!(checked, Some(Some(taria::Checked::True)), "{tree:?}");
    let (ack, tree) =
        client.input_and_tree(json!({"kind": "act", "node": "clear", "action": "activate"}));
    assert_eq!(ack["status"], "delivered", "{ack}");
    let checked = tree.get("marks/0").map(|n| n.state.checked);
    assert_eq!(checked, Some(Some(taria::Checked::False)), "{tree:?}");

    let (ack, tree) =
        client.input_and_tree(json!({"kind": "act", "node": "marks/2", "action": "toggle"}));
    assert_eq!(ack["status"], "delivered", "{ack}");
    let checked = tree.get("marks/2").map(|n| n.state.checked);
    assert_eq!(checked, Some(Some(taria::Checked::True)), "{tree:?}");

    let (ack, tree) = client.input_and_tree(json!({"kind": "key", "key": "+"}));
    assert_eq!(ack["status"], "delivered", "{ack}");
    assert_eq!(
        tree.get("day").and_then(|n| n.value.clone()),
        Some(Value::Number(13.0))
    );

    let ack = client.input(json!({"kind": "act", "node": "quit", "action": "activate"}));
    assert_eq!(ack["status"], "delivered", "{ack}");
    // Each input was answered once: no second ack for any of them until the app ends.
    while let Some(message) = client.next() {
        assert_ne!(message["type"], "ack", "a second answer: {message}");
    }
}
