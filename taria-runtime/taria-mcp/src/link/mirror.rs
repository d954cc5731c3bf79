//! The app's tree as the bridge keeps it: full trees and patches taken through
//! [`FlatTree`], the bridge's own revisions, and a [`watch`] channel that wakes whoever
//! waits for a change.
//!
//! Revisions given to the agent are the bridge's own: one more for every tree or patch
//! taken, so they keep increasing across reconnects (the app counts from 1 on every
//! connection) whatever numbers the app sends. The mirror shows a tree only while the
//! connection that sent it is open: the link opens and closes it with the connection
//! (its `generation`), and the connection's reader feeds it.

use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use foldhash::HashMap;
use taria_schema::Tree;
use taria_schema::mirror::{FlatTree, Patch};
use tokio::sync::watch;

use crate::lock::lock;
use crate::unprompted_frame::InputStamps;

/// The newest tree and where it stands.
#[derive(Clone, Debug)]
pub(crate) struct View {
    /// The tree.
    pub(crate) tree: Arc<Tree>,
    /// The bridge's revision of it.
    pub(crate) revision: u64,
}

/// The newest tree as the recording notes it: the bridge's revision, the tree, and
/// its stamp (the last input the app had handled when it drew it).
pub(crate) type Newest<'a> = (u64, &'a Arc<Tree>, u64);

/// The tree mirror. Cheap to clone.
#[derive(Clone)]
pub(crate) struct Mirror(Arc<Shared>);

struct Shared {
    state: Mutex<State>,
    /// Bumped on every tree taken, and when the connection's tree goes.
    changed: watch::Sender<u64>,
}

#[derive(Default)]
struct State {
    /// The connection whose trees are taken, while it is open.
    open: Option<u64>,
    flat: Option<FlatTree>,
    tree: Option<Arc<Tree>>,
    /// The bridge's revision: one more for every tree or patch taken.
    revision: u64,
    /// The app's revision of the newest tree or patch taken.
    app_revision: u64,
    /// The last input the newest tree shows (the app's `input` stamp), and whether a
    /// patch showed none.
    stamps: InputStamps,
    /// The nodes patches changed with no input (a timer, a feed), and when last; for
    /// [`Mirror::own_changes`].
    unprompted: HashMap<String, Instant>,
}

/// How long a node counts as one the app changes on its own after it last did.
const UNPROMPTED_FOR: Duration = Duration::from_secs(3);

/// The most nodes [`State::unprompted`] keeps (past it, those not changed within
/// [`UNPROMPTED_FOR`] go).
const UNPROMPTED_MAX: usize = 4096;

impl State {
    fn view(&self) -> Option<View> {
        self.open?;
        Some(View {
            tree: Arc::clone(self.tree.as_ref()?),
            revision: self.revision,
        })
    }
}

/// Where an input stands in the mirror ([`Mirror::showing`]).
pub(crate) enum Showing {
    /// A tree drawn after the app handled it.
    Shown(View),
    /// No such tree yet.
    NotYet,
    /// Its connection's tree is gone (the connection ended): none will come.
    Gone,
}

/// A patch that does not follow the tree taken before it: the whole tree must be
/// asked for again.
pub(crate) struct OutOfOrder;

impl Default for Mirror {
    fn default() -> Mirror {
        Mirror(Arc::new(Shared {
            state: Mutex::new(State::default()),
            changed: watch::Sender::new(0),
        }))
    }
}

impl Mirror {
    /// The newest tree, while its connection is open.
    pub(crate) fn view(&self) -> Option<View> {
        lock(&self.0.state).view()
    }

    /// The newest tree if its revision is past `since`.
    pub(crate) fn view_past(&self, since: u64) -> Option<View> {
        let state = lock(&self.0.state);
        if state.revision > since {
            state.view()
        } else {
            None
        }
    }

    /// The newest revision taken (kept after the connection closed).
    pub(crate) fn revision(&self) -> u64 {
        lock(&self.0.state).revision
    }

    /// A receiver that wakes on every tree taken, and when the connection's tree goes.
    pub(crate) fn changes(&self) -> watch::Receiver<u64> {
        self.0.changed.subscribe()
    }

    /// Whether input `seq` of connection `generation` shows in the newest tree.
    pub(crate) fn showing(&self, generation: u64, seq: u64) -> Showing {
        let state = lock(&self.0.state);
        if state.open != Some(generation) {
            return Showing::Gone;
        }
        match state.view() {
            Some(view) if state.stamps.stamp() >= seq => Showing::Shown(view),
            _ => Showing::NotYet,
        }
    }

    /// The bridge's revision for the app's `app_revision` of the connection open now
    /// (trees and patches come one revision apart; one from the future is the newest).
    pub(super) fn revision_of(&self, app_revision: u64) -> u64 {
        let state = lock(&self.0.state);
        let behind = state.app_revision.saturating_sub(app_revision);
        state.revision.saturating_sub(behind)
    }

    /// Runs `f` on the newest tree (`None` without one) while no tree can be taken, so
    /// what `f` notes is ordered with what [`Mirror::take_tree`] notes.
    pub(super) fn with_newest<R>(&self, f: impl FnOnce(Option<Newest<'_>>) -> R) -> R {
        let state = lock(&self.0.state);
        let newest = state
            .tree
            .as_ref()
            .map(|tree| (state.revision, tree, state.stamps.stamp()));
        f(newest)
    }

    /// Connection `generation` opened: it shows nothing until its first tree.
    pub(super) fn open(&self, generation: u64) {
        let mut state = lock(&self.0.state);
        state.open = Some(generation);
        state.flat = None;
        state.tree = None;
        state.app_revision = 0;
        state.stamps.restart();
    }

    /// Connection `generation` ended: its tree goes (the revision stays), and whoever
    /// waits hears of it.
    pub(super) fn close(&self, generation: u64) {
        {
            let mut state = lock(&self.0.state);
            if state.open != Some(generation) {
                return;
            }
            state.open = None;
            state.flat = None;
            state.tree = None;
        }
        self.bump();
    }

    /// Takes a whole tree from connection `generation` (the app's `revision`, showing
    /// inputs up to `stamp`); `noted` sees it as taken (and whether it is the
    /// connection's first), before any other tree can be.
    pub(super) fn take_tree(
        &self,
        generation: u64,
        (revision, stamp): (u64, u64),
        tree: Tree,
        noted: impl FnOnce(Newest<'_>, bool),
    ) {
        {
            let mut state = lock(&self.0.state);
            if state.open != Some(generation) {
                return;
            }
            let first = state.tree.is_none();
            state.flat = Some(FlatTree::from_tree(&tree));
            let tree = Arc::new(tree);
            state.tree = Some(Arc::clone(&tree));
            state.took(revision, stamp);
            noted((state.revision, &tree, stamp), first);
        }
        self.bump();
    }

    /// Takes a patch from connection `generation`, like [`Mirror::take_tree`]; a patch
    /// that does not follow the newest tree is not taken.
    pub(super) fn take_patch(
        &self,
        generation: u64,
        (revision, stamp): (u64, u64),
        patch: &Patch,
        noted: impl FnOnce(Newest<'_>, bool),
    ) -> Result<(), OutOfOrder> {
        {
            let mut state = lock(&self.0.state);
            if state.open != Some(generation) {
                return Ok(());
            }
            let consecutive = state.app_revision.checked_add(1) == Some(revision);
            let Some(flat) = state.flat.as_mut().filter(|_| consecutive) else {
                return Err(OutOfOrder);
            };
            flat.apply(patch);
            let tree = Arc::new(flat.to_tree());
            state.tree = Some(Arc::clone(&tree));
            if state.took(revision, stamp) && !patch.is_empty() {
                state.note_unprompted(patch);
            }
            noted((state.revision, &tree, stamp), false);
        }
        self.bump();
        Ok(())
    }

    fn bump(&self) {
        self.0.changed.send_modify(|n| *n += 1);
    }

    /// The ids that changed from `after` to `later` (added, changed, removed), when
    /// the app changed each of them with no input in the few seconds `before` (when the
    /// input was sent), or the node it is under (a log's new line): a change there
    /// after an input may be the app's own. `None` when one of them is not such a node,
    /// or nothing changed.
    pub(crate) fn own_changes(
        &self,
        after: &Tree,
        later: &Tree,
        before: Instant,
    ) -> Option<Vec<String>> {
        let patch = later.diff(after);
        let state = lock(&self.0.state);
        let recent = |id: &str| {
            state
                .unprompted
                .get(id)
                .is_some_and(|&at| at < before && at.elapsed() < UNPROMPTED_FOR)
        };
        let own = |id: &str, tree: &Tree| {
            recent(id)
                || tree
                    .parent_of(id)
                    .is_some_and(|parent| recent(parent.id.as_str()))
        };
        let mut ids = Vec::new();
        for id in patch
            .added
            .iter()
            .map(|n| n.node.id.as_str())
            .chain(patch.updated.iter().map(|u| u.id.as_str()))
        {
            if !own(id, later) {
                return None;
            }
            ids.push(id.to_owned());
        }
        for id in &patch.removed {
            if !own(id.as_str(), after) {
                return None;
            }
            ids.push(id.as_str().to_owned());
        }
        (!ids.is_empty()).then_some(ids)
    }
}

impl State {
    /// Notes the nodes `patch`, which showed no new input, changed.
    fn note_unprompted(&mut self, patch: &Patch) {
        let now = Instant::now();
        if self.unprompted.len() >= UNPROMPTED_MAX {
            self.unprompted
                .retain(|_, at| now.duration_since(*at) < UNPROMPTED_FOR);
        }
        let ids = patch
            .added
            .iter()
            .map(|n| n.node.id.as_str())
            .chain(patch.updated.iter().map(|u| u.id.as_str()))
            .chain(patch.removed.iter().map(taria_schema::NodeId::as_str));
        for id in ids {
            if let Some(at) = self.unprompted.get_mut(id) {
                *at = now;
            } else if self.unprompted.len() < UNPROMPTED_MAX {
                self.unprompted.insert(id.to_owned(), now);
            }
        }
    }

    /// Counts a tree or patch taken: the bridge's revision, the app's, the stamp;
    /// whether it showed no input ([`InputStamps::unprompted`]).
    fn took(&mut self, app_revision: u64, stamp: u64) -> bool {
        self.app_revision = app_revision;
        self.revision = self.revision.saturating_add(1);
        self.stamps.unprompted(stamp, Instant::now())
    }
}

#[cfg(test)]
mod tests {
    use std::time::Instant;

    use taria_schema::NodeId;
    use taria_schema::{Node, Role, Tree};

    use super::{Mirror, OutOfOrder, Showing};

    fn tree(frame: u64) -> Tree {
        let mut tree = Tree::default();
        tree.frame = frame;
        tree
    }

    fn shown_frame(mirror: &Mirror) -> Option<u64> {
        mirror.view().map(|view| view.tree.frame)
    }

    /// A tree shows while the connection that sent it is open, and no longer: a
    /// connection that ended (or any other) cannot put a tree back.
    #[test]
    fn a_tree_shows_only_while_its_connection_is_open() {
        let mirror = Mirror::default();
        mirror.open(1);
        assert!(mirror.view().is_none(), "nothing before the first tree");
        mirror.take_tree(1, (1, 0), tree(1), |_, first| assert!(first));
        assert_eq!(shown_frame(&mirror), Some(1));
        mirror.take_tree(2, (1, 0), tree(2), |_, _| {
            panic!("another connection's tree")
        });
        assert_eq!(shown_frame(&mirror), Some(1));
        mirror.close(1);
        assert!(mirror.view().is_none(), "no frozen tree");
        assert_eq!(mirror.revision(), 1, "the revision stays");
        mirror.take_tree(1, (2, 0), tree(3), |_, _| panic!("a tree after the end"));
        assert!(mirror.view().is_none());
    }

    /// Revisions are the bridge's: they go on across connections, whatever the app
    /// counts, and a patch that does not follow the tree before it is not taken.
    #[test]
    fn revisions_go_on_across_connections_and_patches_must_follow() {
        let mirror = Mirror::default();
        mirror.open(1);
        mirror.take_tree(1, (u64::MAX, 0), tree(1), |_, _| {});
        let patch = tree(1).diff(&tree(1));
        let skipped = mirror.take_patch(1, (5, 0), &patch, |_, _| panic!("out of order"));
        assert!(matches!(skipped, Err(OutOfOrder)));
        assert_eq!(mirror.revision(), 1);
        mirror.close(1);
        mirror.open(2);
        mirror.take_tree(2, (1, 0), tree(2), |(revision, _, _), first| {
            assert_eq!(revision, 2);
            assert!(first, "the new connection's first tree");
        });
        let taken = mirror.take_patch(2, (2, 0), &patch, |(revision, _, _), first| {
            assert_eq!(revision, 3);
            assert!(!first);
        });
        assert!(taken.is_ok());
        assert_eq!(mirror.view_past(2).map(|view| view.revision), Some(3));
        assert!(mirror.view_past(3).is_none());
    }

    /// An input shows once a tree stamped with it (or a later one) is taken; once its
    /// connection has ended, none will.
    #[test]
    fn an_input_shows_in_the_first_tree_stamped_with_it() {
        let mirror = Mirror::default();
        mirror.open(4);
        assert!(matches!(mirror.showing(4, 7), Showing::NotYet));
        mirror.take_tree(4, (1, 6), tree(1), |_, _| {});
        assert!(matches!(mirror.showing(4, 7), Showing::NotYet));
        mirror.take_tree(4, (2, 7), tree(2), |_, _| {});
        assert!(matches!(mirror.showing(4, 7), Showing::Shown(view) if view.tree.frame == 2));
        assert!(
            matches!(mirror.showing(3, 7), Showing::Gone),
            "another connection's input"
        );
        mirror.close(4);
        assert!(matches!(mirror.showing(4, 7), Showing::Gone));
    }

    /// A log of `lines` lines and a status saying `status`.
    fn app(lines: u32, status: &str) -> Tree {
        let node = |id: &str, role, label: &str, children| {
            let mut node = Node::default();
            node.id = NodeId::new(id);
            node.role = role;
            node.label = Some(label.to_owned());
            node.children = children;
            node
        };
        let lines = (0..lines)
            .map(|i| {
                node(
                    &format!("log/{i}"),
                    Role::Text,
                    &format!("line {i}"),
                    Vec::new(),
                )
            })
            .collect();
        let mut tree = Tree::default();
        tree.roots = vec![
            node("log", Role::Log, "Log", lines),
            node("status", Role::Status, status, Vec::new()),
        ];
        tree
    }

    /// Found on log-time-machine: an input that changed nothing was credited with the
    /// next frame's new log line (a timer's), "the next one did". A change only where
    /// the app changed with no input a moment before is told as maybe its own.
    #[test]
    fn a_late_change_only_where_the_app_changes_on_its_own_is_told_as_maybe_its_own() {
        let mirror = Mirror::default();
        mirror.open(1);
        mirror.take_tree(1, (1, 0), app(1, "ready"), |_, _| {});
        // A line arrives with no input: the stamp stays 0.
        let patch = app(2, "ready").diff(&app(1, "ready"));
        assert!(mirror.take_patch(1, (2, 0), &patch, |_, _| {}).is_ok());
        let sent = Instant::now();
        // After an input: another line (under the log), by the app.
        let own = mirror.own_changes(&app(2, "ready"), &app(3, "ready"), sent);
        assert!(
            own.as_ref()
                .is_some_and(|ids| ids.contains(&"log/2".to_owned())),
            "{own:?}"
        );
        // The status changed too: that is not the app's own doing.
        let own = mirror.own_changes(&app(2, "ready"), &app(3, "paused"), sent);
        assert_eq!(own, None);
        // A patch that showed an input (the stamp moved) is not the app's own.
        let mirror = Mirror::default();
        mirror.open(1);
        mirror.take_tree(1, (1, 0), app(1, "ready"), |_, _| {});
        assert!(mirror.take_patch(1, (2, 1), &patch, |_, _| {}).is_ok());
        let now = Instant::now();
        assert_eq!(
            mirror.own_changes(&app(2, "ready"), &app(3, "ready"), now),
            None
        );
        // Found in CI: an input's effect drawn a frame late comes in a patch whose stamp
        // does not move (the frame before was stamped with the input); it is not the
        // app's own change.
        let late = app(3, "ready").diff(&app(2, "ready"));
        assert!(mirror.take_patch(1, (3, 1), &late, |_, _| {}).is_ok());
        let now = Instant::now();
        assert_eq!(
            mirror.own_changes(&app(3, "ready"), &app(4, "ready"), now),
            None
        );
        // Nor is a change noted after the input was sent.
        let mirror = Mirror::default();
        mirror.open(1);
        let sent = Instant::now();
        mirror.take_tree(1, (1, 0), app(1, "ready"), |_, _| {});
        assert!(mirror.take_patch(1, (2, 0), &patch, |_, _| {}).is_ok());
        assert_eq!(
            mirror.own_changes(&app(2, "ready"), &app(3, "ready"), sent),
            None
        );
    }
}
