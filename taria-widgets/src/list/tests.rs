use ratatui::style::{Color, Stylize};
use ratatui::widgets::Borders;
use taria::testing::Harness;

use super::*;
use crate::Block;
use ratatui::widgets::Widget;

fn items() -> Vec<&'static str> {
    vec![
        "one",
        "two\ntwo b",
        "three",
        "four",
        "five\nfive b\nfive c",
        "six",
        "seven",
    ]
}

/// Renders ours and ratatui's with the same inputs and state; the buffers and
/// the states after rendering must match.
fn assert_same(ours: List<'_>, theirs: ratatui::widgets::List<'_>, area: Rect, state: &ListState) {
    let (mut a, mut b) = (Buffer::empty(area), Buffer::empty(area));
    let (mut sa, mut sb) = (*state, *state);
    StatefulWidget::render(ours, area, &mut a, &mut sa);
    StatefulWidget::render(theirs, area, &mut b, &mut sb);
    assert_eq!(a, b);
    assert_eq!(sa, sb);
}

#[test]
fn draws_what_ratatui_draws() {
    let area = Rect::new(0, 0, 16, 6);
    for selected in [None, Some(0), Some(4), Some(6), Some(40)] {
        for offset in [0, 3, 9] {
            let state = ListState::default()
                .with_selected(selected)
                .with_offset(offset);
            assert_same(
                List::new(items())
                    .block(Block::bordered().title("T"))
                    .highlight_symbol(">>")
                    .highlight_style(Color::Red)
                    .scroll_padding(1)
                    .id("l"),
                ratatui::widgets::List::new(items())
                    .block(ratatui::widgets::Block::bordered().title("T"))
                    .highlight_symbol(">>")
                    .highlight_style(Color::Red)
                    .scroll_padding(1),
                area,
                &state,
            );
            assert_same(
                List::new(items())
                    .direction(ListDirection::BottomToTop)
                    .repeat_highlight_symbol(true)
                    .highlight_symbol("*")
                    .highlight_spacing(HighlightSpacing::Always)
                    .style(Style::new().blue())
                    .block(ratatui::widgets::Block::new().borders(Borders::LEFT)),
                ratatui::widgets::List::new(items())
                    .direction(ListDirection::BottomToTop)
                    .repeat_highlight_symbol(true)
                    .highlight_symbol("*")
                    .highlight_spacing(HighlightSpacing::Always)
                    .style(Style::new().blue())
                    .block(ratatui::widgets::Block::new().borders(Borders::LEFT)),
                area,
                &state,
            );
        }
    }
    let mut a = Buffer::empty(Rect::new(0, 0, 8, 2));
    let mut b = a.clone();
    Widget::render(List::new(["x", "y"]).red(), a.area, &mut a);
    Widget::render(
        ratatui::widgets::List::new(["x", "y"]).red(),
        b.area,
        &mut b,
    );
    assert_eq!(a, b);
}

#[test]
fn records_the_items_ratatui_shows() {
    // Mixed heights, padding and offsets: the recorded window is the one ratatui
    // scrolled to (its offset after rendering) and fills the area.
    let area = Rect::new(0, 0, 10, 4);
    for selected in [None, Some(0), Some(3), Some(4), Some(6)] {
        for offset in [0, 2, 5, 6] {
            for padding in [0, 1, 2] {
                let mut state = ListState::default()
                    .with_selected(selected)
                    .with_offset(offset);
                let mut harness = Harness::new(area.width, area.height);
                let tree = harness.render(|frame| {
                    let list = List::new(items()).scroll_padding(padding).id("l");
                    frame.render_stateful_widget(list, area, &mut state);
                });
                let list = tree.get("l").expect("the list");
                let scroll = list.scroll.expect("scroll");
                assert_eq!(
                    scroll.offset as usize,
                    state.offset(),
                    "{selected:?} {offset} {padding}"
                );
                let first = list.children.first().expect("an item");
                assert_eq!(first.position.index, Some(scroll.offset));
                assert_eq!(list.children.len(), scroll.viewport as usize);
                let heights: u16 = list.children.iter().map(|c| c.bounds.height).sum();
                assert!(heights <= area.height);
            }
        }
    }
}

#[test]
fn select_and_scroll_change_the_state() {
    let mut state = ListState::default();
    let select = taria::Invocation::new("l/3", "select").with_index(3);
    assert_eq!(
        apply_action(&mut state, 5, Ok(crate::item_index(&select)), &select),
        Outcome::Handled
    );
    assert_eq!(state.selected(), Some(3));
    let far = taria::Invocation::new("l/9", "select").with_index(9);
    assert!(matches!(
        apply_action(&mut state, 5, Ok(crate::item_index(&far)), &far),
        Outcome::Rejected(_)
    ));
    let down = taria::Invocation::new("l", "scroll").with_scroll(ScrollDirection::Down, 2);
    assert_eq!(
        apply_action(&mut state, 5, Ok(crate::item_index(&down)), &down),
        Outcome::Handled
    );
    // Stops at the last item: ratatui's own `scroll_down_by` would select item 5 of
    // 5, which its draw takes back, and taria took the difference for an app that
    // rebuilds its state each frame (found on ratatui's table example, corpus/).
    assert_eq!(state.selected(), Some(4));
    assert_eq!(
        apply_action(&mut state, 5, Ok(crate::item_index(&down)), &down),
        Outcome::Rejected("its last item (4) is selected already".into())
    );
    assert_eq!(state.selected(), Some(4));
    let left = taria::Invocation::new("l", "scroll").with_scroll(ScrollDirection::Left, 2);
    assert!(matches!(
        apply_action(&mut state, 5, Ok(crate::item_index(&left)), &left),
        Outcome::Rejected(_)
    ));
    let mut unselected = ListState::default();
    assert_eq!(
        apply_action(&mut unselected, 5, Ok(crate::item_index(&down)), &down),
        Outcome::Handled
    );
    assert_eq!(unselected.offset(), 2);
    let toggle = taria::Invocation::new("l/1", "toggle").with_index(1);
    assert_eq!(
        apply_action(&mut state, 5, Ok(crate::item_index(&toggle)), &toggle),
        Outcome::NotHandled
    );
}

/// An app whose list items are keyed by name.
struct Names {
    names: Vec<&'static str>,
    state: ListState,
}

impl taria::Actions for Names {
    fn handle_action(&mut self, _: &Invocation<'_>) -> Outcome {
        Outcome::NotHandled
    }
}

fn draw_names(frame: &mut ratatui::Frame<'_>, app: &mut Names) {
    let list = List::new(app.names.clone())
        .id("l")
        .item_keys(app.names.clone());
    frame.render_stateful_widget(list, frame.area(), &mut app.state);
}

#[test]
fn an_agent_selects_a_keyed_item_where_it_is_now() {
    let app = Names {
        names: vec!["a", "b", "c"],
        state: ListState::default(),
    };
    let mut h = taria::testing::AppHarness::new(app, 10, 4, draw_names);
    assert!(h.node("l/c").stable);
    h.app_mut().names = vec!["c", "a", "b"];
    h.act("l/c", "select").unwrap();
    assert_eq!(h.app().state.selected(), Some(0));
    assert!(h.node("l/c").state.selected);
    h.app_mut().names = vec!["a", "b"];
    let error = h.act("l/c", "select").unwrap_err();
    assert_eq!(error.message, "the item `c` is no longer in the list");
    assert_eq!(h.app().state.selected(), Some(0), "unchanged");
}

/// A todo app in ratatui's style: down/up move the selection, space toggles the
/// selected item's done flag (the app's data, which the widget cannot change).
struct Todos {
    items: Vec<(&'static str, bool)>,
    state: ListState,
}

impl taria::Actions for Todos {
    fn handle_action(&mut self, _: &Invocation<'_>) -> Outcome {
        Outcome::NotHandled
    }
}

fn draw_todos(frame: &mut ratatui::Frame<'_>, app: &mut Todos) {
    let list = List::new(app.items.iter().map(|(title, _)| *title))
        .id("todos")
        .checked(app.items.iter().map(|(_, done)| *done))
        .toggle_key("space");
    frame.render_stateful_widget(list, frame.area(), &mut app.state);
}

fn on_todo_key(app: &mut Todos, event: &ratatui::crossterm::event::Event) {
    use ratatui::crossterm::event::{Event, KeyCode};
    let Event::Key(key) = event else { return };
    match key.code {
        KeyCode::Down => app.state.select_next(),
        KeyCode::Up => app.state.select_previous(),
        KeyCode::Char(' ') => {
            if let Some(item) = app.state.selected().and_then(|i| app.items.get_mut(i)) {
                item.1 = !item.1;
            }
        }
        _ => {}
    }
}

/// Issue 14: a todo's items read `" ☐ Pet your cat"` and "done" meant guessing that
/// `activate` toggles. Items given a checked state carry it and offer `toggle`,
/// performed through the app's key: the agent sees the item checked after.
#[test]
fn an_agent_reads_checked_items_and_toggles_one_through_the_key() {
    let app = Todos {
        items: vec![("Buy milk", true), ("Walk dog", false), ("Pet cat", false)],
        state: ListState::default().with_selected(Some(0)),
    };
    let mut h = taria::testing::AppHarness::new(app, 20, 4, draw_todos)
        .on_event(|app, event| on_todo_key(app, &event));
    let outline = h.tree().outline();
    assert!(
        outline.contains(r#"list_item "Buy milk" [id="todos/Buy milk"] [selected] [checked]"#),
        "{outline}"
    );
    assert!(
        outline.contains(r#"list_item "Pet cat" [id="todos/Pet cat"] [unchecked]"#),
        "{outline}"
    );
    assert!(
        h.node("todos/Pet cat")
            .actions
            .iter()
            .any(|a| a.as_str() == "toggle")
    );
    h.act("todos/Pet cat", "toggle").unwrap();
    assert_eq!(
        h.app().items[2],
        ("Pet cat", true),
        "the app's data changed"
    );
    assert_eq!(h.app().items[0], ("Buy milk", true), "and no other item");
    let cat = h.node("todos/Pet cat");
    assert_eq!(cat.state.checked, Some(taria::Checked::True));
    assert!(
        cat.state.selected,
        "as a person's down, down, space leaves it"
    );
}

/// Items beyond the checked states given have none and offer no `toggle`; a list
/// built with recording off keeps no states (nothing collected).
#[test]
fn only_items_given_a_state_carry_one() {
    let mut harness = Harness::new(10, 3);
    let tree = harness.render(|frame| {
        let list = List::new(["a", "b"]).id("l").checked([false]);
        frame.render_stateful_widget(list, frame.area(), &mut ListState::default());
    });
    let a = tree.get("l/a").expect("a");
    assert_eq!(a.state.checked, Some(taria::Checked::False));
    let b = tree.get("l/b").expect("b");
    assert_eq!(b.state.checked, None);
    assert!(!b.actions.iter().any(|a| a.as_str() == "toggle"));
    assert!(List::new(["a"]).checked([true]).checked.is_empty());
}

/// An item off screen: `select` brings it into view; `toggle` needs it on screen
/// (its key fallback moves a selection the agent cannot see), so it says to select
/// it first; then the toggle goes through the key.
#[test]
fn an_agent_selects_an_item_off_screen_then_toggles_it() {
    let app = Todos {
        items: (0..40).map(|_| ("todo", false)).collect(),
        state: ListState::default().with_selected(Some(0)),
    };
    let mut h = taria::testing::AppHarness::new(app, 20, 4, draw_todos)
        .on_event(|app, event| on_todo_key(app, &event));
    assert!(h.tree().get("todos/30").is_none());
    let error = h.act("todos/30", "toggle").unwrap_err();
    assert!(error.message.contains("select it first"), "{error:?}");
    assert!(!h.app().items[30].1, "unchanged");
    h.act("todos/30", "select").unwrap();
    assert_eq!(h.app().state.selected(), Some(30));
    assert!(h.node("todos/30").state.selected);
    h.act("todos/30", "toggle").unwrap();
    assert!(h.app().items[30].1);
    let error = h.act("todos/40", "select").unwrap_err();
    assert_eq!(
        error.reason,
        taria_schema::protocol::RejectReason::UnknownNode,
        "{error:?}"
    );
}

#[test]
fn an_agent_selects_an_item_whose_key_holds_a_slash() {
    let app = Names {
        names: vec!["docs/a.md", "50%", "b"],
        state: ListState::default(),
    };
    let mut h = taria::testing::AppHarness::new(app, 12, 4, draw_names);
    // One segment each: the key's `/` and `%` are escaped in the id.
    assert!(h.node("l/docs%2Fa.md").stable);
    h.act("l/50%25", "select").unwrap();
    assert_eq!(h.app().state.selected(), Some(1));
    h.app_mut().names = vec!["b", "docs/a.md"];
    h.act("l/docs%2Fa.md", "select").unwrap();
    assert_eq!(
        h.app().state.selected(),
        Some(1),
        "found by its key where it is now"
    );
}

/// Review of issue 14: an item off screen whose key holds a `/` is named by its escaped
/// id segment (`l/docs%2Fa.md`) and selected, as on screen; it was `unknown_node`.
#[test]
fn an_agent_selects_an_item_off_screen_whose_key_holds_a_slash() {
    let names = vec![
        "a",
        "b",
        "c",
        "d",
        "e",
        "f",
        "g",
        "h",
        "i",
        "j",
        "k",
        "l",
        "m",
        "n",
        "o",
        "docs/a.md",
        "p",
        "50%",
        "q",
        "r",
    ];
    let app = Names {
        names,
        state: ListState::default(),
    };
    let mut h = taria::testing::AppHarness::new(app, 12, 4, draw_names);
    assert!(h.tree().get("l/docs%2Fa.md").is_none(), "starts off screen");
    h.act("l/docs%2Fa.md", "select").unwrap();
    assert_eq!(h.app().state.selected(), Some(15));
    assert!(h.node("l/docs%2Fa.md").state.selected);
    h.act("l/50%25", "select").unwrap();
    assert_eq!(h.app().state.selected(), Some(17));
}

/// Only an action the runtime marks undrawn ([`Invocation::is_undrawn`]) is taken as
/// one on an item off screen: one without an index (a cell, a hand-built invocation)
/// is not guessed to be (its `toggle` is left to the key fallback, not refused).
#[test]
fn only_an_action_marked_undrawn_is_taken_as_off_screen() {
    use crate::semantic::SemanticWidget;
    let list = List::new(["a", "b"]).id("l");
    let mut state = ListState::default();
    let toggle = Invocation::new("l/b", taria::Action::Toggle);
    assert_eq!(list.apply(&mut state, &toggle), Outcome::NotHandled);
    let off_screen = list.apply(&mut state, &toggle.clone().as_undrawn());
    assert!(
        matches!(&off_screen, Outcome::Rejected(why) if why.contains("select it first")),
        "{off_screen:?}"
    );
    let select = Invocation::new("l/b", taria::Action::Select).as_undrawn();
    assert_eq!(list.apply(&mut state, &select), Outcome::Handled);
    assert_eq!(state.selected(), Some(1));
}

/// Issue 21.5: an item is named by its words, not the mark of its state, so toggling it
/// keeps its id (and the bridge has no positional token to find stale); a repeated or
/// wordless item is named by its index; keys given win; and an agent's select by such
/// an id lands on the item, on screen or off.
#[test]
fn an_item_keeps_its_id_when_its_state_mark_changes() {
    let record = |items: &[&str], keys: Option<&[&str]>| {
        let mut harness = Harness::new(20, 3);
        harness.render(|frame| {
            let mut list = List::new(items.iter().copied()).id("l");
            if let Some(keys) = keys {
                list = list.item_keys(keys.iter().copied());
            }
            frame.render_stateful_widget(list, frame.area(), &mut ListState::default());
        })
    };
    let ids = |tree: &taria::Tree| -> Vec<(String, bool)> {
        tree.get("l")
            .unwrap()
            .children
            .iter()
            .map(|n| (n.id.to_string(), n.stable))
            .collect()
    };
    let before = record(&[" ☐ Call mum", "[ ] Inbox (3)", "☐ Call mum"], None);
    let after = record(&[" ✓ Call mum", "[x] Inbox (4)", "✓ Call mum"], None);
    let expected = [
        ("l/Call mum".to_owned(), true),
        ("l/Inbox".to_owned(), true),
        ("l/2".to_owned(), false),
    ];
    assert_eq!(ids(&before), expected);
    assert_eq!(ids(&after), expected);
    let keyed = record(&["☐ a", "☐ b"], Some(&["k1", "k2"]));
    assert_eq!(
        ids(&keyed),
        [("l/k1".to_owned(), true), ("l/k2".to_owned(), true)]
    );

    let list = List::new((0..30).map(|i| format!("☐ item {i}"))).id("l");
    let mut state = ListState::default();
    let select = Invocation::new("l/item 20", taria::Action::Select).as_undrawn();
    assert_eq!(list.apply(&mut state, &select), Outcome::Handled);
    assert_eq!(state.selected(), Some(20));
}
