//! A key fallback that `taria_schema::protocol::KeyChord` would not read is a compile error at the
//! string, with the grammar and a near miss named (before, the agent found out).
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;

#[taria::widget(
    role = text_input,
    actions(submit = key("entre"), focus = key("ctl+a"), dismiss = key("ctrl+"), toggle = key("f25"))
)]
fn render_field(area: Rect, buf: &mut Buffer) {
    let _ = (area, buf);
}

fn main() {
    let mut buf = Buffer::empty(Rect::new(0, 0, 10, 1));
    render_field(buf.area, &mut buf);
}
