//! Recordings of an agent's session (`taria-mcp --record FILE`): one versioned,
//! newline-delimited JSON file, a header line and then one line per tree, input,
//! resize, read, refusal or app event, in the order the bridge saw them. Specified in docs/protocol.md
//! ("Recordings"); replayed by `taria::testing`.
//!
//! Write with [`RecordingWriter`] (one `write_all` and flush per line, so a crash
//! loses at most the line being written); read with [`Recording::parse`] or
//! [`Recording::read`], whose errors name the line and what is wrong with it.
//!
//! # Examples
//!
//! ```
//! use taria_schema::recording::{
//!     Recording, RecordingHeader, RecordingMode, RecordedLine, RecordedSize, RecordingWriter,
//! };
//! let header = RecordingHeader::new("todo", RecordedSize { width: 80, height: 24 }, RecordingMode::Spawn);
//! let mut writer = RecordingWriter::new(Vec::new(), &header)?;
//! writer.write(&RecordedLine::tree(1, taria::Tree::default()))?;
//! let text = String::from_utf8(writer.into_inner()).unwrap();
//! let recording = Recording::parse(&text)?;
//! assert_eq!(recording.header.app, "todo");
//! assert_eq!(recording.lines.len(), 1);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::io::{self, Write};
use std::path::{Path, PathBuf};

use serde::Serialize;

use crate::model::Tree;

mod header;
mod line;
mod log;
mod matching;
mod replay_lines;
mod screen_check;
mod secrets;

pub use header::{RecordedSize, RecordingHeader, RecordingMode};
pub use line::{
    AppEvent, InputTool, RecordedAck, RecordedApp, RecordedInput, RecordedInputData, RecordedLine,
    RecordedRead, RecordedRefusal, RecordedResize, RecordedTarget, RecordedTree,
    RecordedUnprompted,
};
pub use log::RecordedLog;
#[doc(hidden)]
pub use matching::Uses;
pub use matching::{
    Match, Pattern, PatternError, REGEX_PREFIX, Rule, RuleConflict, RuleKind, Unused,
};
pub use replay_lines::ReplayLine;
pub use screen_check::{RecordedScreen, recordable_screen};
pub use secrets::Secrets;

/// The recording format version this build writes: 2 added the `resize`, `refused`
/// and `log` lines, an act's `target`, the exit in an `app` line and the header's
/// `logs`.
pub const RECORDING_VERSION: u32 = 2;

/// The recording format versions this build reads.
pub const READABLE_RECORDING_VERSIONS: &[u32] = &[1, 2];

/// A recording read back: its header and its lines, in file order (the line at
/// index `i` is line `i + 2` of the file, blank lines aside).
///
/// # Examples
///
/// ```
/// use taria_schema::recording::{RecordedLine, Recording};
///
/// let text = concat!(
///     r#"{"taria_recording":2,"app":"counter","size":{"width":20,"height":1},"taria":"0.1.0","mode":"spawn"}"#, "\n",
///     r#"{"kind":"tree","revision":1,"tree":{"frame":1,"roots":[{"id":"count","role":"button","label":"Count 0"}]}}"#, "\n",
/// );
/// let recording = Recording::parse(text)?;
/// assert_eq!((recording.header.app.as_str(), recording.header.size.width), ("counter", 20));
/// let RecordedLine::Tree(first) = &recording.lines[0] else { panic!("not a tree") };
/// assert_eq!(first.tree.get("count").unwrap().label.as_deref(), Some("Count 0"));
/// # Ok::<(), taria_schema::recording::RecordingError>(())
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct Recording {
    /// Line 1.
    pub header: RecordingHeader,
    /// The rest.
    pub lines: Vec<RecordedLine>,
}

impl Recording {
    /// Reads a recording from its text. A last line without its newline that does not
    /// parse is reported as cut off (the bridge stopped while writing it).
    ///
    /// # Errors
    /// When the text is not a recording, is of a version this build does not read
    /// ([`READABLE_RECORDING_VERSIONS`]), or a line is malformed; the error names the
    /// line.
    pub fn parse(text: &str) -> Result<Recording, RecordingError> {
        let ends_with_newline = text.ends_with('\n');
        let mut numbered = text
            .split('\n')
            .enumerate()
            .map(|(index, line)| (index + 1, line.strip_suffix('\r').unwrap_or(line)))
            .filter(|(_, line)| !line.trim().is_empty())
            .peekable();
        let Some((first_number, first)) = numbered.next() else {
            return Err(RecordingError::Empty);
        };
        let header = parse_header(first_number, first)?;
        let mut lines = Vec::new();
        while let Some((number, line)) = numbered.next() {
            let last = numbered.peek().is_none();
            match serde_json::from_str::<RecordedLine>(line) {
                Ok(parsed) => lines.push(parsed),
                Err(_) if last && !ends_with_newline => {
                    return Err(RecordingError::CutOff { line: number });
                }
                // A kind from a newer bridge, which it added without a new version:
                // nothing a replay must follow.
                Err(_) if header.taria_recording >= 2 && of_unknown_kind(line) => {}
                Err(error) => {
                    return Err(RecordingError::Malformed {
                        line: number,
                        error: error.to_string(),
                    });
                }
            }
        }
        Ok(Recording { header, lines })
    }

    /// Reads the recording at `path`.
    ///
    /// # Errors
    /// When the file cannot be read, or [`Recording::parse`] refuses its text.
    pub fn read(path: impl AsRef<Path>) -> Result<Recording, RecordingError> {
        Recording::parse(&Recording::read_text(path)?)
    }

    /// The text of the recording at `path`, for [`Recording::parse`], read only when
    /// it can be one: a regular file (not a device such as `/dev/zero`, or a pipe),
    /// of at most [`MAX_RECORDING_BYTES`], whose first line starts as a recording's
    /// header does.
    ///
    /// # Errors
    /// When the file cannot be read, is not a regular file, is too large, or does not
    /// start as a recording; each error says which.
    pub fn read_text(path: impl AsRef<Path>) -> Result<String, RecordingError> {
        use std::io::Read as _;
        let path = path.as_ref();
        let io = |error| RecordingError::Io {
            path: path.to_owned(),
            error,
        };
        let file = std::fs::File::open(path).map_err(io)?;
        let metadata = file.metadata().map_err(io)?;
        if !metadata.is_file() {
            return Err(RecordingError::NotAFile {
                path: path.to_owned(),
            });
        }
        if metadata.len() > MAX_RECORDING_BYTES {
            return Err(RecordingError::TooLarge {
                path: path.to_owned(),
                bytes: metadata.len(),
            });
        }
        // Its start first: a file that is not a recording is refused before the rest
        // of it is read (a binary, a log of gigabytes).
        let mut bytes = Vec::new();
        (&file)
            .take(64 * 1024)
            .read_to_end(&mut bytes)
            .map_err(io)?;
        let start = bytes.trim_ascii_start();
        let blank = &bytes[..bytes.len() - start.len()];
        let header_line = 1 + blank.split(|&b| b == b'\n').count() - 1;
        let not_a_recording = |why: &str| RecordingError::NotARecording {
            line: header_line,
            why: why.to_owned(),
        };
        if !start.is_empty() && !start.starts_with(b"{\"taria_recording\"") {
            return Err(not_a_recording(
                "the first line is not a recording's header",
            ));
        }
        // A file that grows while it is read stops at the cap all the same.
        (&file)
            .take(MAX_RECORDING_BYTES + 1 - bytes.len() as u64)
            .read_to_end(&mut bytes)
            .map_err(io)?;
        if bytes.len() as u64 > MAX_RECORDING_BYTES {
            return Err(RecordingError::TooLarge {
                path: path.to_owned(),
                bytes: bytes.len() as u64,
            });
        }
        let text = String::from_utf8(bytes).map_err(|_| not_a_recording("it is not UTF-8 text"))?;
        Ok(text)
    }

    /// The input lines, in order.
    pub fn inputs(&self) -> impl Iterator<Item = &RecordedInput> {
        self.lines.iter().filter_map(|line| match line {
            RecordedLine::Input(input) => Some(&**input),
            _ => None,
        })
    }

    /// The `log` lines, in order.
    pub fn logs(&self) -> impl Iterator<Item = &RecordedLog> {
        self.lines.iter().filter_map(|line| match line {
            RecordedLine::Log(log) => Some(log),
            _ => None,
        })
    }

    /// The `unprompted` lines, in order: what changed in frames drawn with no input.
    pub fn unprompted(&self) -> impl Iterator<Item = &RecordedUnprompted> {
        self.lines.iter().filter_map(|line| match line {
            RecordedLine::Unprompted(unprompted) => Some(unprompted),
            _ => None,
        })
    }

    /// The first `tree` line's screen, when the bridge recorded one.
    #[must_use]
    pub fn first_screen(&self) -> Option<&RecordedScreen> {
        self.lines.iter().find_map(|line| match line {
            RecordedLine::Tree(recorded) => Some(recorded.screen.as_ref()),
            _ => None,
        })?
    }

    /// The first `tree` line's tree: what the app showed before the first input.
    #[must_use]
    pub fn first_tree(&self) -> Option<&Tree> {
        self.lines.iter().find_map(|line| match line {
            RecordedLine::Tree(recorded) => Some(&recorded.tree),
            _ => None,
        })
    }
}

/// Whether `line` is a JSON object whose `kind` is a string this build does not know.
fn of_unknown_kind(line: &str) -> bool {
    serde_json::from_str::<serde_json::Value>(line).is_ok_and(|value| {
        value
            .get("kind")
            .and_then(serde_json::Value::as_str)
            .is_some_and(|kind| !RecordedLine::KINDS.contains(&kind))
    })
}

fn parse_header(number: usize, line: &str) -> Result<RecordingHeader, RecordingError> {
    let not_a_recording = |why: &str| RecordingError::NotARecording {
        line: number,
        why: why.to_owned(),
    };
    let value: serde_json::Value =
        serde_json::from_str(line).map_err(|_| not_a_recording("the first line is not JSON"))?;
    let Some(object) = value.as_object() else {
        return Err(not_a_recording("the first line is not a JSON object"));
    };
    let Some(version) = object.get("taria_recording") else {
        return Err(not_a_recording(
            "the first line has no `taria_recording` version",
        ));
    };
    let Some(version) = version.as_u64() else {
        return Err(not_a_recording("`taria_recording` is not a version number"));
    };
    if !READABLE_RECORDING_VERSIONS
        .iter()
        .any(|&readable| u64::from(readable) == version)
    {
        return Err(RecordingError::UnsupportedVersion { version });
    }
    serde_json::from_value(value).map_err(|error| RecordingError::Malformed {
        line: number,
        error: error.to_string(),
    })
}

/// The largest recording [`Recording::read_text`] reads, in bytes (256 MiB: hours of
/// a busy session with its screens).
pub const MAX_RECORDING_BYTES: u64 = 256 * 1024 * 1024;

/// Creates (or truncates) a recording's file at `path`, readable and writable by its
/// owner alone (mode 0600 on Unix; a regular file that was there before is made so
/// too, when its mode may be changed): a recording holds what the app showed, which
/// may be private. A device such as `/dev/null` is written as it is.
///
/// # Errors
/// When the file cannot be created, or its mode set.
pub fn create_recording_file(path: impl AsRef<Path>) -> io::Result<std::fs::File> {
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create(true).truncate(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::{OpenOptionsExt as _, PermissionsExt as _};
        options.mode(0o600);
        let file = options.open(path)?;
        // A file that was there before is made so too when it is a regular file one
        // may change (not `/dev/null`, nor another user's file one may only write).
        if file.metadata()?.is_file()
            && let Err(error) = file.set_permissions(std::fs::Permissions::from_mode(0o600))
            && error.kind() != io::ErrorKind::PermissionDenied
        {
            return Err(error);
        }
        Ok(file)
    }
    #[cfg(not(unix))]
    options.open(path)
}

/// Why a recording could not be read.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum RecordingError {
    /// The file could not be read.
    #[error("cannot read the recording {}: {error}", path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// Why.
        error: io::Error,
    },
    /// The path is not a regular file (a directory, a device, a pipe).
    #[error("{} is not a file: a recording is the file taria-mcp --record wrote", path.display())]
    NotAFile {
        /// The path.
        path: PathBuf,
    },
    /// The file is larger than [`MAX_RECORDING_BYTES`].
    #[error("{} is {bytes} bytes, more than a recording this build reads ({MAX_RECORDING_BYTES}); is it a recording?", path.display())]
    TooLarge {
        /// The file.
        path: PathBuf,
        /// Its size.
        bytes: u64,
    },
    /// There is nothing in it.
    #[error(
        "the recording is empty (not even a header line): the bridge never reached the app, or was not started with --record"
    )]
    Empty,
    /// The first line is not a recording's header.
    #[error(
        "not a taria recording: line {line}: {why} (a recording starts with {{\"taria_recording\":1,...}})"
    )]
    NotARecording {
        /// The header's line number (1 unless blank lines come first).
        line: usize,
        /// What is wrong with it.
        why: String,
    },
    /// A format version this build does not read.
    #[error("recording format version {version} is not supported: this build of taria reads version{} {}; use the taria release that wrote it", if READABLE_RECORDING_VERSIONS.len() == 1 { "" } else { "s" }, readable_versions())]
    UnsupportedVersion {
        /// The version in the header.
        version: u64,
    },
    /// A line that is not a recording line of a known kind.
    #[error("line {line} of the recording is malformed: {error}")]
    Malformed {
        /// Its line number, from 1.
        line: usize,
        /// What is wrong.
        error: String,
    },
    /// The last line stops mid-way: the bridge was stopped while writing it.
    #[error(
        "line {line}, the recording's last, is cut off (the bridge stopped while writing it); delete that line to use the rest"
    )]
    CutOff {
        /// Its line number, from 1.
        line: usize,
    },
}

fn readable_versions() -> String {
    READABLE_RECORDING_VERSIONS
        .iter()
        .map(u32::to_string)
        .collect::<Vec<_>>()
        .join(", ")
}

/// Writes a recording: the header first, then one line at a time, each with one
/// `write_all` and a flush (a crash loses at most the line being written).
#[derive(Debug)]
pub struct RecordingWriter<W: Write> {
    out: W,
    buffer: Vec<u8>,
}

impl RecordingWriter<std::fs::File> {
    /// Creates (or truncates) the file at `path`, its owner's alone
    /// ([`create_recording_file`]), and writes the header.
    ///
    /// # Errors
    /// When the file cannot be created or written.
    pub fn create(path: impl AsRef<Path>, header: &RecordingHeader) -> io::Result<Self> {
        RecordingWriter::new(create_recording_file(path)?, header)
    }
}

impl<W: Write> RecordingWriter<W> {
    /// Writes the header to `out`.
    ///
    /// # Errors
    /// When `out` refuses it.
    pub fn new(out: W, header: &RecordingHeader) -> io::Result<Self> {
        let mut writer = RecordingWriter {
            out,
            buffer: Vec::new(),
        };
        writer.write_value(header)?;
        Ok(writer)
    }

    /// Writes one line.
    ///
    /// # Errors
    /// When the underlying writer fails.
    pub fn write(&mut self, line: &RecordedLine) -> io::Result<()> {
        self.write_value(line)
    }

    fn write_value(&mut self, value: &impl Serialize) -> io::Result<()> {
        self.buffer.clear();
        serde_json::to_writer(&mut self.buffer, value)?;
        self.buffer.push(b'\n');
        self.out.write_all(&self.buffer)?;
        self.out.flush()
    }

    /// The underlying writer.
    pub fn into_inner(self) -> W {
        self.out
    }
}

#[cfg(test)]
mod tests;
