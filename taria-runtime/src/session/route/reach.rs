//! Whether a key fallback's navigation keys reach the container meant, decided from
//! the tree before anything is pressed: a key goes to whatever has focus in the app,
//! so it is pressed only when the container is the one thing in the tree that takes
//! it, or the focus shows it is the one (the nearest taker around the focused node,
//! or the only one inside it). Tabs inside a tab page are why: `right` meant for the
//! inner tabs switches the outer ones when those have focus.

use ratatui::crossterm::event::{KeyCode, KeyModifiers};

use crate::recorder::FrameArena;
use taria_schema::protocol::KeyChord;
use taria_schema::{Action, Role, StateFlags};

/// Roles whose nodes are chosen among siblings by moving a selection.
pub(super) fn is_item(role: Role) -> bool {
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

/// The keys that move a container's selection when it declares no `select` key:
/// next and previous (left/right for tabs, menus and toolbars, else down/up).
pub(super) fn arrows(role: Role) -> (KeyChord, KeyChord) {
    let (next, previous) = if matches!(role, Role::Tabs | Role::Menu | Role::Toolbar) {
        (KeyCode::Right, KeyCode::Left)
    } else {
        (KeyCode::Down, KeyCode::Up)
    };
    let chord = |code| KeyChord {
        code,
        modifiers: KeyModifiers::NONE,
    };
    (chord(next), chord(previous))
}

/// How a node takes a key, for a refusal's words.
enum Takes {
    /// The key moves the selection among its items.
    Moves,
    /// It declares the key as its key fallback for an action (named).
    Declares(String),
}

/// Why `key`, pressed to move the selection of `container`, may land elsewhere:
/// `None` when it reaches `container`, else the reason in words (it names the
/// other node that takes the key, and what has focus).
pub(super) fn elsewhere(arena: &FrameArena, container: u32, key: KeyChord) -> Option<String> {
    // The nodes that take the key, each by its holder: an item's key acts on its
    // container's selection, so items count as their container.
    let mut takers: Vec<(u32, Takes)> = Vec::new();
    for index in live(arena) {
        if let Some(takes) = takes(arena, index, key) {
            let record = arena.nodes[index as usize];
            let holder = match record.parent {
                Some(parent) if is_item(record.role) => parent,
                _ => index,
            };
            if !takers.iter().any(|(h, _)| *h == holder) {
                takers.push((holder, takes));
            }
        }
    }
    let other = takers.iter().find(|(holder, _)| *holder != container)?;
    let name = |index: u32| arena.str(arena.nodes[index as usize].id).to_owned();
    let is_taker = |index: u32| takers.iter().any(|(h, _)| *h == index);
    let focused = live(arena)
        .filter(|&i| arena.nodes[i as usize].flags.contains(StateFlags::FOCUSED))
        .last();
    let Some(focused) = focused else {
        let how = match &other.1 {
            // A guess: a list that declares no key may take the arrows, or not.
            Takes::Moves => format!(
                "may move the selection of `{}` instead (it declares no keys, so it may \
                 take the arrows too)",
                name(other.0)
            ),
            Takes::Declares(action) => {
                format!("is also `{}`'s key for `{action}`", name(other.0))
            }
        };
        return Some(format!(
            "`{key}` {how}, and nothing in the tree shows which has focus"
        ));
    };
    // The nearest taker around the focused node gets the key; with none around it,
    // the takers inside it.
    let mut around = Some(focused);
    while let Some(node) = around {
        if is_taker(node) {
            if node == container {
                return None;
            }
            let how = match takers.iter().find(|(h, _)| *h == node).map(|t| &t.1) {
                Some(Takes::Declares(action)) => format!("`{key}` is its key for `{action}`"),
                _ => format!("`{key}` moves its selection"),
            };
            return Some(format!("`{}` has focus, and {how}", name(node)));
        }
        around = arena.nodes[node as usize].parent;
    }
    let inside = arena.nodes[focused as usize].end;
    let within: Vec<u32> = takers
        .iter()
        .map(|(h, _)| *h)
        .filter(|&h| h > focused && h < inside)
        .collect();
    if within == [container] {
        return None;
    }
    let others: Vec<String> = takers
        .iter()
        .filter(|(h, _)| *h != container)
        .map(|(h, _)| format!("`{}`", name(*h)))
        .collect();
    Some(format!(
        "`{}` has focus, and `{key}` may reach {} instead",
        name(focused),
        others.join(" or ")
    ))
}

/// The nodes an input can reach: all of them, or only a modal dialog's.
pub(super) fn live(arena: &FrameArena) -> impl Iterator<Item = u32> + '_ {
    match arena.modal {
        Some(modal) => modal..arena.nodes[modal as usize].end,
        None => 0..u32::try_from(arena.nodes.len()).unwrap_or(u32::MAX),
    }
}

/// Whether node `index` takes `key`: it declares it as a key fallback, or it is a
/// container of items offering `select` that declares no `select` key, and `key` is
/// one of its arrows.
fn takes(arena: &FrameArena, index: u32, key: KeyChord) -> Option<Takes> {
    let record = arena.nodes[index as usize];
    let names = Action::ALL
        .iter()
        .map(|a| a.name())
        .chain(arena.custom_actions(index));
    for action in names {
        let declared = arena.key_for(index, action);
        if declared.is_some_and(|d| d.parse::<KeyChord>().is_ok_and(|d| d == key)) {
            return Some(if action == Action::Select.name() {
                Takes::Moves
            } else {
                Takes::Declares(action.to_owned())
            });
        }
    }
    // Items that offer no `select` (tabs that never switch) are not moved by keys,
    // as far as the tree says.
    let has_items = arena.children(index).any(|c| {
        let item = arena.nodes[c as usize];
        is_item(item.role) && item.actions.contains(Action::Select)
    });
    if has_items && arena.key_for(index, Action::Select.name()).is_none() {
        let (next, previous) = arrows(record.role);
        if key == next || key == previous {
            return Some(Takes::Moves);
        }
    }
    None
}
