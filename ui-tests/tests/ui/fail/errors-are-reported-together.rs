use ratatui::buffer::Buffer;

#[taria::widget(role = buton, label = "Save", label = "Save all", actions(activte))]
fn render_save(buf: &mut Buffer) {
    let _ = buf;
}

fn main() {
    let mut buf = Buffer::empty(ratatui::layout::Rect::new(0, 0, 10, 1));
    render_save(&mut buf);
}
