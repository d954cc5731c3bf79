//! Scope guards: a guard kept alive past its children does not take in the siblings
//! drawn after them (found porting a calendar app: its twelve months became children
//! of the list of marked dates until an explicit `drop(list)`).

use ratatui::layout::Rect;
use taria::Role;
use taria::testing::Harness;

fn text_at(key: &str, area: Rect) {
    taria::leaf(|n| {
        n.role(Role::Text).key(key).label(key).bounds(area);
    });
}

#[test]
fn a_node_drawn_wholly_outside_a_scope_s_bounds_is_its_sibling_though_the_guard_lives() {
    let tree = Harness::new(40, 12).render(|_| {
        let _marked = taria::scope(|n| {
            n.role(Role::List)
                .id("marked")
                .bounds(Rect::new(0, 0, 10, 12));
        });
        text_at("2007-06-29", Rect::new(0, 0, 10, 1));
        // The months, right of the list, while its guard is still alive.
        text_at("january", Rect::new(12, 0, 20, 6));
        text_at("february", Rect::new(12, 6, 20, 6));
    });
    assert_eq!(
        tree.outline(),
        "- list [id=marked]\n  - text \"2007-06-29\"\n- text \"january\" [id=january]\n- text \"february\" \
         [id=february]\n"
    );
}

#[test]
fn a_scope_keeps_what_overlaps_it_and_what_has_no_bounds() {
    let tree = Harness::new(40, 12).render(|_| {
        let _pane = taria::scope(|n| {
            n.role(Role::Region)
                .id("pane")
                .bounds(Rect::new(0, 0, 20, 12));
        });
        text_at("inside", Rect::new(1, 1, 5, 1));
        // Overlapping its edge: still its child (a widget drawn a cell too wide).
        text_at("edge", Rect::new(18, 2, 5, 1));
        taria::leaf(|n| {
            n.role(Role::Text).key("nowhere").label("nowhere");
        });
    });
    let pane = tree.get("pane").unwrap();
    let children: Vec<_> = pane.children.iter().map(|n| n.label.as_deref()).collect();
    assert_eq!(children, [Some("inside"), Some("edge"), Some("nowhere")]);
}

#[test]
fn dropping_a_guard_a_sibling_closed_already_closes_nothing_else() {
    let tree = Harness::new(40, 12).render(|_| {
        let _app = taria::scope(|n| {
            n.role(Role::App).id("app").bounds(Rect::new(0, 0, 40, 12));
        });
        let list = taria::scope(|n| {
            n.role(Role::List)
                .id("list")
                .bounds(Rect::new(0, 0, 10, 12));
        });
        text_at("month", Rect::new(12, 0, 20, 6));
        drop(list);
        // Still inside `app`: the drop above closed nothing more.
        text_at("status", Rect::new(12, 11, 20, 1));
    });
    let app = tree.get("app").unwrap();
    let children: Vec<_> = app.children.iter().map(|n| n.id.as_str()).collect();
    assert_eq!(children, ["list", "app/month", "app/status"]);
}
