//! The checks only a driver that tells the agent more than a harness can break (an
//! answer that says nothing changed, a refusal's words and code, an app that does not
//! start), against a scripted target: the bridge's answers, as `taria-mcp audit`
//! hands them to the explorer.

use std::time::Duration;

use ratatui::layout::Rect;
use ratatui::widgets::Paragraph;

use super::{Answer, Check, Input, Limits, Observation, Target, explore};
use crate::testing::Harness;
use taria_schema::{Action, Role};

/// Frame 0: a `Go` button; frame 1: the same, and a `Gone` status under it.
fn frames() -> Vec<Observation> {
    (0..2)
        .map(|frame| {
            let mut harness = Harness::new(20, 2);
            let tree = harness.render(|f| {
                crate::recorder::leaf(|n| {
                    n.role(Role::Button)
                        .id("go")
                        .label("Go")
                        .action(Action::Activate)
                        .bounds(Rect::new(0, 0, 20, 1));
                });
                f.render_widget(Paragraph::new("Go"), Rect::new(0, 0, 20, 1));
                if frame == 1 {
                    crate::recorder::leaf(|n| {
                        n.role(Role::Status)
                            .id("status")
                            .value("Gone")
                            .bounds(Rect::new(0, 1, 20, 1));
                    });
                    f.render_widget(Paragraph::new("Gone"), Rect::new(0, 1, 20, 1));
                }
            });
            Observation {
                tree,
                screen: harness.buffer().clone(),
            }
        })
        .collect()
}

/// A target whose inputs move it to frame 1 and are answered `answer`.
struct Scripted {
    frames: Vec<Observation>,
    now: usize,
    answer: Answer,
    starts: Result<(), String>,
}

impl Scripted {
    fn answering(answer: Answer) -> Scripted {
        Scripted {
            frames: frames(),
            now: 0,
            answer,
            starts: Ok(()),
        }
    }
}

impl Target for Scripted {
    fn start(&mut self) -> Result<Observation, String> {
        self.starts.clone()?;
        self.now = 0;
        Ok(self.frames[0].clone())
    }

    fn observe(&mut self, _wait: Duration) -> Result<Observation, String> {
        Ok(self.frames[self.now].clone())
    }

    fn idle(&mut self, _during: Duration) -> Result<Vec<Observation>, String> {
        Ok(vec![self.frames[self.now].clone()])
    }

    fn perform(&mut self, _input: &Input) -> Answer {
        if matches!(self.answer, Answer::Delivered { .. }) {
            self.now = 1;
        }
        self.answer.clone()
    }
}

fn checks(target: &mut Scripted) -> Vec<Check> {
    let report = explore(target, &Limits::default());
    report.violations.iter().map(|v| v.check).collect()
}

#[test]
fn an_answer_that_said_nothing_changed_before_the_frame_that_shows_a_change() {
    let mut early = Scripted::answering(Answer::Delivered {
        said_changed: Some(false),
    });
    assert_eq!(checks(&mut early), [Check::UntrueNothingChanged]);
    let mut told = Scripted::answering(Answer::Delivered {
        said_changed: Some(true),
    });
    assert_eq!(checks(&mut told), []);
}

#[test]
fn a_not_found_for_a_node_in_the_tree_is_an_untrue_refusal() {
    let mut target = Scripted::answering(Answer::Refused {
        code: "not_found".into(),
        message: "the app has no `go` now".into(),
    });
    assert_eq!(checks(&mut target), [Check::UntrueRefusal]);
}

#[test]
fn taria_s_words_quoted_as_the_app_s_are_misattributed() {
    let mut target = Scripted::answering(Answer::Refused {
        code: "action_unsupported".into(),
        message: "ignored: the app says \"`right` may move the selection of `tabs#2` instead\""
            .into(),
    });
    assert_eq!(checks(&mut target), [Check::Misattributed]);
    let mut app_s_own = Scripted::answering(Answer::Refused {
        code: "app_rejected".into(),
        message: "rejected: the app says \"the file is read-only\"".into(),
    });
    assert_eq!(checks(&mut app_s_own), []);
}

#[test]
fn an_app_that_does_not_start_fails_the_audit_and_says_why() {
    let mut target = Scripted::answering(Answer::Delivered { said_changed: None });
    target.starts = Err("no such file".into());
    let report = explore(&mut target, &Limits::default());
    assert_eq!(report.violations.len(), 1);
    assert_eq!(report.violations[0].check, Check::AppFailed);
    assert!(report.violations[0].message.contains("no such file"));
}

#[test]
fn what_the_budget_leaves_is_listed_as_not_tried() {
    let mut target = Scripted::answering(Answer::Delivered {
        said_changed: Some(true),
    });
    let limits = Limits {
        max_inputs: 0,
        ..Limits::default()
    };
    let report = explore(&mut target, &limits);
    assert_eq!(report.coverage().tried, 0);
    assert_eq!(report.untried.len(), 1);
    assert!(report.untried[0].why.contains("budget of 0 inputs"));
}
