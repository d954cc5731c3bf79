use ratatui::buffer::Buffer;
use ratatui::layout::Rect;

#[taria::widget(role = custom("kanban_card"))]
fn render_card(area: Rect, buf: &mut Buffer) {
    let _ = (area, buf);
}

fn main() {
    let mut buf = Buffer::empty(Rect::new(0, 0, 10, 1));
    render_card(buf.area, &mut buf);
}
