//! What the app logs, as the harness keeps it: each entry stamped with the input in
//! hand when it was logged, an error failing `assert_no_error_logged`, through the
//! harness's own subscriber or the test's `taria::logs` layer, and a plain refusal
//! when the test's subscriber cannot capture it.

use ratatui::widgets::Paragraph;
use taria::testing::AppHarness;

use crate::panic_message;
use taria_schema::protocol::LogLevel;
use tracing_subscriber::layer::SubscriberExt as _;

/// A counter whose handler warns at 3 and logs an error past 5.
#[derive(Default)]
struct Counter {
    count: u32,
}

#[taria::actions]
impl Counter {
    #[action(node = "count", "bump")]
    fn bump(&mut self) {
        self.count += 1;
        match self.count {
            3 => tracing::warn!(count = self.count, "three already"),
            6.. => tracing::error!(count = self.count, "past five"),
            _ => tracing::debug!("bumped"),
        }
    }
}

fn counter() -> AppHarness<Counter> {
    AppHarness::new(Counter::default(), 20, 1, |frame, counter: &mut Counter| {
        let _node = taria::scope(|n| {
            n.role(taria::Role::Button)
                .id("count")
                .label("Count")
                .custom_action("bump")
                .bounds(frame.area());
        });
        frame.render_widget(
            Paragraph::new(format!("count {}", counter.count)),
            frame.area(),
        );
    })
}

#[test]
fn the_harness_keeps_the_log_and_fails_on_an_error() {
    let mut harness = counter();
    for _ in 0..3 {
        harness.act("count", "bump").unwrap();
    }
    let logs = harness.logs();
    assert_eq!(
        logs.len(),
        1,
        "INFO and up: the debug events are not kept: {logs:?}"
    );
    assert_eq!(logs[0].level, LogLevel::Warn);
    assert_eq!(logs[0].message, "three already");
    assert_eq!(logs[0].fields["count"], 3);
    assert_eq!(logs[0].input, 3, "the third input logged it");
    harness.assert_no_error_logged();

    for _ in 0..3 {
        harness.act("count", "bump").unwrap();
    }
    let failed = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        harness.assert_no_error_logged();
    }))
    .expect_err("an error was logged");
    let message = panic_message(&failed);
    assert!(
        message
            .contains("the app logged 1 error:\nerror harness::logs: \"past five\" {\"count\":6}"),
        "{message}"
    );
}

/// A test with its own subscriber holding taria's layer: the harness reads through
/// it, at its level.
#[test]
fn the_tests_own_layer_is_read_at_its_level() {
    let subscriber =
        tracing_subscriber::registry().with(taria::logs::layer().level(tracing::Level::DEBUG));
    tracing::subscriber::with_default(subscriber, || {
        let mut harness = counter();
        harness.act("count", "bump").unwrap();
        let logs = harness.logs();
        assert_eq!(logs.len(), 1, "{logs:?}");
        assert_eq!(
            (logs[0].level, logs[0].message.as_str()),
            (LogLevel::Debug, "bumped")
        );
    });
}

/// A subscriber without taria's layer: the harness cannot see the log, and says so
/// rather than pass.
#[test]
fn a_subscriber_without_the_layer_cannot_be_checked_and_says_so() {
    let subscriber = tracing_subscriber::registry();
    tracing::subscriber::with_default(subscriber, || {
        let mut harness = counter();
        harness.act("count", "bump").unwrap();
        assert!(harness.logs().is_empty());
        let failed = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            harness.assert_no_error_logged();
        }))
        .expect_err("not captured");
        assert!(
            panic_message(&failed).contains("no taria::logs::layer()"),
            "{}",
            panic_message(&failed)
        );
    });
}
