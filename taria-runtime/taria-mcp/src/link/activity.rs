//! Tool calls in progress, and when the last one ended: what `--idle-release` counts
//! from, and what stops the reconnection loop once nobody uses the bridge.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use crate::lock::lock;

/// The bridge's use by tool calls. Cheap to clone (the clones share it).
#[derive(Clone)]
pub(crate) struct Activity(Arc<Shared>);

struct Shared {
    calls: AtomicUsize,
    last_use: Mutex<Instant>,
}

/// Marks a tool call in progress (no idle release meanwhile) until dropped.
pub(crate) struct InUse(Arc<Shared>);

impl Drop for InUse {
    fn drop(&mut self) {
        *lock(&self.0.last_use) = Instant::now();
        self.0.calls.fetch_sub(1, Ordering::Relaxed);
    }
}

impl Default for Activity {
    fn default() -> Activity {
        Activity(Arc::new(Shared {
            calls: AtomicUsize::new(0),
            last_use: Mutex::new(Instant::now()),
        }))
    }
}

impl Activity {
    /// Marks a tool call in progress until the guard drops.
    pub(crate) fn in_use(&self) -> InUse {
        self.0.calls.fetch_add(1, Ordering::Relaxed);
        *lock(&self.0.last_use) = Instant::now();
        InUse(Arc::clone(&self.0))
    }

    /// How long no tool call has been in progress (`None` while one is).
    pub(crate) fn idle_for(&self) -> Option<Duration> {
        (self.0.calls.load(Ordering::Relaxed) == 0).then(|| lock(&self.0.last_use).elapsed())
    }
}

#[cfg(test)]
mod tests {
    use super::Activity;

    /// Idle time counts from when the last call in progress ended, not while one is.
    #[test]
    fn idle_time_counts_from_the_end_of_the_last_call() {
        let activity = Activity::default();
        let first = activity.in_use();
        let second = activity.clone().in_use();
        drop(first);
        assert!(activity.idle_for().is_none(), "a call is still in progress");
        std::thread::sleep(std::time::Duration::from_millis(20));
        drop(second);
        let idle = activity.idle_for().expect("no call in progress");
        assert!(idle < std::time::Duration::from_millis(20), "{idle:?}");
    }
}
