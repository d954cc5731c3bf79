//! [ratatui], with taria's recording widgets: for an app split over many files, one
//! line in `Cargo.toml` instead of one import per file.
//!
//! ```toml
//! [dependencies]
//! # ratatui = { version = "0.30", features = ["all-widgets"] }
//! ratatui = { package = "taria-ratatui", version = "0.1", features = ["all-widgets"] }
//! taria = "0.1"
//! ```
//!
//! The dependency keeps its name, so every `use ratatui::…` in every file compiles as
//! before, and `ratatui::widgets::List` (`Table`, `Paragraph`, `Block`, …, and the
//! `canvas` and `calendar` modules) is now taria-widgets' drop-in, which records what
//! it draws. Everything else is ratatui's own item: `Frame`, `Terminal`, `init`,
//! `layout`, `style`, `text`, the backends, `prelude`, and every widget taria does not
//! wrap. The features apps turn on for what they draw are forwarded by ratatui's names
//! (`all-widgets`, `widget-calendar`, `palette`, `serde`, `unstable-widget-ref`); for a
//! backend feature (`termion`, …), name ratatui once more beside this one with it
//! (`ratatui-backend = { package = "ratatui", version = "0.30", features = ["termion"] }`):
//! both share one ratatui, which cargo builds with the features of both.
//!
//! What it cannot swap: a third-party widget crate names ratatui's own types (its
//! `block()` takes `ratatui::widgets::Block`), so a taria `Block` handed to one is
//! converted with `.into()`, and the crate's widget itself records through its adapter
//! in taria-widgets, if it has one.
//!
//! Beside [`widgets`], it is exactly ratatui: this crate adds no name of its own
//! (`tests/facade.rs`).
//!
//! Why a renamed dependency rather than a re-export in the app's source: Rust resolves
//! `use ratatui::…` per module, so only the dependency's name reaches every file of an
//! app at once, and the app changes no import.
//!
//! ```
//! // In any file of the app, unchanged:
//! use taria_ratatui as ratatui; // (what the dependency's rename does for the app)
//! use ratatui::widgets::{Block, List, ListItem};
//!
//! let tasks = List::new([ListItem::new("Buy milk")]).block(Block::bordered().title("Tasks"));
//! let tree = taria::testing::Harness::new(20, 3).render(|f| f.render_widget(tasks, f.area()));
//! let list = tree.iter().find(|node| node.role == taria::Role::List).unwrap();
//! assert_eq!(list.label.as_deref(), Some("Tasks"));
//! ```

pub use ratatui::*;

/// `ratatui::widgets`, with taria's widget wherever taria wraps one: every name of
/// [`taria_widgets::prelude`] (which holds each name of `ratatui::widgets`, checked
/// against ratatui's source, and ratatui's prelude beside them).
pub mod widgets {
    #[cfg(feature = "unstable-widget-ref")]
    pub use ratatui::widgets::{FrameExt, StatefulWidgetRef, WidgetRef};
    pub use taria_widgets::prelude::*;
}
