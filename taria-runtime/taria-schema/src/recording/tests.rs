use super::*;
use crate::model::{Action, ActionRequest, Node, Role, ScrollDirection, Value};
use crate::protocol::{AckStatus, Input, RejectReason};

fn tree(label: &str) -> Tree {
    let mut node = Node {
        id: "tasks".into(),
        role: Role::List,
        ..Node::default()
    };
    node.label = Some(label.to_owned());
    node.bounds.width = 80;
    node.bounds.height = 24;
    Tree {
        frame: 3,
        roots: vec![node],
        diagnostics: Vec::new(),
    }
}

fn every_kind() -> Vec<RecordedLine> {
    let mut scroll = ActionRequest::new("log", Action::Scroll);
    scroll.data = Some(crate::model::ActionData::Scroll {
        direction: ScrollDirection::Up,
        amount: 4,
    });
    let mut set = ActionRequest::new("volume", Action::SetValue);
    set.data = Some(crate::model::ActionData::Value {
        value: Value::Number(7.0),
    });
    set.token = Some("00ab".into());
    let delivered = RecordedAck {
        status: AckStatus::Delivered,
        reason: None,
        message: None,
    };
    let input = |step, tool, input: RecordedInputData, ack: Option<RecordedAck>| {
        let target = matches!(input.input, Input::Act(_)).then(|| RecordedTarget {
            role: Role::ListItem,
            label: Some("Buy milk".into()),
        });
        RecordedLine::Input(Box::new(RecordedInput {
            step,
            call: step,
            tool,
            input,
            target,
            ack: ack.clone(),
            revision: ack.is_some().then_some(step + 1),
            tree: ack.map(|_| tree("after \"quoted\" \u{1b}[31m")),
            screen: None,
            answered_in_us: None,
        }))
    };
    let mut arguments = serde_json::Map::new();
    arguments.insert("query".into(), serde_json::json!({"role": "button"}));
    let mut lines = vec![
        RecordedLine::tree(1, tree("first")),
        input(
            1,
            InputTool::Act,
            RecordedInputData::plain(Input::Act(ActionRequest::new("tasks/1", Action::Toggle))),
            Some(delivered.clone()),
        ),
        input(
            2,
            InputTool::SetValue,
            RecordedInputData::plain(Input::Act(set)),
            Some(RecordedAck {
                status: AckStatus::Rejected,
                reason: Some(RejectReason::OutOfDomain),
                message: Some("`volume`: 11 is outside 0..=10".into()),
            }),
        ),
        input(
            3,
            InputTool::Batch,
            RecordedInputData::plain(Input::Act(scroll)),
            Some(delivered.clone()),
        ),
        input(
            4,
            InputTool::PressKey,
            RecordedInputData::plain(Input::Key {
                key: "ctrl+s".into(),
            }),
            Some(delivered.clone()),
        ),
        input(
            5,
            InputTool::TypeText,
            RecordedInputData {
                input: Input::Text {
                    text: String::new(),
                    raw: false,
                },
                redacted: true,
            },
            None,
        ),
        RecordedLine::Read(RecordedRead {
            call: 6,
            tool: "find".into(),
            arguments,
            revision: 6,
        }),
    ];
    lines.extend(since_version_2());
    lines.extend([
        RecordedLine::App(RecordedApp::new(
            AppEvent::Restarted,
            Some("exit status 1".into()),
        )),
        RecordedLine::App(RecordedApp {
            exit_code: Some(101),
            output: Some("thread 'main' panicked".into()),
            ..RecordedApp::new(AppEvent::Exited, None)
        }),
    ]);
    lines
}

/// The lines version 2 added: a resize, a refusal.
fn since_version_2() -> Vec<RecordedLine> {
    vec![
        RecordedLine::Resize(RecordedResize {
            call: 7,
            size: RecordedSize {
                width: 100,
                height: 30,
            },
            revision: Some(7),
            tree: Some(tree("resized")),
        }),
        RecordedLine::Refused(Box::new(RecordedRefusal {
            call: 8,
            tool: InputTool::Act,
            step: None,
            arguments: serde_json::json!({"node": "tasks/9", "action": "toggle"})
                .as_object()
                .cloned()
                .unwrap_or_default(),
            code: "not_found".into(),
            message: Some("no node `tasks/9`".into()),
            redacted: false,
        })),
    ]
}

fn written(lines: &[RecordedLine]) -> String {
    let header = RecordingHeader::new(
        "todo",
        RecordedSize {
            width: 80,
            height: 24,
        },
        RecordingMode::Attach,
    )
    .with_logs(true);
    let mut writer = RecordingWriter::new(Vec::new(), &header).unwrap();
    for line in lines {
        writer.write(line).unwrap();
    }
    String::from_utf8(writer.into_inner()).unwrap()
}

#[test]
fn every_kind_of_line_round_trips() {
    let lines = every_kind();
    let text = written(&lines);
    assert_eq!(text.lines().count(), lines.len() + 1);
    let recording = Recording::parse(&text).unwrap();
    assert_eq!(recording.header.taria_recording, RECORDING_VERSION);
    assert_eq!(recording.header.app, "todo");
    assert_eq!(recording.header.mode, RecordingMode::Attach);
    assert_eq!(recording.lines, lines);
    assert_eq!(recording.inputs().count(), 5);
    assert_eq!(recording.first_tree(), Some(&tree("first")));
}

/// The exact field names other tools rely on (docs/protocol.md, "Recordings").
#[test]
fn lines_have_the_documented_fields() {
    let text = written(&every_kind());
    let values: Vec<serde_json::Value> = text
        .lines()
        .map(|line| serde_json::from_str(line).unwrap())
        .collect();
    let header = &values[0];
    assert_eq!(header["taria_recording"], 2);
    assert_eq!(
        header["size"],
        serde_json::json!({"width": 80, "height": 24})
    );
    assert_eq!(header["mode"], "attach");
    assert_eq!(values[1]["kind"], "tree");
    assert_eq!(values[1]["revision"], 1);
    assert_eq!(values[1]["tree"]["roots"][0]["id"], "tasks");
    let act = &values[2];
    assert_eq!(act["kind"], "input");
    assert_eq!(act["tool"], "act");
    assert_eq!(
        act["input"],
        serde_json::json!({"kind": "act", "node": "tasks/1", "action": "toggle"})
    );
    assert_eq!(act["ack"], serde_json::json!({"status": "delivered"}));
    assert_eq!(
        act["target"],
        serde_json::json!({"role": "list_item", "label": "Buy milk"})
    );
    assert!(values[5].get("target").is_none(), "a key has no target");
    let set = &values[3]["input"];
    assert_eq!(set["value"], 7.0);
    assert_eq!(set["token"], "00ab");
    assert_eq!(values[3]["ack"]["reason"], "out_of_domain");
    assert_eq!(values[4]["input"]["direction"], "up");
    assert_eq!(
        values[5]["input"],
        serde_json::json!({"kind": "key", "key": "ctrl+s"})
    );
    assert_eq!(
        values[6]["input"],
        serde_json::json!({"kind": "text", "text": "", "redacted": true})
    );
    assert!(values[6].get("ack").is_none() && values[6].get("tree").is_none());
    assert_eq!(values[7]["kind"], "read");
    assert_eq!(values[7]["arguments"]["query"]["role"], "button");
    assert_eq!(values[8]["kind"], "resize");
    assert_eq!(values[8]["call"], 7);
    assert_eq!(
        values[8]["size"],
        serde_json::json!({"width": 100, "height": 30})
    );
    assert_eq!(values[8]["revision"], 7);
    assert_eq!(values[8]["tree"]["roots"][0]["label"], "resized");
    let refused = &values[9];
    assert_eq!(refused["kind"], "refused");
    assert_eq!(
        (&refused["call"], &refused["tool"]),
        (&8.into(), &"act".into())
    );
    assert_eq!(refused["arguments"]["node"], "tasks/9");
    assert_eq!(refused["code"], "not_found");
    assert_eq!(refused["message"], "no node `tasks/9`");
    assert!(refused.get("step").is_none() && refused.get("redacted").is_none());
    assert_eq!(values[10]["kind"], "app");
    assert_eq!(values[10]["event"], "restarted");
    assert_eq!(
        values[11],
        serde_json::json!({"kind": "app", "event": "exited", "exit_code": 101,
            "output": "thread 'main' panicked"})
    );
}

/// A version 1 recording reads as it did: a `read` line of tool `resize` is a resize
/// to its `cols` and `rows` for a replay; an input line has no target.
#[test]
fn a_version_1_recording_is_read_and_its_resize_replayed() {
    let text = concat!(
        r#"{"taria_recording":1,"app":"todo","size":{"width":80,"height":24},"taria":"0.1.0","mode":"spawn"}"#,
        "\n",
        r#"{"kind":"tree","revision":1,"tree":{"frame":1,"roots":[]}}"#,
        "\n",
        r#"{"kind":"read","call":1,"tool":"resize","arguments":{"cols":100,"rows":30},"revision":2}"#,
        "\n",
        r#"{"kind":"input","step":1,"call":2,"tool":"press_key","input":{"kind":"key","key":"q"}}"#,
        "\n",
    );
    let recording = Recording::parse(text).unwrap();
    let lines: Vec<ReplayLine<'_>> = recording.replay_lines().collect();
    assert_eq!(
        lines[0],
        ReplayLine::Resize {
            size: RecordedSize {
                width: 100,
                height: 30
            },
            tree: None
        }
    );
    assert!(matches!(lines[1], ReplayLine::Input(input) if input.target.is_none()));
    assert_eq!(lines.len(), 2);
}

/// A line of a kind this build does not know: an error in a version 1 recording
/// (no such line was ever written), skipped in a version 2 one (a newer bridge's
/// addition that a replay need not follow); a known kind with a wrong field is an
/// error in both.
#[test]
fn an_unknown_kind_is_skipped_from_version_2_on() {
    let text = written(&every_kind());
    let mut newer = text.clone();
    newer.insert_str(newer.find('\n').unwrap() + 1, "{\"kind\":\"teleport\"}\n");
    let recording = Recording::parse(&newer).unwrap();
    assert_eq!(recording.lines, every_kind());
    let v1 = newer.replacen("\"taria_recording\":2", "\"taria_recording\":1", 1);
    let error = Recording::parse(&v1).unwrap_err();
    assert!(
        matches!(error, RecordingError::Malformed { line: 2, .. }),
        "{error:?}"
    );
    let mut broken = text;
    broken.insert_str(
        broken.find('\n').unwrap() + 1,
        "{\"kind\":\"resize\",\"call\":1}\n",
    );
    let error = Recording::parse(&broken).unwrap_err();
    assert!(
        matches!(error, RecordingError::Malformed { line: 2, .. }),
        "{error:?}"
    );
}

#[test]
fn a_version_this_build_does_not_read_is_named() {
    let text = written(&[]).replace("\"taria_recording\":2", "\"taria_recording\":7");
    let error = Recording::parse(&text).unwrap_err();
    assert!(matches!(
        error,
        RecordingError::UnsupportedVersion { version: 7 }
    ));
    let message = error.to_string();
    assert!(message.contains("version 7"), "{message}");
    assert!(message.contains("reads versions 1, 2"), "{message}");
}

#[test]
fn a_cut_off_last_line_is_named() {
    let text = written(&every_kind());
    let cut = &text[..text.len() - 10];
    let error = Recording::parse(cut).unwrap_err();
    assert!(
        matches!(error, RecordingError::CutOff { line: 12 }),
        "{error:?}"
    );
    assert!(error.to_string().contains("line 12"), "{error}");
    // Its newline alone missing is fine.
    assert!(Recording::parse(text.trim_end()).is_ok());
}

#[test]
fn a_malformed_line_is_named() {
    let mut text = written(&every_kind());
    text.insert_str(
        text.find('\n').unwrap() + 1,
        "{\"kind\":\"input\",\"teleport\":1}\n",
    );
    let error = Recording::parse(&text).unwrap_err();
    assert!(
        matches!(error, RecordingError::Malformed { line: 2, .. }),
        "{error:?}"
    );
    assert!(error.to_string().contains("line 2"), "{error}");
}

#[test]
fn a_file_that_is_not_a_recording_says_so() {
    for text in [
        "# a readme\n",
        "[1,2]\n",
        "{\"type\":\"hello\",\"v\":1}\n",
        "{\"taria_recording\":\"one\"}\n",
    ] {
        let error = Recording::parse(text).unwrap_err();
        assert!(
            matches!(error, RecordingError::NotARecording { line: 1, .. }),
            "{text}: {error:?}"
        );
        assert!(error.to_string().starts_with("not a taria recording"));
    }
    assert!(matches!(
        Recording::parse("\n\n").unwrap_err(),
        RecordingError::Empty
    ));
    let missing = Recording::read("/nonexistent/taria.jsonl").unwrap_err();
    assert!(missing.to_string().contains("/nonexistent/taria.jsonl"));
}

#[test]
fn the_size_of_a_tree_is_its_roots_extent() {
    let mut tree = tree("x");
    let mut status = Node {
        id: "status".into(),
        role: Role::Text,
        ..Node::default()
    };
    status.bounds = crate::model::Bounds {
        x: 0,
        y: 24,
        width: 40,
        height: 1,
    };
    tree.roots.push(status);
    assert_eq!(
        RecordedSize::of_tree(&tree),
        RecordedSize {
            width: 80,
            height: 25
        }
    );
}

/// A `log` line (version 2) has the documented fields, the header says `logs`, and
/// both read back; a version 1 header reads with `logs` false.
#[test]
fn a_log_line_and_the_headers_logs_have_the_documented_fields() {
    let log = RecordedLine::Log(RecordedLog {
        step: Some(5),
        level: crate::protocol::LogLevel::Warn,
        target: "todo::app".into(),
        message: "refused \"x\"\n".into(),
        fields: serde_json::json!({"draft": "", "n": 3})
            .as_object()
            .cloned()
            .unwrap_or_default(),
    });
    let text = written(std::slice::from_ref(&log));
    let values: Vec<serde_json::Value> = text
        .lines()
        .map(|line| serde_json::from_str(line).unwrap())
        .collect();
    assert_eq!(values[0]["taria_recording"], 2);
    assert_eq!(values[0]["logs"], true);
    assert_eq!(
        values[1],
        serde_json::json!({"kind": "log", "step": 5, "level": "warn", "target": "todo::app",
            "message": "refused \"x\"\n", "fields": {"draft": "", "n": 3}})
    );
    let recording = Recording::parse(&text).unwrap();
    assert!(recording.header.logs);
    assert_eq!(recording.logs().count(), 1);
    assert_eq!(recording.lines, [log]);
    let one = written(&[])
        .replace("\"taria_recording\":2", "\"taria_recording\":1")
        .replace(",\"logs\":true", "");
    let header = Recording::parse(&one).unwrap().header;
    assert_eq!((header.taria_recording, header.logs), (1, false));
}

#[test]
fn an_input_reads_as_one_line_naming_what_was_sent() {
    use crate::model::ActionData;
    let act = |target: &str, action: Action, data: Option<ActionData>| {
        let mut request = ActionRequest::new(target, action);
        request.data = data;
        Input::Act(request)
    };
    let text = |value: &str| {
        Some(ActionData::Value {
            value: Value::Text(value.into()),
        })
    };
    let shown = |input: Input, redacted: bool| RecordedInputData { input, redacted }.to_string();

    assert_eq!(
        shown(act("tasks/4", Action::Toggle, None), false),
        "act tasks/4 toggle"
    );
    assert_eq!(
        shown(act("name", Action::SetValue, text("Ada \"A\"\nL")), false),
        r#"set_value name "Ada \"A\"\nL""#
    );
    assert_eq!(
        shown(
            act(
                "volume",
                Action::SetValue,
                Some(ActionData::Value {
                    value: Value::Number(7.0)
                })
            ),
            false
        ),
        "set_value volume 7"
    );
    let scroll = Some(ActionData::Scroll {
        direction: ScrollDirection::Down,
        amount: 3,
    });
    assert_eq!(
        shown(act("log", Action::Scroll, scroll), false),
        "act log scroll down 3"
    );
    assert_eq!(
        shown(
            Input::Key {
                key: "ctrl+c".into()
            },
            false
        ),
        "press_key ctrl+c"
    );
    let typed = |raw| Input::Text {
        text: "ship\tv0\n".into(),
        raw,
    };
    assert_eq!(shown(typed(false), false), r#"type_text "ship\tv0\n""#);
    assert_eq!(shown(typed(true), false), r#"type_text raw "ship\tv0\n""#);

    // A secret is never written, whether the input still holds it (a replay fills
    // it back in before sending) or not.
    assert_eq!(
        shown(act("password", Action::SetValue, text("hunter2")), true),
        "set_value password (redacted)"
    );
    assert_eq!(
        shown(act("password", Action::SetValue, None), true),
        "set_value password (redacted)"
    );
    assert_eq!(
        shown(Input::Key { key: "x".into() }, true),
        "press_key (redacted)"
    );
    assert_eq!(shown(typed(false), true), "type_text (redacted)");
}

#[test]
fn an_input_line_cannot_be_misread_whatever_the_app_named_or_typed() {
    let act = |target: &str, action: &str| {
        RecordedInputData::plain(Input::Act(ActionRequest::new(target, action))).to_string()
    };
    // A list item named by its words (taria-widgets' List without keys): the id is
    // quoted as the outline quotes it, so where it ends is plain.
    assert_eq!(
        act("todo/Return library books", "toggle"),
        r#"act "todo/Return library books" toggle"#
    );
    assert_eq!(
        act("rows/a]b", "archive it"),
        r#"act "rows/a]b" "archive it""#
    );
    // Text that could break the line or reorder what follows it is escaped.
    let typed = RecordedInputData::plain(Input::Text {
        text: "a\u{2028}b\u{202e}c\u{1b}[2J".into(),
        raw: false,
    });
    assert_eq!(typed.to_string(), r#"type_text "a\u2028b\u202ec\u001b[2J""#);
}

/// A fresh directory for one test's files.
fn scratch(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("taria-recording-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("a temp dir");
    dir
}

/// Issue 29.7: what is not a recording is refused before it is read: a device that
/// never ends, a directory, a file over the cap (sparse: nothing is written), a file
/// whose first line is not a header; a recording is read.
#[test]
fn read_text_refuses_what_cannot_be_a_recording_before_reading_it() {
    #[cfg(unix)]
    assert!(matches!(
        Recording::read_text("/dev/zero"),
        Err(RecordingError::NotAFile { .. })
    ));
    let dir = scratch("read-text");
    assert!(matches!(
        Recording::read_text(&dir),
        Err(RecordingError::NotAFile { .. })
    ));
    let huge = dir.join("huge.jsonl");
    let file = std::fs::File::create(&huge).expect("created");
    file.set_len(MAX_RECORDING_BYTES + 1).expect("sized");
    let error = Recording::read_text(&huge).expect_err("too large");
    assert!(matches!(error, RecordingError::TooLarge { .. }), "{error}");
    assert!(error.to_string().contains("is it a recording?"), "{error}");
    let notes = dir.join("notes.txt");
    std::fs::write(&notes, "\n\nhello\n").expect("written");
    let error = Recording::read_text(&notes).expect_err("not a recording");
    assert!(
        matches!(error, RecordingError::NotARecording { line: 3, .. }),
        "{error}"
    );
    let binary = dir.join("binary");
    std::fs::write(&binary, b"\x7fELF\x02\x01\x01\0\xff\xfe").expect("written");
    let error = Recording::read_text(&binary).expect_err("not a recording");
    assert!(
        error.to_string().contains("not a taria recording"),
        "{error}"
    );
    let not_text = dir.join("not-text.jsonl");
    std::fs::write(&not_text, b"{\"taria_recording\":2}\n\xff\xfe\n").expect("written");
    let error = Recording::read_text(&not_text).expect_err("not text");
    assert!(error.to_string().contains("not UTF-8 text"), "{error}");
    let recording = dir.join("ok.jsonl");
    std::fs::write(&recording, "{\"taria_recording\":2,\"app\":\"a\"}\n").expect("written");
    assert!(Recording::read_text(&recording).is_ok());
}

/// Issue 29.6: a recording's file is its owner's alone, also when a file readable by
/// others was there before.
#[cfg(unix)]
#[test]
fn a_recording_file_is_created_owner_only() {
    use std::os::unix::fs::PermissionsExt as _;
    let dir = scratch("mode");
    let path = dir.join("session.jsonl");
    std::fs::write(&path, "old").expect("written");
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o644)).expect("chmod");
    let file = create_recording_file(&path).expect("created");
    drop(file);
    let mode = std::fs::metadata(&path)
        .expect("there")
        .permissions()
        .mode();
    assert_eq!(mode & 0o777, 0o600, "{mode:o}");
    assert_eq!(
        std::fs::read_to_string(&path).expect("read"),
        "",
        "truncated"
    );
    let fresh = dir.join("fresh.jsonl");
    drop(
        RecordingWriter::create(
            &fresh,
            &RecordingHeader::new(
                "a",
                RecordedSize {
                    width: 10,
                    height: 5,
                },
                RecordingMode::Spawn,
            ),
        )
        .expect("created"),
    );
    let mode = std::fs::metadata(&fresh)
        .expect("there")
        .permissions()
        .mode();
    assert_eq!(mode & 0o777, 0o600, "{mode:o}");
    // A device is written as it is: its mode is not the recording's to change (as
    // root, a chmod of /dev/null would succeed and take it from everyone else).
    let null_mode = || {
        std::fs::metadata("/dev/null")
            .expect("there")
            .permissions()
            .mode()
    };
    let before = null_mode();
    assert!(create_recording_file("/dev/null").is_ok());
    assert_eq!(null_mode(), before);
}
