//! A list with a details popup in the style of ratatui's `popup` example, as a ratatui
//! author writes it without taria: ratatui 0.30's shape, the loop in a
//! `ratatui::run(|terminal| loop { … })` closure and the state in `main`'s locals; the
//! popup is a `Clear`, then a bordered `Paragraph` centered over the list.
//!
//! `taria.rs` beside it is the same app made agent-drivable; `cargo run --example
//! popup-plain` runs this one.

use ratatui::Frame;
use ratatui::crossterm::event::{self, Event, KeyCode, KeyEventKind};
use ratatui::layout::{Constraint, Flex, Layout, Rect};
use ratatui::style::{Style, Stylize};
use ratatui::text::Line;
use taria_widgets::prelude::*;

const PLANETS: [(&str, &str); 8] = [
    (
        "Mercury",
        "The smallest planet and the closest to the Sun: its year is 88 days.",
    ),
    (
        "Venus",
        "The hottest planet: its clouds of carbon dioxide trap the heat.",
    ),
    (
        "Earth",
        "The only planet known to have liquid water on its surface, and life.",
    ),
    (
        "Mars",
        "A cold desert with the tallest volcano in the solar system.",
    ),
    (
        "Jupiter",
        "The largest planet: its Great Red Spot is a storm wider than Earth.",
    ),
    (
        "Saturn",
        "Its rings are made of ice and rock, and it has over 140 moons.",
    ),
    (
        "Uranus",
        "It spins on its side: each pole gets 42 years of sunlight in a row.",
    ),
    (
        "Neptune",
        "The windiest planet: its storms blow at more than 2,000 km/h.",
    ),
];

#[taria::app(label = "popup")]
fn main() -> std::io::Result<()> {
    // The app's state is two locals; the closure below borrows them.
    let mut planets = ListState::default().with_selected(Some(0));
    let mut show_popup = false;

    ratatui::run(|terminal| {
        loop {
            terminal.draw(|frame| render(frame, &mut planets, show_popup))?;

            if let Event::Key(key) = event::read()?
                && key.kind == KeyEventKind::Press
            {
                match key.code {
                    KeyCode::Char('q') => break Ok(()),
                    KeyCode::Char('p') | KeyCode::Enter => show_popup = !show_popup,
                    KeyCode::Esc => show_popup = false,
                    KeyCode::Down | KeyCode::Char('j') if !show_popup => planets.select_next(),
                    KeyCode::Up | KeyCode::Char('k') if !show_popup => planets.select_previous(),
                    _ => {}
                }
            }
        }
    })
}

fn render(frame: &mut Frame<'_>, planets: &mut ListState, show_popup: bool) {
    let area = frame.area();

    let vertical = Layout::vertical([Constraint::Length(1), Constraint::Fill(1)]);
    let [instructions, content] = vertical.areas(area);

    frame.render_widget(
        Line::from("↓↑ to move, 'p' or enter to toggle the details, 'q' to quit").centered(),
        instructions,
    );

    let list = List::new(PLANETS.map(|(name, _)| name))
        .activate_key("enter")
        .block(Block::bordered().title("Planets"))
        .highlight_style(Style::new().black().on_cyan())
        .highlight_symbol("> ");
    frame.render_stateful_widget(list, content, planets);

    if show_popup {
        let (name, facts) = PLANETS[planets.selected().unwrap_or(0)];
        let popup = Paragraph::new(facts)
            .wrap(Wrap { trim: true })
            .block(Block::bordered().title(name).on_blue().modal_dialog("esc"));
        let popup_area = centered_area(area, 60, 30);
        // clears out any background in the area before rendering the popup
        frame.render_widget(Clear, popup_area);
        frame.render_widget(popup, popup_area);
    }
}

/// Create a centered rect using up certain percentage of the available rect
fn centered_area(area: Rect, percent_x: u16, percent_y: u16) -> Rect {
    let vertical = Layout::vertical([Constraint::Percentage(percent_y)]).flex(Flex::Center);
    let horizontal = Layout::horizontal([Constraint::Percentage(percent_x)]).flex(Flex::Center);
    let [area] = vertical.areas(area);
    let [area] = horizontal.areas(area);
    area
}
