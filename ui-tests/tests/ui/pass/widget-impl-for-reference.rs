//! `#[taria::widget]` on `impl Widget for &T`, as ratatui's own widgets do; a
//! `#[derive(Semantic)]` on `T` describes the node through the reference.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::widgets::{Paragraph, Widget};
use taria::testing::Harness;

#[derive(taria::Semantic)]
struct Heading {
    #[taria(label)]
    text: String,
}

#[taria::widget(role = heading, id = "title")]
impl Widget for &Heading {
    fn render(self, area: Rect, buf: &mut Buffer) {
        Paragraph::new(self.text.as_str()).render(area, buf);
    }
}

fn main() {
    let heading = Heading { text: "Inbox".into() };
    let tree = Harness::new(10, 1).render(|frame| {
        frame.render_widget(&heading, frame.area());
    });
    assert_eq!(tree.outline(), "- heading \"Inbox\" [id=title]\n");
}
