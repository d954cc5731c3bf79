//! A volume control in the style of ratatui 0.30's examples, as a ratatui author
//! writes it without taria: the loop in a `ratatui::run(|terminal| loop { … })`
//! closure and the whole state in `main`'s locals (a volume, a mute switch); ← and →
//! move the volume by 5, m mutes, q quits and prints the settings.
//!
//! `taria.rs` beside it is the same app made agent-drivable; `cargo run --example
//! mixer-plain` runs this one.

use ratatui::Frame;
use ratatui::crossterm::event::{self, Event, KeyCode, KeyEventKind};
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::{Color, Style, Stylize};
use ratatui::widgets::{Block, Gauge, Paragraph};

fn main() -> std::io::Result<()> {
    let mut volume: u8 = 50;
    let mut muted = false;

    ratatui::run(|terminal| {
        loop {
            terminal.draw(|frame| render(frame, volume, muted))?;

            if let Event::Key(key) = event::read()?
                && key.kind == KeyEventKind::Press
            {
                match key.code {
                    KeyCode::Char('q') => break Ok::<(), std::io::Error>(()),
                    KeyCode::Left => volume = volume.saturating_sub(5),
                    KeyCode::Right => volume = (volume + 5).min(100),
                    KeyCode::Char('m') => muted = !muted,
                    _ => {}
                }
            }
        }
    })?;
    println!("volume {volume}, muted {muted}");
    Ok(())
}

fn render(frame: &mut Frame<'_>, volume: u8, muted: bool) {
    let layout = Layout::vertical([
        Constraint::Length(1),
        Constraint::Length(3),
        Constraint::Length(1),
        Constraint::Fill(1),
    ]);
    let [title, gauge, mute, help] = layout.areas(frame.area());
    frame.render_widget("Mixer".bold(), title);
    render_volume(frame, gauge, volume, muted);
    render_mute(frame, mute, muted);
    frame.render_widget("← → volume · m mute · q quit".dim(), help);
}

fn render_volume(frame: &mut Frame<'_>, area: Rect, volume: u8, muted: bool) {
    let color = if muted { Color::DarkGray } else { Color::Green };
    let gauge = Gauge::default()
        .block(Block::bordered().title("Volume"))
        .gauge_style(Style::new().fg(color))
        .percent(u16::from(volume));
    frame.render_widget(gauge, area);
}

fn render_mute(frame: &mut Frame<'_>, area: Rect, muted: bool) {
    let mark = if muted { "[x]" } else { "[ ]" };
    frame.render_widget(Paragraph::new(format!("{mark} Mute")), area);
}
