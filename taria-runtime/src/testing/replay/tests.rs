use ratatui::crossterm::event::{Event, KeyCode};

use super::{Replay, ReplayError, ReplayFailure, TargetChange};
use crate::dispatch::{Actions, Invocation, Outcome};
use crate::testing::{AppHarness, Match};
use taria_schema::protocol::Input;
use taria_schema::recording::{
    AppEvent, InputTool, RecordedAck, RecordedApp, RecordedInput, RecordedInputData, RecordedLine,
    RecordedLog, RecordedRead, RecordedSize, Recording, RecordingHeader, RecordingMode,
};
use taria_schema::{Action, ActionData, ActionRequest, Role, Value};

/// A sign-in box: a redacted password, a clock showing when the app started, a status.
struct Login {
    password: String,
    started: &'static str,
    status: String,
}

impl Actions for Login {
    fn handle_action(&mut self, invocation: &Invocation<'_>) -> Outcome {
        if invocation.matches("password").is_some() && invocation.is(Action::SetValue) {
            if let Some(Value::Text(text)) = invocation.value() {
                self.password.clone_from(text);
            }
            self.status = format!("{} characters", self.password.chars().count());
            return Outcome::Handled;
        }
        Outcome::NotHandled
    }
}

fn login(started: &'static str) -> AppHarness<Login> {
    let app = Login {
        password: String::new(),
        started,
        status: String::new(),
    };
    AppHarness::new(app, 40, 3, |frame, app: &mut Login| {
        let area = frame.area();
        crate::recorder::leaf(|n| {
            n.role(Role::TextInput)
                .id("password")
                .label("Password")
                .redacted(true)
                .value(app.password.as_str())
                .focused(true)
                .action(Action::SetValue)
                .bounds(area);
        });
        crate::recorder::leaf(|n| {
            n.role(Role::Status).id("clock").label(app.started);
        });
        crate::recorder::leaf(|n| {
            n.role(Role::Status).id("status").label(app.status.as_str());
        });
    })
    .on_event(|app, event| {
        if let Event::Key(key) = event
            && let KeyCode::Char(c) = key.code
        {
            app.password.push(c);
            app.status = format!("{} characters", app.password.chars().count());
        }
    })
}

/// Drives `h` through `inputs` and records the session as the bridge would, secrets
/// left out: a `set_value` on `password` and text typed into it.
fn record(mut h: AppHarness<Login>, inputs: Vec<Input>) -> Recording {
    let (width, height) = h.size();
    let mut lines = vec![RecordedLine::tree(1, h.tree())];
    for (i, input) in inputs.into_iter().enumerate() {
        let step = i as u64 + 1;
        lines.push(RecordedLine::Read(RecordedRead {
            call: step,
            tool: "read_tree".into(),
            arguments: serde_json::Map::new(),
            revision: step,
        }));
        let answer = h.submit(input.clone());
        let redacted = RecordedInputData {
            input: match input {
                Input::Act(mut request) => {
                    request.data = None;
                    Input::Act(request)
                }
                _ => Input::Text {
                    text: String::new(),
                    raw: false,
                },
            },
            redacted: true,
        };
        lines.push(RecordedLine::Input(Box::new(RecordedInput {
            step,
            call: step,
            tool: InputTool::SetValue,
            input: redacted,
            target: None,
            ack: Some(RecordedAck {
                status: answer.map_or_else(
                    |e| e.status,
                    |()| taria_schema::protocol::AckStatus::Delivered,
                ),
                reason: None,
                message: None,
            }),
            revision: Some(step + 1),
            tree: Some(h.tree()),
            screen: None,
            answered_in_us: None,
        })));
    }
    Recording {
        header: RecordingHeader::new(
            "login",
            RecordedSize { width, height },
            RecordingMode::Spawn,
        ),
        lines,
    }
}

fn set_password(text: &str) -> Input {
    let mut request = ActionRequest::new("password", Action::SetValue);
    request.data = Some(ActionData::Value { value: text.into() });
    Input::Act(request)
}

fn session() -> Recording {
    record(
        login("12:00"),
        vec![
            set_password("hunter2"),
            Input::Text {
                text: "!!".into(),
                raw: false,
            },
        ],
    )
}

#[test]
fn a_redacted_input_needs_its_secret_of_the_same_length() {
    let recording = session();
    let error = Replay::new(&recording)
        .run(&mut login("12:00"))
        .unwrap_err();
    assert_eq!(error.step, 1);
    assert_eq!(
        error.failure,
        ReplayFailure::SecretMissing(Some("password".into()))
    );
    assert_eq!(
        error.to_string(),
        "replay step 1 (set_value password (redacted)): this input was redacted in the \
         recording: give its value with Replay::secret(\"password\", …)\nbefore it the \
         agent read:\n  read_tree {}\n"
    );

    // Another length shows in the tree (`[redacted=N]`) and in the app's status.
    let error = Replay::new(&recording)
        .secret("password", "hunter")
        .run(&mut login("12:00"))
        .unwrap_err();
    assert_eq!(error.step, 1, "{error}");
    assert!(
        error.to_string().contains("+ - status \"6 characters\""),
        "{error}"
    );

    // The typed text went to the focused node, the password too: its secret is the
    // same one, so give both steps' in one value each time... here both are `password`.
    let error = Replay::new(&recording)
        .secret("password", "hunter2")
        .run(&mut login("12:00"))
        .unwrap_err();
    assert_eq!(
        error.step, 2,
        "the typed text gets the password's secret: {error}"
    );
}

#[test]
fn a_volatile_node_is_left_out_by_id() {
    let recording = record(login("12:00"), vec![set_password("abc")]);
    let later = |rules: Match| {
        Replay::new(&recording)
            .secret("password", "abc")
            .matching(rules)
            .run(&mut login("12:07"))
    };
    let error = later(Match::new()).unwrap_err();
    assert_eq!(error.step, 0);
    assert_eq!(error.input, None);
    assert!(
        error.to_string().starts_with(
            "replay, the first tree (before any input): the tree differs from the recorded \
             one (- recorded, + now):\n"
        ),
        "{error}"
    );
    assert!(
        error
            .to_string()
            .contains("- - status \"12:00\" [id=clock]\n+ - status \"12:07\" [id=clock]\n"),
        "{error}"
    );
    assert_eq!(later(Match::new().exclude("clo*")).unwrap().steps, 1);
    assert_eq!(later(Match::new().label("clock", "12:*")).unwrap().steps, 1);
}

#[test]
fn the_error_lists_what_the_agent_read_before_the_step() {
    let recording = record(login("12:00"), vec![set_password("abc")]);
    let error = Replay::new(&recording)
        .secret("password", "abcd")
        .run(&mut login("12:00"))
        .unwrap_err();
    assert_eq!(error.read_before, ["read_tree {}"]);
    assert!(
        error
            .to_string()
            .ends_with("before it the agent read:\n  read_tree {}\n"),
        "{error}"
    );
}

#[test]
fn a_replay_goes_on_after_the_app_came_back_as_it_was_and_not_otherwise() {
    let mut recording = record(login("12:00"), vec![set_password("abc")]);
    let last = recording.lines.pop().unwrap();
    let came_back = |label: &'static str, recording: &mut Recording| {
        let mut tree = login(label).tree();
        tree.frame = 1;
        recording.lines.push(RecordedLine::App(RecordedApp::new(
            AppEvent::Exited,
            Some("idle release".into()),
        )));
        recording.lines.push(RecordedLine::App(RecordedApp::new(
            AppEvent::Reconnected,
            None,
        )));
        recording.lines.push(RecordedLine::tree(9, tree));
    };
    let replay = |recording: &Recording| {
        Replay::new(recording)
            .secret("password", "abc")
            .run(&mut login("12:00"))
    };
    // The same app, reconnected after an idle release: the same tree, the replay goes on.
    let before = recording.lines.clone();
    came_back("12:00", &mut recording);
    recording.lines.push(last.clone());
    assert_eq!(replay(&recording).unwrap().steps, 1);

    // A restarted app that shows another tree (its clock) stops the replay there.
    recording.lines = before.clone();
    came_back("12:05", &mut recording);
    recording.lines.push(last.clone());
    let error = replay(&recording).unwrap_err();
    assert!(
        matches!(error.failure, ReplayFailure::NotReplayable(_)),
        "{error}"
    );
    let message = error.to_string();
    assert!(
        message.starts_with("replay, before the first input: the recorded app exited"),
        "{message}"
    );
    assert!(
        message.contains("cut the recording at its `app` line"),
        "{message}"
    );
    assert!(
        message.contains("- - status \"12:05\" [id=clock]\n+ - status \"12:00\" [id=clock]\n"),
        "{message}"
    );

    // Gone with no tree to say it came back: the next input is not replayed.
    recording.lines = before;
    recording
        .lines
        .push(RecordedLine::App(RecordedApp::new(AppEvent::Exited, None)));
    recording.lines.push(last);
    let error = replay(&recording).unwrap_err();
    assert_eq!(error.step, 1);
    assert!(
        error
            .to_string()
            .contains("the recorded app went away before this step"),
        "{error}"
    );
}

#[test]
fn the_harness_takes_the_recorded_size() {
    let recording = session();
    let mut h = login("12:00");
    h.resize(100, 30);
    let replayed = Replay::new(&recording)
        .secret("password", "hunter2")
        .secret("password", "!!")
        .run(&mut h);
    assert_eq!(h.size(), (40, 3));
    assert_eq!(replayed.unwrap().steps, 2);
}

#[test]
fn a_header_larger_than_a_terminal_is_not_replayed() {
    let mut recording = session();
    recording.header.size = RecordedSize {
        width: u16::MAX,
        height: u16::MAX,
    };
    let mut h = login("12:00");
    let error = Replay::new(&recording).run(&mut h).unwrap_err();
    assert_eq!(h.size(), (40, 3), "the harness was not resized");
    assert_eq!(error.step, 0);
    assert!(
        matches!(error.failure, ReplayFailure::NotReplayable(_)),
        "{error}"
    );
    assert_eq!(
        error.to_string(),
        "replay, before the first input: the recording's header says the screen was \
         65535x65535; a replay draws at most 1000x500 (taria-mcp's own limits for a \
         terminal): fix the header's `size`\n"
    );
}

/// A button labelled `label` whose `go` action counts.
struct Go {
    label: &'static str,
    count: u32,
}

impl Actions for Go {
    fn handle_action(&mut self, invocation: &Invocation<'_>) -> Outcome {
        if invocation.matches("go").is_some() {
            self.count += 1;
            return Outcome::Handled;
        }
        Outcome::NotHandled
    }
}

fn go(label: &'static str) -> AppHarness<Go> {
    AppHarness::new(Go { label, count: 0 }, 20, 2, |frame, app: &mut Go| {
        let area = frame.area();
        crate::recorder::leaf(|n| {
            n.role(Role::Button)
                .id("go")
                .label(app.label)
                .value(app.count)
                .custom_action("go")
                .bounds(area);
        });
    })
}

/// One `act go go` with the token of the node the agent saw (`seen`), answered as the
/// app `h` answers it.
fn record_go(mut h: AppHarness<Go>, seen: &taria_schema::Node) -> Recording {
    let first = h.tree();
    let mut request = ActionRequest::new("go", "go");
    request.token = Some(taria_schema::protocol::target_token(seen));
    let input = Input::Act(request);
    let answer = h.submit(input.clone());
    let (status, reason) = match answer {
        Ok(()) => (taria_schema::protocol::AckStatus::Delivered, None),
        Err(e) => (e.status, Some(e.reason)),
    };
    Recording {
        header: RecordingHeader::new(
            "go",
            RecordedSize {
                width: 20,
                height: 2,
            },
            RecordingMode::Attach,
        ),
        lines: vec![
            RecordedLine::tree(1, first),
            RecordedLine::Input(Box::new(RecordedInput {
                step: 1,
                call: 1,
                tool: InputTool::Act,
                input: RecordedInputData::plain(input),
                target: None,
                ack: Some(RecordedAck {
                    status,
                    reason,
                    message: None,
                }),
                revision: Some(2),
                tree: Some(h.tree()),
                screen: None,
                answered_in_us: None,
            })),
        ],
    }
}

#[test]
fn a_recorded_stale_target_replays_as_stale() {
    // The agent saw the button labelled `Stop`; the app had drawn `Go` since.
    let seen = go("Stop").node("go");
    let recording = record_go(go("Go"), &seen);
    let RecordedLine::Input(input) = &recording.lines[1] else {
        unreachable!()
    };
    assert_eq!(
        input.ack.as_ref().unwrap().reason,
        Some(taria_schema::protocol::RejectReason::StaleTarget)
    );
    let mut h = go("Go");
    Replay::new(&recording)
        .run(&mut h)
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(h.app().count, 0);
}

#[test]
fn a_recorded_token_follows_a_label_the_rules_let_change() {
    let seen = go("Go").node("go");
    let recording = record_go(go("Go"), &seen);
    let mut h = go("Go now");
    let replayed = Replay::new(&recording)
        .matching(Match::new().label("go", "Go*"))
        .run(&mut h)
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!((replayed.steps, h.app().count), (1, 1));
}

/// A checkbox that draws `[x]` when checked, unless `marker` is off (the state is
/// still recorded): a change only the screen shows.
struct Check {
    checked: bool,
    marker: bool,
}

impl Actions for Check {
    fn handle_action(&mut self, invocation: &Invocation<'_>) -> Outcome {
        if invocation.is(Action::Toggle) {
            self.checked = !self.checked;
            return Outcome::Handled;
        }
        Outcome::NotHandled
    }
}

fn check(marker: bool) -> AppHarness<Check> {
    let app = Check {
        checked: false,
        marker,
    };
    AppHarness::new(app, 20, 1, |frame, app: &mut Check| {
        let area = frame.area();
        crate::recorder::leaf(|n| {
            n.role(Role::Checkbox)
                .id("done")
                .label("Done")
                .checked(app.checked)
                .action(Action::Toggle)
                .bounds(area);
        });
        let mark = if app.checked && app.marker { "x" } else { " " };
        frame.render_widget(
            ratatui::widgets::Paragraph::new(format!("[{mark}] Done")),
            area,
        );
    })
}

/// The session toggling the box, recorded with the screens the bridge keeps.
fn record_check() -> Recording {
    let mut h = check(true);
    let screen = |h: &AppHarness<Check>| {
        taria_schema::recording::recordable_screen(
            &h.tree(),
            &crate::testing::screen_text(h.buffer()),
        )
    };
    let mut first = taria_schema::recording::RecordedTree {
        revision: 1,
        tree: h.tree(),
        screen: Some(screen(&h)),
    };
    first.tree.frame = 1;
    h.act("done", "toggle").unwrap();
    let toggle = RecordedInput {
        step: 1,
        call: 1,
        tool: InputTool::Act,
        input: RecordedInputData::plain(Input::Act(ActionRequest::new("done", Action::Toggle))),
        target: None,
        ack: Some(RecordedAck {
            status: taria_schema::protocol::AckStatus::Delivered,
            reason: None,
            message: None,
        }),
        revision: Some(2),
        tree: Some(h.tree()),
        screen: Some(screen(&h)),
        answered_in_us: None,
    };
    Recording {
        header: RecordingHeader::new(
            "check",
            RecordedSize {
                width: 20,
                height: 1,
            },
            RecordingMode::Spawn,
        ),
        lines: vec![
            RecordedLine::Tree(first),
            RecordedLine::Input(Box::new(toggle)),
        ],
    }
}

#[test]
fn a_screen_rule_catches_a_marker_no_longer_drawn() {
    let recording = record_check();
    let rules = Match::new().screen("done");
    Replay::new(&recording)
        .matching(rules.clone())
        .run(&mut check(true))
        .unwrap();
    let error = Replay::new(&recording)
        .matching(rules)
        .run(&mut check(false))
        .unwrap_err();
    assert_eq!(error.step, 1, "{error}");
    let message = error.to_string();
    assert!(
        message.contains("-   [id=done] \"[x] Done\"\n+   [id=done] \"[ ] Done\""),
        "{message}"
    );
    // Without the rule only the tree is compared: the state is still recorded.
    Replay::new(&recording).run(&mut check(false)).unwrap();
}

/// A save button whose handler logs an error when the disk is full.
struct Saver {
    disk_full: bool,
    saved: u32,
}

impl Actions for Saver {
    fn handle_action(&mut self, invocation: &Invocation<'_>) -> Outcome {
        if invocation.matches("save").is_some() && invocation.is(Action::Activate) {
            if self.disk_full {
                tracing::error!(target: "saver", "cannot save: the disk is full");
            } else {
                self.saved += 1;
            }
            return Outcome::Handled;
        }
        Outcome::NotHandled
    }
}

fn saver(disk_full: bool) -> AppHarness<Saver> {
    let app = Saver {
        disk_full,
        saved: 0,
    };
    AppHarness::new(app, 20, 1, |frame, app: &mut Saver| {
        crate::recorder::leaf(|n| {
            n.role(Role::Button)
                .id("save")
                .label("Save")
                .action(Action::Activate)
                .bounds(frame.area());
        });
        let _ = app.saved;
    })
}

/// A session of one press on Save, recorded by a bridge that had the app's log
/// (`logs`), with what the app logged then.
fn saved(logs: bool, disk_full: bool) -> Recording {
    let mut h = saver(disk_full);
    let (width, height) = h.size();
    let mut lines = vec![RecordedLine::tree(1, h.tree())];
    let press = Input::Act(ActionRequest::new("save", Action::Activate));
    assert_eq!(h.submit(press.clone()), Ok(()));
    lines.push(RecordedLine::Input(Box::new(RecordedInput {
        step: 1,
        call: 1,
        tool: InputTool::Act,
        input: RecordedInputData {
            input: press,
            redacted: false,
        },
        target: None,
        ack: Some(RecordedAck {
            status: taria_schema::protocol::AckStatus::Delivered,
            reason: None,
            message: None,
        }),
        revision: Some(2),
        tree: Some(h.tree()),
        screen: None,
        answered_in_us: None,
    })));
    for entry in h.logs() {
        lines.push(RecordedLine::Log(RecordedLog::of(entry.clone(), Some(1))));
    }
    Recording {
        header: RecordingHeader::new(
            "saver",
            RecordedSize { width, height },
            RecordingMode::Spawn,
        )
        .with_logs(logs),
        lines,
    }
}

#[test]
fn a_replay_fails_on_an_error_the_session_did_not_log() {
    let recording = saved(true, false);
    assert!(Replay::new(&recording).run(&mut saver(false)).is_ok());

    let error = Replay::new(&recording)
        .run(&mut saver(true))
        .expect_err("the error logged now fails the replay");
    assert_eq!(error.step, 1);
    assert_eq!(
        error.failure,
        ReplayFailure::ErrorLogged {
            recorded: 0,
            now: vec![r#"error saver: "cannot save: the disk is full""#.to_owned()],
        }
    );
    assert!(
        error
            .to_string()
            .contains("the app logged 1 error here, the recorded session 0:"),
        "{error}"
    );
}

#[test]
fn an_error_the_session_logged_too_or_a_log_not_recorded_passes() {
    // The session logged the same error at that step.
    let recording = saved(true, true);
    assert_eq!(recording.logs().count(), 1);
    assert!(Replay::new(&recording).run(&mut saver(true)).is_ok());
    // A bridge without the app's log: nothing to compare with.
    let recording = saved(false, false);
    assert!(Replay::new(&recording).run(&mut saver(true)).is_ok());
}

#[test]
fn a_moved_target_names_ids_and_labels_as_the_outline_writes_them() {
    use taria_schema::recording::{RecordedInputData, RecordedTarget};
    let item = |label: &str| RecordedTarget {
        role: Role::ListItem,
        label: Some(label.into()),
    };
    let change = TargetChange {
        id: "todo/Call grandma".into(),
        recorded: item(" ☐ Call grandma"),
        now: Some(item(" ☐ Water\u{2028}the plants")),
        refound: Some(vec!["todo/Call grandma 2".into(), "done/call".into()]),
    };
    let toggle = ActionRequest::new("todo/Call grandma", "toggle");
    let described = RecordedInputData::plain(Input::Act(toggle)).to_string();
    let error = ReplayError::new(
        2,
        Some(described),
        ReplayFailure::TargetChanged(Box::new(change)),
    );
    assert_eq!(
        error.to_string().lines().next().unwrap(),
        "replay step 2 (act \"todo/Call grandma\" toggle): \"todo/Call grandma\" is now \
         \" ☐ Water\\u2028the plants\", and several nodes are list_item \" ☐ Call grandma\" \
         now (\"todo/Call grandma 2\", done/call): which one the recorded session \
         acted on is not known"
    );
}
