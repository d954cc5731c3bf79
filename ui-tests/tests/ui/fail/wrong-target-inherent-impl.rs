use ratatui::buffer::Buffer;
use ratatui::layout::Rect;

struct Inbox;

#[taria::widget(role = region)]
impl Inbox {
    fn render(&self, area: Rect, buf: &mut Buffer) {
        let _ = (area, buf);
    }
}

fn main() {
    let mut buf = Buffer::empty(Rect::new(0, 0, 10, 1));
    Inbox.render(buf.area, &mut buf);
}
