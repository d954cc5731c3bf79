//! Rows off screen through the real bridge (issue 14): an agent's `select` on an id
//! the app did not draw, under a scrolled list, reaches the app's handler, then its
//! widget, which brings the row into view; an id no row has is `not_found`, saying what is shown;
//! a recorded refusal of a positional id scrolled away replays as it was.

use std::time::{Duration, Instant};

use ratatui::Frame;
use ratatui::crossterm::event::Event;
use serde_json::json;
use taria::testing::{AppHarness, Replay};
use taria::{Action, Actions, Invocation, Outcome, Role};
use taria_schema::protocol::{Input, RejectReason};
use taria_schema::recording::Recording;

use crate::harness::{Mcp, temp_socket};
use crate::support;

/// A log of 100 lines drawn three at a time, as a list widget draws: it records the
/// lines on screen and takes agent actions on `log/<n>` while it renders.
#[derive(Default)]
struct Log {
    selected: Option<usize>,
    offset: usize,
    /// Lines named by their index (`position_key`), not keyed.
    positional: bool,
    /// The offset of the last frame drawn.
    drawn: usize,
    /// The whole log is disabled.
    disabled: bool,
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
        taria::widget::take_widget_actions("log", |inv| {
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
                .disabled(self.disabled)
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
    let log = Log::default();
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

/// A list of 40 items drawn 8 at a time under a title, scrolled and deleted from by
/// its handlers.
struct Items {
    items: Vec<usize>,
    offset: usize,
}

const ITEMS_VIEW: usize = 8;

impl Actions for Items {
    fn handle_action(&mut self, inv: &Invocation<'_>) -> Outcome {
        if inv.target() == "items" && inv.is(Action::Scroll) {
            let amount = inv.scroll().map_or(1, |(_, amount)| amount as usize);
            let last = self.items.len() - ITEMS_VIEW;
            self.offset = (self.offset + amount).min(last);
            return Outcome::Handled;
        }
        if inv.is_custom("delete")
            && let Some(n) = inv
                .target()
                .strip_prefix("items/")
                .and_then(|n| n.parse::<usize>().ok())
        {
            self.items.retain(|&i| i != n);
            return Outcome::Handled;
        }
        Outcome::NotHandled
    }
}

impl support::LoopApp for Items {
    fn render(&mut self, _frame: &mut Frame<'_>) {
        taria::leaf(|n| {
            n.role(Role::Heading)
                .id("title")
                .label("Forty things to do today");
        });
        let count = self.items.len();
        let _items = taria::scope(|n| {
            n.role(Role::List)
                .id("items")
                .label("Things")
                .count(count)
                .scroll(self.offset, count, ITEMS_VIEW)
                .action(Action::Scroll);
        });
        for (index, item) in self
            .items
            .iter()
            .enumerate()
            .skip(self.offset)
            .take(ITEMS_VIEW)
        {
            taria::leaf(|n| {
                n.key(*item)
                    .role(Role::ListItem)
                    .label(format!("thing number {item}"))
                    .index(index)
                    .count(count)
                    .custom_action("delete");
            });
        }
    }

    fn on_event(&mut self, _: &Event) {}
}

/// Issue 20.6: items that only left the view of a scrolled list are not said to be
/// removed: the result counts them (the list still holds them); an item deleted from
/// it is removed.
#[test]
fn rows_scrolled_out_of_view_are_counted_not_removed() {
    let socket = temp_socket("scrolled-out");
    let items = Items {
        items: (0..40).collect(),
        offset: 0,
    };
    let app = support::RunningApp::launch(&socket, items, 30, 10);
    let mut mcp = Mcp::start(&app.socket, &[]);
    mcp.ok("read_tree", json!({}));
    let scroll = json!({"node": "items", "action": "scroll", "amount": 2});
    let result = mcp.call("act", scroll);
    let text = result["content"][0]["text"].as_str().unwrap();
    assert!(text.contains("[id=items/9]"), "{text}");
    assert!(
        text.lines()
            .any(|l| l == "2 items of items scrolled out of view"),
        "{text}"
    );
    assert!(!text.contains("removed"), "{text}");
    let structured = &result["structuredContent"];
    assert_eq!(
        structured["scrolledOutIds"],
        json!(["items/0", "items/1"]),
        "{structured}"
    );
    assert!(structured.get("removedIds").is_none(), "{structured}");
    // Deleted: gone from the list (it holds one fewer), so removed.
    let result = mcp.call("act", json!({"node": "items/4", "action": "delete"}));
    let text = result["content"][0]["text"].as_str().unwrap();
    assert!(text.lines().any(|l| l == "removed: items/4"), "{text}");
    assert!(!text.contains("scrolled out"), "{text}");
    mcp.finish();
}

/// A positional id the agent saw, now off screen, may name another line at that
/// index: it is not selected blindly (the bridge sends the token of the line the agent
/// saw, which the app cannot check without the line, and refuses).
#[test]
fn a_positional_id_seen_then_scrolled_away_is_not_selected_blindly() {
    let socket = temp_socket("offscreen-positional");
    let log = Log {
        positional: true,
        ..Log::default()
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

/// Under a disabled list an id off screen is not held for it: the bridge answers
/// `not_found` itself, as the app would, and sends nothing.
#[test]
fn an_id_off_screen_under_a_disabled_list_is_not_sent() {
    let socket = temp_socket("offscreen-disabled");
    let log = Log {
        disabled: true,
        ..Log::default()
    };
    let app = support::RunningApp::launch(&socket, log, 30, 4);
    let mut mcp = Mcp::start(&app.socket, &[]);
    mcp.ok("read_tree", json!({}));
    let missing = mcp.fails(
        "act",
        json!({"node": "log/77", "action": "select"}),
        "not_found",
    );
    assert!(
        missing["message"]
            .as_str()
            .unwrap()
            .starts_with("no node has id `log/77`"),
        "the bridge's own answer, nothing sent: {missing}"
    );
    assert_eq!(app.app.lock().unwrap().selected, None);
    mcp.finish();
}

/// A recorded session (`--record`) in which the agent selects a positional id it saw
/// after the list scrolled it away (a batch's steps name nodes of the tree read before
/// it) replays with the app's recorded refusal: through `Replay`, and through the code
/// `test-from` writes, which sends the token the agent saw (`act_seen`).
#[test]
fn a_recorded_positional_id_scrolled_away_replays_with_its_refusal() {
    let socket = temp_socket("offscreen-replay");
    let path = support::temp_dir("offscreen-replay").join("session.jsonl");
    let log = || Log {
        positional: true,
        ..Log::default()
    };
    let app = support::RunningApp::launch(&socket, log(), 30, 4);
    let mut mcp = Mcp::start(&app.socket, &["--record", path.to_str().unwrap()]);
    mcp.ok("read_tree", json!({}));
    let batch = mcp.call(
        "batch",
        json!({"steps": [
            {"tool": "act", "node": "log/60", "action": "select"},
            {"tool": "act", "node": "log/1", "action": "select"},
        ]}),
    );
    assert_eq!(batch["isError"], true, "{batch}");
    assert_eq!(app.app.lock().unwrap().selected, Some(60));
    mcp.finish();
    let recording = Recording::read(&path).unwrap_or_else(|e| panic!("{e}"));
    let steps: Vec<_> = recording.inputs().collect();
    assert_eq!(steps.len(), 2, "{recording:?}");
    let Input::Act(request) = &steps[1].input.input else {
        panic!("{recording:?}")
    };
    let token = request
        .token
        .clone()
        .expect("the bridge sent the seen token");
    assert_eq!(
        steps[1].ack.as_ref().and_then(|ack| ack.reason),
        Some(RejectReason::UnknownNode)
    );

    let harness = || {
        AppHarness::new(log(), 30, 4, |frame, log: &mut Log| {
            support::LoopApp::render(log, frame);
        })
    };
    let mut h = harness();
    let replayed = Replay::new(&recording)
        .run(&mut h)
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(replayed.steps, 2);
    assert_eq!(h.app().selected, Some(60));

    // The generated test sends the token the agent saw, and what it does refuses too.
    let output = std::process::Command::new(env!("CARGO_BIN_EXE_taria-mcp"))
        .arg("test-from")
        .arg(&path)
        .output()
        .unwrap();
    let code = String::from_utf8_lossy(&output.stdout);
    assert!(output.status.success(), "{code}");
    let call = format!(
        "        .refused(AckStatus::Rejected, RejectReason::UnknownNode)\n        \
         .saying(\"no node `log/1` in the tree the app last drew; read the tree again\")\n        \
         .act_seen(\"log/1\", \"select\", \"{token}\")?;\n"
    );
    assert!(code.contains(&call), "{code}");
    assert!(
        !code.contains("The bridge refused"),
        "the app refused it: {code}"
    );
    let mut h = harness();
    h.act("log/60", "select").unwrap();
    let refused = h.act_seen("log/1", "select", &token);
    assert_eq!(
        refused.map_err(|e| e.reason),
        Err(RejectReason::UnknownNode)
    );
    assert_eq!(h.app().selected, Some(60));
}

/// Review of issue 14: an id off screen reaches the app's own handler first, as on
/// screen, marked undrawn; it went only to the widget, so the app never saw it (here
/// nothing took it: `not_found`).
#[test]
fn an_action_on_a_row_off_screen_reaches_the_app_s_handler_first() {
    let socket = temp_socket("offscreen-handler");
    let log = Log::default();
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
