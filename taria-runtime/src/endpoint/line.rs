//! Reading newline-delimited lines with a size cap.

use std::io::{self, BufRead};

/// What [`LineReader::read`] found.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum Line {
    /// A complete line is in the buffer (without its newline).
    Complete,
    /// The line was longer than the cap; it was read and thrown away.
    TooLong,
    /// The stream ended. A partial last line without a newline is discarded: a client
    /// that disconnects mid-message loses only that message.
    Eof,
}

/// Reads newline-delimited lines, keeping at most `cap` bytes of each. It resumes
/// where it left off after an error (such as a read timeout), so no bytes are lost.
pub(crate) struct LineReader {
    buf: Vec<u8>,
    cap: usize,
    too_long: bool,
}

impl LineReader {
    pub(crate) fn new(cap: usize) -> LineReader {
        LineReader {
            buf: Vec::new(),
            cap,
            too_long: false,
        }
    }

    /// The last complete line (valid after [`Line::Complete`]).
    pub(crate) fn line(&self) -> &[u8] {
        &self.buf
    }

    /// Reads until the end of the current line.
    pub(crate) fn read(&mut self, reader: &mut impl BufRead) -> io::Result<Line> {
        loop {
            let available = match reader.fill_buf() {
                Ok(bytes) => bytes,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(e),
            };
            if available.is_empty() {
                self.buf.clear();
                self.too_long = false;
                return Ok(Line::Eof);
            }
            let (chunk, found) = match available.iter().position(|&b| b == b'\n') {
                Some(i) => (&available[..i], true),
                None => (available, false),
            };
            if !self.too_long {
                if self.buf.len() + chunk.len() > self.cap {
                    self.too_long = true;
                    self.buf.clear();
                } else {
                    self.buf.extend_from_slice(chunk);
                }
            }
            let used = chunk.len() + usize::from(found);
            reader.consume(used);
            if found {
                if self.buf.last() == Some(&b'\r') {
                    self.buf.pop();
                }
                let line = if std::mem::take(&mut self.too_long) {
                    Line::TooLong
                } else {
                    Line::Complete
                };
                return Ok(line);
            }
        }
    }

    /// Forgets the last line; call after handling it.
    pub(crate) fn clear(&mut self) {
        self.buf.clear();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_lines_and_skips_oversized_ones() {
        let data = b"short\r\nthis line is too long\nok\npartial";
        let mut reader = io::BufReader::with_capacity(4, &data[..]);
        let mut lines = LineReader::new(10);
        assert_eq!(lines.read(&mut reader).unwrap(), Line::Complete);
        assert_eq!(lines.line(), b"short");
        lines.clear();
        assert_eq!(lines.read(&mut reader).unwrap(), Line::TooLong);
        lines.clear();
        assert_eq!(lines.read(&mut reader).unwrap(), Line::Complete);
        assert_eq!(lines.line(), b"ok");
        lines.clear();
        assert_eq!(lines.read(&mut reader).unwrap(), Line::Eof);
    }
}
