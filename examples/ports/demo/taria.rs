//! `plain.rs` made agent-drivable: `taria_widgets::prelude` in place of
//! `ratatui::widgets::*` (beside `ratatui::prelude::*`), and `#[taria::app]` on the
//! loop's `impl` block. Nothing else: the tabs, gauge, charts, table, inbox and mail
//! text record what they are, an agent switches tabs and moves in the table and the
//! inbox with the app's own keys (checked against the next frame), and the inbox's
//! items keep their ids, named by their words.
//!
//! `cargo run --example demo` runs it; `tests.rs` drives it headless.

use std::io;

use ratatui::DefaultTerminal;
use ratatui::crossterm::event::{self, Event, KeyCode, KeyEvent, KeyEventKind};
use ratatui::prelude::*;
use taria_widgets::prelude::*;

fn main() -> io::Result<()> {
    let terminal = ratatui::init();
    let app_result = App::new("Ratatui Demo").run(terminal);
    ratatui::restore();
    app_result
}

struct Server<'a> {
    name: &'a str,
    location: &'a str,
    status: &'a str,
    load: u64,
}

struct Email<'a> {
    from: &'a str,
    subject: &'a str,
    body: &'a str,
}

const SERVERS: [Server<'static>; 6] = [
    Server {
        name: "NorthAmerica-1",
        location: "New York City",
        status: "Up",
        load: 62,
    },
    Server {
        name: "Europe-1",
        location: "Paris",
        status: "Failure",
        load: 0,
    },
    Server {
        name: "SouthAmerica-1",
        location: "São Paulo",
        status: "Up",
        load: 35,
    },
    Server {
        name: "Asia-1",
        location: "Singapore",
        status: "Up",
        load: 81,
    },
    Server {
        name: "Oceania-1",
        location: "Sydney",
        status: "Maintenance",
        load: 12,
    },
    Server {
        name: "Africa-1",
        location: "Lagos",
        status: "Up",
        load: 47,
    },
];

const EMAILS: [Email<'static>; 5] = [
    Email {
        from: "Alice",
        subject: "Release notes",
        body: "The release notes are ready for review.\nPlease read them before Friday.",
    },
    Email {
        from: "Bob",
        subject: "Lunch?",
        body: "Are you free for lunch on Thursday? The new noodle place opened.",
    },
    Email {
        from: "Grace",
        subject: "Compiler meeting",
        body: "The compiler meeting moves to room 4.\nBring the benchmark results.",
    },
    Email {
        from: "Linus",
        subject: "Patch review",
        body: "Your patch looks good; one nit in the error path.",
    },
    Email {
        from: "Margaret",
        subject: "Launch checklist",
        body: "The checklist is attached. Item 7 still needs a sign-off.",
    },
];

/// CPU load over the last minute, one sample a second.
const CPU: [u8; 60] = [
    12, 18, 25, 31, 28, 35, 42, 39, 45, 52, 48, 55, 61, 58, 64, 70, 66, 72, 69, 63, 57, 60, 54, 49,
    51, 46, 41, 44, 38, 33, 36, 30, 27, 32, 29, 35, 40, 37, 43, 50, 47, 53, 59, 56, 62, 68, 65, 71,
    76, 73, 67, 61, 64, 58, 52, 55, 49, 45, 48, 42,
];

struct App<'a> {
    title: &'a str,
    should_quit: bool,
    tabs: Vec<&'a str>,
    tab: usize,
    servers: TableState,
    email_index: usize,
}

#[taria::app(label = "demo")]
impl<'a> App<'a> {
    fn new(title: &'a str) -> Self {
        App {
            title,
            should_quit: false,
            tabs: vec!["Dashboard", "Servers", "Email"],
            tab: 0,
            servers: TableState::default().with_selected(Some(0)),
            email_index: 0,
        }
    }

    fn run(mut self, mut terminal: DefaultTerminal) -> io::Result<()> {
        while !self.should_quit {
            terminal.draw(|frame| self.draw(frame))?;
            if let Event::Key(key) = event::read()? {
                self.on_key(key);
            }
        }
        Ok(())
    }

    fn on_key(&mut self, key: KeyEvent) {
        if key.kind != KeyEventKind::Press {
            return;
        }
        match key.code {
            KeyCode::Char('q') => self.should_quit = true,
            KeyCode::Left | KeyCode::Char('h') => self.on_left(),
            KeyCode::Right | KeyCode::Char('l') => self.on_right(),
            KeyCode::Up | KeyCode::Char('k') => self.on_up(),
            KeyCode::Down | KeyCode::Char('j') => self.on_down(),
            _ => {}
        }
    }

    fn on_left(&mut self) {
        self.tab = (self.tab + self.tabs.len() - 1) % self.tabs.len();
    }

    fn on_right(&mut self) {
        self.tab = (self.tab + 1) % self.tabs.len();
    }

    fn on_up(&mut self) {
        match self.tab {
            1 => self.servers.select_previous(),
            2 => self.email_index = self.email_index.saturating_sub(1),
            _ => {}
        }
    }

    fn on_down(&mut self) {
        match self.tab {
            1 => self.servers.select_next(),
            2 => self.email_index = (self.email_index + 1).min(EMAILS.len() - 1),
            _ => {}
        }
    }

    fn draw(&mut self, frame: &mut Frame<'_>) {
        let chunks =
            Layout::vertical([Constraint::Length(3), Constraint::Min(0)]).split(frame.area());
        let tabs = Tabs::new(self.tabs.clone())
            .block(Block::bordered().title(self.title))
            .highlight_style(Style::default().fg(Color::Yellow))
            .select(self.tab);
        frame.render_widget(tabs, chunks[0]);
        match self.tab {
            0 => draw_dashboard(frame, chunks[1]),
            1 => draw_servers(frame, chunks[1], &mut self.servers),
            2 => draw_email(frame, chunks[1], self.email_index),
            _ => {}
        }
    }
}

fn draw_dashboard(frame: &mut Frame<'_>, area: Rect) {
    let chunks = Layout::vertical([
        Constraint::Length(3),
        Constraint::Length(5),
        Constraint::Min(8),
    ])
    .split(area);
    let gauge = Gauge::default()
        .block(Block::bordered().title("Deploy"))
        .gauge_style(Style::default().fg(Color::Magenta))
        .label("73%")
        .ratio(0.73);
    frame.render_widget(gauge, chunks[0]);
    let sparkline = Sparkline::default()
        .block(Block::bordered().title("CPU, last minute"))
        .style(Style::default().fg(Color::Green))
        .data(CPU.map(u64::from));
    frame.render_widget(sparkline, chunks[1]);
    let [chart_area, bars_area] =
        Layout::horizontal([Constraint::Percentage(60), Constraint::Percentage(40)])
            .areas(chunks[2]);
    draw_chart(frame, chart_area);
    draw_bars(frame, bars_area);
}

fn draw_chart(frame: &mut Frame<'_>, area: Rect) {
    let points: Vec<(f64, f64)> = (0u8..)
        .zip(CPU)
        .map(|(x, y)| (f64::from(x), f64::from(y)))
        .collect();
    let datasets = vec![
        Dataset::default()
            .name("cpu")
            .marker(symbols::Marker::Braille)
            .style(Style::default().fg(Color::Cyan))
            .graph_type(GraphType::Line)
            .data(&points),
    ];
    let chart = Chart::new(datasets)
        .block(Block::bordered().title("Load"))
        .x_axis(
            Axis::default()
                .title("seconds")
                .style(Style::default().fg(Color::Gray))
                .bounds([0.0, 59.0])
                .labels(["0", "30", "59"]),
        )
        .y_axis(
            Axis::default()
                .title("%")
                .style(Style::default().fg(Color::Gray))
                .bounds([0.0, 100.0])
                .labels(["0", "50", "100"]),
        );
    frame.render_widget(chart, area);
}

fn draw_bars(frame: &mut Frame<'_>, area: Rect) {
    let bars: Vec<Bar<'_>> = SERVERS
        .iter()
        .map(|s| Bar::default().value(s.load).label(Line::from(&s.name[..2])))
        .collect();
    let barchart = BarChart::default()
        .block(Block::bordered().title("Load by server"))
        .data(BarGroup::default().bars(&bars))
        .bar_width(3)
        .bar_style(Style::default().fg(Color::Yellow));
    frame.render_widget(barchart, area);
}

fn draw_servers(frame: &mut Frame<'_>, area: Rect, state: &mut TableState) {
    let up_style = Style::default().fg(Color::Green);
    let failure_style = Style::default()
        .fg(Color::Red)
        .add_modifier(Modifier::RAPID_BLINK);
    let header = Row::new(["Server", "Location", "Status"])
        .style(Style::default().fg(Color::Yellow))
        .bottom_margin(1);
    let rows = SERVERS.iter().map(|s| {
        let style = if s.status == "Up" {
            up_style
        } else {
            failure_style
        };
        Row::new([s.name, s.location, s.status]).style(style)
    });
    let table = Table::new(
        rows,
        [
            Constraint::Length(15),
            Constraint::Length(15),
            Constraint::Length(12),
        ],
    )
    .header(header)
    .block(Block::bordered().title("Servers"))
    .row_highlight_style(Style::default().add_modifier(Modifier::REVERSED))
    .highlight_symbol("> ");
    frame.render_stateful_widget(table, area, state);
}

fn draw_email(frame: &mut Frame<'_>, area: Rect, selected: usize) {
    let [inbox_area, email_area] = Layout::vertical([
        Constraint::Length(EMAILS.len() as u16 + 2),
        Constraint::Min(0),
    ])
    .areas(area);
    let items = EMAILS
        .iter()
        .map(|e| ListItem::new(Line::from(format!("{:<10} {}", e.from, e.subject))));
    let inbox = List::new(items)
        .block(Block::bordered().title("Inbox"))
        .highlight_style(Style::default().add_modifier(Modifier::REVERSED))
        .highlight_symbol("> ");
    let mut state = ListState::default().with_selected(Some(selected));
    frame.render_stateful_widget(inbox, inbox_area, &mut state);
    let email = &EMAILS[selected];
    let text = Paragraph::new(email.body)
        .block(Block::bordered().title(format!("{} — {}", email.from, email.subject)))
        .wrap(Wrap { trim: true });
    frame.render_widget(text, email_area);
}

#[cfg(test)]
mod tests;
