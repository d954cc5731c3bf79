//! `min`, `max`, `step` (numbers), `max_len` (text) and `options` (any iterator of
//! `Display` items) publish the domain of a settable value.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use taria::node::ValueSchema;
use taria::testing::Harness;

#[taria::widget(role = slider, id = "volume", value = level, min = 0, max = 10u8, step = 0.5, actions(set_value))]
fn render_volume(level: f64, area: Rect, buf: &mut Buffer) {
    let _ = (level, area, buf);
}

#[taria::widget(role = text_input, id = "title", value = title, max_len = title_limit, actions(set_value))]
fn render_title(title: &str, title_limit: usize, area: Rect, buf: &mut Buffer) {
    let _ = (title, title_limit, area, buf);
}

#[taria::widget(role = select, id = "priority", value = choices[chosen], options = choices.iter(), actions(set_value))]
fn render_priority(choices: &[&str], chosen: usize, area: Rect, buf: &mut Buffer) {
    let _ = (choices, chosen, area, buf);
}

fn main() {
    let tree = Harness::new(10, 3).render(|frame| {
        let area = frame.area();
        let buf = frame.buffer_mut();
        render_volume(2.5, area, buf);
        render_title("Buy milk", 80, area, buf);
        render_priority(&["low", "high"], 1, area, buf);
    });
    assert_eq!(
        tree.get("volume").unwrap().value_schema,
        Some(ValueSchema::Number { min: Some(0.0), max: Some(10.0), step: Some(0.5) })
    );
    assert_eq!(
        tree.get("title").unwrap().value_schema,
        Some(ValueSchema::Text { max_len: Some(80) })
    );
    assert_eq!(
        tree.get("priority").unwrap().value_schema,
        Some(ValueSchema::Options { options: vec!["low".into(), "high".into()] })
    );
    assert_eq!(
        tree.outline(),
        "- slider: 2.5 [id=volume] {set_value}\n\
         - text_input: \"Buy milk\" [id=title] {set_value}\n\
         - select: \"high\" [id=priority] {set_value}\n"
    );
}
