//! Drawing the todo app. The `#[taria::widget]` attributes and the `taria::leaf`
//! calls are all that taria adds to an ordinary ratatui render.

use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::{Modifier, Style, Stylize};
use ratatui::text::Line;
use ratatui::widgets::{Block, Clear, List, ListItem, Paragraph, Tabs, Wrap};
use taria::{Action, Role};

use crate::app::{App, Filter, Mode};

pub(crate) fn draw(frame: &mut Frame<'_>, app: &mut App) {
    let (main, tree) = app.tree_pane.split(frame.area());
    let [tabs, list, input, status] = Layout::vertical([
        Constraint::Length(1),
        Constraint::Min(3),
        Constraint::Length(3),
        Constraint::Length(1),
    ])
    .areas(main);
    draw_filter_tabs(frame, tabs, app.filter);
    draw_tasks(frame, list, app);
    draw_input(frame, input, app);
    draw_status(frame, status, &app.status);
    if app.mode == Mode::ConfirmingDelete {
        draw_confirm(frame, list);
    }
    app.tree_pane.render(frame, tree);
}

#[taria::widget(role = tabs, id = "filter", label = "Filter")]
fn draw_filter_tabs(frame: &mut Frame<'_>, area: Rect, filter: Filter) {
    let selected = Filter::ALL.iter().position(|f| *f == filter);
    // Each title where ratatui's `Tabs` draws it: after a space, then a space and `│`.
    let mut x = area.x + 1;
    for (i, f) in Filter::ALL.into_iter().enumerate() {
        let width = u16::try_from(f.name().len()).unwrap_or(u16::MAX);
        taria::leaf(|n| {
            n.role(Role::Tab)
                .key(f.name().to_lowercase())
                .label(f.name())
                .selected(f == filter)
                .index(i)
                .count(3)
                .action(Action::Select)
                .bounds(Rect::new(x, area.y, width, 1).intersection(area));
        });
        x = x.saturating_add(width + 3);
    }
    frame.render_widget(
        Tabs::new(Filter::ALL.map(Filter::name)).select(selected),
        area,
    );
}

#[taria::widget(role = list, id = "tasks", label = "Tasks", count = app.visible().len())]
fn draw_tasks(frame: &mut Frame<'_>, area: Rect, app: &mut App) {
    // Borrow the fields apart so the list state can be borrowed mutably below.
    let filter = app.filter;
    let visible: Vec<_> = app.tasks.iter().filter(|t| filter.keeps(t)).collect();
    let items: Vec<ListItem<'_>> = visible
        .iter()
        .map(|t| {
            let line = Line::from(format!("[{}] {}", if t.done { "x" } else { " " }, t.title));
            ListItem::new(if t.done {
                line.add_modifier(Modifier::CROSSED_OUT)
            } else {
                line
            })
        })
        .collect();
    let list = List::new(items)
        .block(Block::bordered().title("Tasks"))
        .highlight_style(Style::new().reversed())
        .highlight_symbol("> ");
    frame.render_stateful_widget(list, area, &mut app.list);
    // Record the rows the list actually drew: from its scroll offset, one per line.
    let inner = Block::bordered().inner(area);
    let offset = app.list.offset();
    for (row, task) in visible
        .iter()
        .enumerate()
        .skip(offset)
        .take(inner.height as usize)
    {
        taria::leaf(|n| {
            n.role(Role::ListItem)
                .key(task.id)
                .label(&task.title)
                .checked(task.done)
                .selected(app.list.selected() == Some(row))
                .index(row)
                .count(visible.len())
                .actions([Action::Toggle, Action::Select])
                .custom_action("delete")
                .bounds(Rect {
                    y: inner.y + (row - offset) as u16,
                    height: 1,
                    ..inner
                });
        });
    }
}

#[taria::widget(role = text_input, id = "new-task", label = "New task", value = app.draft.as_str(),
    max_len = 200, focused = app.mode == Mode::Adding, actions(set_value, submit, focus = key("a")))]
fn draw_input(frame: &mut Frame<'_>, area: Rect, app: &App) {
    let (text, style) = match app.mode {
        Mode::Adding => (format!("{}▏", app.draft), Style::new().yellow()),
        _ => ("press a to add a task".to_owned(), Style::new().dark_gray()),
    };
    frame.render_widget(
        Paragraph::new(text)
            .style(style)
            .block(Block::bordered().title("New task")),
        area,
    );
}

#[taria::widget(role = status, id = "status", label = status)]
fn draw_status(frame: &mut Frame<'_>, area: Rect, status: &str) {
    frame.render_widget(Paragraph::new(status).dark_gray(), area);
}

#[taria::widget(role = dialog, id = "confirm-delete", label = "Delete this task?", modal,
    actions(submit, dismiss))]
fn draw_confirm(frame: &mut Frame<'_>, over: Rect) {
    let area = centered(over, 30, 3);
    frame.render_widget(Clear, area);
    frame.render_widget(
        Paragraph::new("Delete this task? (y/n)")
            .wrap(Wrap { trim: true })
            .block(Block::bordered().title("Confirm")),
        area,
    );
}

fn centered(area: Rect, width: u16, height: u16) -> Rect {
    let [_, v, _] = Layout::vertical([
        Constraint::Fill(1),
        Constraint::Length(height),
        Constraint::Fill(1),
    ])
    .areas(area);
    let [_, h, _] = Layout::horizontal([
        Constraint::Fill(1),
        Constraint::Length(width),
        Constraint::Fill(1),
    ])
    .areas(v);
    h
}
