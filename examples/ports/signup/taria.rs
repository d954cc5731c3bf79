//! A sign-up form in the style of ratatui's `input-form` example, as a ratatui author
//! writes it without taria: three fields drawn by the app's own widgets, Tab moves the
//! focus, Enter submits and Esc cancels; on submit the app prints the form as JSON after
//! leaving the alternate screen, on cancel `Canceled`.
//!
//! `taria.rs` beside it is the same app made agent-drivable; `cargo run --example
//! signup-plain` runs this one.

use std::io;

use ratatui::buffer::Buffer;
use ratatui::crossterm::event::{self, Event, KeyCode, KeyEvent, KeyEventKind};
use ratatui::layout::{Constraint, Layout, Offset, Rect};
use ratatui::style::Stylize;
use ratatui::text::Line;
use ratatui::widgets::Widget;
use ratatui::{DefaultTerminal, Frame};

fn main() -> io::Result<()> {
    let terminal = ratatui::init();
    let result = App::default().run(terminal);
    ratatui::restore();
    match result? {
        Some(form) => println!("{}", form.to_json()),
        None => println!("Canceled"),
    }
    Ok(())
}

#[derive(Default)]
struct App {
    state: AppState,
    form: Form,
}

#[derive(Default, PartialEq, Eq)]
enum AppState {
    #[default]
    Running,
    Cancelled,
    Submitted,
}

#[taria::app(label = "signup")]
impl App {
    fn run(mut self, mut terminal: DefaultTerminal) -> io::Result<Option<Form>> {
        while self.state == AppState::Running {
            terminal.draw(|frame| self.form.render(frame))?;
            self.handle_events()?;
        }
        Ok((self.state == AppState::Submitted).then_some(self.form))
    }

    fn handle_events(&mut self) -> io::Result<()> {
        if let Event::Key(key) = event::read()?
            && key.kind == KeyEventKind::Press
        {
            match key.code {
                KeyCode::Esc => self.state = AppState::Cancelled,
                KeyCode::Enter => self.state = AppState::Submitted,
                _ => self.form.on_key_press(key),
            }
        }
        Ok(())
    }

    #[action(node = "form/Age", set_value)]
    fn set_age(&mut self, value: u8) {
        self.form.age.value = value;
    }

    #[action(node = "form/*", set_value)]
    fn set_text(&mut self, key: &str, value: String) {
        match key {
            "First name" => self.form.first_name.value = value,
            _ => self.form.last_name.value = value,
        }
    }
}

struct Form {
    focus: Focus,
    first_name: TextField,
    last_name: TextField,
    age: AgeField,
}

impl Default for Form {
    fn default() -> Self {
        Self {
            focus: Focus::FirstName,
            first_name: TextField::new("First name"),
            last_name: TextField::new("Last name"),
            age: AgeField::new("Age"),
        }
    }
}

impl Form {
    fn on_key_press(&mut self, key: KeyEvent) {
        match key.code {
            KeyCode::Tab => self.focus = self.focus.next(),
            _ => match self.focus {
                Focus::FirstName => self.first_name.on_key_press(key),
                Focus::LastName => self.last_name.on_key_press(key),
                Focus::Age => self.age.on_key_press(key),
            },
        }
    }

    #[taria::widget(role = form, id = "form", label = "Sign up", actions(submit = key("enter"), dismiss = key("esc")))]
    fn render(&self, frame: &mut Frame<'_>) {
        let [first, last, age] =
            Layout::vertical(Constraint::from_lengths([1, 1, 1])).areas(frame.area());
        frame.render_widget(&self.first_name, first);
        frame.render_widget(&self.last_name, last);
        frame.render_widget(&self.age, age);
        let cursor = match self.focus {
            Focus::FirstName => first.offset(self.first_name.cursor_offset()),
            Focus::LastName => last.offset(self.last_name.cursor_offset()),
            Focus::Age => age.offset(self.age.cursor_offset()),
        };
        frame.set_cursor_position(cursor);
    }

    fn to_json(&self) -> String {
        format!(
            r#"{{"first_name": {:?}, "last_name": {:?}, "age": {}}}"#,
            self.first_name.value, self.last_name.value, self.age.value
        )
    }
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Focus {
    FirstName,
    LastName,
    Age,
}

impl Focus {
    const fn next(self) -> Self {
        match self {
            Self::FirstName => Self::LastName,
            Self::LastName => Self::Age,
            Self::Age => Self::FirstName,
        }
    }
}

/// A line of text with a label in front.
struct TextField {
    label: &'static str,
    value: String,
}

impl TextField {
    const fn new(label: &'static str) -> Self {
        Self {
            label,
            value: String::new(),
        }
    }

    fn on_key_press(&mut self, key: KeyEvent) {
        match key.code {
            KeyCode::Char(c) => self.value.push(c),
            KeyCode::Backspace => drop(self.value.pop()),
            _ => {}
        }
    }

    fn cursor_offset(&self) -> Offset {
        let x = self.label.len() + self.value.chars().count() + 2;
        Offset::new(i32::try_from(x).unwrap_or(i32::MAX), 0)
    }
}

#[taria::widget(role = text_input, key = self.label, label = self.label, value = &self.value, actions(set_value))]
impl Widget for &TextField {
    fn render(self, area: Rect, buf: &mut Buffer) {
        render_labelled(self.label, &self.value, area, buf);
    }
}

/// A person's age in years, 0 to 130: digits type it, up and down step it.
struct AgeField {
    label: &'static str,
    value: u8,
}

impl AgeField {
    const MAX: u8 = 130;

    const fn new(label: &'static str) -> Self {
        Self { label, value: 0 }
    }

    fn on_key_press(&mut self, key: KeyEvent) {
        match key.code {
            KeyCode::Char(digit @ '0'..='9') => {
                let digit = u8::try_from(digit.to_digit(10).unwrap_or(0)).unwrap_or(0);
                let value = self.value.saturating_mul(10).saturating_add(digit);
                if value <= Self::MAX {
                    self.value = value;
                }
            }
            KeyCode::Backspace => self.value /= 10,
            KeyCode::Up | KeyCode::Char('k') => self.value = (self.value + 1).min(Self::MAX),
            KeyCode::Down | KeyCode::Char('j') => self.value = self.value.saturating_sub(1),
            _ => {}
        }
    }

    fn cursor_offset(&self) -> Offset {
        let x = self.label.len() + self.value.to_string().len() + 2;
        Offset::new(i32::try_from(x).unwrap_or(i32::MAX), 0)
    }
}

#[taria::widget(role = spin_button, key = self.label, label = self.label, value = self.value, min = 0, max = AgeField::MAX, actions(set_value))]
impl Widget for &AgeField {
    fn render(self, area: Rect, buf: &mut Buffer) {
        render_labelled(self.label, &self.value.to_string(), area, buf);
    }
}

fn render_labelled(label: &str, value: &str, area: Rect, buf: &mut Buffer) {
    let width = u16::try_from(label.len() + 2).unwrap_or(u16::MAX);
    let [label_area, value_area] =
        Layout::horizontal([Constraint::Length(width), Constraint::Fill(1)]).areas(area);
    Line::from_iter([label, ": "])
        .bold()
        .render(label_area, buf);
    Line::raw(value).render(value_area, buf);
}
