//! Two nodes that say the same thing in the same place (drawn with `taria`'s
//! recorder, a dev-dependency).

use taria::Role;
use taria::testing::Harness;
use taria_audit::duplicate_nodes;

#[test]
fn nodes_in_another_place_or_saying_another_thing_are_not_duplicates() {
    let mut harness = Harness::new(20, 2);
    let tree = harness.render(|_frame| {
        let [top, bottom] = [
            ratatui::layout::Rect::new(0, 0, 20, 1),
            ratatui::layout::Rect::new(0, 1, 20, 1),
        ];
        taria::leaf(|n| {
            n.role(Role::Text).value("hello").bounds(top);
        });
        taria::leaf(|n| {
            n.role(Role::Text).value("hello").bounds(bottom);
        });
        taria::leaf(|n| {
            n.role(Role::Status).label("ready").bounds(bottom);
        });
    });
    assert_eq!(duplicate_nodes(&tree), Vec::<String>::new());
}

#[test]
fn a_dialog_and_its_text_saying_the_same_in_its_area_are_duplicates() {
    let mut harness = Harness::new(20, 3);
    let tree = harness.render(|frame| {
        let area = frame.area();
        let _dialog = taria::scope(|n| {
            n.role(Role::Dialog).id("help").label("Help").bounds(area);
        });
        taria::leaf(|n| {
            n.role(Role::Text)
                .label("Help")
                .value("q quits")
                .bounds(area);
        });
    });
    assert_eq!(
        duplicate_nodes(&tree),
        ["`help` (dialog) and `help/text#0` (text) both say \"Help\" at [0, 0, 20, 3]"]
    );
}

#[test]
fn a_row_and_the_cell_its_label_names_are_one_thing() {
    let mut harness = Harness::new(20, 1);
    let tree = harness.render(|frame| {
        let area = frame.area();
        let _row = taria::scope(|n| {
            n.role(Role::Row).id("ada").label("Ada").bounds(area);
        });
        taria::leaf(|n| {
            n.role(Role::Cell).value("Ada").bounds(area);
        });
    });
    assert_eq!(duplicate_nodes(&tree), Vec::<String>::new());
}
