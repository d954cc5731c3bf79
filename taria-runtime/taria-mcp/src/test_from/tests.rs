use std::fmt::Write as _;
use std::path::PathBuf;

use taria::wire::recording::{RecordedLine, Recording};

use super::args::parse;
use super::{Options, generate};

/// The input lines of a recording with every kind of step a generated test has to
/// write, in the file format: `(tool, input, ack)`.
const STEPS: &[(&str, &str, &str)] = &[
    (
        "set_value",
        r#""kind":"act","node":"name","action":"set_value","value":"Ada \"the\" Countess\n""#,
        "delivered",
    ),
    (
        "set_value",
        r#""kind":"act","node":"seats","action":"set_value","value":5"#,
        "delivered",
    ),
    (
        "set_value",
        r#""kind":"act","node":"ratio","action":"set_value","value":0.25"#,
        "delivered",
    ),
    (
        "set_value",
        r#""kind":"act","node":"password","action":"set_value","redacted":true"#,
        "delivered",
    ),
    (
        "act",
        r#""kind":"act","node":"terms","action":"toggle","token":"ab12""#,
        "delivered",
    ),
    (
        "act",
        r#""kind":"act","node":"a-node-with-a-very-long-identifier-for-the-formatter/12","action":"a-custom-action-with-a-long-name""#,
        "delivered",
    ),
    (
        "act",
        r#""kind":"act","node":"picker","action":"pick","value":true"#,
        "delivered",
    ),
    (
        "batch",
        r#""kind":"act","node":"files","action":"scroll","direction":"down","amount":3"#,
        "delivered",
    ),
    (
        "act",
        r#""kind":"act","node":"tasks/999","action":"toggle""#,
        "rejected\",\"reason\":\"unknown_node",
    ),
    (
        "act",
        r#""kind":"act","node":"a-node-with-a-very-long-identifier-for-the-formatter/12","action":"activate""#,
        "rejected\",\"reason\":\"action_not_offered",
    ),
    (
        "press_key",
        r#""kind":"key","key":"ctrl+k""#,
        "ignored\",\"reason\":\"no_route",
    ),
    (
        "type_text",
        r#""kind":"text","text":"a long text the agent typed, with \u001b[2J in it and more text after that""#,
        "delivered",
    ),
    (
        "type_text",
        r#""kind":"text","text":"","redacted":true"#,
        "delivered",
    ),
    ("press_key", r#""kind":"key","key":"enter""#, "dropped"),
    ("press_key", r#""kind":"key","key":"q""#, ""),
    (
        "act",
        r#""kind":"act","node":"password","action":"check","redacted":true"#,
        "delivered",
    ),
    // A positional id the agent saw, not drawn now: refused because of its token.
    (
        "batch",
        r#""kind":"act","node":"tasks/7","action":"select","token":"cd34""#,
        "rejected\",\"reason\":\"unknown_node",
    ),
    (
        "act",
        r#""kind":"act","node":"terms","action":"toggle","token":"ef56""#,
        "rejected\",\"reason\":\"stale_target",
    ),
];

fn tree(label: &str) -> String {
    format!(
        r#"{{"frame":1,"roots":[{{"id":"files","role":"tree","label":"{label}","bounds":[0,0,80,20]}},{{"id":"password","role":"text_input","label":"Password","focused":true,"redacted":true,"redactedLength":6,"actions":["set_value"]}},{{"id":"terms","role":"checkbox","label":"Terms","actions":["toggle"]}}]}}"#
    )
}

fn recording() -> Recording {
    let mut text = String::from(
        r#"{"taria_recording":1,"app":"sample","size":{"width":80,"height":24},"taria":"0.1.0","mode":"spawn"}"#,
    );
    text.push('\n');
    let _ = writeln!(
        text,
        "{{\"kind\":\"tree\",\"revision\":1,\"tree\":{}}}",
        tree("first")
    );
    for (i, (tool, input, ack)) in STEPS.iter().enumerate() {
        let step = i + 1;
        if step == 2 {
            text += r#"{"kind":"read","call":2,"tool":"find_nodes","arguments":{"label":"ship v0\u202e"},"revision":2}"#;
            text.push('\n');
        }
        let answer = if ack.is_empty() {
            String::new()
        } else {
            format!(
                r#","ack":{{"status":"{ack}"}},"revision":{},"tree":{}"#,
                step + 1,
                tree(&format!("after {step}"))
            )
        };
        let _ = writeln!(
            text,
            r#"{{"kind":"input","step":{step},"call":{step},"tool":"{tool}","input":{{{input}}}{answer}}}"#
        );
    }
    Recording::parse(&text).unwrap()
}

fn options(args: &[&str]) -> Options {
    let args: Vec<String> = args.iter().map(|&a| a.to_owned()).collect();
    parse(&args).unwrap().unwrap()
}

#[test]
fn each_step_is_one_readable_line_and_a_snapshot() {
    let options = options(&[
        "sample.jsonl",
        "--harness",
        "crate::tests::sample()",
        "--secret",
        "password=crate::tests::PASSWORD",
        "--secret",
        "password=\"!!\"",
        "--label",
        "files=after *",
    ]);
    assert_eq!(options.name, "replay_sample");
    let generated = generate(&recording(), &options, "taria-mcp test-from sample.jsonl").unwrap();
    let code = &generated.code;
    for line in [
        "fn replay_sample() -> Result<(), taria::testing::ActError> {",
        "    let rules = rules.label(\"files\", \"after *\");",
        "    let snapshots = taria::testing::Snapshots::new(\"snapshots/replay_sample\", rules);",
        "    let mut h = crate::tests::sample();",
        "    h.resize(80, 24);",
        "    snapshots.check(&h, \"00-first\");",
        "    h.set_value(\"name\", \"Ada \\\"the\\\" Countess\\n\")?;",
        "    snapshots.check(&h, \"01-name-set-value\");",
        "    h.set_value(\"seats\", 5)?;",
        "    h.set_value(\"ratio\", 0.25)?;",
        "    h.set_value(\"password\", crate::tests::PASSWORD)?;",
        "    h.act(\"terms\", \"toggle\")?;",
        "    snapshots.check(&h, \"05-terms-toggle\");",
        "    h.act_with(\"picker\", \"pick\", taria::Value::from(true))?;",
        "    h.scroll(\"files\", taria::ScrollDirection::Down, 3)?;",
        "    snapshots.check(&h, \"08-files-scroll\");",
        "    let refused = h.act(\"tasks/999\", \"toggle\");",
        "        refused.map_err(|e| e.reason),\n        Err(taria::wire::protocol::RejectReason::UnknownNode)\n",
        "    let refused = h.press(\"ctrl+k\");",
        "        refused.map_err(|e| e.status),\n        Err(taria::wire::protocol::AckStatus::Ignored)\n",
        "    snapshots.check(&h, \"11-press-ctrl-k\");",
        "    h.type_text(\"!!\")?;",
        "    snapshots.check(&h, \"13-type-text\");",
        "    // The agent read: find_nodes {\"label\":\"ship v0?\"}",
        "    // Step 14 was dropped (the input queue was full): not replayed.",
        "    let _ = h.press(\"q\");",
        // A redacted custom action's value is a `Value`, as the plain one's.
        "    h.act_with(\"password\", \"check\", taria::Value::from(\"!!\"))?;",
        "    snapshots.check(&h, \"16-password-check\");",
        // The recorded token where it decides the answer.
        "    let refused = h.act_seen(\"tasks/7\", \"select\", \"cd34\");",
        "    let refused = h.act_seen(\"terms\", \"toggle\", \"ef56\");",
        "        Err(taria::wire::protocol::RejectReason::StaleTarget)\n    );\n    snapshots.check(&h, \"18-terms-toggle\");\n    Ok(())\n}\n",
    ] {
        assert!(
            code.lines().any(|l| l == line) || code.contains(line),
            "missing {line:?} in:\n{code}"
        );
    }
    // The first tree and each answered step; the rules applied.
    assert_eq!(generated.snapshots.len(), 1 + 16);
    let (path, outline) = &generated.snapshots[0];
    assert_eq!(path, "snapshots/replay_sample/00-first.outline");
    assert!(
        outline.starts_with("- tree \"first\" [id=files]\n"),
        "{outline}"
    );
    assert!(
        generated.snapshots[1]
            .1
            .starts_with("- tree \"after *\" [id=files]\n")
    );
}

#[test]
fn a_redacted_step_without_its_secret_does_not_compile_and_says_why() {
    let generated = generate(&recording(), &options(&["s.jsonl"]), "taria-mcp").unwrap();
    assert!(
        generated.code.contains(
            "step 4: the value for `password` was redacted in the recording: regenerate with \
             --secret password=EXPR"
        ),
        "{}",
        generated.code
    );
    assert!(generated.code.contains("    compile_error!("));
    assert!(
        generated
            .code
            .contains("    h.set_value(\"password\", \"\")?;")
    );
}

/// What `rustfmt --check` says of the generated code, or `None` without rustfmt.
fn rustfmt_check(code: &str) -> Option<(bool, String)> {
    let dir = std::env::temp_dir().join(format!("taria-test-from-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file: PathBuf = dir.join("generated.rs");
    std::fs::write(&file, code).unwrap();
    let output = std::process::Command::new("rustfmt")
        .args(["--check", "--edition", "2024"])
        .arg(&file)
        .output();
    let _ = std::fs::remove_dir_all(&dir);
    let output = output.ok()?;
    Some((
        output.status.success(),
        String::from_utf8_lossy(&output.stdout).into_owned(),
    ))
}

/// The generated code is what rustfmt writes. Without rustfmt on PATH it is not
/// checked, unless `CI` is set: CI installs rustfmt with the toolchain (`.ci/run`
/// runs `cargo fmt`), so there a missing rustfmt fails the test.
#[test]
fn the_generated_code_is_rustfmt_clean() {
    let rules = [
        "--exclude",
        "clock",
        "--exclude",
        "a-volatile-node-with-a-very-long-identifier-of-sixty-characters-and-more/*",
        "--label",
        "files=*",
        "--label",
        "a-node-with-a-long-identifier/*=a label pattern that is long enough to wrap *",
    ];
    for args in [
        vec!["sample.jsonl"],
        [
            vec!["a-much-longer-recording-name-for-the-paths.jsonl"],
            rules.to_vec(),
        ]
        .concat(),
        vec!["s.jsonl", "--secret", "password=\"hunter2\"", "--name", "t"],
    ] {
        let generated = generate(&recording(), &options(&args), "taria-mcp test-from").unwrap();
        let Some((clean, diff)) = rustfmt_check(&generated.code) else {
            assert!(
                std::env::var_os("CI").is_none(),
                "rustfmt is not on PATH, and CI is set: CI installs rustfmt with the \
                 toolchain (`rustup component add rustfmt`)"
            );
            eprintln!("rustfmt is not on PATH: not checked");
            return;
        };
        assert!(
            clean,
            "{args:?}: rustfmt would change:\n{diff}\n{}",
            generated.code
        );
    }
}

#[test]
fn mistakes_on_the_command_line_say_what_to_do() {
    let error = |args: &[&str]| {
        let args: Vec<String> = args.iter().map(|&a| a.to_owned()).collect();
        parse(&args).unwrap_err()
    };
    assert_eq!(error(&[]), "which recording? give its FILE");
    assert_eq!(
        error(&["a", "--label", "files"]),
        "--label takes ID=VALUE, not `files`"
    );
    assert_eq!(
        error(&["a", "--name", "my test"]),
        "--name `my test` is not a Rust function name"
    );
    assert_eq!(error(&["a", "--harness"]), "--harness needs a value");
    assert_eq!(
        error(&["a", "--frobnicate"]),
        "unknown option `--frobnicate`"
    );
    assert_eq!(error(&["a", "b"]), "one recording at a time, not also `b`");
    let args = ["--help".to_owned()];
    assert!(parse(&args).unwrap().is_none());
}

#[test]
fn check_says_which_file_no_longer_matches_the_recording() {
    let dir = std::env::temp_dir().join(format!("taria-test-from-check-{}", std::process::id()));
    let snapshots = dir.join("snapshots");
    let options = options(&["s.jsonl", "--snapshots", snapshots.to_str().unwrap()]);
    let generated = generate(&recording(), &options, "taria-mcp test-from s.jsonl").unwrap();
    generated.write_snapshots().unwrap();
    let test = dir.join("replay_s.rs");
    // Another first line (the command) does not count.
    std::fs::write(
        &test,
        generated.code.replacen("s.jsonl", "elsewhere/s.jsonl", 1),
    )
    .unwrap();
    generated.check(&test).unwrap();

    let first = snapshots.join("00-first.outline");
    std::fs::write(&first, "- tree \"changed\" [id=files]\n").unwrap();
    std::fs::write(
        &test,
        generated
            .code
            .replace("h.resize(80, 24)", "h.resize(80, 25)"),
    )
    .unwrap();
    let error = generated.check(&test).unwrap_err();
    std::fs::remove_dir_all(&dir).unwrap();
    assert!(
        error
            .starts_with("the recording no longer generates the committed test (2 file(s) differ;"),
        "{error}"
    );
    assert!(
        error.contains(
            "replay_s.rs: line 11:\n  -     h.resize(80, 25);\n  +     h.resize(80, 24);"
        ),
        "{error}"
    );
    assert!(error.contains("00-first.outline: line 1:\n  - - tree \"changed\" [id=files]\n  + - tree \"first\" [id=files]"), "{error}");
}

#[test]
fn a_session_goes_on_past_an_app_line_only_when_the_app_came_back_as_it_was() {
    let with = |extra: &[String]| {
        let mut recording = recording();
        let header = r#"{"taria_recording":1,"app":"s","size":{"width":1,"height":1},"taria":"0","mode":"attach"}"#;
        let text = format!("{header}\n{}\n", extra.join("\n"));
        let lines = Recording::parse(&text).unwrap().lines;
        // After step 1, whose tree is labelled `after 1`.
        let at = recording
            .lines
            .iter()
            .position(|l| matches!(l, RecordedLine::Read(_)))
            .unwrap();
        recording.lines.splice(at..at, lines);
        generate(&recording, &options(&["s.jsonl"]), "taria-mcp test-from")
    };
    let exited = r#"{"kind":"app","event":"exited","message":"idle release"}"#.to_owned();
    let reconnected = r#"{"kind":"app","event":"reconnected"}"#.to_owned();
    let tree_line =
        |label: &str| format!(r#"{{"kind":"tree","revision":9,"tree":{}}}"#, tree(label));
    let same = with(&[exited.clone(), reconnected.clone(), tree_line("after 1")]).unwrap();
    assert!(
        same.code
            .contains("\n    // The app went away here and came back showing the same tree.\n"),
        "{}",
        same.code
    );
    let other = with(&[exited.clone(), reconnected, tree_line("restarted")]).unwrap_err();
    assert!(other.contains("came back showing another tree"), "{other}");
    let gone = with(&[exited]).unwrap_err();
    assert!(
        gone.starts_with("step 2 comes after the app went away in the recorded session"),
        "{gone}"
    );
}

#[test]
fn a_header_larger_than_a_terminal_is_refused() {
    let mut recording = recording();
    recording.header.size.width = 65535;
    let error = generate(&recording, &options(&["s.jsonl"]), "taria-mcp").unwrap_err();
    assert!(
        error.starts_with("the recording's header says the screen was 65535x24;"),
        "{error}"
    );
}

/// The app's label is app text: a control character or a text-direction override in
/// it would make rustc refuse the header comment.
#[test]
fn the_apps_label_in_the_header_comment_holds_no_control_characters() {
    let mut recording = recording();
    recording.header.app = "evil\u{202e}\u{1b}[2J\r\nfn x() {}".into();
    let generated = generate(&recording, &options(&["s.jsonl"]), "taria-mcp").unwrap();
    let header = generated.code.lines().nth(1).unwrap();
    assert!(
        header.starts_with("// from a recording of `evil??[2J??fn x() {}` (18 steps at 80x24)."),
        "{header}"
    );
    assert!(generated.code.lines().nth(2).unwrap().starts_with("// "));
}

/// A recording with the app's log: the test ends by checking that the replay logged
/// no error, as the session did not; a session that logged one leaves it unchecked,
/// saying so; a recording without the log (version 1) says nothing of it.
#[test]
fn the_test_checks_the_log_when_the_session_logged_no_error() {
    let check = "    h.assert_no_error_logged();\n    Ok(())\n}";
    let mut recording = recording();
    let generated = generate(&recording, &options(&["s.jsonl"]), "taria-mcp").unwrap();
    assert!(!generated.code.contains("assert_no_error_logged"));

    recording.header.logs = true;
    let warning = r#"{"kind":"log","step":2,"level":"warn","target":"app","message":"slow"}"#;
    recording.lines.push(serde_json::from_str(warning).unwrap());
    let generated = generate(&recording, &options(&["s.jsonl"]), "taria-mcp").unwrap();
    assert!(
        generated.code.ends_with(&format!("{check}\n")),
        "{}",
        generated.code
    );

    let error = r#"{"kind":"log","step":3,"level":"error","target":"app","message":"no"}"#;
    recording.lines.push(serde_json::from_str(error).unwrap());
    let generated = generate(&recording, &options(&["s.jsonl"]), "taria-mcp").unwrap();
    assert!(!generated.code.contains("assert_no_error_logged"));
    assert!(
        generated.code.contains(
            "    // The recorded session logged 1 error (its `log` lines): not checked.\n"
        ),
        "{}",
        generated.code
    );
}
