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

use tokio::sync::{Notify, watch};

use crate::link::{Link, Standing};
use crate::styled_screen::StyledScreen;

/// How often the screen is asked for while a page watches and the tree stays the same.
const REFRESH: Duration = Duration::from_secs(1);

/// The screen as the page draws it.
pub(super) type PageScreen = StyledScreen;

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
        match StyledScreen::read_now(&link).await {
            // Pages hear of a screen only when it changed: the refresh finds the same
            // one most seconds.
            Ok(screen) => {
                screens.latest.send_if_modified(|latest| {
                    if latest.as_deref() == Some(&screen) {
                        return false;
                    }
                    *latest = Some(Arc::new(screen));
                    true
                });
            }
            Err(e) => tracing::debug!(error = %e.message, "no screen for the inspector"),
        }
    }
}
