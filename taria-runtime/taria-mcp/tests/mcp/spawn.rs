//! Spawn mode: the bridge starts a real example app in a pseudo-terminal.

use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

use crate::fake_app::{Counters, FakeApp, Script};
use crate::harness::{Mcp, RunningApp, outline, temp_socket};

/// An app whose label is taken runs without agent access, and says so in one line
/// on its terminal after it has restored it.
#[test]
fn an_app_whose_label_is_in_use_says_so_when_it_exits() {
    use portable_pty::{CommandBuilder, PtySize, native_pty_system};

    let socket = temp_socket("label-in-use");
    let _holder = RunningApp::start_at(&socket);
    let pty = native_pty_system()
        .openpty(PtySize {
            rows: 10,
            cols: 60,
            pixel_width: 0,
            pixel_height: 0,
        })
        .unwrap();
    let mut command = CommandBuilder::new(before_after());
    command.env("TARIA_SOCKET", &socket);
    command.env("TERM", "xterm-256color");
    let mut child = pty.slave.spawn_command(command).unwrap();
    drop(pty.slave);
    let mut reader = pty.master.try_clone_reader().unwrap();
    let output = Arc::new(Mutex::new(Vec::new()));
    let sink = Arc::clone(&output);
    std::thread::spawn(move || {
        let mut chunk = [0u8; 4096];
        while let Ok(n) = std::io::Read::read(&mut reader, &mut chunk) {
            if n == 0 {
                break;
            }
            sink.lock().unwrap().extend_from_slice(&chunk[..n]);
        }
    });
    let shown = |needle: &str| String::from_utf8_lossy(&output.lock().unwrap()).contains(needle);
    let deadline = Instant::now() + Duration::from_secs(20);
    while !shown("Tasks") {
        assert!(Instant::now() < deadline, "the app did not draw");
        std::thread::sleep(Duration::from_millis(20));
    }
    let mut writer = pty.master.take_writer().unwrap();
    writer.write_all(b"q").unwrap();
    writer.flush().unwrap();
    let status = child.wait().unwrap();
    assert!(status.success(), "{status:?}");
    let expected = "taria: agent access was off for this run: label \"before-after\" is in use";
    let deadline = Instant::now() + Duration::from_secs(5);
    while !shown(expected) {
        assert!(
            Instant::now() < deadline,
            "no line about the label: {}",
            String::from_utf8_lossy(&output.lock().unwrap())
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    let text = String::from_utf8_lossy(&output.lock().unwrap()).into_owned();
    let line = text.lines().find(|l| l.contains(expected)).unwrap();
    assert!(
        line.contains("give this app another label (or stop the other one)"),
        "{line}"
    );
}

/// The built `before-after` example, next to this test binary's directory.
pub(crate) fn before_after() -> String {
    example_app("before-after")
}

/// The built example app `name`, next to this test binary's directory.
pub(crate) fn example_app(name: &str) -> String {
    let exe = std::env::current_exe().unwrap();
    // Tests run from `<target>/<profile>/deps/`; examples are in `<target>/<profile>/examples/`.
    let profile = exe.parent().and_then(Path::parent).unwrap();
    let app = profile.join("examples").join(name);
    assert!(
        app.is_file(),
        "{} is missing: build the examples first (`cargo build -p taria-examples --examples`), \
         or run `cargo test --workspace --all-features`, which builds them",
        app.display()
    );
    app.to_str().unwrap().to_owned()
}

/// The app's pid, from the bridge's log.
pub(crate) fn spawned_pid(mcp: &Mcp) -> i32 {
    let line = mcp.log_line("spawned the app");
    let pid = line
        .split("pid=")
        .nth(1)
        .unwrap()
        .split(' ')
        .next()
        .unwrap();
    pid.parse().unwrap()
}

fn alive(pid: i32) -> bool {
    let pid = rustix::process::Pid::from_raw(pid).unwrap();
    rustix::process::test_kill_process(pid).is_ok()
}

/// Waits up to `limit` for the process to be gone.
pub(crate) fn gone_within(pid: i32, limit: Duration) -> bool {
    let deadline = Instant::now() + limit;
    while alive(pid) {
        if Instant::now() > deadline {
            return false;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    true
}

fn bounds(mcp: &mut Mcp, id: &str) -> Value {
    let tree = mcp.ok(
        "read_tree",
        json!({"format": "json", "root": id, "bounds": true}),
    );
    tree["tree"][0]["bounds"].clone()
}

#[test]
fn spawn_mode_drives_a_real_app_in_a_pseudo_terminal() {
    let app = before_after();
    let mut mcp = Mcp::launch(&["--cols", "80", "--rows", "20", "--", &app]);
    let tree = mcp.ok("read_tree", json!({}));
    let text = outline(&tree);
    assert!(text.contains("- list \"Tasks\" [id=tasks]"), "{text}");
    assert!(text.contains("\"Write docs\""), "{text}");
    // The label is irrelevant: TARIA_SOCKET pointed the app at the bridge's socket.
    assert_eq!(bounds(&mut mcp, "tasks"), json!([0, 0, 80, 17]));

    // Through the key fallback: select the item (down), then space.
    let toggled = mcp.ok(
        "act",
        json!({"node": "tasks/list_item#1", "action": "toggle"}),
    );
    let changes = toggled["changes"].as_str().unwrap();
    assert!(
        changes.contains("\"Write docs\" [id=tasks/list_item#1 positional] [selected] [checked]"),
        "{toggled}"
    );

    let resized = mcp.ok("resize", json!({"cols": 100, "rows": 30}));
    assert_eq!(
        (&resized["cols"], &resized["rows"]),
        (&json!(100), &json!(30))
    );
    assert_eq!(resized["changed"], true, "{resized}");
    assert_eq!(bounds(&mut mcp, "tasks"), json!([0, 0, 100, 27]));
    let same = mcp.ok("resize", json!({"cols": 100, "rows": 30}));
    assert_eq!(same["changed"], false);
    mcp.fails(
        "resize",
        json!({"cols": 9, "rows": 30}),
        "invalid_arguments",
    );
    mcp.fails(
        "resize",
        json!({"cols": 100, "rows": 501}),
        "invalid_arguments",
    );

    let screen = mcp.ok("read_tree", json!({"format": "screen"}));
    assert_eq!(screen["cols"], 100);
    let rows = screen["rows"].as_array().unwrap();
    assert_eq!(rows.len(), 30);
    for row in rows {
        let row = row.as_str().unwrap();
        assert!(row.chars().count() <= 100, "{row}");
        assert!(!row.ends_with(' '), "trailing spaces are trimmed: {row:?}");
    }
    assert!(
        rows.iter()
            .any(|r| r.as_str().unwrap().contains("[x] Write docs")),
        "{screen}"
    );

    // The app quits by itself (its `q` key): the bridge stays up and says how it ended.
    let pid = spawned_pid(&mcp);
    let quit = mcp.call("press_key", json!({"key": "q"}));
    if quit["isError"] == true {
        assert_eq!(quit["structuredContent"]["code"], "app_exited", "{quit}");
    }
    assert!(
        gone_within(pid, Duration::from_secs(3)),
        "the app did not quit"
    );
    let exited = mcp.fails("read_tree", json!({}), "app_exited");
    assert_eq!(exited["exitCode"], 0, "{exited}");
    assert!(
        exited["message"]
            .as_str()
            .unwrap()
            .contains("exit status 0"),
        "{exited}"
    );
    mcp.fails("press_key", json!({"key": "a"}), "app_exited");
    mcp.finish();
}

#[test]
fn closing_the_session_stops_the_spawned_app() {
    let app = before_after();
    let mut mcp = Mcp::launch(&["spawn", &app]);
    mcp.ok("read_tree", json!({}));
    let pid = spawned_pid(&mcp);
    assert!(alive(pid));
    let started = Instant::now();
    mcp.finish();
    assert!(
        gone_within(
            pid,
            Duration::from_secs(3).saturating_sub(started.elapsed())
        ),
        "the app outlived the session"
    );
}

#[test]
fn sigterm_to_the_bridge_stops_the_spawned_app() {
    use rustix::process::{Pid, Signal, kill_process};
    let app = before_after();
    let mut mcp = Mcp::launch(&["--", &app]);
    // The default size: 120 × 40.
    assert_eq!(bounds(&mut mcp, "tasks"), json!([0, 0, 120, 37]));
    let pid = spawned_pid(&mcp);
    let bridge = Pid::from_raw(i32::try_from(mcp.child.id()).unwrap()).unwrap();
    kill_process(bridge, Signal::TERM).unwrap();
    let deadline = Instant::now() + Duration::from_secs(5);
    while mcp.child.try_wait().unwrap().is_none() {
        assert!(Instant::now() < deadline, "the bridge ignored SIGTERM");
        std::thread::sleep(Duration::from_millis(20));
    }
    assert!(
        gone_within(pid, Duration::from_secs(1)),
        "the app outlived the bridge"
    );
}

/// A host that closes all of the bridge's pipes at once (stderr's read end too): the
/// bridge's next log line cannot be written, which must not panic it before it has
/// stopped the app (on Windows nothing else would).
#[test]
fn a_closed_stderr_does_not_stop_the_bridge_from_stopping_the_app() {
    let app = before_after();
    let mut child = Command::new(env!("CARGO_BIN_EXE_taria-mcp"))
        .args(["--", &app])
        .env("TARIA_LOG", "info")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stderr = BufReader::new(child.stderr.take().unwrap());
    let mut line = String::new();
    while !line.contains("spawned the app") {
        line.clear();
        assert!(stderr.read_line(&mut line).unwrap() > 0, "no spawn logged");
    }
    let pid: i32 = line
        .split("pid=")
        .nth(1)
        .unwrap()
        .split(' ')
        .next()
        .unwrap()
        .parse()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let init = json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-11-25", "capabilities": {},
        "clientInfo": {"name": "taria-test", "version": "0"}}});
    writeln!(stdin, "{init}").unwrap();
    let mut stdout = BufReader::new(child.stdout.take().unwrap());
    let mut answer = String::new();
    stdout.read_line(&mut answer).unwrap();
    assert!(answer.contains("\"protocolVersion\""), "{answer}");
    drop(stderr);
    drop(stdin);
    let deadline = Instant::now() + Duration::from_secs(10);
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        assert!(Instant::now() < deadline, "the bridge did not exit");
        std::thread::sleep(Duration::from_millis(20));
    };
    assert!(status.success(), "the bridge ended with {status}");
    assert!(
        gone_within(pid, Duration::from_secs(3)),
        "the app outlived the bridge"
    );
}

#[test]
fn a_spawned_command_that_fails_is_explained() {
    // Not found: the session still runs, every tool says why, and stderr has one line.
    let mut mcp = Mcp::launch(&["--", "taria-no-such-command"]);
    let missing = mcp.fails("read_tree", json!({}), "app_not_connected");
    assert!(
        missing["message"]
            .as_str()
            .unwrap()
            .contains("cannot start `taria-no-such-command`"),
        "{missing}"
    );
    mcp.log_line("taria-mcp: cannot start `taria-no-such-command`");
    mcp.finish();

    // Exits before serving its socket: the exit status and its last output.
    let mut mcp = Mcp::launch(&["spawn", "sh", "-c", "echo build failed: boom; exit 3"]);
    let exited = mcp.fails("read_tree", json!({}), "app_exited");
    assert_eq!(exited["exitCode"], 3, "{exited}");
    let message = exited["message"].as_str().unwrap();
    assert!(
        message.contains("exited with exit status 3")
            && message.contains(r#"Its last output (untrusted): "build failed: boom""#),
        "{message}"
    );
    mcp.finish();
}

/// How long [`app_that_binds_before_it_listens`] waits between the two.
/// Longer than the bridge's background connect (100 ms in) plus its 1 s look for an
/// exit, so that without the retry the first call fails whichever of them runs first.
const LISTEN_DELAY: Duration = Duration::from_millis(2500);

#[test]
fn spawn_mode_waits_for_an_app_that_binds_before_it_listens() {
    // A starting app's socket file exists from `bind`; connections are refused until
    // `listen`. The first call must wait through that, not report "no app".
    let exe = std::env::current_exe().unwrap();
    let mut mcp = Mcp::launch(&[
        "--",
        exe.to_str().unwrap(),
        "spawn::app_that_binds_before_it_listens",
        "--exact",
        "--ignored",
        "--nocapture",
    ]);
    let tree = mcp.ok("read_tree", json!({}));
    assert!(
        outline(&tree).contains("- button \"OK\" [id=ok] {activate}"),
        "{tree}"
    );
    mcp.finish();
}

/// The app of [`spawn_mode_waits_for_an_app_that_binds_before_it_listens`], run by it
/// (through `taria-mcp`) in a separate process of this test binary: binds the socket
/// `TARIA_SOCKET` names, listens [`LISTEN_DELAY`] later, then serves as a [`FakeApp`].
#[test]
#[ignore = "the app spawn_mode_waits_for_an_app_that_binds_before_it_listens starts"]
fn app_that_binds_before_it_listens() {
    use rustix::net::{AddressFamily, SocketAddrUnix, SocketType};
    let Some(path) = std::env::var_os(taria_schema::socket::SOCKET_ENV) else {
        return;
    };
    let socket = rustix::net::socket(AddressFamily::UNIX, SocketType::STREAM, None).unwrap();
    rustix::net::bind(&socket, &SocketAddrUnix::new(Path::new(&path)).unwrap()).unwrap();
    std::thread::sleep(LISTEN_DELAY);
    rustix::net::listen(&socket, 8).unwrap();
    let listener = std::os::unix::net::UnixListener::from(socket);
    FakeApp::serve(
        &listener,
        Script::new(
            1,
            |seq, _| json!({"type": "ack", "seq": seq, "status": "handled"}),
        ),
        &Counters::default(),
    );
}

/// A task that ends by exiting reports its result: the input that ends it says how the
/// app exited and what it printed after leaving its screen (untrusted), in the same
/// call; later calls get `app_exited` with it as `output`, said once (issue 14).
#[test]
fn an_exiting_app_s_result_comes_with_app_exited() {
    let mut mcp = launch_app_that_prints_its_result_and_exits(&[]);
    let tree = mcp.ok("read_tree", json!({}));
    assert!(outline(&tree).contains("[id=submit]"), "{tree}");
    let submitted = mcp.ok("act", json!({"node": "submit", "action": "activate"}));
    let note = submitted["note"].as_str().unwrap_or_default();
    assert!(
        note.contains(
            r#"the app exited with exit status 4; after leaving its screen it printed (untrusted): "{\"name\":\"Ada\",\"plan\":\"Team\"}""#
        ),
        "{submitted}"
    );
    // What it drew on its screen before is not the result.
    assert!(!note.contains("drawing"), "{note}");
    let answer = mcp.call("read_tree", json!({}));
    let exited = &answer["structuredContent"];
    assert_eq!(exited["code"], "app_exited", "{exited}");
    assert_eq!(exited["exitCode"], 4, "{exited}");
    assert_eq!(
        exited["output"], r#"{"name":"Ada","plan":"Team"}"#,
        "{exited}"
    );
    let message = exited["message"].as_str().unwrap();
    assert!(
        message.contains("What it printed after leaving its screen is in `output` (untrusted)"),
        "{message}"
    );
    // The text a model reads gives the output once, quoted as the app's text.
    let text = answer["content"][0]["text"].as_str().unwrap();
    assert_eq!(
        text.matches(r#"output: "{\"name\":\"Ada\",\"plan\":\"Team\"}""#)
            .count(),
        1,
        "{text}"
    );
    mcp.finish();
}

/// A batch whose last step ends the app says how it exited, as that step alone would.
#[test]
fn a_batch_that_ends_the_app_reports_its_exit() {
    let mut mcp = launch_app_that_prints_its_result_and_exits(&[]);
    mcp.ok("read_tree", json!({}));
    let steps = json!([{"tool": "act", "node": "submit", "action": "activate"}]);
    let done = mcp.ok("batch", json!({ "steps": steps }));
    let note = done["note"].as_str().unwrap_or_default();
    assert!(
        note.starts_with("step 1: delivered, then the app exited with exit status 4;")
            && note.contains(r#"printed (untrusted): "{\"name\":\"Ada\",\"plan\":\"Team\"}""#),
        "{done}"
    );
    mcp.finish();
}

/// A bridge in spawn mode running [`app_that_prints_its_result_and_exits`], with
/// `options` of its own before the command.
pub(crate) fn launch_app_that_prints_its_result_and_exits(options: &[&str]) -> Mcp {
    let exe = std::env::current_exe().unwrap();
    let command = [
        "--",
        exe.to_str().unwrap(),
        "spawn::app_that_prints_its_result_and_exits",
        "--exact",
        "--ignored",
        "--nocapture",
    ];
    Mcp::launch(&[options, &command].concat())
}

/// The app of [`an_exiting_app_s_result_comes_with_app_exited`]: serves a form's submit
/// button; when an agent activates it, leaves the alternate screen, prints its result
/// and exits with status 4.
#[test]
#[ignore = "the app an_exiting_app_s_result_comes_with_app_exited starts"]
fn app_that_prints_its_result_and_exits() {
    use std::io::Write as _;
    struct Form {
        submitted: bool,
    }
    impl taria::Actions for Form {
        fn handle_action(&mut self, invocation: &taria::Invocation<'_>) -> taria::Outcome {
            self.submitted = invocation.is(taria::Action::Activate);
            if self.submitted {
                taria::Outcome::Handled
            } else {
                taria::Outcome::NotHandled
            }
        }
    }
    if std::env::var_os(taria_schema::socket::SOCKET_ENV).is_none() {
        return;
    }
    let mut session = taria::Session::builder("result")
        .terminal_input(false)
        .try_start()
        .unwrap();
    let mut terminal = ratatui::Terminal::new(ratatui::backend::TestBackend::new(20, 3)).unwrap();
    let mut out = std::io::stdout();
    let _ = out.write_all(b"\x1b[?1049hdrawing the form\r\n");
    let _ = out.flush();
    let deadline = std::time::Instant::now() + Duration::from_secs(20);
    let mut form = Form { submitted: false };
    while std::time::Instant::now() < deadline {
        session.drain(&mut form);
        if form.submitted {
            // As a loop whose key handler ends it: no frame after the submit.
            break;
        }
        let _ = session.draw(&mut terminal, |_| {
            taria::leaf(|n| {
                n.role(taria::Role::Button).id("submit").label("Submit");
                n.action(taria::Action::Activate);
            });
        });
        std::thread::sleep(Duration::from_millis(20));
    }
    let _ = out.write_all(b"\x1b[?1049l{\"name\":\"Ada\",\"plan\":\"Team\"}\r\n");
    let _ = out.flush();
    drop(session);
    std::process::exit(4);
}

/// Issue 20.7: `resize` takes its place in arrival order. Resizes a client sends at
/// once were applied in whatever order their handlers ran: the last answer said
/// 137x53 while the terminal stayed at another size. Now the app ends at the size
/// sent last, as its own tree and screen show.
#[test]
fn pipelined_resizes_leave_the_terminal_at_the_last_size_sent() {
    let app = before_after();
    let mut mcp = Mcp::launch(&["--cols", "80", "--rows", "20", "--", &app]);
    mcp.ok("read_tree", json!({}));
    let sizes = [
        (124, 48),
        (100, 30),
        (90, 25),
        (124, 48),
        (110, 40),
        (95, 33),
        (130, 45),
        (124, 48),
        (137, 53),
    ];
    let calls: Vec<(&str, Value)> = sizes
        .iter()
        .map(|(cols, rows)| ("resize", json!({"cols": cols, "rows": rows})))
        .collect();
    let answers = mcp.call_all(&calls);
    for (answer, (cols, rows)) in answers.iter().zip(sizes) {
        let content = &answer["structuredContent"];
        assert_eq!(
            (&content["cols"], &content["rows"]),
            (&json!(cols), &json!(rows)),
            "{answer}"
        );
    }
    // The app redraws at each size; the last one it was given must be the one it keeps.
    let deadline = Instant::now() + Duration::from_secs(5);
    let mut seen = bounds(&mut mcp, "tasks");
    while seen != json!([0, 0, 137, 50]) && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(50));
        seen = bounds(&mut mcp, "tasks");
    }
    assert_eq!(
        seen,
        json!([0, 0, 137, 50]),
        "the list's bounds: {answers:?}"
    );
    let screen = mcp.ok("read_tree", json!({"format": "screen"}));
    assert_eq!(
        (&screen["cols"], screen["rows"].as_array().map(Vec::len)),
        (&json!(137), Some(53)),
        "{screen}"
    );
    mcp.finish();
}

/// Issue 30, "stuck for good": an app whose loop draws only when its own state changed
/// (`examples/lazy`) drew nothing for the bridge that connected after its first frame,
/// and every call timed out. Spawn mode resizes its terminal to make it draw: the tree
/// reads, and an action (which waits for the frame after it) is answered with its
/// effect.
#[test]
fn an_app_that_draws_only_on_its_own_changes_is_made_to_draw() {
    let lazy = example_app("lazy");
    let mut mcp = Mcp::launch(&["--", &lazy]);
    let read = mcp.ok("read_tree", json!({}));
    assert!(
        outline(&read).contains("- spin_button \"Count\": 0 [id=count]"),
        "{read}"
    );
    let done = mcp.ok("act", json!({"node": "count", "action": "increment"}));
    assert!(
        done.to_string().contains("spin_button \\\"Count\\\": 1"),
        "{done}"
    );
    mcp.finish();
}

/// The same app when it ignores resizes too: the error names the cause and the line to
/// add, and `read_tree` with format screen (which the error recommends) reads the
/// terminal, saying it is not a frame taria recorded.
///
/// Whether the app's first frame comes before the bridge connects (then it never draws
/// for the bridge) or after (then the bridge has it) is a race of the app's start: a
/// session whose first read has a tree is started again, up to 10 times.
#[test]
fn an_app_that_never_draws_for_the_bridge_is_told_what_to_add() {
    let lazy = example_app("lazy");
    let mut attempts = 0;
    let (mut mcp, refused) = loop {
        attempts += 1;
        let mut mcp = Mcp::launch(&["--", &lazy, "--ignore-resize"]);
        let read = mcp.call("read_tree", json!({}));
        if read["isError"] == true {
            break (mcp, read["structuredContent"].clone());
        }
        assert!(
            attempts < 10,
            "the app drew for the bridge 10 times in 10: {read}"
        );
        mcp.finish();
    };
    assert_eq!(refused["code"], "timeout", "{refused}");
    let message = refused["message"].as_str().unwrap();
    assert!(
        message.contains("seems to draw only when its own state changes")
            && message.contains("draw on Event::FocusGained too"),
        "{message}"
    );
    let screen = mcp.ok("read_tree", json!({"format": "screen"}));
    assert_eq!(screen["revision"], 0, "{screen}");
    assert!(
        screen["note"]
            .as_str()
            .unwrap()
            .starts_with("its terminal as it shows now"),
        "{screen}"
    );
    assert!(
        screen["rows"]
            .as_array()
            .unwrap()
            .iter()
            .any(|row| row.as_str().unwrap().contains("Count: 0")),
        "{screen}"
    );
    mcp.finish();
}
