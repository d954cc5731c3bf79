//! The attribute and derive macros record what the render code says.

use ratatui::Frame;
use ratatui::buffer::Buffer;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::widgets::{Paragraph, StatefulWidget, Widget};
use taria::node::{ActionName, ValueSchema};
use taria::testing::Harness;
use taria::{Action, Checked, Role, Semantic};

#[derive(Semantic)]
#[taria(role = checkbox)]
struct TaskView<'a> {
    #[taria(label)]
    title: &'a str,
    #[taria(checked)]
    done: bool,
    #[taria(key)]
    key: u32,
}

#[taria::widget(actions(toggle = key("space"), "archive"))]
impl Widget for TaskView<'_> {
    fn render(self, area: Rect, buf: &mut Buffer) {
        let mark = if self.done { "[x]" } else { "[ ]" };
        Paragraph::new(format!("{mark} {}", self.title)).render(area, buf);
    }
}

struct TaskList<'a> {
    tasks: &'a [(&'a str, bool)],
}

#[derive(Default)]
struct TaskListState {
    selected: usize,
}

#[taria::widget(role = list, id = "tasks", label = "Tasks", count = self.tasks.len(), actions(select, scroll))]
impl StatefulWidget for TaskList<'_> {
    type State = TaskListState;

    fn render(self, area: Rect, buf: &mut Buffer, state: &mut TaskListState) {
        for (i, (title, done)) in self.tasks.iter().enumerate() {
            let row = Rect {
                y: area.y + i as u16,
                height: 1,
                ..area
            };
            let _item = taria::scope(|n| {
                n.role(Role::ListItem)
                    .index(i)
                    .selected(i == state.selected);
            });
            TaskView {
                title,
                done: *done,
                key: i as u32 + 100,
            }
            .render(row, buf);
        }
    }
}

#[taria::widget(role = status, id = "status", label = "{count} tasks")]
fn render_status(frame: &mut Frame<'_>, count: usize) {
    frame.render_widget(Paragraph::new(format!("{count} tasks")), frame.area());
}

#[taria::widget(role = slider, id = "volume", label = "Volume", value = level, min = 0, max = 10, step = 1, actions(set_value, increment))]
fn render_volume(level: u8, area: Rect, buf: &mut Buffer) {
    Paragraph::new(format!("Volume {level}")).render(area, buf);
}

#[taria::widget(role = text_input, id = "password", label = "Password", value = secret, redacted, actions(set_value))]
fn render_password(secret: &str, _: Rect, _buf: &mut Buffer) {}

#[test]
fn attribute_on_impls_and_functions_records_the_described_tree() {
    let tasks = [("Buy milk", false), ("Ship v0", true)];
    let mut harness = Harness::new(30, 6);
    let tree = harness.render(|frame| {
        let [list, status, volume, password] = Layout::vertical([
            Constraint::Length(2),
            Constraint::Length(1),
            Constraint::Length(1),
            Constraint::Length(1),
        ])
        .areas(frame.area());
        let mut state = TaskListState { selected: 1 };
        frame.render_stateful_widget(TaskList { tasks: &tasks }, list, &mut state);
        render_volume(3, volume, frame.buffer_mut());
        render_password("hunter2", password, frame.buffer_mut());
        let _ = status;
        render_status(frame, tasks.len());
    });
    assert_eq!(
        tree.outline(),
        r#"- list "Tasks" [id=tasks] {select, scroll}
  - list_item [id=tasks/list_item#0 positional] [index=0]
    - checkbox "Buy milk" [id=tasks/list_item#0/100 positional] [unchecked] {toggle, archive}
  - list_item [id=tasks/list_item#1 positional] [selected]
    - checkbox "Ship v0" [id=tasks/list_item#1/101 positional] [checked] {toggle, archive}
- slider "Volume": 3 [id=volume] {increment, set_value}
- text_input "Password": <hidden, 7 chars> [id=password] [redacted] {set_value}
- status "2 tasks" [id=status]
"#
    );
    let ship = tree.get("tasks/list_item#1/101").unwrap();
    assert_eq!(
        ship.bounds,
        taria::node::Bounds {
            x: 0,
            y: 1,
            width: 30,
            height: 1
        }
    );
    assert_eq!(ship.state.checked, Some(Checked::True));
    assert_eq!(ship.keys.get("toggle").map(String::as_str), Some("space"));
    assert!(ship.actions.contains(&ActionName::Custom("archive".into())));
    let volume = tree.get("volume").unwrap();
    assert_eq!(
        volume.value_schema,
        Some(ValueSchema::Number {
            min: Some(0.0),
            max: Some(10.0),
            step: Some(1.0)
        })
    );
    assert!(volume.offers(Action::Increment.name()));
    assert_eq!(
        tree.get("status").unwrap().bounds,
        taria::node::Bounds {
            x: 0,
            y: 0,
            width: 30,
            height: 6
        }
    );
}

#[test]
fn redacted_values_never_reach_any_serialized_form() {
    let mut harness = Harness::new(20, 1);
    let tree = harness.render(|frame| render_password("hunter2", frame.area(), frame.buffer_mut()));
    let json = serde_json::to_string(&tree).unwrap();
    assert!(json.contains("\"redacted\":true"), "{json}");
    assert!(!json.contains("hunter2"), "{json}");
    assert!(!tree.outline().contains("hunter2"));
    assert_eq!(tree.get("password").unwrap().value, None);
}

/// A secret's length is all that is shown of it, so an agent can see it was filled
/// in or changed (before, setting a password showed no change at all).
#[test]
fn a_redacted_value_shows_its_length_only() {
    let mut harness = Harness::new(20, 1);
    let tree = harness.render(|frame| render_password("hunter2", frame.area(), frame.buffer_mut()));
    let node = tree.get("password").unwrap();
    assert_eq!((node.value.as_ref(), node.redacted_length), (None, Some(7)));
    assert!(
        tree.outline().contains(": <hidden, 7 chars>"),
        "{}",
        tree.outline()
    );
    let json = serde_json::to_string(&tree).unwrap();
    assert!(json.contains("\"redactedLength\":7"), "{json}");
    let longer =
        harness.render(|frame| render_password("hunter22", frame.area(), frame.buffer_mut()));
    assert!(
        !longer.diff(&tree).is_empty(),
        "a changed secret is a change"
    );
    let empty = harness.render(|frame| render_password("", frame.area(), frame.buffer_mut()));
    assert_eq!(empty.get("password").unwrap().redacted_length, None);
}
