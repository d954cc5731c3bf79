//! An action request checked against the frame the app last drew: the node is there
//! and is the one the sender saw, then [`check_action`], the check a bridge runs too;
//! or, for an id not drawn, the scrolled container it may be held for
//! ([`undrawn_holder`]).

use std::borrow::Cow;

use crate::recorder::FrameArena;
use crate::session::answer::Answer;
use taria_schema::check::{ActionTarget, Refusal, check_action, scrolled_holder};
use taria_schema::protocol::RejectReason;
use taria_schema::{Action, ActionData, ActionName, ActionRequest, StateFlags, ValueSchema};

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

    fn scroll(&self) -> Option<taria_schema::ScrollInfo> {
        self.arena.nodes[self.index as usize].scroll
    }
}

/// Checks the request against the node as last drawn (the node is there and is the
/// one the sender saw, then [`check_action`]); the value becomes the one applied.
/// Returns the node's index.
pub(super) fn validate(arena: &FrameArena, request: &mut ActionRequest) -> Result<u32, Answer> {
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
    let value = match request.data.take() {
        Some(ActionData::Value { value }) => Some(value),
        other => {
            request.data = other;
            None
        }
    };
    let checked = check_action(&Drawn { arena, index }, &request.action, value);
    let refuse = |refusal: &Refusal| {
        let message = match refusal {
            Refusal::NotOffered => {
                let names = names();
                let offers = if names.is_empty() {
                    "no actions".to_owned()
                } else {
                    names.join(", ")
                };
                // A key declared for it: withdrawn by the text field rule
                // (`FrameArena::finish`).
                let waits = arena
                    .key_for(index, request.action.as_str())
                    .map(|key| {
                        format!(
                            " (its key `{key}` acts on the text being typed: it is offered \
                             while `{node}` has focus; act focus on it first)"
                        )
                    })
                    .unwrap_or_default();
                format!(
                    "`{node}` does not offer `{}`; it offers: {offers}{waits}",
                    request.action
                )
            }
            Refusal::Disabled => format!("`{node}` is disabled now"),
            Refusal::MissingValue => "`set_value` needs a value".to_owned(),
            Refusal::OutOfDomain(error) => format!("`{node}`: {error}"),
        };
        Answer::rejected(refusal.reason(), message)
    };
    // In protocol v1's order: offered, enabled, then the token, then the value.
    if let Err(refusal @ (Refusal::NotOffered | Refusal::Disabled)) = &checked {
        return Err(refuse(refusal));
    }
    if let Some(token) = &request.token {
        let current = taria_schema::protocol::token_from_parts(
            record.role.name(),
            record.custom_role.map_or("", |s| arena.str(s)),
            record.label.map_or("", |s| arena.str(s)),
            names().into_iter().chain(arena.key_actions(index)),
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
    match checked {
        Ok(value) => {
            if let Some(value) = value {
                request.data = Some(ActionData::Value { value });
            }
            Ok(index)
        }
        Err(refusal) => Err(refuse(&refusal)),
    }
}

/// For an action on an id the app did not draw (`people/19` off screen), the drawn
/// node it may be held for: its nearest drawn ancestor by id (`people`), if that
/// scrolls (its content is longer than its view, so some children are off screen)
/// and is not disabled. A list or table widget with that id then looks the id up
/// among all its items and brings it into view (or refuses it); if nothing takes it,
/// it is answered `unknown_node` (`message`). Not for a value (no schema to check it
/// against) or a token (no node to compare it with).
pub(super) fn undrawn_holder(arena: &FrameArena, request: &ActionRequest) -> Option<String> {
    let target = request.target.as_str();
    if request.token.is_some()
        || matches!(request.data, Some(ActionData::Value { .. }))
        || arena.find(target).is_some()
    {
        return None;
    }
    let (parent, node) = scrolled_holder(target, |id| {
        arena.find(id).map(|index| Drawn { arena, index })
    })?;
    let scroll = node.scroll()?;
    let last = scroll.offset.saturating_add(scroll.viewport.max(1)) - 1;
    Some(format!(
        "no node `{target}`: `{parent}` shows items {}-{last} of its {}, and \
         nothing under it took `{target}` (no item has that id, or the app's \
         `{parent}` cannot bring one into view); scroll `{parent}` to reach \
         items off screen, or read the tree again",
        scroll.offset, scroll.content
    ))
}
