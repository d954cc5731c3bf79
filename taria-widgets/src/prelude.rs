//! One import line for a ratatui app: `use taria_widgets::prelude::*;` stands in for
//! `use ratatui::prelude::*;`, `use ratatui::widgets::*;` and any
//! `use ratatui::widgets::{…};` block.
//!
//! It holds every name of ratatui's prelude and of `ratatui::widgets`, each the very
//! item ratatui exports, except where taria wraps the widget: there the name is
//! taria's (`List`, `Table`, `Paragraph`, `Block`, …, and the `canvas` and `calendar`
//! modules, whose `Canvas` and `Monthly` are taria's). So it also goes beside
//! `use ratatui::prelude::*;` without an ambiguous name (the shared names are the same
//! items), and code written against ratatui's names compiles unchanged.
//!
//! Not in it, on purpose: taria's own names (`taria::Role`, `taria::Action`, …: many
//! apps have an `Action` of their own, which a second glob would make ambiguous) and
//! the form controls ratatui lacks (`TextInput`, `Button`, …: import them by name).
//! `ScrollDirection` is ratatui's (the scrollbar's `Forward`/`Backward`), as in
//! `ratatui::widgets`; a handler's `direction` parameter takes it as well as
//! `taria::ScrollDirection`.
//!
//! `tests/prelude.py --check` reads ratatui's prelude and `ratatui::widgets` (the
//! version in Cargo.lock) and fails on a name missing here.
//!
//! # Examples
//!
//! ```
//! // use ratatui::prelude::*;
//! // use ratatui::widgets::{Block, Borders, Clear, List, ListItem, ListState, Paragraph, Wrap};
//! use taria_widgets::prelude::*;
//!
//! fn draw(frame: &mut Frame<'_>, state: &mut ListState) {
//!     let [list, help] = Layout::vertical([Constraint::Fill(1), Constraint::Length(1)])
//!         .areas(frame.area());
//!     let tasks = List::new([ListItem::new("Buy milk"), ListItem::new("Walk dog")])
//!         .block(Block::new().borders(Borders::ALL).title("Tasks"))
//!         .highlight_style(Style::new().bold())
//!         .id("tasks");
//!     frame.render_stateful_widget(tasks, list, state);
//!     frame.render_widget(Clear, help);
//!     frame.render_widget(Paragraph::new("q quits").wrap(Wrap { trim: true }), help);
//! }
//! # let mut harness = taria::testing::Harness::new(20, 5);
//! # let tree = harness.render(|frame| draw(frame, &mut ListState::default()));
//! # assert_eq!(tree.get("tasks").unwrap().label.as_deref(), Some("Tasks"));
//! ```

// ratatui's prelude, item for item (`backend` is the one ratatui's prelude names).
pub use ratatui::prelude::{
    Alignment, Backend, BlockExt, Buffer, Color, Constraint, CrosstermBackend, Direction, Frame,
    FromCrossterm, HorizontalAlignment, IntoCrossterm, Layout, Line, Margin, Masked, Modifier,
    Position, Rect, Size, Span, StatefulWidget, Style, Stylize, Terminal, Text, VerticalAlignment,
    Widget, backend, buffer, layout, style, symbols, text,
};

// `ratatui::widgets`: what taria wraps, taria's.
pub use crate::canvas;
pub use crate::{
    Axis, Bar, BarChart, BarGroup, Block, Cell, Chart, Dataset, Gauge, GraphType, HighlightSpacing,
    LegendPosition, LineGauge, List, ListDirection, ListItem, ListState, Paragraph,
    RenderDirection, Row, ScrollDirection, Scrollbar, ScrollbarOrientation, ScrollbarState, Shadow,
    Sparkline, SparklineBar, Table, TableState, Tabs, TitlePosition, Wrap,
};

// `ratatui::widgets`: the rest, ratatui's.
pub use ratatui::widgets::{
    BorderType, Borders, CellEffect, Clear, Dimmed, Fill, MascotEyeColor, Padding, RatatuiLogo,
    RatatuiLogoSize, RatatuiMascot, dimmed,
};

#[cfg(feature = "calendar")]
pub use crate::calendar;
/// `ratatui::widgets::calendar` (ratatui's, unwrapped): turn on the `calendar` feature
/// for taria's `Monthly`.
#[cfg(not(feature = "calendar"))]
pub use ratatui::widgets::calendar;
