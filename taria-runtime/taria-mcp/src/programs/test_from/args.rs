//! `taria-mcp test-from FILE [options]`: the subcommand's arguments (the command line
//! dispatches to [`parse`] when its first word is `test-from`).

use std::ops::RangeInclusive;
use std::path::{Path, PathBuf};

use taria_schema::recording::{Match, Pattern, RuleKind};

use crate::replay_code::escape::{comment_safe, shell_word};
use crate::replay_code::slug;

/// The usage text, printed by `taria-mcp test-from --help`.
pub(crate) const USAGE: &str = "\
usage: taria-mcp test-from FILE [--harness EXPR] [--name NAME] [--snapshots DIR]
                           [--exclude ID [--at STEPS]]... [--label ID=PATTERN [--at STEPS]]...
                           [--screen ID [--at STEPS]]... [--draw-order]
                           [--secret ID=EXPR]... [--refind] [--check TEST]
                           [--recorded-as PATH]

Writes a Rust test replaying the recording FILE (taria-mcp --record) to stdout, and
the tree after each step to DIR/NN-<step>.snap, the insta snapshots it checks (the
test names insta: add it to [dev-dependencies]). Run it from the package root
(where `cargo test` runs), e.g. `taria-mcp test-from rec.jsonl > tests/replay.rs`.
  --harness EXPR       builds the app's taria::testing::AppHarness (default `harness()`)
  --name NAME          the test function's name (default: replay_<file stem>)
  --snapshots DIR      where the snapshots go, relative to the package root
                       (default snapshots/NAME); other .snap files there are removed
  --exclude ID         leave out nodes whose id matches ID
  --label ID=PATTERN   a label of a node matching ID passes when it matches PATTERN
                       (one --label per node: two for one node are an error)
  --screen ID          compare the text drawn inside the bounds of nodes whose id
                       matches ID too (from the screens the recording holds), so
                       a change only the screen shows fails
  --at STEPS           the rule just before applies at these steps only: N or N-M
                       (0 is the first tree); there it takes the place of a rule
                       for all steps
  --draw-order         compare sibling nodes in the order the app drew them, not
                       in reading order (top to bottom, left to right)
  --secret ID=EXPR     the value of a redacted input on node ID, as a Rust expression
                       (given again: the value for the node's next redacted input)
  --refind             a step whose id names another node than the agent acted on acts
                       on the node with the recorded role and label wherever it is now
                       (`.refind(…)`), instead of failing (`.seen(…)`)
  --check TEST         write nothing: exit 1 unless TEST (but its first line) and the
                       snapshots are what FILE generates, and no other .snap file is
                       in DIR (CI, with a fresh recording)
  --recorded-as PATH   the recording the test names (default FILE, relative to the
                       package root when inside it): with --check, a fresh recording
                       read in place of the committed one
ID and PATTERN are globs (`*` any run of characters, `?` one, `[a-z]` one of a
class, `[!a-z]` one not in it, `\\*` a plain `*`), or regexes after `re:`
(`--label 'status=re:Saved \\d+ files?'`), matching the whole id or label. A rule
that matches nothing is said on stderr. A step whose tree differs leaves its new
snapshot pending: `cargo insta review`.
Exit status: 0 written; 1 FILE cannot be read or replayed (nothing written); 2 bad
arguments; 3 written, but with a compile_error! for each redacted input without its
--secret (each named on stderr).";

/// The parsed arguments.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Options {
    pub(crate) file: PathBuf,
    /// `file` as the test names it: relative to the package root when inside it.
    pub(crate) recording: String,
    pub(crate) harness: String,
    pub(crate) name: String,
    pub(crate) snapshots: String,
    pub(crate) rules: Match,
    /// Each rule of `rules` as given on the command line (`--label 'status=Saved *'`).
    pub(crate) rule_flags: Vec<String>,
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
    let mut rules: Vec<RuleFlag> = Vec::new();
    let mut draw_order = false;
    let mut secrets = Vec::new();
    let mut check = None;
    let mut recorded_as: Option<PathBuf> = None;
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
            "--exclude" => rules.push(RuleFlag::exclude(&value("--exclude")?)?),
            "--label" => rules.push(RuleFlag::label(&value("--label")?)?),
            "--screen" => rules.push(RuleFlag::screen(&value("--screen")?)?),
            "--at" => {
                let steps = value("--at")?;
                let rule = rules
                    .last_mut()
                    .filter(|rule| rule.steps.is_none())
                    .ok_or_else(|| {
                        format!(
                            "--at {steps} says when the rule just before it applies: put it \
                             right after an --exclude, --label or --screen"
                        )
                    })?;
                rule.at(&steps)?;
            }
            "--draw-order" => draw_order = true,
            "--secret" => {
                let (id, expr) = pair("--secret", &value("--secret")?)?;
                secrets.push((id, one_line("--secret", expr)?));
            }
            "--check" => check = Some(PathBuf::from(value("--check")?)),
            "--recorded-as" => recorded_as = Some(PathBuf::from(value("--recorded-as")?)),
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
    let (rules, rule_flags) = RuleFlag::into_match(rules, draw_order)?;
    // How to make it again: the arguments but `--check TEST` and `--recorded-as PATH`,
    // the recording's path (the one it is recorded as) relative to the package (where
    // the command is run).
    let recording = package_relative(recorded_as.as_deref().unwrap_or(&file))
        .to_string_lossy()
        .into_owned();
    let mut words = vec!["taria-mcp test-from".to_owned()];
    let mut rest = all.iter();
    while let Some(arg) = rest.next() {
        if arg == "--check" || arg == "--recorded-as" {
            rest.next();
        } else if Path::new(arg) == file {
            words.push(shell_word(&recording));
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
        recording,
        harness,
        name,
        snapshots,
        rules,
        rule_flags,
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
    "--screen",
    "--at",
    "--secret",
];

/// `path` relative to the package the command runs in (the nearest folder up from
/// the current one holding a `Cargo.toml`), when it is inside it; else absolute. A
/// test's first line says how to make it again there, not where it was made, and
/// the test finds the recording from the package root (`CARGO_MANIFEST_DIR`) or at
/// its absolute path.
fn package_relative(path: &Path) -> PathBuf {
    let Ok(here) = std::env::current_dir() else {
        return path.to_owned();
    };
    let absolute = std::fs::canonicalize(here.join(path)).unwrap_or_else(|_| here.join(path));
    let Some(package) = here
        .ancestors()
        .find(|dir| dir.join("Cargo.toml").is_file())
    else {
        return absolute;
    };
    let package = std::fs::canonicalize(package).unwrap_or_else(|_| package.to_owned());
    absolute
        .strip_prefix(&package)
        .map_or_else(|_| absolute.clone(), Path::to_owned)
}

/// One `--exclude`, `--label` or `--screen` flag, with its `--at`.
struct RuleFlag {
    id: Pattern,
    kind: RuleKind,
    steps: Option<RangeInclusive<u64>>,
    /// As given: `--label 'status=Saved *' --at 6`.
    text: String,
}

impl RuleFlag {
    fn exclude(id: &str) -> Result<RuleFlag, String> {
        Ok(RuleFlag {
            id: pattern("--exclude", id)?,
            kind: RuleKind::Exclude,
            steps: None,
            text: format!("--exclude {}", shell_word(id)),
        })
    }

    fn screen(id: &str) -> Result<RuleFlag, String> {
        Ok(RuleFlag {
            id: pattern("--screen", id)?,
            kind: RuleKind::Screen,
            steps: None,
            text: format!("--screen {}", shell_word(id)),
        })
    }

    fn label(text: &str) -> Result<RuleFlag, String> {
        let (id, label) = pair("--label", text)?;
        Ok(RuleFlag {
            id: pattern("--label", &id)?,
            kind: RuleKind::Label(pattern("--label", &label)?),
            steps: None,
            text: format!("--label {}", shell_word(text)),
        })
    }

    /// `--at N` or `--at N-M`.
    fn at(&mut self, steps: &str) -> Result<(), String> {
        let number = |text: &str| text.trim().parse::<u64>().ok();
        let range = match steps.split_once('-') {
            Some((first, last)) => number(first).zip(number(last)),
            None => number(steps).map(|step| (step, step)),
        };
        match range {
            Some((first, last)) if first <= last => {
                self.steps = Some(first..=last);
                self.text = format!("{} --at {steps}", self.text);
                Ok(())
            }
            _ => Err(format!(
                "--at takes a step (3) or steps (3-5, the first not after the last), not `{steps}`"
            )),
        }
    }

    /// The rules in the order given (so `Match::rules()[i]` is flag `i`), and each
    /// flag's text; two `--label`s for the same id at the same steps are refused here
    /// (a node is held to one label rule; others that meet on a node are found when
    /// the trees are compared).
    fn into_match(flags: Vec<RuleFlag>, draw_order: bool) -> Result<(Match, Vec<String>), String> {
        for (i, later) in flags.iter().enumerate() {
            let is_label = |flag: &RuleFlag| matches!(flag.kind, RuleKind::Label(_));
            let earlier = flags[..i].iter().find(|earlier| {
                is_label(earlier)
                    && is_label(later)
                    && earlier.id == later.id
                    && overlap(earlier.steps.as_ref(), later.steps.as_ref())
            });
            if let Some(earlier) = earlier {
                return Err(format!(
                    "{} and {} both say what `{}`'s label may be: a node is held to one \
                     label rule; keep one (--at gives a rule for some steps)",
                    earlier.text, later.text, later.id
                ));
            }
        }
        let mut rules = Match::new();
        let mut texts = Vec::with_capacity(flags.len());
        for flag in flags {
            let rule = |rules: Match| match flag.kind {
                RuleKind::Label(label) => rules.label(flag.id, label),
                RuleKind::Screen => rules.screen(flag.id),
                // `Exclude`, and kinds a later taria adds (none is parsed here).
                _ => rules.exclude(flag.id),
            };
            rules = match flag.steps {
                Some(steps) => rules.at_steps(steps, rule(Match::new())),
                None => rule(rules),
            };
            texts.push(flag.text);
        }
        if draw_order {
            rules = rules.draw_order();
        }
        Ok((rules, texts))
    }
}

/// Whether two rules' steps (`None`: all) meet, as rules of the same kind: one for
/// some steps and one for all do not (the first takes the place of the other there).
fn overlap(a: Option<&RangeInclusive<u64>>, b: Option<&RangeInclusive<u64>>) -> bool {
    match (a, b) {
        (None, None) => true,
        (Some(a), Some(b)) => a.start() <= b.end() && b.start() <= a.end(),
        _ => false,
    }
}

fn pattern(flag: &str, text: &str) -> Result<Pattern, String> {
    Pattern::parse(text).map_err(|e| format!("{flag}: {e}"))
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
