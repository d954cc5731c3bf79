use ratatui::buffer::Buffer;
use ratatui::layout::Rect;

#[taria::widget(role = button)]
trait Draw {
    fn draw(&self, area: Rect, buf: &mut Buffer);
}

struct SaveButton;

impl Draw for SaveButton {
    fn draw(&self, area: Rect, buf: &mut Buffer) {
        let _ = (area, buf);
    }
}

fn main() {
    let mut buf = Buffer::empty(Rect::new(0, 0, 10, 1));
    SaveButton.draw(buf.area, &mut buf);
}
