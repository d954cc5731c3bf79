//! A recorded step checks what it meant and what the app answered, in a generated
//! test (`AppHarness::step`) and in `Replay` alike: an id that names another node now
//! fails before acting (or is re-found when asked), a refusal is compared whole, and
//! a resize is replayed.

use super::super::{AppHarness, Match, Replay, ReplayFailure};
use crate::dispatch::{Actions, Invocation, Outcome};
use taria_schema::protocol::{AckStatus, Input, RejectReason};
use taria_schema::recording::{
    InputTool, RecordedAck, RecordedInput, RecordedInputData, RecordedLine, RecordedResize,
    RecordedSize, RecordedTarget, Recording, RecordingHeader, RecordingMode,
};
use taria_schema::{Action, ActionRequest, Role, Tree};

/// A list of chores keyed by their place from 1 (as an app keys rows by a counter it
/// hands out): one added before the others shifts every id. `toggle` checks one;
/// `clear` refuses a chore that is not done, saying which (`not_done` words why). A
/// status line says the screen's width.
struct Chores {
    titles: Vec<&'static str>,
    done: Vec<bool>,
    status: String,
    not_done: &'static str,
}

impl Actions for Chores {
    fn handle_action(&mut self, invocation: &Invocation<'_>) -> Outcome {
        let Some(index) = invocation
            .matches("tasks/*")
            .and_then(|key| key.parse::<usize>().ok())
            .and_then(|key| key.checked_sub(1))
            .filter(|&index| index < self.titles.len())
        else {
            return Outcome::NotHandled;
        };
        if invocation.is(Action::Toggle) {
            self.done[index] = !self.done[index];
            self.status = format!("toggled {}", self.titles[index]);
            return Outcome::Handled;
        }
        if invocation.is_custom("clear") {
            if !self.done[index] {
                return Outcome::Rejected(format!("{} {}", self.titles[index], self.not_done));
            }
            self.status = format!("cleared {}", self.titles[index]);
            return Outcome::Handled;
        }
        Outcome::NotHandled
    }
}

fn chores(titles: &[&'static str]) -> AppHarness<Chores> {
    let app = Chores {
        titles: titles.to_vec(),
        done: vec![false; titles.len()],
        status: String::new(),
        not_done: "is not done",
    };
    AppHarness::new(app, 40, 6, |frame, app: &mut Chores| {
        let area = frame.area();
        let list = crate::recorder::scope(|n| {
            n.role(Role::List).id("tasks").label("Chores");
        });
        for (i, title) in app.titles.iter().enumerate() {
            crate::recorder::leaf(|n| {
                n.role(Role::ListItem)
                    .key(i + 1)
                    .label(*title)
                    .checked(app.done[i])
                    .action(Action::Toggle)
                    .custom_action("clear");
            });
        }
        drop(list);
        crate::recorder::leaf(|n| {
            n.role(Role::Status)
                .id("status")
                .label(format!("{} wide: {}", area.width, app.status));
        });
    })
}

const SAMPLE: &[&str] = &["Buy milk", "Call mom"];
/// The sample with one chore added before the others.
const SHIFTED: &[&str] = &["Water the plants", "Buy milk", "Call mom"];

fn act(node: &str, action: &str) -> Input {
    Input::Act(ActionRequest::new(node, action))
}

/// Drives `h` through `inputs` and records the session as the bridge would: each act
/// with the role and label of the node at its id before it.
fn record(mut h: AppHarness<Chores>, inputs: Vec<Input>) -> Recording {
    let (width, height) = h.size();
    let mut lines = vec![RecordedLine::tree(1, h.tree())];
    for (i, input) in inputs.into_iter().enumerate() {
        let step = i as u64 + 1;
        let target = match &input {
            Input::Act(request) => h
                .tree()
                .get(request.target.as_str())
                .map(RecordedTarget::of),
            _ => None,
        };
        let answer = h.submit(input.clone());
        lines.push(RecordedLine::Input(Box::new(RecordedInput {
            step,
            call: step,
            tool: InputTool::Act,
            input: RecordedInputData::plain(input),
            target,
            ack: Some(match answer {
                Ok(()) => RecordedAck {
                    status: AckStatus::Delivered,
                    reason: None,
                    message: None,
                },
                Err(e) => RecordedAck {
                    status: e.status,
                    reason: Some(e.reason),
                    message: Some(e.message),
                },
            }),
            revision: Some(step + 1),
            tree: Some(h.tree()),
            screen: None,
            answered_in_us: None,
        })));
    }
    Recording {
        header: RecordingHeader::new(
            "chores",
            RecordedSize { width, height },
            RecordingMode::Spawn,
        ),
        lines,
    }
}

/// The list left out of comparisons: its trees then match with a chore added, and
/// only the check of what each step meant can tell.
fn list_left_out() -> Match {
    Match::new().exclude("tasks").label("status", "* wide: *")
}

#[test]
fn an_id_that_names_another_node_now_fails_before_acting_naming_both() {
    let recording = record(chores(SAMPLE), vec![act("tasks/1", "toggle")]);
    let mut h = chores(SHIFTED);
    let error = Replay::new(&recording)
        .matching(list_left_out())
        .run(&mut h)
        .unwrap_err();
    let message = error.to_string();
    assert_eq!(error.step, 1, "{message}");
    assert!(
        message.starts_with(
            "replay step 1 (act tasks/1 toggle): tasks/1 is now \"Water the plants\"; the \
             recorded session acted on \"Buy milk\"."
        ),
        "{message}"
    );
    assert!(message.contains("`Replay::refind_moved`"), "{message}");
    assert!(message.contains("`.refind(…)`"), "{message}");
    assert!(matches!(error.failure, ReplayFailure::TargetChanged(_)));
    assert_eq!(h.app().done, [false, false, false], "nothing was toggled");

    // The same in a generated test's step.
    let rules = list_left_out();
    let mut h = chores(SHIFTED);
    let error = h
        .step(1, &rules)
        .seen(Role::ListItem, "Buy milk")
        .act("tasks/1", "toggle")
        .unwrap_err();
    assert_eq!(error.to_string(), message);
    assert_eq!(h.app().done, [false, false, false]);
}

#[test]
fn a_moved_node_is_refound_by_its_role_and_label_when_asked() {
    let recording = record(chores(SAMPLE), vec![act("tasks/1", "toggle")]);
    let mut h = chores(SHIFTED);
    Replay::new(&recording)
        // The status says which task was toggled: any status passes.
        .matching(Match::new().exclude("tasks").label("status", "*"))
        .refind_moved()
        .run(&mut h)
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(h.app().done, [false, true, false], "Buy milk was toggled");

    let rules = list_left_out();
    let mut h = chores(SHIFTED);
    h.step(1, &rules)
        .refind(Role::ListItem, "Buy milk")
        .act("tasks/1", "toggle")
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(h.app().done, [false, true, false]);

    // Gone, or not one alone: it fails, saying so.
    let mut h = chores(&["Water the plants", "Call mom"]);
    let error = h
        .step(1, &rules)
        .refind(Role::ListItem, "Buy milk")
        .act("tasks/1", "toggle")
        .unwrap_err()
        .to_string();
    assert!(
        error.contains(
            "tasks/1 is now \"Water the plants\", and no node is list_item \"Buy milk\" now"
        ),
        "{error}"
    );
    let mut h = chores(&["Water the plants", "Buy milk", "Buy milk"]);
    let error = h
        .step(1, &rules)
        .refind(Role::ListItem, "Buy milk")
        .act("tasks/1", "toggle")
        .unwrap_err()
        .to_string();
    assert!(
        error.contains("several nodes are list_item \"Buy milk\" now (tasks/2, tasks/3)"),
        "{error}"
    );
}

#[test]
fn a_label_a_rule_lets_change_is_still_the_node_meant() {
    let rules = Match::new().label("tasks/*", "Buy *");
    let mut h = chores(&["Buy oat milk"]);
    h.step(1, &rules)
        .seen(Role::ListItem, "Buy milk")
        .act("tasks/1", "toggle")
        .unwrap_or_else(|e| panic!("{e}"));
    // Another role is another node whatever the label.
    let error = h
        .step(2, &rules)
        .seen(Role::Button, "Buy milk")
        .act("tasks/1", "toggle")
        .unwrap_err()
        .to_string();
    assert!(
        error.contains(
            "tasks/1 is now list_item \"Buy oat milk\"; the recorded session acted on button \
             \"Buy milk\""
        ),
        "{error}"
    );
}

#[test]
fn a_refusal_is_compared_with_its_message_and_a_step_now_taken_says_so() {
    let recording = record(chores(SAMPLE), vec![act("tasks/1", "clear")]);
    let RecordedLine::Input(step) = &recording.lines[1] else {
        unreachable!()
    };
    assert_eq!(
        step.ack.as_ref().and_then(|a| a.message.as_deref()),
        Some("Buy milk is not done")
    );
    // The app words it otherwise now: the reason alone would pass.
    let reworded = || {
        let mut h = chores(SAMPLE);
        h.app_mut().not_done = "is still to do";
        h
    };
    let rules = Match::new().label("status", "*");
    let error = Replay::new(&recording)
        .matching(rules.clone())
        .run(&mut reworded())
        .unwrap_err()
        .to_string();
    assert_eq!(
        error,
        "replay step 1 (act tasks/1 clear): the app now answers rejected (handler_rejected): \
         \"Buy milk is still to do\"; the recorded session got rejected (handler_rejected): \
         \"Buy milk is not done\"\n"
    );
    // Under a rule on the node's id, it may change within the pattern.
    let mut h = reworded();
    h.step(1, &rules.clone().label("tasks/1", "Buy milk *"))
        .refused(AckStatus::Rejected, RejectReason::HandlerRejected)
        .saying("Buy milk is not done")
        .act("tasks/1", "clear")
        .unwrap_or_else(|e| panic!("{e}"));

    // A chore done now is cleared: the step was refused, and says that it is taken.
    let mut h = chores(SAMPLE);
    h.app_mut().done[0] = true;
    h.render();
    let error = h
        .step(4, &rules)
        .refused(AckStatus::Rejected, RejectReason::HandlerRejected)
        .saying("Buy milk is not done")
        .act("tasks/1", "clear")
        .unwrap_err();
    assert_eq!(
        format!("{error:?}"),
        "replay step 4 (act tasks/1 clear): the app now takes it (delivered); the recorded \
         session got rejected (handler_rejected): \"Buy milk is not done\"\n",
        "Debug is the message: a test returning the error prints it"
    );
}

#[test]
fn a_resize_is_replayed_and_the_tree_at_the_new_size_compared() {
    let mut h = chores(SAMPLE);
    let mut recording = record(chores(SAMPLE), vec![]);
    h.resize(60, 8);
    let resized = h.tree();
    h.submit(act("tasks/2", "toggle")).unwrap();
    recording.lines.push(RecordedLine::Resize(RecordedResize {
        call: 1,
        size: RecordedSize {
            width: 60,
            height: 8,
        },
        revision: Some(2),
        tree: Some(resized.clone()),
    }));
    recording
        .lines
        .push(RecordedLine::Input(Box::new(RecordedInput {
            step: 1,
            call: 2,
            tool: InputTool::Act,
            input: RecordedInputData::plain(act("tasks/2", "toggle")),
            target: Some(RecordedTarget {
                role: Role::ListItem,
                label: Some("Call mom".into()),
            }),
            ack: Some(RecordedAck {
                status: AckStatus::Delivered,
                reason: None,
                message: None,
            }),
            revision: Some(3),
            tree: Some(h.tree()),
            screen: None,
            answered_in_us: None,
        })));
    let mut replayed = chores(SAMPLE);
    Replay::new(&recording)
        .run(&mut replayed)
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(replayed.size(), (60, 8));

    // The tree at the new size is compared: an app that draws another one fails there.
    let mut other = recording.clone();
    let RecordedLine::Resize(resize) = &mut other.lines[1] else {
        unreachable!()
    };
    resize.tree = Some(relabel(&resized, "status", "61 wide: "));
    let error = Replay::new(&other)
        .run(&mut chores(SAMPLE))
        .unwrap_err()
        .to_string();
    assert!(
        error.starts_with(
            "replay, before the first input (resize 60x8): the tree differs from the recorded one"
        ),
        "{error}"
    );
}

/// `tree` with node `id` labelled `label`.
fn relabel(tree: &Tree, id: &str, label: &str) -> Tree {
    let mut tree = tree.clone();
    let mut stack: Vec<&mut taria_schema::Node> = tree.roots.iter_mut().collect();
    while let Some(node) = stack.pop() {
        if node.id == id {
            node.label = Some(label.into());
        }
        stack.extend(node.children.iter_mut());
    }
    tree
}

/// A step with a secret says `(redacted)` for it, never the value.
#[test]
fn a_secret_is_not_in_the_failure() {
    let mut h = AppHarness::new((), 20, 2, |frame, (): &mut ()| {
        crate::recorder::leaf(|n| {
            n.role(Role::TextInput)
                .id("pin")
                .label("PIN")
                .redacted(true)
                .action(Action::SetValue)
                .bounds(frame.area());
        });
    });
    let error = h
        .step(3, &Match::new())
        .set_value("pin", "1234")
        .unwrap_err()
        .to_string();
    assert!(
        error.starts_with("replay step 3 (set_value pin (redacted)): "),
        "{error}"
    );
    assert!(!error.contains("1234"), "{error}");
}

/// Two buttons: `fire`, whose handler panics, and `save`, whose handler logs an error.
struct Fuse;

impl Actions for Fuse {
    fn handle_action(&mut self, invocation: &Invocation<'_>) -> Outcome {
        match invocation.target() {
            "fire" => panic!("the fuse blew"),
            "save" => {
                tracing::error!(target: "fuse", "cannot save: the disk is full");
                Outcome::Handled
            }
            _ => Outcome::NotHandled,
        }
    }
}

fn fuse() -> AppHarness<Fuse> {
    AppHarness::new(Fuse, 20, 2, |frame, _: &mut Fuse| {
        for (row, id) in ["fire", "save"].into_iter().enumerate() {
            crate::recorder::leaf(|n| {
                n.role(Role::Button)
                    .id(id)
                    .label(id)
                    .action(Action::Activate)
                    .bounds(ratatui::layout::Rect::new(
                        0,
                        row as u16,
                        frame.area().width,
                        1,
                    ));
            });
        }
    })
}

/// A step whose handler panics fails naming the step and its input, with the panic's
/// message (the test panicked with the app's message alone, no step named).
#[test]
fn a_panic_in_a_step_names_the_step() {
    let mut h = fuse();
    h.step(1, &Match::new()).act("save", "activate").unwrap();
    let error = h
        .step(2, &Match::new())
        .seen(Role::Button, "fire")
        .act("fire", "activate")
        .expect_err("the app panicked");
    assert_eq!(error.step, 2);
    assert_eq!(
        error.failure,
        ReplayFailure::Panicked("the fuse blew".into())
    );
    assert_eq!(
        error.to_string(),
        "replay step 2 (act fire activate): the app panicked: \"the fuse blew\"\n"
    );
}

/// An error the app logged is said with the step it logged it at (the generated
/// test's last check, `assert_no_error_logged`, listed the error alone).
#[test]
fn an_error_logged_names_the_step_it_came_at() {
    let mut h = fuse();
    let rules = Match::new();
    h.step(4, &rules).act("save", "activate").unwrap();
    let failed = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        h.assert_no_error_logged();
    }))
    .expect_err("an error was logged");
    let message = failed.downcast_ref::<String>().cloned().unwrap_or_default();
    assert!(
        message.contains(
            "at step 4 (act save activate): error fuse: \"cannot save: the disk is full\""
        ),
        "{message}"
    );
}
