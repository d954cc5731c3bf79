//! `#[taria::widget]` on a function taking `frame: &mut Frame`: the bounds are the
//! frame's area.

use ratatui::Frame;
use ratatui::widgets::Paragraph;
use taria::testing::Harness;

#[taria::widget(role = app, id = "app", label = "Todo")]
fn draw(frame: &mut Frame<'_>) {
    frame.render_widget(Paragraph::new("Todo"), frame.area());
}

fn main() {
    let tree = Harness::new(12, 4).render(draw);
    assert_eq!(tree.outline(), "- app \"Todo\" [id=app]\n");
    assert_eq!(tree.get("app").unwrap().bounds, [0, 0, 12, 4].into());
}
