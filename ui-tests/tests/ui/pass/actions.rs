//! `actions(…)`: core actions bare, custom actions as strings, either with a key
//! fallback (`= key("…")`) naming the key the app's own input path takes.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use taria::testing::Harness;
use taria::Action;
use taria::node::ActionName;

#[taria::widget(
    role = list_item,
    id = "task",
    actions(activate, toggle = key("space"), "archive", "snooze" = key("ctrl+z"), dismiss = key("esc"),),
)]
fn render_task(area: Rect, buf: &mut Buffer) {
    let _ = (area, buf);
}

fn main() {
    let tree = Harness::new(10, 1).render(|frame| render_task(frame.area(), frame.buffer_mut()));
    let task = tree.get("task").unwrap();
    for core in [Action::Activate, Action::Toggle, Action::Dismiss] {
        assert!(task.actions.contains(&ActionName::Core(core)), "{core} missing");
    }
    for custom in ["archive", "snooze"] {
        assert!(task.actions.contains(&ActionName::Custom(custom.into())), "{custom} missing");
    }
    assert_eq!(task.actions.len(), 5);
    let keys: Vec<(&str, &str)> = task.keys.iter().map(|(a, k)| (a.as_str(), k.as_str())).collect();
    assert_eq!(keys, [("dismiss", "esc"), ("snooze", "ctrl+z"), ("toggle", "space")]);
}
