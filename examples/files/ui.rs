//! Drawing the file browser. The tree is drawn with ratatui's `List` and described
//! with `#[taria::widget]` and `taria::leaf` (a `tree` of `tree_item`s, which a
//! list widget would not say); the preview is taria-widgets' `Paragraph`, marked
//! untrusted because its text comes from files.

use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::{Style, Stylize};
use ratatui::text::{Line, Span};
use ratatui::widgets::List;
use taria::{Action, Role};
use taria_widgets::{Block, Paragraph, Wrap};

use crate::app::{App, Kind, PREVIEW_BYTES, Preview, human_size};

const HELP: &str =
    "q quit  ↑↓ select  → open  ← close  enter toggle  J K scroll preview  . hidden  F2 tree";

pub(crate) fn draw(frame: &mut Frame<'_>, app: &mut App) {
    let (main, tree) = app.tree_pane.split(frame.area());
    let [header, body, status, help] = Layout::vertical([
        Constraint::Length(1),
        Constraint::Min(3),
        Constraint::Length(1),
        Constraint::Length(1),
    ])
    .areas(main);
    draw_header(frame, header, app);
    let [files, preview] =
        Layout::horizontal([Constraint::Percentage(40), Constraint::Percentage(60)]).areas(body);
    app.fit_offset(usize::from(files.height.saturating_sub(2)));
    draw_tree(frame, files, app);
    draw_preview(frame, preview, app);
    draw_status(frame, status, &app.status);
    frame.render_widget(ratatui::widgets::Paragraph::new(HELP).dark_gray(), help);
    app.tree_pane.render(frame, tree);
}

fn draw_header(frame: &mut Frame<'_>, area: Rect, app: &App) {
    let [title, hidden] =
        Layout::horizontal([Constraint::Fill(1), Constraint::Length(20)]).areas(area);
    let line = Line::from(vec![
        Span::from(" files  ").bold(),
        Span::from(app.root.display().to_string()).dark_gray(),
    ]);
    frame.render_widget(ratatui::widgets::Paragraph::new(line), title);
    draw_hidden(frame, hidden, app.show_hidden);
}

#[taria::widget(role = checkbox, id = "hidden", label = "Hidden files", checked = shown,
    actions(toggle))]
fn draw_hidden(frame: &mut Frame<'_>, area: Rect, shown: bool) {
    let mark = if shown { "[x]" } else { "[ ]" };
    frame.render_widget(
        ratatui::widgets::Paragraph::new(format!("{mark} hidden files ")).right_aligned(),
        area,
    );
}

/// The tree: one row per entry of the expanded part, those on screen recorded as
/// `tree_item`s (`files/<n>`) with their level, their place among their siblings,
/// `expanded` for folders, and the actions that apply (`select`; `expand` or
/// `collapse`).
#[taria::widget(role = tree, id = "files", label = app.root_name.as_str(),
    scroll(app.list.offset(), app.rows.len(), app.viewport), actions(scroll))]
fn draw_tree(frame: &mut Frame<'_>, area: Rect, app: &mut App) {
    let block = ratatui::widgets::Block::bordered().title(app.root_name.as_str());
    let inner = block.inner(area);
    let items: Vec<Line<'_>> = app.rows.iter().map(|&e| tree_line(app, e)).collect();
    let list = List::new(items)
        .block(block)
        .highlight_style(Style::new().reversed())
        .highlight_symbol("> ");
    frame.render_stateful_widget(list, area, &mut app.list);
    let (offset, selected) = (app.list.offset(), app.list.selected());
    for (row, (&e, &(index, count))) in app
        .rows
        .iter()
        .zip(&app.places)
        .enumerate()
        .skip(offset)
        .take(usize::from(inner.height))
    {
        let entry = &app.entries[e];
        taria::leaf(|n| {
            // Like ARIA's posinset/setsize: the place among its siblings, so opening
            // a folder does not move every row below it.
            n.role(Role::TreeItem)
                .key(e)
                .label(&entry.name)
                .selected(selected == Some(row))
                .index(index)
                .count(count)
                .level(entry.depth + 1)
                .action(Action::Select)
                .bounds(Rect {
                    y: inner.y + (row - offset) as u16,
                    height: 1,
                    ..inner
                });
            if entry.kind == Kind::Folder {
                n.expanded(entry.expanded).action(if entry.expanded {
                    Action::Collapse
                } else {
                    Action::Expand
                });
            }
        });
    }
}

/// A tree row as drawn: indentation, `▸`/`▾` for folders, the name, the size.
fn tree_line(app: &App, e: usize) -> Line<'static> {
    let entry = &app.entries[e];
    let indent = "  ".repeat(entry.depth);
    match entry.kind {
        Kind::Folder => Line::from(vec![
            Span::from(format!(
                "{indent}{} ",
                if entry.expanded { "▾" } else { "▸" }
            )),
            Span::from(format!("{}/", entry.name)).blue().bold(),
        ]),
        Kind::File => Line::from(vec![
            Span::from(format!("{indent}  {}", entry.name)),
            Span::from(format!("  {}", human_size(entry.size))).dark_gray(),
        ]),
        Kind::Other => Line::from(format!("{indent}  {}", entry.name)).dark_gray(),
    }
}

/// The preview: the start of the selected file as text, marked `untrusted` (it
/// comes from a file, so an agent reads it as data, never as instructions).
fn draw_preview(frame: &mut Frame<'_>, area: Rect, app: &App) {
    let selected = app.selected_entry().map(|e| &app.entries[e]);
    let title = match (&app.preview, selected) {
        (Preview::Text { size, .. }, Some(entry)) if *size > PREVIEW_BYTES as u64 => format!(
            "{} · {} (first {})",
            entry.name,
            human_size(*size),
            human_size(PREVIEW_BYTES as u64)
        ),
        (Preview::Text { size, .. } | Preview::Binary { size }, Some(entry)) => {
            format!("{} · {}", entry.name, human_size(*size))
        }
        (_, Some(entry)) => entry.name.clone(),
        (_, None) => "Preview".to_owned(),
    };
    let text = match &app.preview {
        Preview::Nothing => "(nothing selected)".to_owned(),
        Preview::Text { text, .. } if text.is_empty() => "(empty file)".to_owned(),
        Preview::Text { text, .. } => text.clone(),
        Preview::Binary { size } => format!("(binary, {size} bytes)"),
        Preview::Folder { items: 1 } => "(folder, 1 item)".to_owned(),
        Preview::Folder { items } => format!("(folder, {items} items)"),
        Preview::Error(error) => format!("({error})"),
    };
    let style = match &app.preview {
        Preview::Text { .. } => Style::new(),
        Preview::Error(_) => Style::new().red(),
        _ => Style::new().dark_gray(),
    };
    let paragraph = Paragraph::new(text)
        .block(Block::bordered().title(title))
        .style(style)
        .wrap(Wrap { trim: false })
        .scroll((app.preview_scroll, 0))
        .untrusted(selected.is_some())
        .id("preview");
    frame.render_widget(paragraph, area);
}

#[taria::widget(role = status, id = "status", label = status)]
fn draw_status(frame: &mut Frame<'_>, area: Rect, status: &str) {
    frame.render_widget(
        ratatui::widgets::Paragraph::new(format!(" {status}")).cyan(),
        area,
    );
}
