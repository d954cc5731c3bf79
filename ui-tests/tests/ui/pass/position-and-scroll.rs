//! `index`, `count` and `level` place a node among its siblings; `scroll(offset,
//! content, viewport)` says what part of the content is visible.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use taria::testing::Harness;

#[taria::widget(role = log, id = "log", count = lines.len(), scroll(offset, lines.len(), area.height))]
fn render_log(lines: &[&str], offset: usize, area: Rect, buf: &mut Buffer) {
    for (i, line) in lines.iter().enumerate().skip(offset).take(area.height.into()) {
        render_line(line, i, Rect { y: area.y + (i - offset) as u16, height: 1, ..area }, buf);
    }
}

#[taria::widget(role = tree_item, key = i, label = line, index = i, level = 2u8)]
fn render_line(line: &str, i: usize, area: Rect, buf: &mut Buffer) {
    buf.set_string(area.x, area.y, line, ratatui::style::Style::default());
}

fn main() {
    let tree = Harness::new(10, 2).render(|frame| {
        render_log(&["one", "two", "three"], 1, frame.area(), frame.buffer_mut());
    });
    assert_eq!(
        tree.outline(),
        "- log [id=log] [count=3] [scroll=1/3 view=2]\n  \
           - tree_item \"two\" [index=1] [level=2]\n  \
           - tree_item \"three\" [level=2]\n"
    );
}
