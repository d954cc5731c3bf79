//! An agent's actions on rows off screen: selected into view, named by key (a `/`
//! in it escaped) or by index as written, the app's handler first; an id no row has
//! says what the table shows.

use ratatui::style::Color;

use super::*;

/// An app with a table of 100 people, keyed by name (`keyed`) or by position.
struct People {
    keyed: bool,
    state: TableState,
}

impl taria::Actions for People {
    fn handle_action(&mut self, _: &Invocation<'_>) -> Outcome {
        Outcome::NotHandled
    }
}

fn draw_people(frame: &mut ratatui::Frame<'_>, app: &mut People) {
    let keyed = app.keyed;
    let rows = (0..100).map(|i| {
        let row = Row::new([format!("person {i}"), format!("{}", 20 + i % 50)]);
        if keyed { row.key(format!("p{i}")) } else { row }
    });
    let table = Table::new(rows, [Constraint::Length(10), Constraint::Length(4)])
        .header(Row::new(["Name", "Age"]))
        .id("people");
    frame.render_stateful_widget(table, frame.area(), &mut app.state);
}

/// Issue 14: rows off screen were absent, so `select people/19` was `not_found`
/// until the agent scrolled. The action is held for the table, which finds the row
/// among all its rows and selects it; ratatui scrolls it into view.
#[test]
fn an_agent_selects_a_row_off_screen_and_it_comes_into_view() {
    for keyed in [true, false] {
        let app = People {
            keyed,
            state: TableState::default(),
        };
        let mut h = taria::testing::AppHarness::new(app, 20, 8, draw_people);
        let (row, id) = if keyed {
            (77, "people/p77")
        } else {
            (64, "people/64")
        };
        assert!(h.tree().get(id).is_none(), "{id} starts off screen");
        h.act(id, "select").unwrap();
        assert_eq!(h.app().state.selected(), Some(row));
        let node = h.node(id);
        assert!(node.state.selected);
        assert_eq!(
            node.label.as_deref(),
            Some(format!("person {row}").as_str())
        );
        assert!(
            h.screen().contains(&format!("person {row}")),
            "{}",
            h.screen()
        );
    }
}

/// An id no row has, on screen or off, is `unknown_node`, saying what the table
/// shows; other actions on a row off screen are refused, saying to select it first
/// (on screen it may offer more than `select`, as a list's items do);
/// with a column selection, a cell off screen is selected too.
#[test]
fn an_id_no_row_has_is_not_found_and_says_what_the_table_shows() {
    let app = People {
        keyed: true,
        state: TableState::default(),
    };
    let mut h = taria::testing::AppHarness::new(app, 20, 8, draw_people);
    let error = h.act("people/p100", "select").unwrap_err();
    assert_eq!(
        error.reason,
        taria_schema::protocol::RejectReason::UnknownNode,
        "{error:?}"
    );
    assert!(
        error
            .message
            .contains("`people` shows items 0-6 of its 100"),
        "{}",
        error.message
    );
    assert_eq!(h.app().state.selected(), None, "unchanged");
    // Positional ids do not name keyed rows.
    let error = h.act("people/50", "select").unwrap_err();
    assert_eq!(
        error.reason,
        taria_schema::protocol::RejectReason::UnknownNode,
        "{error:?}"
    );
    let error = h.act("people/p50", "toggle").unwrap_err();
    assert_eq!(
        error.message,
        "`people/p50` is off screen: select it first (the table scrolls to it), then toggle"
    );
    // A cell off screen: not without a column selection, then selected.
    assert!(h.act("people/p50/1", "select").is_err());
    h.app_mut().state.select_column(Some(0));
    h.render();
    h.act("people/p50/1", "select").unwrap();
    assert_eq!(h.app().state.selected_cell(), Some((50, 1)));
    assert!(h.node("people/p50/1").state.selected);
}

/// A table of 30 rows keyed by name, two of them with a `/` and a `%` in the key, and a
/// column selection (its cells offer `select`).
struct Paths {
    state: TableState,
}

impl taria::Actions for Paths {
    fn handle_action(&mut self, _: &Invocation<'_>) -> Outcome {
        Outcome::NotHandled
    }
}

fn path_key(i: usize) -> String {
    match i {
        0 => "a/b".into(),
        20 => "docs/c.md".into(),
        25 => "50%".into(),
        i => format!("f{i}"),
    }
}

fn draw_paths(frame: &mut ratatui::Frame<'_>, app: &mut Paths) {
    let rows = (0..30).map(|i| Row::new([path_key(i), format!("{i}")]).key(path_key(i)));
    let table = Table::new(rows, [Constraint::Length(10), Constraint::Length(4)])
        .cell_highlight_style(Color::Green)
        .id("t");
    frame.render_stateful_widget(table, frame.area(), &mut app.state);
}

/// Review of issue 14: a row whose key holds `/` or `%` is one id segment
/// (`t/docs%2Fc.md`): off screen it is selected (was `unknown_node`), and a cell of
/// such a row on screen is selected (was "the row `a%2Fb` is no longer in the table").
#[test]
fn rows_and_cells_whose_key_holds_a_slash_are_selected_on_and_off_screen() {
    let app = Paths {
        state: TableState::default(),
    };
    let mut h = taria::testing::AppHarness::new(app, 20, 5, draw_paths);
    assert!(h.tree().get("t/a%2Fb/1").is_some(), "on screen");
    h.act("t/a%2Fb/1", "select").unwrap();
    assert_eq!(h.app().state.selected_cell(), Some((0, 1)));
    assert!(h.tree().get("t/docs%2Fc.md").is_none(), "starts off screen");
    h.act("t/docs%2Fc.md", "select").unwrap();
    assert_eq!(h.app().state.selected(), Some(20));
    assert!(h.node("t/docs%2Fc.md").state.selected);
    h.act("t/50%25/1", "select").unwrap();
    assert_eq!(h.app().state.selected_cell(), Some((25, 1)));
}

/// A row's index is written as its id writes it: `t/+1/0` and `t/01/0` name no row
/// (`+1` parsed as row 1 before), and such an id off screen is `unknown_node` (it was
/// refused as a row "no longer in the table").
#[test]
fn a_cell_id_names_a_row_by_its_index_only_as_written() {
    let app = People {
        keyed: false,
        state: TableState::default().with_selected_cell((0, 0)),
    };
    let mut h = taria::testing::AppHarness::new(app, 20, 8, draw_people);
    for id in ["people/+1/0", "people/01/0", "people/1/+0"] {
        let error = h.act(id, "select").unwrap_err();
        assert_eq!(
            error.reason,
            taria_schema::protocol::RejectReason::UnknownNode,
            "{id}: {error:?}"
        );
        assert_eq!(h.app().state.selected_cell(), Some((0, 0)), "{id}");
    }
    h.act("people/1/1", "select").unwrap();
    assert_eq!(h.app().state.selected_cell(), Some((1, 1)));
}

/// A table app with its own `select` handler for rows, taking the row's key.
struct Picks {
    state: TableState,
    picked: Vec<String>,
}

#[taria::actions]
impl Picks {
    #[action(node = "people/*", select)]
    fn pick(&mut self, key: String) {
        self.picked.push(key);
    }
}

fn draw_picks(frame: &mut ratatui::Frame<'_>, app: &mut Picks) {
    let rows = (0..100).map(|i| Row::new([format!("person {i}")]).key(format!("p{i}")));
    let table = Table::new(rows, [Constraint::Length(10)]).id("people");
    frame.render_stateful_widget(table, frame.area(), &mut app.state);
}

/// Review of issue 14: an app's handler for `people/*` saw an agent's `select` on a
/// row on screen but not off screen (that went straight into `TableState`): now the
/// handler comes first for both, with the id as the agent sent it.
#[test]
fn the_app_s_handler_takes_a_select_on_a_row_off_screen_as_on_screen() {
    let app = Picks {
        state: TableState::default(),
        picked: Vec::new(),
    };
    let mut h = taria::testing::AppHarness::new(app, 20, 5, draw_picks);
    h.act("people/p1", "select").unwrap();
    assert!(h.tree().get("people/p77").is_none(), "starts off screen");
    h.act("people/p77", "select").unwrap();
    assert_eq!(h.app().picked, ["p1", "p77"]);
    assert_eq!(h.app().state.selected(), None, "the handler took both");
}

/// A table app whose `select` handler takes the row's index, which only a row drawn
/// has.
struct PicksByIndex {
    state: TableState,
    picked: Vec<usize>,
}

#[taria::actions]
impl PicksByIndex {
    #[action(node = "people/*", select)]
    fn pick(&mut self, index: usize) {
        self.picked.push(index);
    }
}

/// A handler that needs the index is passed over for a row off screen (it has none)
/// and the table's widget selects the row, instead of refusing "has no index".
#[test]
fn a_handler_taking_the_index_leaves_a_row_off_screen_to_the_widget() {
    let app = PicksByIndex {
        state: TableState::default(),
        picked: Vec::new(),
    };
    let mut h = taria::testing::AppHarness::new(app, 20, 5, |frame, app: &mut PicksByIndex| {
        let rows = (0..100).map(|i| Row::new([format!("person {i}")]).key(format!("p{i}")));
        let table = Table::new(rows, [Constraint::Length(10)]).id("people");
        frame.render_stateful_widget(table, frame.area(), &mut app.state);
    });
    h.act("people/p2", "select").unwrap();
    assert_eq!(h.app().picked, [2]);
    h.act("people/p77", "select").unwrap();
    assert_eq!(h.app().picked, [2], "no index: passed over");
    assert_eq!(h.app().state.selected(), Some(77), "the widget took it");
}
