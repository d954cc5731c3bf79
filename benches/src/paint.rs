//! The ratatui drawing both frames share: where things go and how each piece looks.
//!
//! Nothing here knows about taria; [`plain`](crate::plain) and
//! [`annotated`](crate::annotated) compose these pieces the same way, the annotated
//! frame adding taria annotations around them.

use std::borrow::Cow;

use ratatui::buffer::Buffer;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Gauge, Widget};

use crate::data::Job;

/// The areas of the frame's parts.
pub(crate) struct FrameAreas {
    pub(crate) header: Rect,
    pub(crate) tasks: Rect,
    pub(crate) jobs: Rect,
    pub(crate) details: Rect,
    pub(crate) footer: Rect,
}

/// Splits the frame: a header line, tasks on the left, jobs and details on the
/// right, a status line.
pub(crate) fn frame_areas(area: Rect, jobs: usize) -> FrameAreas {
    let [header, body, footer] = Layout::vertical([
        Constraint::Length(1),
        Constraint::Fill(1),
        Constraint::Length(1),
    ])
    .areas(area);
    let [tasks, side] =
        Layout::horizontal([Constraint::Percentage(55), Constraint::Fill(1)]).areas(body);
    // Borders, the header row and one row per job.
    let table_height = u16::try_from(jobs).unwrap_or(u16::MAX).saturating_add(3);
    let [jobs, details] =
        Layout::vertical([Constraint::Length(table_height), Constraint::Fill(1)]).areas(side);
    FrameAreas {
        header,
        tasks,
        jobs,
        details,
        footer,
    }
}

/// Draws a bordered pane and returns its inner area.
pub(crate) fn pane(title: &str, area: Rect, buf: &mut Buffer) -> Rect {
    let block = Block::bordered().title(title);
    let inner = block.inner(area);
    block.render(area, buf);
    inner
}

/// The area of tab `name` drawn at `x`; tabs are padded by one space each side.
pub(crate) fn tab_area(name: &str, x: u16, header: Rect) -> Rect {
    let width = u16::try_from(name.len())
        .unwrap_or(u16::MAX)
        .saturating_add(2);
    Rect::new(x, header.y, width, 1).intersection(header)
}

/// Draws one tab title.
pub(crate) fn tab(name: &str, active: bool, area: Rect, buf: &mut Buffer) {
    let style = if active {
        Style::new().add_modifier(Modifier::REVERSED | Modifier::BOLD)
    } else {
        Style::new()
    };
    Line::from(vec![
        Span::raw(" "),
        Span::styled(name, style),
        Span::raw(" "),
    ])
    .render(area, buf);
}

/// Where task `index` goes: the list flows down columns of the inner area's height,
/// two columns side by side.
pub(crate) fn task_area(index: usize, list: Rect) -> Rect {
    let rows = usize::from(list.height.max(1));
    let column = u16::try_from(index / rows).unwrap_or(u16::MAX);
    let row = u16::try_from(index % rows).unwrap_or(u16::MAX);
    let width = list.width / 2;
    Rect::new(
        list.x.saturating_add(column.saturating_mul(width)),
        list.y.saturating_add(row),
        width,
        1,
    )
    .intersection(list)
}

/// Draws one task: a check box, its number and its title.
pub(crate) fn task(
    index: usize,
    title: &str,
    done: bool,
    selected: bool,
    area: Rect,
    buf: &mut Buffer,
) {
    let mark = if done { "[x] " } else { "[ ] " };
    let style = if selected {
        Style::new().add_modifier(Modifier::REVERSED)
    } else {
        Style::new()
    };
    let number = format!("{index:>3}. ");
    Line::from(vec![
        Span::raw(mark),
        Span::raw(number),
        Span::styled(title, style),
    ])
    .render(area, buf);
}

/// The job table's column titles.
pub(crate) const COLUMNS: [&str; 5] = ["Name", "State", "Progress", "Owner", "Elapsed"];

/// The areas of a table row's cells.
pub(crate) fn cell_areas(row: Rect) -> [Rect; 5] {
    Layout::horizontal([
        Constraint::Length(8),
        Constraint::Length(8),
        Constraint::Length(8),
        Constraint::Length(8),
        Constraint::Fill(1),
    ])
    .spacing(1)
    .areas(row)
}

/// The area of table row `index` (0 is the header).
pub(crate) fn row_area(index: usize, table: Rect) -> Rect {
    let y = table
        .y
        .saturating_add(u16::try_from(index).unwrap_or(u16::MAX));
    Rect::new(table.x, y, table.width, 1).intersection(table)
}

/// The text of column `column` for `job`.
pub(crate) fn cell_text(job: &Job, column: usize) -> Cow<'_, str> {
    match column {
        0 => Cow::Borrowed(&job.name),
        1 => Cow::Borrowed(job.state),
        2 => Cow::Owned(format!("{:>3}%", job.progress)),
        3 => Cow::Borrowed(&job.owner),
        _ => Cow::Owned(format!(
            "{}m{:02}s",
            job.elapsed_secs / 60,
            job.elapsed_secs % 60
        )),
    }
}

/// The style of a table row.
pub(crate) fn row_style(header: bool, selected: bool) -> Style {
    match (header, selected) {
        (true, _) => Style::new().add_modifier(Modifier::BOLD | Modifier::UNDERLINED),
        (false, true) => Style::new().add_modifier(Modifier::REVERSED),
        (false, false) => Style::new(),
    }
}

/// Draws one table cell.
pub(crate) fn cell(text: &str, style: Style, area: Rect, buf: &mut Buffer) {
    Span::styled(text, style).render(area, buf);
}

/// The areas of the details pane's fields: name, state, owner, then the progress gauge.
pub(crate) fn field_areas(inner: Rect) -> [Rect; 4] {
    Layout::vertical([
        Constraint::Length(1),
        Constraint::Length(1),
        Constraint::Length(1),
        Constraint::Length(1),
    ])
    .areas(inner)
}

/// Draws a `name: value` line.
pub(crate) fn field(name: &str, value: &str, area: Rect, buf: &mut Buffer) {
    Line::from(vec![
        Span::styled(name, Style::new().add_modifier(Modifier::BOLD)),
        Span::raw(": "),
        Span::raw(value),
    ])
    .render(area, buf);
}

/// Draws a job's progress gauge.
pub(crate) fn progress(percent: u8, area: Rect, buf: &mut Buffer) {
    Gauge::default()
        .percent(u16::from(percent.min(100)))
        .render(area, buf);
}

/// Draws the status line.
pub(crate) fn status(message: &str, area: Rect, buf: &mut Buffer) {
    Line::from(message)
        .style(Style::new().add_modifier(Modifier::DIM))
        .render(area, buf);
}
