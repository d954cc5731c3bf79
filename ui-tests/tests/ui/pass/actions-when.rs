//! `<action>.when(condition)` and `<action> = key("…").when(condition)`: an action
//! offered only on frames where its condition holds (a card's `move_back` but in the
//! first column).

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use taria::testing::Harness;

#[taria::widget(role = list_item, key = title, label = title,
    actions(select, "move_back" = key("n").when(column > 0), activate.when(column < 3)))]
fn render_card(title: &str, column: usize, area: Rect, buf: &mut Buffer) {
    let _ = (title, column, area, buf);
}

fn main() {
    let tree = Harness::new(20, 2).render(|frame| {
        let [first, second] = [Rect::new(0, 0, 20, 1), Rect::new(0, 1, 20, 1)];
        render_card("todo", 0, first, frame.buffer_mut());
        render_card("done", 3, second, frame.buffer_mut());
    });
    let todo = tree.get("todo").unwrap();
    assert!(todo.offers("select") && todo.offers("activate"));
    assert!(!todo.offers("move_back"));
    let done = tree.get("done").unwrap();
    assert!(done.offers("move_back") && !done.offers("activate"));
    assert_eq!(done.keys.get("move_back").map(String::as_str), Some("n"));
}
