//! The bounds an agent can rely on. What it can make the bridge send: how many inputs
//! may wait for the app's answer at once, and how many may be sent per second; both
//! refuse with `busy` before anything is sent, saying what to do (an input a token is
//! only a moment away from waits for it instead, [`RATE_WAIT_MAX`]). And how long the
//! bridge waits for the app: to write, for an ack, for the tree after an input.

use std::time::{Duration, Instant};

use crate::errors::{Code, ToolError};

/// The most inputs waiting for the app's ack at once.
pub(crate) const MAX_IN_FLIGHT: usize = 32;
/// Inputs per second allowed on average.
pub(crate) const RATE_PER_SECOND: f64 = 50.0;
/// Inputs allowed in one burst.
pub(crate) const BURST: f64 = 100.0;
/// How long an input that meets the rate limit waits for a token, counted from when
/// it was ready to send (its call arrived; a batch step began), before it is refused
/// `busy`. A token comes every 20 ms at [`RATE_PER_SECOND`]: an agent that answered
/// "retry in 2-15 ms" would only pay a round trip for what a wait of that long does,
/// while a flood sent at once still meets `busy` after the first two or three.
pub(crate) const RATE_WAIT_MAX: Duration = Duration::from_millis(50);

/// How long an input may wait for its ack (plus [`ACK_PER_KEY`] for each key it types).
pub(crate) const ACK_TIMEOUT: Duration = Duration::from_secs(5);
/// What each key of an input adds to its ack bound: an app reads typed keys one frame
/// at a time (a 4,096-character text took 1.9–4.6 s in a debug build on a loaded
/// 2-core machine), so a long, legal input must not time out on a slower one.
pub(crate) const ACK_PER_KEY: Duration = Duration::from_millis(3);
/// How long to wait for the tree that shows an input's effect.
pub(crate) const EFFECT_TIMEOUT: Duration = Duration::from_secs(5);
/// How long after the frame that showed no effect of an input the bridge looks for one
/// that does: a frame or two of an app that draws on its own (every 20-50 ms); an app
/// that draws only on events draws no more, and the answer waits this long. A
/// recording counts no frame this soon after an input's as drawn without one.
pub(crate) const LATE_EFFECT: Duration = Duration::from_millis(150);
/// How long a message to the app may wait for its turn and for room in the socket: past
/// that, the app has stopped reading it.
pub(crate) const WRITE_TIMEOUT: Duration = Duration::from_secs(5);

/// How long an input of `keys` key presses may wait for its ack(s): [`ACK_TIMEOUT`]
/// plus [`ACK_PER_KEY`] for each key (`press_key` with `repeat` counts every press).
pub(crate) fn ack_bound(keys: usize) -> Duration {
    let keys = u32::try_from(keys).unwrap_or(u32::MAX);
    ACK_TIMEOUT.saturating_add(ACK_PER_KEY.saturating_mul(keys))
}

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

    /// Takes one token, or says how long until there is one.
    pub(crate) fn take(&mut self, now: Instant) -> Result<(), Duration> {
        let elapsed = now.saturating_duration_since(self.last).as_secs_f64();
        self.tokens = (self.tokens + elapsed * RATE_PER_SECOND).min(BURST);
        self.last = now;
        if self.tokens >= 1.0 {
            self.tokens -= 1.0;
            return Ok(());
        }
        Err(Duration::from_secs_f64(
            (1.0 - self.tokens) / RATE_PER_SECOND,
        ))
    }
}

/// The refusal of an input that would have had to wait `wait` for a token.
pub(crate) fn rate_busy(wait: Duration) -> ToolError {
    ToolError::new(
        Code::Busy,
        format!(
            "too many inputs: at most {RATE_PER_SECOND} per second (bursts of {BURST}); \
             retry in {} ms",
            wait.as_millis().max(1)
        ),
    )
    .with("sent", false)
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
        let refused = rate_busy(limit.take(start).unwrap_err());
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
