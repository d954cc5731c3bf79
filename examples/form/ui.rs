//! Drawing the form. The `#[taria::widget]` attributes say what the form and the
//! status line are; the controls are `taria-widgets`, which record themselves (label,
//! value, focused, required, invalid and why) and, having ids, take agents' actions
//! into the app's state.

use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::{Style, Stylize};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Clear, Paragraph};
use taria_widgets::{Button, Checkbox, Select, Slider, TextInput};

use crate::app::{App, Field, PLANS, SEATS, Status};

/// Columns of a field row: focus marker, label, control.
const MARKER: u16 = 2;
const LABEL: u16 = 12;
const CONTROL: u16 = 36;
/// The form's widest: marker, label, control, a hint, borders and margins.
const WIDTH: u16 = MARKER + LABEL + CONTROL + 5 + 4;

pub(crate) fn draw(frame: &mut Frame<'_>, app: &mut App) {
    let [form, status, help] = Layout::vertical([
        Constraint::Length(17),
        Constraint::Length(1),
        Constraint::Length(1),
    ])
    .areas(frame.area());
    draw_form(
        frame,
        Rect {
            width: form.width.min(WIDTH),
            ..form
        },
        app,
    );
    draw_status(frame, status, &app.status);
    frame.render_widget(Paragraph::new(help_text(app.focus)).dark_gray(), help);
    if app.leaving {
        draw_confirm_leave(frame, form);
    }
}

/// Over the form: leaving drops what was typed.
#[taria::widget(role = dialog, id = "confirm-leave", label = "Leave the form?", modal,
    actions(submit, dismiss))]
fn draw_confirm_leave(frame: &mut Frame<'_>, over: Rect) {
    let [_, row, _] = Layout::vertical([
        Constraint::Fill(1),
        Constraint::Length(3),
        Constraint::Fill(1),
    ])
    .areas(over);
    let [_, area, _] = Layout::horizontal([
        Constraint::Fill(1),
        Constraint::Length(42),
        Constraint::Fill(1),
    ])
    .areas(row);
    frame.render_widget(Clear, area);
    frame.render_widget(
        Paragraph::new("Drop what you typed? (y/n)")
            .block(Block::bordered().title("Leave the form?")),
        area,
    );
}

#[taria::widget(role = form, id = "signup", label = "Sign up")]
fn draw_form(frame: &mut Frame<'_>, area: Rect, app: &mut App) {
    let block = Block::bordered().title(" Sign up ");
    let inner = block.inner(area).inner(ratatui::layout::Margin::new(1, 1));
    frame.render_widget(block, area);
    // Two rows per field (the control, then its error message), then the button.
    let heights = Field::ALL.map(|f| Constraint::Length(if f == Field::Submit { 1 } else { 2 }));
    let rows = Layout::vertical(heights).split(inner);
    for (field, row) in Field::ALL.into_iter().zip(rows.iter().copied()) {
        if field == Field::Submit {
            let button = Rect {
                x: row.x + MARKER + LABEL,
                width: 12,
                height: 1,
                ..row
            };
            draw_marker(frame, row, app.focus == field);
            frame.render_widget(
                Button::new("Submit")
                    .id(field.id())
                    .focused(app.focus == field),
                button,
            );
        } else {
            draw_field(frame, row, app, field);
        }
    }
}

/// One labelled field: the focus marker, the label (`*` when required), the control,
/// and under it the message of the last submit's check, if it failed. The control's
/// own node says all of it: label, focused, required, and `invalid` with the message.
fn draw_field(frame: &mut Frame<'_>, area: Rect, app: &mut App, field: Field) {
    let [line, message] = Layout::vertical([1, 1]).areas(area);
    let [marker, label, control] = Layout::horizontal([
        Constraint::Length(MARKER),
        Constraint::Length(LABEL),
        Constraint::Length(CONTROL),
    ])
    .areas(line);
    let focused = app.focus == field;
    let required = field.required();
    let invalid = app.error(field);
    draw_marker(frame, marker, focused);
    let mut text = Line::from(field.label());
    if required {
        text.push_span(Span::raw(" *").red());
    }
    frame.render_widget(if focused { text.bold() } else { text }, label);
    let input = Style::new().on_dark_gray();
    let chosen = if focused {
        Style::new().reversed()
    } else {
        Style::new()
    };
    match field {
        Field::Name | Field::Email | Field::Password => {
            let (state, placeholder) = match field {
                Field::Name => (&mut app.name, "your full name"),
                Field::Email => (&mut app.email, "you@example.com"),
                _ => (&mut app.password, "8 characters or more"),
            };
            let widget = TextInput::new()
                .id(field.id())
                .label(field.label())
                .placeholder(placeholder)
                .password(field == Field::Password)
                .max_len(100)
                .focusable(true)
                .focused(focused)
                .required(required)
                .invalid(invalid)
                .style(input);
            frame.render_stateful_widget(widget, control, state);
        }
        Field::Terms => {
            let widget = Checkbox::new("I accept the terms of service")
                .id(field.id())
                .focused(focused)
                .required(required)
                .invalid(invalid)
                .style(chosen);
            frame.render_stateful_widget(widget, control, &mut app.terms);
        }
        Field::Plan => {
            let widget = Select::new(PLANS)
                .id(field.id())
                .label(field.label())
                .focused(focused)
                .required(required)
                .invalid(invalid)
                .style(chosen);
            let width = PLANS.iter().map(|p| p.len()).max().unwrap_or(0) as u16 + 4;
            frame.render_stateful_widget(widget, Rect { width, ..control }, &mut app.plan);
            // `‹Team› ▾`; read after rendering, which may have taken an agent's choice.
            let shown = app.plan_name().chars().count() as u16 + 4;
            draw_hint(frame, control, shown + 2, focused);
        }
        Field::Seats => {
            let widget = Slider::new(SEATS.0, SEATS.1)
                .id(field.id())
                .label(field.label())
                .focused(focused)
                .required(required)
                .invalid(invalid)
                .style(chosen);
            let track = Rect {
                width: CONTROL - 14,
                ..control
            };
            frame.render_stateful_widget(widget, track, &mut app.seats);
            // Read after rendering: the slider may just have taken an agent's action.
            let count = app.seat_count();
            let text = format!("{count} seat{}", if count == 1 { "" } else { "s" });
            let hint_at = track.width + 2 + text.len() as u16 + 2;
            frame.render_widget(
                Line::from(text),
                Rect {
                    x: track.right() + 2,
                    width: 10,
                    ..control
                },
            );
            draw_hint(frame, control, hint_at, focused);
        }
        Field::Submit => {}
    }
    if let Some(error) = invalid {
        let [_, text] =
            Layout::horizontal([Constraint::Length(MARKER + LABEL), Constraint::Fill(1)])
                .areas(message);
        frame.render_widget(Line::from(format!("✗ {error}")).red(), text);
    }
}

/// `←/→` beside a focused select or slider, `offset` columns into its row.
fn draw_hint(frame: &mut Frame<'_>, control: Rect, offset: u16, focused: bool) {
    let area = Rect {
        x: control.x + offset,
        width: 5,
        ..control
    };
    if focused {
        frame.render_widget(
            Line::from("←/→").dark_gray(),
            area.intersection(frame.area()),
        );
    }
}

fn draw_marker(frame: &mut Frame<'_>, row: Rect, focused: bool) {
    if focused {
        let marker = Rect {
            width: MARKER,
            height: 1,
            ..row
        };
        frame.render_widget(Line::from("›").bold().yellow(), marker);
    }
}

#[taria::widget(role = status, id = "status", label = status_text(status))]
fn draw_status(frame: &mut Frame<'_>, area: Rect, status: &Status) {
    let line = Line::from(status_text(status));
    frame.render_widget(
        match status {
            Status::Editing => line.dark_gray(),
            Status::Invalid(_) => line.red(),
            Status::Submitted(_) => line.green(),
        },
        area,
    );
}

fn status_text(status: &Status) -> String {
    match status {
        Status::Editing => "Fill in the form, then press enter to submit.".to_owned(),
        Status::Invalid(1) => "1 field needs fixing: see the message under it.".to_owned(),
        Status::Invalid(n) => format!("{n} fields need fixing: see the messages under them."),
        Status::Submitted(summary) => summary.clone(),
    }
}

/// The keys that do something where the focus is.
fn help_text(focus: Field) -> &'static str {
    match focus {
        Field::Name | Field::Email | Field::Password => {
            "type to edit · tab/↓ next · shift+tab/↑ previous · enter submit · esc quit"
        }
        Field::Terms => "space toggle · tab/↓ next · shift+tab/↑ previous · enter submit · q quit",
        Field::Plan | Field::Seats => {
            "←/→ change · tab/↓ next · shift+tab/↑ previous · enter submit · q quit"
        }
        Field::Submit => "enter/space submit · tab/↓ next · shift+tab/↑ previous · q quit",
    }
}
