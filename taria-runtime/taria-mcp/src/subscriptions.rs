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
use std::sync::{Arc, Mutex};
use std::time::Duration;

use rmcp::model::{
    MetaObject, NotificationMetaObject, ResourceUpdatedNotification,
    ResourceUpdatedNotificationParam, ServerNotification,
};
use rmcp::service::{SubscriptionSendError, SubscriptionSink};
use rmcp::{Peer, RoleServer};

use crate::link::{Link, Mirror};
use crate::lock::lock;

/// The resource that mirrors the tree.
pub(crate) const TREE_URI: &str = "taria://tree";

/// The most changed ids a notification lists; past that it says how many there were.
const MAX_NOTIFIED_IDS: usize = 50;

/// Notifications go out at most this often (changes in between are merged).
const NOTIFY_EVERY: Duration = Duration::from_millis(50);

/// In attach mode, how long an app that closed its connection has to come back (a
/// restart) before the listen streams end.
pub(crate) const COME_BACK_WITHIN: Duration = Duration::from_secs(5);

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
    /// The tree as it was when the first subscriber came (the list was empty): the
    /// first notification lists what changed since then, even when the notifier had
    /// not caught up with that tree yet.
    baseline: Arc<Mutex<Option<Arc<taria_schema::Tree>>>>,
}

impl Subscribers {
    fn with<R>(&self, f: impl FnOnce(&mut Vec<Subscriber>) -> R) -> R {
        f(&mut lock(&self.list))
    }

    /// Subscribes the session behind `peer` (`resources/subscribe`) to changes from
    /// `now` (the tree the bridge has) on; subscribing again changes nothing.
    pub(crate) fn add_session(&self, peer: Peer<RoleServer>, now: Option<Arc<taria_schema::Tree>>) {
        self.with(|list| {
            if !list.iter().any(|s| matches!(s, Subscriber::Session(_))) {
                self.note_baseline(list, now);
                list.push(Subscriber::Session(peer));
            }
        });
    }

    /// Keeps `now` as what the first notification is computed against, if nobody
    /// was subscribed before.
    fn note_baseline(&self, list: &[Subscriber], now: Option<Arc<taria_schema::Tree>>) {
        if list.is_empty() {
            *lock(&self.baseline) = now;
        }
    }

    /// What the next notification's changed ids count from: the tree a first
    /// subscriber came at (once; newer than `last` when the notifier lagged), else
    /// `last`, the tree of the notification before.
    fn diff_base(&self, last: Option<&Arc<taria_schema::Tree>>) -> Option<Arc<taria_schema::Tree>> {
        let baseline = lock(&self.baseline).take();
        baseline.or_else(|| last.cloned())
    }

    /// Ends the session's subscription (`resources/unsubscribe`); open streams stay.
    pub(crate) fn remove_session(&self) {
        self.with(|list| list.retain(|s| !matches!(s, Subscriber::Session(_))));
    }

    /// Adds an acknowledged `subscriptions/listen` stream, hearing of changes from
    /// `now` on; the token removes it.
    pub(crate) fn add_stream(
        &self,
        sink: SubscriptionSink,
        now: Option<Arc<taria_schema::Tree>>,
    ) -> StreamToken {
        let token = StreamToken(self.next_token.fetch_add(1, Ordering::Relaxed));
        self.with(|list| {
            self.note_baseline(list, now);
            list.push(Subscriber::Stream(sink, token));
        });
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
/// that were added, changed or removed since `before` (all of them without one).
/// `None` when nothing did.
fn changed_ids_meta(
    revision: u64,
    before: Option<&taria_schema::Tree>,
    after: &taria_schema::Tree,
) -> Option<NotificationMetaObject> {
    let ids: Vec<String> = match before {
        Some(before) => after
            .diff(before)
            .touched_ids()
            .map(|id| id.as_str().to_owned())
            .collect(),
        None => after.iter().map(|n| n.id.as_str().to_owned()).collect(),
    };
    if ids.is_empty() && before.is_some() {
        return None;
    }
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
    Some(NotificationMetaObject(MetaObject(meta)))
}

/// Resolves once the app a listen stream follows has gone for good, which ends the
/// stream (rmcp then sends its final `subscriptions/listen` result): in spawn mode
/// when the app exits (or never started); in attach mode when the app closes its
/// connection and does not come back within [`COME_BACK_WITHIN`] (an app restarted
/// sooner keeps the stream, which then hears of the new app's tree). A stream opened
/// while no app is connected waits for one.
pub(crate) async fn app_gone(link: &Link) {
    if let Some(spawned) = link.spawned_app() {
        if spawned.pid().is_none() {
            return;
        }
        while spawned
            .exited_within(Duration::from_secs(3600))
            .await
            .is_none()
        {}
        return;
    }
    let mut changes = link.mirror().changes();
    loop {
        while !link.app_left() {
            if changes.changed().await.is_err() {
                return std::future::pending().await;
            }
        }
        let back = tokio::time::timeout(COME_BACK_WITHIN, async {
            while link.app_left() {
                if changes.changed().await.is_err() {
                    std::future::pending::<()>().await;
                }
            }
        })
        .await;
        if back.is_err() {
            tracing::info!("the app left and did not come back: ending the listen streams");
            return;
        }
    }
}

/// Sends `notifications/resources/updated` when the tree changes (at most every 50 ms),
/// with the changed ids in `_meta` (see [`changed_ids_meta`]). Runs for the bridge's
/// life.
pub(crate) async fn notify_changes(mirror: Mirror, subscribers: Subscribers) {
    let mut changes = mirror.changes();
    let mut last_revision = 0;
    let mut last_tree: Option<Arc<taria_schema::Tree>> = None;
    while changes.changed().await.is_ok() {
        let Some(view) = mirror.view() else {
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
        let before = subscribers.diff_base(last_tree.as_ref());
        last_tree = Some(Arc::clone(&view.tree));
        let Some(meta) = changed_ids_meta(view.revision, before.as_deref(), &view.tree) else {
            // Nothing changed since the subscriber came.
            continue;
        };
        let mut param = ResourceUpdatedNotificationParam::new(TREE_URI);
        param.meta = Some(meta);
        subscribers.notify(&param).await;
        tokio::time::sleep(NOTIFY_EVERY).await;
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::{Subscribers, changed_ids_meta};

    fn tree(labels: &[&str]) -> taria_schema::Tree {
        let mut tree = taria_schema::Tree::default();
        for (i, label) in labels.iter().enumerate() {
            let mut node = taria_schema::Node::default();
            node.id = format!("n{i}").as_str().into();
            node.label = Some((*label).to_owned());
            tree.roots.push(node);
        }
        tree
    }

    /// The flake this fixes: the notifier had not yet seen the tree a first
    /// subscriber came at, so its first notification listed every node. The tree at
    /// subscription is kept and is what the first notification is computed against.
    #[test]
    fn the_first_notification_counts_from_the_tree_the_subscriber_came_at() {
        let subscribers = Subscribers::default();
        // The notifier last saw an older tree; a subscriber came at this one.
        let lagging = Arc::new(tree(&["x", "y", "z"]));
        let at_subscription = Arc::new(tree(&["a", "b", "c"]));
        subscribers.note_baseline(&[], Some(Arc::clone(&at_subscription)));
        let before = subscribers.diff_base(Some(&lagging));
        let after = tree(&["a", "B", "c"]);
        let meta = changed_ids_meta(7, before.as_deref(), &after).expect("one node changed");
        assert_eq!(meta.0.0["changedIds"], serde_json::json!(["n1"]));
        let next = subscribers.diff_base(Some(&lagging));
        assert!(
            next.is_some_and(|t| Arc::ptr_eq(&t, &lagging)),
            "kept for the first one only"
        );
    }

    #[test]
    fn nothing_changed_since_the_subscriber_came_sends_nothing() {
        let now = tree(&["a"]);
        assert!(changed_ids_meta(3, Some(&now), &now).is_none());
        assert!(
            changed_ids_meta(3, None, &now).is_some(),
            "no tree before: all of it"
        );
    }
}
