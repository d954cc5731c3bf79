//! A panic logged as an error before the app unwinds: a panic hook chained in front of
//! the one installed before it (ratatui's `init` installs one that restores the
//! terminal; it still runs, after).

use std::panic::PanicHookInfo;
use std::sync::Once;

/// Installs the hook, once per process: each panic is logged through `tracing` as an
/// `error` (target `panic`, the panic's message, with its `location` and `thread`
/// fields), then the previous hook runs.
pub(crate) fn install_panic_hook() {
    static INSTALLED: Once = Once::new();
    INSTALLED.call_once(|| {
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            log_panic(info);
            previous(info);
        }));
    });
}

fn log_panic(info: &PanicHookInfo<'_>) {
    let payload = info.payload();
    let message = payload
        .downcast_ref::<&str>()
        .copied()
        .or_else(|| payload.downcast_ref::<String>().map(String::as_str))
        .unwrap_or("a panic without a message");
    let location = info
        .location()
        .map(|at| format!("{}:{}:{}", at.file(), at.line(), at.column()))
        .unwrap_or_default();
    let thread = std::thread::current();
    let thread = thread.name().unwrap_or("unnamed");
    tracing::error!(target: "panic", location, thread, "{message}");
}

#[cfg(test)]
mod tests {
    use std::sync::{Arc, Mutex};

    use crate::logs::{Capture, layer};

    /// The hook logs the panic, then the hook installed before it runs (the one that
    /// restores an app's terminal), in that order.
    #[test]
    fn a_panic_is_logged_then_the_previous_hook_runs() {
        const THREAD: &str = "taria-panic-hook-test";
        let order = Arc::new(Mutex::new(Vec::new()));
        let previous = std::panic::take_hook();
        let seen = Arc::clone(&order);
        std::panic::set_hook(Box::new(move |info| {
            if std::thread::current().name() == Some(THREAD) {
                seen.lock().unwrap().push("the previous hook");
            }
            previous(info);
        }));
        super::install_panic_hook();
        let layer = layer();
        let sink = layer.hub().sink();
        let logged = Arc::clone(&order);
        sink.open(
            1,
            Some(Arc::new(move || logged.lock().unwrap().push("logged"))),
        );
        let dispatch = tracing::Dispatch::new(Capture(layer));
        let panicked = std::thread::Builder::new()
            .name(THREAD.into())
            .spawn(move || {
                tracing::dispatcher::with_default(&dispatch, || panic!("a bug in the app"));
            })
            .unwrap()
            .join();
        assert!(panicked.is_err());
        assert_eq!(*order.lock().unwrap(), ["logged", "the previous hook"]);
        let mut taken = Vec::new();
        sink.take(1, &mut taken);
        let entry = &taken[0].entry;
        assert_eq!(entry.level, taria_schema::protocol::LogLevel::Error);
        assert_eq!(
            (entry.target.as_str(), entry.message.as_str()),
            ("panic", "a bug in the app")
        );
        assert_eq!(entry.fields["thread"], THREAD);
        assert!(
            entry.fields["location"]
                .as_str()
                .unwrap()
                .contains("panic.rs")
        );
    }
}
