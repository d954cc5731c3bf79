//! Who hears of tree changes, and telling them: `notifications/resources/updated` for
//! `taria://tree`, with the changed ids, to every subscriber of either protocol era.
//!
//! * Up to MCP 2025-11-25 a client subscribes its session with `resources/subscribe`;
//!   notifications go to the session's peer.
//! * From 2026-07-28 on, `resources/subscribe` is gone: a client opens a
//!   `subscriptions/listen` stream with `resourceSubscriptions: ["taria://tree"]`, and
//!   notifications ride that stream (tagged with its id) until the client cancels it.
//!
//! Both are kept in one list, so a change is sent once to each, whatever the era.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use rmcp::model::{
    MetaObject, NotificationMetaObject, ResourceUpdatedNotification,
    ResourceUpdatedNotificationParam, ServerNotification,
};
use rmcp::service::{SubscriptionSendError, SubscriptionSink};
use rmcp::{Peer, RoleServer};

use crate::link::Link;

/// The resource that mirrors the tree.
pub(crate) const TREE_URI: &str = "taria://tree";

/// The most changed ids a notification lists; past that it says how many there were.
const MAX_NOTIFIED_IDS: usize = 50;

/// Notifications go out at most this often (changes in between are merged).
const NOTIFY_EVERY: Duration = Duration::from_millis(50);

/// One listener for tree changes.
#[derive(Clone)]
enum Subscriber {
    /// A session that sent `resources/subscribe` (protocol versions up to 2025-11-25).
    Session(Peer<RoleServer>),
    /// An open `subscriptions/listen` stream (2026-07-28 on), with the token
    /// [`Subscribers::add_stream`] gave it.
    Stream(SubscriptionSink, StreamToken),
}

/// Names one listen stream for its removal: request ids may be reused once a
/// stream has ended, so a late removal of an old stream must not end a new one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct StreamToken(u64);

/// Everyone who asked to hear when the tree changes.
#[derive(Clone, Default)]
pub(crate) struct Subscribers {
    list: Arc<Mutex<Vec<Subscriber>>>,
    next_token: Arc<AtomicU64>,
}

impl Subscribers {
    fn with<R>(&self, f: impl FnOnce(&mut Vec<Subscriber>) -> R) -> R {
        f(&mut self.list.lock().unwrap_or_else(PoisonError::into_inner))
    }

    /// Subscribes the session behind `peer` (`resources/subscribe`); subscribing again
    /// changes nothing.
    pub(crate) fn add_session(&self, peer: Peer<RoleServer>) {
        self.with(|list| {
            if !list.iter().any(|s| matches!(s, Subscriber::Session(_))) {
                list.push(Subscriber::Session(peer));
            }
        });
    }

    /// Ends the session's subscription (`resources/unsubscribe`); open streams stay.
    pub(crate) fn remove_session(&self) {
        self.with(|list| list.retain(|s| !matches!(s, Subscriber::Session(_))));
    }

    /// Adds an acknowledged `subscriptions/listen` stream; the token removes it.
    pub(crate) fn add_stream(&self, sink: SubscriptionSink) -> StreamToken {
        let token = StreamToken(self.next_token.fetch_add(1, Ordering::Relaxed));
        self.with(|list| list.push(Subscriber::Stream(sink, token)));
        token
    }

    /// Drops the stream `token` names (it was cancelled or closed).
    pub(crate) fn remove_stream(&self, token: StreamToken) {
        self.with(|list| {
            list.retain(|s| !matches!(s, Subscriber::Stream(_, t) if *t == token));
        });
    }

    /// Whether nobody is subscribed.
    pub(crate) fn is_empty(&self) -> bool {
        self.with(|list| list.is_empty())
    }

    /// Sends `param` to every subscriber; a stream found closed is dropped.
    async fn notify(&self, param: &ResourceUpdatedNotificationParam) {
        for subscriber in self.with(|list| list.clone()) {
            match subscriber {
                Subscriber::Session(peer) => {
                    if let Err(e) = peer.notify_resource_updated(param.clone()).await {
                        tracing::debug!(error = %e, "could not notify the subscribed session");
                    }
                }
                Subscriber::Stream(sink, token) => {
                    let notification = ServerNotification::ResourceUpdatedNotification(
                        ResourceUpdatedNotification::new(param.clone()),
                    );
                    match sink.send(notification).await {
                        Ok(()) => {}
                        Err(SubscriptionSendError::SubscriptionClosed) => {
                            self.remove_stream(token);
                        }
                        Err(e) => {
                            tracing::debug!(error = %e, "could not notify a listen stream");
                        }
                    }
                }
            }
        }
    }
}

/// `_meta` for an update notification: the bridge's revision and the ids of the nodes
/// that were added, changed or removed since the last notification (all of them on
/// the first one).
fn changed_ids_meta(
    revision: u64,
    before: Option<&taria::Tree>,
    after: &taria::Tree,
) -> NotificationMetaObject {
    let ids: Vec<String> = match before {
        Some(before) => after
            .diff(before)
            .touched_ids()
            .map(|id| id.as_str().to_owned())
            .collect(),
        None => after.iter().map(|n| n.id.as_str().to_owned()).collect(),
    };
    let mut meta = serde_json::Map::new();
    meta.insert("revision".into(), revision.into());
    meta.insert("changedCount".into(), ids.len().into());
    meta.insert(
        "changedIds".into(),
        ids.into_iter()
            .take(MAX_NOTIFIED_IDS)
            .collect::<Vec<_>>()
            .into(),
    );
    NotificationMetaObject(MetaObject(meta))
}

/// Sends `notifications/resources/updated` when the tree changes (at most every 50 ms),
/// with the changed ids in `_meta` (see [`changed_ids_meta`]). Runs for the bridge's
/// life.
pub(crate) async fn notify_changes(link: Link, subscribers: Subscribers) {
    let mut changes = link.changes();
    let mut last_revision = 0;
    let mut last_tree: Option<Arc<taria::Tree>> = None;
    while changes.changed().await.is_ok() {
        let Some(view) = link.cached_view() else {
            continue;
        };
        if view.revision == last_revision {
            continue;
        }
        last_revision = view.revision;
        // Follow the tree even while nobody is subscribed: a new subscriber's first
        // notification then lists what changed since it subscribed.
        if subscribers.is_empty() {
            last_tree = Some(Arc::clone(&view.tree));
            continue;
        }
        let mut param = ResourceUpdatedNotificationParam::new(TREE_URI);
        param.meta = Some(changed_ids_meta(
            view.revision,
            last_tree.as_deref(),
            &view.tree,
        ));
        last_tree = Some(Arc::clone(&view.tree));
        subscribers.notify(&param).await;
        tokio::time::sleep(NOTIFY_EVERY).await;
    }
}
