//! Whether a frame the app drew shows an input, or came with none behind it (a
//! timer's tick, data streaming in): the one judge behind the mirror's nodes the app
//! changes on its own ([`Mirror::own_changes`](crate::link::Mirror::own_changes)) and
//! the recording's `unprompted` lines (`recording/unprompted.rs`).

use std::time::Instant;

use crate::limits::LATE_EFFECT;

/// The newest frame's stamp, and when a frame last showed an input.
#[derive(Debug, Default)]
pub(crate) struct InputStamps {
    /// The newest frame's stamp: the last input the app had handled when it drew it.
    stamp: u64,
    /// When a frame last showed an input (or counted as one, see
    /// [`InputStamps::prompted`]); `None`: none yet.
    prompted: Option<Instant>,
}

impl InputStamps {
    /// The newest frame's stamp.
    pub(crate) fn stamp(&self) -> u64 {
        self.stamp
    }

    /// A frame stamped `stamp` came at `now`: whether the app drew it with no input
    /// behind it. It is when its stamp is the frame before's and it does not come
    /// within [`LATE_EFFECT`] of the last frame that showed an input (it may be that
    /// input's effect, drawn a frame late).
    pub(crate) fn unprompted(&mut self, stamp: u64, now: Instant) -> bool {
        if stamp != self.stamp {
            self.prompted(stamp, now);
            return false;
        }
        self.prompted
            .is_none_or(|at| now.duration_since(at) >= LATE_EFFECT)
    }

    /// A frame stamped `stamp` came at `now` that counts as showing an input whatever
    /// its stamp: a connection's first, one drawn while an input sent waits to be
    /// shown, the first after a resize.
    pub(crate) fn prompted(&mut self, stamp: u64, now: Instant) {
        self.stamp = stamp;
        self.prompted = Some(now);
    }

    /// A new connection: its stamps start from 0 again (when a frame last showed an
    /// input is kept).
    pub(crate) fn restart(&mut self) {
        self.stamp = 0;
    }
}

#[cfg(test)]
mod tests {
    use std::time::{Duration, Instant};

    use super::InputStamps;
    use crate::limits::LATE_EFFECT;

    /// A frame is unprompted when its stamp did not move, and not soon after one that
    /// moved it: that may be the input's effect drawn late.
    #[test]
    fn a_frame_is_unprompted_when_its_stamp_stays_and_no_input_was_shown_just_before() {
        let start = Instant::now();
        let mut stamps = InputStamps::default();
        assert!(stamps.unprompted(0, start), "no input yet, none shown");
        assert!(
            !stamps.unprompted(1, start),
            "the stamp moved: an input shown"
        );
        let soon = start + LATE_EFFECT / 2;
        assert!(
            !stamps.unprompted(1, soon),
            "maybe the input's effect, late"
        );
        let later = start + LATE_EFFECT + Duration::from_millis(1);
        assert!(stamps.unprompted(1, later));
        stamps.prompted(1, later);
        assert!(!stamps.unprompted(1, later), "counted as showing an input");
        stamps.restart();
        assert_eq!(stamps.stamp(), 0);
    }
}
