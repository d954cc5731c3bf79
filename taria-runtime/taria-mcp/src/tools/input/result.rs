//! What an input did ([`InputResult`]), and its text for the model: the status
//! line, then what changed.

use std::fmt::Write as _;
use std::sync::Arc;

use serde::Serialize;
use taria_schema::Tree;
use taria_schema::outline::OutlineQuoted;

use crate::tools::reply::{ForModel, one_line, push_block};

/// What an input did.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct InputResult {
    /// The tree the app drew after the input, when it drew one (for a batch's
    /// combined change set; not sent).
    #[serde(skip)]
    pub(crate) after: Option<Arc<Tree>>,
    /// `delivered`: the app took the input.
    pub(crate) status: String,
    /// The app's message, if any.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) message: Option<String>,
    /// For a repeated key: how many presses were delivered.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) delivered: Option<u32>,
    /// The revision of the tree after the input.
    pub(crate) revision: u64,
    /// Whether the tree changed.
    pub(crate) changed: bool,
    /// Ids of nodes added or changed.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub(crate) changed_ids: Vec<String>,
    /// Ids of nodes that are gone.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub(crate) removed_ids: Vec<String>,
    /// Ids of nodes that only left the view of the scrolled container that still
    /// holds them (not gone: scrolling brings them back).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub(crate) scrolled_out_ids: Vec<String>,
    /// `removed: …` for the text: the ids that went whose parent stayed (not sent).
    #[serde(skip)]
    pub(crate) removed_line: Option<String>,
    /// `<list>: N rows scrolled out of view` for the text, per container (not sent).
    #[serde(skip)]
    pub(crate) scrolled_out_line: Option<String>,
    /// What changed in the tree the app drew after the input: the added and changed
    /// nodes, one outline line each (untrusted app text).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) changes: Option<String>,
    /// The whole tree the app drew after the input, when most of it changed (then
    /// `changes` is left out; a batch's `read` asks for it). Untrusted app text.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) outline: Option<String>,
    /// What else happened: a dialog opened or closed, the focus moved.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub(crate) events: Vec<String>,
    /// What to do next, when something is unusual (e.g. the app has not drawn yet).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) note: Option<String>,
}

impl ForModel for InputResult {
    fn for_model(&self) -> String {
        let mut out = self.status.clone();
        if let Some(delivered) = self.delivered {
            let _ = write!(out, " ({delivered} presses)");
        }
        let _ = write!(out, ", revision {}", self.revision);
        // (A note says why, when there is one.)
        if !self.changed && self.note.is_none() {
            out.push_str(", nothing in the tree changed");
        }
        if let Some(message) = &self.message {
            let _ = write!(out, "; the app says {}", OutlineQuoted(message));
        }
        push_change(&mut out, self);
        out
    }
}

/// Appends what an input changed, below its status line: the bridge's events (a
/// dialog opened, the focus moved) one per line, the changed nodes' lines, the ids
/// that went, the rows that scrolled out of view, the whole tree or the note. The
/// app's text is only in the outline lines and quoted, so none of it can pass for an
/// event. (`batch` writes a success and the steps before a failure with it.)
pub(crate) fn push_change(out: &mut String, change: &InputResult) {
    for event in &change.events {
        out.push('\n');
        out.push_str(event);
    }
    if let Some(changes) = &change.changes {
        push_block(out, changes);
    }
    for line in change.removed_line.iter().chain(&change.scrolled_out_line) {
        out.push('\n');
        out.push_str(line);
    }
    if let Some(outline) = &change.outline {
        // The note says no more than this.
        out.push_str("\nmost of the tree changed; the whole tree now:");
        push_block(out, outline);
    } else if let Some(note) = &change.note {
        let _ = write!(out, "\n({})", one_line(note));
    }
}
