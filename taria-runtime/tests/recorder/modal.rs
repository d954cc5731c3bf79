//! Modal dialogs and enclosing leaves: what is inert behind a dialog, and which nodes
//! a leaf drawn first holds as its children.

use taria::testing::Harness;
use taria::{Action, Query, Role};

use crate::button;

#[test]
fn a_modal_dialog_makes_everything_outside_it_inert() {
    let tree = Harness::new(10, 1).render(|_| {
        let main = taria::scope(|n| {
            n.role(Role::Region).id("main").action(Action::Scroll);
        });
        button("delete");
        drop(main);
        let _dialog = taria::scope(|n| {
            n.role(Role::Dialog)
                .id("confirm")
                .modal(true)
                .action(Action::Dismiss);
        });
        button("yes");
        button("no");
    });
    let actionable: Vec<&str> = tree
        .find_all(&Query::new().action("activate"))
        .iter()
        .map(|n| n.id.as_str())
        .collect();
    assert_eq!(actionable, ["yes", "no"]);
    assert!(tree.get("main").unwrap().actions.is_empty());
    assert!(tree.get("confirm").unwrap().offers("dismiss"));
    // What it took actions from is marked (so outlines keep its id); the dialog and
    // what is in it are not.
    let inert: Vec<&str> = tree
        .iter()
        .filter(|n| n.state.inert)
        .map(|n| n.id.as_str())
        .collect();
    assert_eq!(inert, ["main", "delete"]);
}

/// A leaf at `area` with `id`, enclosing what follows inside it or not.
fn framed(id: &str, area: ratatui::layout::Rect, encloses: bool) {
    taria::leaf(|n| {
        n.role(Role::Dialog).id(id).bounds(area).encloses(encloses);
    });
}

/// A leaf at `area` keyed `key`.
fn text_at(key: &str, area: ratatui::layout::Rect) {
    taria::leaf(|n| {
        n.role(Role::Text).key(key).label(key).bounds(area);
    });
}

#[test]
fn an_enclosing_leaf_holds_what_is_drawn_inside_it_until_something_is_not() {
    use ratatui::layout::Rect;
    let tree = Harness::new(40, 10).render(|_| {
        let _app = taria::scope(|n| {
            n.role(Role::App).id("app").bounds(Rect::new(0, 0, 40, 10));
        });
        framed("popup", Rect::new(5, 2, 20, 5), true);
        text_at("body", Rect::new(6, 3, 18, 3));
        // A scope inside it: what is drawn inside it (or with no bounds) is its own;
        // a node drawn wholly outside it leaves it, and the popup too.
        let inner = taria::scope(|n| {
            n.role(Role::Group)
                .key("buttons")
                .bounds(Rect::new(6, 5, 18, 1));
        });
        text_at("far", Rect::new(0, 9, 5, 1));
        drop(inner);
        text_at("status", Rect::new(0, 9, 40, 1));
        text_at("after", Rect::new(6, 3, 2, 1));
    });
    assert_eq!(
        tree.outline(),
        "- app [id=app]
  - dialog [id=popup]
    - text \"body\"
    - group
  - text \"far\"
  - text \"status\"
  - text \"after\"
"
    );
    for id in [
        "popup/body",
        "popup/buttons",
        "app/far",
        "app/status",
        "app/after",
    ] {
        assert!(tree.get(id).is_some(), "{id}");
    }
}

/// A node the builder gave a derived id while an enclosing leaf was open, then found
/// outside it, takes its id under the parent it ends up with: a key's, a position's
/// and a positional id alike.
#[test]
fn a_node_drawn_outside_an_enclosing_leaf_takes_its_id_under_its_own_parent() {
    use ratatui::layout::Rect;
    let tree = Harness::new(40, 10).render(|_| {
        let _app = taria::scope(|n| {
            n.role(Role::App).id("app").bounds(Rect::new(0, 0, 40, 10));
        });
        framed("popup", Rect::new(5, 2, 20, 5), true);
        taria::leaf(|n| {
            n.role(Role::Status)
                .label("left")
                .bounds(Rect::new(0, 9, 20, 1));
        });
        framed("again", Rect::new(5, 2, 20, 5), true);
        text_at("keyed", Rect::new(0, 8, 5, 1));
        framed("third", Rect::new(5, 2, 20, 5), true);
        taria::leaf(|n| {
            n.role(Role::Text)
                .position_key(7)
                .bounds(Rect::new(0, 7, 5, 1));
        });
    });
    for id in ["app/status#1", "app/keyed", "app/7"] {
        assert!(tree.get(id).is_some(), "{id} in\n{}", tree.outline());
    }
}

#[test]
fn an_enclosing_leaf_closes_with_its_parent_and_a_plain_leaf_encloses_nothing() {
    use ratatui::layout::Rect;
    let tree = Harness::new(40, 10).render(|_| {
        let main = taria::scope(|n| {
            n.role(Role::Region)
                .id("main")
                .bounds(Rect::new(0, 0, 40, 10));
        });
        framed("popup", Rect::new(5, 2, 20, 5), true);
        drop(main);
        // Inside the popup's area, but drawn after its parent closed.
        text_at("late", Rect::new(6, 3, 5, 1));
        framed("plain", Rect::new(5, 2, 20, 5), false);
        text_at("beside", Rect::new(6, 3, 5, 1));
    });
    assert_eq!(
        tree.outline(),
        "- region [id=main]
  - dialog [id=popup]
- text \"late\" [id=late]
- dialog [id=plain]
- text \"beside\" [id=beside]
"
    );
}

#[test]
fn a_modal_enclosing_leaf_leaves_what_is_drawn_inside_it_actionable() {
    use ratatui::layout::Rect;
    let tree = Harness::new(40, 10).render(|_| {
        button("behind");
        taria::leaf(|n| {
            n.role(Role::Dialog)
                .id("confirm")
                .modal(true)
                .bounds(Rect::new(5, 2, 20, 5))
                .encloses(true);
        });
        taria::leaf(|n| {
            n.role(Role::Button)
                .id("yes")
                .action(Action::Activate)
                .bounds(Rect::new(6, 5, 5, 1));
        });
    });
    let actionable: Vec<&str> = tree
        .find_all(&Query::new().action("activate"))
        .iter()
        .map(|n| n.id.as_str())
        .collect();
    assert_eq!(actionable, ["yes"]);
    assert!(tree.get("behind").unwrap().state.inert);
}
