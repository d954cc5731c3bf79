//! The latency events: where an input's time goes through the bridge.

/// The target of the events that time an input's way through the bridge, one per
/// step (the call read, the act begun, the input sent, its ack, the terminal's output,
/// a tree taken, the answer ready, the response written), at TRACE: off unless
/// `TARIA_LOG` turns them on (`TARIA_LOG=taria_mcp::latency=trace`), and then each
/// line's timestamp says when. `benches/mcp/act_latency.py --split` reads them.
pub(crate) const TARGET: &str = "taria_mcp::latency";
