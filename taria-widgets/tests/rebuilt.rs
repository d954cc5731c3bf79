//! Issue 20: an app that rebuilds a widget's state each frame
//! (`TableState::default().with_selected(app.row)` in its draw) undoes what the
//! widget takes for an agent. The agent hears that, not "delivered"; the widget then
//! stops offering what does not stick; the documented handler makes it work.

use ratatui::Frame;
use ratatui::layout::Constraint;
use taria::testing::AppHarness;
use taria_schema::protocol::{AckStatus, RejectReason};
use taria_widgets::{List, ListState, Row, Table, TableState};

/// The state rebuilt in the draw, from the app's own field.
struct Rebuilds {
    row: Option<usize>,
}

impl taria::Actions for Rebuilds {
    fn handle_action(&mut self, _: &taria::Invocation<'_>) -> taria::Outcome {
        taria::Outcome::NotHandled
    }
}

fn draw_table(frame: &mut Frame<'_>, row: Option<usize>) {
    let rows = (0..30).map(|i| Row::new([format!("row {i}")]));
    let table = Table::new(rows, [Constraint::Length(10)]).id("t");
    let mut state = TableState::default().with_selected(row);
    frame.render_stateful_widget(table, frame.area(), &mut state);
}

fn draw_list(frame: &mut Frame<'_>, row: Option<usize>) {
    let list = List::new((0..30).map(|i| format!("item {i}"))).id("l");
    let mut state = ListState::default().with_selected(row);
    frame.render_stateful_widget(list, frame.area(), &mut state);
}

#[test]
fn a_select_the_next_frame_undoes_is_answered_as_undone() {
    for (draw, node, container, first) in [
        (
            draw_table as fn(&mut Frame<'_>, Option<usize>),
            "t/3",
            "t",
            "t/0",
        ),
        (draw_list, "l/item 3", "l", "l/item 0"),
    ] {
        let mut h = AppHarness::new(
            Rebuilds { row: Some(0) },
            20,
            8,
            move |f, app: &mut Rebuilds| {
                draw(f, app.row);
            },
        );
        let error = h.act(node, "select").unwrap_err();
        assert_eq!(
            (error.status, error.reason),
            (AckStatus::Ignored, RejectReason::StateRebuilt),
            "{error:?}"
        );
        assert!(error.message.contains("rebuilds"), "{}", error.message);
        assert!(
            !error.message.contains("select `"),
            "the advice must not be the action refused: {}",
            error.message
        );
        assert!(h.tree().get(first).unwrap().state.selected);
        // From then on the container offers neither select nor scroll (nothing keeps
        // them), and an item's select is left to the app's keys.
        let offered = h.node(container).actions;
        assert!(offered.is_empty(), "{container} still offers {offered:?}");
    }
}

/// The documented route: a handler on the app's own field.
struct Routes {
    row: Option<usize>,
}

#[taria::actions]
impl Routes {
    #[action(node = "t/*", select)]
    fn select_row(&mut self, index: usize) {
        self.row = Some(index);
    }
}

#[test]
fn with_a_select_handler_on_the_app_s_field_a_rebuilt_table_selects() {
    let mut h = AppHarness::new(Routes { row: Some(0) }, 20, 8, |f, app: &mut Routes| {
        draw_table(f, app.row);
    });
    h.act("t/3", "select").unwrap();
    assert_eq!(h.app().row, Some(3));
    assert!(h.tree().get("t/3").unwrap().state.selected);
    h.act("t/5", "select").unwrap();
    assert_eq!(h.app().row, Some(5));
}

/// An app that keeps its state is answered delivered, as before.
struct Keeps {
    state: TableState,
}

impl taria::Actions for Keeps {
    fn handle_action(&mut self, _: &taria::Invocation<'_>) -> taria::Outcome {
        taria::Outcome::NotHandled
    }
}

#[test]
fn a_select_on_a_table_whose_state_the_app_keeps_is_delivered() {
    let mut h = AppHarness::new(
        Keeps {
            state: TableState::default(),
        },
        20,
        8,
        |f, app: &mut Keeps| {
            let rows = (0..30).map(|i| Row::new([format!("row {i}")]));
            let table = Table::new(rows, [Constraint::Length(10)]).id("t");
            f.render_stateful_widget(table, f.area(), &mut app.state);
        },
    );
    h.act("t/3", "select").unwrap();
    h.act("t/20", "select").unwrap();
    assert_eq!(h.app().state.selected(), Some(20));
    h.scroll("t", taria::ScrollDirection::Up, 2).unwrap();
    assert_eq!(h.app().state.selected(), Some(18));
    let node = h.node("t");
    let offered: Vec<&str> = node
        .actions
        .iter()
        .map(taria::node::ActionName::as_str)
        .collect();
    assert_eq!(offered, ["select", "scroll"]);
}

/// Issue 21.4: the same handler takes every `select` and `scroll` an agent makes on a
/// rebuilt table or list: a row off screen, by index or by its words, and a scroll, each
/// resolved by the widget (its rows, its keys, its clamping) before the handler gets
/// the index, so the handler checks no bounds.
struct Routed {
    row: Option<usize>,
    /// What the handler does: set the field the draw reads (`true`), or another.
    sets_the_drawn_field: bool,
    elsewhere: Option<usize>,
}

#[taria::actions]
impl Routed {
    #[action(node = "t/*", select)]
    #[action(node = "l/*", select)]
    fn select_row(&mut self, index: usize) -> Result<(), String> {
        if index == 13 {
            return Err("row 13 is locked".into());
        }
        if self.sets_the_drawn_field {
            self.row = Some(index);
        } else {
            self.elsewhere = Some(index);
        }
        Ok(())
    }
}

fn routed(draw: fn(&mut Frame<'_>, Option<usize>)) -> AppHarness<Routed> {
    let app = Routed {
        row: Some(0),
        sets_the_drawn_field: true,
        elsewhere: None,
    };
    AppHarness::new(app, 20, 8, move |f, app: &mut Routed| draw(f, app.row))
}

#[test]
fn a_rebuilt_table_s_select_and_scroll_reach_the_app_s_field_within_its_rows() {
    let mut h = routed(draw_table);
    assert!(h.tree().get("t/25").is_none(), "off screen");
    h.act("t/25", "select").unwrap();
    assert_eq!(h.app().row, Some(25));
    assert!(h.node("t/25").state.selected, "{}", h.tree().outline());
    // Past the last row: the table has none, nothing reaches the handler.
    let error = h.act("t/40", "select").unwrap_err();
    assert_eq!(error.reason, RejectReason::UnknownNode, "{error:?}");
    assert_eq!(h.app().row, Some(25));
    h.scroll("t", taria::ScrollDirection::Up, 5).unwrap();
    assert_eq!(h.app().row, Some(20));
    h.scroll("t", taria::ScrollDirection::Down, 100).unwrap();
    assert_eq!(h.app().row, Some(29), "clamped to the table's rows");
    assert!(h.node("t/29").state.selected);
    // It keeps offering what now works.
    let table = h.node("t");
    let offered: Vec<&str> = table
        .actions
        .iter()
        .map(taria::node::ActionName::as_str)
        .collect();
    assert_eq!(offered, ["select", "scroll"]);
    // The handler's refusal is the answer.
    let error = h.act("t/13", "select").unwrap_err();
    assert_eq!(error.message, "row 13 is locked");
}

#[test]
fn a_rebuilt_list_s_item_off_screen_reaches_the_app_s_field_by_its_words() {
    let mut h = routed(draw_list);
    h.act("l/item 22", "select").unwrap();
    assert_eq!(h.app().row, Some(22));
    assert!(h.node("l/item 22").state.selected);
}

/// A handler that takes the item but sets another field than the draw reads: the next
/// frame still undoes it, and the agent hears so.
#[test]
fn a_handler_whose_field_the_draw_does_not_read_is_answered_as_undone() {
    let mut h = routed(draw_table);
    h.app_mut().sets_the_drawn_field = false;
    let error = h.act("t/25", "select").unwrap_err();
    assert_eq!(
        (error.status, error.reason),
        (AckStatus::Ignored, RejectReason::StateRebuilt),
        "{error:?}"
    );
    assert!(error.message.contains("did not stick"), "{}", error.message);
    assert_eq!(h.app().elsewhere, Some(25));
}

/// Found on a CSV viewer and a demo: a `scroll` on a rebuilt table with no row
/// selected moves only its view, which no handler keeps; it was answered with advice
/// to add the very `select` handler the app has, and the table stopped taking
/// selections, so a row off screen was then `not_found`. Now the answer says what
/// was undone and what works, and the row off screen still reaches the handler.
#[test]
fn a_scroll_of_a_rebuilt_table_with_nothing_selected_keeps_selections_working() {
    let mut h = routed(draw_table);
    h.app_mut().row = None;
    h.render();
    let error = h.scroll("t", taria::ScrollDirection::Down, 5).unwrap_err();
    assert_eq!(
        (error.status, error.reason),
        (AckStatus::Ignored, RejectReason::StateRebuilt),
        "{error:?}"
    );
    assert!(
        error
            .message
            .contains("with nothing selected a scroll moves only the view"),
        "{}",
        error.message
    );
    assert!(!error.message.contains("#[action"), "{}", error.message);
    h.act("t/25", "select").unwrap();
    assert_eq!(h.app().row, Some(25));
    assert!(h.node("t/25").state.selected);
    // With a row selected, a scroll moves it, through the handler.
    h.scroll("t", taria::ScrollDirection::Up, 5).unwrap();
    assert_eq!(h.app().row, Some(20));
}
