//! `#[taria::widget]` on an `impl Widget for T` block wraps its `render`.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::widgets::{Paragraph, Widget};
use taria::testing::Harness;

struct SaveButton {
    focused: bool,
}

#[taria::widget(role = button, id = "save", label = "Save", focused = self.focused, actions(activate))]
impl Widget for SaveButton {
    fn render(self, area: Rect, buf: &mut Buffer) {
        Paragraph::new("[ Save ]").render(area, buf);
    }
}

fn main() {
    let tree = Harness::new(10, 1).render(|frame| {
        frame.render_widget(SaveButton { focused: true }, frame.area());
    });
    assert_eq!(tree.outline(), "- button \"Save\" [id=save] [focused] {activate}\n");
    assert_eq!(tree.get("save").unwrap().bounds, [0, 0, 10, 1].into());
}
