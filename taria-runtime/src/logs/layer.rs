//! [`LogLayer`]: the `tracing_subscriber` layer an app adds to hand its events to a
//! connected bridge, at the cost of one flag check while none is.

use std::cell::Cell;
use std::sync::Arc;

use tracing::level_filters::LevelFilter;
use tracing::{Event, Level, Subscriber};
use tracing_subscriber::layer::{Context, Layer};

use super::entry::entry_of;
use super::hub::LogHub;

/// The layer that captures the app's `tracing` events for a connected bridge; from
/// [`layer`]. See [the module](crate::logs).
///
/// # Examples
///
/// ```
/// use tracing_subscriber::prelude::*;
///
/// let subscriber = tracing_subscriber::registry()
///     .with(taria::logs::layer().level(tracing::Level::DEBUG));
/// tracing::subscriber::with_default(subscriber, || {
///     tracing::warn!(title = "", "refused an empty title");
/// });
/// ```
#[derive(Clone, Debug)]
pub struct LogLayer {
    hub: Arc<LogHub>,
    level: Level,
}

/// A layer capturing the app's events at `INFO` or more severe, to add to the app's
/// subscriber: `tracing_subscriber::registry().with(taria::logs::layer())`.
#[must_use]
pub fn layer() -> LogLayer {
    LogLayer {
        hub: LogHub::new(),
        level: Level::INFO,
    }
}

impl Default for LogLayer {
    fn default() -> LogLayer {
        layer()
    }
}

impl LogLayer {
    /// Captures events at `level` or more severe (default `INFO`): `Level::DEBUG`
    /// adds debug events, `Level::WARN` keeps only warnings and errors.
    #[must_use]
    pub fn level(mut self, level: Level) -> LogLayer {
        self.level = level;
        self
    }

    /// Where this layer's entries go: a session's sink is made from it.
    pub(crate) fn hub(&self) -> &Arc<LogHub> {
        &self.hub
    }

    /// The layer in the thread's current subscriber, if it has one: what a session
    /// starting on this thread captures from.
    pub(crate) fn current_hub() -> Option<Arc<LogHub>> {
        tracing::dispatcher::get_default(|dispatch| {
            dispatch
                .downcast_ref::<LogLayer>()
                .map(|layer| Arc::clone(&layer.hub))
        })
    }

    /// Hands `event` to the open sinks: nothing but the flag check while none is
    /// open.
    pub(super) fn capture(&self, event: &Event<'_>) {
        if !self.hub.wanted() {
            return;
        }
        let metadata = event.metadata();
        if *metadata.level() > self.level || is_taria(metadata.target()) {
            return;
        }
        // A panic while capturing (the hook logs it) must not capture again on this
        // thread, where the sinks' locks may be held.
        let Some(_capturing) = Capturing::start() else {
            return;
        };
        self.hub.deliver(&entry_of(event));
    }
}

impl<S: Subscriber> Layer<S> for LogLayer {
    fn on_event(&self, event: &Event<'_>, _: Context<'_, S>) {
        self.capture(event);
    }

    /// Events less severe than the layer's level are not wanted: when this layer is
    /// the subscriber's only one, `tracing` skips them at their call site.
    fn max_level_hint(&self) -> Option<LevelFilter> {
        Some(LevelFilter::from_level(self.level))
    }
}

/// taria's own events (target `taria` or `taria::…`): about the link to the bridge,
/// not the app, and logged where the endpoint's locks may be held.
fn is_taria(target: &str) -> bool {
    target
        .strip_prefix("taria")
        .is_some_and(|rest| rest.is_empty() || rest.starts_with("::"))
}

thread_local! {
    /// Whether this thread is capturing an event now.
    static CAPTURING: Cell<bool> = const { Cell::new(false) };
}

/// This thread captures an event until dropped.
struct Capturing;

impl Capturing {
    /// `None` when this thread is capturing one already.
    fn start() -> Option<Capturing> {
        CAPTURING
            .try_with(|capturing| !capturing.replace(true))
            .ok()
            .and_then(|started| started.then_some(Capturing))
    }
}

impl Drop for Capturing {
    fn drop(&mut self) {
        let _ = CAPTURING.try_with(|capturing| capturing.set(false));
    }
}

#[cfg(test)]
mod tests {
    use super::is_taria;

    #[test]
    fn tarias_own_targets_are_left_out_and_no_other() {
        assert!(is_taria("taria"));
        assert!(is_taria("taria::endpoint::connection"));
        assert!(!is_taria("taria_widgets"));
        assert!(!is_taria("tariaapp::ui"));
        assert!(!is_taria("todo::app"));
        assert!(!is_taria("panic"));
    }
}
