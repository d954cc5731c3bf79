//! `bounds = <Rect>` gives the node's bounds, so the render function needs no area.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use taria::testing::Harness;

#[taria::widget(role = tooltip, id = "hint", label = "Press ? for help", bounds = Rect::new(2, 1, 16, 1))]
fn render_hint(buf: &mut Buffer) {
    buf.set_string(2, 1, "Press ? for help", ratatui::style::Style::default());
}

fn main() {
    let tree = Harness::new(20, 3).render(|frame| render_hint(frame.buffer_mut()));
    assert_eq!(tree.outline(), "- tooltip \"Press ? for help\" [id=hint]\n");
    assert_eq!(tree.get("hint").unwrap().bounds, [2, 1, 16, 1].into());
}
