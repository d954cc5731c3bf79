//! [`Knob`]: a one-slider test app whose handler takes `set_value`, applied before
//! the frame it is drawn in or, [`Knob::late`], after it (the next frame shows it).

use ratatui::Frame;
use ratatui::crossterm::event::Event;
use taria::{Action, Actions, FromValue as _, Invocation, Outcome, Role};

/// A slider `level` (0-9) that takes `set_value`.
#[derive(Default)]
pub(crate) struct Knob {
    level: u8,
    pending: Option<u8>,
    /// Applies a value after drawing (as an app that updates its state in a step of
    /// its own does), and draws a status line beside the slider, so a change of the
    /// slider alone is not most of the tree.
    late: bool,
}

impl Knob {
    /// A knob whose tree is its one slider: any change of it is most of the tree.
    pub(crate) fn new() -> Knob {
        Knob::default()
    }

    /// A knob that shows a value set a frame late, beside a status line.
    pub(crate) fn late() -> Knob {
        Knob {
            late: true,
            ..Knob::default()
        }
    }
}

impl Actions for Knob {
    fn handle_action(&mut self, inv: &Invocation<'_>) -> Outcome {
        match inv.value().and_then(|v| u8::from_value(v).ok()) {
            Some(level) => {
                self.pending = Some(level);
                Outcome::Handled
            }
            None => Outcome::NotHandled,
        }
    }
}

impl crate::support::LoopApp for Knob {
    fn render(&mut self, frame: &mut Frame<'_>) {
        if !self.late
            && let Some(level) = self.pending.take()
        {
            self.level = level;
        }
        taria::leaf(|n| {
            n.role(Role::Slider)
                .id("level")
                .label("Level")
                .value(self.level)
                .min(0)
                .max(9)
                .action(Action::SetValue);
        });
        if self.late {
            taria::leaf(|n| {
                n.role(Role::Status).id("note").label("steady");
            });
        }
        frame.render_widget(
            ratatui::widgets::Paragraph::new(format!("Level {} steady", self.level)),
            frame.area(),
        );
        // Drawn without it: the next frame shows it.
        if let Some(level) = self.pending.take() {
            self.level = level;
        }
    }

    fn on_event(&mut self, _: &Event) {}
}
