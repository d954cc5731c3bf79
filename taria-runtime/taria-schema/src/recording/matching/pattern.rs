//! [`Pattern`]: what a rule of [`Match`](super::Match) matches an id or a label with,
//! a glob or a regex, always against the whole text.

use std::fmt;

/// The prefix that makes a pattern's text a regex where patterns are written as text
/// (`taria-mcp test-from --label 'status=re:Saved \d+ files?'`).
pub const REGEX_PREFIX: &str = "re:";

/// A pattern for an id or a label, matched against the whole text.
///
/// * A **glob** ([`Pattern::glob`], or a `&str`): `*` matches any run of characters
///   (`/` included), `?` any one character, `[abc]` / `[a-z]` one of those, `[!a-z]`
///   (or `[^a-z]`) one character not among them, and `\` makes the next character
///   plain (`\*`, `\?`, `\[`). A `[` with no closing `]` is a plain `[`.
/// * A **regex** ([`Pattern::regex`], the syntax of the `regex-lite` crate), which
///   must match the whole text, as if written between `^` and `$`. Regexes need
///   taria's `regex` feature (for tests: `[dev-dependencies] taria = { …, features =
///   ["regex"] }`, so the app's own build does not compile them); without it
///   [`Pattern::regex`] says so.
///
/// # Examples
///
/// ```
/// use taria::testing::Pattern;
///
/// assert!(Pattern::glob("tasks/?").matches("tasks/4"));
/// assert!(!Pattern::glob("tasks/?").matches("tasks/12"));
/// assert!(Pattern::glob("Saved [0-9]* files").matches("Saved 12 files"));
/// # #[cfg(feature = "regex")] {
/// let regex = Pattern::regex(r"Saved \d+ files?")?;
/// assert!(regex.matches("Saved 1 file"));
/// assert!(!regex.matches("Saved 1 file, 2 skipped")); // the whole text
/// // Written as text (the command line's form): `re:` starts a regex.
/// assert_eq!(Pattern::parse(r"re:\d+")?, Pattern::regex(r"\d+")?);
/// # }
/// # Ok::<(), taria::testing::PatternError>(())
/// ```
#[derive(Clone)]
pub struct Pattern {
    /// The text as given (without [`REGEX_PREFIX`]).
    text: String,
    matcher: Matcher,
}

#[derive(Clone)]
enum Matcher {
    Glob(Vec<Token>),
    #[cfg(feature = "regex")]
    Regex(regex_lite::Regex),
}

/// A regex that does not compile, with what is wrong with it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PatternError {
    pattern: String,
    message: String,
}

impl fmt::Display for PatternError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "the regex `{}` does not compile: {}",
            self.pattern, self.message
        )
    }
}

impl std::error::Error for PatternError {}

impl Pattern {
    /// A glob (see the type's docs); every text is a valid glob.
    #[must_use]
    pub fn glob(text: impl Into<String>) -> Pattern {
        let text = text.into();
        let tokens = parse_glob(&text);
        Pattern {
            text,
            matcher: Matcher::Glob(tokens),
        }
    }

    /// A regex that must match the whole text.
    ///
    /// # Errors
    ///
    /// When `text` is not a valid regex, saying what is wrong; without taria's
    /// `regex` feature, always, saying to enable it.
    pub fn regex(text: &str) -> Result<Pattern, PatternError> {
        #[cfg(feature = "regex")]
        {
            let anchored = format!("^(?:{text})$");
            let regex = regex_lite::Regex::new(&anchored).map_err(|e| PatternError {
                pattern: text.to_owned(),
                message: e.to_string(),
            })?;
            Ok(Pattern {
                text: text.to_owned(),
                matcher: Matcher::Regex(regex),
            })
        }
        #[cfg(not(feature = "regex"))]
        Err(PatternError {
            pattern: text.to_owned(),
            message: "this build of taria has no regexes: enable its `regex` feature (for \
                      tests: [dev-dependencies] taria = { ..., features = [\"regex\"] })"
                .to_owned(),
        })
    }

    /// A pattern written as text: a regex after [`REGEX_PREFIX`] (`re:`), else a glob.
    ///
    /// # Errors
    ///
    /// When the text after `re:` is not a valid regex.
    pub fn parse(text: &str) -> Result<Pattern, PatternError> {
        match text.strip_prefix(REGEX_PREFIX) {
            Some(regex) => Pattern::regex(regex),
            None => Ok(Pattern::glob(text)),
        }
    }

    /// Whether `text` matches, as a whole.
    #[must_use]
    pub fn matches(&self, text: &str) -> bool {
        match &self.matcher {
            Matcher::Glob(tokens) => glob_matches(tokens, text),
            #[cfg(feature = "regex")]
            Matcher::Regex(regex) => regex.is_match(text),
        }
    }

    /// The pattern as given to [`glob`](Pattern::glob) or [`regex`](Pattern::regex).
    #[must_use]
    pub fn as_str(&self) -> &str {
        &self.text
    }

    /// Whether it is a regex.
    #[must_use]
    pub fn is_regex(&self) -> bool {
        !matches!(self.matcher, Matcher::Glob(_))
    }

    /// Whether it matches every text: a glob of only `*`s.
    #[must_use]
    pub fn matches_everything(&self) -> bool {
        match &self.matcher {
            Matcher::Glob(tokens) => tokens.iter().all(|t| matches!(t, Token::Star)),
            #[cfg(feature = "regex")]
            Matcher::Regex(_) => false,
        }
    }
}

/// The form [`Pattern::parse`] reads back: `re:` and the regex, or the glob.
impl fmt::Display for Pattern {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_regex() {
            f.write_str(REGEX_PREFIX)?;
        }
        f.write_str(&self.text)
    }
}

impl fmt::Debug for Pattern {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Pattern({:?})", self.to_string())
    }
}

impl PartialEq for Pattern {
    fn eq(&self, other: &Pattern) -> bool {
        self.is_regex() == other.is_regex() && self.text == other.text
    }
}

impl Eq for Pattern {}

impl From<&str> for Pattern {
    /// A glob.
    fn from(text: &str) -> Pattern {
        Pattern::glob(text)
    }
}

impl From<String> for Pattern {
    /// A glob.
    fn from(text: String) -> Pattern {
        Pattern::glob(text)
    }
}

impl From<&String> for Pattern {
    /// A glob.
    fn from(text: &String) -> Pattern {
        Pattern::glob(text.as_str())
    }
}

/// One piece of a glob.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Token {
    Char(char),
    /// `?`
    One,
    /// `*`
    Star,
    /// `[…]`: ranges (a single character is a range of one), negated with `!` or `^`.
    Class {
        negated: bool,
        ranges: Vec<(char, char)>,
    },
}

impl Token {
    /// Whether this token (not a `*`) takes `c`.
    fn takes(&self, c: char) -> bool {
        match self {
            Token::Char(want) => *want == c,
            Token::One => true,
            Token::Star => false,
            Token::Class { negated, ranges } => {
                ranges.iter().any(|(lo, hi)| (*lo..=*hi).contains(&c)) != *negated
            }
        }
    }
}

fn parse_glob(text: &str) -> Vec<Token> {
    let chars: Vec<char> = text.chars().collect();
    let mut tokens = Vec::new();
    let mut i = 0;
    while let Some(&c) = chars.get(i) {
        i += 1;
        match c {
            '*' => {
                if tokens.last() != Some(&Token::Star) {
                    tokens.push(Token::Star);
                }
            }
            '?' => tokens.push(Token::One),
            '\\' => match chars.get(i) {
                Some(&next) => {
                    tokens.push(Token::Char(next));
                    i += 1;
                }
                None => tokens.push(Token::Char('\\')),
            },
            '[' => match parse_class(&chars[i..]) {
                Some((class, used)) => {
                    tokens.push(class);
                    i += used;
                }
                None => tokens.push(Token::Char('[')),
            },
            c => tokens.push(Token::Char(c)),
        }
    }
    tokens
}

/// A class after its `[`: the token and how many characters it took (its `]`
/// included); `None` when no `]` closes it.
fn parse_class(chars: &[char]) -> Option<(Token, usize)> {
    let mut i = 0;
    let negated = matches!(chars.first(), Some('!' | '^'));
    if negated {
        i += 1;
    }
    let mut ranges = Vec::new();
    let mut first = true;
    loop {
        let mut c = *chars.get(i)?;
        i += 1;
        if c == ']' && !first {
            return Some((Token::Class { negated, ranges }, i));
        }
        first = false;
        if c == '\\' {
            c = *chars.get(i)?;
            i += 1;
        }
        let is_range = chars.get(i) == Some(&'-') && chars.get(i + 1).is_some_and(|&e| e != ']');
        if is_range {
            let mut hi = chars[i + 1];
            i += 2;
            if hi == '\\' {
                hi = *chars.get(i)?;
                i += 1;
            }
            ranges.push((c.min(hi), c.max(hi)));
        } else {
            ranges.push((c, c));
        }
    }
}

/// Whether the whole of `text` matches `tokens`: each `*` takes as little as it
/// can, and gives one more character back to the last `*` when the rest fails.
fn glob_matches(tokens: &[Token], text: &str) -> bool {
    let chars: Vec<char> = text.chars().collect();
    let (mut t, mut c) = (0, 0);
    // After the last `*`: the token after it, and where in the text it took over.
    let mut star: Option<(usize, usize)> = None;
    while c < chars.len() {
        match tokens.get(t) {
            Some(Token::Star) => {
                star = Some((t + 1, c));
                t += 1;
                continue;
            }
            Some(token) if token.takes(chars[c]) => {
                t += 1;
                c += 1;
                continue;
            }
            _ => {}
        }
        let Some((after, from)) = star else {
            return false;
        };
        t = after;
        c = from + 1;
        star = Some((after, from + 1));
    }
    tokens[t..].iter().all(|t| *t == Token::Star)
}

#[cfg(test)]
mod tests {
    use super::Pattern;

    fn glob(pattern: &str, text: &str) -> bool {
        Pattern::glob(pattern).matches(text)
    }

    #[test]
    fn a_star_matches_any_run_of_characters() {
        assert!(glob("clock", "clock"));
        assert!(!glob("clock", "clocks"));
        assert!(glob("tasks/*", "tasks/12"));
        assert!(glob("*", ""));
        assert!(glob("*/time", "header/clock/time"));
        assert!(glob("a*b*c", "aXbYc"));
        assert!(!glob("a*b*c", "aXcYb"));
        assert!(!glob("ab*ba", "aba"));
        assert!(glob("ab*ba", "abba"));
        assert!(glob("Updated *s ago", "Updated 3s ago"));
        assert!(!glob("x*", "y"));
        assert!(glob("**a", "bba"));
    }

    #[test]
    fn a_question_mark_matches_one_character_of_any_width() {
        assert!(glob("tasks/?", "tasks/4"));
        assert!(!glob("tasks/?", "tasks/"));
        assert!(!glob("tasks/?", "tasks/12"));
        assert!(glob("?:??", "9:05"));
        assert!(glob("é?", "éü"));
        assert!(glob("*?", "a"));
        assert!(!glob("*?", ""));
    }

    #[test]
    fn a_class_matches_one_character_among_or_not_among_its_members() {
        assert!(glob("[0-9][0-9]:[0-5][0-9]", "12:45"));
        assert!(!glob("[0-9][0-9]:[0-5][0-9]", "12:75"));
        assert!(glob("[!0-9]*", "Saved"));
        assert!(!glob("[!0-9]*", "3 saved"));
        assert!(glob("[^a]", "b"));
        assert!(glob("[abc]", "b"));
        assert!(!glob("[abc]", "d"));
        // `]` first is a member; `-` last is a member.
        assert!(glob("[]a]", "]"));
        assert!(glob("[a-]", "-"));
        // A class with no `]` is a plain `[`.
        assert!(glob("[abc", "[abc"));
        assert!(!glob("[abc", "a"));
    }

    #[test]
    fn a_backslash_makes_the_next_character_plain() {
        assert!(glob(r"\*", "*"));
        assert!(!glob(r"\*", "a"));
        assert!(glob(r"100\?", "100?"));
        assert!(!glob(r"100\?", "1000"));
        assert!(glob(r"\[x]", "[x]"));
        assert!(glob(r"[\]]", "]"));
        assert!(glob("end\\", "end\\"));
    }

    #[cfg(feature = "regex")]
    #[test]
    fn a_regex_must_match_the_whole_text() {
        let regex = Pattern::regex(r"Saved \d+ files?").unwrap();
        assert!(regex.matches("Saved 3 files"));
        assert!(regex.matches("Saved 1 file"));
        assert!(!regex.matches("Saved 3 files!"));
        assert!(!regex.matches("Not saved 3 files"));
        // An alternation is anchored as a whole, not its first branch alone.
        assert!(!Pattern::regex("a|b").unwrap().matches("ab"));
        assert!(Pattern::regex("a|b").unwrap().matches("b"));
    }

    #[cfg(feature = "regex")]
    #[test]
    fn a_regex_that_does_not_compile_says_why() {
        let error = Pattern::regex("Saved (\\d+").unwrap_err().to_string();
        assert!(
            error.starts_with("the regex `Saved (\\d+` does not compile: "),
            "{error}"
        );
        let error = Pattern::parse("re:[").unwrap_err().to_string();
        assert!(
            error.starts_with("the regex `[` does not compile"),
            "{error}"
        );
    }

    #[cfg(not(feature = "regex"))]
    #[test]
    fn without_the_feature_a_regex_says_how_to_get_one() {
        let error = Pattern::parse(r"re:\d+").unwrap_err().to_string();
        assert!(
            error.contains("enable its `regex` feature (for tests: [dev-dependencies]"),
            "{error}"
        );
    }

    #[cfg(feature = "regex")]
    #[test]
    fn written_as_text_a_pattern_reads_back_as_itself() {
        for text in ["tasks/*", r"re:tasks/\d+", "re:", "", "[!x]?"] {
            let pattern = Pattern::parse(text).unwrap();
            assert_eq!(pattern.to_string(), text);
            assert_eq!(Pattern::parse(&pattern.to_string()).unwrap(), pattern);
        }
        assert!(Pattern::parse("re:x").unwrap().is_regex());
        assert!(!Pattern::parse("x").unwrap().is_regex());
        assert!(Pattern::glob("**").matches_everything());
        assert!(!Pattern::glob("*?").matches_everything());
    }
}
