use ratatui::buffer::Buffer;
use ratatui::layout::Rect;

// One condition per action: on the action or on its key.
#[taria::widget(role = list_item, key = "card", actions("move_back".when(true) = key("n").when(false)))]
fn render_card(area: Rect, buf: &mut Buffer) {
    let _ = (area, buf);
}

fn main() {
    let mut buf = Buffer::empty(Rect::new(0, 0, 10, 1));
    render_card(buf.area, &mut buf);
}
