//! The `F2` pane the example apps share: the semantic tree taria recorded for the last
//! frame, as an outline beside the app. Each app includes it with
//! `#[path = "../tree_pane.rs"] mod tree_pane;`.

use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::widgets::{Block, Paragraph};

/// Whether the pane is shown, and the outline it shows.
#[derive(Debug, Default)]
pub(crate) struct TreePane {
    shown: bool,
    outline: String,
}

impl TreePane {
    /// Shows or hides the pane. While it is shown, frames are recorded even with no
    /// agent attached.
    pub(crate) fn toggle(&mut self) {
        self.shown = !self.shown;
        taria::with_session(|session| session.set_always_record(self.shown));
    }

    /// `area` split into the app's part and the pane's (the whole area and an empty
    /// one while the pane is hidden).
    pub(crate) fn split(&self, area: Rect) -> (Rect, Rect) {
        if self.shown {
            let [app, pane] =
                Layout::horizontal([Constraint::Percentage(55), Constraint::Percentage(45)])
                    .areas(area);
            (app, pane)
        } else {
            (area, Rect::default())
        }
    }

    /// Draws the pane into `area` (its part of [`split`](Self::split)).
    pub(crate) fn render(&self, frame: &mut Frame<'_>, area: Rect) {
        if self.shown {
            frame.render_widget(
                Paragraph::new(self.outline.as_str())
                    .block(Block::bordered().title("Semantic tree (F2)")),
                area,
            );
        }
    }

    /// After a frame was drawn: takes that frame's tree, and says whether it differs
    /// from the outline shown, so that the app draws once more to show it (the pane
    /// shows the tree of the frame before the one it is drawn in).
    pub(crate) fn take_latest(&mut self) -> bool {
        if !self.shown {
            return false;
        }
        let outline = taria::with_session(|session| session.tree().outline()).unwrap_or_default();
        let changed = outline != self.outline;
        self.outline = outline;
        changed
    }
}
