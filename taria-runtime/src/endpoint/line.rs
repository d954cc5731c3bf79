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

    /// A stream that hands out its bytes in the chunks `sizes` says, failing with a
    /// timeout before each chunk `fail` marks (as a socket's read timeout does).
    struct Chunked<'a> {
        data: &'a [u8],
        pos: usize,
        sizes: std::iter::Cycle<std::slice::Iter<'a, (usize, bool)>>,
        chunk: usize,
    }

    impl io::Read for Chunked<'_> {
        fn read(&mut self, _: &mut [u8]) -> io::Result<usize> {
            unreachable!("LineReader reads through BufRead")
        }
    }

    impl BufRead for Chunked<'_> {
        fn fill_buf(&mut self) -> io::Result<&[u8]> {
            if self.chunk == 0 {
                let &(size, fail) = self.sizes.next().unwrap_or(&(1, false));
                self.chunk = size.max(1);
                if fail {
                    return Err(io::ErrorKind::TimedOut.into());
                }
            }
            let end = (self.pos + self.chunk).min(self.data.len());
            Ok(&self.data[self.pos..end])
        }

        fn consume(&mut self, amount: usize) {
            self.pos += amount;
            self.chunk = self.chunk.saturating_sub(amount);
        }
    }

    /// What the reader must find in `data`: each newline-ended line (without a
    /// trailing `\r`), or `None` for one over `cap` bytes; a last line without a
    /// newline is not one.
    fn expected(data: &[u8], cap: usize) -> Vec<Option<Vec<u8>>> {
        let mut lines: Vec<&[u8]> = data.split(|&b| b == b'\n').collect();
        lines.pop();
        lines
            .into_iter()
            .map(|line| {
                (line.len() <= cap).then(|| line.strip_suffix(b"\r").unwrap_or(line).to_vec())
            })
            .collect()
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig {
            cases: std::env::var("TARIA_FUZZ_CASES").ok().and_then(|c| c.parse().ok()).unwrap_or(256),
            ..proptest::prelude::ProptestConfig::default()
        })]

        /// Whatever the bytes and however they arrive (any chunking, timeouts
        /// anywhere), the reader finds exactly the lines in them, none longer than its
        /// cap, and loses nothing across errors.
        #[test]
        fn finds_exactly_the_lines_whatever_the_chunking(
            data in proptest::collection::vec(
                proptest::prop_oneof![
                    4 => proptest::prelude::any::<u8>(),
                    2 => proptest::prelude::Just(b'\n'),
                    1 => proptest::prelude::Just(b'\r'),
                ],
                0..400,
            ),
            sizes in proptest::collection::vec((1usize..40, proptest::prelude::any::<bool>()), 1..8),
            cap in 0usize..48,
        ) {
            let mut reader = Chunked { data: &data, pos: 0, sizes: sizes.iter().cycle(), chunk: 0 };
            let mut lines = LineReader::new(cap);
            let mut found = Vec::new();
            loop {
                match lines.read(&mut reader) {
                    Ok(Line::Complete) => {
                        proptest::prop_assert!(lines.line().len() <= cap);
                        found.push(Some(lines.line().to_vec()));
                        lines.clear();
                    }
                    Ok(Line::TooLong) => found.push(None),
                    Ok(Line::Eof) => break,
                    Err(e) => proptest::prop_assert_eq!(e.kind(), io::ErrorKind::TimedOut),
                }
            }
            proptest::prop_assert_eq!(found, expected(&data, cap));
        }
    }
}
