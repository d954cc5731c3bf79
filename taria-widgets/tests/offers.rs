//! Issue 20: a widget offers an action only where something performs it. Held
//! actions reach a widget only with an explicit id and the app's state; without
//! them a list, table, tabs or scrollbar offers none of its own actions, and every
//! action that is offered (an item's `select`, by the app's keys) is performed, or
//! refused before any key is pressed where the keys could land elsewhere.

use ratatui::Frame;
use ratatui::crossterm::event::{Event, KeyCode, KeyEventKind};
use ratatui::layout::{Constraint, Layout};
use taria::testing::{AppHarness, Harness};
use taria::{Actions, Invocation, Outcome, Role};
use taria_widgets as w;

/// An app in ratatui's style: id-less widgets drawn with its own state, moved by its
/// own keys.
#[derive(Default)]
struct App {
    list: w::ListState,
    table: w::TableState,
    tab: Option<usize>,
    bar: w::ScrollbarState,
}

impl Actions for App {
    fn handle_action(&mut self, _: &Invocation<'_>) -> Outcome {
        Outcome::NotHandled
    }
}

fn draw(frame: &mut Frame<'_>, app: &mut App) {
    let [a, b, c, d] = frame.area().layout(&Layout::vertical([
        Constraint::Length(4),
        Constraint::Length(4),
        Constraint::Length(1),
        Constraint::Length(4),
    ]));
    let items = (0..8).map(|i| format!("item {i}"));
    frame.render_stateful_widget(w::List::new(items), a, &mut app.list);
    let rows = (0..8).map(|i| w::Row::new([i.to_string(), format!("row {i}")]));
    frame.render_stateful_widget(w::Table::new(rows, [3, 10]), b, &mut app.table);
    frame.render_stateful_widget(w::Tabs::new(["One", "Two"]), c, &mut app.tab);
    app.bar = app.bar.content_length(8);
    frame.render_stateful_widget(w::Scrollbar::default(), d, &mut app.bar);
}

fn harness() -> AppHarness<App> {
    AppHarness::new(App::default(), 30, 13, draw).on_event(|app, event| {
        if let Event::Key(key) = event
            && key.kind == KeyEventKind::Press
        {
            match key.code {
                // One selection key for both, as an app with one focus might.
                KeyCode::Down => {
                    app.list.select_next();
                    app.table.select_next();
                }
                KeyCode::Up => {
                    app.list.select_previous();
                    app.table.select_previous();
                }
                KeyCode::Right => app.tab = Some(app.tab.map_or(0, |t| (t + 1).min(1))),
                _ => {}
            }
        }
    })
}

#[test]
fn id_less_widgets_offer_none_of_their_own_actions() {
    let h = harness();
    let tree = h.tree();
    for role in [Role::List, Role::Table, Role::Tabs, Role::Scrollbar] {
        let node = tree.find(&taria::Query::new().role(role)).unwrap();
        assert!(
            node.actions.is_empty(),
            "{role:?} offers {:?}, which nothing performs:\n{}",
            node.actions,
            tree.outline()
        );
    }
    // Cells select only through the table, which has no id.
    let table = tree.find(&taria::Query::new().role(Role::Table)).unwrap();
    assert!(
        table
            .children
            .iter()
            .flat_map(|r| &r.children)
            .all(|c| c.actions.is_empty())
    );
}

#[test]
fn every_action_an_id_less_widget_offers_is_performed_or_refused_before_any_key() {
    let mut h = harness();
    let offered: Vec<(String, String)> = h
        .tree()
        .iter()
        .flat_map(|n| n.actions.iter().map(|a| (n.id.to_string(), a.to_string())))
        .collect();
    assert!(!offered.is_empty());
    let mut performed = 0;
    for (node, action) in offered {
        if h.tree().get(&node).is_none() {
            continue;
        }
        let before = h.tree().outline();
        match h.act(&node, &action) {
            Ok(()) => performed += 1,
            // `down` moves the list and the table alike and nothing shows focus: the
            // key fallback is refused before any key (issue 20.4), the app as it was.
            Err(refused) => {
                assert!(
                    refused.status == taria_schema::protocol::AckStatus::Ignored
                        && refused.message.contains("no key was pressed"),
                    "{action} on {node}: {refused:?}\n{before}"
                );
                assert_eq!(
                    h.tree().outline(),
                    before,
                    "{action} on {node} changed the app"
                );
            }
        }
    }
    // The tabs' `right` reaches only them: their tabs are selected by it.
    assert!(performed > 0, "nothing offered was performed");
}

#[test]
fn a_widget_drawn_without_the_app_s_state_offers_none_of_its_own_actions() {
    let mut harness = Harness::new(20, 4);
    let tree = harness.render(|frame| {
        frame.render_widget(w::List::new(["a", "b"]).id("l"), frame.area());
    });
    assert!(
        tree.get("l").unwrap().actions.is_empty(),
        "{}",
        tree.outline()
    );
    let tree = harness.render(|frame| {
        let list = w::List::new(["a", "b"]).id("l");
        frame.render_stateful_widget(list, frame.area(), &mut w::ListState::default());
    });
    let offered: Vec<&str> = tree
        .get("l")
        .unwrap()
        .actions
        .iter()
        .map(taria::node::ActionName::as_str)
        .collect();
    assert_eq!(offered, ["select", "scroll"]);
}

/// Issue 21.6: a list or table drawn without a state shows no selection, and nothing
/// selects one of its items (a chat's message list): its items offer no `select`.
/// Drawn with a state the app's keys move, they do (`select` by those keys).
#[test]
fn the_items_of_a_list_or_table_drawn_without_a_state_offer_no_select() {
    let mut harness = Harness::new(20, 6);
    let tree = harness.render(|frame| {
        let [a, b] = frame.area().layout(&Layout::vertical([3, 3]));
        frame.render_widget(w::List::new(["0: hi", "1: hello"]), a);
        frame.render_widget(w::Table::new([w::Row::new(["x"])], [5]), b);
    });
    let offering: Vec<&str> = tree
        .iter()
        .filter(|n| !n.actions.is_empty())
        .map(|n| n.id.as_str())
        .collect();
    assert!(offering.is_empty(), "{}", tree.outline());
    let tree = harness.render(|frame| {
        let list = w::List::new(["0: hi", "1: hello"]);
        frame.render_stateful_widget(list, frame.area(), &mut w::ListState::default());
    });
    let item = &tree.roots[0].children[0];
    assert!(item.actions.iter().any(|a| a.as_str() == "select"));
}

/// ratatui's demo2: page tabs its arrows switch, and on the mail page, mail folders
/// drawn with `Inbox` selected that nothing switches.
#[derive(Default)]
struct Pages {
    page: usize,
    fixed: bool,
    keys: usize,
}

impl Actions for Pages {
    fn handle_action(&mut self, _: &Invocation<'_>) -> Outcome {
        Outcome::NotHandled
    }
}

fn pages(fixed: bool) -> AppHarness<Pages> {
    let draw = |frame: &mut Frame<'_>, app: &mut Pages| {
        let [top, folders] = Layout::vertical([Constraint::Length(1); 2]).areas(frame.area());
        let tabs = w::Tabs::new(["", " Recipe ", " Email "]).names(["About", "Recipe", "Email"]);
        frame.render_widget(tabs.select(app.page), top);
        if app.page == 2 {
            let inner = w::Tabs::new([" Inbox ", " Sent "]).select(0);
            let inner = if app.fixed { inner.fixed() } else { inner };
            frame.render_widget(inner, folders);
        }
    };
    let app = Pages {
        fixed,
        ..Pages::default()
    };
    AppHarness::new(app, 30, 2, draw).on_event(|app: &mut Pages, event| {
        if let Event::Key(key) = event {
            app.keys += 1;
            match key.code {
                KeyCode::Right => app.page = (app.page + 1).min(2),
                KeyCode::Left => app.page = app.page.saturating_sub(1),
                _ => {}
            }
        }
    })
}

/// Found on ratatui's demo2: its mail folders offered `select`, which nothing
/// performs, and because they seemed to take the arrows, a page tab's `select` was
/// refused as well. Folders marked `fixed` offer nothing, and the page tabs' arrows
/// are pressed; a blank title is named for agents.
#[test]
fn tabs_that_never_switch_offer_no_select_and_leave_the_arrows_to_the_others() {
    let tab = |h: &AppHarness<Pages>, label: &str| {
        let tree = h.tree();
        let found = tree.iter().find(|n| n.label.as_deref() == Some(label));
        found.map(|n| n.id.to_string()).unwrap()
    };
    let mut h = pages(true);
    let about = tab(&h, "About");
    assert!(h.node(&about).state.selected, "{}", h.tree().outline());
    h.act(&tab(&h, " Email "), "select").unwrap();
    assert_eq!(h.app().page, 2);
    let folders: Vec<_> = h
        .tree()
        .iter()
        .filter(|n| n.role == Role::Tab && n.label.as_deref() == Some(" Inbox "))
        .cloned()
        .collect();
    assert_eq!(folders.len(), 1, "{}", h.tree().outline());
    assert!(folders[0].state.selected);
    assert!(folders[0].actions.is_empty(), "{}", h.tree().outline());
    h.act(&tab(&h, " Recipe "), "select").unwrap();
    assert_eq!(h.app().page, 1, "the arrows reach the page tabs");
    // Not marked: the folders seem to take the arrows too, so nothing is pressed.
    let mut h = pages(false);
    h.act(&tab(&h, " Email "), "select").unwrap();
    let keys = h.app().keys;
    let error = h.act(&tab(&h, " Recipe "), "select").unwrap_err();
    assert!(
        error.message.contains("may move the selection of"),
        "{error}"
    );
    assert_eq!(h.app().keys, keys, "nothing pressed");
}
