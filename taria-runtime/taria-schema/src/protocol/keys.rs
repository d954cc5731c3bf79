//! The key grammar agents and key fallbacks use: `ctrl+s`, `shift+tab`, `f5`,
//! `enter`, `space`, `a`, `A`, `alt+left`, `pgdn`.
//!
//! A chord is zero or more modifiers (`ctrl`, `alt`, `shift`, `super`, joined with
//! `+`) and one key: a single character, or a named key. Names are case-insensitive;
//! a single character is taken as written (`A` is shift+a as a terminal reports it).

use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

/// The named keys, with their aliases, in the form `KeyChord` displays them.
const NAMED: &[(&str, KeyCode)] = &[
    ("enter", KeyCode::Enter),
    ("return", KeyCode::Enter),
    ("tab", KeyCode::Tab),
    ("backtab", KeyCode::BackTab),
    ("space", KeyCode::Char(' ')),
    ("esc", KeyCode::Esc),
    ("escape", KeyCode::Esc),
    ("backspace", KeyCode::Backspace),
    ("delete", KeyCode::Delete),
    ("del", KeyCode::Delete),
    ("insert", KeyCode::Insert),
    ("ins", KeyCode::Insert),
    ("up", KeyCode::Up),
    ("down", KeyCode::Down),
    ("left", KeyCode::Left),
    ("right", KeyCode::Right),
    ("home", KeyCode::Home),
    ("end", KeyCode::End),
    ("pageup", KeyCode::PageUp),
    ("pgup", KeyCode::PageUp),
    ("pagedown", KeyCode::PageDown),
    ("pgdn", KeyCode::PageDown),
    ("plus", KeyCode::Char('+')),
];

/// What a key chord must look like, for error messages.
pub const KEY_GRAMMAR: &str = "a key is `[modifier+]…key`: modifiers ctrl, alt, shift, super; key a single character \
     (`a`, `A`, `?`), f1-f24, or one of enter, tab, space, esc, backspace, delete, insert, up, down, left, right, \
     home, end, pageup, pagedown, plus (e.g. `ctrl+s`, `shift+tab`, `f5`)";

/// A parsed key chord.
///
/// # Examples
///
/// ```
/// use ratatui::crossterm::event::{KeyCode, KeyModifiers};
/// use taria_schema::protocol::KeyChord;
///
/// let chord: KeyChord = "ctrl+s".parse().unwrap();
/// assert_eq!((chord.code, chord.modifiers), (KeyCode::Char('s'), KeyModifiers::CONTROL));
/// assert_eq!(chord.to_string(), "ctrl+s");
/// assert_eq!("PgDn".parse::<KeyChord>().unwrap().to_string(), "pagedown");
/// assert!("ctrl+".parse::<KeyChord>().is_err());
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct KeyChord {
    /// The key.
    pub code: KeyCode,
    /// Its modifiers.
    pub modifiers: KeyModifiers,
}

/// Why a key chord does not parse.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("`{input}` is not a key: {KEY_GRAMMAR}")]
pub struct KeyParseError {
    input: String,
}

impl std::str::FromStr for KeyChord {
    type Err = KeyParseError;

    fn from_str(input: &str) -> Result<KeyChord, KeyParseError> {
        let error = || KeyParseError {
            input: input.chars().take(64).collect(),
        };
        let trimmed = input.trim();
        // `+` alone or as the last part (`ctrl++`) is the plus key.
        let (mods, key) = match trimmed.strip_suffix("++") {
            Some(rest) => (rest, "+"),
            None => match trimmed.rsplit_once('+') {
                Some((mods, key)) if !key.is_empty() => (mods, key),
                Some(_) if trimmed == "+" => ("", "+"),
                Some(_) => return Err(error()),
                None => ("", trimmed),
            },
        };
        let mut modifiers = KeyModifiers::NONE;
        for part in mods
            .split('+')
            .filter(|p| !mods.is_empty() || !p.is_empty())
        {
            modifiers |= match part.to_ascii_lowercase().as_str() {
                "ctrl" | "control" => KeyModifiers::CONTROL,
                "alt" | "meta" | "option" => KeyModifiers::ALT,
                "shift" => KeyModifiers::SHIFT,
                "super" | "cmd" | "win" => KeyModifiers::SUPER,
                _ => return Err(error()),
            };
        }
        let mut chars = key.chars();
        let code = if let (Some(c), None) = (chars.next(), chars.next()) {
            KeyCode::Char(c)
        } else {
            let lower = key.to_ascii_lowercase();
            if let Some(n) = lower.strip_prefix('f').and_then(|n| n.parse::<u8>().ok()) {
                if !(1..=24).contains(&n) {
                    return Err(error());
                }
                KeyCode::F(n)
            } else {
                NAMED
                    .iter()
                    .find(|(name, _)| *name == lower)
                    .map(|(_, code)| *code)
                    .ok_or_else(error)?
            }
        };
        let code = match code {
            KeyCode::Tab if modifiers.contains(KeyModifiers::SHIFT) => KeyCode::BackTab,
            other => other,
        };
        Ok(KeyChord { code, modifiers })
    }
}

impl std::fmt::Display for KeyChord {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        for (flag, name) in [
            (KeyModifiers::CONTROL, "ctrl"),
            (KeyModifiers::ALT, "alt"),
            (KeyModifiers::SHIFT, "shift"),
            (KeyModifiers::SUPER, "super"),
        ] {
            if self.modifiers.contains(flag) {
                write!(f, "{name}+")?;
            }
        }
        match self.code {
            KeyCode::Char(' ') => f.write_str("space"),
            KeyCode::Char('+') => f.write_str("plus"),
            KeyCode::Char(c) => write!(f, "{c}"),
            KeyCode::F(n) => write!(f, "f{n}"),
            KeyCode::BackTab if self.modifiers.contains(KeyModifiers::SHIFT) => f.write_str("tab"),
            other => {
                let name = NAMED
                    .iter()
                    .find(|(_, code)| *code == other)
                    .map_or("unknown", |(name, _)| *name);
                f.write_str(name)
            }
        }
    }
}

impl KeyChord {
    /// The key event a terminal would report for this chord (a press).
    #[must_use]
    pub fn to_event(self) -> KeyEvent {
        KeyEvent::new(self.code, self.modifiers)
    }
}

impl From<KeyChord> for KeyEvent {
    fn from(chord: KeyChord) -> Self {
        chord.to_event()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn chord(s: &str) -> KeyChord {
        s.parse().unwrap_or_else(|e| panic!("{e}"))
    }

    #[test]
    fn parses_modifiers_named_keys_and_characters() {
        assert_eq!(
            chord("ctrl+s"),
            KeyChord {
                code: KeyCode::Char('s'),
                modifiers: KeyModifiers::CONTROL
            }
        );
        assert_eq!(
            chord("Ctrl+Alt+Delete").modifiers,
            KeyModifiers::CONTROL | KeyModifiers::ALT
        );
        assert_eq!(
            chord("shift+tab"),
            KeyChord {
                code: KeyCode::BackTab,
                modifiers: KeyModifiers::SHIFT
            }
        );
        assert_eq!(chord("f5").code, KeyCode::F(5));
        assert_eq!(chord("space").code, KeyCode::Char(' '));
        assert_eq!(chord("A").code, KeyCode::Char('A'));
        assert_eq!(chord("+").code, KeyCode::Char('+'));
        assert_eq!(
            chord("ctrl++"),
            KeyChord {
                code: KeyCode::Char('+'),
                modifiers: KeyModifiers::CONTROL
            }
        );
        assert_eq!(chord("pgdn").code, KeyCode::PageDown);
        assert_eq!(chord("é").code, KeyCode::Char('é'));
    }

    #[test]
    fn rejects_what_is_not_a_key_and_says_the_grammar() {
        for bad in [
            "",
            "ctrl+",
            "hyper+a",
            "f0",
            "f25",
            "enterr",
            "ctrl+shift",
            "a+b+",
        ] {
            let error = bad.parse::<KeyChord>().unwrap_err().to_string();
            assert!(
                error.contains("modifiers ctrl, alt, shift"),
                "{bad}: {error}"
            );
        }
    }

    #[test]
    fn displays_in_canonical_form_that_parses_back() {
        for s in [
            "ctrl+s",
            "shift+tab",
            "f12",
            "space",
            "enter",
            "alt+left",
            "ctrl+plus",
            "A",
            "pagedown",
        ] {
            let c = chord(s);
            assert_eq!(c.to_string(), s);
            assert_eq!(chord(&c.to_string()), c);
        }
    }
}
