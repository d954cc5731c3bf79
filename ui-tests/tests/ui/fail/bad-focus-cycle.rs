use ratatui::buffer::Buffer;
use ratatui::layout::Rect;

// One key: a cycle names the key to the next node and the one to the previous.
#[taria::widget(role = list, id = "todo", actions(focus = cycle("l")))]
fn render_column(area: Rect, buf: &mut Buffer) {
    let _ = (area, buf);
}

// Only `focus` moves along a cycle.
#[taria::widget(role = list, id = "doing", actions(activate = cycle("l", "h")))]
fn render_other(area: Rect, buf: &mut Buffer) {
    let _ = (area, buf);
}

fn main() {
    let mut buf = Buffer::empty(Rect::new(0, 0, 10, 1));
    render_column(buf.area, &mut buf);
    render_other(buf.area, &mut buf);
}
