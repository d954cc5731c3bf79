//! `#[derive(Semantic)]` with the container attribute and every field attribute,
//! each on a field of a type it takes; `main` checks that these are all the field
//! attributes the macros' vocabulary (`taria-derive/src/vocabulary/table.rs`) has.

use std::collections::BTreeSet;

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::widgets::Widget;
use taria::testing::Harness;
use taria::Checked;
use taria::node::ValueSchema;

#[derive(taria::Semantic)]
#[taria(role = text_input)]
struct Field<'a> {
    #[taria(label)]
    label: &'a str,
    #[taria(value)]
    text: String,
    #[taria(id)]
    id: &'static str,
    #[taria(key)]
    key: u32,
    #[taria(checked)]
    checked: Option<bool>,
    #[taria(selected)]
    selected: bool,
    #[taria(focused)]
    focused: bool,
    #[taria(expanded)]
    expanded: bool,
    #[taria(disabled)]
    disabled: bool,
    #[taria(busy)]
    busy: bool,
    #[taria(required)]
    required: bool,
    #[taria(readonly)]
    readonly: bool,
    #[taria(invalid)]
    error: Option<String>,
    #[taria(redacted)]
    redacted: bool,
    #[taria(untrusted)]
    untrusted: bool,
    #[taria(index)]
    index: usize,
    #[taria(count)]
    count: u16,
    #[taria(level)]
    level: u8,
    #[taria(max_len)]
    max_len: usize,
    #[taria(options)]
    suggestions: Vec<String>,
    // Not described: no attribute.
    scratch: Vec<u8>,
}

#[derive(taria::Semantic)]
#[taria(role = slider)]
struct Range {
    #[taria(value)]
    value: f32,
    #[taria(min)]
    min: f32,
    #[taria(max)]
    max: f32,
    #[taria(step)]
    step: f32,
    #[taria(invalid)]
    out_of_range: bool,
}

#[derive(taria::Semantic)]
#[taria(role = dialog)]
struct Dialog {
    #[taria(modal)]
    modal: bool,
}

/// The field attributes used above.
const FIELD_ATTRIBUTES_USED: &[&str] = &[
    "label", "value", "id", "key", "checked", "selected", "focused", "expanded", "disabled",
    "busy", "required", "readonly", "invalid", "redacted", "untrusted", "index", "count", "level",
    "max_len", "options", "min", "max", "step", "modal",
];

/// The macros' vocabulary, as the macros themselves read it.
#[path = "../../../../taria-derive/src/vocabulary/table.rs"]
#[expect(dead_code, reason = "the macros read the parts of the table this test does not")]
mod vocabulary;

#[taria::widget(key = "dialog")]
impl Widget for &Dialog {
    fn render(self, _: Rect, _: &mut Buffer) {}
}

#[taria::widget(actions(set_value))]
impl Widget for &Field<'_> {
    fn render(self, _: Rect, _: &mut Buffer) {
        let _ = &self.scratch;
    }
}

#[taria::widget(key = "range", actions(set_value))]
impl Widget for &Range {
    fn render(self, _: Rect, _: &mut Buffer) {}
}

fn main() {
    let field = Field {
        label: "Email",
        text: "ada@example.com".into(),
        id: "email",
        key: 7,
        checked: None,
        selected: true,
        focused: true,
        expanded: false,
        disabled: true,
        busy: true,
        required: true,
        readonly: true,
        error: Some("taken".into()),
        redacted: false,
        untrusted: true,
        index: 2,
        count: 5,
        level: 3,
        max_len: 64,
        suggestions: vec!["ada@example.org".into()],
        scratch: Vec::new(),
    };
    let range = Range { value: 0.5, min: 0.0, max: 1.0, step: 0.25, out_of_range: false };
    let tree = Harness::new(20, 2).render(|frame| {
        frame.render_widget(&field, frame.area());
        frame.render_widget(&range, frame.area());
    });
    assert_eq!(
        tree.outline(),
        "- text_input \"Email\": \"ada@example.com\" [id=email] [focused] [selected] [disabled] [busy] [required] [readonly] [untrusted] [checked=mixed] [collapsed] [invalid=\"taken\"] [index=2/5] [level=3] {set_value}\n\
         - slider: 0.5 [id=range] {set_value}\n"
    );
    let dialog = Harness::new(20, 2).render(|frame| frame.render_widget(&Dialog { modal: true }, frame.area()));
    assert!(dialog.get("dialog").unwrap().state.modal);
    let used: BTreeSet<&str> = FIELD_ATTRIBUTES_USED.iter().copied().collect();
    assert_eq!(used.len(), FIELD_ATTRIBUTES_USED.len(), "an attribute is listed twice");
    let fields: BTreeSet<&str> = vocabulary::PROPERTIES
        .iter()
        .filter(|p| p.field != vocabulary::Field::No)
        .map(|p| p.name)
        .collect();
    assert_eq!(used, fields, "this file and the vocabulary's field attributes differ");
    let email = tree.get("email").unwrap();
    assert_eq!(email.state.checked, Some(Checked::Mixed));
    assert_eq!(email.value_schema, Some(ValueSchema::Options { options: vec!["ada@example.org".into()] }));
    assert_eq!(
        tree.get("range").unwrap().value_schema,
        Some(ValueSchema::Number { min: Some(0.0), max: Some(1.0), step: Some(0.25) })
    );
}
