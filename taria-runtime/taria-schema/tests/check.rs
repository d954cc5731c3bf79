//! The shared check of an action on a node, on trees an app records (drawn with
//! `taria`'s recorder, a dev-dependency).

use taria::testing::Harness;
use taria_schema::check::scrolled_holder;
use taria_schema::{Action, Role};

/// Only a nearest ancestor that scrolls past its view, offers `scroll` and is not
/// disabled holds an id it did not draw; a farther one never does.
#[test]
fn an_undrawn_id_is_held_by_its_nearest_ancestor_only_when_it_scrolls() {
    let mut harness = Harness::new(20, 4);
    let tree = harness.render(|_| {
        for (id, content, disabled) in
            [("log", 100, false), ("short", 2, false), ("off", 100, true)]
        {
            let _list = taria::scope(|n| {
                n.role(Role::List)
                    .id(id)
                    .scroll(0, content, 3)
                    .disabled(disabled)
                    .actions([Action::Select, Action::Scroll]);
            });
            taria::leaf(|n| {
                n.role(Role::ListItem).key("0").label("line 0");
            });
        }
    });
    let held =
        |id: &str| scrolled_holder(id, |id| tree.get(id)).map(|(parent, _)| parent.to_owned());
    assert_eq!(held("log/77").as_deref(), Some("log"));
    assert_eq!(held("log/77/cell").as_deref(), Some("log"));
    assert_eq!(held("short/5"), None, "all of it is on screen");
    assert_eq!(held("off/5"), None, "disabled");
    // `log/0` is drawn: its children are looked up under it, and it does not scroll.
    assert_eq!(held("log/0/1"), None);
    assert_eq!(held("nowhere/1"), None);
}
