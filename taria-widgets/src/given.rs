//! [`Given`]: what the app says a widget is beyond what ratatui's draws: the role it
//! plays (a `Paragraph` as a text input, a `Block` as a dialog), its focus, whether
//! it is modal, and the actions the app performs on it, by its handler or by a key.
//! Written once for every widget that records one node of its own; the setters come
//! from [`given_setters!`].

use taria::{Action, NodeBuilder, Role};

use crate::semantic::Offer;

/// What the app gave a widget's node (see the module).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub(crate) struct Given<'a> {
    pub(crate) role: Option<Role>,
    pub(crate) focused: bool,
    pub(crate) modal: bool,
    /// Actions the app's handler performs (offered with an explicit id).
    pub(crate) actions: &'a [Action],
    /// Actions the app's input path performs, with the key it takes for each.
    pub(crate) keys: &'a [(Action, &'a str)],
    /// The key that closes it, when it is a dialog given by
    /// [`modal_dialog`](crate::Block::modal_dialog).
    pub(crate) dismiss: Option<&'a str>,
}

impl Given<'_> {
    /// Nothing given (`Default::default` in a `const fn`).
    pub(crate) const DEFAULT: Given<'static> = Given {
        role: None,
        focused: false,
        modal: false,
        actions: &[],
        keys: &[],
        dismiss: None,
    };

    /// The role the widget records: the one given, else its own.
    pub(crate) fn role_or(&self, own: Role) -> Role {
        self.role.unwrap_or(own)
    }

    /// Records on `n` what was given beyond the role: focus, modal, and the actions
    /// something performs: each key fallback, and the handler's actions when `id` (the
    /// widget's explicit id) lets a handler name the node.
    pub(crate) fn record(&self, n: &mut NodeBuilder<'_>, id: Option<&str>) {
        if self.focused {
            n.focused(true);
        }
        if self.modal {
            n.modal(true);
        }
        for &(action, key) in self.keys {
            n.key_fallback(action, key);
        }
        if let Some(key) = self.dismiss {
            n.key_fallback(Action::Dismiss, key);
        }
        if Offer::app_performs(id, None) {
            n.actions(self.actions.iter().copied());
        }
    }
}

/// The builder methods of [`Given`], for a widget with a `given: Given<'a>` field:
/// `role`, `focused`, `modal`, `actions`, `key_fallbacks`, `modal_dialog`.
macro_rules! given_setters {
    () => {
        /// Records the widget as playing `role` instead of its own (a `Paragraph` as a
        /// `text_input`, `status`, `log` or `document`; a `Block` as a `dialog`), with
        /// everything else it records kept. Draws the same.
        #[inline]
        #[must_use = "method moves the value of self and returns the modified value"]
        pub const fn role(mut self, role: taria::Role) -> Self {
            self.given.role = Some(role);
            self
        }

        /// Marks the node focused (an input line taking the keys: an agent's
        /// `type_text` needs a focused `text_input`). Draws the same.
        #[inline]
        #[must_use = "method moves the value of self and returns the modified value"]
        pub const fn focused(mut self, focused: bool) -> Self {
            self.given.focused = focused;
            self
        }

        /// Marks the node a modal dialog: while it is drawn, nodes outside it offer no
        /// actions. Draws the same.
        #[inline]
        #[must_use = "method moves the value of self and returns the modified value"]
        pub const fn modal(mut self, modal: bool) -> Self {
            self.given.modal = modal;
            self
        }

        /// Offers `actions`, performed by the app's `#[action]` handler on the widget's
        /// [`id`](Self::id) (offered only with one: a handler names the node by it).
        #[inline]
        #[must_use = "method moves the value of self and returns the modified value"]
        pub const fn actions(mut self, actions: &'a [taria::Action]) -> Self {
            self.given.actions = actions;
            self
        }

        /// Offers each action with the key the app's input path takes for it
        /// (`&[(Action::Submit, "enter"), (Action::Dismiss, "esc")]`): an agent's
        /// action presses that key, as `actions(submit = key("enter"))` does on an
        /// annotated function.
        #[inline]
        #[must_use = "method moves the value of self and returns the modified value"]
        pub const fn key_fallbacks(mut self, keys: &'a [(taria::Action, &'a str)]) -> Self {
            self.given.keys = keys;
            self
        }

        /// Records the widget as a modal dialog that the app closes on `dismiss_key`
        /// (`"esc"`): the popup over the rest of the screen that a ratatui app draws
        /// as `Clear` + a bordered block. The same as `.role(Role::Dialog).modal(true)`
        /// with `dismiss` pressing `dismiss_key`; nodes drawn behind it offer no
        /// actions while it is drawn. Draws the same.
        #[inline]
        #[must_use = "method moves the value of self and returns the modified value"]
        pub const fn modal_dialog(mut self, dismiss_key: &'a str) -> Self {
            self.given.role = Some(taria::Role::Dialog);
            self.given.modal = true;
            self.given.dismiss = Some(dismiss_key);
            self
        }
    };
}

pub(crate) use given_setters;
