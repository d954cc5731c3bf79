//! One bridge connection: a reader thread that parses lines and queues inputs, and
//! a writer thread that sends acks, trees, patches and screens.

use std::io::{BufReader, BufWriter, Write as _};
use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::Duration;

use interprocess::local_socket::Stream;
use interprocess::local_socket::traits::Stream as _;

use super::line::{Line, LineReader};
use super::{PublishedFrame, QueuedInput, ScreenWanted, Shared};
use crate::logs::Waiting;
use crate::recorder::FrameArena;
use taria_schema::Tree;
use taria_schema::protocol::{
    AckStatus, AppMessage, BridgeMessage, ErrorCode, INPUT_QUEUE_CAPACITY, Input, KeyChord,
    MAX_LINE_BYTES, MAX_TEXT_CHARS, PROTOCOL_VERSION, RejectReason,
};

/// How long a write may block before the client is considered stalled and dropped.
pub(crate) const SEND_TIMEOUT: Duration = Duration::from_secs(5);
/// How long a new client waits for a closing connection before it is refused as busy.
const BUSY_GRACE: Duration = Duration::from_millis(250);
/// How often a blocked reader checks whether its connection was closed.
const RECV_POLL: Duration = Duration::from_millis(50);

pub(super) fn serve(stream: Stream, shared: &Arc<Shared>) {
    if let Err(reason) = check_peer(&stream) {
        refuse(&stream, ErrorCode::PermissionDenied, &reason);
        return;
    }
    let connection = {
        let mut state = shared.lock();
        // A connection that just closed (such as another app probing whether this
        // label is in use) may not have been noticed yet: give it a moment.
        let deadline = std::time::Instant::now() + BUSY_GRACE;
        while state.connection != 0 && std::time::Instant::now() < deadline {
            state = shared
                .writer
                .wait_timeout(state, Duration::from_millis(10))
                .map_or_else(|e| e.into_inner().0, |r| r.0);
        }
        if state.connection != 0 {
            drop(state);
            refuse(
                &stream,
                ErrorCode::Busy,
                "another client is connected to this app; try again when it disconnects",
            );
            return;
        }
        let id = shared.next_connection.fetch_add(1, Ordering::Relaxed);
        state.connection = id;
        state.inbox.clear();
        state.outbox.clear();
        state.want_tree = true;
        state.want_screen = ScreenWanted::No;
        state.push_screens = ScreenWanted::No;
        state.logs_ready = false;
        state.frame.fresh = false;
        state.frame.any = false;
        shared.live.store(id, Ordering::Release);
        id
    };
    // Wake the app so it draws a recorded frame for the new client.
    shared.signal.poke();
    tracing::info!(connection, "taria bridge connected");

    let stream = Arc::new(stream);
    let spawned = {
        let (stream, shared) = (Arc::clone(&stream), Arc::clone(shared));
        std::thread::Builder::new()
            .name("taria-endpoint-writer".into())
            .spawn(move || {
                if let Err(error) = write_loop(&stream, &shared, connection) {
                    tracing::debug!(%error, connection, "taria bridge write failed");
                }
                disconnect(&shared, connection);
            })
    }
    .and_then(|_| {
        let (stream, shared) = (Arc::clone(&stream), Arc::clone(shared));
        std::thread::Builder::new()
            .name("taria-endpoint-reader".into())
            .spawn(move || {
                read_loop(&stream, &shared, connection);
                disconnect(&shared, connection);
            })
    });
    if let Err(error) = spawned {
        tracing::warn!(%error, "taria endpoint: cannot start connection threads");
        disconnect(shared, connection);
    }
}

/// Ends `connection` if it is still current: its queued inputs are discarded.
fn disconnect(shared: &Shared, connection: u64) {
    {
        let mut state = shared.lock();
        if state.connection != connection {
            return;
        }
        state.connection = 0;
        state.inbox.clear();
        state.outbox.clear();
        state.want_tree = false;
        state.want_screen = ScreenWanted::No;
        state.push_screens = ScreenWanted::No;
        // Under the lock, so a new connection's number cannot be overwritten.
        shared.live.store(0, Ordering::Release);
    }
    if let Some(logs) = &shared.logs {
        logs.close(connection);
    }
    shared.writer.notify_all();
    shared.signal.poke();
    tracing::info!(connection, "taria bridge disconnected");
}

fn refuse(stream: &Stream, code: ErrorCode, message: &str) {
    let _ = stream.set_send_timeout(Some(Duration::from_secs(1)));
    let error = AppMessage::Error {
        code,
        message: message.to_owned(),
    };
    if let Ok(mut line) = serde_json::to_vec(&error) {
        line.push(b'\n');
        let _ = (&*stream).write_all(&line);
    }
}

#[cfg(unix)]
fn check_peer(stream: &Stream) -> Result<(), String> {
    use interprocess::local_socket::traits::StreamCommon as _;
    let me = taria_schema::socket::user_id();
    match stream.peer_creds().ok().and_then(|c| c.euid()) {
        Some(uid) if uid != me => Err(format!(
            "this app runs as uid {me}; connections from uid {uid} are refused"
        )),
        _ => Ok(()),
    }
}

#[cfg(not(unix))]
#[expect(
    clippy::unnecessary_wraps,
    reason = "the Unix check's signature; a named pipe has no peer credentials here, its ACL decides who connects"
)]
fn check_peer(_: &Stream) -> Result<(), String> {
    Ok(())
}

fn read_loop(stream: &Stream, shared: &Arc<Shared>, connection: u64) {
    let _ = stream.set_recv_timeout(Some(RECV_POLL));
    let mut reader = BufReader::new(stream);
    let mut lines = LineReader::new(MAX_LINE_BYTES);
    loop {
        match lines.read(&mut reader) {
            Ok(Line::Complete) => handle_line(lines.line(), shared, connection),
            Ok(Line::TooLong) => shared.send(
                connection,
                AppMessage::Error {
                    code: ErrorCode::LineTooLong,
                    message: format!(
                        "a line was longer than {MAX_LINE_BYTES} bytes and was skipped"
                    ),
                },
            ),
            Ok(Line::Eof) => return,
            Err(e)
                if matches!(
                    e.kind(),
                    std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut
                ) =>
            {
                if shared.lock().connection != connection {
                    return;
                }
                continue;
            }
            Err(error) => {
                tracing::debug!(%error, "taria bridge read failed");
                return;
            }
        }
        lines.clear();
    }
}

const KNOWN_TYPES: &[&str] = &["hello", "input", "get_tree", "get_screen"];

fn handle_line(bytes: &[u8], shared: &Arc<Shared>, connection: u64) {
    let error =
        |code, message: String| shared.send(connection, AppMessage::Error { code, message });
    let Ok(text) = std::str::from_utf8(bytes) else {
        return error(
            ErrorCode::InvalidUtf8,
            "a line was not valid UTF-8 and was skipped".into(),
        );
    };
    if text.trim().is_empty() {
        return;
    }
    let message = match serde_json::from_str::<BridgeMessage>(text) {
        Ok(message) => message,
        Err(parse_error) => {
            let kind = serde_json::from_str::<serde_json::Value>(text)
                .ok()
                .and_then(|v| v.get("type").and_then(|t| t.as_str()).map(str::to_owned));
            return match kind {
                Some(kind) if !KNOWN_TYPES.contains(&kind.as_str()) => error(
                    ErrorCode::UnknownType,
                    format!(
                        "unknown message type {kind:?}; this app speaks protocol v{PROTOCOL_VERSION}: {}",
                        KNOWN_TYPES.join(", ")
                    ),
                ),
                _ => error(
                    ErrorCode::MalformedJson,
                    format!("could not read the line: {parse_error}"),
                ),
            };
        }
    };
    match message {
        BridgeMessage::Hello {
            v,
            client,
            screens,
            logs,
        } => {
            tracing::debug!(v, client, screens, logs, "taria bridge hello");
            if logs {
                send_logs(shared, connection);
            }
            if screens {
                let mut state = shared.lock();
                state.push_screens = ScreenWanted::Text;
                state.want_screen = state.want_screen.max(ScreenWanted::Text);
                drop(state);
                shared.writer.notify_all();
            }
        }
        BridgeMessage::Input { seq, input } => queue_input(shared, connection, seq, input),
        BridgeMessage::GetTree {} => {
            shared.lock().want_tree = true;
            shared.writer.notify_all();
        }
        BridgeMessage::GetScreen { styles } => {
            let asked = if styles {
                ScreenWanted::Styled
            } else {
                ScreenWanted::Text
            };
            let mut state = shared.lock();
            state.want_screen = state.want_screen.max(asked);
            drop(state);
            shared.writer.notify_all();
        }
    }
}

/// Opens the app's log sink for `connection` (if the app has one): its entries are
/// sent from now on, each waking the writer.
fn send_logs(shared: &Arc<Shared>, connection: u64) {
    let Some(logs) = &shared.logs else {
        return;
    };
    let weak = Arc::downgrade(shared);
    let wake = move || {
        if let Some(shared) = weak.upgrade() {
            shared.lock().logs_ready = true;
            shared.writer.notify_all();
        }
    };
    logs.open(connection, Some(Arc::new(wake)));
    // The connection may have ended meanwhile: then nothing is kept for it.
    if shared.lock().connection != connection {
        logs.close(connection);
    }
}

fn queue_input(shared: &Shared, connection: u64, seq: u64, input: Input) {
    let reject = |message: String| AppMessage::Ack {
        seq,
        status: AckStatus::Rejected,
        reason: Some(RejectReason::InvalidInput),
        message: Some(message),
    };
    match &input {
        Input::Key { key } => {
            if let Err(e) = key.parse::<KeyChord>() {
                return shared.send(connection, reject(e.to_string()));
            }
        }
        Input::Text { text, .. } if text.chars().count() > MAX_TEXT_CHARS => {
            return shared.send(
                connection,
                reject(format!(
                    "text is longer than {MAX_TEXT_CHARS} characters; send it in parts"
                )),
            );
        }
        _ => {}
    }
    let mut state = shared.lock();
    if state.connection != connection {
        return;
    }
    if state.inbox.len() >= INPUT_QUEUE_CAPACITY {
        state.outbox.push_back(AppMessage::Ack {
            seq,
            status: AckStatus::Dropped,
            reason: Some(RejectReason::QueueFull),
            message: Some(format!(
                "the app has {INPUT_QUEUE_CAPACITY} inputs waiting; wait for their acks and retry"
            )),
        });
        shared.writer.notify_all();
        return;
    }
    state.inbox.push_back(QueuedInput {
        connection,
        seq,
        input,
    });
    drop(state);
    shared.signal.poke();
    tracing::trace!(target: super::LATENCY, seq, "input queued");
}

/// What the writer takes from the shared state in one turn.
#[derive(Default)]
struct Turn {
    outbox: std::collections::VecDeque<AppMessage>,
    /// The app is ending: this is the last turn.
    last: bool,
    frame: bool,
    want_tree: bool,
    want_screen: ScreenWanted,
    /// The screen to send after each tree and patch.
    push_screens: ScreenWanted,
}

fn write_loop(stream: &Stream, shared: &Shared, connection: u64) -> std::io::Result<()> {
    // Named pipes (Windows) have no send timeout: there a stalled bridge blocks this
    // thread until it reads again, and never the app's own thread.
    match stream.set_send_timeout(Some(SEND_TIMEOUT)) {
        Err(e) if e.kind() == std::io::ErrorKind::Unsupported => {}
        other => other?,
    }
    let mut out = BufWriter::new(stream);
    let hello = AppMessage::Hello {
        v: PROTOCOL_VERSION,
        app: shared.label.clone(),
        pid: std::process::id(),
        taria: env!("CARGO_PKG_VERSION").to_owned(),
        screens: true,
        logs: shared.logs.is_some(),
    };
    write_message(&mut out, &hello)?;
    out.flush()?;

    let mut working = PublishedFrame::default();
    let mut trees = Trees::default();
    let mut turn = Turn::default();
    let mut logs = Vec::new();
    // A tree or patch went out without the screen drawn with it (screens were not
    // pushed yet): it goes before the next frame replaces `working`'s buffer.
    let mut unscreened = false;
    loop {
        let sent = Sent {
            tree: trees.last.is_some(),
            unscreened,
        };
        if !take_turn(shared, connection, &mut turn, &mut working, sent) {
            return Ok(());
        }
        // Taken after the turn's acks and frame: an entry logged before either was
        // queued is in the sink now, and goes out before it.
        if let Some(sink) = &shared.logs {
            sink.take(connection, &mut logs);
        }
        for Waiting { entry, dropped } in logs.drain(..) {
            write_message(&mut out, &AppMessage::Log { entry, dropped })?;
        }
        for message in turn.outbox.drain(..) {
            write_message(&mut out, &message)?;
        }
        if turn.last {
            out.flush()?;
            shared.lock().flushed = true;
            shared.writer.notify_all();
            return Ok(());
        }
        let message = if turn.frame {
            trees.take_frame(&mut working, turn.want_tree)
        } else if turn.want_tree {
            trees.whole()
        } else {
            None
        };
        if let Some(message) = message {
            write_message(&mut out, &message)?;
            unscreened = true;
            turn.want_screen = turn.want_screen.max(turn.push_screens);
        }
        if turn.want_screen != ScreenWanted::No {
            write_screen(&mut out, &working.buffer, trees.revision, turn.want_screen)?;
            unscreened = false;
        }
        out.flush()?;
        if turn.frame {
            tracing::trace!(target: super::LATENCY, input = trees.input, "frame sent");
        }
    }
}

/// The trees the writer has sent on its connection: the last one, and what comes
/// next against it.
#[derive(Default)]
struct Trees {
    /// The last tree sent (or patched to).
    last: Option<Tree>,
    /// The arena `last` was built from.
    arena: FrameArena,
    /// The last input `last` shows.
    input: u64,
    /// The last revision sent.
    revision: u64,
}

impl Trees {
    /// The message for the frame just taken into `working` (the whole tree when
    /// `want_tree` or none was sent yet, else a patch; `None` when the patch would be
    /// empty and the stamp did not move); `last` becomes the frame's tree.
    fn take_frame(&mut self, working: &mut PublishedFrame, want_tree: bool) -> Option<AppMessage> {
        if !want_tree
            && working.input == self.input
            && let Some(last) = &mut self.last
            && working.arena.same_tree(&self.arena)
        {
            // Redrawn, and nothing recorded changed (the loop turned to see a handler's
            // change it had drawn): the patch would be empty, so none is built.
            last.frame = working.arena.frame;
            return None;
        }
        let tree = working.arena.to_tree();
        let message = match &self.last {
            Some(previous) if !want_tree => {
                let patch = tree.diff(previous);
                (!patch.is_empty() || working.input != self.input).then(|| {
                    self.revision += 1;
                    AppMessage::Patch {
                        revision: self.revision,
                        input: working.input,
                        patch,
                    }
                })
            }
            _ => {
                self.revision += 1;
                Some(AppMessage::Tree {
                    revision: self.revision,
                    input: working.input,
                    tree: tree.clone(),
                })
            }
        };
        self.last = Some(tree);
        self.input = working.input;
        // `working`'s arena is replaced when the next frame is taken.
        std::mem::swap(&mut self.arena, &mut working.arena);
        message
    }

    /// The last tree again, whole (a `get_tree` with no new frame); `None` before the
    /// first.
    fn whole(&mut self) -> Option<AppMessage> {
        let tree = self.last.as_ref()?;
        self.revision += 1;
        Some(AppMessage::Tree {
            revision: self.revision,
            input: self.input,
            tree: tree.clone(),
        })
    }
}

/// What the writer has sent on its connection, as [`take_turn`] needs it.
#[derive(Clone, Copy)]
struct Sent {
    /// A tree: patches and the whole tree again can follow.
    tree: bool,
    /// The last tree or patch went without its screen.
    unscreened: bool,
}

/// Waits for something to send on `connection` and takes it into `turn` (the frame
/// into `working`). Returns `false` when the connection is over.
///
/// Once screens are pushed, a tree sent before they were (the bridge's hello came
/// after the app's first frame) gets its screen in a turn of its own, before a new
/// frame is taken: the bridge pairs each tree with the screen drawn with it, and a
/// screen of a later frame would leave that tree without one.
fn take_turn(
    shared: &Shared,
    connection: u64,
    turn: &mut Turn,
    working: &mut PublishedFrame,
    sent: Sent,
) -> bool {
    let have_tree = sent.tree;
    let mut state = shared.lock();
    loop {
        if state.connection != connection {
            return false;
        }
        if state.shutdown {
            // The app is ending: send what is queued (acks), then stop.
            std::mem::swap(&mut turn.outbox, &mut state.outbox);
            turn.last = true;
            return true;
        }
        let tree_ready = state.want_tree && (state.frame.fresh || have_tree);
        if !state.outbox.is_empty()
            || state.frame.fresh
            || tree_ready
            || state.want_screen != ScreenWanted::No
            || state.logs_ready
        {
            break;
        }
        state = shared
            .writer
            .wait(state)
            .unwrap_or_else(std::sync::PoisonError::into_inner);
    }
    std::mem::swap(&mut turn.outbox, &mut state.outbox);
    state.logs_ready = false;
    turn.push_screens = state.push_screens;
    if have_tree && sent.unscreened && turn.push_screens != ScreenWanted::No {
        // The sent tree's screen first; the new frame (and a tree asked for) next turn.
        turn.frame = false;
        turn.want_tree = false;
        turn.want_screen = std::mem::take(&mut state.want_screen).max(turn.push_screens);
        return true;
    }
    turn.frame = std::mem::take(&mut state.frame.fresh);
    if turn.frame {
        // Copied, not swapped: the shared arena stays the last one published, which
        // the app compares the next frame with (`Socket::publish`).
        working.arena.copy_from(&state.frame.arena);
        std::mem::swap(&mut working.buffer, &mut state.frame.buffer);
        working.input = state.frame.input;
    }
    turn.want_tree = state.want_tree && (turn.frame || have_tree);
    if turn.want_tree {
        state.want_tree = false;
    }
    turn.want_screen = std::mem::take(&mut state.want_screen);
    true
}

/// Sends the screen of the last frame taken; with its styles when they were asked for
/// and the line stays within [`MAX_LINE_BYTES`] with them (a huge, many-coloured
/// screen goes as text alone, which the bridge shows without colours).
fn write_screen(
    out: &mut impl std::io::Write,
    buffer: &ratatui::buffer::Buffer,
    revision: u64,
    wanted: ScreenWanted,
) -> std::io::Result<()> {
    let mut message = AppMessage::Screen {
        revision,
        cols: buffer.area.width,
        rows: super::screen_text(buffer),
        styles: (wanted == ScreenWanted::Styled).then(|| super::screen_styles(buffer)),
    };
    let mut line = serde_json::to_vec(&message).map_err(std::io::Error::other)?;
    if line.len() > MAX_LINE_BYTES
        && let AppMessage::Screen { styles, .. } = &mut message
        && styles.take().is_some()
    {
        line = serde_json::to_vec(&message).map_err(std::io::Error::other)?;
    }
    line.push(b'\n');
    out.write_all(&line)
}

fn write_message(out: &mut impl std::io::Write, message: &AppMessage) -> std::io::Result<()> {
    serde_json::to_writer(&mut *out, message).map_err(std::io::Error::other)?;
    out.write_all(b"\n")
}
