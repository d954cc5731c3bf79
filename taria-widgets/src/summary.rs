//! The text summaries the chart widgets record as their value: counts, ranges and
//! the last value, never every point.

use std::fmt;

/// A number as an agent reads it: whole numbers without a fraction, others rounded
/// to four decimals.
pub(crate) struct Num(pub(crate) f64);

impl fmt::Display for Num {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let v = self.0;
        if v.fract() == 0.0 || !v.is_finite() {
            write!(f, "{v}")
        } else {
            write!(f, "{}", (v * 1e4).round() / 1e4)
        }
    }
}

/// Count, min, max and last of a series of values (absent values counted apart).
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub(crate) struct Stats {
    pub(crate) points: usize,
    pub(crate) absent: usize,
    pub(crate) min: f64,
    pub(crate) max: f64,
    pub(crate) last: Option<f64>,
}

impl Stats {
    pub(crate) fn add(&mut self, value: Option<f64>) {
        self.points += 1;
        let Some(v) = value else {
            self.absent += 1;
            return;
        };
        if self.last.is_none() {
            (self.min, self.max) = (v, v);
        } else {
            self.min = self.min.min(v);
            self.max = self.max.max(v);
        }
        self.last = Some(v);
    }

    pub(crate) fn of(values: impl IntoIterator<Item = Option<f64>>) -> Self {
        let mut stats = Stats::default();
        for v in values {
            stats.add(v);
        }
        stats
    }
}

/// `120 points min 3 max 97 last 42` (`, 4 absent` after the count when some are).
impl fmt::Display for Stats {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let noun = if self.points == 1 { "point" } else { "points" };
        write!(f, "{} {noun}", self.points)?;
        if self.absent > 0 {
            write!(f, ", {} absent", self.absent)?;
        }
        if let Some(last) = self.last {
            write!(
                f,
                " min {} max {} last {}",
                Num(self.min),
                Num(self.max),
                Num(last)
            )?;
        }
        Ok(())
    }
}

/// A name in quotes, or `(unnamed)`.
pub(crate) struct Name<'t>(pub(crate) Option<&'t dyn fmt::Display>);

impl fmt::Display for Name<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            Some(name) => write!(f, "\"{name}\""),
            None => f.write_str("(unnamed)"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stats_read_as_text() {
        let s = Stats::of([Some(3.0), None, Some(97.0), Some(42.5)]);
        assert_eq!(s.to_string(), "4 points, 1 absent min 3 max 97 last 42.5");
        assert_eq!(Stats::default().to_string(), "0 points");
        assert_eq!(Num(0.1 + 0.2).to_string(), "0.3");
        assert_eq!(Num(-2.0).to_string(), "-2");
    }
}
