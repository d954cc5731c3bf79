use ratatui::buffer::Buffer;
use ratatui::layout::Rect;

#[taria::widget(role = button, focused(has_focus))]
fn render_save(has_focus: bool, area: Rect, buf: &mut Buffer) {
    let _ = (has_focus, area, buf);
}

fn main() {
    let mut buf = Buffer::empty(Rect::new(0, 0, 10, 1));
    render_save(true, buf.area, &mut buf);
}
