//! The recorder: ids, nesting, limits, modal dialogs, the disabled path. One test
//! binary, by concern.

mod frames;
mod ids;
mod modal;
mod outline;
mod scopes;
mod text_fields;

use taria::{Action, Role};

/// A button leaf with `id` as its id and label.
pub(crate) fn button(id: &str) {
    taria::leaf(|n| {
        n.role(Role::Button)
            .id(id)
            .label(id)
            .action(Action::Activate);
    });
}
