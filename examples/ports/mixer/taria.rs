//! `plain.rs`'s volume control made agent-drivable, its state still in `main`'s locals:
//! an agent's `set_value` on `volume` is a closure over the local, given to
//! `taria::drain_with` at the top of the loop (section 4 of the integration guide,
//! "State in local variables"); `toggle` on `mute` presses m, the app's own key.
//!
//! `cargo run --example mixer` runs it; `taria-mcp -- target/debug/examples/mixer`
//! lets an agent drive it.

use ratatui::Frame;
use ratatui::crossterm::event::{self, Event, KeyCode, KeyEventKind};
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::{Color, Style, Stylize};
use ratatui::widgets::{Block, Gauge, Paragraph};
use taria::Action;

#[taria::app(label = "mixer")]
fn main() -> std::io::Result<()> {
    let mut volume: u8 = 50;
    let mut muted = false;

    ratatui::run(|terminal| {
        loop {
            taria::drain_with(taria::on("volume", Action::SetValue, |v: u8| volume = v));
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

#[taria::widget(role = slider, id = "volume", label = "Volume", value = volume, min = 0,
    max = 100, actions(set_value, increment = key("right"), decrement = key("left")))]
fn render_volume(frame: &mut Frame<'_>, area: Rect, volume: u8, muted: bool) {
    let color = if muted { Color::DarkGray } else { Color::Green };
    let gauge = Gauge::default()
        .block(Block::bordered().title("Volume"))
        .gauge_style(Style::new().fg(color))
        .percent(u16::from(volume));
    frame.render_widget(gauge, area);
}

#[taria::widget(role = checkbox, id = "mute", label = "Mute", checked = muted,
    actions(toggle = key("m")))]
fn render_mute(frame: &mut Frame<'_>, area: Rect, muted: bool) {
    let mark = if muted { "[x]" } else { "[ ]" };
    frame.render_widget(Paragraph::new(format!("{mark} Mute")), area);
}
