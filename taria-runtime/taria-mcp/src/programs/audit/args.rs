//! `taria-mcp audit`'s command line.

use std::time::Duration;

use taria_audit::Limits;

use crate::spawn::size::{COLS, DEFAULT_SIZE, ROWS, Size, dimension};

/// The usage text, printed by `taria-mcp audit --help`.
pub(crate) const USAGE: &str = "\
usage: taria-mcp audit [OPTIONS] -- <command> [args…]

Explores a taria app as an agent would: starts <command> in a pseudo-terminal behind
the bridge, performs every action each frame offers (restarting the app where an
action changed its state), and checks every answer against the frames and the screen
that follow. Prints what is untrue and what it could not reach; exits 1 on a
violation, 0 when there is none. It performs every action the app offers (delete,
send, quit…): run it on an app with throwaway data, and use --reset to restore that
data before each start.
  --cols N, --rows N   the terminal's size (default 120×40)
  --json               print the report as JSON (for CI) instead of text
  --max-inputs N       the most inputs to perform (default 400)
  --max-time SECS      how long to explore (default 120)
  --depth N            how many inputs deep from a fresh start to go (default 2)
  --settle MS          how long to wait for the frames after an answer (default 300)
  --idle MS            how long to watch the app with no input first, to learn what
                       changes by itself (default 1200)
  --reset COMMAND      a shell command run before each start of the app
Checks: undrawn, zero_bounds, selection, clipped_value, duplicate, unstable_ids,
accessibility, unperformed_offer, no_visible_effect, untrue_nothing_changed,
repeat_changed, untrue_refusal, misattributed, app_failed (docs/audit.md).";

/// What `audit` was asked to do.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Options {
    /// The app's command.
    pub(crate) command: Vec<String>,
    /// The terminal's size.
    pub(crate) size: Size,
    /// Print JSON instead of text.
    pub(crate) json: bool,
    /// How far to go.
    pub(crate) limits: Limits,
    /// A shell command run before each start.
    pub(crate) reset: Option<String>,
}

/// Parses the arguments after `audit`; `Ok(None)` asks for the usage text.
pub(crate) fn parse(args: &[String]) -> Result<Option<Options>, String> {
    let mut size = DEFAULT_SIZE;
    let mut json = false;
    let mut limits = Limits::default();
    let mut reset = None;
    let mut args = args.iter();
    let mut command = Vec::new();
    while let Some(arg) = args.next() {
        let (flag, inline) = match arg.split_once('=') {
            Some((f, v)) if f.starts_with("--") => (f, Some(v.to_owned())),
            _ => (arg.as_str(), None),
        };
        let mut value = |name: &str| {
            inline
                .clone()
                .or_else(|| args.next().cloned())
                .ok_or_else(|| format!("{name} needs a value"))
        };
        match flag {
            "-h" | "--help" => return Ok(None),
            "--" => {
                command = args.by_ref().cloned().collect();
                break;
            }
            "--json" => json = true,
            "--cols" => size.cols = dimension("--cols", &value("--cols")?, &COLS)?,
            "--rows" => size.rows = dimension("--rows", &value("--rows")?, &ROWS)?,
            "--max-inputs" => limits.max_inputs = number("--max-inputs", &value("--max-inputs")?)?,
            "--max-time" => {
                limits.max_time = Duration::from_secs(number("--max-time", &value("--max-time")?)?);
            }
            "--depth" => limits.max_depth = number::<usize>("--depth", &value("--depth")?)?.max(1),
            "--settle" => {
                limits.settle = Duration::from_millis(number("--settle", &value("--settle")?)?);
            }
            "--idle" => limits.idle = Duration::from_millis(number("--idle", &value("--idle")?)?),
            "--reset" => reset = Some(value("--reset")?),
            other => {
                return Err(format!(
                    "unknown argument `{other}`; the app's command goes after `--` \
                     (taria-mcp audit [OPTIONS] -- <command> [args…])"
                ));
            }
        }
    }
    if command.is_empty() {
        return Err("say which app: taria-mcp audit [OPTIONS] -- <command> [args…]".into());
    }
    Ok(Some(Options {
        command,
        size,
        json,
        limits,
        reset,
    }))
}

/// A whole number for `flag`.
fn number<T: std::str::FromStr>(flag: &str, text: &str) -> Result<T, String> {
    text.parse()
        .map_err(|_| format!("{flag} takes a whole number, not `{text}`"))
}

#[cfg(test)]
mod tests {
    use super::parse;

    fn args(line: &[&str]) -> Vec<String> {
        line.iter().map(|s| (*s).to_owned()).collect()
    }

    #[test]
    fn options_then_the_command_after_the_double_dash() {
        let options = parse(&args(&[
            "--json",
            "--cols",
            "80",
            "--rows=24",
            "--max-inputs",
            "9",
            "--reset",
            "cp a b",
            "--",
            "app",
            "--json",
        ]))
        .unwrap()
        .unwrap();
        assert_eq!(options.command, ["app", "--json"]);
        assert!(options.json);
        assert_eq!((options.size.cols, options.size.rows), (80, 24));
        assert_eq!(options.limits.max_inputs, 9);
        assert_eq!(options.reset.as_deref(), Some("cp a b"));
    }

    #[test]
    fn a_missing_command_or_an_unknown_flag_says_what_to_write() {
        assert!(
            parse(&args(&["--json"]))
                .unwrap_err()
                .contains("say which app")
        );
        let unknown = parse(&args(&["app"])).unwrap_err();
        assert!(unknown.contains("goes after `--`"), "{unknown}");
        assert!(
            parse(&args(&["--depth", "x", "--", "a"]))
                .unwrap_err()
                .contains("whole number")
        );
        assert_eq!(parse(&args(&["--help"])), Ok(None));
    }
}
