//! Labels, keys and ids written part by part (text, integers, chars, bools through
//! their fast paths; any other `Display` type through `Display`) record exactly what
//! `format!` gives for the same format string.

use std::fmt;

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::widgets::Widget;
use taria::testing::Harness;

/// A type that is only `Display`: it takes the slow path.
struct Code(u32);

impl fmt::Display for Code {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "C-{:03}", self.0)
    }
}

#[taria::widget(
    role = text,
    key = "parts",
    label = "{name} owes {code} ({count}x {c}, {flag}, {neg}, {ratio}, {big}) {{literal}} é"
)]
fn render_parts(
    name: &str,
    code: &Code,
    count: u64,
    c: char,
    flag: bool,
    neg: i32,
    ratio: f32,
    big: u128,
    area: Rect,
    buf: &mut Buffer,
) {
    let _ = (name, code, count, c, flag, neg, ratio, big, area, buf);
}

#[taria::widget(role = text, key = code, label = code)]
fn render_expression(code: Code, area: Rect, buf: &mut Buffer) {
    let _ = (area, buf);
}

#[taria::widget(role = text, id = code, label("{} and {}: {}", owner, code, owner.len()))]
fn render_call(owner: String, code: &Code, area: Rect, buf: &mut Buffer) {
    let _ = (owner, code, area, buf);
}

#[derive(taria::Semantic)]
#[taria(role = row)]
struct Bill {
    #[taria(key)]
    code: Code,
    #[taria(label)]
    owner: &'static str,
}

#[taria::widget]
impl Widget for &Bill {
    fn render(self, _: Rect, _: &mut Buffer) {}
}

fn main() {
    let (name, code, count, c, flag, neg, ratio, big) =
        ("Ada", Code(7), 12u64, 'é', true, -40i32, 0.25f32, u128::MAX);
    let tree = Harness::new(10, 1).render(|frame| {
        let area = frame.area();
        render_parts(name, &code, count, c, flag, neg, ratio, big, area, frame.buffer_mut());
        render_expression(Code(8), area, frame.buffer_mut());
        render_call("Grace".into(), &Code(9), area, frame.buffer_mut());
        frame.render_widget(&Bill { code: Code(10), owner: "Alan" }, area);
    });
    let label = |id: &str| tree.get(id).unwrap_or_else(|| panic!("no node {id}")).label.clone();
    assert_eq!(
        label("parts").as_deref(),
        Some(format!("{name} owes {code} ({count}x {c}, {flag}, {neg}, {ratio}, {big}) {{literal}} é").as_str())
    );
    assert_eq!(label("C-008").as_deref(), Some("C-008"));
    assert_eq!(label("C-009").as_deref(), Some("Grace and C-009: 5"));
    assert_eq!(label("C-010").as_deref(), Some("Alan"));
}
