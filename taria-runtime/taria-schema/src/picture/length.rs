//! Lengths as the SVG writes them.

use std::fmt;

/// A length written short: at most two decimals, no trailing zeros.
pub(super) struct Num(pub(super) f32);

impl fmt::Display for Num {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let text = format!("{:.2}", self.0);
        let text = text.trim_end_matches('0').trim_end_matches('.');
        f.write_str(if text == "-0" { "0" } else { text })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lengths_are_written_short() {
        assert_eq!(Num(10.0).to_string(), "10");
        assert_eq!(Num(4.375).to_string(), "4.38");
        assert_eq!(Num(0.5).to_string(), "0.5");
        assert_eq!(Num(-0.001).to_string(), "0");
    }
}
