//! The audit's [`Target`] for an [`AppHarness`]: a fresh harness from the app's
//! constructor is a fresh start; watching an idle app is drawing it again.

use std::time::Duration;

use crate::dispatch::Actions;
use crate::testing::AppHarness;
use taria_audit::{Answer, Input, Observation, Target};
use taria_schema::protocol::{AckStatus, wire_name};
use taria_schema::{Action, ActionName};

/// Harnesses from `start`, one at a time.
pub(super) struct Headless<F, A> {
    start: F,
    app: Option<AppHarness<A>>,
}

impl<F: FnMut() -> AppHarness<A>, A: Actions> Headless<F, A> {
    pub(super) fn new(start: F) -> Headless<F, A> {
        Headless { start, app: None }
    }

    fn app(&mut self) -> Result<&mut AppHarness<A>, String> {
        self.app
            .as_mut()
            .ok_or_else(|| "the app was not started".to_owned())
    }
}

fn observe<A: Actions>(app: &AppHarness<A>) -> Observation {
    Observation {
        tree: app.tree(),
        screen: app.buffer().clone(),
    }
}

impl<F: FnMut() -> AppHarness<A>, A: Actions> Target for Headless<F, A> {
    fn start(&mut self) -> Result<Observation, String> {
        let app = (self.start)();
        let first = observe(&app);
        self.app = Some(app);
        Ok(first)
    }

    fn observe(&mut self, _wait: Duration) -> Result<Observation, String> {
        // A harness draws every frame an input owes before answering it: the frame
        // now is the one that follows.
        Ok(observe(self.app()?))
    }

    fn idle(&mut self, _during: Duration) -> Result<Vec<Observation>, String> {
        let app = self.app()?;
        app.render();
        Ok(vec![observe(app)])
    }

    fn perform(&mut self, input: &Input) -> Answer {
        let Ok(app) = self.app() else {
            return Answer::Exited {
                message: "the app was not started".into(),
            };
        };
        let done = match (&input.action, &input.value, input.direction) {
            (ActionName::Core(Action::Scroll), _, Some(direction)) => {
                app.scroll(&input.node, direction, 1)
            }
            (action, Some(value), _) => app.act_with(&input.node, action.as_str(), value.clone()),
            (action, None, _) => app.act(&input.node, action.as_str()),
        };
        match done {
            Ok(()) => Answer::Delivered { said_changed: None },
            Err(error) if error.status == AckStatus::Ignored => Answer::Ignored {
                message: error.message,
            },
            Err(error) => Answer::Refused {
                code: wire_name(&error.reason),
                message: error.message,
            },
        }
    }
}
