//! Command-line arguments: which app to attach to, and for how long to hold it.

use std::path::PathBuf;
use std::time::Duration;

/// The usage text, printed by `--help`.
pub(crate) const USAGE: &str = "\
usage: taria-mcp --app <label> [--idle-release SECS]
       taria-mcp --socket <path> [--idle-release SECS]
       taria-mcp [--idle-release SECS] -- <command> [args…]   (spawn mode)
       taria-mcp spawn <command> [args…]                      (spawn mode)

An MCP server on stdin/stdout that lets an agent read and drive a taria app.
  --app <label>          attach to the running app serving <label> (e.g. `todo`)
  --socket <path>        attach to the app socket at <path>
  --idle-release SECS    let go of the app after SECS without a tool call, so another
                         session can take it; reconnect on next use (default 60, 0 = never)
Logs go to stderr; set TARIA_LOG (e.g. TARIA_LOG=debug) to choose what is logged.";

/// Where the app is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Target {
    /// An app label, resolved like the app does (`taria::socket_path`).
    Label(String),
    /// An explicit socket path.
    Socket(PathBuf),
    /// A command to run in a pseudo-terminal (not built yet).
    Spawn(Vec<String>),
}

/// The parsed command line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Options {
    /// What to attach to.
    pub(crate) target: Target,
    /// Release the app after this long without a tool call (`None`: never).
    pub(crate) idle_release: Option<Duration>,
}

/// What the command line asks for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Command {
    /// Serve MCP.
    Run(Options),
    /// Print the usage.
    Help,
    /// Print the version.
    Version,
}

/// Parses the arguments (without the program name). The error is one line.
pub(crate) fn parse(args: impl IntoIterator<Item = String>) -> Result<Command, String> {
    let mut args = args.into_iter();
    let mut target = None;
    let mut idle_release = Some(Duration::from_secs(60));
    let set_target = |t: Target, target: &mut Option<Target>| {
        if target.is_some() {
            return Err("give only one of --app, --socket, `--` <command> or `spawn`".to_owned());
        }
        *target = Some(t);
        Ok(())
    };
    let mut first = true;
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
        match flag.as_str() {
            "-h" | "--help" => return Ok(Command::Help),
            "-V" | "--version" => return Ok(Command::Version),
            "--app" => {
                let label = value("--app")?;
                set_target(Target::Label(label), &mut target)?;
            }
            "--socket" => {
                let path = value("--socket")?;
                set_target(Target::Socket(PathBuf::from(path)), &mut target)?;
            }
            "--idle-release" => {
                let text = value("--idle-release")?;
                let secs: u64 = text.parse().map_err(|_| {
                    format!("--idle-release takes whole seconds (0 = never), not `{text}`")
                })?;
                idle_release = (secs > 0).then(|| Duration::from_secs(secs));
            }
            "--" => {
                let command: Vec<String> = args.by_ref().collect();
                if command.is_empty() {
                    return Err("`--` must be followed by the command to run".into());
                }
                set_target(Target::Spawn(command), &mut target)?;
            }
            "spawn" if first => {
                let command: Vec<String> = args.by_ref().collect();
                if command.is_empty() {
                    return Err("`spawn` must be followed by the command to run".into());
                }
                set_target(Target::Spawn(command), &mut target)?;
            }
            other => {
                return Err(format!(
                    "unknown argument `{other}`; expected --app <label> or --socket <path> (see --help)"
                ));
            }
        }
        first = false;
    }
    let target = target.ok_or("say which app: --app <label> or --socket <path> (see --help)")?;
    Ok(Command::Run(Options {
        target,
        idle_release,
    }))
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
            }))
        );
        assert_eq!(
            run(&["--socket=/tmp/a.sock", "--idle-release", "0"]),
            Ok(Command::Run(Options {
                target: Target::Socket("/tmp/a.sock".into()),
                idle_release: None,
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
        assert!(run(&["--bogus"]).unwrap_err().contains("unknown argument"));
        assert!(run(&["--"]).unwrap_err().contains("command"));
    }
}
