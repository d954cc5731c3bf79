use ratatui::buffer::Buffer;
use ratatui::layout::Rect;

#[taria::widget(role = status)]
fn render_status(buf: &mut Buffer) {
    let _ = buf;
}

fn main() {
    let mut buf = Buffer::empty(Rect::new(0, 0, 10, 1));
    render_status(&mut buf);
}
