//! The screen with its colours, for what draws it (the inspector's page, a picture
//! for the model): the app's own cells when it sends their styles, else in spawn
//! mode the emulated terminal's when it is the app's size (a fullscreen app of an
//! earlier taria release), else the text alone, saying which.

use serde::Serialize;
use taria_schema::protocol::ScreenStyles;

use crate::errors::ToolError;
use crate::link::{Link, Screen};

/// The screen as drawn, with where its colours came from.
#[derive(Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct StyledScreen {
    /// The bridge's revision of the tree drawn with it.
    pub(crate) revision: u64,
    /// Width in columns.
    pub(crate) cols: u16,
    /// Its styles and text, run by run (`[text, columns, style]`).
    #[serde(flatten)]
    pub(crate) styled: ScreenStyles,
    /// Where the colours come from: `app`, `terminal` (spawn mode's emulated
    /// terminal), or `none`.
    pub(crate) colors: &'static str,
}

impl StyledScreen {
    /// The screen from the app's, the emulated terminal's (`terminal`, spawn mode)
    /// standing in for colours the app did not send.
    pub(crate) fn new(screen: Screen, terminal: Option<ScreenStyles>) -> StyledScreen {
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
            (None, None) => (
                ScreenStyles::text_only(rows.iter().map(String::as_str), cols),
                "none",
            ),
        };
        StyledScreen {
            revision,
            cols,
            styled,
            colors,
        }
    }

    /// Asks `link`'s app for its screen with colours, on the connection there is
    /// (never connecting: the inspector must not keep an app from being let go).
    pub(crate) async fn read_now(link: &Link) -> Result<StyledScreen, ToolError> {
        let screen = link.screen_now(true).await?;
        let terminal = match &screen.styles {
            None => link.spawned_app().and_then(|app| app.screen_styles()),
            Some(_) => None,
        };
        Ok(StyledScreen::new(screen, terminal))
    }

    /// As [`StyledScreen::read_now`], connecting first when needed (a tool call).
    pub(crate) async fn read(link: &Link) -> Result<StyledScreen, ToolError> {
        link.ensure_connected().await?;
        StyledScreen::read_now(link).await
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use taria_schema::protocol::CellStyle;

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
        let page = StyledScreen::new(screen(&["ab"], Some(app)), Some(terminal(1, 4)));
        assert_eq!(page.colors, "app");
        let page = StyledScreen::new(screen(&["ab"], None), Some(terminal(1, 4)));
        assert_eq!(page.colors, "terminal");
        // An inline viewport: the terminal is not the app's screen.
        let page = StyledScreen::new(screen(&["ab"], None), Some(terminal(3, 4)));
        assert_eq!(page.colors, "none");
        assert_eq!(page.styled.rows[0][0].text, "ab");
        let page = StyledScreen::new(screen(&["ab"], None), Some(terminal(1, 5)));
        assert_eq!(page.colors, "none");
    }
}
