//! A stateful render that ignores its state (`_`) still gets the state's
//! `#[derive(Semantic)]` description.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::widgets::{Paragraph, StatefulWidget, Widget};
use taria::testing::Harness;

struct Toggle;

#[derive(taria::Semantic)]
struct ToggleState {
    #[taria(checked)]
    on: bool,
}

#[taria::widget(role = switch, id = "wifi", label = "Wi-Fi", actions(toggle = key("space")))]
impl StatefulWidget for Toggle {
    type State = ToggleState;

    fn render(self, area: Rect, buf: &mut Buffer, _: &mut ToggleState) {
        Paragraph::new("Wi-Fi").render(area, buf);
    }
}

fn main() {
    let mut state = ToggleState { on: true };
    let tree = Harness::new(10, 1).render(|frame| {
        frame.render_stateful_widget(Toggle, frame.area(), &mut state);
    });
    assert_eq!(tree.outline(), "- switch \"Wi-Fi\" [id=wifi] [checked] {toggle}\n");
    assert_eq!(tree.get("wifi").unwrap().keys["toggle"], "space");
}
