//! The terminal's output: read all the time (its last few KiB kept), fed to the
//! emulated terminal, whose answers to the app's queries are written back to it, and
//! turned into plain text for messages.

use std::collections::VecDeque;
use std::io::{Read as _, Write};
use std::sync::Mutex;
use std::sync::mpsc::{SyncSender, TrySendError, sync_channel};

use super::terminal::Terminal;
use super::{ConsoleInput, TAIL_BYTES, lock};

/// How many reads' answers may wait for an app that does not read its input; past
/// that they are dropped, as its input is full anyway.
const WAITING_ANSWERS: usize = 64;

/// Reads the terminal until the app closes it, keeping the last [`TAIL_BYTES`], and
/// answers the app's terminal queries on the terminal's `input` as `terminal`
/// answers them (on Windows `ConPTY` itself may wait for a cursor report before it
/// runs the app). The answers are written on a thread of their own: an app that
/// asks without reading its input must not stop its output from being read.
pub(super) fn pump(
    mut reader: Box<dyn std::io::Read + Send>,
    tail: &Mutex<VecDeque<u8>>,
    terminal: &Mutex<Terminal>,
    input: ConsoleInput,
) {
    let answers = answer_on(input);
    let mut buf = [0u8; 8192];
    loop {
        match reader.read(&mut buf) {
            Ok(0) => break,
            Ok(n) => {
                tracing::trace!(target: crate::latency::TARGET, bytes = n, "terminal output");
                let answer = lock(terminal).feed(&buf[..n]);
                if let Some(answers) = &answers
                    && !answer.is_empty()
                    && let Err(TrySendError::Full(_)) = answers.try_send(answer)
                {
                    tracing::debug!("the app reads no input: a terminal answer is dropped");
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

/// The thread that writes the answers to the terminal's input, in order; `None` (and
/// no answers) when no thread can be started.
fn answer_on(input: ConsoleInput) -> Option<SyncSender<Vec<u8>>> {
    let (answers, waiting) = sync_channel::<Vec<u8>>(WAITING_ANSWERS);
    let writer = std::thread::Builder::new()
        .name("taria-mcp-pty-answer".into())
        .spawn(move || {
            for answer in waiting {
                let mut input = lock(&input);
                if let Err(e) = input.write_all(&answer).and_then(|()| input.flush()) {
                    tracing::debug!(error = %e, "cannot answer the app's terminal queries");
                    break;
                }
            }
        });
    match writer {
        Ok(_) => Some(answers),
        Err(e) => {
            tracing::warn!(error = %e, "no thread to answer the app's terminal queries on");
            None
        }
    }
}

/// Appends the app's last output lines (escape sequences removed) to `message`.
pub(super) fn append_output(message: &mut String, tail: &Mutex<VecDeque<u8>>) {
    let bytes: Vec<u8> = lock(tail).iter().copied().collect();
    if let Some(last) = last_lines(&plain_text(&bytes)) {
        // Quoted: app text on one line, so none of it reads as the bridge's words.
        message.push_str(". Its last output (untrusted): ");
        message.push_str(&taria_schema::outline::OutlineQuoted(&last).to_string());
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
    fn the_output_reader_answers_the_app_s_queries() {
        let output: [&'static [u8]; 3] = [b"\x1b[6nhello \x1b[", b"6nworld", b"\x1b[6n!"];
        let written = Arc::new(Mutex::new(Vec::new()));
        let input: ConsoleInput = Arc::new(Mutex::new(Box::new(Sink(Arc::clone(&written)))));
        let tail = Mutex::new(VecDeque::new());
        let terminal = Mutex::new(Terminal::new(crate::spawn::size::Size {
            cols: 80,
            rows: 24,
        }));
        pump(Box::new(Chunks(output.into())), &tail, &terminal, input);
        let expected = "\x1b[1;1R\x1b[1;7R\x1b[1;12R";
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(5);
        while lock(&written).len() < expected.len() && std::time::Instant::now() < deadline {
            std::thread::sleep(std::time::Duration::from_millis(5));
        }
        assert_eq!(String::from_utf8_lossy(&lock(&written)), expected);
        let kept: Vec<u8> = lock(&tail).iter().copied().collect();
        assert_eq!(plain_text(&kept), "hello world!");
    }
}
