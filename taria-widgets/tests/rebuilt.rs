//! Issue 20: an app that rebuilds a widget's state each frame
//! (`TableState::default().with_selected(app.row)` in its draw) undoes what the
//! widget takes for an agent. The agent hears that, not "delivered"; the widget then
//! stops offering what does not stick; the documented handler makes it work.

use ratatui::Frame;
use ratatui::layout::Constraint;
use taria::testing::AppHarness;
use taria::wire::{AckStatus, RejectReason};
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
    let offered: Vec<&str> = node.actions.iter().map(taria::ActionName::as_str).collect();
    assert_eq!(offered, ["select", "scroll"]);
}
