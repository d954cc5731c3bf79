//! Rows off screen through the real bridge (issue 14): an agent's `select` on an id
//! the app did not draw, under a scrolled list, reaches the app's handler, then its
//! widget, which brings the row into view; an id no row has is `not_found`, saying
//! what is shown.

use std::time::{Duration, Instant};

use ratatui::Frame;
use ratatui::crossterm::event::Event;
use serde_json::json;
use taria::{Action, Actions, Invocation, Outcome, Role};

use crate::harness::{Mcp, temp_socket};
use crate::support;

/// A log of 100 lines drawn three at a time, as a list widget draws: it records the
/// lines on screen and takes agent actions on `log/<n>` while it renders.
struct Log {
    selected: Option<usize>,
    offset: usize,
    /// Lines named by their index (`position_key`), not keyed.
    positional: bool,
    /// The offset of the last frame drawn.
    drawn: usize,
    /// The ids the app's handler took `activate` on, and whether each was undrawn.
    activated: Vec<(String, bool)>,
}

const LINES: usize = 100;
const VIEW: usize = 3;

/// The app's own handler: `activate` on a line, drawn or not.
impl Actions for Log {
    fn handle_action(&mut self, inv: &Invocation<'_>) -> Outcome {
        if inv.is(Action::Activate) && inv.matches("log/*").is_some() {
            self.activated
                .push((inv.target().to_owned(), inv.is_undrawn()));
            return Outcome::Handled;
        }
        Outcome::NotHandled
    }
}

impl support::LoopApp for Log {
    fn render(&mut self, _frame: &mut Frame<'_>) {
        taria::take_widget_actions("log", |inv| {
            let line = inv
                .target()
                .strip_prefix("log/")
                .and_then(|n| n.parse::<usize>().ok())
                .filter(|&n| n < LINES);
            match line {
                Some(n) if inv.is(Action::Select) => {
                    self.selected = Some(n);
                    self.offset = self.offset.clamp(n.saturating_sub(VIEW - 1), n);
                    Outcome::Handled
                }
                _ => Outcome::NotHandled,
            }
        });
        let _log = taria::scope(|n| {
            n.role(Role::List)
                .id("log")
                .count(LINES)
                .scroll(self.offset, LINES, VIEW)
                .actions([Action::Select, Action::Scroll]);
        });
        self.drawn = self.offset;
        for i in self.offset..self.offset + VIEW {
            taria::leaf(|n| {
                if self.positional {
                    n.position_key(i);
                } else {
                    n.key(i);
                }
                n.role(Role::ListItem)
                    .label(format!("line {i}"))
                    .selected(self.selected == Some(i))
                    .index(i)
                    .count(LINES)
                    .action(Action::Select);
            });
        }
    }

    fn on_event(&mut self, _: &Event) {}
}

#[test]
fn an_agent_selects_a_row_off_screen_through_the_bridge() {
    let socket = temp_socket("offscreen");
    let log = Log {
        selected: None,
        offset: 0,
        positional: false,
        drawn: 0,
        activated: Vec::new(),
    };
    let app = support::RunningApp::launch(&socket, log, 30, 4);
    let mut mcp = Mcp::start(&app.socket, &[]);
    mcp.ok("read_tree", json!({}));
    let selected = mcp.ok("act", json!({"node": "log/77", "action": "select"}));
    assert_eq!(selected["status"], "delivered", "{selected}");
    assert_eq!(app.app.lock().unwrap().selected, Some(77));
    // The tree after shows it, selected (most of the tree changed: the whole of it).
    let after = selected["changes"]
        .as_str()
        .or(selected["outline"].as_str())
        .unwrap_or_else(|| panic!("{selected}"));
    assert!(
        after.contains("\"line 77\" [id=log/77] [selected]"),
        "{selected}"
    );
    let missing = mcp.fails(
        "act",
        json!({"node": "log/500", "action": "select"}),
        "not_found",
    );
    assert!(
        missing["message"]
            .as_str()
            .unwrap()
            .contains("`log` shows items 75-77 of its 100"),
        "{missing}"
    );
    // Not under a scrolled node: refused by the bridge, as before.
    mcp.fails(
        "act",
        json!({"node": "nope/1", "action": "select"}),
        "not_found",
    );
    mcp.finish();
}

/// A positional id the agent saw, now off screen, may name another line at that
/// index: it is not selected blindly (the bridge sends the token of the line the agent
/// saw, which the app cannot check without the line, and refuses).
#[test]
fn a_positional_id_seen_then_scrolled_away_is_not_selected_blindly() {
    let socket = temp_socket("offscreen-positional");
    let log = Log {
        selected: None,
        offset: 0,
        positional: true,
        drawn: 0,
        activated: Vec::new(),
    };
    let app = support::RunningApp::launch(&socket, log, 30, 4);
    let mut mcp = Mcp::start(&app.socket, &[]);
    mcp.ok("read_tree", json!({}));
    // The app scrolls on its own and draws; the agent has not read the tree since.
    app.app.lock().unwrap().offset = 50;
    let deadline = Instant::now() + Duration::from_secs(10);
    while app.app.lock().unwrap().drawn != 50 {
        assert!(
            Instant::now() < deadline,
            "the app never drew the new offset"
        );
        std::thread::sleep(Duration::from_millis(5));
    }
    mcp.fails(
        "act",
        json!({"node": "log/1", "action": "select"}),
        "not_found",
    );
    assert_eq!(app.app.lock().unwrap().selected, None);
    mcp.finish();
}

/// Review of issue 14: an id off screen reaches the app's own handler first, as on
/// screen, marked undrawn; it went only to the widget, so the app never saw it (here
/// nothing took it: `not_found`).
#[test]
fn an_action_on_a_row_off_screen_reaches_the_app_s_handler_first() {
    let socket = temp_socket("offscreen-handler");
    let log = Log {
        selected: None,
        offset: 0,
        positional: false,
        drawn: 0,
        activated: Vec::new(),
    };
    let app = support::RunningApp::launch(&socket, log, 30, 4);
    let mut mcp = Mcp::start(&app.socket, &[]);
    mcp.ok("read_tree", json!({}));
    let activated = mcp.ok("act", json!({"node": "log/60", "action": "activate"}));
    assert_eq!(activated["status"], "delivered", "{activated}");
    assert_eq!(
        app.app.lock().unwrap().activated,
        [("log/60".to_owned(), true)]
    );
    assert_eq!(app.app.lock().unwrap().selected, None, "no widget took it");
    mcp.finish();
}
