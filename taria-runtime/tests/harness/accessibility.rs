//! `AppHarness::assert_accessible`: the accessibility lint on the app's last frame,
//! after the inputs that led to it.

use ratatui::layout::Rect;
use ratatui::widgets::Paragraph;
use taria::testing::AppHarness;
use taria::{Action, Role};

/// A search box whose label the app drops once something is typed (a bug), and a
/// button that moves the focus to a row drawn below the screen (another).
#[derive(Default)]
struct Search {
    query: String,
    focus_below: bool,
}

#[taria::actions]
impl Search {
    #[action(node = "query", set_value)]
    fn set_query(&mut self, value: String) {
        self.query = value;
    }

    #[action(node = "more", activate)]
    fn more(&mut self) {
        self.focus_below = true;
    }
}

fn draw(frame: &mut ratatui::Frame<'_>, app: &mut Search) {
    frame.render_widget(
        Paragraph::new(format!("Search: {}\n[ More ]", app.query)),
        frame.area(),
    );
    taria::leaf(|n| {
        n.role(Role::TextInput)
            .id("query")
            .value(app.query.as_str());
        if app.query.is_empty() {
            n.label("Search");
        }
        n.action(Action::SetValue)
            .focused(!app.focus_below)
            .bounds(Rect::new(0, 0, 30, 1));
    });
    taria::leaf(|n| {
        n.role(Role::Button).id("more").label("More");
        n.action(Action::Activate).bounds(Rect::new(0, 1, 30, 1));
    });
    taria::leaf(|n| {
        n.role(Role::ListItem)
            .id("result")
            .label("Result")
            .focused(app.focus_below);
        n.bounds(Rect::new(0, 9, 30, 1));
    });
}

fn failure(check: impl FnOnce()) -> String {
    let failed = std::panic::catch_unwind(std::panic::AssertUnwindSafe(check))
        .expect_err("assert_accessible passed");
    crate::panic_message(&failed)
}

#[test]
fn a_label_dropped_after_an_input_fails_the_lint_naming_the_node() {
    let mut h = AppHarness::new(Search::default(), 30, 3, draw);
    h.assert_accessible();
    h.set_value("query", "ada").unwrap();
    let message = failure(|| h.assert_accessible());
    assert!(
        message.starts_with("at 30x3, an agent or a screen reader cannot tell these nodes apart"),
        "{message}"
    );
    assert!(
        message.contains("`query` (text_input): is a text_input without a label"),
        "{message}"
    );
}

#[test]
fn the_focus_moved_off_screen_fails_the_lint() {
    let mut h = AppHarness::new(Search::default(), 30, 3, draw);
    h.act("more", "activate").unwrap();
    let message = failure(|| h.assert_accessible());
    assert!(
        message.contains(
            "`result` (list_item): has the focus but is not on screen (bounds [0, 9, 30, 1])"
        ),
        "{message}"
    );
}
