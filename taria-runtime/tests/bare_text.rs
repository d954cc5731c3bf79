//! Text rendered as a bare widget (`&str`, `String`, `Span`, `Line`, `Text`) in the
//! code `#[taria::app]` and `#[taria::widget]` rewrite is recorded as a `text` node;
//! every other widget records only what it records itself.

use std::io;

use ratatui::Frame;
use ratatui::backend::TestBackend;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::Stylize;
use ratatui::text::{Line, Span, Text};
use ratatui::widgets::{Block, Clear, Paragraph};
use ratatui::{Terminal, crossterm::event};
use taria::node::Bounds;
use taria::testing::{AppHarness, Harness, undrawn_text};
use taria::{Role, Value};

/// A popup in the shape of ratatui's popup example: a `Clear`, a ratatui block, and
/// its help drawn as bare lines.
#[derive(Default)]
#[allow(dead_code)] // `run` is the app's loop, which the test does not run.
struct Popup {
    exit: bool,
}

#[taria::app(label = "popup")]
#[allow(dead_code)]
impl Popup {
    fn run(&mut self, terminal: &mut Terminal<TestBackend>) -> io::Result<()> {
        while !self.exit {
            let Ok(_) = terminal.draw(|frame| self.draw(frame));
            if let event::Event::Key(_) = event::read()? {
                self.exit = true;
            }
        }
        Ok(())
    }

    fn draw(&self, frame: &mut Frame<'_>) {
        if self.exit {
            return;
        }
        let [top, body] =
            Layout::vertical([Constraint::Length(1), Constraint::Fill(1)]).areas(frame.area());
        frame.render_widget(Line::from("Popup demo").bold().centered(), top);
        let area = body.centered(Constraint::Length(20), Constraint::Length(4));
        let _dialog = taria::scope(|n| {
            n.role(Role::Dialog)
                .id("content")
                .label("Content")
                .bounds(area);
        });
        let block = Block::bordered().title("Content");
        let inner = block.inner(area);
        frame.render_widget(Clear, area);
        frame.render_widget(block, area);
        let keys = Text::from(vec![Line::from("p: toggle"), Line::from("q: quit")]);
        frame.render_widget(&keys, inner);
    }
}

fn popup_draw(frame: &mut Frame<'_>, popup: &mut Popup) {
    popup.draw(frame);
}

#[test]
fn an_app_s_bare_lines_are_text_nodes_with_the_cells_they_cover() {
    let harness = AppHarness::new(Popup::default(), 30, 8, popup_draw);
    let tree = harness.tree();
    assert_eq!(
        tree.outline(),
        "- text \"Popup demo\" [id=text#0 positional]\n\
         - dialog \"Content\" [id=content]\n  \
           - text: \"p: toggle\\nq: quit\"\n"
    );
    // Centered: the title's ten cells in the middle of the top row.
    assert_eq!(tree.roots[0].bounds, Bounds::from([10, 0, 10, 1]));
    // Two rows, as wide as the longer line, inside the block's border.
    let keys = &tree.roots[1].children[0];
    assert_eq!(keys.bounds, Bounds::from([6, 4, 9, 2]));
    assert_eq!(keys.role, Role::Text);
    assert_eq!(keys.label.as_deref(), Some("p: toggle"));
    assert_eq!(undrawn_text(&tree, harness.buffer()), Vec::<String>::new());
}

#[taria::widget(role = region, id = "status", label = "Status")]
fn status(frame: &mut Frame<'_>, area: Rect, saved: usize) {
    let [left, middle, right] = Layout::horizontal([Constraint::Fill(1); 3]).areas(area);
    frame.render_widget("ready", left);
    frame.render_widget(format!("{saved} saved"), middle);
    frame.render_widget(Span::raw("q quits").italic(), right);
    // Blank text says nothing: no node.
    frame.render_widget(Line::from("   "), area);
    // Not bare text: its own node, or (ratatui's Paragraph) none.
    frame.render_widget(Paragraph::new("not recorded"), Rect::default());
    // A temporary the widget borrows lives as long as the call, as before.
    frame.render_widget(Line::from(format!("{saved}").as_str()), Rect::default());
}

#[test]
fn a_widget_function_s_bare_strings_and_spans_are_its_text_children() {
    let mut harness = Harness::new(30, 1);
    let tree = harness.render(|frame| status(frame, frame.area(), 3));
    assert_eq!(
        tree.outline(),
        "- region \"Status\" [id=status]\n  \
           - text \"ready\"\n  \
           - text \"3 saved\"\n  \
           - text \"q quits\"\n"
    );
    let status = tree.get("status").unwrap();
    assert_eq!(status.children[1].bounds, Bounds::from([10, 0, 7, 1]));
    assert_eq!(status.children[1].value, None);
}

#[taria::widget(role = region, id = "help")]
fn help(frame: &mut Frame<'_>, area: Rect, text: &Text<'_>) {
    frame.render_widget(text, area);
}

#[test]
fn a_text_records_the_lines_drawn_and_the_cells_they_cover() {
    let mut harness = Harness::new(20, 3);
    let text = Text::from(vec![
        Line::from(""),
        Line::from("first"),
        Line::from("second").right_aligned(),
        Line::from("cut off: the area has three rows"),
    ]);
    let tree = harness.render(|frame| help(frame, frame.area(), &text));
    let node = &tree.get("help").unwrap().children[0];
    assert_eq!(node.label.as_deref(), Some("first"));
    assert_eq!(node.value, Some(Value::Text("first\nsecond".into())));
    // From the first row that says something to the last drawn: `second` ends at the
    // right edge.
    assert_eq!(node.bounds, Bounds::from([0, 1, 20, 2]));
    assert!(!tree.outline().contains("cut off"), "{}", tree.outline());
}

#[test]
fn bare_text_outside_annotated_code_records_nothing() {
    let mut harness = Harness::new(20, 1);
    let tree = harness.render(|frame| frame.render_widget(Line::from("plain"), frame.area()));
    assert_eq!(tree.outline(), "");
}

/// A custom widget that writes its text into the buffer itself.
struct Banner<'a> {
    left: &'a str,
    right: &'a str,
}

#[taria::widget(role = status, id = "banner")]
impl ratatui::widgets::Widget for Banner<'_> {
    fn render(self, area: Rect, buf: &mut ratatui::buffer::Buffer) {
        buf.set_string(area.x, area.y, self.left, ratatui::style::Style::new());
        let line = Line::from(self.right);
        let x = area.right().saturating_sub(line.width() as u16);
        buf.set_line(x, area.y, &line, area.width);
    }
}

#[taria::widget(role = status, id = "labelled", label = "Mode")]
impl ratatui::widgets::Widget for &Banner<'_> {
    fn render(self, area: Rect, buf: &mut ratatui::buffer::Buffer) {
        buf.set_string(area.x, area.y, self.left, ratatui::style::Style::new());
    }
}

#[test]
fn a_text_widget_that_writes_the_buffer_itself_takes_what_it_wrote_as_its_value() {
    let mut harness = Harness::new(30, 2);
    let banner = Banner {
        left: "NORMAL",
        right: "12:30",
    };
    let tree = harness.render(|frame| {
        let [top, bottom] = Layout::vertical([Constraint::Length(1); 2]).areas(frame.area());
        frame.render_widget(&banner, bottom);
        frame.render_widget(banner, top);
    });
    let value = |id: &str| tree.get(id).unwrap().value.clone();
    assert_eq!(
        value("banner"),
        Some(Value::Text(format!("NORMAL{}12:30", " ".repeat(19))))
    );
    // Given a label (or a value), the node says what the app says, nothing more.
    assert_eq!(value("labelled"), None);
}

#[taria::widget(role = spin_button, id = "count", label = "Count", value = count)]
fn counter(frame: &mut Frame<'_>, area: Rect, count: i64) {
    frame.render_widget(format!("Count: {count}"), area);
}

#[test]
fn a_control_s_own_text_is_what_the_control_records() {
    let mut harness = Harness::new(20, 1);
    let tree = harness.render(|frame| counter(frame, frame.area(), 41));
    assert_eq!(tree.outline(), "- spin_button \"Count\": 41 [id=count]\n");
}
