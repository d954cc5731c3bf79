//! Property tests ("fuzzing on stable") of every decoder reachable from outside the
//! process, through the public API: the wire messages from arbitrary bytes and JSON
//! ([`wire`]), `FlatTree::apply` on arbitrary patches ([`mirror`]), the key grammar
//! ([`keys`]), value domains ([`values`]), and the outline writer on trees full of
//! hostile strings ([`outline`]); what they draw from is [`generators`], what must
//! hold is [`checks`]. The line reader and the bridge's tool arguments are fuzzed
//! next to their (private) code, in `endpoint/line.rs` (the lines found whatever the
//! chunking and read timeouts) and, in the `taria-mcp` binary, `tools.rs` (every
//! tool's arguments from arbitrary JSON: read, or refused with a message) and
//! `render/tests.rs` (`read_tree`'s outline at any cap and depth: one line per node
//! shown, or a cut marker). No nightly, no cargo-fuzz: `proptest` on stable.
//!
//! 256 cases per property by default (a few seconds for the binary);
//! `TARIA_FUZZ_CASES=100000 cargo test -p taria --all-features --test fuzz`
//! runs a long fuzz. Failures proptest finds are kept beside the module that found
//! them (`tests/fuzz/mirror.proptest-regressions`) and replayed first; the bugs found
//! so far also have their own `#[test]` in that module.
#![expect(clippy::unwrap_used, reason = "tests: a failed step fails the test")]

mod checks;
mod generators;
mod keys;
mod mirror;
mod outline;
mod values;
mod wire;
