//! Nodes behind an open modal dialog through the real bridge (issue 20.6): they keep
//! their ids in the outline, marked `[inert]`, so the agent can name them once the
//! dialog closes.

use ratatui::Frame;
use ratatui::crossterm::event::Event;
use serde_json::json;
use taria::{Action, Actions, Invocation, Outcome, Role};

use crate::harness::{Mcp, outline, temp_socket};
use crate::support;

/// Tasks whose `delete` asks first, in a modal dialog over the app; `submit` on it
/// deletes, `dismiss` keeps the task.
struct Confirm {
    tasks: Vec<&'static str>,
    confirming: Option<usize>,
    selected: usize,
}

impl Actions for Confirm {
    fn handle_action(&mut self, inv: &Invocation<'_>) -> Outcome {
        let task = inv.matches("tasks/*").and_then(|i| i.parse::<usize>().ok());
        match (inv.action().as_str(), task, inv.target()) {
            ("delete", Some(i), _) if i < self.tasks.len() => self.confirming = Some(i),
            ("select", Some(i), _) if i < self.tasks.len() => self.selected = i,
            ("submit", None, "confirm") => {
                if let Some(i) = self.confirming.take() {
                    self.tasks.remove(i);
                }
            }
            ("dismiss", None, "confirm") => self.confirming = None,
            _ => return Outcome::NotHandled,
        }
        Outcome::Handled
    }
}

impl support::LoopApp for Confirm {
    fn render(&mut self, _frame: &mut Frame<'_>) {
        {
            let _list = taria::scope(|n| {
                n.role(Role::List).id("tasks").label("Tasks");
            });
            for (i, title) in self.tasks.iter().enumerate() {
                taria::leaf(|n| {
                    n.role(Role::ListItem)
                        .key(i)
                        .label(title)
                        .selected(self.selected == i)
                        .action(Action::Select)
                        .custom_action("delete");
                });
            }
        }
        // Inert by nature: it offers nothing, with or without a dialog.
        taria::leaf(|n| {
            n.role(Role::Text).id("help").label("d deletes");
        });
        if let Some(i) = self.confirming {
            let _dialog = taria::scope(|n| {
                n.role(Role::Dialog)
                    .id("confirm")
                    .label(format_args!("Delete {:?}?", self.tasks[i]))
                    .modal(true)
                    .actions([Action::Submit, Action::Dismiss]);
            });
        }
    }

    fn on_event(&mut self, _: &Event) {}
}

#[test]
fn nodes_behind_a_modal_keep_their_ids_marked_inert() {
    let socket = temp_socket("modal-inert");
    let app = Confirm {
        tasks: vec!["Buy milk", "Write the README", "Record a demo"],
        confirming: None,
        selected: 0,
    };
    let app = support::RunningApp::launch(&socket, app, 30, 6);
    let mut mcp = Mcp::start(&app.socket, &[]);
    let before = outline(&mcp.ok("read_tree", json!({})));
    assert!(!before.contains("inert"), "{before}");
    let opened = mcp.call("act", json!({"node": "tasks/1", "action": "delete"}));
    let text = opened["content"][0]["text"].as_str().unwrap();
    assert!(
        text.lines().any(|l| l == "dialog confirm opened"),
        "the event on a line of its own: {text}"
    );
    // What the dialog made inert is not listed as changed.
    assert!(!text.contains("tasks/0"), "{text}");

    let tree = outline(&mcp.ok("read_tree", json!({})));
    for (i, title) in ["Buy milk", "Write the README", "Record a demo"]
        .iter()
        .enumerate()
    {
        let line = format!("\"{title}\" [id=tasks/{i}]");
        let found = tree.lines().find(|l| l.contains(&line));
        let found = found.unwrap_or_else(|| panic!("no {line} in {tree}"));
        assert!(found.ends_with("[inert]"), "{found}");
    }
    // A node that offers nothing anyway is not marked, and stays as it was.
    assert!(tree.contains("- text \"d deletes\" [id=help]\n"), "{tree}");
    assert!(!tree.contains("[id=confirm] [modal] [inert]"), "{tree}");
    let inert = mcp.ok("find_nodes", json!({"state": ["inert"]}));
    assert_eq!(inert["total"], 3, "{inert}");
    let json_tree = mcp.ok("read_tree", json!({"format": "json"}));
    let list = &json_tree["tree"][0];
    assert_eq!(list["children"][0]["id"], "tasks/0", "{json_tree}");
    assert_eq!(list["children"][0]["inert"], true, "{json_tree}");

    // Once it closes, the ids read while it was open act again.
    let closed = mcp.call("act", json!({"node": "confirm", "action": "dismiss"}));
    let text = closed["content"][0]["text"].as_str().unwrap();
    assert!(text.lines().any(|l| l == "dialog confirm closed"), "{text}");
    assert!(
        !text.contains("tasks/"),
        "nothing behind it changed: {text}"
    );
    // Its going is said once, by its event.
    assert!(!text.contains("removed"), "{text}");
    assert_eq!(
        closed["structuredContent"]["removedIds"],
        json!(["confirm"])
    );
    mcp.ok("act", json!({"node": "tasks/2", "action": "select"}));
    assert_eq!(app.app.lock().unwrap().selected, 2);
    mcp.finish();
}
