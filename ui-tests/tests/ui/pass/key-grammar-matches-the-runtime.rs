//! The macros check `key("…")` fallbacks with their own copy of the key grammar
//! (`taria-derive/src/vocabulary/keys.rs`, included here as a module), because the
//! macro crate cannot call `taria_schema::protocol::KeyChord`. This checks the copy
//! reads every chord as the runtime does: the same verdict on a corpus of chords and
//! near misses, the same grammar text, and every key name the runtime prints is one
//! the copy knows.

#[path = "../../../../taria-derive/src/vocabulary/keys.rs"]
mod keys;

use ratatui::crossterm::event::{KeyCode, KeyModifiers};
use taria_schema::protocol::KeyChord;

fn main() {
    assert_eq!(keys::GRAMMAR, taria_schema::protocol::KEY_GRAMMAR);

    let mut corpus: Vec<String> = [
        "", " ", "+", "++", "+++", "ctrl++", "ctrl+", "ctrl+ +a", "+a", "a+", "a+b", "a", "A",
        "?", "é", "f", "F", "f0", "f1", "F12", "f24", "f25", "f255", "f256", "f1x", "fx",
        "entre", "ctrl+entre", "ctl+a", "Ctrl+S", "shift+tab", "cmd+s", "  enter  ",
        "ctrl+shift+alt+super+x", "control+option+meta+win+1", "ctrl++x", "shift+",
    ]
    .iter()
    .map(|s| (*s).to_owned())
    .collect();
    for name in keys::NAMED_KEYS {
        corpus.push((*name).to_owned());
        corpus.push(name.to_uppercase());
        corpus.push(format!("{name}x"));
        for modifier in keys::MODIFIERS {
            corpus.push(format!("{modifier}+{name}"));
            corpus.push(format!("{modifier}x+{name}"));
        }
    }
    for chord in &corpus {
        let runtime = chord.parse::<KeyChord>().is_ok();
        let macros = keys::check_key(chord).is_ok();
        assert_eq!(macros, runtime, "{chord:?}: the macros say {macros}, KeyChord {runtime}");
    }

    // Every named key the runtime writes back is a name the copy knows.
    for code in [
        KeyCode::Enter, KeyCode::Tab, KeyCode::BackTab, KeyCode::Esc, KeyCode::Backspace,
        KeyCode::Delete, KeyCode::Insert, KeyCode::Up, KeyCode::Down, KeyCode::Left,
        KeyCode::Right, KeyCode::Home, KeyCode::End, KeyCode::PageUp, KeyCode::PageDown,
        KeyCode::Char(' '), KeyCode::Char('+'),
    ] {
        let name = KeyChord { code, modifiers: KeyModifiers::NONE }.to_string();
        assert!(keys::NAMED_KEYS.contains(&name.as_str()), "{name} is not in the copy");
    }
}
