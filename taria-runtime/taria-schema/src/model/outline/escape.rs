//! The outline's escapes: app text as JSON string literals, names bare when plain,
//! and reading a line's id back.
//!
//! Why escape rather than refuse: the recorder neither refuses nor rewrites control
//! characters (nor `]`, `"`, spaces, …) in ids, keys, custom roles and custom action
//! names. An app keying rows by content (`.key(file_name)`) would lose those nodes, or see
//! `key` arguments in its handlers that no longer match its data, and two keys that differ
//! only in such characters would collide; a hostile app or a newer peer can send any
//! string over the wire anyway. So the text forms make them harmless: ids and names are
//! written bare when plain (no space, quote, backslash, bracket, brace, comma or such
//! character: `[id=tasks/3]`) and quoted otherwise (`[id="notes/a b"]`), so common ids
//! cost no byte more. The bridge's text reuses these escapes (cut markers, change lists,
//! refusals; an id pasted back with its quotes is read as the outline wrote it); its
//! JSON results are framed by JSON itself.

/// App text as an outline quotes it (a label, a text value, an invalid message): a
/// JSON string literal, in which every character that could end the line, hide or
/// reorder text (control characters, line and paragraph separators, zero-width and
/// bidirectional marks, …) is a `\uXXXX` escape. So no app text can start a new line
/// or close the quotes early, and the agent can pass it back as the JSON it reads.
///
/// # Examples
///
/// ```
/// use taria_schema::outline::OutlineQuoted;
/// assert_eq!(OutlineQuoted("Buy milk").to_string(), r#""Buy milk""#);
/// assert_eq!(OutlineQuoted("a\n\"b\"\u{2028}").to_string(), r#""a\n\"b\"\u2028""#);
/// ```
#[derive(Clone, Copy, Debug)]
pub struct OutlineQuoted<'a>(pub &'a str);

impl std::fmt::Display for OutlineQuoted<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write_quoted(f, self.0)
    }
}

/// App text kept on one line, unquoted, with the same escapes as [`OutlineQuoted`]
/// for every character that could end the line, hide or reorder text (quotes and
/// backslashes stay as they are): for app text a consumer writes on a line of its
/// own making, such as a screen row or an app's message in a sentence. JSON stays
/// JSON through it.
///
/// # Examples
///
/// ```
/// use taria_schema::outline::OutlineText;
/// assert_eq!(OutlineText("say \"hi\"\nnow").to_string(), r#"say "hi"\nnow"#);
/// ```
#[derive(Clone, Copy, Debug)]
pub struct OutlineText<'a>(pub &'a str);

impl std::fmt::Display for OutlineText<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write_escaped(f, self.0, false)
    }
}

/// Writes `text` as [`OutlineQuoted`] does.
pub(super) fn write_quoted(out: &mut impl std::fmt::Write, text: &str) -> std::fmt::Result {
    out.write_char('"')?;
    write_escaped(out, text, true)?;
    out.write_char('"')
}

/// Writes `text` with every character that could end a line, hide or reorder text
/// escaped, and, when `in_quotes`, `"` and `\` too: runs of bytes written as they
/// are are copied whole, and only non-ASCII characters are decoded to be checked.
fn write_escaped(out: &mut impl std::fmt::Write, text: &str, in_quotes: bool) -> std::fmt::Result {
    let bytes = text.as_bytes();
    let (mut plain_from, mut i) = (0, 0);
    while i < bytes.len() {
        let b = bytes[i];
        let (c, len) = if b.is_ascii() {
            if plain_ascii(b) || (!in_quotes && matches!(b, b'"' | b'\\')) {
                i += 1;
                continue;
            }
            (char::from(b), 1)
        } else {
            let c = text[i..].chars().next().unwrap_or_default();
            if shown_as_is(c) {
                i += c.len_utf8();
                continue;
            }
            (c, c.len_utf8())
        };
        out.write_str(&text[plain_from..i])?;
        match c {
            '"' => out.write_str("\\\"")?,
            '\\' => out.write_str("\\\\")?,
            '\n' => out.write_str("\\n")?,
            '\r' => out.write_str("\\r")?,
            '\t' => out.write_str("\\t")?,
            c => {
                for unit in c.encode_utf16(&mut [0; 2]) {
                    write!(out, "\\u{unit:04x}")?;
                }
            }
        }
        i += len;
        plain_from = i;
    }
    out.write_str(&text[plain_from..])
}

/// Writes `name` as [`OutlineName`] does.
pub(super) fn write_name(out: &mut impl std::fmt::Write, name: &str) -> std::fmt::Result {
    if OutlineName(name).is_plain() {
        out.write_str(name)
    } else {
        write_quoted(out, name)
    }
}

/// An app-supplied name (an id, a custom role, a custom action) as an outline writes
/// it: as it is when it is plain — not empty, no spaces, quotes, backslashes,
/// brackets, braces, commas or characters [`OutlineQuoted`] escapes — else quoted
/// like a label. Plain names (`tasks/3`, `tasks/list_item#2`, `archive`) cost nothing;
/// no name can end the `[id=…]`, `{…}` or the line it is written in.
///
/// # Examples
///
/// ```
/// use taria_schema::outline::OutlineName;
/// assert_eq!(OutlineName("files/main.rs").to_string(), "files/main.rs");
/// assert_eq!(OutlineName("notes/a b]").to_string(), r#""notes/a b]""#);
/// ```
#[derive(Clone, Copy, Debug)]
pub struct OutlineName<'a>(pub &'a str);

impl OutlineName<'_> {
    /// Whether the name is written as it is, unquoted.
    #[must_use]
    pub fn is_plain(&self) -> bool {
        let plain = |c: char| !matches!(c, '[' | ']' | '{' | '}' | ',' | ' ') && shown_as_is(c);
        !self.0.is_empty()
            && if self.0.is_ascii() {
                self.0
                    .bytes()
                    .all(|b| plain_ascii(b) && plain(char::from(b)))
            } else {
                self.0.chars().all(plain)
            }
    }
}

impl std::fmt::Display for OutlineName<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write_name(f, self.0)
    }
}

/// The id an outline line gives in its `[id=…]`, read back (a quoted one unescaped):
/// what an agent or a test reads off a line. `None` for a line without an id (an inert
/// part of its parent) or one that is not an outline line.
///
/// # Examples
///
/// ```
/// use taria_schema::outline::outline_line_id;
/// assert_eq!(outline_line_id(r#"- button "Save [id=x]" [id=save]"#).as_deref(), Some("save"));
/// assert_eq!(outline_line_id(r#"  - list_item [id="notes/a b\n" positional]"#).as_deref(), Some("notes/a b\n"));
/// ```
#[must_use]
pub fn outline_line_id(line: &str) -> Option<String> {
    let mut rest = line;
    loop {
        let at = rest.find(['"', '['])?;
        rest = &rest[at..];
        if rest.starts_with('"') {
            let (_, after) = read_quoted(rest)?;
            rest = after;
        } else if let Some(id) = rest.strip_prefix("[id=") {
            if id.starts_with('"') {
                return read_quoted(id).map(|(id, _)| id);
            }
            let end = id.find([' ', ']'])?;
            return Some(id[..end].to_owned());
        } else {
            rest = &rest[1..];
        }
    }
}

/// Reads the JSON string `text` starts with: its value and the text after it.
fn read_quoted(text: &str) -> Option<(String, &str)> {
    let mut values = serde_json::Deserializer::from_str(text).into_iter::<String>();
    let value = values.next()?.ok()?;
    Some((value, &text[values.byte_offset()..]))
}

/// Whether a character inside quotes is written as it is: printable ASCII but `"`
/// and `\`, and any other character that is not whitespace (so not U+2028, U+0085,
/// NBSP) and that Rust's `{:?}` of a string leaves alone after another character
/// (so not controls, zero-width or bidi marks; combining marks are kept, as in
/// decomposed `café`).
pub(super) fn shown_as_is(c: char) -> bool {
    if c.is_ascii() {
        return plain_ascii(c as u8);
    }
    if c.is_whitespace() {
        return false;
    }
    let mut buf = [b'a'; 5];
    let len = c.encode_utf8(&mut buf[1..]).len();
    std::str::from_utf8(&buf[..=len]).is_ok_and(|after_a| after_a.escape_debug().count() == 2)
}

/// [`shown_as_is`] for an ASCII byte.
fn plain_ascii(b: u8) -> bool {
    matches!(b, b' '..=b'~') && b != b'"' && b != b'\\'
}
