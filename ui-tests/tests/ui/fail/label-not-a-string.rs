use ratatui::buffer::Buffer;
use ratatui::layout::Rect;

#[taria::widget(role = button, label = 42)]
fn render_answer(area: Rect, buf: &mut Buffer) {
    let _ = (area, buf);
}

fn main() {
    let mut buf = Buffer::empty(Rect::new(0, 0, 10, 1));
    render_answer(buf.area, &mut buf);
}
