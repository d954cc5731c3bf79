use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::widgets::Widget;

struct App;

#[taria::app]
impl Widget for &App {
    fn render(self, area: Rect, buf: &mut Buffer) {
        "app".render(area, buf);
    }
}

fn main() {
    let _ = <&App as Widget>::render;
}
