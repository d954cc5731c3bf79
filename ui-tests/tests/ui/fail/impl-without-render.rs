use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::widgets::Widget;

struct SaveButton;

#[taria::widget(role = button)]
impl Widget for SaveButton {
    fn draw(self, area: Rect, buf: &mut Buffer) {
        let _ = (area, buf);
    }
}

fn main() {
    let mut buf = Buffer::empty(Rect::new(0, 0, 10, 1));
    SaveButton.render(buf.area, &mut buf);
}
