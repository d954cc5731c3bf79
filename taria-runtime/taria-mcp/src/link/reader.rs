//! The reader task of a connection: reads the app's lines (each capped at
//! `protocol::MAX_LINE_BYTES`), decodes them, and takes trees and patches into the mirror,
//! acks and screens into the connection; an ack this taria-mcp does not fully know is
//! still answered.

use std::sync::Arc;

use taria_schema::protocol;

use taria_schema::protocol::{AckStatus, AppMessage, BridgeMessage, ErrorCode, RejectReason};
use tokio::io::{AsyncBufRead, AsyncBufReadExt};

use super::Inner;
use super::connection::{Ack, Closed, Connection, Screen, Writer, write_message};
use super::mirror::Newest;

/// What the reader of one connection knows of it.
struct Reader {
    inner: Arc<Inner>,
    connection: Arc<Connection>,
    /// The app's label, from its hello.
    app: Option<String>,
}

impl Reader {
    /// Handles one message; returns whether the tree must be asked for again.
    fn handle(&mut self, message: AppMessage) -> bool {
        let generation = self.connection.generation();
        match message {
            AppMessage::Hello {
                v,
                app,
                pid,
                screens,
                logs,
                ..
            } => {
                tracing::info!(app, pid, v, logs, "app said hello");
                if v != protocol::PROTOCOL_VERSION {
                    tracing::warn!(
                        v,
                        "the app speaks another protocol version; inputs are refused"
                    );
                }
                self.connection.said_hello(v, logs);
                self.app = Some(app);
                if let Some(recorder) = &self.inner.recorder {
                    recorder.pushes_screens(generation, screens);
                }
            }
            AppMessage::Tree {
                revision,
                input,
                tree,
            } => {
                let noted = |newest: Newest<'_>, first| self.record_tree(newest, first);
                self.inner
                    .mirror
                    .take_tree(generation, (revision, input), tree, noted);
                tracing::trace!(target: crate::latency::TARGET, input, "tree");
            }
            AppMessage::Patch {
                revision,
                input,
                patch,
            } => {
                let noted = |newest: Newest<'_>, first| self.record_tree(newest, first);
                let taken =
                    self.inner
                        .mirror
                        .take_patch(generation, (revision, input), &patch, noted);
                if taken.is_err() {
                    tracing::warn!(revision, "a patch out of order; asking for the whole tree");
                    return true;
                }
                tracing::trace!(target: crate::latency::TARGET, input, "tree");
            }
            AppMessage::Ack {
                seq,
                status,
                reason,
                message,
            } => {
                tracing::trace!(target: crate::latency::TARGET, seq, "ack");
                self.answer(
                    seq,
                    Ack {
                        status: Ok(status),
                        reason,
                        unknown_reason: None,
                        message,
                    },
                );
            }
            AppMessage::Screen {
                revision,
                cols,
                rows,
                styles,
            } => {
                let revision = self.inner.mirror.revision_of(revision);
                if let Some(recorder) = &self.inner.recorder {
                    recorder.screen(generation, revision, rows.clone());
                }
                self.connection.screen(&Screen {
                    revision,
                    cols,
                    rows,
                    styles,
                });
            }
            AppMessage::Log { entry, dropped } => {
                // An app that ignores the log's limits (they are its `taria::logs`
                // layer's) cannot make the bridge keep more than 2,000 entries of them.
                let entry = entry.within_limits();
                if let Some(recorder) = &self.inner.recorder {
                    recorder.logged(generation, &entry);
                }
                self.inner.logs.push(generation, entry, dropped);
            }
            AppMessage::Error { code, message } => match code {
                ErrorCode::Busy => self.connection.refused(Closed::Busy(message)),
                ErrorCode::PermissionDenied => self.connection.refused(Closed::Refused(message)),
                other => tracing::warn!(?other, message, "the app reported a protocol error"),
            },
            other => tracing::debug!(?other, "ignored an app message of a newer kind"),
        }
        false
    }

    /// Tells the recording about the tree just taken (`first`: the connection's first).
    fn record_tree(&self, (revision, tree, stamp): Newest<'_>, first: bool) {
        if let Some(recorder) = &self.inner.recorder {
            let app = first.then(|| {
                let logs = self.connection.app_logs().unwrap_or(false);
                (self.app.as_deref().unwrap_or("app"), logs)
            });
            recorder.drew(self.connection.generation(), app, revision, stamp, tree);
        }
    }

    /// Hands `ack` to whoever waits for input `seq`; the recording notes it with the
    /// newest tree.
    fn answer(&self, seq: u64, ack: Ack) {
        let noted = |ack: &Ack| {
            if let Some(recorder) = &self.inner.recorder {
                self.inner.mirror.with_newest(|now| {
                    recorder.acked(self.connection.generation(), seq, ack.recorded(), now);
                });
            }
        };
        self.connection.answer(seq, ack, noted);
    }
}

/// Marks its connection down when its reader ends, however it ends: with `why` once
/// the reader set it, as [`Closed::Failed`] when it did not (it panicked), so the link
/// never looks connected with no one reading.
struct ReaderDown {
    inner: Arc<Inner>,
    generation: u64,
    why: Closed,
}

impl Drop for ReaderDown {
    fn drop(&mut self) {
        self.inner.disconnected(self.generation, self.why.clone());
    }
}

/// Reads the app's lines until the connection ends.
pub(super) async fn read_loop(
    inner: Arc<Inner>,
    connection: Arc<Connection>,
    mut lines: impl AsyncBufRead + Unpin,
    writer: Arc<Writer>,
) {
    let generation = connection.generation();
    let mut down = ReaderDown {
        inner: Arc::clone(&inner),
        generation,
        why: Closed::Failed,
    };
    let mut reader = Reader {
        inner,
        connection,
        app: None,
    };
    let mut line = Vec::new();
    loop {
        match read_line(&mut lines, &mut line).await {
            Ok(Line::Complete) => {}
            Ok(Line::TooLong) => {
                tracing::warn!(
                    "skipped an app line over {} bytes",
                    protocol::MAX_LINE_BYTES
                );
                continue;
            }
            Ok(Line::End) => break,
            Err(e) => {
                tracing::debug!(error = %e, "reading from the app failed");
                break;
            }
        }
        if line.iter().all(u8::is_ascii_whitespace) {
            continue;
        }
        // A panic on what the app sent (a bug) must not leave the link looking
        // connected: the connection is dropped, and the next call reconnects.
        let taken = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| reader.take(&line)));
        let Ok(ask_tree) = taken else {
            tracing::error!(
                "taria-mcp failed on a line from the app (a bug in taria-mcp: please report it \
                 with this log); dropping the connection"
            );
            return;
        };
        if ask_tree
            && let Err(e) = write_message(&writer, &BridgeMessage::GetTree {}, || true).await
        {
            if e.kind() == std::io::ErrorKind::TimedOut {
                down.why = Closed::Stalled;
                reader.inner.stalled(generation);
                return;
            }
            break;
        }
    }
    down.why = Closed::Exited;
}

impl Reader {
    /// Decodes and handles one line from the app; returns whether the tree must be
    /// asked for again.
    fn take(&mut self, line: &[u8]) -> bool {
        match serde_json::from_slice::<AppMessage>(line) {
            Ok(message) => self.handle(message),
            Err(e) => {
                if let Some((seq, ack)) = loose_ack(line) {
                    tracing::warn!(
                        seq,
                        error = %e,
                        "an ack this taria-mcp does not fully know; answering it as such"
                    );
                    self.answer(seq, ack);
                } else {
                    tracing::warn!(error = %e, "skipped an app line that is not a known message");
                }
                false
            }
        }
    }
}

/// The longest status or reason text from the app kept for a message.
const UNKNOWN_TEXT_MAX: usize = 64;

/// An `ack` line that does not decode as [`AppMessage::Ack`] because its `status` or
/// `reason` is one this taria-mcp does not know (a newer or faulty app): its `seq`,
/// and the ack with the unknown text kept, so the input is answered as what it is
/// rather than left to time out.
fn loose_ack(line: &[u8]) -> Option<(u64, Ack)> {
    let serde_json::Value::Object(object) = serde_json::from_slice(line).ok()? else {
        return None;
    };
    if object.get("type")?.as_str()? != "ack" {
        return None;
    }
    let seq = object.get("seq")?.as_u64()?;
    let text = |value: &serde_json::Value| {
        let text = match value {
            serde_json::Value::String(s) => s.clone(),
            other => other.to_string(),
        };
        text.chars().take(UNKNOWN_TEXT_MAX).collect::<String>()
    };
    let status = match object.get("status") {
        Some(value) => serde_json::from_value::<AckStatus>(value.clone()).map_err(|_| text(value)),
        None => Err("(none)".to_owned()),
    };
    let (reason, unknown_reason) = match object.get("reason") {
        None | Some(serde_json::Value::Null) => (None, None),
        Some(value) => match serde_json::from_value::<RejectReason>(value.clone()) {
            Ok(reason) => (Some(reason), None),
            Err(_) => (None, Some(text(value))),
        },
    };
    let message = object
        .get("message")
        .and_then(serde_json::Value::as_str)
        .map(str::to_owned);
    Some((
        seq,
        Ack {
            status,
            reason,
            unknown_reason,
            message,
        },
    ))
}

enum Line {
    Complete,
    TooLong,
    End,
}

/// Reads one line into `line` (without the newline), capped at [`protocol::MAX_LINE_BYTES`]:
/// a longer line is skipped whole. A partial last line is discarded.
async fn read_line(
    reader: &mut (impl AsyncBufRead + Unpin),
    line: &mut Vec<u8>,
) -> std::io::Result<Line> {
    line.clear();
    let mut too_long = false;
    loop {
        let available = reader.fill_buf().await?;
        if available.is_empty() {
            return Ok(Line::End);
        }
        let (chunk, used, done) = match available.iter().position(|b| *b == b'\n') {
            Some(i) => (&available[..i], i + 1, true),
            None => (available, available.len(), false),
        };
        if !too_long {
            if line.len() + chunk.len() > protocol::MAX_LINE_BYTES {
                too_long = true;
                line.clear();
            } else {
                line.extend_from_slice(chunk);
            }
        }
        reader.consume(used);
        if done {
            return Ok(if too_long {
                Line::TooLong
            } else {
                Line::Complete
            });
        }
    }
}

#[cfg(all(test, unix))]
mod tests {
    use std::io::Write as _;
    use std::time::{Duration, Instant};

    use taria_schema::protocol::Input;
    use tokio::io::BufReader;

    use super::*;
    use crate::errors::Code;
    use crate::limits::ACK_TIMEOUT;
    use crate::link::{Activity, Inputs, Link, Target};
    use crate::lock::lock;

    /// A reader whose input panics (as a bug on an app's line would).
    struct Panics;

    impl tokio::io::AsyncRead for Panics {
        fn poll_read(
            self: std::pin::Pin<&mut Self>,
            _: &mut std::task::Context<'_>,
            _: &mut tokio::io::ReadBuf<'_>,
        ) -> std::task::Poll<std::io::Result<()>> {
            panic!("a bug met on the app's line");
        }
    }

    /// Issue 11.2: a reader task that panics marks its connection down, so the link
    /// does not look connected with a frozen tree, and a waiting input hears why at
    /// once instead of timing out.
    #[tokio::test]
    async fn a_reader_that_panics_marks_the_link_down() {
        let dir = std::env::temp_dir().join(format!("taria-link-test-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let socket = dir.join("app.sock");
        let listener = std::os::unix::net::UnixListener::bind(&socket).unwrap();
        std::thread::spawn(move || {
            let (mut stream, _) = listener.accept().unwrap();
            let tree = r#"{"type":"tree","revision":1,"input":0,"tree":{"frame":1,"roots":[]}}"#;
            writeln!(
                stream,
                r#"{{"type":"hello","v":1,"app":"fake","pid":1,"taria":"0"}}"#
            )
            .unwrap();
            writeln!(stream, "{tree}").unwrap();
            // Held open, never answering.
            std::thread::sleep(Duration::from_secs(30));
        });
        let link = Link::new(Target::Attach(socket), None, Activity::default(), None);
        let inputs = Inputs::new(link.clone());
        link.ensure_connected().await.unwrap();
        let mut sent = inputs
            .send(
                Input::Key { key: "a".into() },
                None,
                std::time::Instant::now(),
            )
            .await
            .unwrap();
        // A second reader on the connection, one that panics.
        let connection = link.open().unwrap();
        let writer = connection.writer().unwrap();
        let reader = tokio::spawn(read_loop(
            Arc::clone(&link.inner),
            connection,
            BufReader::new(Panics),
            writer,
        ));
        assert!(reader.await.unwrap_err().is_panic());
        assert!(!link.is_connected(), "the link is marked down");
        assert_eq!(link.mirror().revision(), 1);
        assert!(link.mirror().view().is_none(), "no frozen tree");
        assert_eq!(lock(&link.inner.state).closed, Some(Closed::Failed));
        let started = Instant::now();
        let error = inputs.ack(&mut sent).await.unwrap_err();
        assert!(
            started.elapsed() < ACK_TIMEOUT,
            "the waiting input heard at once"
        );
        assert_eq!(error.code, Code::AppNotConnected, "{}", error.message);
        let _ = std::fs::remove_dir_all(&dir);
    }
}
