//! Every way to write a label or a value: a literal, a format string with inline
//! arguments, any `Display` expression, and the `label("…", args)` call form; values
//! also take numbers, bools, `Option`s and the `value("…", args)` form.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use taria::testing::Harness;

#[taria::widget(role = text, key = "literal", label = "Plain", value = "text")]
fn render_literal(area: Rect, buf: &mut Buffer) {
    let _ = (area, buf);
}

#[taria::widget(role = text, key = "inline", label = "Task {name}", value = "{done}/{total}")]
fn render_inline(name: &str, done: u32, total: u32, area: Rect, buf: &mut Buffer) {
    let _ = (name, done, total, area, buf);
}

#[taria::widget(role = text, key = "expr", label = name, value = name.len())]
fn render_expr(name: &String, area: Rect, buf: &mut Buffer) {
    let _ = (name, area, buf);
}

#[taria::widget(role = text, key = "call", label("Task {} of {}", i + 1, n), value("{:.1}%", percent))]
fn render_call(i: usize, n: usize, percent: f64, area: Rect, buf: &mut Buffer) {
    let _ = (i, n, percent, area, buf);
}

#[taria::widget(role = switch, key = "bool", label = "Dark mode", value = on)]
fn render_bool(on: bool, area: Rect, buf: &mut Buffer) {
    let _ = (on, area, buf);
}

#[taria::widget(role = text, key = "none", value = missing)]
fn render_none(missing: Option<u8>, area: Rect, buf: &mut Buffer) {
    let _ = (missing, area, buf);
}

fn main() {
    let tree = Harness::new(10, 1).render(|frame| {
        let area = frame.area();
        let buf = frame.buffer_mut();
        render_literal(area, buf);
        render_inline("milk", 1, 3, area, buf);
        render_expr(&"Buy milk".to_string(), area, buf);
        render_call(0, 2, 12.34, area, buf);
        render_bool(true, area, buf);
        render_none(None, area, buf);
    });
    assert_eq!(
        tree.outline(),
        "- text \"Plain\": \"text\" [id=literal]\n\
         - text \"Task milk\": \"1/3\" [id=inline]\n\
         - text \"Buy milk\": 8 [id=expr]\n\
         - text \"Task 1 of 2\": \"12.3%\" [id=call]\n\
         - switch \"Dark mode\": true [id=bool]\n\
         - text [id=none]\n"
    );
}
