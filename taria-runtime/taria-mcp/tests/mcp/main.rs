//! End-to-end tests of `taria-mcp`: a real app session on a thread, the real bridge
//! binary as a child process, and MCP JSON-RPC spoken by hand over its stdin/stdout.
//! Unix only: the tests make and inspect Unix sockets (on Windows the bridge attaches
//! over named pipes, which no test here drives).
//!
//! One test binary, by concern: [`harness`] and [`fake_app`] are what the tests share.
#![cfg(unix)]
#![expect(clippy::unwrap_used, reason = "tests: a failed step fails the test")]
#![expect(
    clippy::needless_pass_by_value,
    reason = "tool arguments read best as `json!(…)` values"
)]

// The test apps and socket client taria's own tests use (a real session on a thread).
#[path = "../../../tests/support/mod.rs"]
mod support;

mod audit;
mod batch;
mod drawn;
mod empty_arguments;
mod errors;
mod fake_app;
mod forged;
mod gone;
mod harness;
mod host_form;
mod input_box;
mod inputs;
mod jsonrpc;
mod knob;
mod link;
mod logs;
mod modal;
mod offscreen;
mod rebuilt;
mod record;
mod record_context;
mod redact;
mod refusals;
mod schema_rules;
mod session;
mod spawn;
mod terminal_queries;
mod test_from;
mod tools;
