//! The key presses an input becomes: a typed character's key, and the key fallback
//! of an action no handler or widget took: a [`KeyPlan`], the keys that move the
//! selection to the node (from a selected sibling, or from nothing selected as a
//! person's first ↓ does) and then its own keys.

use ratatui::crossterm::event::{KeyCode, KeyModifiers};

use super::reach::is_item;
use crate::recorder::FrameArena;
use crate::session::answer::Answer;
use taria_schema::protocol::{KeyChord, RejectReason};
use taria_schema::{
    Action, ActionData, ActionName, ActionRequest, Role, ScrollDirection, StateFlags,
};

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

/// Why a key fallback presses nothing, in words; `rejected` for a refusal on the
/// node's state (a scroll past its last row), else nothing performs it (`ignored`).
#[derive(Debug)]
pub(super) struct NoKeys {
    pub(super) message: String,
    pub(super) rejected: Option<RejectReason>,
}

impl NoKeys {
    /// Refused for `reason`: the action is performed, but not from this state.
    fn rejected(reason: RejectReason, message: String) -> NoKeys {
        NoKeys {
            message,
            rejected: Some(reason),
        }
    }

    /// The answer.
    pub(super) fn answer(self) -> Answer {
        match self.rejected {
            Some(reason) => Answer::rejected(reason, self.message),
            None => Answer::ignored(self.message),
        }
    }
}

impl From<String> for NoKeys {
    fn from(message: String) -> NoKeys {
        NoKeys {
            message,
            rejected: None,
        }
    }
}

/// How a key fallback performs an action: the selection moved onto the node first,
/// when it is an item not shown as selected, then the node's own keys.
pub(super) struct KeyPlan {
    /// How the node gets selected before `keys` are pressed.
    pub(super) selecting: Selecting,
    /// Its focus key (when it declares one and is not focused) and its key for the
    /// action; empty for `select` by keys (moving the selection is the action).
    pub(super) keys: Vec<KeyChord>,
    /// The id of the node's parent list, to say which sibling is selected instead.
    pub(super) parent: Option<String>,
}

/// How a key fallback's node becomes the selected one.
pub(super) enum Selecting {
    /// It is shown as selected (or is no item): its keys are pressed at once.
    Already,
    /// The app's `select` handler or the node's widget selected it (`how`, in
    /// words); the frame drawn after must show it selected before its keys are
    /// pressed.
    Selected(&'static str),
    /// Keys that move the selection onto it (`how` describes them for a refusal), or
    /// why keys cannot.
    ByKeys(Result<Navigation, String>),
    /// It is an item of `holder`, which does not have focus: `keys` move the focus to
    /// `holder`; the frame drawn after must show it focused, and the keys that move
    /// the selection are then read from that frame (the app may keep, clamp or reset
    /// the selection of a list it moves the focus to).
    AfterFocus { keys: Vec<KeyChord>, holder: String },
}

/// Key presses that move a selection, and what they are in words.
pub(super) struct Navigation {
    pub(super) keys: Vec<KeyChord>,
    /// E.g. "pressing `down` 3 times".
    pub(super) how: String,
    /// The keys alone, e.g. "`down` 3 times".
    pub(super) pressed: String,
}

impl KeyPlan {
    /// Whether the node must be selected before its keys are pressed (and a
    /// `select` handler or widget could do that instead of keys).
    pub(super) fn needs_selecting(&self) -> bool {
        matches!(
            self.selecting,
            Selecting::ByKeys(_) | Selecting::AfterFocus { .. }
        ) && !self.keys.is_empty()
    }
}

/// The keys that perform `action` on node `index` through the app's own input path:
/// first moving the selection to it (for list items, rows, tabs, …) and focusing it
/// (when it declares a `focus` key), then its key for `action`. `Ok(None)` when the
/// node declares no key for the action.
pub(super) fn fallback_keys(
    arena: &FrameArena,
    index: u32,
    request: &ActionRequest,
) -> Result<Option<KeyPlan>, NoKeys> {
    let action = &request.action;
    let record = arena.nodes[index as usize];
    let navigates = is_item(record.role) && !record.flags.contains(StateFlags::SELECTED);
    let key = arena.key_for(index, action.as_str());
    if key.is_none()
        && action.core() == Some(Action::Scroll)
        && let Some(keys) = scroll_keys(arena, index, request.data.as_ref())
    {
        return keys.map(|keys| {
            Some(KeyPlan {
                selecting: Selecting::Already,
                keys,
                parent: None,
            })
        });
    }
    let select = action.core() == Some(Action::Select);
    if key.is_none() && !(select && is_item(record.role)) {
        return Ok(None);
    }
    let mut keys = Vec::new();
    let focusing = action.core() == Some(Action::Focus);
    if (focusing || !record.flags.contains(StateFlags::FOCUSED))
        && let Some(focus) = focus_keys(arena, index)
    {
        keys.extend(focus?);
    }
    if let Some(key) = key.filter(|_| !focusing) {
        keys.push(parse_fallback(key, index, arena)?);
    }
    // A declared `scroll` key goes its way once per line of the amount, and its
    // opposite the other way.
    let mut repeats = 1;
    if action.core() == Some(Action::Scroll)
        && let Some(declared) = keys.pop()
    {
        let id = arena.str(record.id);
        let (key, times) = declared_scroll(id, declared, request.data.as_ref())?;
        keys.push(key);
        repeats = times;
    }
    if let Some((key, field)) = typed_into(arena, index, &keys) {
        return Err(refused_typing(arena, index, action, key, field).into());
    }
    // Its own key alone, on a node not focused: it must reach the node (through its
    // list, for an item) as navigation keys must. After a focus key it does.
    if let ([key], false) = (
        keys.as_slice(),
        navigates || record.flags.contains(StateFlags::FOCUSED),
    ) {
        let holder = match record.parent {
            Some(parent) if is_item(record.role) => parent,
            _ => index,
        };
        if let Some(why) = super::reach::elsewhere(arena, holder, *key) {
            return Err(refused(arena, (index, holder), action, (*key, repeats), &why).into());
        }
    }
    if let Some(&last) = keys.last() {
        keys.extend(std::iter::repeat_n(last, repeats - 1));
    }
    let unfocused_holder = record
        .parent
        .filter(|&p| navigates && !arena.nodes[p as usize].flags.contains(StateFlags::FOCUSED));
    let selecting = if let Some(holder) = unfocused_holder
        && let Some(focus) = focus_keys(arena, holder)
    {
        Selecting::AfterFocus {
            keys: focus?,
            holder: arena.str(arena.nodes[holder as usize].id).to_owned(),
        }
    } else if navigates {
        Selecting::ByKeys(navigation(arena, index, action))
    } else {
        Selecting::Already
    };
    let parent = record
        .parent
        .map(|p| arena.str(arena.nodes[p as usize].id).to_owned());
    Ok(Some(KeyPlan {
        selecting,
        keys,
        parent,
    }))
}

/// The keys that give node `index` the focus, when it declares a key for `focus`:
/// that key; or, for keys it moves the focus by among its siblings
/// ([`NodeBuilder::focus_cycle`](crate::NodeBuilder::focus_cycle)), `next` or
/// `previous` as many times as the tree shows it away from the sibling that has focus
/// (none when it has). The refusal when the tree does not tell how far.
fn focus_keys(arena: &FrameArena, index: u32) -> Option<Result<Vec<KeyChord>, NoKeys>> {
    let declared = arena.key_for(index, Action::Focus.name())?;
    let Some((next, previous)) = focus_cycle(declared) else {
        return Some(
            parse_fallback(declared, index, arena)
                .map(|key| vec![key])
                .map_err(Into::into),
        );
    };
    Some(
        cycle_presses(arena, index, declared).and_then(|(forward, times)| {
            let key = parse_fallback(if forward { next } else { previous }, index, arena)?;
            Ok(vec![key; times])
        }),
    )
}

/// The two keys of a focus key written by `focus_cycle`: `"l (next) / h (previous)"`.
fn focus_cycle(declared: &str) -> Option<(&str, &str)> {
    declared
        .strip_suffix(" (previous)")?
        .split_once(" (next) / ")
}

/// Which way and how many presses move the focus to node `index` among the live
/// nodes beside it (same parent) that declare the same focus keys, in the order they
/// are drawn.
fn cycle_presses(arena: &FrameArena, index: u32, declared: &str) -> Result<(bool, usize), NoKeys> {
    let parent = arena.nodes[index as usize].parent;
    let ring: Vec<u32> = super::reach::live(arena)
        .filter(|&n| {
            arena.nodes[n as usize].parent == parent
                && arena.key_for(n, Action::Focus.name()) == Some(declared)
        })
        .collect();
    let at = |node: u32| ring.iter().position(|&n| n == node);
    let focused = ring
        .iter()
        .copied()
        .find(|&n| arena.nodes[n as usize].flags.contains(StateFlags::FOCUSED));
    let id = arena.str(arena.nodes[index as usize].id);
    let (Some(from), Some(to)) = (focused.and_then(at), at(index)) else {
        return Err(format!(
            "the focus cannot be moved to `{id}` by its keys ({declared}): none of the {} \
             nodes they move it among shows focus now, so how far it is cannot be told",
            ring.len()
        )
        .into());
    };
    let times = from.abs_diff(to);
    if times > MAX_FALLBACK_KEYS {
        return Err(format!("moving the focus to `{id}` would take {times} key presses").into());
    }
    Ok((to > from, times))
}

/// The keys of a `scroll` (`data`) on node `index`, a container of items that declares
/// no key for it: its next or previous arrow (see [`super::reach::arrows`]) once per
/// item of the amount, moving its selection as a list's own scroll does in
/// taria-widgets, stopping at its first and last item (by the items' `index` of
/// `count`, else the items drawn). `None` when `index` holds no items; the refusal
/// when the keys cannot do it or may not reach it.
fn scroll_keys(
    arena: &FrameArena,
    index: u32,
    data: Option<&ActionData>,
) -> Option<Result<Vec<KeyChord>, NoKeys>> {
    let items: Vec<u32> = arena
        .children(index)
        .filter(|&c| is_item(arena.nodes[c as usize].role))
        .collect();
    if items.is_empty() {
        return None;
    }
    let id = arena.str(arena.nodes[index as usize].id);
    let (next, previous) = super::reach::arrows(arena.nodes[index as usize].role);
    let (down, amount) = match scroll_along(id, data, next.code == KeyCode::Down) {
        Ok(along) => along,
        Err(refused) => return Some(Err(refused)),
    };
    let position = |node: u32, ordinal: usize| {
        let at = arena.nodes[node as usize].position;
        at.index.map_or(ordinal, |i| i as usize)
    };
    let count = items
        .iter()
        .find_map(|&i| arena.nodes[i as usize].position.count)
        .map_or(items.len(), |c| c as usize);
    let selected = items
        .iter()
        .enumerate()
        .find(|&(_, &i)| arena.nodes[i as usize].flags.contains(StateFlags::SELECTED))
        .map(|(ordinal, &i)| position(i, ordinal));
    let times = match (selected, down) {
        // Nothing selected: the first "next" selects the first item.
        (None, true) => amount.min(count),
        (None, false) => 0,
        (Some(at), true) => amount.min(count.saturating_sub(at + 1)),
        (Some(at), false) => amount.min(at),
    };
    if times == 0 {
        let why = match (selected, down) {
            (None, _) => "nothing in it is selected to move back from".to_owned(),
            (Some(_), true) => format!("its last item ({}) is selected already", count - 1),
            (Some(_), false) => "its first item is selected already".to_owned(),
        };
        return Some(Err(NoKeys::rejected(
            RejectReason::OutOfDomain,
            format!("`scroll` on `{id}` was not performed: {why}"),
        )));
    }
    if let Err(refused) = within_presses(id, times) {
        return Some(Err(refused));
    }
    let key = if down { next } else { previous };
    if let Some(why) = super::reach::elsewhere(arena, index, key) {
        return Some(Err(format!(
            "`scroll` on `{id}` was not performed and no key was pressed: {why}; press_key \
             `{key}` yourself where you know it lands"
        )
        .into()));
    }
    Some(Ok(vec![key; times]))
}

/// The key and how many presses of it perform a `scroll` (`data`) on node `id`,
/// whose declared key fallback for `scroll` is `declared`: the key that scrolls
/// forward (down, or right for `right` and `l`), pressed once per line of the amount,
/// and for the other way its opposite (`up` for `down`, `pageup` for `pagedown`, `k`
/// for `j`, …). A scroll across its axis, or back where the key has no opposite, is
/// refused.
fn declared_scroll(
    id: &str,
    declared: KeyChord,
    data: Option<&ActionData>,
) -> Result<(KeyChord, usize), NoKeys> {
    let opposite = match declared.code {
        KeyCode::Down => Some(KeyCode::Up),
        KeyCode::PageDown => Some(KeyCode::PageUp),
        KeyCode::Right => Some(KeyCode::Left),
        KeyCode::Char('j') => Some(KeyCode::Char('k')),
        KeyCode::Char('l') => Some(KeyCode::Char('h')),
        _ => None,
    };
    let horizontal = matches!(declared.code, KeyCode::Right | KeyCode::Char('l'));
    let (forward, amount) = scroll_along(id, data, !horizontal)?;
    let key = match (forward, opposite) {
        (true, _) => declared,
        (false, Some(code)) => KeyChord {
            code,
            modifiers: declared.modifiers,
        },
        (false, None) => {
            return Err(NoKeys::rejected(
                RejectReason::OutOfDomain,
                format!(
                    "`scroll` on `{id}` was not performed: the app's key for it, \
                     `{declared}`, scrolls forward only"
                ),
            ));
        }
    };
    if amount == 0 {
        return Err(NoKeys::rejected(
            RejectReason::OutOfDomain,
            format!("`scroll` on `{id}` was not performed: a scroll of 0 moves nothing"),
        ));
    }
    let times = within_presses(id, amount)?;
    Ok((key, times))
}

/// How a `scroll` (`data`) on node `id`, whose keys go along one axis (`vertical`,
/// else left and right), goes: forward (down, right) or back, and by how much. Refused
/// without a direction, or across the axis.
fn scroll_along(
    id: &str,
    data: Option<&ActionData>,
    vertical: bool,
) -> Result<(bool, usize), NoKeys> {
    let Some(ActionData::Scroll { direction, amount }) = data else {
        return Err(format!("`scroll` on `{id}` needs a direction and an amount").into());
    };
    if vertical != matches!(direction, ScrollDirection::Down | ScrollDirection::Up) {
        let way = if vertical {
            "up and down"
        } else {
            "left and right"
        };
        return Err(NoKeys::rejected(
            RejectReason::OutOfDomain,
            format!(
                "`scroll` on `{id}` was not performed: it scrolls {way} only (its keys go that way)"
            ),
        ));
    }
    let forward = matches!(direction, ScrollDirection::Down | ScrollDirection::Right);
    Ok((forward, usize::try_from(*amount).unwrap_or(usize::MAX)))
}

/// `times` key presses for a scroll of node `id`, or the refusal past
/// [`MAX_FALLBACK_KEYS`].
fn within_presses(id: &str, times: usize) -> Result<usize, NoKeys> {
    if times > MAX_FALLBACK_KEYS {
        return Err(NoKeys::rejected(
            RejectReason::OutOfDomain,
            format!(
                "scrolling `{id}` by keys would take {times} key presses; scroll less at a time"
            ),
        ));
    }
    Ok(times)
}

/// The keys that move the selection onto item `index` in frame `arena`, if they reach
/// its list; else why not.
pub(super) fn navigation(
    arena: &FrameArena,
    index: u32,
    action: &ActionName,
) -> Result<Navigation, String> {
    selection_keys(arena, index).and_then(|keys| reaching(arena, index, action, keys))
}

/// `navigation` for node `index`, if its keys reach the node's container (decided
/// from the tree, before anything is pressed: [`super::reach`]); else the refusal.
fn reaching(
    arena: &FrameArena,
    index: u32,
    action: &ActionName,
    navigation: Navigation,
) -> Result<Navigation, String> {
    let (Some(&key), Some(container)) =
        (navigation.keys.first(), arena.nodes[index as usize].parent)
    else {
        return Ok(navigation);
    };
    let Some(why) = super::reach::elsewhere(arena, container, key) else {
        return Ok(navigation);
    };
    Err(refused(
        arena,
        (index, container),
        action,
        (key, navigation.keys.len()),
        &why,
    ))
}

/// The refusal of a key fallback on node `index` whose `key` (pressed `times`) may
/// not reach `holder` (the node, or its list), for `why`: nothing was pressed.
fn refused(
    arena: &FrameArena,
    (index, holder): (u32, u32),
    action: &ActionName,
    (key, times): (KeyChord, usize),
    why: &str,
) -> String {
    let name = arena.str(arena.nodes[holder as usize].id);
    // Only what the tree says: `focus` offered, else a key of the app's, if it has one.
    let focus = if arena.nodes[holder as usize].actions.contains(Action::Focus) {
        format!("focus `{name}` first (act focus on it) and retry")
    } else {
        format!(
            "if the app has a key that moves the focus to `{name}`, press it until the tree \
             shows `{name}` focused and retry"
        )
    };
    let times = match times {
        1 => String::new(),
        n => format!(", repeat {n}"),
    };
    format!(
        "`{action}` on `{id}` was not performed and no key was pressed: {why}; {focus}, or \
         press_key `{key}`{times} yourself where you know it lands",
        id = arena.str(arena.nodes[index as usize].id),
    )
}

/// A printable key of `keys` and the focused text field (one that is not node
/// `index`, nor around or inside it, nor behind a modal dialog) it would most likely
/// be typed into: an app sends its keys to the field that has focus.
fn typed_into(arena: &FrameArena, index: u32, keys: &[KeyChord]) -> Option<(KeyChord, u32)> {
    let printable = keys.iter().find(|key| {
        matches!(key.code, KeyCode::Char(_)) && (key.modifiers - KeyModifiers::SHIFT).is_empty()
    })?;
    let end = |node: u32| arena.nodes[node as usize].end;
    let field = super::reach::live(arena).find(|&node| {
        let record = arena.nodes[node as usize];
        matches!(record.role, Role::TextInput | Role::TextArea)
            && record.flags.contains(StateFlags::FOCUSED)
            && !(node <= index && index < end(node))
            && !(index < node && node < end(index))
    })?;
    Some((*printable, field))
}

/// The refusal of a key fallback on node `index` whose printable `key` would be
/// typed into `field`, a text field with focus: nothing was pressed.
fn refused_typing(
    arena: &FrameArena,
    index: u32,
    action: &ActionName,
    key: KeyChord,
    field: u32,
) -> String {
    format!(
        "`{action}` on `{id}` was not performed and no key was pressed: its key `{key}` \
         would be typed into `{field}`, the text field that has focus; take the focus \
         from `{field}` first (with the app's key for that, often `esc`) and retry",
        id = arena.str(arena.nodes[index as usize].id),
        field = arena.str(arena.nodes[field as usize].id),
    )
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
/// for tabs, menus and toolbars, up/down otherwise). With no sibling selected the
/// first "next" selects the first item, as ratatui's `ListState::select_next` and
/// `TableState::select_next` do from `None`: the node at index `i` takes `i + 1`.
fn selection_keys(arena: &FrameArena, index: u32) -> Result<Navigation, String> {
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
    let selected = siblings
        .iter()
        .find(|&&s| arena.nodes[s as usize].flags.contains(StateFlags::SELECTED));
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
        let (n, p) = super::reach::arrows(parent_record.role);
        (n, Some(p), 0)
    };
    let (key, times) = match selected {
        // Nothing selected: the first "next" selects the first item.
        None => (next, position(index).saturating_add(1).unsigned_abs()),
        Some(&selected) => {
            let delta = position(index) - position(selected);
            match previous {
                Some(previous) if delta < 0 => (previous, delta.unsigned_abs()),
                Some(_) => (next, delta.unsigned_abs()),
                None => (next, delta.rem_euclid(count.max(1)).unsigned_abs()),
            }
        }
    };
    let times = usize::try_from(times).unwrap_or(usize::MAX);
    if times > MAX_FALLBACK_KEYS {
        return Err(format!(
            "selecting `{id}` by keys would take {times} key presses; the app needs a handler for `select` (or a taria-widgets widget that takes it)"
        ));
    }
    let from = if selected.is_some() {
        ""
    } else {
        " from nothing selected"
    };
    let pressed = match times {
        1 => format!("`{key}` once"),
        n => format!("`{key}` {n} times"),
    };
    Ok(Navigation {
        keys: vec![key; times],
        how: format!("pressing {pressed}{from}"),
        pressed: format!("{pressed}{from}"),
    })
}
