//! `focus = cycle("next", "previous")`: the keys the app moves the focus by among the
//! columns of a board, recorded as the column's key for `focus`.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use taria::testing::Harness;

#[taria::widget(role = list, id = name, focused = focused, actions(focus = cycle("l", "h")))]
fn render_column(name: &str, focused: bool, area: Rect, buf: &mut Buffer) {
    let _ = (name, focused, area, buf);
}

fn main() {
    let tree = Harness::new(20, 2).render(|frame| {
        let area = frame.area();
        render_column("todo", true, area, frame.buffer_mut());
    });
    let column = tree.get("todo").unwrap();
    assert!(column.offers("focus"));
    assert_eq!(
        column.keys.get("focus").map(String::as_str),
        Some("l (next) / h (previous)")
    );
}
