//! The terminal's output: read all the time (its last few KiB kept), cursor position
//! queries answered where the console waits for one, and turned into plain text for
//! messages.

use std::collections::VecDeque;
use std::io::{Read as _, Write};
use std::sync::Mutex;

use super::{TAIL_BYTES, lock};

/// What a terminal answers a cursor position query with: row 1, column 1.
const CURSOR_REPORT: &[u8] = b"\x1b[1;1R";

/// Finds cursor position queries (`ESC [ 6 n`) in the terminal's output, also when
/// one is split between reads.
#[derive(Default)]
struct CursorQueries {
    /// How much of the query the last bytes matched.
    matched: usize,
}

impl CursorQueries {
    const QUERY: &[u8] = b"\x1b[6n";

    /// How many queries end in `chunk`.
    fn count(&mut self, chunk: &[u8]) -> usize {
        let mut found = 0;
        for &byte in chunk {
            // No proper prefix of the query is also its suffix, except ESC alone.
            self.matched = if byte == Self::QUERY[self.matched] {
                self.matched + 1
            } else {
                usize::from(byte == Self::QUERY[0])
            };
            if self.matched == Self::QUERY.len() {
                found += 1;
                self.matched = 0;
            }
        }
        found
    }
}

/// Reads the terminal until the app closes it, keeping the last [`TAIL_BYTES`]; with
/// `answers` (Windows: the console's input), answers cursor position queries there, as
/// a terminal would (`ConPTY` may wait for one before it runs the app).
pub(super) fn pump(
    mut reader: Box<dyn std::io::Read + Send>,
    tail: &Mutex<VecDeque<u8>>,
    answers: Option<&Mutex<Box<dyn Write + Send>>>,
) {
    let mut buf = [0u8; 8192];
    let mut queries = CursorQueries::default();
    loop {
        match reader.read(&mut buf) {
            Ok(0) => break,
            Ok(n) => {
                if let Some(answers) = answers {
                    for _ in 0..queries.count(&buf[..n]) {
                        let mut input = lock(answers);
                        if let Err(e) = input.write_all(CURSOR_REPORT).and_then(|()| input.flush())
                        {
                            tracing::debug!(error = %e, "cannot answer the terminal's cursor query");
                        }
                    }
                }
                let mut tail = lock(tail);
                tail.extend(&buf[..n]);
                let excess = tail.len().saturating_sub(TAIL_BYTES);
                tail.drain(..excess);
            }
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(_) => break,
        }
    }
}

/// Appends the app's last output lines (escape sequences removed) to `message`.
pub(super) fn append_output(message: &mut String, tail: &Mutex<VecDeque<u8>>) {
    let bytes: Vec<u8> = lock(tail).iter().copied().collect();
    if let Some(last) = last_lines(&plain_text(&bytes)) {
        message.push_str(". Its last output (untrusted):\n");
        message.push_str(&last);
    }
}

/// What the app printed after it left the alternate screen (a result it reports as it
/// exits: JSON, a last status line), escape sequences removed and bounded as
/// [`append_output`]'s; `None` when it never left one, or printed nothing after.
pub(super) fn after_screen(tail: &Mutex<VecDeque<u8>>) -> Option<String> {
    const LEAVE: [&[u8]; 3] = [b"\x1b[?1049l", b"\x1b[?1047l", b"\x1b[?47l"];
    let bytes: Vec<u8> = lock(tail).iter().copied().collect();
    let end = LEAVE
        .iter()
        .filter_map(|leave| {
            bytes
                .windows(leave.len())
                .rposition(|w| w == *leave)
                .map(|at| at + leave.len())
        })
        .max()?;
    last_lines(&plain_text(&bytes[end..]))
}

/// The last 12 non-blank lines of `text`, at most 1,500 bytes (cut at the front).
fn last_lines(text: &str) -> Option<String> {
    let lines: Vec<&str> = text
        .lines()
        .map(str::trim_end)
        .filter(|l| !l.trim().is_empty())
        .collect();
    if lines.is_empty() {
        return None;
    }
    let mut last = lines[lines.len().saturating_sub(12)..].join("\n");
    if last.len() > 1500 {
        let mut cut = last.len() - 1500;
        while !last.is_char_boundary(cut) {
            cut += 1;
        }
        last = format!("…{}", &last[cut..]);
    }
    Some(last)
}

/// Terminal output as plain text: escape sequences and carriage returns removed.
pub(crate) fn plain_text(bytes: &[u8]) -> String {
    let text = String::from_utf8_lossy(bytes);
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\u{1b}' => match chars.next() {
                // CSI: parameters, then a final byte in @..~.
                Some('[') => {
                    for c in chars.by_ref() {
                        if ('@'..='~').contains(&c) {
                            break;
                        }
                    }
                }
                // OSC, DCS, …: up to BEL or ESC \.
                Some(']' | 'P' | '_' | '^') => {
                    while let Some(c) = chars.next() {
                        if c == '\u{7}' {
                            break;
                        }
                        if c == '\u{1b}' && chars.peek() == Some(&'\\') {
                            chars.next();
                            break;
                        }
                    }
                }
                // Charset selection takes one more character.
                Some('(' | ')' | '*' | '+') => {
                    chars.next();
                }
                _ => {}
            },
            '\r' => {}
            '\n' | '\t' => out.push(c),
            c if c.is_control() => {}
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::*;

    #[test]
    fn escape_sequences_are_removed() {
        let raw = b"\x1b[?1049h\x1b[1;1H\x1b[38;5;2mhello\x1b[0m\r\n\x1b]0;title\x07world\x1b(B!";
        assert_eq!(plain_text(raw), "hello\nworld!");
    }

    #[test]
    fn cursor_queries_are_found_across_reads() {
        let mut queries = CursorQueries::default();
        assert_eq!(queries.count(b"\x1b[?1049h\x1b[6"), 0);
        assert_eq!(queries.count(b"n"), 1, "a query split between reads");
        assert_eq!(queries.count(b"\x1b\x1b[6n\x1b[66n\x1b[6n"), 2);
        assert_eq!(queries.count(b"\x1b[1;1R[6n"), 0);
    }

    /// A reader that hands out one chunk per read.
    struct Chunks(VecDeque<&'static [u8]>);

    impl std::io::Read for Chunks {
        fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
            let Some(chunk) = self.0.pop_front() else {
                return Ok(0);
            };
            buf[..chunk.len()].copy_from_slice(chunk);
            Ok(chunk.len())
        }
    }

    /// Collects what is written to it.
    struct Sink(Arc<Mutex<Vec<u8>>>);

    impl Write for Sink {
        fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
            lock(&self.0).extend_from_slice(buf);
            Ok(buf.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    #[test]
    fn the_output_reader_answers_cursor_queries_when_asked_to() {
        let output: [&'static [u8]; 3] = [b"\x1b[6nhello \x1b[", b"6nworld", b"\x1b[6n!"];
        let written = Arc::new(Mutex::new(Vec::new()));
        let input: Mutex<Box<dyn Write + Send>> = Mutex::new(Box::new(Sink(Arc::clone(&written))));
        let tail = Mutex::new(VecDeque::new());
        pump(Box::new(Chunks(output.into())), &tail, Some(&input));
        assert_eq!(lock(&written).as_slice(), b"\x1b[1;1R".repeat(3).as_slice());
        let kept: Vec<u8> = lock(&tail).iter().copied().collect();
        assert_eq!(plain_text(&kept), "hello world!");
        // Without an input to answer on (Unix), the output is only kept.
        let tail = Mutex::new(VecDeque::new());
        pump(Box::new(Chunks(output.into())), &tail, None);
        assert_eq!(lock(&tail).len(), kept.len());
    }
}
