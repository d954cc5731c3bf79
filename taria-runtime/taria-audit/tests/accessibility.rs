//! The accessibility lint (`inaccessible_nodes`) on frames drawn with `taria`'s
//! recorder (a dev-dependency): what it finds, and what it leaves alone.

use ratatui::layout::Rect;
use ratatui::widgets::Paragraph;
use taria::testing::Harness;
use taria::{Action, Role};
use taria_audit::inaccessible_nodes;

#[test]
fn labelled_inputs_named_buttons_and_focus_on_screen_pass() {
    let mut harness = Harness::new(20, 3);
    let tree = harness.render(|frame| {
        frame.render_widget(Paragraph::new("Name: Ada\n[ Save ]\n3 items"), frame.area());
        taria::leaf(|n| {
            n.role(Role::TextInput)
                .id("name")
                .label("Name")
                .value("Ada");
            n.action(Action::SetValue)
                .focused(true)
                .bounds(Rect::new(0, 0, 20, 1));
        });
        // Named by its text value, not a label.
        taria::leaf(|n| {
            n.role(Role::Button).id("save").value("Save");
            n.action(Action::Activate).bounds(Rect::new(0, 1, 20, 1));
        });
        // Named by its child.
        let _list = taria::scope(|n| {
            n.role(Role::List).id("items");
            n.action(Action::Select).bounds(Rect::new(0, 2, 20, 1));
        });
        taria::leaf(|n| {
            n.role(Role::ListItem)
                .label("3 items")
                .bounds(Rect::new(0, 2, 20, 1));
        });
    });
    assert_eq!(
        inaccessible_nodes(&tree, harness.buffer()),
        Vec::<String>::new()
    );
}

#[test]
fn a_nameless_node_that_acts_is_found_but_one_that_only_scrolls_is_not() {
    let mut harness = Harness::new(20, 2);
    let tree = harness.render(|_frame| {
        taria::leaf(|n| {
            n.role(Role::Button).id("go");
            n.action(Action::Activate).bounds(Rect::new(0, 0, 20, 1));
        });
        taria::leaf(|n| {
            n.role(Role::Log).id("log");
            n.action(Action::Scroll).bounds(Rect::new(0, 1, 20, 1));
        });
    });
    assert_eq!(
        inaccessible_nodes(&tree, harness.buffer()),
        [
            "`go` (button): offers actions but has no name (no label, no text value, no named \
          child)"
        ]
    );
}

#[test]
fn every_kind_of_input_needs_a_label_even_with_a_value() {
    let inputs = [
        Role::TextInput,
        Role::TextArea,
        Role::Checkbox,
        Role::Radio,
        Role::Switch,
        Role::Select,
        Role::Slider,
        Role::SpinButton,
    ];
    let mut harness = Harness::new(20, 8);
    let tree = harness.render(|_frame| {
        for (row, role) in (0..).zip(inputs) {
            taria::leaf(|n| {
                // A blank label is no label.
                n.role(role)
                    .id(role.name())
                    .label(if row % 2 == 0 { "" } else { "  " });
                n.value("M").bounds(Rect::new(0, row, 20, 1));
            });
        }
        // Labelled, the same roles pass.
        for role in inputs {
            taria::leaf(|n| {
                n.role(role).label("Size").value("M");
            });
        }
    });
    let found: Vec<String> = inputs
        .iter()
        .map(|role| {
            let name = role.name();
            format!("`{name}` ({name}): is a {name} without a label: an agent cannot tell what it is for")
        })
        .collect();
    assert_eq!(inaccessible_nodes(&tree, harness.buffer()), found);
}

#[test]
fn the_focus_on_a_node_off_screen_or_without_bounds_is_found() {
    let mut harness = Harness::new(20, 2);
    let tree = harness.render(|_frame| {
        taria::leaf(|n| {
            n.role(Role::Button)
                .id("below")
                .label("Below")
                .focused(true);
            n.bounds(Rect::new(0, 5, 20, 1));
        });
        taria::leaf(|n| {
            n.role(Role::Button)
                .id("nowhere")
                .label("Nowhere")
                .focused(true);
        });
    });
    assert_eq!(
        inaccessible_nodes(&tree, harness.buffer()),
        [
            "`below` (button): has the focus but is not on screen (bounds [0, 5, 20, 1])",
            "`nowhere` (button): has the focus but is not on screen (bounds [0, 0, 0, 0])",
        ]
    );
}
