//! Bounds on what an agent can make the bridge send: how many inputs may wait for the
//! app's answer at once, and how many may be sent per second. Both refuse with `busy`
//! before anything is sent, saying what to do.

use std::time::{Duration, Instant};

use crate::errors::{Code, ToolError};

/// The most inputs waiting for the app's ack at once.
pub(crate) const MAX_IN_FLIGHT: usize = 32;
/// Inputs per second allowed on average.
pub(crate) const RATE_PER_SECOND: f64 = 50.0;
/// Inputs allowed in one burst.
pub(crate) const BURST: f64 = 100.0;

/// Refuses an input when `waiting` inputs already wait for their ack.
pub(crate) fn check_in_flight(waiting: usize) -> Result<(), ToolError> {
    if waiting >= MAX_IN_FLIGHT {
        return Err(ToolError::new(
            Code::Busy,
            format!(
                "{waiting} inputs are still waiting for the app's answer (at most {MAX_IN_FLIGHT}); \
                 wait for their results, then send more"
            ),
        )
        .with("sent", false));
    }
    Ok(())
}

/// A token bucket: [`BURST`] inputs at once, refilled at [`RATE_PER_SECOND`].
#[derive(Debug)]
pub(crate) struct RateLimit {
    tokens: f64,
    last: Instant,
}

impl RateLimit {
    pub(crate) fn new(now: Instant) -> RateLimit {
        RateLimit {
            tokens: BURST,
            last: now,
        }
    }

    /// Takes one token, or says how long to wait for one.
    pub(crate) fn take(&mut self, now: Instant) -> Result<(), ToolError> {
        let elapsed = now.saturating_duration_since(self.last).as_secs_f64();
        self.tokens = (self.tokens + elapsed * RATE_PER_SECOND).min(BURST);
        self.last = now;
        if self.tokens >= 1.0 {
            self.tokens -= 1.0;
            return Ok(());
        }
        let wait = Duration::from_secs_f64((1.0 - self.tokens) / RATE_PER_SECOND);
        Err(ToolError::new(
            Code::Busy,
            format!(
                "too many inputs: at most {RATE_PER_SECOND} per second (bursts of {BURST}); \
                 retry in {} ms",
                wait.as_millis().max(1)
            ),
        )
        .with("sent", false))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_burst_passes_then_the_rate_holds() {
        let start = Instant::now();
        let mut limit = RateLimit::new(start);
        for _ in 0..100 {
            assert!(limit.take(start).is_ok());
        }
        let refused = limit.take(start).unwrap_err();
        assert_eq!(refused.code, Code::Busy);
        assert!(
            refused.message.contains("retry in 20 ms"),
            "{}",
            refused.message
        );
        // 100 ms later, 5 more are allowed.
        let later = start + Duration::from_millis(100);
        for _ in 0..5 {
            assert!(limit.take(later).is_ok());
        }
        assert!(limit.take(later).is_err());
    }

    #[test]
    fn the_in_flight_bound_refuses_before_sending() {
        assert!(check_in_flight(MAX_IN_FLIGHT - 1).is_ok());
        let refused = check_in_flight(MAX_IN_FLIGHT).unwrap_err();
        assert_eq!(refused.code, Code::Busy);
        assert!(refused.message.contains("wait for their results"));
    }
}
