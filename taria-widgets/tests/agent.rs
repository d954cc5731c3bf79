//! Over a real socket: an agent's actions land in a widget's state with no app code
//! (the widget-state route), and the app's own handler still comes first.

#![cfg(unix)]
#![expect(clippy::unwrap_used, reason = "tests")]

use std::io::{BufRead, BufReader, Write};
use std::os::unix::net::UnixStream;
use std::time::{Duration, Instant};

use ratatui::backend::TestBackend;
use ratatui::{Frame, Terminal};
use serde_json::{Value, json};
use taria::{Actions, Invocation, Outcome, Session};
use taria_widgets::{
    List, ListState, Row, Scrollbar, ScrollbarOrientation, ScrollbarState, Table, TableState, Tabs,
};

#[derive(Default)]
struct App {
    list: ListState,
    table: TableState,
    tab: Option<usize>,
    bar: ScrollbarState,
    /// Selections the app's own handler took.
    handled: Vec<String>,
}

impl App {
    fn draw(&mut self, frame: &mut Frame<'_>) {
        let [a, b, c, d] = frame
            .area()
            .layout(&ratatui::layout::Layout::vertical([4, 4, 1, 4]));
        frame.render_stateful_widget(
            List::new(["a", "b", "c", "d", "e", "f"]).id("list"),
            a,
            &mut self.list,
        );
        let rows = (0..20).map(|i| Row::new([i.to_string(), format!("row {i}")]));
        frame.render_stateful_widget(Table::new(rows, [3, 10]).id("table"), b, &mut self.table);
        frame.render_stateful_widget(
            Tabs::new(["One", "Two", "Three"]).id("tabs"),
            c,
            &mut self.tab,
        );
        frame.render_stateful_widget(
            Scrollbar::new(ScrollbarOrientation::VerticalRight).id("bar"),
            d,
            &mut self.bar,
        );
    }
}

impl Actions for App {
    fn handle_action(&mut self, inv: &Invocation<'_>) -> Outcome {
        // The app observes and overrides one node itself.
        if inv.target() == "list/a" {
            self.handled.push(inv.action().to_string());
            return Outcome::Rejected("the app says no".into());
        }
        Outcome::NotHandled
    }
}

struct Client {
    stream: UnixStream,
    reader: BufReader<UnixStream>,
    seq: u64,
}

impl Client {
    fn send(&mut self, node: &str, action: &str, extra: &Value) -> u64 {
        self.seq += 1;
        let mut message = json!({"type": "input", "seq": self.seq, "kind": "act", "node": node, "action": action});
        if let (Some(m), Some(e)) = (message.as_object_mut(), extra.as_object()) {
            m.extend(e.clone());
        }
        let mut line = serde_json::to_vec(&message).unwrap();
        line.push(b'\n');
        self.stream.write_all(&line).unwrap();
        self.seq
    }

    /// The next message matching, while the app keeps turning.
    fn until(&mut self, turn: &mut dyn FnMut(), matches: impl Fn(&Value) -> bool) -> Value {
        let deadline = Instant::now() + Duration::from_secs(5);
        let mut line = String::new();
        while Instant::now() < deadline {
            turn();
            line.clear();
            match self.reader.read_line(&mut line) {
                Ok(0) => panic!("stream ended"),
                Ok(_) => {
                    let message: Value = serde_json::from_str(&line).unwrap();
                    if matches(&message) {
                        return message;
                    }
                }
                Err(e)
                    if matches!(
                        e.kind(),
                        std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut
                    ) => {}
                Err(e) => panic!("read failed: {e}"),
            }
        }
        panic!("timed out");
    }
}

#[test]
fn agent_actions_land_in_widget_state_without_app_code() {
    let dir = std::env::temp_dir().join(format!("taria-widgets-agent-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o700)).unwrap();
    }
    let options = Session::builder("widgets")
        .socket(dir.join("app.sock"))
        .terminal_input(false);
    let mut session = options.try_start().unwrap();
    let stream = UnixStream::connect(dir.join("app.sock")).unwrap();
    stream
        .set_read_timeout(Some(Duration::from_millis(20)))
        .unwrap();
    let mut client = Client {
        reader: BufReader::new(stream.try_clone().unwrap()),
        stream,
        seq: 0,
    };

    let mut app = App {
        bar: ScrollbarState::new(30),
        ..App::default()
    };
    let mut terminal = Terminal::new(TestBackend::new(30, 13)).unwrap();
    let mut turn = || {
        session.drain(&mut app);
        session
            .draw(&mut terminal, |frame| app.draw(frame))
            .unwrap();
    };
    client.until(&mut turn, |m| m["type"] == "tree");

    let mut act = |client: &mut Client, node: &str, action: &str, extra: Value| {
        let seq = client.send(node, action, &extra);
        client.until(&mut turn, |m| m["type"] == "ack" && m["seq"] == seq)
    };
    // List items are named by their words.
    let ack = act(&mut client, "list/d", "select", json!({}));
    assert_eq!(ack["status"], "delivered", "{ack}");
    let ack = act(&mut client, "table/2", "select", json!({}));
    assert_eq!(ack["status"], "delivered", "{ack}");
    // Cells are parts of their row: nothing to select on their own.
    let ack = act(&mut client, "table/2/1", "select", json!({}));
    assert_eq!(ack["reason"], "action_not_offered", "{ack}");
    let ack = act(&mut client, "tabs/2", "select", json!({}));
    assert_eq!(ack["status"], "delivered", "{ack}");
    let ack = act(
        &mut client,
        "bar",
        "scroll",
        json!({"direction": "down", "amount": 4}),
    );
    assert_eq!(ack["status"], "delivered", "{ack}");
    let ack = act(
        &mut client,
        "table",
        "scroll",
        json!({"direction": "down", "amount": 5}),
    );
    assert_eq!(ack["status"], "delivered", "{ack}");
    let ack = act(&mut client, "list/a", "select", json!({}));
    assert_eq!(
        ack["status"], "rejected",
        "the app's handler runs first: {ack}"
    );
    assert_eq!(ack["reason"], "handler_rejected", "{ack}");
    // A widget's own refusal is the widget's, not the app's handler's (issue 30).
    let ack = act(&mut client, "tabs", "select", json!({}));
    assert_eq!(
        (&ack["status"], &ack["reason"]),
        (&json!("rejected"), &json!("widget_rejected")),
        "{ack}"
    );

    assert_eq!(app.list.selected(), Some(3));
    assert_eq!(
        app.table.selected(),
        Some(7),
        "select row 2, then 5 rows down"
    );
    assert_eq!(app.tab, Some(2));
    assert_eq!(app.bar.get_position(), 4);
    assert_eq!(app.handled, ["select"]);
    let tree = session.tree();
    assert!(tree.get("list/d").unwrap().state.selected);
    assert!(tree.get("table/7").unwrap().state.selected);
    assert!(tree.get("tabs/2").unwrap().state.selected);
    let _ = std::fs::remove_dir_all(&dir);
}
