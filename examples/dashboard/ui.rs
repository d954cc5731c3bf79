//! Drawing the dashboard. The charts, gauges, table and filter are taria-widgets
//! (ratatui's widgets that record themselves: only ids and labels are set here); the
//! sort control, the log and the live switch are drawn with ratatui and described
//! with `#[taria::widget]` and `taria::leaf`. The header, the help line and the
//! table's scrollbar are plain ratatui, not recorded: they are for people (the table
//! node carries its own scroll position).

use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::{Color, Modifier, Style, Stylize};
use ratatui::symbols::Marker;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Scrollbar, ScrollbarOrientation, ScrollbarState};
use taria::{Action, Role};
use taria_widgets::{
    Axis, Block, Cell, Chart, Dataset, Gauge, GraphType, Row, Sparkline, Table, TextInput,
};

use crate::app::App;
use crate::sim::{self, Column, DISK_GIB, Level, MEMORY_MIB};

const HELP: &str =
    "q quit  ↑↓ PgUp PgDn select  1-6 sort  r reverse  / filter  [ ] scroll log  p pause  F2 tree";

pub(crate) fn draw(frame: &mut Frame<'_>, app: &mut App) {
    let (main, tree) = app.tree_pane.split(frame.area());
    let [header, gauges, charts, controls, body, status, help] = Layout::vertical([
        Constraint::Length(1),
        Constraint::Length(3),
        Constraint::Length(7),
        Constraint::Length(1),
        Constraint::Min(6),
        Constraint::Length(1),
        Constraint::Length(1),
    ])
    .areas(main);
    draw_header(frame, header, app);
    draw_gauges(frame, gauges, app);
    let [cpu, network] =
        Layout::horizontal([Constraint::Percentage(50), Constraint::Percentage(50)]).areas(charts);
    draw_cpu_history(frame, cpu, app);
    draw_network(frame, network, app);
    let [sort, filter] =
        Layout::horizontal([Constraint::Min(60), Constraint::Max(30)]).areas(controls);
    draw_sort(frame, sort, app);
    draw_filter(frame, filter, app);
    let [table, log] =
        Layout::horizontal([Constraint::Min(58), Constraint::Percentage(46)]).areas(body);
    // Borders and the header row.
    app.table_viewport = usize::from(table.height.saturating_sub(3)).max(1);
    draw_table(frame, table, app);
    app.log_viewport = usize::from(log.height.saturating_sub(2)).max(1);
    draw_log(frame, log, app);
    draw_status(frame, status, &app.status);
    frame.render_widget(Paragraph::new(HELP).dark_gray(), help);
    app.tree_pane.render(frame, tree);
}

fn draw_header(frame: &mut Frame<'_>, area: Rect, app: &App) {
    let [title, switch] =
        Layout::horizontal([Constraint::Fill(1), Constraint::Length(12)]).areas(area);
    let line = Line::from(vec![
        Span::from(" taria dashboard").bold(),
        Span::from(format!(
            "  up {}  ·  {} processes",
            sim::clock(app.machine.uptime),
            app.machine.processes.len()
        ))
        .dark_gray(),
    ]);
    frame.render_widget(Paragraph::new(line), title);
    draw_live(frame, switch, app.live);
}

#[taria::widget(role = switch, id = "live", label = "Live", checked = live, actions(toggle))]
fn draw_live(frame: &mut Frame<'_>, area: Rect, live: bool) {
    let text = if live {
        Span::from("● live").green()
    } else {
        Span::from("‖ live off").yellow()
    };
    frame.render_widget(Paragraph::new(text).right_aligned(), area);
}

fn draw_gauges(frame: &mut Frame<'_>, area: Rect, app: &App) {
    let m = &app.machine;
    let areas: [Rect; 3] = Layout::horizontal([Constraint::Ratio(1, 3); 3]).areas(area);
    let mem_gib = m.mem_used_mib / 1024.0;
    let gauges = [
        ("cpu", "CPU".to_owned(), m.cpu / 100.0, Color::Green),
        (
            "memory",
            format!("Memory {mem_gib:.1}/{:.0} GiB", MEMORY_MIB / 1024.0),
            m.mem_used_mib / MEMORY_MIB,
            Color::Blue,
        ),
        (
            "disk",
            format!("Disk {:.0}/{DISK_GIB:.0} GiB", m.disk_used_gib),
            m.disk_used_gib / DISK_GIB,
            Color::Magenta,
        ),
    ];
    for ((id, title, ratio, color), area) in gauges.into_iter().zip(areas) {
        // Three decimals are all a gauge shows: the recorded value stays short.
        let ratio = (ratio.clamp(0.0, 1.0) * 1000.0).round() / 1000.0;
        let gauge = Gauge::default()
            .block(Block::bordered().title(title))
            .gauge_style(color)
            .ratio(ratio)
            .id(id);
        frame.render_widget(gauge, area);
    }
}

fn draw_cpu_history(frame: &mut Frame<'_>, area: Rect, app: &App) {
    let block = Block::bordered().title("CPU history");
    // Newest at the right: as many samples as there are columns.
    let width = usize::from(block.inner(area).width);
    let history = &app.machine.cpu_history;
    let sparkline = Sparkline::default()
        .block(block)
        .data(history.iter().skip(history.len().saturating_sub(width)))
        .max(100)
        .style(Color::Green)
        .id("cpu-history");
    frame.render_widget(sparkline, area);
}

fn draw_network(frame: &mut Frame<'_>, area: Rect, app: &App) {
    let m = &app.machine;
    let first = m.net_rx.first().map_or(0.0, |p| p.0);
    let last = m.net_rx.last().map_or(1.0, |p| p.0);
    let datasets = vec![
        Dataset::default()
            .name("rx")
            .marker(Marker::Braille)
            .graph_type(GraphType::Line)
            .style(Color::Cyan)
            .data(&m.net_rx),
        Dataset::default()
            .name("tx")
            .marker(Marker::Braille)
            .graph_type(GraphType::Line)
            .style(Color::Yellow)
            .data(&m.net_tx),
    ];
    let chart = Chart::new(datasets)
        .block(Block::bordered().title("Network KiB/s"))
        .x_axis(Axis::default().bounds([first, last]))
        .y_axis(
            Axis::default()
                .bounds([0.0, 1000.0])
                .labels(["0", "500", "1000"]),
        )
        .id("network");
    frame.render_widget(chart, area);
}

/// The sort control: one tab per column (`1 PID  2 Name …`), the sorted one marked
/// with its direction.
#[taria::widget(role = tabs, id = "sort", label = "Sort by", actions("reverse"))]
fn draw_sort(frame: &mut Frame<'_>, area: Rect, app: &App) {
    let arrow = if app.descending { " ▼" } else { " ▲" };
    let mut spans = vec![Span::from("Sort: ").dark_gray()];
    let mut x = area.x + 6;
    for (i, column) in Column::ALL.into_iter().enumerate() {
        let sorted = column == app.sort;
        let (title, style) = if sorted {
            (
                format!("{}{arrow}", column.title()),
                Style::new().yellow().bold(),
            )
        } else {
            (column.title().to_owned(), Style::new())
        };
        let number = Span::from(format!("{} ", i + 1)).dark_gray();
        let width = (number.width() + Span::from(title.as_str()).width()) as u16;
        let bounds = Rect::new(x, area.y, width, 1).intersection(area);
        taria::leaf(|n| {
            n.role(Role::Tab)
                .key(column.key())
                .label(&title)
                .selected(sorted)
                .index(i)
                .count(Column::ALL.len())
                .action(Action::Select)
                .bounds(bounds);
        });
        x = x.saturating_add(width + 2);
        spans.extend([number, Span::styled(title, style), Span::from("  ")]);
    }
    frame.render_widget(Paragraph::new(Line::from(spans)), area);
}

fn draw_filter(frame: &mut Frame<'_>, area: Rect, app: &mut App) {
    let [label, input] =
        Layout::horizontal([Constraint::Length(8), Constraint::Fill(1)]).areas(area);
    frame.render_widget(Paragraph::new("Filter: ").dark_gray(), label);
    let input_widget = TextInput::new()
        .label("Filter")
        .placeholder("/ to filter")
        .focused(app.filtering)
        .max_len(40)
        .id("filter");
    frame.render_stateful_widget(input_widget, input, &mut app.filter);
}

fn draw_table(frame: &mut Frame<'_>, area: Rect, app: &mut App) {
    let header = Row::new(Column::ALL.map(|c| {
        let cell = Cell::new(aligned(c, c.title()));
        if c == app.sort {
            cell.style(Style::new().yellow().add_modifier(Modifier::BOLD))
        } else {
            cell
        }
    }))
    .style(Style::new().add_modifier(Modifier::BOLD));
    // ratatui's table takes every row, but draws only those on screen: build cells
    // only for the rows that can be on screen (around the offset and the selection;
    // the app's handlers move both before the frame), empty rows for the rest, so a
    // frame costs the same for 100 rows as for 10,000.
    let (offset, selected) = (app.table.offset(), app.table.selected().unwrap_or(0));
    let pad = app.table_viewport;
    let near = offset.min(selected).saturating_sub(pad)..offset.max(selected) + 2 * pad;
    let processes = &app.machine.processes;
    let rows = app.view.iter().enumerate().map(|(row, &i)| {
        if near.contains(&row) {
            Row::new(Column::ALL.map(|c| aligned(c, c.cell(&processes[i]))))
                .key(processes[i].pid.to_string())
        } else {
            Row::new(std::iter::empty::<Cell<'_>>())
        }
    });
    let title = if app.view.len() == processes.len() {
        format!("Processes ({})", processes.len())
    } else {
        format!("Processes ({} of {})", app.view.len(), processes.len())
    };
    let widths = [
        Constraint::Length(6),
        Constraint::Fill(1),
        Constraint::Length(8),
        Constraint::Length(5),
        Constraint::Length(7),
        Constraint::Length(7),
    ];
    let table = Table::new(rows, widths)
        .header(header)
        .block(Block::bordered().title(title))
        .row_highlight_style(Style::new().reversed())
        .highlight_symbol("> ")
        .id("processes");
    frame.render_stateful_widget(table, area, &mut app.table);
    // An agent's `select` on a cell is taken by the table itself while it renders:
    // remember which process that selected.
    app.sync_selected();
    // For people only: the table node already says where it is scrolled.
    let mut scrollbar = ScrollbarState::new(app.view.len())
        .position(app.table.selected().unwrap_or(app.table.offset()));
    frame.render_stateful_widget(
        Scrollbar::new(ScrollbarOrientation::VerticalRight)
            .begin_symbol(None)
            .end_symbol(None),
        area.inner(ratatui::layout::Margin::new(0, 1)),
        &mut scrollbar,
    );
}

/// A cell's text, numbers right-aligned.
fn aligned<'a>(column: Column, text: impl Into<Line<'a>>) -> Line<'a> {
    let line = text.into();
    if column.numeric() {
        line.right_aligned()
    } else {
        line
    }
}

/// The log lines on screen: `(first, end)` of `machine.log`.
fn log_window(app: &App) -> (usize, usize) {
    let len = app.machine.log.len();
    let end = len - app.log_back.min(len);
    (end.saturating_sub(app.log_viewport), end)
}

/// The log lines on screen, one per line: the log node's value.
fn log_text(app: &App) -> String {
    let (first, end) = log_window(app);
    let mut text = String::new();
    for line in app.machine.log.range(first..end) {
        if !text.is_empty() {
            text.push('\n');
        }
        text.push_str(&line.render());
    }
    text
}

#[taria::widget(role = log, id = "log", label = "Log", value = log_text(app),
    scroll(log_window(app).0, app.machine.log.len(), app.log_viewport), actions(scroll))]
fn draw_log(frame: &mut Frame<'_>, area: Rect, app: &App) {
    let (first, end) = log_window(app);
    let lines: Vec<Line<'_>> = app
        .machine
        .log
        .range(first..end)
        .map(|line| {
            let level = match line.level {
                Level::Info => Span::from("INFO ").dark_gray(),
                Level::Warn => Span::from("WARN ").yellow(),
                Level::Error => Span::from("ERROR").red().bold(),
            };
            Line::from(vec![
                Span::from(sim::clock(line.at)).dark_gray(),
                Span::from(" "),
                level,
                Span::from(" "),
                Span::from(line.text.as_str()),
            ])
        })
        .collect();
    let title = if app.log_back == 0 {
        "Log".to_owned()
    } else {
        format!("Log (↑{} lines, ] to follow)", app.log_back)
    };
    frame.render_widget(
        Paragraph::new(lines).block(ratatui::widgets::Block::bordered().title(title)),
        area,
    );
}

#[taria::widget(role = status, id = "status", label = status)]
fn draw_status(frame: &mut Frame<'_>, area: Rect, status: &str) {
    frame.render_widget(Paragraph::new(format!(" {status}")).cyan(), area);
}
