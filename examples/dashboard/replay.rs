//! The e2e agent's dashboard session, recorded by `taria-mcp --record`
//! (`recordings/watch-sort-filter.jsonl`), replayed headless: the test `taria-mcp
//! test-from` generated from it, with its snapshots. The dashboard animates (a
//! one-second timer moves its gauges, charts, log and table) and a replay draws only
//! after its inputs, so the session's `unprompted` lines name the nodes the timer
//! changed and the generated test leaves them out, or lets any label pass, saying
//! which in its comment.

use crate::tests::dashboard;

include!("replay_watch_sort_filter.rs");
