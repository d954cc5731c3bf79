//! `role = custom("name", base)`: an app-specific role that consumers that don't
//! know it treat as its core base role.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use taria::Role;
use taria::testing::Harness;

#[taria::widget(role = custom("kanban_card", list_item), id = "card-1", label = "Ship v0")]
fn render_card(area: Rect, buf: &mut Buffer) {
    let _ = (area, buf);
}

fn main() {
    let tree = Harness::new(10, 1).render(|frame| render_card(frame.area(), frame.buffer_mut()));
    let card = tree.get("card-1").unwrap();
    assert_eq!(card.role, Role::ListItem);
    assert_eq!(card.custom_role.as_deref(), Some("kanban_card"));
    assert_eq!(tree.outline(), "- list_item:kanban_card \"Ship v0\" [id=card-1]\n");
}
