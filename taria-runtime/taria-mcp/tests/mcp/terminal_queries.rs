//! Spawn mode is a real terminal: real ratatui apps that ask their terminal something
//! before they draw (the cursor position for `Terminal::clear()`, an inline viewport,
//! `cursor::position()`, the keyboard protocol) start in the bridge's pty and are
//! driven through it. Each app is an ignored test of this binary, run by the bridge.

use std::io::{self, Write as _};

use ratatui::crossterm::event::{self, Event, KeyCode, KeyEventKind};
use ratatui::widgets::Paragraph;
use ratatui::{DefaultTerminal, Frame, TerminalOptions, Viewport};
use serde_json::json;
use taria::{Action, Role};

use crate::harness::{Mcp, outline};

/// The bridge in spawn mode (80 × 24) running `app`, one of the ignored tests below.
fn launch(app: &str) -> Mcp {
    let exe = std::env::current_exe().unwrap();
    let app = format!("terminal_queries::{app}");
    Mcp::launch(&[
        "--cols",
        "80",
        "--rows",
        "24",
        "--",
        exe.to_str().unwrap(),
        &app,
        "--exact",
        "--ignored",
        "--nocapture",
    ])
}

/// Reads the tree, presses the app's button as an agent and sees the count go up.
fn drive(mcp: &mut Mcp) -> String {
    let tree = outline(&mcp.ok("read_tree", json!({})));
    assert!(tree.contains("- button \"Pressed 0\" [id=press]"), "{tree}");
    let pressed = mcp.ok("act", json!({"node": "press", "action": "activate"}));
    assert_eq!(pressed["status"], "delivered", "{pressed}");
    let after = outline(&mcp.ok("read_tree", json!({})));
    assert!(
        after.contains("- button \"Pressed 1\" [id=press]"),
        "{after}"
    );
    tree
}

#[test]
fn a_spawned_app_that_clears_its_terminal_first_starts_and_takes_input() {
    let mut mcp = launch("app_that_clears_its_terminal_first");
    let tree = drive(&mut mcp);
    // Fullscreen: the whole 80 × 24 pty.
    let bounds = mcp.ok(
        "read_tree",
        json!({"format": "json", "root": "press", "bounds": true}),
    );
    assert_eq!(bounds["tree"][0]["bounds"], json!([0, 0, 80, 24]), "{tree}");
    mcp.finish();
}

#[test]
fn a_spawned_app_on_an_inline_viewport_starts_below_what_it_printed() {
    let mut mcp = launch("app_on_an_inline_viewport");
    drive(&mut mcp);
    // The viewport starts on the row the cursor was on: below the app's 2 lines.
    let bounds = mcp.ok(
        "read_tree",
        json!({"format": "json", "root": "press", "bounds": true}),
    );
    assert_eq!(bounds["tree"][0]["bounds"], json!([0, 2, 80, 6]));
    // The screen an agent reads is what the app draws: its viewport.
    let screen = mcp.ok("read_tree", json!({"format": "screen"}));
    assert_eq!(screen["rows"].as_array().map(Vec::len), Some(6), "{screen}");
    assert_eq!(screen["rows"][0], "Pressed 1", "{screen}");
    mcp.finish();
}

#[test]
fn a_spawned_app_that_asks_the_cursor_position_gets_where_the_cursor_is() {
    let mut mcp = launch("app_that_asks_its_terminal");
    let tree = drive(&mut mcp);
    // Written at row 4, column 7 (1-based): crossterm counts from 0.
    assert!(
        tree.contains("- text \"cursor at column 6, row 3; keyboard enhancement: true\""),
        "{tree}"
    );
    mcp.finish();
}

#[test]
fn a_spawned_app_that_asks_without_reading_the_answers_still_runs() {
    let mut mcp = launch("app_that_asks_without_reading");
    drive(&mut mcp);
    mcp.finish();
}

/// Fullscreen, `Terminal::clear()` first: it reads the cursor position to keep it.
#[test]
#[ignore = "the app a_spawned_app_that_clears_its_terminal_first_starts_and_takes_input starts"]
fn app_that_clears_its_terminal_first() {
    if std::env::var_os(taria_schema::socket::SOCKET_ENV).is_none() {
        return;
    }
    let mut terminal = ratatui::init();
    let result = terminal
        .clear()
        .and_then(|()| Presses::default().run(&mut terminal));
    ratatui::restore();
    result.unwrap();
}

/// `Viewport::Inline(6)` under two lines it printed: ratatui places the viewport at
/// the cursor, which it asks the terminal for.
#[test]
#[ignore = "the app a_spawned_app_on_an_inline_viewport_starts_below_what_it_printed starts"]
fn app_on_an_inline_viewport() {
    if std::env::var_os(taria_schema::socket::SOCKET_ENV).is_none() {
        return;
    }
    let mut out = io::stdout();
    out.write_all(b"\x1b[2J\x1b[Hbuilding\r\nready\r\n")
        .unwrap();
    out.flush().unwrap();
    let options = TerminalOptions {
        viewport: Viewport::Inline(6),
    };
    let mut terminal = ratatui::try_init_with_options(options).unwrap();
    let result = Presses::default().run(&mut terminal);
    ratatui::restore();
    result.unwrap();
}

/// Asks crossterm for the cursor position (after moving it) and whether the terminal
/// speaks the keyboard protocol, then shows both.
#[test]
#[ignore = "the app a_spawned_app_that_asks_the_cursor_position_gets_where_the_cursor_is starts"]
fn app_that_asks_its_terminal() {
    use ratatui::crossterm::{cursor, terminal};
    if std::env::var_os(taria_schema::socket::SOCKET_ENV).is_none() {
        return;
    }
    let mut out = io::stdout();
    out.write_all(b"\x1b[2J\x1b[4;7H").unwrap();
    out.flush().unwrap();
    let (col, row) = cursor::position().unwrap();
    let keyboard = terminal::supports_keyboard_enhancement().unwrap();
    let mut terminal = ratatui::init();
    let result = Presses {
        note: format!("cursor at column {col}, row {row}; keyboard enhancement: {keyboard}"),
        ..Presses::default()
    }
    .run(&mut terminal);
    ratatui::restore();
    result.unwrap();
}

/// Asks for the cursor position many times (more answers than a terminal's input
/// holds) before it reads its input, then runs.
#[test]
#[ignore = "the app a_spawned_app_that_asks_without_reading_the_answers_still_runs starts"]
fn app_that_asks_without_reading() {
    if std::env::var_os(taria_schema::socket::SOCKET_ENV).is_none() {
        return;
    }
    ratatui::crossterm::terminal::enable_raw_mode().unwrap();
    let mut out = io::stdout();
    for _ in 0..30_000 {
        out.write_all(b"\x1b[6n").unwrap();
    }
    out.flush().unwrap();
    let mut terminal = ratatui::init();
    let result = Presses::default().run(&mut terminal);
    ratatui::restore();
    result.unwrap();
}

/// Shown data that holds a terminal query: each press writes `ESC[>c` (as a file
/// shown raw would) on an inline viewport (outside the alternate screen, where the
/// terminal answers it), and the app notes the keys it reads.
#[test]
#[ignore = "the app an_answer_that_reaches_the_app_as_keys_is_reported_in_the_input_s_result starts"]
fn app_that_shows_a_query() {
    if std::env::var_os(taria_schema::socket::SOCKET_ENV).is_none() {
        return;
    }
    let options = TerminalOptions {
        viewport: Viewport::Inline(6),
    };
    let mut terminal = ratatui::try_init_with_options(options).unwrap();
    let result = Presses {
        shows_a_query: true,
        ..Presses::default()
    }
    .run(&mut terminal);
    ratatui::restore();
    result.unwrap();
}

/// Found with a file viewer: `ESC[>c` in a shown file made the terminal answer, and
/// the app read the answer as the keys `1;0;0c`, while the act that showed the file
/// was answered "nothing in the tree changed". The act's result (or, when the answer
/// came after it, the next one's) says so.
#[test]
fn an_answer_that_reaches_the_app_as_keys_is_reported_in_the_input_s_result() {
    let mut mcp = launch("app_that_shows_a_query");
    let first = mcp.ok("act", json!({"node": "press", "action": "activate"}));
    assert_eq!(first["status"], "delivered", "{first}");
    // The keys the answer became reach the app: it shows them.
    let mut typed = String::new();
    for _ in 0..50 {
        typed = outline(&mcp.ok("read_tree", json!({})));
        if typed.contains("1;0;0c") {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    assert!(typed.contains("typed 1;0;0c"), "{typed}");
    let second = mcp.ok("act", json!({"node": "press", "action": "activate"}));
    let told: Vec<String> = [&first, &second]
        .iter()
        .flat_map(|result| result["events"].as_array().cloned().unwrap_or_default())
        .filter_map(|event| event.as_str().map(str::to_owned))
        .filter(|event| event.contains("`ESC[>c`"))
        .collect();
    assert!(!told.is_empty(), "{first}\n{second}");
    assert!(
        told[0].contains("the answer reached the app as input"),
        "{told:?}"
    );
    mcp.finish();
}

/// The apps' one screen: a button an agent presses (its key fallback is the app's
/// space key), the count of presses, and a note.
#[derive(Default)]
struct Presses {
    count: u32,
    note: String,
    exit: bool,
    /// Each press writes `ESC[>c`, and other keys are noted (`typed …`).
    shows_a_query: bool,
}

#[taria::app(label = "terminal-queries")]
impl Presses {
    fn run(&mut self, terminal: &mut DefaultTerminal) -> io::Result<()> {
        while !self.exit {
            terminal.draw(|frame| self.draw(frame))?;
            if let Event::Key(key) = event::read()?
                && key.kind == KeyEventKind::Press
            {
                match key.code {
                    KeyCode::Char(' ') => {
                        self.count += 1;
                        if self.shows_a_query {
                            io::stdout().write_all(b"\x1b[>c")?;
                            io::stdout().flush()?;
                        }
                    }
                    KeyCode::Char('q') if !self.shows_a_query => self.exit = true,
                    KeyCode::Char(c) if self.shows_a_query => {
                        if self.note.is_empty() {
                            self.note.push_str("typed ");
                        }
                        self.note.push(c);
                    }
                    _ => {}
                }
            }
        }
        Ok(())
    }

    fn draw(&self, frame: &mut Frame<'_>) {
        let label = format!("Pressed {}", self.count);
        taria::leaf(|n| {
            n.role(Role::Button).id("press").label(&label);
            n.bounds(frame.area());
            n.key_fallback(Action::Activate, "space");
        });
        if !self.note.is_empty() {
            taria::leaf(|n| {
                n.role(Role::Text).id("note").label(&self.note);
            });
        }
        frame.render_widget(
            Paragraph::new(format!("{label}\n{}", self.note)),
            frame.area(),
        );
    }
}
