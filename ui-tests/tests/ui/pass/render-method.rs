//! `#[taria::widget]` on a `&self` method of an inherent impl: arguments can read `self`.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::widgets::{Paragraph, Widget};
use taria::testing::Harness;

struct Inbox {
    unread: usize,
}

impl Inbox {
    #[taria::widget(role = region, id = "inbox", label("Inbox ({})", self.unread), busy = self.unread > 0)]
    fn render_header(&self, area: Rect, buf: &mut Buffer) {
        Paragraph::new("Inbox").render(area, buf);
    }
}

fn main() {
    let inbox = Inbox { unread: 2 };
    let tree = Harness::new(10, 1).render(|frame| {
        inbox.render_header(frame.area(), frame.buffer_mut());
    });
    assert_eq!(tree.outline(), "- region \"Inbox (2)\" [id=inbox] [busy]\n");
}
