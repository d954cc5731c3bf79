//! `#[taria::widget]` on a free function taking `area: Rect` and `&mut Buffer`; the
//! area is the node's bounds, also when the parameter is a pattern such as `_`.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::widgets::{Paragraph, Widget};
use taria::testing::Harness;

#[taria::widget(role = status, id = "status", label = "{count} tasks")]
fn render_status(count: usize, area: Rect, buf: &mut Buffer) {
    Paragraph::new(format!("{count} tasks")).render(area, buf);
}

#[taria::widget(role = separator, id = "rule")]
fn render_rule(_: Rect, _: &mut Buffer) {}

fn main() {
    let tree = Harness::new(20, 2).render(|frame| {
        let status = Rect::new(0, 0, 20, 1);
        render_status(3, status, frame.buffer_mut());
        render_rule(Rect::new(0, 1, 20, 1), frame.buffer_mut());
    });
    assert_eq!(tree.outline(), "- status \"3 tasks\" [id=status]\n- separator [id=rule]\n");
    assert_eq!(tree.get("status").unwrap().bounds, [0, 0, 20, 1].into());
    assert_eq!(tree.get("rule").unwrap().bounds, [0, 1, 20, 1].into());
}
