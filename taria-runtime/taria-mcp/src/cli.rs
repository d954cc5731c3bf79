//! The command line: which program to run, and its arguments. The MCP server's (which
//! app to attach to, or which command to spawn, and for how long to hold it) and
//! `view`'s are read here; a subcommand with a `--help` of its own reads its own
//! (`programs::test_from::args`, `programs::audit::args`).

use std::path::PathBuf;
use std::time::Duration;

use crate::programs::audit::args as audit;
use crate::programs::serve::{Options, Target};
use crate::programs::test_from::args as test_from;
use crate::programs::view::Options as ViewOptions;
use crate::spawn::size::{COLS, DEFAULT_SIZE, ROWS, Size, dimension};

/// The usage text, printed by `--help`.
pub(crate) const USAGE: &str = "\
usage: taria-mcp --app <label> [--idle-release SECS] [OPTIONS]
       taria-mcp --socket <path> [--idle-release SECS] [OPTIONS]
       taria-mcp [--cols N --rows N] [OPTIONS] -- <command> [args…]
       taria-mcp spawn [--cols N --rows N] [OPTIONS] <command> [args…]
       taria-mcp view FILE [--port N]          (a recording in the inspector, no app)
       taria-mcp test-from FILE [options]      (a recording as a Rust test; see its --help)
       taria-mcp audit [options] -- <command>  (explore an app, check every answer; see its --help)

An MCP server on stdin/stdout that lets an agent read and drive a taria app.
  --app <label>          attach to the running app serving <label> (e.g. `todo`)
  --socket <path>        attach to the app socket at <path>
  --idle-release SECS    let go of the app after SECS without a tool call, so another
                         session can take it; reconnect on next use (default 60, 0 = never;
                         attach mode only)
  -- <command> [args…]   spawn mode: run <command> in a pseudo-terminal with a private
                         socket (TARIA_SOCKET), stop it when the MCP session ends
  spawn <command> …      the same, for launchers that cannot pass a literal `--`
                         (a command given without either, e.g. `taria-mcp cargo run`,
                         is spawned too: some hosts drop the `--`)
  --cols N, --rows N     spawn mode: the terminal's size (default 120×40)
  --record FILE          write the session to FILE (created or truncated): every input
                         with the app's ack and the tree it drew after, the first tree,
                         and what the agent read; one JSON object per line, secrets left
                         out (docs/protocol.md, \"Recordings\"); `taria::testing` replays it
  --inspect[=PORT]       serve a page that shows the session live (the screen, the tree,
                         the inputs) on 127.0.0.1 (PORT, else any free port); its address,
                         with a secret token, is printed on stderr. The page only watches
  --structured           results also carry structuredContent (their fields as JSON), for
                         programs; not for a model's host: Claude Code, Codex and others
                         would show the model that JSON instead of the text
Logs go to stderr; set TARIA_LOG (e.g. TARIA_LOG=debug) to choose what is logged.";

/// What the command line asks for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Command {
    /// Serve MCP.
    Run(Options),
    /// `test-from`: write a recording as a Rust test.
    TestFrom(test_from::Options),
    /// `view`: show a recording in the inspector.
    View(ViewOptions),
    /// `audit`: explore an app and check every answer.
    Audit(audit::Options),
    /// Print this usage text.
    Help(&'static str),
    /// Print the version.
    Version,
}

/// Parses the arguments (without the program name). The error is what to print: a
/// line saying what is wrong (for `test-from`, followed by its usage).
pub(crate) fn parse(args: impl IntoIterator<Item = String>) -> Result<Command, String> {
    let args: Vec<String> = args.into_iter().collect();
    if args.first().map(String::as_str) == Some("test-from") {
        return match test_from::parse(&args[1..]) {
            Ok(Some(options)) => Ok(Command::TestFrom(options)),
            Ok(None) => Ok(Command::Help(test_from::USAGE)),
            Err(message) => Err(format!(
                "taria-mcp test-from: {message}\n\n{}",
                test_from::USAGE
            )),
        };
    }
    if args.first().map(String::as_str) == Some("audit") {
        return match audit::parse(&args[1..]) {
            Ok(Some(options)) => Ok(Command::Audit(options)),
            Ok(None) => Ok(Command::Help(audit::USAGE)),
            Err(message) => Err(format!("taria-mcp audit: {message}\n\n{}", audit::USAGE)),
        };
    }
    if args.first().map(String::as_str) == Some("view") {
        return parse_view(&args[1..]).map_err(|message| format!("taria-mcp view: {message}"));
    }
    parse_serve(args).map_err(|message| format!("taria-mcp: {message}"))
}

/// `view FILE [--port N]`.
fn parse_view(args: &[String]) -> Result<Command, String> {
    let mut file = None;
    let mut port = 0;
    let mut args = args.iter();
    while let Some(arg) = args.next() {
        let (flag, inline) = match arg.split_once('=') {
            Some((f, v)) if f.starts_with("--") => (f, Some(v.to_owned())),
            _ => (arg.as_str(), None),
        };
        match flag {
            "-h" | "--help" => return Ok(Command::Help(USAGE)),
            "--port" => {
                let text = inline
                    .or_else(|| args.next().cloned())
                    .ok_or("--port needs a value (see --help)")?;
                port = inspect_port(&text)?;
            }
            _ if file.is_none() && !flag.starts_with("--") => file = Some(PathBuf::from(arg)),
            other => {
                return Err(format!(
                    "unknown argument `{other}`; expected FILE [--port N]"
                ));
            }
        }
    }
    let file = file.ok_or("say which recording: taria-mcp view FILE (a --record file)")?;
    Ok(Command::View(ViewOptions { file, port }))
}

/// A port for the inspector.
fn inspect_port(text: &str) -> Result<u16, String> {
    text.parse()
        .map_err(|_| format!("the inspector's port is a number from 0 to 65535, not `{text}`"))
}

/// The arguments of the MCP server (every form but `test-from`).
fn parse_serve(args: Vec<String>) -> Result<Command, String> {
    let mut args = args.into_iter();
    let mut target = None;
    let mut idle_release = Some(Duration::from_secs(60));
    let mut cols = None;
    let mut rows = None;
    let mut record = None;
    let mut inspect = None;
    let mut structured = false;
    let set_target = |t: Target, target: &mut Option<Target>| {
        if target.is_some() {
            return Err("give only one of --app, --socket, `--` <command> or `spawn`".to_owned());
        }
        *target = Some(t);
        Ok(())
    };
    let mut previous: Option<String> = None;
    while let Some(arg) = args.next() {
        let (flag, inline) = match arg.split_once('=') {
            Some((f, v)) if f.starts_with("--") => (f.to_owned(), Some(v.to_owned())),
            _ => (arg.clone(), None),
        };
        let mut value = |name: &str| {
            inline
                .clone()
                .or_else(|| args.next())
                .filter(|v| !v.is_empty())
                .ok_or_else(|| format!("{name} needs a value (see --help)"))
        };
        let this = arg.clone();
        match flag.as_str() {
            "-h" | "--help" => return Ok(Command::Help(USAGE)),
            "-V" | "--version" => return Ok(Command::Version),
            "--app" => {
                let label = value("--app")?;
                set_target(Target::Label(label), &mut target)?;
            }
            "--socket" => {
                let path = value("--socket")?;
                set_target(Target::Socket(PathBuf::from(path)), &mut target)?;
            }
            "--idle-release" => idle_release = idle_release_of(&value("--idle-release")?)?,
            "--cols" => cols = Some(dimension("--cols", &value("--cols")?, &COLS)?),
            "--rows" => rows = Some(dimension("--rows", &value("--rows")?, &ROWS)?),
            "--record" => record = Some(PathBuf::from(value("--record")?)),
            "--inspect" => inspect = Some(inline.as_deref().map_or(Ok(0), inspect_port)?),
            "--structured" => structured = true,
            "--" => {
                let command: Vec<String> = args.by_ref().collect();
                if command.is_empty() {
                    return Err("`--` must be followed by the command to run".into());
                }
                set_target(Target::Spawn(command), &mut target)?;
            }
            "spawn" if target.is_none() => {
                let options = SpawnOptions {
                    cols: &mut cols,
                    rows: &mut rows,
                    record: &mut record,
                    inspect: &mut inspect,
                    structured: &mut structured,
                };
                let command = spawn_command(&mut args, options)?;
                set_target(Target::Spawn(command), &mut target)?;
            }
            // A command without `--` (a host that drops it: gemini-cli's `mcp add`): the
            // rest of the line is the command, when nothing else was asked for and the
            // word cannot be a slip of ours (see `not_a_command`).
            word if !word.starts_with('-') && target.is_none() => {
                if let Some(why) = not_a_command(word, previous.as_deref()) {
                    return Err(why);
                }
                let mut command = vec![arg];
                command.extend(args.by_ref());
                set_target(Target::Spawn(command), &mut target)?;
            }
            other => {
                return Err(format!(
                    "unknown argument `{other}`; expected --app <label> or --socket <path>, or \
                     the command to start after `--` or `spawn` (taria-mcp -- <command>, see --help)"
                ));
            }
        }
        previous = Some(this);
    }
    let target = target
        .ok_or("say which app: --app <label>, --socket <path> or -- <command> (see --help)")?;
    let spawn = matches!(target, Target::Spawn(_));
    if !spawn && (cols.is_some() || rows.is_some()) {
        return Err("--cols and --rows only apply to spawn mode (-- <command>)".into());
    }
    Ok(Command::Run(Options {
        target,
        // A spawned app's socket is private: nobody else could take it.
        idle_release: if spawn { None } else { idle_release },
        size: Size {
            cols: cols.unwrap_or(DEFAULT_SIZE.cols),
            rows: rows.unwrap_or(DEFAULT_SIZE.rows),
        },
        record,
        inspect,
        structured,
    }))
}

/// `--idle-release`'s value: whole seconds, 0 for never.
fn idle_release_of(text: &str) -> Result<Option<Duration>, String> {
    let secs: u64 = text
        .parse()
        .map_err(|_| format!("--idle-release takes whole seconds (0 = never), not `{text}`"))?;
    Ok((secs > 0).then(|| Duration::from_secs(secs)))
}

/// Why `word`, met where a command given without `--` would start, is taken for a
/// slip rather than started: taria-mcp's own words (`help`, `version`, `view`,
/// `test-from`, `audit`, which come first or not at all), a misspelt `spawn`, or a port
/// after `--inspect` (which takes it as `--inspect=PORT`). `None`: start it.
fn not_a_command(word: &str, previous: Option<&str>) -> Option<String> {
    let first =
        "; a command to start goes after `--` or `spawn` (taria-mcp -- <command>, see --help)";
    match word {
        "help" | "version" => Some(format!(
            "`{word}` is not an argument: taria-mcp --{word}{first}"
        )),
        "view" | "test-from" | "audit" => {
            Some(format!("`{word}` comes first: taria-mcp {word} …{first}"))
        }
        _ if previous == Some("--inspect") && word.bytes().all(|b| b.is_ascii_digit()) => Some(
            format!("--inspect takes its port as --inspect={word}{first}"),
        ),
        _ if near_spawn(word) => Some(format!(
            "unknown argument `{word}`: did you mean `spawn`?{first}"
        )),
        _ => None,
    }
}

/// Whether `word` is `spawn` with one letter changed, added, left out or two swapped.
fn near_spawn(word: &str) -> bool {
    const SPAWN: &[u8] = b"spawn";
    let word = word.as_bytes();
    let differs = |a: &[u8], b: &[u8]| a.iter().zip(b).filter(|(x, y)| x != y).count();
    match word.len() {
        5 => {
            let different = differs(word, SPAWN);
            different == 1
                || (different == 2 && {
                    let mut swapped = word.to_vec();
                    (0..4).any(|i| {
                        swapped.swap(i, i + 1);
                        let same = swapped == SPAWN;
                        swapped.swap(i, i + 1);
                        same
                    })
                })
        }
        4 | 6 => {
            let (short, long) = if word.len() == 4 {
                (word, SPAWN)
            } else {
                (SPAWN, word)
            };
            (0..long.len()).any(|skip| {
                long.iter()
                    .enumerate()
                    .filter(|(i, _)| *i != skip)
                    .map(|(_, b)| b)
                    .eq(short.iter())
            })
        }
        _ => false,
    }
}

/// The options `spawn` takes before its command.
struct SpawnOptions<'a> {
    cols: &'a mut Option<u16>,
    rows: &'a mut Option<u16>,
    record: &'a mut Option<PathBuf>,
    inspect: &'a mut Option<u16>,
    structured: &'a mut bool,
}

/// After `spawn`: `--cols`/`--rows`/`--record`/`--inspect`/`--structured`, then the
/// command (an optional `--` ends the options).
fn spawn_command(
    args: &mut impl Iterator<Item = String>,
    options: SpawnOptions<'_>,
) -> Result<Vec<String>, String> {
    let SpawnOptions {
        cols,
        rows,
        record,
        inspect,
        structured,
    } = options;
    let mut command = Vec::new();
    while let Some(arg) = args.next() {
        let (flag, inline) = match arg.split_once('=') {
            Some((f, v)) if f.starts_with("--") => (f.to_owned(), Some(v.to_owned())),
            _ => (arg.clone(), None),
        };
        let mut value = |name: &str| {
            inline
                .clone()
                .or_else(|| args.next())
                .ok_or_else(|| format!("{name} needs a value (see --help)"))
        };
        match flag.as_str() {
            "--cols" => *cols = Some(dimension("--cols", &value("--cols")?, &COLS)?),
            "--rows" => *rows = Some(dimension("--rows", &value("--rows")?, &ROWS)?),
            "--record" => {
                let path = value("--record")?;
                if path.is_empty() {
                    return Err("--record needs a value (see --help)".into());
                }
                *record = Some(PathBuf::from(path));
            }
            "--inspect" => *inspect = Some(inline.as_deref().map_or(Ok(0), inspect_port)?),
            "--structured" => *structured = true,
            "--" => break,
            _ => {
                command.push(arg);
                break;
            }
        }
    }
    command.extend(args);
    if command.is_empty() {
        return Err("`spawn` must be followed by the command to run".into());
    }
    Ok(command)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(args: &[&str]) -> Result<Command, String> {
        parse(args.iter().map(|s| (*s).to_owned()))
    }

    #[test]
    fn attach_forms() {
        assert_eq!(
            run(&["--app", "todo"]),
            Ok(Command::Run(Options {
                target: Target::Label("todo".into()),
                idle_release: Some(Duration::from_secs(60)),
                size: DEFAULT_SIZE,
                record: None,
                inspect: None,
                structured: false,
            }))
        );
        assert_eq!(
            run(&["--socket=/tmp/a.sock", "--idle-release", "0"]),
            Ok(Command::Run(Options {
                target: Target::Socket("/tmp/a.sock".into()),
                idle_release: None,
                size: DEFAULT_SIZE,
                record: None,
                inspect: None,
                structured: false,
            }))
        );
        assert!(matches!(
            run(&["spawn", "my-app", "--flag"]),
            Ok(Command::Run(Options { target: Target::Spawn(c), .. })) if c == ["my-app", "--flag"]
        ));
        assert!(matches!(
            run(&["--", "my-app"]),
            Ok(Command::Run(Options { target: Target::Spawn(c), .. })) if c == ["my-app"]
        ));
    }

    #[test]
    fn bad_arguments_say_what_is_wrong() {
        assert!(run(&[]).unwrap_err().contains("--app"));
        assert!(run(&["--app"]).unwrap_err().contains("needs a value"));
        assert!(
            run(&["--app", "a", "--socket", "b"])
                .unwrap_err()
                .contains("only one")
        );
        assert!(
            run(&["--idle-release", "x", "--app", "a"])
                .unwrap_err()
                .contains("seconds")
        );
        let bogus = run(&["--bogus"]).unwrap_err();
        assert!(bogus.contains("unknown argument `--bogus`"), "{bogus}");
        assert!(bogus.contains("after `--` or `spawn`"), "{bogus}");
        let extra = run(&["--app", "todo", "cargo"]).unwrap_err();
        assert!(extra.contains("unknown argument `cargo`"), "{extra}");
        assert!(run(&["--"]).unwrap_err().contains("command"));
        assert!(run(&["spawn"]).unwrap_err().contains("command"));
        assert!(
            run(&["spawn", "--cols", "80"])
                .unwrap_err()
                .contains("command")
        );
        assert!(
            run(&["--cols", "9", "--", "a"])
                .unwrap_err()
                .contains("10 to 1000")
        );
        assert!(
            run(&["spawn", "--rows=501", "a"])
                .unwrap_err()
                .contains("5 to 500")
        );
        assert!(
            run(&["--app", "a", "--cols", "80"])
                .unwrap_err()
                .contains("spawn mode")
        );
    }

    #[test]
    fn test_from_is_a_subcommand_with_its_own_usage() {
        assert!(matches!(
            run(&["test-from", "rec.jsonl", "--name", "replay_it"]),
            Ok(Command::TestFrom(options)) if options.name == "replay_it"
                && options.command == "taria-mcp test-from rec.jsonl --name replay_it"
        ));
        assert_eq!(
            run(&["test-from", "--help"]),
            Ok(Command::Help(test_from::USAGE))
        );
        assert_eq!(run(&["--help"]), Ok(Command::Help(USAGE)));
        let error = run(&["test-from", "a", "--frobnicate"]).unwrap_err();
        assert!(
            error.starts_with(
                "taria-mcp test-from: unknown option `--frobnicate`\n\nusage: taria-mcp test-from"
            ),
            "{error}"
        );
        assert!(
            run(&["--app", "a", "test-from"])
                .unwrap_err()
                .starts_with("taria-mcp: unknown argument `test-from`"),
            "test-from is a subcommand: it comes first"
        );
    }

    #[test]
    fn record_takes_a_file_in_every_mode() {
        let record = |args: &[&str]| match run(args) {
            Ok(Command::Run(options)) => options.record,
            other => panic!("{args:?}: {other:?}"),
        };
        assert_eq!(
            record(&["--app", "todo", "--record", "a.jsonl"]),
            Some("a.jsonl".into())
        );
        assert_eq!(
            record(&["--record=b.jsonl", "--", "app"]),
            Some("b.jsonl".into())
        );
        assert_eq!(
            record(&["spawn", "--record", "c.jsonl", "app", "--record", "x"]),
            Some("c.jsonl".into()),
            "after the command, --record is the app's"
        );
        assert_eq!(record(&["--app", "todo"]), None);
        assert!(
            run(&["--app", "a", "--record"])
                .unwrap_err()
                .contains("needs a value")
        );
        assert!(
            run(&["spawn", "--record=", "app"])
                .unwrap_err()
                .contains("needs a value")
        );
    }

    #[test]
    fn inspect_takes_an_optional_port_in_every_mode_and_view_a_file() {
        let inspect = |args: &[&str]| match run(args) {
            Ok(Command::Run(options)) => options.inspect,
            other => panic!("{args:?}: {other:?}"),
        };
        assert_eq!(inspect(&["--app", "todo", "--inspect"]), Some(0));
        assert_eq!(inspect(&["--inspect=8765", "--", "app"]), Some(8765));
        assert_eq!(
            inspect(&["spawn", "--inspect", "app", "--inspect=1"]),
            Some(0)
        );
        assert_eq!(inspect(&["--app", "todo"]), None);
        assert!(
            run(&["--app", "a", "--inspect=http"])
                .unwrap_err()
                .contains("0 to 65535")
        );
        assert_eq!(
            run(&["view", "rec.jsonl", "--port", "9000"]),
            Ok(Command::View(ViewOptions {
                file: "rec.jsonl".into(),
                port: 9000
            }))
        );
        assert_eq!(
            run(&["view", "--port=1", "rec.jsonl"]),
            Ok(Command::View(ViewOptions {
                file: "rec.jsonl".into(),
                port: 1
            }))
        );
        assert!(run(&["view"]).unwrap_err().contains("taria-mcp view FILE"));
        assert!(
            run(&["view", "a", "b"])
                .unwrap_err()
                .starts_with("taria-mcp view: unknown argument `b`")
        );
    }

    #[test]
    fn spawn_forms() {
        let spawn = |args: &[&str]| match run(args) {
            Ok(Command::Run(Options {
                target: Target::Spawn(command),
                size,
                idle_release,
                ..
            })) => (command, size, idle_release),
            other => panic!("{args:?}: {other:?}"),
        };
        let (command, size, idle) =
            spawn(&["--cols", "80", "--rows=24", "--", "app", "--cols", "1"]);
        assert_eq!(command, ["app", "--cols", "1"]);
        assert_eq!(size, Size { cols: 80, rows: 24 });
        assert_eq!(idle, None, "a spawned app is never released");
        let (command, size, _) = spawn(&["spawn", "--cols", "100", "--rows", "30", "app", "-x"]);
        assert_eq!(
            (command, size),
            (
                vec!["app".into(), "-x".into()],
                Size {
                    cols: 100,
                    rows: 30
                }
            )
        );
        let (command, size, _) = spawn(&["spawn", "--", "--weird-name", "--rows"]);
        assert_eq!(
            (command, size),
            (vec!["--weird-name".into(), "--rows".into()], DEFAULT_SIZE)
        );
        let (command, _, _) = spawn(&["spawn", "cargo", "run", "--example", "todo"]);
        assert_eq!(command, ["cargo", "run", "--example", "todo"]);
    }

    /// gemini-cli's `mcp add NAME taria-mcp -- cmd…` stores the command without the
    /// `--`: the bridge still starts it, options before it kept, the app's own after.
    #[test]
    fn a_command_without_the_separator_is_spawned() {
        let spawn = |args: &[&str]| match run(args) {
            Ok(Command::Run(Options {
                target: Target::Spawn(command),
                size,
                ..
            })) => (command, size),
            other => panic!("{args:?}: {other:?}"),
        };
        let (command, size) = spawn(&["cargo", "run", "--example", "todo"]);
        assert_eq!(command, ["cargo", "run", "--example", "todo"]);
        assert_eq!(size, DEFAULT_SIZE);
        let (command, size) = spawn(&["--cols", "80", "--rows", "24", "my-app", "--cols", "1"]);
        assert_eq!(command, ["my-app", "--cols", "1"]);
        assert_eq!(size, Size { cols: 80, rows: 24 });
        // What is more likely a slip of ours than a command is refused, saying so.
        for (args, says) in [
            (&["help"][..], "taria-mcp --help"),
            (&["version"][..], "taria-mcp --version"),
            (
                &["--structured", "view", "rec.jsonl"][..],
                "`view` comes first",
            ),
            (&["--inspect", "8080", "--", "app"][..], "--inspect=8080"),
            (&["spwan", "app"][..], "did you mean `spawn`?"),
            (&["spaw", "app"][..], "did you mean `spawn`?"),
            (&["sppawn", "app"][..], "did you mean `spawn`?"),
            (&["spown", "app"][..], "did you mean `spawn`?"),
        ] {
            let error = run(args).unwrap_err();
            assert!(error.contains(says), "{args:?}: {error}");
            assert!(error.contains("after `--` or `spawn`"), "{args:?}: {error}");
        }
        // Not a slip: a command that is no near miss.
        assert_eq!(spawn(&["spam"]).0, ["spam"]);
        assert_eq!(spawn(&["vim"]).0, ["vim"]);
    }

    #[test]
    fn structured_is_asked_for_in_every_mode() {
        let structured = |args: &[&str]| match run(args) {
            Ok(Command::Run(options)) => options.structured,
            other => panic!("{args:?}: {other:?}"),
        };
        assert!(!structured(&["--app", "todo"]));
        assert!(structured(&["--app", "todo", "--structured"]));
        assert!(structured(&["--structured", "--", "app"]));
        assert!(structured(&["spawn", "--structured", "app"]));
        assert!(
            !structured(&["spawn", "app", "--structured"]),
            "after the command, --structured is the app's"
        );
    }
}
