//! The page's live feed, a WebSocket of JSON messages from the bridge, each tagged on
//! `type` (the page skips types it does not know):
//!
//! * `hello`: `mode` (`live`, or `view` for `taria-mcp view FILE`: nothing follows),
//!   `bridge` (name and version);
//! * `link`: `connected`, and `note`, why there is no app when there is none;
//! * `tree`: `revision`, `entries` (the outline, [`Entry`]);
//! * `screen`: the screen with its colours ([`PageScreen`]);
//! * `input`: an input call the bridge answered ([`InputMessage`]);
//! * `log`: an entry of the app's log ([`LogMessage`]);
//! * `missed`: `what` (`inputs` or `logs`), `count`: entries the bridge no longer
//!   kept when the page read (it keeps the newest 1,000 inputs and 2,000 log
//!   entries).
//!
//! The feed only watches: what the page sends is read and dropped, and nothing from
//! it reaches the app. A page that reads slowly gets the newest tree and screen, not
//! a backlog.

use std::sync::{Arc, Mutex};

use axum::extract::ws::{Message, WebSocket};
use serde::Serialize;

use super::live_screen::{PageScreen, Screens};
use super::outline::{Entry, entries};
use crate::input_log::{InputLog, InputRecord};
use crate::journal::{Numbered, Page};
use crate::link::{Link, Standing};
use crate::lock::lock;
use crate::logs::LogLine;
use taria_schema::protocol::LogLevel;

/// How often a feed looks again at how the link stands, between trees.
const STANDING_RECHECK: std::time::Duration = std::time::Duration::from_secs(1);

/// The largest message a page may send (it has nothing to say; this bounds what a
/// misbehaving one costs).
pub(super) const MAX_PAGE_MESSAGE: usize = 4096;

/// The newest tree's feed message, with its revision.
type TreeMessage = Option<(u64, Arc<str>)>;

/// How many entries of each log a page is sent when it opens (and at most per read
/// after).
const BACKLOG: usize = 500;

/// What the live pages share: the app's link, its screens, the tree's outline as
/// last sent, the input calls answered.
#[derive(Clone)]
pub(super) struct Live {
    link: Link,
    screens: Screens,
    inputs: InputLog,
    /// The newest tree's message, by revision: worked out once for every page.
    tree: Arc<Mutex<TreeMessage>>,
}

/// One message of the feed.
#[derive(Serialize)]
#[serde(tag = "type", rename_all = "camelCase")]
enum Feed<'a> {
    Hello {
        mode: &'static str,
        bridge: String,
    },
    Link {
        connected: bool,
        #[serde(skip_serializing_if = "Option::is_none")]
        note: Option<String>,
    },
    Tree {
        revision: u64,
        entries: &'a [Entry],
    },
    Screen(&'a PageScreen),
    Input(InputMessage<'a>),
    Log(LogMessage<'a>),
    Missed {
        what: &'static str,
        count: u64,
    },
}

/// An input call, for the page's input log.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub(super) struct InputMessage<'a> {
    /// Its number in the input log (1 for the session's first call).
    number: u64,
    /// The tool (`act`, `press_key`, `batch`, `resize`, …).
    tool: &'a str,
    /// The `seq` of each input it sent, in order (none when refused before sending).
    seqs: Vec<u64>,
    /// The app's answer (`delivered`, …), or the error's code.
    status: &'a str,
    /// Whether it failed.
    failed: bool,
    /// The ids of the nodes its input changed.
    changed: &'a [String],
    /// What the agent read (app text escaped as the outline escapes it).
    text: &'a str,
    /// When its handler started, in milliseconds since the Unix epoch.
    started_ms: u128,
    /// From its handler's start to its answer, in milliseconds.
    latency_ms: f64,
}

impl<'a> InputMessage<'a> {
    fn new(Numbered { number, entry }: &'a Numbered<InputRecord>) -> InputMessage<'a> {
        InputMessage {
            number: *number,
            tool: &entry.tool,
            seqs: entry.inputs.iter().map(|id| id.seq).collect(),
            status: &entry.status,
            failed: entry.failed,
            changed: &entry.changed_ids,
            text: &entry.text,
            started_ms: entry
                .started
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(0, |d| d.as_millis()),
            latency_ms: (entry.latency.as_secs_f64() * 1e4).round() / 10.0,
        }
    }
}

/// An entry of the app's log, for the page.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub(super) struct LogMessage<'a> {
    /// Its number in the bridge's log (1 for the session's first).
    number: u64,
    /// `error`, `warn`, `info`, `debug` or `trace`.
    level: &'static str,
    /// Where it was logged (app text).
    target: &'a str,
    /// What it says (app text).
    message: &'a str,
    /// Its other fields (app text).
    fields: &'a serde_json::Map<String, serde_json::Value>,
    /// The `seq` of the newest input the app had taken when it logged this (0: none).
    input: u64,
    /// Entries the app dropped just before this one.
    dropped: u64,
}

impl<'a> LogMessage<'a> {
    fn new(Numbered { number, entry }: &'a Numbered<LogLine>) -> LogMessage<'a> {
        LogMessage {
            number: *number,
            level: entry.entry.level.name(),
            target: &entry.entry.target,
            message: &entry.entry.message,
            fields: &entry.entry.fields,
            input: entry.entry.input,
            dropped: entry.dropped_before,
        }
    }
}

impl Feed<'_> {
    fn text(&self) -> Message {
        // Serializing these types cannot fail (string keys, no maps of other keys).
        Message::text(serde_json::to_string(self).unwrap_or_default())
    }
}

/// The first message of every feed.
fn hello(mode: &'static str) -> Message {
    Feed::Hello {
        mode,
        bridge: format!("taria-mcp {}", env!("CARGO_PKG_VERSION")),
    }
    .text()
}

impl Live {
    /// The feed of `link`'s app and of the input calls in `inputs`.
    pub(super) fn new(link: Link, inputs: InputLog) -> Live {
        Live {
            screens: Screens::follow(link.clone()),
            link,
            inputs,
            tree: Arc::default(),
        }
    }

    /// The newest tree's message, and its revision, while the app is connected.
    fn tree_message(&self) -> TreeMessage {
        let view = self.link.mirror().view()?;
        let mut cached = lock(&self.tree);
        if let Some((revision, text)) = cached.as_ref()
            && *revision == view.revision
        {
            return Some((*revision, Arc::clone(text)));
        }
        let entries = entries(&view.tree);
        let message = Feed::Tree {
            revision: view.revision,
            entries: &entries,
        };
        let text: Arc<str> = serde_json::to_string(&message).unwrap_or_default().into();
        *cached = Some((view.revision, Arc::clone(&text)));
        Some((view.revision, text))
    }

    /// Feeds one page until it goes.
    pub(super) async fn feed(self, mut socket: WebSocket) {
        if socket.send(hello("live")).await.is_err() {
            return;
        }
        let mut trees = self.link.mirror().changes();
        trees.mark_changed();
        let mut screens = self.screens.watch();
        // How the link stands can change with no tree (a spawned app's exit status
        // comes a moment after its connection closed).
        let mut recheck = tokio::time::interval(STANDING_RECHECK);
        let (mut sent_revision, mut sent_standing) = (None, None);
        let (mut inputs, mut logs) = (self.inputs.subscribe(), self.link.logs().subscribe());
        inputs.mark_changed();
        logs.mark_changed();
        // The newest of each log the page has, starting a backlog ago.
        let mut inputs_read = self.inputs.newest().saturating_sub(BACKLOG as u64);
        let mut logs_read = self.link.logs().newest().saturating_sub(BACKLOG as u64);
        loop {
            let message = tokio::select! {
                taken = trees.changed() => {
                    if taken.is_err() {
                        return;
                    }
                    let standing = self.link.standing();
                    if sent_standing.as_ref() != Some(&standing) {
                        if socket.send(link_message(&standing)).await.is_err() {
                            return;
                        }
                        sent_standing = Some(standing);
                    }
                    match self.tree_message() {
                        Some((revision, text)) if sent_revision != Some(revision) => {
                            sent_revision = Some(revision);
                            Message::text(&*text)
                        }
                        _ => continue,
                    }
                }
                drawn = screens.changed() => {
                    if drawn.is_err() {
                        return;
                    }
                    let screen = screens.borrow_and_update().clone();
                    match screen {
                        Some(screen) => Feed::Screen(&screen).text(),
                        None => continue,
                    }
                }
                _ = recheck.tick() => {
                    let standing = self.link.standing();
                    if sent_standing.as_ref() == Some(&standing) {
                        continue;
                    }
                    let message = link_message(&standing);
                    sent_standing = Some(standing);
                    message
                }
                answered = inputs.changed() => {
                    if answered.is_err() {
                        return;
                    }
                    let page = self.inputs.read(inputs_read, BACKLOG, |_| true);
                    inputs_read = page.next;
                    if send_page(&mut socket, "inputs", &page, |e| Feed::Input(InputMessage::new(e)))
                        .await
                        .is_err()
                    {
                        return;
                    }
                    if page.more {
                        inputs.mark_changed();
                    }
                    continue;
                }
                logged = logs.changed() => {
                    if logged.is_err() {
                        return;
                    }
                    let page = self.link.logs().read(logs_read, LogLevel::Trace, BACKLOG);
                    logs_read = page.next;
                    if send_page(&mut socket, "logs", &page, |e| Feed::Log(LogMessage::new(e)))
                        .await
                        .is_err()
                    {
                        return;
                    }
                    if page.more {
                        logs.mark_changed();
                    }
                    continue;
                }
                received = socket.recv() => match received {
                    // Read and dropped: the inspector only watches.
                    Some(Ok(Message::Close(_)) | Err(_)) | None => return,
                    Some(Ok(_)) => continue,
                },
            };
            if socket.send(message).await.is_err() {
                return;
            }
        }
    }
}

/// Feeds a page of `taria-mcp view`: its hello, then nothing; the page reads the
/// recording.
pub(super) async fn feed_viewer(mut socket: WebSocket) {
    if socket.send(hello("view")).await.is_err() {
        return;
    }
    while let Some(Ok(message)) = socket.recv().await {
        if matches!(message, Message::Close(_)) {
            return;
        }
    }
}

/// Sends what a page of a log holds: how many entries it missed, then each entry.
async fn send_page<T>(
    socket: &mut WebSocket,
    what: &'static str,
    page: &Page<T>,
    message: impl for<'e> Fn(&'e Numbered<T>) -> Feed<'e>,
) -> Result<(), axum::Error> {
    if page.missed > 0 {
        let missed = Feed::Missed {
            what,
            count: page.missed,
        };
        socket.send(missed.text()).await?;
    }
    for entry in &page.entries {
        socket.send(message(entry).text()).await?;
    }
    Ok(())
}

fn link_message(standing: &Standing) -> Message {
    let (connected, note) = match standing {
        Standing::Connected => (true, None),
        Standing::NotYet => (
            false,
            Some(
                "not connected to the app yet: taria-mcp attaches on the agent's first tool call"
                    .to_owned(),
            ),
        ),
        Standing::Gone(why) => (false, Some(why.clone())),
    };
    Feed::Link { connected, note }.text()
}
