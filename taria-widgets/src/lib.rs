//! Semantic versions of ratatui's built-in widgets, plus the form controls ratatui
//! lacks, for [taria].
//!
//! Each widget draws exactly what ratatui's widget of the same name draws (tests
//! compare the two buffers cell for cell) and records what it *is* while a frame is
//! being recorded. With recording off, the cost is one thread-local flag check.
//!
//! Swap the import and the code still compiles: [`prelude`] stands in for
//! `ratatui::prelude::*` and `ratatui::widgets::*` (every name, taria's where taria
//! wraps the widget), or import the names one by one:
//!
//! ```
//! // use ratatui::widgets::{Block, List, ListItem, ListState};
//! use taria_widgets::prelude::*;
//!
//! let list = List::new([ListItem::new("Buy milk"), ListItem::new("Walk dog")])
//!     .block(Block::bordered().title("Tasks"))
//!     .highlight_symbol("> ")
//!     .id("tasks"); // optional: a stable id, and agent actions on the state
//! # let _ = (list, ListState::default());
//! ```
//!
//! | widget | role | state and children | actions (offered and taken by the widget with an id and the app's state) |
//! |---|---|---|---|
//! | [`List`] | `list` | `list_item`s on screen: label, selected, index/count, checked ([`List::checked`]); scroll range | `select`, `scroll` → `ListState`; `activate` (key); `toggle` on checked items (the app's handler or [`List::toggle_key`]) |
//! | [`Table`] | `table` | header column names; `row`s on screen with `cell`s (label: column, value: text); selected row/column/cell; row count | `select` (row; cell where the table has a column selection), `scroll` → `TableState` |
//! | [`Tabs`] | `tabs` | `tab` children, selected | `select` → the selected index (`Option<usize>` state) |
//! | [`Paragraph`] | `text` | label: block title or first line; value: the text; scroll | — |
//! | [`Block`] | `region` | label: first title; children via [`Block::render_scoped`] | — |
//! | [`Gauge`], [`LineGauge`] | `progress` | value = ratio in 0..=1, min 0, max 1; label | — |
//! | [`TextInput`] | `text_input` | value (redacted in password mode), max length, focused | `set_value` → [`TextInputState`]; typing via [`TextInputState::handle_key`] in the app's key handler |
//! | [`Checkbox`] | `checkbox` | label, checked | `toggle`, `set_value` → `bool` state |
//! | [`Button`] | `button` | label, disabled, focused | `activate` (the app's handler or [`Button::activate_key`]) |
//! | [`Select`] | `select` | value and options (the `valueSchema`) | `set_value` → [`SelectState`] |
//! | [`Slider`] | `slider` | value, min, max, step (the `valueSchema`) | `set_value`, `increment`, `decrement` → [`SliderState`] |
//! | [`Scrollbar`] | `scrollbar` | scroll: position, content length, viewport (the state's, else the track's length between the end symbols) | `scroll` → [`ScrollbarState`] |
//! | [`Sparkline`] | `chart` | label: [`Sparkline::label`] or block title; value: `120 points min 3 max 97 last 42` | — |
//! | [`BarChart`] | `chart` | label; value: bar count, min, max, each bar's label and value (`3 bars min 1 max 9: "Mon" 1, …`) | — |
//! | [`Chart`] | `chart` | label; value: per series name, point count, min/max/last of y; axis titles and bounds (format in [`Chart`]) | — |
//! | [`Canvas`] | `image` | label: [`Canvas::label`] or block title | — |
//! | `Monthly` (feature `calendar`) | `text` | label: block title or `January 2024`; value: the display date `2024-01-15` when the events mark it (else, under a title, the month); a child `text` per date the events style (label `15`, value `2024-01-15`, bounds its cell) | — |
//!
//!
//! **Third-party widget crates**, each behind a feature named after the crate (a
//! module of the same name mirrors the crate's API and draws with the crate's own
//! widget, cell for cell): swap the import.
//!
//! | feature (crate) | the one-line import swap | role | state and children | actions |
//! |---|---|---|---|---|
//! | `tui-tree-widget` (=0.24.1) | `use taria_widgets::tui_tree_widget::{Tree, TreeItem, TreeState};` | `tree` | label: block title (a taria [`Block`]); `tree_item` per row on screen: label (the item's text), key = identifier path `p.v.w`, level, index/count, selected, expanded | rows: `select` (drawn with the app's `TreeState`); with an id: `expand`/`collapse` on rows, `scroll` on the tree → `TreeState` |
//! | `ratatui-textarea` (=0.9.4) | `use taria_widgets::ratatui_textarea::{…, TextArea};` | `text_area` | value: the lines joined by `\n`; label: block title (a taria [`Block`] in `set_block`); focused (`set_focused`); redacted with a mask char | `submit` by the app's key (`set_submit_key`); with an id (`set_id`): `set_value`, taken though drawn through `&` |
//! | `tui-scrollview` (=0.6.8) | `use taria_widgets::tui_scrollview::{ScrollView, ScrollViewState};` | `region` | scroll (offset, content height, rows shown); value: the text on screen | with an id: `scroll` → `ScrollViewState` |
//!
//! tui-textarea (on ratatui 0.29) has no adapter: its successor ratatui-textarea has
//! the same API on ratatui 0.30. tui-input has none either: it has no widget (the app
//! draws `Paragraph::new(input.value())`), and taria's [`Paragraph`] given the
//! `text_input` role already records that value (the integration guide, section 8).
//!
//! **Semantics for any other widget**: implement [`SemanticWidget`] (describe the
//! node, hand over to the drawing code, optionally apply agent actions to the state)
//! and call its `render_with`/`render_alone` from the widget's `StatefulWidget`/`Widget`
//! impl; every widget here, and each adapter, is built that way.
//!
//! The charts record a summary, never every point; a summary longer than
//! [`taria::builder::MAX_VALUE_BYTES`] is cut there.
//!
//! **What a widget offers: only what something performs.** Held agent actions reach a
//! widget only when it has an explicit [`id`](List::id) and is drawn with the app's
//! state (`StatefulWidget`); then it offers its own actions (the table's last
//! column) and takes them. Without an id (a derived id is positional: no handler
//! names it) or drawn with `Widget` (no state of the app's to change), a list,
//! table, tabs, scrollbar or form control offers none of them. What others perform
//! is offered apart from that: `select` on an item (a list item, row or tab) by the
//! runtime's navigation keys (checked: the next frame must show it selected), and an
//! action the app performs by a declared key (`List::toggle_key`,
//! [`Button::activate_key`]) or by a handler on the explicit id (a [`Button`]'s
//! `activate`, a checked item's `toggle`). One rule, in `semantic.rs`'s `Offer`.
//!
//! **Agent actions without app code.** A stateful widget rendered with an explicit
//! [`id`](List::id) takes the agent actions addressed to it or its children while it
//! renders (through [`taria::widget::take_widget_actions`]) and applies them to the state the
//! app passed in, before recording, so the frame shows the effect. The app's own
//! `#[action]` handlers run first: a widget only sees what no handler took. Without
//! an id a widget records a derived id and takes nothing. An item or row off screen
//! (not recorded) can be selected all the same: `select tasks/40` reaches the app's
//! handlers first ([`taria::Invocation::is_undrawn`]), then the list, which selects
//! it, and ratatui scrolls it into view.
//!
//! **The role a widget plays.** The widgets that record one node of their own
//! ([`Paragraph`], [`Block`], the gauges, charts, [`Canvas`] and `Monthly`) take
//! `role`, `focused`, `modal`, `key_fallbacks` and `actions` (and a [`Paragraph`] its
//! `label` and `value`), so an input line drawn as a paragraph is one `text_input`
//! node, and a popup's block one `dialog` holding the text drawn in it
//! ([`Block`]: given a role, it holds what is drawn inside it after it). They draw the
//! same cells. Lists, tables, tabs and scrollbars keep their roles: the runtime moves
//! their selection with the keys their roles imply.
//!
//! `tests/conformance.rs` checks every widget's contract (one row per widget) and
//! each role-given form's.

mod barchart;
mod block;
mod button;
#[cfg(feature = "calendar")]
pub mod calendar;
pub mod canvas;
mod chart;
mod checkbox;
mod field;
mod gauge;
mod given;
mod list;
mod paragraph;
pub mod prelude;
#[cfg(feature = "ratatui-textarea")]
pub mod ratatui_textarea;
mod scrollbar;
mod select;
mod semantic;
mod slider;
mod sparkline;
mod summary;
mod table;
mod tabs;
mod text;
mod text_input;
#[cfg(feature = "tui-scrollview")]
pub mod tui_scrollview;
#[cfg(feature = "tui-tree-widget")]
pub mod tui_tree_widget;

pub use barchart::{Bar, BarChart, BarGroup};
pub use block::{Block, Shadow, TitlePosition};
pub use button::Button;
#[cfg(feature = "calendar")]
pub use calendar::{CalendarEventStore, DateStyler, Monthly};
pub use canvas::Canvas;
pub use chart::{Axis, Chart, Dataset, GraphType, LegendPosition};
pub use checkbox::Checkbox;
pub use gauge::{Gauge, LineGauge};
pub use list::{List, ListDirection, ListItem, ListState};
pub use paragraph::{Paragraph, Wrap};
pub use scrollbar::{ScrollDirection, Scrollbar, ScrollbarOrientation, ScrollbarState};
pub use select::{Select, SelectState};
pub use semantic::{Offer, SemanticWidget};
pub use slider::{Slider, SliderState};
pub use sparkline::{RenderDirection, Sparkline, SparklineBar};
pub use table::{Cell, HighlightSpacing, Row, Table, TableState};
pub use tabs::Tabs;
pub use text_input::{TextInput, TextInputState};

/// The index an agent's `select` names: the target item's position, else a number
/// value given to the container.
pub(crate) fn item_index(inv: &taria::Invocation<'_>) -> Option<usize> {
    if let Some(index) = inv.index() {
        return usize::try_from(index).ok();
    }
    match inv.value() {
        #[expect(
            clippy::cast_possible_truncation,
            clippy::cast_sign_loss,
            reason = "checked to be a whole, non-negative number first"
        )]
        Some(taria::Value::Number(n)) if n.fract() == 0.0 && *n >= 0.0 => Some(*n as usize),
        _ => None,
    }
}

/// A list's or a table's items as their ids name them: `<id>/<key>` for a keyed item
/// (the key escaped into one segment), `<id>/<index>` for an unkeyed one.
pub(crate) trait Items {
    /// Where the item keyed `key` (as the app gave it, unescaped) is now.
    fn position_of_key(&self, key: &str) -> Option<usize>;
    /// Whether item `i` has a key (then no id names it by its index).
    fn is_keyed(&self, i: usize) -> bool;
    /// How many items there are.
    fn count(&self) -> usize;

    /// The item the id segment `segment` names now: the key it escapes
    /// ([`taria::builder::unescape_key`]) where an item has that key, else an unkeyed item's
    /// index written as its id writes it (`3`; `+3` and `03` name nothing). The one
    /// lookup for items on screen, off screen, and a cell's row.
    fn named(&self, segment: &str) -> Option<usize> {
        if let Some(now) = self.position_of_key(&taria::builder::unescape_key(segment)) {
            return Some(now);
        }
        segment
            .parse::<usize>()
            .ok()
            .filter(|&i| i < self.count() && !self.is_keyed(i) && i.to_string() == segment)
    }
}

/// What `target` names under the container `id`: the rest after `<id>/`.
fn under<'t>(target: &'t str, id: &str) -> Option<&'t str> {
    target.strip_prefix(id)?.strip_prefix('/')
}

/// The item an agent's action on the container `id` (or one of its items) means:
/// the item its id segment names now ([`Items::named`]: the index the agent saw may
/// name another item since); else the target's index, or a number value given to the
/// container ([`item_index`]). `Err` when the item is gone and its old index now holds
/// another keyed item: "the `what` `key` is no longer in the `container`".
pub(crate) fn keyed_item(
    inv: &taria::Invocation<'_>,
    id: &str,
    items: &impl Items,
    (what, container): (&str, &str),
) -> Result<Option<usize>, String> {
    let Some(segment) = under(inv.target(), id) else {
        return Ok(item_index(inv));
    };
    if let Some(now) = items.named(segment) {
        return Ok(Some(now));
    }
    match item_index(inv) {
        Some(i) if items.is_keyed(i) => Err(format!(
            "the {what} `{}` is no longer in the {container}",
            taria::builder::unescape_key(segment)
        )),
        index => Ok(index),
    }
}

/// For an action on an item the app did not draw (off screen: the runtime holds it for
/// the container, marked [`taria::Invocation::is_undrawn`]), the item
/// `<id>/<segment>` names now ([`Items::named`]). `None` when the action is not on an
/// undrawn item.
pub(crate) fn undrawn_item(
    inv: &taria::Invocation<'_>,
    id: &str,
    items: &impl Items,
) -> Option<Undrawn> {
    if !inv.is_undrawn() {
        return None;
    }
    let segment = under(inv.target(), id)?;
    Some(
        items
            .named(segment)
            .map_or(Undrawn::NoSuchItem, Undrawn::Item),
    )
}

/// What an id the app did not draw names ([`undrawn_item`]).
#[derive(Clone, Copy)]
pub(crate) enum Undrawn {
    /// The item at this index now.
    Item(usize),
    /// No item has the id: left to the runtime, which answers that there is no such
    /// node.
    NoSuchItem,
}

/// What a list or table (`container`) does with an action on an item it did not draw
/// (`found`, from [`undrawn_item`]): `select` selects it (`select`; ratatui then
/// scrolls to the selection); its other actions need it on screen (what it offers
/// there is not known here), so the agent is told to select it first; an id no item
/// has is left to the runtime, which answers that there is no such node.
pub(crate) fn apply_undrawn(
    found: Undrawn,
    inv: &taria::Invocation<'_>,
    container: &str,
    select: impl FnOnce(usize),
) -> taria::Outcome {
    match found {
        Undrawn::NoSuchItem => taria::Outcome::NotHandled,
        Undrawn::Item(i) if inv.is(taria::Action::Select) => {
            select(i);
            taria::Outcome::Handled
        }
        Undrawn::Item(_) => taria::Outcome::Rejected(format!(
            "`{}` is off screen: select it first (the {container} scrolls to it), then {}",
            inv.target(),
            inv.action()
        )),
    }
}

/// Moves a list's or table's selection, `selected` of `len` items (each an `item`,
/// in the refusal's words), by a scroll of `amount`: down stops at the last item, up
/// at the first. A scroll that cannot move it is refused with the reason (ratatui's
/// `scroll_down_by` would select past the last item, which its draw then takes back,
/// so the app's state would differ from what the widget set).
pub(crate) fn scroll_selection(
    selected: usize,
    (down, amount): (bool, u16),
    len: usize,
    item: &str,
) -> Result<usize, String> {
    let last = len.saturating_sub(1);
    if len == 0 {
        return Err("it has nothing to scroll".into());
    }
    if down && selected >= last {
        return Err(format!("its last {item} ({last}) is selected already"));
    }
    if !down && selected == 0 {
        return Err(format!("its first {item} is selected already"));
    }
    Ok(if down {
        selected.saturating_add(usize::from(amount)).min(last)
    } else {
        selected.saturating_sub(usize::from(amount))
    })
}

/// Scrolls a list's or table's view by `amount` items when nothing is selected (with
/// a selection, [`scroll_selection`] moves it): down stops at the last of `len` items.
pub(crate) fn scroll_offset(offset: &mut usize, down: bool, amount: u16, len: usize) {
    *offset = if down {
        offset
            .saturating_add(usize::from(amount))
            .min(len.saturating_sub(1))
    } else {
        offset.saturating_sub(usize::from(amount))
    };
}
