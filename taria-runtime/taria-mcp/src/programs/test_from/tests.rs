use std::fmt::Write as _;
use std::path::PathBuf;

use taria_schema::recording::{RecordedLine, Recording};

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
        r#""kind":"act","node":"terms","action":"toggle","token":"ab12"},"target":{"role":"checkbox","label":"I accept the \"terms\"""#,
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
        r#""kind":"act","node":"terms","action":"toggle","token":"ef56"},"target":{"role":"checkbox","label":"Terms""#,
        "rejected\",\"reason\":\"stale_target",
    ),
    (
        "act",
        r#""kind":"act","node":"new-task","action":"submit"},"target":{"role":"text_input","label":"New task""#,
        "rejected\",\"reason\":\"handler_rejected\",\"message\":\"the title is empty",
    ),
    ("press_key", r#""kind":"key","key":"+""#, "delivered"),
    (
        "act",
        r#""kind":"act","node":"a-node-with-a-very-long-identifier-for-the-formatter/12","action":"archive"},"target":{"role":"list_item","label":"A list item whose label is long enough to need a line of its own in the code""#,
        "rejected\",\"reason\":\"handler_rejected\",\"message\":\"A refusal whose message is long enough that rustfmt has to break the call that says it, and more",
    ),
];

fn tree(label: &str) -> String {
    format!(
        r#"{{"frame":1,"roots":[{{"id":"files","role":"tree","label":"{label}","bounds":[0,0,80,20]}},{{"id":"password","role":"text_input","label":"Password","focused":true,"redacted":true,"redactedLength":6,"actions":["set_value"]}},{{"id":"terms","role":"checkbox","label":"Terms","actions":["toggle"]}}]}}"#
    )
}

fn recording() -> Recording {
    let mut text = String::from(
        r#"{"taria_recording":2,"app":"sample","size":{"width":80,"height":24},"taria":"0.1.0","mode":"spawn"}"#,
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
        if step == 3 {
            let _ = writeln!(
                text,
                r#"{{"kind":"resize","call":3,"size":{{"width":100,"height":30}},"revision":3,"tree":{}}}"#,
                tree("resized")
            );
            text += r#"{"kind":"resize","call":3,"size":{"width":90,"height":30}}"#;
            text.push('\n');
            text += r#"{"kind":"refused","call":3,"tool":"act","arguments":{"node":"tasks/9","action":"toggle"},"code":"not_found","message":"no node `tasks/9`\u202e; read_tree"}"#;
            text.push('\n');
            text += r#"{"kind":"refused","call":3,"tool":"batch","step":2,"arguments":{"steps":[{"tool":"press_key","key":"a"},{"tool":"set_value","node":"pin","value":""}]},"code":"out_of_domain","redacted":true}"#;
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
    text += r#"{"kind":"app","event":"exited","message":"the app closed the connection","exit_code":101,"output":"thread 'main' panicked at src/main.rs:3:5:\nboom\u001b[31m"}"#;
    text.push('\n');
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
        "fn replay_sample() -> Result<(), taria::testing::ReplayError> {",
        "    use taria::Role;\n    use taria::testing::{AckStatus, RejectReason};\n    let rules = taria::testing::Match::new();",
        "    let rules = rules.label(\"files\", \"after *\");",
        // A failing step's screens go beside its snapshot as pictures, the expected
        // one from the recording.
        "    let dir = concat!(env!(\"CARGO_MANIFEST_DIR\"), \"/snapshots/replay_sample\");\n    let recording = concat!(env!(\"CARGO_MANIFEST_DIR\"), \"/sample.jsonl\");\n",
        "    let snapshots = taria::testing::Snapshots::new(rules.clone());\n    let snapshots = snapshots.pictures(dir, recording);\n",
        "    let snapshot = |name: &str, text: String| insta::assert_snapshot!(name, text);",
        "    let mut settings = insta::Settings::clone_current();\n    settings.set_snapshot_path(dir);\n",
        "    settings.set_prepend_module_to_snapshot(false);",
        "    settings.set_omit_expression(true);",
        "    let _settings = settings.bind_to_scope();",
        "    let mut h = crate::tests::sample();",
        "    h.resize(80, 24);",
        "    snapshots.check_tree(&h, 0, \"00-first\", snapshot);",
        "    h.step(1, &rules)\n        .set_value(\"name\", \"Ada \\\"the\\\" Countess\\n\")?;",
        "    snapshots.check_tree(&h, 1, \"01-name-set-value\", snapshot);",
        "    h.step(2, &rules).set_value(\"seats\", 5)?;",
        "    h.step(3, &rules).set_value(\"ratio\", 0.25)?;",
        // A resize, its tree checked when it was recorded; a refusal of the bridge's.
        "    snapshots.check_tree(&h, 2, \"02-seats-set-value\", snapshot);\n    h.resize(100, 30);\n    snapshots.check_tree(&h, 2, \"02-resize-100x30\", snapshot);\n    h.resize(90, 30);\n",
        "    // Not sent: the bridge refused act {\"action\":\"toggle\",\"node\":\"tasks/9\"}\n    // (not_found) no node `tasks/9`?; read_tree\n",
        "    // Not sent: the bridge refused step 2 of this batch, {\"node\":\"pin\",\"tool\":\"set_value\",\"value\":\"…\n    // (out_of_domain)\n    h.step(3",
        "        .set_value(\"password\", crate::tests::PASSWORD)?;",
        // What each act meant.
        "    h.step(5, &rules)\n        .seen(Role::Checkbox, \"I accept the \\\"terms\\\"\")\n        .act(\"terms\", \"toggle\")?;",
        "    snapshots.check_tree(&h, 5, \"05-terms-toggle\", snapshot);",
        "        .act_with(\"picker\", \"pick\", taria::Value::from(true))?;",
        "    // Step 8 is a batch call of one step.\n    h.step(8, &rules)\n        .scroll(\"files\", taria::ScrollDirection::Down, 3)?;",
        "    snapshots.check_tree(&h, 8, \"08-files-scroll\", snapshot);",
        "    h.step(9, &rules)\n        .refused(AckStatus::Rejected, RejectReason::UnknownNode)\n        .act(\"tasks/999\", \"toggle\")?;",
        "    h.step(11, &rules)\n        .refused(AckStatus::Ignored, RejectReason::NoRoute)\n        .press(\"ctrl+k\")?;",
        "    snapshots.check_tree(&h, 11, \"11-press-ctrl-k\", snapshot);",
        "    h.step(13, &rules).type_text(\"!!\")?;",
        "    snapshots.check_tree(&h, 13, \"13-type-text\", snapshot);",
        "    // The agent read: find_nodes {\"label\":\"ship v0?\"}",
        "    // Step 14 was dropped (the input queue was full): not replayed.",
        "    h.step(15, &rules).any_answer().press(\"q\")?;",
        // A redacted custom action's value is a `Value`, as the plain one's.
        "        .act_with(\"password\", \"check\", taria::Value::from(\"!!\"))?;",
        "    snapshots.check_tree(&h, 16, \"16-password-check\", snapshot);",
        // The recorded token where it decides the answer; not what it was aimed at
        // when the app refused it as stale.
        "        .refused(AckStatus::Rejected, RejectReason::UnknownNode)\n        .act_seen(\"tasks/7\", \"select\", \"cd34\")?;",
        "    h.step(18, &rules)\n        .refused(AckStatus::Rejected, RejectReason::StaleTarget)\n        .act_seen(\"terms\", \"toggle\", \"ef56\")?;",
        // A refusal's message.
        "    h.step(19, &rules)\n        .seen(Role::TextInput, \"New task\")\n        .refused(AckStatus::Rejected, RejectReason::HandlerRejected)\n        .saying(\"the title is empty\")\n        .act(\"new-task\", \"submit\")?;",
        // A key's snapshot is named after it.
        "    h.step(20, &rules).press(\"+\")?;\n    snapshots.check_tree(&h, 20, \"20-press-plus\", snapshot);",
        // Where the app exited, and what it printed.
        "    // The app exited here (exit status 101); it printed:\n    // \"thread 'main' panicked at src/main.rs:3:5:\\nboom\\u001b[31m\"\n    Ok(())\n}\n",
    ] {
        assert!(
            code.lines().any(|l| l == line) || code.contains(line),
            "missing {line:?} in:\n{code}"
        );
    }
    // The first tree, the resize's and each answered step's; the rules applied.
    assert_eq!(generated.snapshots.len(), 1 + 1 + 19);
    let (path, file) = &generated.snapshots[0];
    assert_eq!(path, "snapshots/replay_sample/00-first.snap");
    assert!(
        file.starts_with(
            "---\ndescription: \"the first tree, before any input\"\n---\n- tree \"first\" [id=files]\n"
        ),
        "{file}"
    );
    let (_, file) = &generated.snapshots[1];
    assert!(
        file.starts_with("---\ndescription: \"after step 1: set_value name "),
        "{file}"
    );
    assert!(
        file.ends_with("\n---\n- tree \"after *\" [id=files]\n- text_input \"Password\": <hidden, 6 chars> [id=password] [focused] [redacted] {set_value}\n- checkbox \"Terms\" [id=terms] {toggle}\n"),
        "{file}"
    );
}

/// With `--refind`, a step whose id names another node acts on the node with the
/// recorded role and label (`.refind`) instead of failing (`.seen`).
#[test]
fn refind_re_finds_each_moved_node_by_role_and_label() {
    let code = |args: &[&str]| {
        generate(&recording(), &options(args), "taria-mcp")
            .unwrap()
            .code
    };
    let seen = code(&["s.jsonl"]);
    let refind = code(&["s.jsonl", "--refind"]);
    let line = ".seen(Role::Checkbox, \"I accept the \\\"terms\\\"\")";
    assert!(seen.contains(line) && !seen.contains(".refind("), "{seen}");
    assert_eq!(refind, seen.replace(".seen(", ".refind("));
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
            .contains("    h.step(4, &rules).set_value(\"password\", \"\")?;")
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
        vec!["s.jsonl", "--refind"],
        // Absolute paths: one rustfmt puts on a line of its own, one too long for that.
        vec![
            "/tmp/a-recording-at-an-absolute-path-of-eighty-five-characters-or-so-x.jsonl",
            "--snapshots",
            "/tmp/snapshots-at-an-absolute-path-too-long-for-a-line-of-its-own-even-after-the-let.d",
        ],
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
fn rules_for_some_steps_regexes_and_draw_order_are_written_as_given() {
    let options = options(&[
        "s.jsonl",
        "--exclude",
        "clock",
        "--at",
        "3-5",
        "--label",
        r"files=re:after \d+",
        "--label",
        "files=after 1?",
        "--at",
        "10",
        "--draw-order",
    ]);
    let generated = generate(&recording(), &options, "taria-mcp test-from").unwrap();
    let code = &generated.code;
    for line in [
        "    let rules = rules.at_steps(3..=5, taria::testing::Match::new().exclude(\"clock\"));\n",
        "    let rules = rules.label(\n        \"files\",\n        taria::testing::Pattern::regex(\"after \\\\d+\").expect(\"compiled by test-from\"),\n    );\n",
        "    let rules = rules.at_steps(\n        10..=10,\n        taria::testing::Match::new().label(\"files\", \"after 1?\"),\n    );\n",
        "    let rules = rules.draw_order();\n",
    ] {
        assert!(code.contains(line), "missing {line:?} in:\n{code}");
    }
    // The snapshot of step `step`'s answer (a resize's is named `NN-resize-…`).
    let snapshot = |step: usize| {
        let name = format!("/{step:02}-");
        generated
            .snapshots
            .iter()
            .find(|(path, _)| path.contains(&name) && !path.contains("-resize-"))
            .unwrap()
            .1
            .split("---\n")
            .nth(2)
            .unwrap()
            .to_owned()
    };
    assert!(
        snapshot(9).starts_with("- tree \"re:after \\\\d+\" [id=files]\n"),
        "{}",
        snapshot(9)
    );
    // At step 10 the rule for step 10 holds `files` instead.
    assert!(
        snapshot(10).starts_with("- tree \"after 1?\" [id=files]\n"),
        "{}",
        snapshot(10)
    );
    // `clock` is in no tree: said; and what a regex needs.
    assert_eq!(
        generated.warnings,
        [
            "warning: --exclude clock --at 3-5 matched no node in the recording: it does \
             nothing; remove it, or fix its pattern",
            "note: the test's rules name taria::testing::Pattern::regex: build the tests \
             with taria's `regex` feature ([dev-dependencies] taria = { ..., features = \
             [\"regex\"] })"
        ]
    );
}

#[test]
fn two_label_rules_for_one_node_are_refused_naming_both() {
    let args: Vec<String> = ["s.jsonl", "--label", "files=a*", "--label", "files=b*"]
        .map(str::to_owned)
        .to_vec();
    assert_eq!(
        parse(&args).unwrap_err(),
        "--label 'files=a*' and --label 'files=b*' both say what `files`'s label may be: a \
         node is held to one label rule; keep one (--at gives a rule for some steps)"
    );
    // Two patterns that meet on one node: found in the trees.
    let meeting = options(&["s.jsonl", "--label", "files=after*", "--label", "fil*=*"]);
    let error = generate(&recording(), &meeting, "taria-mcp").unwrap_err();
    assert_eq!(
        error,
        "--label 'files=after*' and --label 'fil*=*' both apply to `files` (at step 0): a \
         node is held to one label rule; keep one, or narrow the other's ID"
    );
    // One for some steps and one for all do not conflict.
    let apart = options(&[
        "s.jsonl", "--label", "files=*", "--label", "files=a*", "--at", "1",
    ]);
    generate(&recording(), &apart, "taria-mcp").unwrap();
}

#[test]
fn a_node_that_changed_while_the_app_took_no_input_is_pointed_out() {
    // Step 11 (ctrl+k) was ignored: `files` still changed ("after 10" -> "after 11").
    let generated = generate(&recording(), &options(&["s.jsonl"]), "taria-mcp").unwrap();
    assert_eq!(
        generated.warnings,
        [
            "note: `files` changed at step 11, an input the app ignored (nothing took it): it \
          changes on its own, and a test of it fails at random; leave it out with --exclude \
          files, or give its label a pattern with --label files=PATTERN"
        ]
    );
    // Under a rule that holds it, nothing to say.
    let held = options(&["s.jsonl", "--label", "files=*"]);
    let generated = generate(&recording(), &held, "taria-mcp").unwrap();
    assert!(generated.warnings.is_empty(), "{:?}", generated.warnings);
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
    assert_eq!(
        error(&["a", "--at", "3"]),
        "--at 3 says when the rule just before it applies: put it right after an --exclude, \
         --label or --screen"
    );
    assert_eq!(
        error(&["a", "--exclude", "x", "--at", "5-3"]),
        "--at takes a step (3) or steps (3-5, the first not after the last), not `5-3`"
    );
    assert_eq!(
        error(&["a", "--exclude", "x", "--at", "3", "--at", "4"]),
        "--at 4 says when the rule just before it applies: put it right after an --exclude, \
         --label or --screen"
    );
    assert!(
        error(&["a", "--label", "x=re:(unclosed"])
            .starts_with("--label: the regex `(unclosed` does not compile: "),
    );
    let args = ["--help".to_owned()];
    assert!(parse(&args).unwrap().is_none());
}

#[test]
fn check_says_which_file_no_longer_matches_the_recording() {
    let dir = std::env::temp_dir().join(format!("taria-test-from-check-{}", std::process::id()));
    let snapshots = dir.join("snapshots");
    let options = options(&["s.jsonl", "--snapshots", snapshots.to_str().unwrap()]);
    let generated = generate(&recording(), &options, "taria-mcp test-from s.jsonl").unwrap();
    generated.write_snapshots(&mut Vec::new()).unwrap();
    let test = dir.join("replay_s.rs");
    // Another first line (the command) does not count.
    std::fs::write(
        &test,
        generated.code.replacen("s.jsonl", "elsewhere/s.jsonl", 1),
    )
    .unwrap();
    generated.check(&test).unwrap();
    // Nor another metadata header, as insta writes it once a change was reviewed.
    let first = snapshots.join("00-first.snap");
    let reviewed = std::fs::read_to_string(&first).unwrap().replace(
        "description: \"the first tree, before any input\"",
        "source: x.rs",
    );
    std::fs::write(&first, reviewed).unwrap();
    generated.check(&test).unwrap();

    std::fs::write(
        &first,
        "---\nsource: x.rs\n---\n- tree \"changed\" [id=files]\n",
    )
    .unwrap();
    std::fs::write(
        &test,
        generated
            .code
            .replace("h.resize(80, 24)", "h.resize(80, 25)"),
    )
    .unwrap();
    let error = generated.check(&test).unwrap_err();
    assert!(
        error
            .starts_with("the recording no longer generates the committed test (2 file(s) differ;"),
        "{error}"
    );
    assert!(
        error.contains(
            "replay_s.rs: line 21:\n  -     h.resize(80, 25);\n  +     h.resize(80, 24);"
        ),
        "{error}"
    );
    assert!(error.contains("00-first.snap: line 1:\n  - - tree \"changed\" [id=files]\n  + - tree \"first\" [id=files]"), "{error}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A shorter recording leaves snapshots of steps it no longer has: --check names
/// them, and writing removes them (and pending ones, and outlines of the old format).
#[test]
fn check_names_stale_snapshots_and_writing_removes_them() {
    let dir = std::env::temp_dir().join(format!("taria-test-from-stale-{}", std::process::id()));
    let snapshots = dir.join("snapshots");
    let options = options(&["s.jsonl", "--snapshots", snapshots.to_str().unwrap()]);
    let generated = generate(&recording(), &options, "taria-mcp test-from s.jsonl").unwrap();
    generated.write_snapshots(&mut Vec::new()).unwrap();
    let test = dir.join("replay_s.rs");
    std::fs::write(&test, &generated.code).unwrap();
    generated.check(&test).unwrap();
    for stale in [
        "40-gone.snap",
        "05-terms-toggle.snap.new",
        "00-first.outline",
    ] {
        std::fs::write(snapshots.join(stale), "---\n---\nold\n").unwrap();
    }
    // Not a snapshot: left alone.
    std::fs::write(snapshots.join("notes.txt"), "mine").unwrap();
    let error = generated.check(&test).unwrap_err();
    let dir_text = snapshots.to_str().unwrap();
    for stale in [
        "40-gone.snap",
        "05-terms-toggle.snap.new",
        "00-first.outline",
    ] {
        assert!(
            error.contains(&format!(
                "{dir_text}/{stale}: no step of the test checks it"
            )),
            "{stale}: {error}"
        );
    }
    assert!(error.contains("(3 file(s) differ;"), "{error}");
    let mut removed = Vec::new();
    generated.write_snapshots(&mut removed).unwrap();
    assert_eq!(
        removed,
        [
            "00-first.outline",
            "05-terms-toggle.snap.new",
            "40-gone.snap"
        ]
        .map(|name| format!("{dir_text}/{name}"))
    );
    generated.check(&test).unwrap();
    assert!(snapshots.join("notes.txt").exists());
    std::fs::remove_dir_all(&dir).unwrap();
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
        same.code.contains(
            "\n    // The app ended its connection here: idle release.\n    // The app was \
                 connected to again here.\n    // It came back showing the same tree, and the \
                 session goes on.\n"
        ),
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
        header.starts_with("// from a recording of `evil??[2J??fn x() {}` (21 steps at 80x24)."),
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

/// A dashboard's session: its timer changed the `cpu` gauge's value, the rows of
/// `procs` and the `clock`'s label with no input (the `unprompted` line); the agent
/// then paused it.
fn animated() -> Recording {
    let tree = |cpu: u32, rows: [u32; 2], clock: &str, live: bool| {
        let rows: Vec<String> = rows
            .iter()
            .map(|pid| format!(r#"{{"id":"procs/{pid}","role":"row","label":"{pid}"}}"#))
            .collect();
        format!(
            r#"{{"frame":1,"roots":[{{"id":"cpu","role":"progress","label":"CPU","value":{cpu}}},{{"id":"procs","role":"table","label":"Processes","children":[{}]}},{{"id":"clock","role":"status","label":"{clock}"}},{{"id":"log","role":"log","label":"Log","value":"{clock} tick"}},{{"id":"live","role":"switch","label":"Live","checked":"{live}","actions":["toggle"]}}]}}"#,
            rows.join(",")
        )
    };
    let text = [
        r#"{"taria_recording":2,"app":"dash","size":{"width":80,"height":24},"taria":"0.1.0","mode":"spawn"}"#.to_owned(),
        format!(r#"{{"kind":"tree","revision":1,"tree":{}}}"#, tree(30, [1, 2], "12:00", true)),
        r#"{"kind":"unprompted","frames":2,"revision":3,"changed":{"clock":["label"],"cpu":["value"],"log":["children","value"],"procs":["children"]}}"#.to_owned(),
        format!(
            r#"{{"kind":"input","step":1,"call":1,"tool":"act","input":{{"kind":"act","node":"live","action":"toggle"}},"target":{{"role":"switch","label":"Live"}},"ack":{{"status":"delivered"}},"revision":4,"tree":{}}}"#,
            tree(41, [2, 7], "12:02", false)
        ),
    ]
    .join("\n")
        + "\n";
    Recording::parse(&text).unwrap()
}

/// Issue 30: a session on an app that animates generated a test that failed on the
/// unchanged app, saying nothing of the nodes its timer changed. They are now left
/// out (or, a label alone, held to any label), said in the test and on stderr.
#[test]
fn nodes_that_changed_with_no_input_are_left_out_and_said() {
    let generated = generate(&animated(), &options(&["dash.jsonl"]), "taria-mcp").unwrap();
    let code = &generated.code;
    for line in [
        "    // These nodes changed with no input in the recorded session (its `unprompted`\n",
        "    // - `clock`: its label changed; any label passes\n",
        "    // - `cpu`: its value changed; it is left out\n",
        "    // - `log`: its value changed and its children came, went or moved; it is left out\n",
        "    // - `procs`: its children came, went or moved; they are left out\n",
        "    let rules = rules.label(\"clock\", \"*\");\n",
        "    let rules = rules.exclude(\"cpu\");\n",
        "    let rules = rules.exclude(\"log\");\n",
        "    let rules = rules.exclude(\"procs/*\");\n",
    ] {
        assert!(code.contains(line), "{line:?} not in:\n{code}");
    }
    assert_eq!(
        generated.warnings,
        [
            "note: changed with no input in the recorded session: `clock`: its label changed; \
             any label passes",
            "note: changed with no input in the recorded session: `cpu`: its value changed; it \
             is left out",
            "note: changed with no input in the recorded session: `log`: its value changed and \
             its children came, went or moved; it is left out",
            "note: changed with no input in the recorded session: `procs`: its children \
             came, went or moved; they are left out",
        ]
    );
    // The snapshot after the step holds what the input changed, not what the timer did.
    let (_, after) = &generated.snapshots[1];
    assert!(after.contains("- switch \"Live\" [id=live]"), "{after}");
    assert!(
        after.contains("- table \"Processes\" [id=procs]\n"),
        "{after}"
    );
    assert!(after.contains("- status \"*\" [id=clock]"), "{after}");
    assert!(
        !after.contains("cpu") && !after.contains("procs/") && !after.contains("tick"),
        "{after}"
    );
    // A rule of the author's for a node is kept, and nothing is added for it.
    let own = options(&["dash.jsonl", "--label", "clock=12:*"]);
    let generated = generate(&animated(), &own, "taria-mcp").unwrap();
    assert!(
        generated.code.contains("rules.label(\"clock\", \"12:*\")"),
        "{}",
        generated.code
    );
    assert!(
        !generated.code.contains("rules.label(\"clock\", \"*\")"),
        "{}",
        generated.code
    );
}

/// A recording without `unprompted` lines (an older bridge, an app that draws only on
/// input) gets no rule and no note for them.
#[test]
fn a_recording_without_unprompted_lines_gets_no_rule_for_them() {
    let generated = generate(&recording(), &options(&["s.jsonl"]), "taria-mcp").unwrap();
    assert!(
        !generated.code.contains("changed with no input"),
        "{}",
        generated.code
    );
}

/// Issue 34.1: the test names the recording it reads its expected pictures from; a
/// fresh recording checked against a committed test (CI's `check_replays.py`) is read
/// from where it is but named as the committed one (`--recorded-as`), so the code
/// is the same.
#[test]
fn a_fresh_recording_is_named_as_the_committed_one() {
    let named = options(&[
        "/tmp/fresh/todo-add.jsonl",
        "--recorded-as",
        "todo/recordings/add.jsonl",
    ]);
    assert_eq!(named.recording, "todo/recordings/add.jsonl");
    let code = generate(&recording(), &named, "taria-mcp test-from")
        .unwrap()
        .code;
    assert!(code.contains("\"/todo/recordings/add.jsonl\""), "{code}");
    assert!(!code.contains("fresh"), "{code}");
    // Without it, the file as given (absolute: outside the package).
    let plain = options(&["/tmp/fresh/todo-add.jsonl"]);
    assert_eq!(plain.recording, "/tmp/fresh/todo-add.jsonl");
}
