//! The key grammar: any text parses or is refused, and a parsed chord's `Display`
//! parses back to it.

use proptest::collection::vec;
use proptest::prelude::*;
use taria_schema::protocol::KeyChord;

use crate::generators::{config, tricky_char};

proptest! {
    #![proptest_config(config())]

    #[test]
    fn any_key_text_parses_or_is_refused_and_chords_round_trip(
        key in prop_oneof![
            any::<String>(),
            vec(prop_oneof![
                prop::sample::select(&["ctrl", "alt", "shift", "super", "cmd", "+", "++", "f", "f0", "f24", "f25", "f255", "f256", "tab", "enter", "plus", "space", " ", "A", "é", "\u{200b}"][..]).prop_map(str::to_owned),
                tricky_char().prop_map(String::from),
            ], 0..5).prop_map(|parts| parts.join("+")),
        ],
    ) {
        if let Ok(chord) = key.parse::<KeyChord>() {
            let shown = chord.to_string();
            let back: KeyChord = shown.parse().map_err(|e| TestCaseError::fail(format!("{shown:?}: {e}")))?;
            prop_assert_eq!(back, chord, "{:?} shown as {:?}", key, shown);
        }
    }
}
