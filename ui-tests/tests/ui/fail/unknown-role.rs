use ratatui::buffer::Buffer;
use ratatui::layout::Rect;

#[taria::widget(role = listitem)]
fn render_task(area: Rect, buf: &mut Buffer) {
    let _ = (area, buf);
}

fn main() {
    let mut buf = Buffer::empty(Rect::new(0, 0, 10, 1));
    render_task(buf.area, &mut buf);
}
