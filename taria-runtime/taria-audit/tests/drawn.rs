//! Text a node says it shows and the screen does not (drawn with `taria`'s recorder,
//! a dev-dependency).

use ratatui::widgets::Paragraph;

use taria::testing::Harness;
use taria_audit::undrawn_text;
use taria_schema::Role;

fn frame(label: &'static str, drawn: &'static str, width: u16) -> Vec<String> {
    let mut harness = Harness::new(width, 2);
    let tree = harness.render(|frame| {
        let _scope = taria::scope(|n| {
            n.role(Role::Text).id("t").label(label).bounds(frame.area());
        });
        frame.render_widget(Paragraph::new(drawn), frame.area());
    });
    undrawn_text(&tree, harness.buffer())
}

#[test]
fn a_label_drawn_whole_or_cut_is_found() {
    assert!(frame("Save", "  Save", 10).is_empty());
    assert!(frame("Save changes", "Save cha", 8).is_empty());
    assert!(
        frame("Save changes", "Save", 10).is_empty(),
        "wrapped after a word"
    );
}

#[test]
fn a_label_not_drawn_is_reported() {
    assert_eq!(frame("Save", "Load", 10).len(), 1);
    assert_eq!(frame("Save", "", 10).len(), 1);
}
