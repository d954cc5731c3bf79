//! Validating an agent's action against the last drawn tree, and routing it: the
//! app's handler first, then the node's key fallback.

use ratatui::crossterm::event::{KeyCode, KeyModifiers};

use std::borrow::Cow;

use super::{Answer, Session};
use crate::recorder::FrameArena;
use crate::wire::{ActionTarget, Refusal, RejectReason, check_action};
use crate::{
    Action, ActionData, ActionName, ActionRequest, Actions, Invocation, KeyChord, Outcome, Role,
    StateFlags, ValueSchema,
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

impl Session {
    pub(super) fn act<A: Actions + ?Sized>(
        &mut self,
        app: &mut A,
        connection: u64,
        seq: u64,
        mut request: ActionRequest,
    ) -> Option<Answer> {
        let arena = self.recorder.arena();
        let index = match validate(arena, &mut request) {
            Ok(index) => index,
            Err(answer) => return Some(answer),
        };
        let position = arena.nodes[index as usize].position.index;
        match app.handle_action(&Invocation::of(&request, position)) {
            Outcome::Handled => return Some(Answer::delivered()),
            Outcome::Rejected(reason) => {
                return Some(Answer::rejected(RejectReason::HandlerRejected, reason));
            }
            Outcome::NotHandled => {}
        }
        // Hold it for the next frame: a stateful widget may take it while rendering;
        // if none does, its key fallback (worked out now, against the tree the agent
        // saw) presses it through the app's input path.
        let fallback = fallback_keys(self.recorder.arena(), index, &request.action);
        self.widget_actions.push(super::widget_route::WidgetAction {
            connection,
            seq,
            request,
            index: position,
            fallback,
            outcome: None,
        });
        None
    }
}

/// A node of the frame the app last drew, as [`check_action`] sees it.
struct Drawn<'a> {
    arena: &'a FrameArena,
    index: u32,
}

impl ActionTarget for Drawn<'_> {
    fn offers(&self, action: &ActionName) -> bool {
        match action {
            ActionName::Core(action) => self.arena.nodes[self.index as usize]
                .actions
                .contains(*action),
            ActionName::Custom(name) => self.arena.custom_actions(self.index).any(|a| a == name),
        }
    }

    fn is_disabled(&self) -> bool {
        self.arena.nodes[self.index as usize]
            .flags
            .contains(StateFlags::DISABLED)
    }

    fn value_schema(&self) -> Option<Cow<'_, ValueSchema>> {
        self.arena.nodes[self.index as usize]
            .actions
            .contains(Action::SetValue)
            .then(|| Cow::Owned(crate::recorder::schema_of(self.arena, self.index)))
    }
}

/// Checks the request against the node as last drawn (the node is there and is the
/// one the sender saw, then [`check_action`]); the value becomes the one applied.
/// Returns the node's index.
fn validate(arena: &FrameArena, request: &mut ActionRequest) -> Result<u32, Answer> {
    let node = request.target.as_str();
    let Some(index) = arena.find(node) else {
        return Err(Answer::rejected(
            RejectReason::UnknownNode,
            format!("no node `{node}` in the tree the app last drew; read the tree again"),
        ));
    };
    let record = arena.nodes[index as usize];
    let names = || {
        let mut names: Vec<&str> = record.actions.iter().map(Action::name).collect();
        names.extend(arena.custom_actions(index));
        names
    };
    if let Some(token) = &request.token {
        let current = crate::wire::token_from_parts(
            record.role.name(),
            record.custom_role.map_or("", |s| arena.str(s)),
            record.label.map_or("", |s| arena.str(s)),
            names().into_iter(),
        );
        if current != *token {
            return Err(Answer::rejected(
                RejectReason::StaleTarget,
                format!(
                    "`{node}` is now another node than the one you read (it changed or moved); read the tree again"
                ),
            ));
        }
    }
    let value = match request.data.take() {
        Some(ActionData::Value { value }) => Some(value),
        other => {
            request.data = other;
            None
        }
    };
    match check_action(&Drawn { arena, index }, &request.action, value) {
        Ok(value) => {
            if let Some(value) = value {
                request.data = Some(ActionData::Value { value });
            }
            Ok(index)
        }
        Err(refusal) => {
            let message = match &refusal {
                Refusal::NotOffered => {
                    let names = names();
                    let offers = if names.is_empty() {
                        "no actions".to_owned()
                    } else {
                        names.join(", ")
                    };
                    format!(
                        "`{node}` does not offer `{}`; it offers: {offers}",
                        request.action
                    )
                }
                Refusal::Disabled => format!("`{node}` is disabled now"),
                Refusal::MissingValue => "`set_value` needs a value".to_owned(),
                Refusal::OutOfDomain(error) => format!("`{node}`: {error}"),
            };
            Err(Answer::rejected(refusal.reason(), message))
        }
    }
}

/// The key presses that perform `action` on node `index` through the app's own input
/// path: first moving the selection to it (for list items, rows, tabs, …) and
/// focusing it (when it declares a `focus` key), then its key for `action`.
/// `Ok(None)` when the node declares no key for the action.
fn fallback_keys(
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
