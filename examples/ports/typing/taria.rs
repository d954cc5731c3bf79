//! A typing test in the style of the terminal typing tests people publish, as its author
//! writes it without taria: a target text coloured as you go, what you typed, and live
//! stats (speed, accuracy, progress). The app renders in a method with no loop around
//! it; `main` holds the loop and reads the keys. When the text is typed the app leaves
//! its screen and prints the result.
//!
//! `taria.rs` beside it is the same app made agent-drivable; `cargo run --example
//! typing-plain` runs this one.

use std::io;
use std::time::Instant;

use ratatui::crossterm::event::{self, Event, KeyCode, KeyEventKind};
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::{Color, Style, Stylize};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Paragraph, Wrap};
use ratatui::{DefaultTerminal, Frame};

const TEXT: &str = "a quick movement of the enemy will jeopardize six gunboats";

#[taria::app(label = "typing")]
fn main() -> io::Result<()> {
    let mut terminal = ratatui::init();
    let mut test = TypingTest::new(TEXT);

    let result = loop {
        if let Err(err) = test.render(&mut terminal) {
            break Err(err);
        }
        match event::read() {
            Ok(Event::Key(key)) if key.kind == KeyEventKind::Press => match key.code {
                KeyCode::Esc => break Ok(()),
                KeyCode::Backspace => test.backspace(),
                KeyCode::Char(c) => test.type_char(c),
                _ => {}
            },
            Ok(_) => {}
            Err(err) => break Err(err),
        }
        if test.is_finished() {
            break Ok(());
        }
    };

    ratatui::restore();
    if test.is_finished() {
        println!("{}", test.stats());
    }
    result
}

struct TypingTest {
    target: &'static str,
    typed: String,
    /// Every character key pressed, and those that did not match the text where they
    /// were typed (backspacing does not take a mistake back).
    keystrokes: usize,
    mistakes: usize,
    started: Option<Instant>,
}

impl TypingTest {
    fn new(target: &'static str) -> Self {
        Self {
            target,
            typed: String::new(),
            keystrokes: 0,
            mistakes: 0,
            started: None,
        }
    }

    fn type_char(&mut self, c: char) {
        let at = self.typed.chars().count();
        if at == self.target.chars().count() {
            return;
        }
        self.started.get_or_insert_with(Instant::now);
        self.keystrokes += 1;
        if self.target.chars().nth(at) != Some(c) {
            self.mistakes += 1;
        }
        self.typed.push(c);
    }

    fn backspace(&mut self) {
        self.typed.pop();
    }

    fn is_finished(&self) -> bool {
        self.typed == self.target
    }

    /// Words (five characters each, as typing tests count them) per minute.
    fn words_per_minute(&self) -> u128 {
        let Some(started) = self.started else {
            return 0;
        };
        let millis = started.elapsed().as_millis().max(1);
        self.typed.chars().count() as u128 * 12_000 / millis
    }

    fn accuracy(&self) -> usize {
        if self.keystrokes == 0 {
            return 100;
        }
        100 * (self.keystrokes - self.mistakes) / self.keystrokes
    }

    fn stats(&self) -> String {
        let done = 100 * self.typed.chars().count() / self.target.chars().count();
        format!(
            "{} wpm · {}% accuracy · {} mistakes · {done}% done",
            self.words_per_minute(),
            self.accuracy(),
            self.mistakes
        )
    }

    fn render(&self, terminal: &mut DefaultTerminal) -> io::Result<()> {
        taria::draw(terminal, |frame| {
            let [title, text, input, stats, help] = Layout::vertical([
                Constraint::Length(1),
                Constraint::Length(5),
                Constraint::Length(3),
                Constraint::Length(1),
                Constraint::Length(1),
            ])
            .spacing(1)
            .areas(frame.area());
            frame.render_widget(Line::from("Typing test").bold().centered(), title);
            self.render_text(frame, text);
            self.render_input(frame, input);
            self.render_stats(frame, stats);
            frame.render_widget(Line::from("type the text above · esc quits").dim(), help);
        })?;
        Ok(())
    }

    /// The target text: typed characters green (red where they differ), the next one
    /// underlined, the rest dim.
    #[taria::widget(role = text, label = "Text", value = self.target)]
    fn render_text(&self, frame: &mut Frame<'_>, area: Rect) {
        let typed: Vec<char> = self.typed.chars().collect();
        let spans = self.target.chars().enumerate().map(|(i, expected)| {
            let style = match typed.get(i) {
                Some(&c) if c == expected => Style::new().fg(Color::Green),
                Some(_) => Style::new().fg(Color::White).bg(Color::Red),
                None if i == typed.len() => Style::new().underlined(),
                None => Style::new().dim(),
            };
            Span::styled(expected.to_string(), style)
        });
        let text = Paragraph::new(spans.collect::<Line<'_>>())
            .wrap(Wrap { trim: false })
            .block(Block::bordered().title(" Text "));
        frame.render_widget(text, area);
    }

    #[taria::widget(role = text_input, id = "typed", label = "You", value = self.typed.as_str(), focused)]
    fn render_input(&self, frame: &mut Frame<'_>, area: Rect) {
        let input =
            Paragraph::new(format!("{}▏", self.typed)).block(Block::bordered().title(" You "));
        frame.render_widget(input, area);
    }

    #[taria::widget(role = status, id = "stats", label = self.stats())]
    fn render_stats(&self, frame: &mut Frame<'_>, area: Rect) {
        frame.render_widget(Line::from(self.stats()).centered(), area);
    }
}
