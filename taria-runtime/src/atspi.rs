//! The tree for screen readers (cargo feature `atspi`, Linux): each frame's tree,
//! exported to AT-SPI through AccessKit's adapter (`accesskit_unix`), and a screen
//! reader's actions taken in as an agent's inputs, so that they reach the app's
//! handlers, widgets and key fallbacks by the same path (`Session::drain`).
//!
//! Nothing happens until a screen reader (an assistive technology) turns AT-SPI on:
//! the adapter's thread waits on the session bus, the loop checks one flag per
//! frame, and frames are recorded only while a consumer is connected, as before.
//! When one turns it on, the adapter asks for the tree ([`Activation`]): it gets the
//! app's window at once, and the loop is woken to draw, record and export its first
//! frame. After that, a frame whose tree changed is exported whole, and the adapter
//! sends AT-SPI what changed.
//!
//! The adapter calls its handlers on its own thread: an action request is queued
//! here ([`Requests`]) and the loop is woken; the session turns each into an input
//! against the tree exported last (`map::request`). Their answers are logged, not
//! sent: a screen reader hears the app's change, or nothing.
//!
//! The mapping of roles, states and actions is `map.rs`, with its table in
//! `docs/accessibility.md`.

mod map;

use std::collections::VecDeque;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use accesskit::{ActionHandler, ActivationHandler, DeactivationHandler, TreeUpdate};
use accesskit_unix::Adapter;
use taria_schema::Tree;
use taria_schema::protocol::ActionRequest;

use crate::endpoint::Signal;
use crate::lock::lock;
use crate::recorder::{FrameArena, Recorder};

/// The most requests kept waiting for the loop; more are dropped (a reader does not
/// send hundreds between two frames; an app that stopped reading events must not
/// grow without bound).
const MAX_WAITING: usize = 64;

/// The app's tree, exported to AT-SPI.
pub(crate) struct Export {
    adapter: Adapter,
    shared: Arc<Shared>,
    label: String,
    ids: map::Ids,
    /// The tree exported last: a request's target is looked up in it.
    last: Tree,
    /// The arena it was built from: a frame whose arena is the same is not exported
    /// again.
    last_arena: FrameArena,
    /// The activation `last` was exported in (the adapter starts again from the
    /// empty window each time AT-SPI is turned on).
    exported_in: u64,
}

/// What the adapter's thread and the loop share.
struct Shared {
    /// Whether a screen reader has turned AT-SPI on.
    active: AtomicBool,
    /// How many times it has been turned on.
    activations: AtomicU64,
    /// The reader's requests, waiting for the loop.
    requests: Mutex<VecDeque<accesskit::ActionRequest>>,
    /// Wakes the app's event wait.
    signal: Arc<Signal>,
}

impl Export {
    /// Starts the adapter for the app labelled `label`; `signal` wakes its loop.
    pub(crate) fn start(label: &str, signal: &Arc<Signal>) -> Export {
        let signal = Arc::clone(signal);
        let shared = Arc::new(Shared {
            active: AtomicBool::new(false),
            activations: AtomicU64::new(0),
            requests: Mutex::new(VecDeque::new()),
            signal,
        });
        let mut adapter = Adapter::new(
            Activation {
                shared: Arc::clone(&shared),
                label: label.to_owned(),
            },
            Requests(Arc::clone(&shared)),
            Deactivation(Arc::clone(&shared)),
        );
        // A terminal app has the focus while it runs: its window (the terminal's) is
        // the one the user reads.
        adapter.update_window_focus_state(true);
        Export {
            adapter,
            shared,
            label: label.to_owned(),
            ids: map::Ids::default(),
            last: Tree::default(),
            last_arena: FrameArena::default(),
            exported_in: 0,
        }
    }

    /// Whether a screen reader has turned AT-SPI on (frames are recorded then).
    pub(crate) fn is_active(&self) -> bool {
        self.shared.active.load(Ordering::Acquire)
    }

    /// Exports the frame `recorder` just recorded, when its tree differs from the last.
    pub(crate) fn publish(&mut self, recorder: &Recorder) {
        if !self.is_active() {
            return;
        }
        // A redrawn frame that shows nothing new is compared, not converted: no tree
        // is built for it (as the endpoint's writer does for the bridge).
        let activation = self.shared.activations.load(Ordering::Acquire);
        let arena = recorder.arena();
        if activation == self.exported_in && arena.same_tree(&self.last_arena) {
            return;
        }
        self.last_arena.copy_from(arena);
        self.exported_in = activation;
        let tree = arena.to_tree();
        let update = map::update(&tree, &self.label, &mut self.ids);
        self.last = tree;
        self.adapter.update_if_active(|| update);
    }

    /// Moves the reader's requests, as inputs, to `into`; a request that has no
    /// input (its node is gone, nothing a click performs) is logged and dropped.
    pub(crate) fn take_requests(&mut self, into: &mut impl FnMut(ActionRequest)) {
        let waiting = std::mem::take(&mut *lock(&self.shared.requests));
        for request in waiting {
            match map::request(&request, &self.last, &self.ids) {
                Ok(input) => into(input),
                Err(why) => tracing::info!(
                    target: "taria::atspi",
                    "taria: a screen reader's {:?} was not performed: {why}",
                    request.action
                ),
            }
        }
    }
}

#[cfg(test)]
impl Export {
    /// `tree` as if exported to a reader (no reader here: no session bus in tests).
    pub(crate) fn exported_for_test(&mut self, tree: Tree) {
        map::update(&tree, &self.label, &mut self.ids);
        self.last = tree;
    }

    /// A reader's click on node `id` of the tree exported last, as the adapter hands
    /// it over.
    pub(crate) fn click_for_test(&self, id: &str) {
        let target = self.ids.kit_id(id).expect("a node exported");
        Requests(Arc::clone(&self.shared)).do_action(accesskit::ActionRequest {
            action: accesskit::Action::Click,
            target_tree: accesskit::TreeId::ROOT,
            target_node: target,
            data: None,
        });
    }
}

/// Called (on the adapter's thread) when a screen reader turns AT-SPI on.
struct Activation {
    shared: Arc<Shared>,
    label: String,
}

impl ActivationHandler for Activation {
    fn request_initial_tree(&mut self) -> Option<TreeUpdate> {
        self.shared.activations.fetch_add(1, Ordering::AcqRel);
        self.shared.active.store(true, Ordering::Release);
        // The loop draws, records and exports its tree (an app's loop draws on the
        // wake-up: the integration guide).
        self.shared.signal.poke();
        Some(map::empty(&self.label))
    }
}

/// Called (on the adapter's thread) for each action a screen reader asks for.
struct Requests(Arc<Shared>);

impl ActionHandler for Requests {
    fn do_action(&mut self, request: accesskit::ActionRequest) {
        let mut requests = lock(&self.0.requests);
        if requests.len() >= MAX_WAITING {
            tracing::warn!(
                target: "taria::atspi",
                "taria: a screen reader's {:?} was dropped: {MAX_WAITING} requests wait for the app",
                request.action
            );
            return;
        }
        requests.push_back(request);
        drop(requests);
        self.0.signal.poke();
    }
}

/// Called (on the adapter's thread) when AT-SPI is turned off.
struct Deactivation(Arc<Shared>);

impl DeactivationHandler for Deactivation {
    fn deactivate_accessibility(&mut self) {
        self.0.active.store(false, Ordering::Release);
    }
}
