//! [`Capture`]: a subscriber holding only a [`LogLayer`], which the test harness runs
//! the app under when the test set up no subscriber of its own, so a headless run's
//! logs are checked as a bridge would see them.

use tracing::span::{Attributes, Id, Record};
use tracing::{Event, Metadata, Subscriber};

use super::LogLayer;

/// A subscriber that only captures events, at its layer's level; spans are ignored.
pub(crate) struct Capture(pub(crate) LogLayer);

impl Subscriber for Capture {
    fn enabled(&self, _: &Metadata<'_>) -> bool {
        true
    }

    fn max_level_hint(&self) -> Option<tracing::level_filters::LevelFilter> {
        tracing_subscriber::Layer::<Self>::max_level_hint(&self.0)
    }

    fn new_span(&self, _: &Attributes<'_>) -> Id {
        Id::from_u64(1)
    }

    fn record(&self, _: &Id, _: &Record<'_>) {}

    fn record_follows_from(&self, _: &Id, _: &Id) {}

    fn event(&self, event: &Event<'_>) {
        self.0.capture(event);
    }

    fn enter(&self, _: &Id) {}

    fn exit(&self, _: &Id) {}
}
