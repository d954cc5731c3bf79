use ratatui::buffer::Buffer;
use ratatui::layout::Rect;

#[taria::widget(role = log, scroll(offset, lines.len()))]
fn render_log(lines: &[&str], offset: usize, area: Rect, buf: &mut Buffer) {
    let _ = (lines, offset, area, buf);
}

fn main() {
    let mut buf = Buffer::empty(Rect::new(0, 0, 10, 1));
    render_log(&["one"], 0, buf.area, &mut buf);
}
