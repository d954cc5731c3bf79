use ratatui::buffer::Buffer;
use ratatui::layout::Rect;

struct Opaque;

#[taria::widget(role = button, label = opaque)]
fn render_save(opaque: &Opaque, area: Rect, buf: &mut Buffer) {
    let _ = (opaque, area, buf);
}

fn main() {
    let mut buf = Buffer::empty(Rect::new(0, 0, 10, 1));
    render_save(&Opaque, buf.area, &mut buf);
}
