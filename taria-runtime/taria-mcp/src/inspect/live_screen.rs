//! The screen the page shows, kept fresh while a page watches: asked of the app
//! (with its colours) after every tree the bridge takes, and at least once a second
//! for what the tree does not show (a spinner, a clock). Only on a connection that is
//! open: the inspector never connects to the app, or keeps it from being let go.
//!
//! The colours come from the app's own buffer (the cells its frame drew, in the same
//! coordinates as the nodes' bounds). An app of an earlier taria release sends text
//! alone: in spawn mode the emulated terminal's screen stands in when it is the same
//! size (a fullscreen app), else the page shows the text without colours, saying why.

use std::sync::Arc;
use std::time::Duration;

use serde::Serialize;
use taria_schema::protocol::{CellStyle, ScreenStyles};
use tokio::sync::{Notify, watch};

use crate::link::{Link, Screen, Standing};

/// How often the screen is asked for while a page watches and the tree stays the same.
const REFRESH: Duration = Duration::from_secs(1);

/// The screen as the page draws it.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub(super) struct PageScreen {
    /// The bridge's revision of the tree drawn with it.
    revision: u64,
    /// Width in columns.
    cols: u16,
    /// Its styles and text, run by run (`[text, columns, style]`).
    #[serde(flatten)]
    styled: ScreenStyles,
    /// Where the colours come from: `app`, `terminal` (spawn mode's emulated
    /// terminal), or `none`.
    colors: &'static str,
}

impl PageScreen {
    /// The page's screen from the app's, the emulated terminal's (`terminal`, spawn
    /// mode) standing in for colours the app did not send.
    fn new(screen: Screen, terminal: Option<ScreenStyles>) -> PageScreen {
        let Screen {
            revision,
            cols,
            rows,
            styles,
        } = screen;
        let same_size = |t: &ScreenStyles| {
            t.rows.len() == rows.len()
                && t.rows
                    .first()
                    .is_some_and(|r| r.iter().map(|run| run.columns).sum::<u16>() == cols)
        };
        let (styled, colors) = match (styles, terminal.filter(same_size)) {
            (Some(styles), _) => (styles, "app"),
            (None, Some(terminal)) => (terminal, "terminal"),
            (None, None) => {
                let cells = rows
                    .iter()
                    .map(|row| [(row.as_str(), cols, CellStyle::default())]);
                (ScreenStyles::from_cells(cells), "none")
            }
        };
        PageScreen {
            revision,
            cols,
            styled,
            colors,
        }
    }
}

/// The newest screen, for every page that watches.
#[derive(Clone)]
pub(super) struct Screens {
    latest: watch::Sender<Option<Arc<PageScreen>>>,
    /// Wakes the follower when a page starts watching (it needs a screen now).
    wanted: Arc<Notify>,
}

impl Screens {
    /// Follows `link`'s app while a page watches.
    pub(super) fn follow(link: Link) -> Screens {
        let screens = Screens {
            latest: watch::Sender::new(None),
            wanted: Arc::new(Notify::new()),
        };
        tokio::spawn(follow(link, screens.clone()));
        screens
    }

    /// A page's view of the newest screen (the current one counts as new).
    pub(super) fn watch(&self) -> watch::Receiver<Option<Arc<PageScreen>>> {
        let mut receiver = self.latest.subscribe();
        receiver.mark_changed();
        self.wanted.notify_one();
        receiver
    }
}

/// Asks for the screen after each tree taken, at least every [`REFRESH`], and when a
/// page starts watching, while any page watches and a connection is open.
async fn follow(link: Link, screens: Screens) {
    let mut trees = link.mirror().changes();
    loop {
        tokio::select! {
            taken = trees.changed() => if taken.is_err() { return },
            () = screens.wanted.notified() => {}
            () = tokio::time::sleep(REFRESH) => {}
        }
        if screens.latest.receiver_count() == 0 || link.standing() != Standing::Connected {
            continue;
        }
        match link.screen_now(true).await {
            Ok(screen) => {
                let terminal = match &screen.styles {
                    None => link.spawned_app().and_then(|app| app.screen_styles()),
                    Some(_) => None,
                };
                let screen = PageScreen::new(screen, terminal);
                screens.latest.send_replace(Some(Arc::new(screen)));
            }
            Err(e) => tracing::debug!(error = %e.message, "no screen for the inspector"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn screen(rows: &[&str], styles: Option<ScreenStyles>) -> Screen {
        Screen {
            revision: 3,
            cols: 4,
            rows: rows.iter().map(|r| (*r).to_owned()).collect(),
            styles,
        }
    }

    fn terminal(rows: usize, cols: u16) -> ScreenStyles {
        let row = vec![(" ", 1, CellStyle::default()); usize::from(cols)];
        ScreenStyles::from_cells(vec![row; rows])
    }

    #[test]
    fn the_app_s_colours_come_first_then_a_terminal_of_its_size() {
        let app = ScreenStyles::from_cells([[("ab", 4, CellStyle::default())]]);
        let page = PageScreen::new(screen(&["ab"], Some(app)), Some(terminal(1, 4)));
        assert_eq!(page.colors, "app");
        let page = PageScreen::new(screen(&["ab"], None), Some(terminal(1, 4)));
        assert_eq!(page.colors, "terminal");
        // An inline viewport: the terminal is not the app's screen.
        let page = PageScreen::new(screen(&["ab"], None), Some(terminal(3, 4)));
        assert_eq!(page.colors, "none");
        assert_eq!(page.styled.rows[0][0].text, "ab");
        let page = PageScreen::new(screen(&["ab"], None), Some(terminal(1, 5)));
        assert_eq!(page.colors, "none");
    }
}
