//! `taria-mcp test-from FILE [options]`: the subcommand's arguments (the command line
//! dispatches to [`parse`] when its first word is `test-from`).

use std::path::{Path, PathBuf};

use taria::wire::recording::Match;

use super::escape::{comment_safe, shell_word};
use super::slug;

/// The usage text, printed by `taria-mcp test-from --help`.
pub(crate) const USAGE: &str = "\
usage: taria-mcp test-from FILE [--harness EXPR] [--name NAME] [--snapshots DIR]
                           [--exclude ID]... [--label ID=PATTERN]... [--secret ID=EXPR]...
                           [--refind] [--check TEST]

Writes a Rust test replaying the recording FILE (taria-mcp --record) to stdout, and
the outline after each step to DIR/NN-<step>.outline. Run it from the package root
(where `cargo test` runs), e.g. `taria-mcp test-from rec.jsonl > tests/replay.rs`.
  --harness EXPR       builds the app's taria::testing::AppHarness (default `harness()`)
  --name NAME          the test function's name (default: replay_<file stem>)
  --snapshots DIR      where the snapshots go, relative to the package root
                       (default snapshots/NAME)
  --exclude ID         leave out nodes whose id matches ID (`*` matches anything)
  --label ID=PATTERN   a label of a node matching ID passes when it matches PATTERN
  --secret ID=EXPR     the value of a redacted input on node ID, as a Rust expression
                       (given again: the value for the node's next redacted input)
  --refind             a step whose id names another node than the agent acted on acts
                       on the node with the recorded role and label wherever it is now
                       (`.refind(…)`), instead of failing (`.seen(…)`)
  --check TEST         write nothing: exit 1 unless TEST (but its first line) and the
                       snapshots are what FILE generates (CI, with a fresh recording)
TARIA_SNAPSHOTS=overwrite cargo test re-blesses the snapshots.
Exit status: 0 written; 1 FILE cannot be read or replayed (nothing written); 2 bad
arguments; 3 written, but with a compile_error! for each redacted input without its
--secret (each named on stderr).";

/// The parsed arguments.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Options {
    pub(crate) file: PathBuf,
    pub(crate) harness: String,
    pub(crate) name: String,
    pub(crate) snapshots: String,
    pub(crate) rules: Match,
    pub(crate) secrets: Vec<(String, String)>,
    /// `--refind`: steps re-find a moved node by its role and label.
    pub(crate) refind: bool,
    /// `--check TEST`: compare with this test and its snapshots, write nothing.
    pub(crate) check: Option<PathBuf>,
    /// How to make the test again (said in its header): the command line but `--check`.
    pub(crate) command: String,
}

/// `Ok(None)` for `--help`.
pub(crate) fn parse(args: &[String]) -> Result<Option<Options>, String> {
    let all = args;
    let mut file = None;
    let mut harness = "harness()".to_owned();
    let mut name = None;
    let mut snapshots = None;
    let mut rules = Match::new();
    let mut secrets = Vec::new();
    let mut check = None;
    let mut refind = false;
    let mut args = args.iter();
    while let Some(arg) = args.next() {
        let mut value = |flag: &str| {
            args.next()
                .cloned()
                .ok_or_else(|| format!("{flag} needs a value"))
        };
        match arg.as_str() {
            "-h" | "--help" => return Ok(None),
            "--harness" => harness = one_line("--harness", value("--harness")?)?,
            "--name" => name = Some(value("--name")?),
            "--snapshots" => snapshots = Some(value("--snapshots")?),
            "--exclude" => rules = rules.exclude(value("--exclude")?),
            "--label" => {
                let (id, pattern) = pair("--label", &value("--label")?)?;
                rules = rules.label(id, pattern);
            }
            "--secret" => {
                let (id, expr) = pair("--secret", &value("--secret")?)?;
                secrets.push((id, one_line("--secret", expr)?));
            }
            "--check" => check = Some(PathBuf::from(value("--check")?)),
            "--refind" => refind = true,
            flag if flag.starts_with('-') => return Err(format!("unknown option `{flag}`")),
            path if file.is_none() => file = Some(PathBuf::from(path)),
            extra => return Err(format!("one recording at a time, not also `{extra}`")),
        }
    }
    let file = file.ok_or("which recording? give its FILE")?;
    let name = match name {
        Some(name) if is_identifier(&name) => name,
        Some(name) => return Err(format!("--name `{name}` is not a Rust function name")),
        None => default_name(&file),
    };
    let snapshots = snapshots.unwrap_or_else(|| format!("snapshots/{name}"));
    // How to make it again: the arguments but `--check FILE`, the recording's path
    // relative to the package (where the command is run).
    let mut words = vec!["taria-mcp test-from".to_owned()];
    let mut rest = all.iter();
    while let Some(arg) = rest.next() {
        if arg == "--check" {
            rest.next();
        } else if Path::new(arg) == file {
            words.push(shell_word(&package_relative(&file).to_string_lossy()));
        } else {
            words.push(shell_word(arg));
        }
        if VALUED.contains(&arg.as_str())
            && let Some(value) = rest.next()
        {
            words.push(shell_word(value));
        }
    }
    Ok(Some(Options {
        file,
        harness,
        name,
        snapshots,
        rules,
        secrets,
        refind,
        check,
        command: words.join(" "),
    }))
}

/// The flags that take a value (which is never the recording's path).
const VALUED: &[&str] = &[
    "--harness",
    "--name",
    "--snapshots",
    "--exclude",
    "--label",
    "--secret",
];

/// `path` relative to the package the command runs in (the nearest folder up from
/// the current one holding a `Cargo.toml`), when it is inside it; else as given. A
/// test's first line says how to make it again there, not where it was made.
fn package_relative(path: &Path) -> PathBuf {
    let Ok(here) = std::env::current_dir() else {
        return path.to_owned();
    };
    let Some(package) = here
        .ancestors()
        .find(|dir| dir.join("Cargo.toml").is_file())
    else {
        return path.to_owned();
    };
    let absolute = std::fs::canonicalize(here.join(path)).unwrap_or_else(|_| here.join(path));
    let package = std::fs::canonicalize(package).unwrap_or_else(|_| package.to_owned());
    absolute
        .strip_prefix(&package)
        .map_or_else(|_| path.to_owned(), Path::to_owned)
}

/// An `EXPR` (the code --harness and --secret put in the test) on one line: a newline
/// in it would start a line of code of its own.
fn one_line(flag: &str, expr: String) -> Result<String, String> {
    if expr.chars().all(comment_safe) {
        Ok(expr)
    } else {
        Err(format!(
            "{flag} takes a Rust expression on one line, without control characters"
        ))
    }
}

fn pair(flag: &str, text: &str) -> Result<(String, String), String> {
    text.split_once('=')
        .map(|(a, b)| (a.to_owned(), b.to_owned()))
        .ok_or_else(|| format!("{flag} takes ID=VALUE, not `{text}`"))
}

fn is_identifier(name: &str) -> bool {
    let mut chars = name.chars();
    chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// `replay_<stem>`, the stem's other characters as `_`.
fn default_name(file: &Path) -> String {
    let stem = file
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    format!("replay_{}", slug(&stem, '_'))
}
