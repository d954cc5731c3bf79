//! The app's logs for agents: a `tracing_subscriber` [`Layer`](tracing_subscriber::Layer)
//! that hands the app's `tracing` events to a connected bridge, which shows them to
//! the agent (`read_logs`, and a note in the result of an input that logged a warning
//! or an error) and writes them into `--record` files.
//!
//! Add it in one line, where the app sets up `tracing` (before its first frame):
//!
//! ```no_run
//! use tracing_subscriber::prelude::*;
//!
//! tracing_subscriber::registry().with(taria::logs::layer()).init();
//! ```
//!
//! Beside the app's own layers (a log file, say), it changes nothing they see. While
//! no bridge that asked for logs is connected, an event costs the layer one flag check
//! and no allocation; while one is, each event at the layer's level or more severe
//! (default `INFO`; [`LogLayer::level`]) is copied into a bounded ring the bridge reads
//! from (entries that do not fit are dropped and counted). taria's own events are left
//! out. With the layer installed, a session also logs a panic as an `error` (target
//! `panic`) before the app unwinds: a panic hook chained in front of the app's own, so
//! a terminal restore in that hook still happens.
//!
//! Each entry ([`LogEntry`](taria_schema::protocol::LogEntry)) carries its level,
//! target, message and fields, and the newest agent input the app had taken when it
//! was logged, so the bridge can tell the agent which input caused it. Log text is the
//! app's: a bridge treats it as untrusted, like labels.

mod capture;
mod entry;
mod hub;
mod layer;
mod panic;

pub use layer::{LogLayer, layer};

pub(crate) use capture::Capture;
pub(crate) use hub::{LogHub, LogSink, Waiting};
pub(crate) use panic::install_panic_hook;
