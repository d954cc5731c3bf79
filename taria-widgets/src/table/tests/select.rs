//! An agent's actions on rows and cells on screen: a keyed row where it is now,
//! `select` and `scroll` into the state, cells where the table selects columns.

use ratatui::style::Color;

use super::*;

/// An app whose table rows are keyed by name, for the agent's `select`.
struct Names {
    names: Vec<&'static str>,
    state: TableState,
}

impl taria::Actions for Names {
    fn handle_action(&mut self, _: &Invocation<'_>) -> Outcome {
        Outcome::NotHandled
    }
}

fn draw_names(frame: &mut ratatui::Frame<'_>, app: &mut Names) {
    let rows = app.names.iter().map(|n| Row::new([*n]).key(*n));
    let table = Table::new(rows, [Constraint::Length(6)]).id("t");
    frame.render_stateful_widget(table, frame.area(), &mut app.state);
}

#[test]
fn an_agent_selects_a_keyed_row_where_it_is_now_not_where_it_was() {
    let app = Names {
        names: vec!["a", "b", "c"],
        state: TableState::default(),
    };
    let mut h = taria::testing::AppHarness::new(app, 10, 4, draw_names);
    // The data reorders after the agent read the tree: `c` moves from 2 to 1.
    h.app_mut().names = vec!["b", "c", "a"];
    h.act("t/c", "select").unwrap();
    assert_eq!(h.app().state.selected(), Some(1));
    assert!(h.node("t/c").state.selected);
    // A keyed row that is gone is refused, not mistaken for what is there now.
    h.app_mut().names = vec!["b", "a"];
    let gone = h.act("t/a", "select");
    assert!(gone.is_ok(), "`a` is still there, at 1: {gone:?}");
    assert_eq!(h.app().state.selected(), Some(1));
    h.app_mut().names = vec!["b", "c"];
    let error = h.act("t/a", "select").unwrap_err();
    assert_eq!(error.message, "the row `a` is no longer in the table");
    assert_eq!(h.app().state.selected(), Some(1), "unchanged");
}

#[test]
fn select_and_scroll_change_the_state() {
    let mut state = TableState::default();
    let row = Invocation::new("t/3", "select").with_index(3);
    assert_eq!(
        apply_action(&mut state, 5, Ok(crate::item_index(&row)), &row),
        Outcome::Handled
    );
    assert_eq!(state.selected(), Some(3));
    // A keyed row is found by its index, whatever its key says.
    let keyed = Invocation::new("t/18877", "select").with_index(1);
    assert_eq!(
        apply_action(&mut state, 5, Ok(crate::item_index(&keyed)), &keyed),
        Outcome::Handled
    );
    assert_eq!(state.selected(), Some(1));
    // The table itself takes a row number as the value.
    let two = taria::Value::Number(2.0);
    let by_value = Invocation::new("t", "select").with_value(&two);
    assert_eq!(
        apply_action(&mut state, 5, Ok(crate::item_index(&by_value)), &by_value),
        Outcome::Handled
    );
    assert_eq!(state.selected(), Some(2));
    let bad = Invocation::new("t/9", "select").with_index(9);
    assert!(matches!(
        apply_action(&mut state, 5, Ok(crate::item_index(&bad)), &bad),
        Outcome::Rejected(_)
    ));
    let nothing = Invocation::new("t", "select");
    assert!(matches!(
        apply_action(&mut state, 5, Ok(crate::item_index(&nothing)), &nothing),
        Outcome::Rejected(_)
    ));
    state.select_column(Some(1));
    let right = Invocation::new("t", "scroll").with_scroll(ScrollDirection::Right, 1);
    assert_eq!(
        apply_action(&mut state, 5, Ok(crate::item_index(&right)), &right),
        Outcome::Handled
    );
    assert_eq!(state.selected_column(), Some(2));
    let down = Invocation::new("t", "scroll").with_scroll(ScrollDirection::Down, 2);
    assert_eq!(
        apply_action(&mut state, 5, Ok(crate::item_index(&down)), &down),
        Outcome::Handled
    );
    assert_eq!(state.selected(), Some(4));
}

/// A `scroll` down with the last row selected is refused, and the table keeps taking
/// the agent's actions. It used to select a row past the end, which ratatui's draw
/// took back: taria saw the app's state differ from what the widget set, said the
/// app rebuilds it each frame (untrue: ratatui's table example keeps it in a local)
/// and stopped offering `select` and `scroll` for good.
#[test]
fn a_scroll_past_the_last_row_is_refused_and_the_table_keeps_its_actions() {
    let app = Names {
        names: vec!["a", "b", "c"],
        state: TableState::default().with_selected(Some(1)),
    };
    let mut h = taria::testing::AppHarness::new(app, 10, 5, draw_names);
    h.scroll("t", ScrollDirection::Down, 1).unwrap();
    assert_eq!(h.app().state.selected(), Some(2));
    let error = h.scroll("t", ScrollDirection::Down, 1).unwrap_err();
    assert_eq!(error.message, "its last row (2) is selected already");
    assert_eq!(h.app().state.selected(), Some(2));
    let offered = |h: &taria::testing::AppHarness<Names>| {
        let node = h.node("t");
        let names: Vec<String> = node.actions.iter().map(ToString::to_string).collect();
        (
            names.contains(&"scroll".to_owned()),
            names.contains(&"select".to_owned()),
        )
    };
    assert_eq!(offered(&h), (true, true));
    h.act("t/a", "select").unwrap();
    assert_eq!(h.app().state.selected(), Some(0));
    assert_eq!(offered(&h), (true, true));
}

/// A spreadsheet-like app: rows keyed by name, a cell selection (ratatui's
/// `TableState::select_cell`) highlighted or not.
struct Sheet {
    highlight: bool,
    state: TableState,
}

impl taria::Actions for Sheet {
    fn handle_action(&mut self, _: &Invocation<'_>) -> Outcome {
        Outcome::NotHandled
    }
}

fn draw_sheet(frame: &mut ratatui::Frame<'_>, app: &mut Sheet) {
    let rows = ["ann", "bob", "cyd"].map(|name| {
        Row::new(vec![
            Cell::new(name),
            Cell::new("x").column_span(2),
            Cell::new("y"),
        ])
        .key(name)
    });
    let mut table = Table::new(rows, [Constraint::Length(4); 4])
        .header(Row::new(["Name", "A", "B", "C"]))
        .id("t");
    if app.highlight {
        table = table.cell_highlight_style(Color::Green);
    }
    frame.render_stateful_widget(table, frame.area(), &mut app.state);
}

/// Issue 14: cells were inert (`people/5/2 offers no actions`) although the README
/// promised cell `select`. Where the table has a column selection, each cell offers
/// `select` and the widget applies it (`select_cell`); the cell then shows selected.
#[test]
fn an_agent_selects_a_cell_where_the_table_has_a_column_selection() {
    let app = Sheet {
        highlight: false,
        state: TableState::default().with_selected_cell((0, 0)),
    };
    let mut h = taria::testing::AppHarness::new(app, 20, 5, draw_sheet);
    assert!(
        h.node("t/ann/0")
            .actions
            .iter()
            .any(|a| a.as_str() == "select")
    );
    // The third cell of `bob` starts at column 3 (the second spans two columns).
    h.act("t/bob/2", "select").unwrap();
    assert_eq!(h.app().state.selected_cell(), Some((1, 3)));
    let cell = h.node("t/bob/2");
    assert!(cell.state.selected, "{}", h.tree().outline());
    assert_eq!(cell.label.as_deref(), Some("C"));
    assert!(h.node("t/bob").state.selected);
    assert!(!h.node("t/bob/1").state.selected);
    h.act("t/cyd/1", "select").unwrap();
    assert_eq!(h.app().state.selected_cell(), Some((2, 1)));
    assert!(h.node("t/cyd/1").state.selected);
    // The header's names are not cells to select.
    assert!(h.act("t/header/1", "select").is_err());
}

/// Without a column selection (no column selected, no column or cell highlight) the
/// cells stay inert; a cell highlight style alone makes them selectable.
#[test]
fn cells_offer_select_only_where_the_table_selects_columns() {
    let app = Sheet {
        highlight: false,
        state: TableState::default().with_selected(Some(0)),
    };
    let mut h = taria::testing::AppHarness::new(app, 20, 5, draw_sheet);
    let error = h.act("t/bob/2", "select").unwrap_err();
    assert!(
        error.message.contains("does not offer `select`"),
        "{error:?}"
    );
    assert_eq!(h.app().state.selected(), Some(0), "unchanged");
    h.app_mut().highlight = true;
    h.render();
    h.act("t/bob/2", "select").unwrap();
    assert_eq!(h.app().state.selected_cell(), Some((1, 3)));
}

/// Issue 30: with a whole column selected and no row (a CSV viewer's cursor on a
/// header), every cell of the column said `selected` although the table draws no
/// column highlight. The column's cells are selected only where a column highlight
/// style draws them so.
#[test]
fn a_column_selected_with_no_row_marks_its_cells_only_where_drawn() {
    let selected = |highlight: bool| {
        let mut state = TableState::default().with_selected_column(Some(1));
        let mut harness = taria::testing::Harness::new(20, 5);
        let tree = harness.render(|frame| {
            let rows = ["ann", "bob"].map(|name| Row::new([name, "1"]).key(name));
            let mut table = Table::new(rows, [Constraint::Length(4); 2])
                .header(Row::new(["Name", "N"]))
                .id("t");
            if highlight {
                table = table.column_highlight_style(Color::Green);
            }
            frame.render_stateful_widget(table, frame.area(), &mut state);
        });
        let mut ids: Vec<String> = Vec::new();
        tree.roots.iter().for_each(|r| selected_ids(r, &mut ids));
        ids
    };
    assert_eq!(selected(false), Vec::<String>::new());
    assert_eq!(selected(true), ["t/ann/1", "t/bob/1"]);
}

/// The ids of the nodes marked selected under `node`, in tree order.
fn selected_ids(node: &taria::Node, ids: &mut Vec<String>) {
    if node.state.selected {
        ids.push(node.id.to_string());
    }
    node.children.iter().for_each(|c| selected_ids(c, ids));
}

/// Issue 30: a CSV viewer, its cursor on a header (a column selected, no row), styles
/// that header cell apart from the others; nothing said which column. The header cell
/// styled apart is marked selected; headers drawn alike mark nothing.
#[test]
fn a_column_selected_with_no_row_marks_the_header_the_app_styles_apart() {
    let selected = |styled: bool| {
        let mut state = TableState::default().with_selected_column(Some(1));
        let mut harness = taria::testing::Harness::new(20, 5);
        let tree = harness.render(|frame| {
            let rows = ["ann", "bob"].map(|name| Row::new([name, "1", "x"]).key(name));
            let n = if styled {
                Cell::new("N").style(Style::new().reversed())
            } else {
                Cell::new("N")
            };
            let header = Row::new([Cell::new("Name"), n, Cell::new("X")]);
            let table = Table::new(rows, [Constraint::Length(4); 3])
                .header(header)
                .id("t");
            frame.render_stateful_widget(table, frame.area(), &mut state);
        });
        let mut ids: Vec<String> = Vec::new();
        tree.roots.iter().for_each(|r| selected_ids(r, &mut ids));
        ids
    };
    assert_eq!(selected(true), ["t/header/1"]);
    assert_eq!(selected(false), Vec::<String>::new());
}
