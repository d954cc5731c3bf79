//! The key presses an input becomes: a typed character's key, and the key fallback
//! of an action no handler or widget took (moving the selection to the node first).

use ratatui::crossterm::event::{KeyCode, KeyModifiers};

use crate::recorder::FrameArena;
use crate::{Action, ActionName, KeyChord, Role, StateFlags};

/// The most key presses one action may turn into (navigation included).
const MAX_FALLBACK_KEYS: usize = 512;

/// The key a terminal reports for a typed character.
pub(super) fn chord_for_char(c: char) -> KeyChord {
    match c {
        '\n' | '\r' => KeyChord {
            code: KeyCode::Enter,
            modifiers: KeyModifiers::NONE,
        },
        '\t' => KeyChord {
            code: KeyCode::Tab,
            modifiers: KeyModifiers::NONE,
        },
        c if c.is_uppercase() => KeyChord {
            code: KeyCode::Char(c),
            modifiers: KeyModifiers::SHIFT,
        },
        c => KeyChord {
            code: KeyCode::Char(c),
            modifiers: KeyModifiers::NONE,
        },
    }
}

/// Roles whose nodes are chosen among siblings by moving a selection.
fn is_item(role: Role) -> bool {
    matches!(
        role,
        Role::ListItem
            | Role::Row
            | Role::Tab
            | Role::TreeItem
            | Role::Option
            | Role::MenuItem
            | Role::Radio
    )
}

/// The key presses that perform `action` on node `index` through the app's own input
/// path: first moving the selection to it (for list items, rows, tabs, …) and
/// focusing it (when it declares a `focus` key), then its key for `action`.
/// `Ok(None)` when the node declares no key for the action.
pub(super) fn fallback_keys(
    arena: &FrameArena,
    index: u32,
    action: &ActionName,
) -> Result<Option<Vec<KeyChord>>, String> {
    let record = arena.nodes[index as usize];
    let navigates = is_item(record.role) && !record.flags.contains(StateFlags::SELECTED);
    let key = arena.key_for(index, action.as_str());
    let select = action.core() == Some(Action::Select);
    if key.is_none() && !(select && is_item(record.role)) {
        return Ok(None);
    }
    let mut keys = Vec::new();
    if navigates {
        keys.extend(selection_keys(arena, index)?);
    }
    if action.core() != Some(Action::Focus)
        && !record.flags.contains(StateFlags::FOCUSED)
        && let Some(focus) = arena.key_for(index, Action::Focus.name())
    {
        keys.push(parse_fallback(focus, index, arena)?);
    }
    if let Some(key) = key {
        keys.push(parse_fallback(key, index, arena)?);
    }
    Ok(Some(keys))
}

fn parse_fallback(key: &str, index: u32, arena: &FrameArena) -> Result<KeyChord, String> {
    key.parse().map_err(|e| {
        format!(
            "the app declares a bad key fallback on `{}`: {e}",
            arena.str(arena.nodes[index as usize].id)
        )
    })
}

/// Keys that move the selection among `index`'s siblings onto it: the parent's
/// `select` key fallback, taken as "next" (cycling), or else the arrow keys (left/right
/// for tabs, menus and toolbars, up/down otherwise).
fn selection_keys(arena: &FrameArena, index: u32) -> Result<Vec<KeyChord>, String> {
    let record = arena.nodes[index as usize];
    let id = arena.str(record.id);
    let Some(parent) = record.parent else {
        return Err(format!(
            "cannot select `{id}` by keys: it has no parent list"
        ));
    };
    let siblings: Vec<u32> = arena
        .children(parent)
        .filter(|&c| is_item(arena.nodes[c as usize].role))
        .collect();
    let position = |node: u32| {
        let ordinal = siblings.iter().position(|&s| s == node).unwrap_or(0);
        i64::from(
            arena.nodes[node as usize]
                .position
                .index
                .unwrap_or(ordinal as u32),
        )
    };
    let Some(&selected) = siblings
        .iter()
        .find(|&&s| arena.nodes[s as usize].flags.contains(StateFlags::SELECTED))
    else {
        return Err(format!(
            "cannot select `{id}` by keys: none of its siblings is shown as selected; select one first"
        ));
    };
    let delta = position(index) - position(selected);
    let parent_record = arena.nodes[parent as usize];
    let (next, previous, count) = if let Some(key) = arena.key_for(parent, Action::Select.name()) {
        let next = parse_fallback(key, parent, arena)?;
        (
            next,
            None,
            parent_record
                .position
                .count
                .map_or(i64::try_from(siblings.len()).unwrap_or(i64::MAX), i64::from),
        )
    } else {
        let horizontal = matches!(parent_record.role, Role::Tabs | Role::Menu | Role::Toolbar);
        let (n, p) = if horizontal {
            (KeyCode::Right, KeyCode::Left)
        } else {
            (KeyCode::Down, KeyCode::Up)
        };
        let chord = |code| KeyChord {
            code,
            modifiers: KeyModifiers::NONE,
        };
        (chord(n), Some(chord(p)), 0)
    };
    let (key, times) = match previous {
        Some(previous) if delta < 0 => (previous, delta.unsigned_abs()),
        Some(_) => (next, delta.unsigned_abs()),
        None => (next, delta.rem_euclid(count.max(1)).unsigned_abs()),
    };
    let times = usize::try_from(times).unwrap_or(usize::MAX);
    if times > MAX_FALLBACK_KEYS {
        return Err(format!(
            "selecting `{id}` by keys would take {times} key presses; the app needs a handler for `select`"
        ));
    }
    Ok(vec![key; times])
}
