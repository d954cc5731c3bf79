//! What a table records: its rows as ratatui shows them, named by key or index, its
//! cells with their column and text, a row's label, and what a table built while
//! nothing records knows.

use taria::Role;
use taria::testing::Harness;

use super::*;

#[test]
fn records_the_rows_ratatui_shows() {
    let area = Rect::new(0, 0, 30, 12);
    for state in states() {
        let mut drawn = state;
        let mut harness = Harness::new(area.width, area.height);
        let tree = harness.render(|frame| {
            frame.render_stateful_widget(ours(12), area, &mut drawn);
        });
        let table = tree.get("t").expect("the table");
        assert_eq!(table.label.as_deref(), Some("Scores"));
        let scroll = table.scroll.expect("scroll");
        assert_eq!(scroll.offset as usize, drawn.offset(), "{state:?}");
        let rows: Vec<_> = table
            .children
            .iter()
            .filter(|c| c.role == Role::Row && c.position.index.is_some())
            .collect();
        assert_eq!(rows.len(), scroll.viewport as usize);
        assert_eq!(rows[0].position.index, Some(scroll.offset));
        for row in &rows {
            let i = row.position.index.expect("index") as usize;
            assert_eq!(row.state.selected, drawn.selected() == Some(i));
            assert_eq!(row.label.as_deref(), Some(format!("r{i}").as_str()));
            assert!(harness.screen_text()[row.bounds.y as usize].contains(&format!("r{i}")));
        }
    }
}

#[test]
fn a_row_with_a_key_is_named_by_it_and_stable_one_without_by_its_index() {
    let mut harness = Harness::new(20, 4);
    let tree = harness.render(|frame| {
        let rows = [
            Row::new(["init", "1"]).key("pid-1"),
            Row::new(["sshd", "812"]),
        ];
        let table = Table::new(rows, [Constraint::Length(6); 2]).id("procs");
        frame.render_stateful_widget(table, frame.area(), &mut TableState::default());
    });
    let keyed = tree.get("procs/pid-1").expect("the keyed row");
    assert!(keyed.stable);
    assert_eq!(keyed.position.index, Some(0));
    let positional = tree.get("procs/1").expect("the row named by its index");
    assert!(!positional.stable);
    assert_eq!(positional.label.as_deref(), Some("sshd"));
    // Without a column selection, cells are inert parts of their row.
    assert!(positional.children.iter().all(|c| c.actions.is_empty()));
    assert!(tree.outline().contains("- row [id=procs/1 positional]"));
}

#[test]
fn cells_carry_their_column_and_text() {
    let mut state = TableState::default().with_selected_cell((1, 1));
    let mut harness = Harness::new(30, 12);
    let tree = harness.render(|frame| {
        frame.render_stateful_widget(ours(3), frame.area(), &mut state);
    });
    let cell = tree.get("t/1/1").expect("row 1, column 1");
    assert_eq!(cell.role, Role::Cell);
    assert_eq!(cell.label.as_deref(), Some("Name"));
    assert_eq!(cell.value, Some(taria::Value::Text("name 1".into())));
    assert!(cell.state.selected);
    assert!(!tree.get("t/1/0").expect("cell").state.selected);
    let names: Vec<_> = tree
        .get("t/header")
        .expect("header")
        .children
        .iter()
        .map(|h| h.label.clone().unwrap_or_default())
        .collect();
    assert_eq!(names, ["Id", "Name", "Score"]);
    let row: String = harness.screen_text()[cell.bounds.y as usize]
        .chars()
        .skip(cell.bounds.x as usize)
        .take(6)
        .collect();
    assert_eq!(row, "name 1");
}

/// A cell padded to its row's height with blank lines (ratatui's table example draws
/// `"\n{name}\n"` in 4-line rows) has what it says as its value, so its row is one
/// outline line named by that first cell.
#[test]
fn a_cell_s_padding_lines_are_not_part_of_its_value() {
    let mut harness = Harness::new(40, 6);
    let tree = harness.render(|frame| {
        let rows = [Row::new([
            Text::from("\nAda Lindqvist\n"),
            Text::from("\n45 Harbour Lane\nNagoya 1185\n"),
        ])
        .height(4)];
        let table = Table::new(rows, [Constraint::Length(14), Constraint::Min(10)]).id("people");
        frame.render_stateful_widget(table, frame.area(), &mut TableState::default());
    });
    let cell = tree.get("people/0/1").expect("row 0, column 1");
    assert_eq!(
        cell.value,
        Some(taria::Value::Text("45 Harbour Lane\nNagoya 1185".into()))
    );
    let row = tree.outline().lines().nth(1).unwrap_or_default().to_owned();
    assert_eq!(
        row,
        "  - row [id=people/0 positional] {select}: \"Ada Lindqvist\" | \"45 Harbour Lane\\nNagoya 1185\"",
        "{}",
        tree.outline()
    );
}

/// A table built with recording off and drawn in a recorded frame records what it
/// still knows: the rows on screen (no labels, no cells) when all rows share a
/// height, else the table alone.
#[test]
fn a_table_built_unrecorded_records_what_it_knows() {
    let uniform = Table::new((0..30).map(|i| Row::new(row(i))), WIDTHS)
        .header(Row::new(["Id", "Name", "Score"]))
        .id("u");
    assert!(matches!(uniform.rows, Rows::Theirs { shape: Some(_), .. }));
    let mixed = ours(30);
    assert!(matches!(mixed.rows, Rows::Theirs { shape: None, .. }));
    let mut state = TableState::default().with_selected(Some(20));
    let mut harness = Harness::new(30, 12);
    let tree = harness.render(|frame| {
        frame.render_stateful_widget(uniform, frame.area(), &mut state);
    });
    let table = tree.get("u").expect("table");
    assert_eq!(table.position.count, Some(30));
    let scroll = table.scroll.expect("scroll");
    assert_eq!(scroll.offset as usize, state.offset());
    let rows: Vec<_> = table
        .children
        .iter()
        .filter(|c| c.role == Role::Row && c.position.index.is_some())
        .collect();
    assert_eq!(rows.len(), scroll.viewport as usize);
    assert!(tree.get("u/20").expect("the selected row").state.selected);
    assert!(
        rows.iter()
            .all(|r| r.label.is_none() && r.children.is_empty())
    );
    assert_eq!(tree.get("u/header/1").expect("heading").label, None);
    let mut state = TableState::default();
    let tree = harness.render(|frame| {
        frame.render_stateful_widget(mixed, frame.area(), &mut state);
    });
    let table = tree.get("t").expect("table");
    assert_eq!(table.position.count, Some(30));
    assert_eq!(table.label.as_deref(), Some("Scores"));
    assert!(table.scroll.is_none());
    let ids: Vec<&str> = table.children.iter().map(|c| c.id.as_str()).collect();
    assert_eq!(ids, ["t/header"], "the header row, and no rows");
}

/// A row is named by its first text: a first cell that starts with a blank line, or is
/// empty, does not label it "" (issue 14: rows read `row ""` in a ported app).
#[test]
fn a_row_is_labelled_by_its_first_text() {
    let mut harness = Harness::new(30, 5);
    // Built while recording, as an app builds it in its draw closure.
    let tree = harness.render(|frame| {
        let rows = vec![
            Row::new(vec![Cell::from("\nAda"), Cell::from("36")]).key("ada"),
            Row::new(vec![Cell::from(""), Cell::from("Bob")]).key("bob"),
            Row::new(vec![Cell::from("Cy"), Cell::from("7")]).key("cy"),
        ];
        let table = Table::new(rows, WIDTHS).id("people");
        frame.render_stateful_widget(table, frame.area(), &mut TableState::default());
    });
    let label = |id: &str| tree.get(id).and_then(|n| n.label.clone());
    assert_eq!(label("people/ada").as_deref(), Some("Ada"));
    assert_eq!(label("people/bob").as_deref(), Some("Bob"));
    assert_eq!(label("people/cy").as_deref(), Some("Cy"));
}

/// Issue 20: `Table::new` took its column spacing from a derived `Default` (0) while
/// ratatui's table draws with 1, so every cell after the first was recorded one
/// column left of where it is drawn, per column.
#[test]
fn a_table_records_its_cells_where_ratatui_s_default_spacing_draws_them() {
    let mut harness = Harness::new(20, 2);
    let tree = harness.render(|frame| {
        let table = Table::new([Row::new(["ab", "cd", "ef"])], [Constraint::Length(2); 3]).id("t");
        frame.render_stateful_widget(table, frame.area(), &mut TableState::default());
    });
    assert_eq!(harness.screen_text()[0].trim_end(), "ab cd ef");
    let xs: Vec<u16> = (0..3)
        .map(|i| tree.get(&format!("t/0/{i}")).unwrap().bounds.x)
        .collect();
    assert_eq!(xs, [0, 3, 6]);
}
