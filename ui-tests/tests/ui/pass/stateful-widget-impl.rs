//! `#[taria::widget]` on `impl StatefulWidget for T`: the widget's arguments can read
//! the state, and a `#[derive(Semantic)]` state describes the node too.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::widgets::{Paragraph, StatefulWidget, Widget};
use taria::testing::Harness;

struct Counter;

#[derive(taria::Semantic)]
struct CounterState {
    #[taria(value)]
    count: u32,
}

#[taria::widget(role = spin_button, id = "counter", label = "Count", max = 10, readonly = state.count >= 10, actions(increment, decrement))]
impl StatefulWidget for Counter {
    type State = CounterState;

    fn render(self, area: Rect, buf: &mut Buffer, state: &mut CounterState) {
        Paragraph::new(state.count.to_string()).render(area, buf);
    }
}

fn main() {
    let mut state = CounterState { count: 10 };
    let tree = Harness::new(10, 1).render(|frame| {
        frame.render_stateful_widget(Counter, frame.area(), &mut state);
    });
    assert_eq!(
        tree.outline(),
        "- spin_button \"Count\": 10 [id=counter] [readonly] {increment, decrement}\n"
    );
}
