//! A widget that takes an agent's input while it renders: the app draws again, and
//! the frame the agent reads shows its reaction.

use ratatui::widgets::Paragraph;
use taria::testing::AppHarness;
use taria::{Action, Role, Value};

/// A counter whose total, drawn first, sums a spin button that takes `increment`
/// itself while it renders (as a stateful widget does).
#[derive(Default)]
struct Total {
    count: u32,
}

impl taria::Actions for Total {
    fn handle_action(&mut self, _: &taria::Invocation<'_>) -> taria::Outcome {
        taria::Outcome::NotHandled
    }
}

fn draw_total(frame: &mut ratatui::Frame<'_>, app: &mut Total) {
    let total = format!("Total: {}", app.count);
    taria::leaf(|n| {
        n.role(Role::Status).id("total").label(&total);
    });
    frame.render_widget(Paragraph::new(total.as_str()), frame.area());
    let count = &mut app.count;
    taria::widget::take_widget_actions("count", |action| {
        if action.is(taria::Action::Increment) {
            *count += 1;
            taria::Outcome::Handled
        } else {
            taria::Outcome::NotHandled
        }
    });
    taria::leaf(|n| {
        n.role(Role::SpinButton)
            .id("count")
            .value(*count)
            .action(Action::Increment);
    });
}

#[test]
fn after_a_widget_takes_an_input_the_app_draws_again_and_shows_its_reaction() {
    let mut h = AppHarness::new(Total::default(), 20, 1, draw_total);
    h.act("count", "increment").unwrap();
    assert_eq!(h.node("count").value, Some(Value::Number(1.0)));
    // The total was drawn before the widget took the input: only the frame after
    // shows it right, and that is the one the harness (like an agent) gets.
    assert_eq!(h.node("total").label.as_deref(), Some("Total: 1"));
    assert_eq!(h.screen(), "Total: 1");
}
