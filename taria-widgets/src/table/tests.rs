//! The table against ratatui's, one concern per file: what it draws ([`render`]),
//! which rows reach ratatui and are recorded ([`window`]), what it records
//! ([`record`]), an agent's actions on rows and cells on screen ([`select`]) and off
//! screen ([`offscreen`]). The helpers here build the same table both ways.

mod offscreen;
mod record;
mod render;
mod select;
mod window;

use ratatui::style::Color;

use super::*;
use crate::Block;

thread_local! {
    /// Rows converted into ratatui's (`Row::into_ratatui`) on this thread.
    pub(super) static CONVERTED: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
}

const WIDTHS: [Constraint; 3] = [
    Constraint::Length(4),
    Constraint::Percentage(40),
    Constraint::Min(2),
];

fn row(i: usize) -> [String; 3] {
    [format!("r{i}"), format!("name {i}"), format!("{}", i * 7)]
}

fn ours(n: usize) -> Table<'static> {
    Table::new(
        (0..n).map(|i| {
            let r = Row::new(row(i));
            if i % 3 == 0 {
                r.height(2).bottom_margin(1)
            } else {
                r
            }
        }),
        WIDTHS,
    )
    .header(Row::new(["Id", "Name", "Score"]).bottom_margin(1))
    .footer(Row::new(vec![Cell::new("total").column_span(2)]))
    .block(Block::bordered().title("Scores"))
    .highlight_symbol(">>")
    .row_highlight_style(Color::Red)
    .column_highlight_style(Color::Blue)
    .cell_highlight_style(Color::Green)
    .column_spacing(2)
    .id("t")
}

fn theirs(n: usize) -> ratatui::widgets::Table<'static> {
    use ratatui::widgets::{Cell, Row};
    ratatui::widgets::Table::new(
        (0..n).map(|i| {
            let r = Row::new(row(i));
            if i % 3 == 0 {
                r.height(2).bottom_margin(1)
            } else {
                r
            }
        }),
        WIDTHS,
    )
    .header(Row::new(["Id", "Name", "Score"]).bottom_margin(1))
    .footer(Row::new(vec![Cell::new("total").column_span(2)]))
    .block(ratatui::widgets::Block::bordered().title("Scores"))
    .highlight_symbol(">>")
    .row_highlight_style(Color::Red)
    .column_highlight_style(Color::Blue)
    .cell_highlight_style(Color::Green)
    .column_spacing(2)
}

fn states() -> Vec<TableState> {
    let mut states = vec![];
    for selected in [None, Some(0), Some(5), Some(11), Some(99)] {
        for column in [None, Some(1), Some(7)] {
            for offset in [0, 4, 50] {
                states.push(
                    TableState::default()
                        .with_selected(selected)
                        .with_selected_column(column)
                        .with_offset(offset),
                );
            }
        }
    }
    states
}
