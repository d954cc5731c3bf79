use ratatui::style::Color;
use taria::testing::Harness;

use super::*;
use crate::Block;
use ratatui::widgets::StatefulWidget;
use ratatui::widgets::Widget;
use taria::Role;

thread_local! {
    /// Rows converted into ratatui's (`Row::into_ratatui`) on this thread.
    pub(super) static CONVERTED: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
}

const WIDTHS: [Constraint; 3] = [
    Constraint::Length(4),
    Constraint::Percentage(40),
    Constraint::Min(2),
];

fn row(i: usize) -> [String; 3] {
    [format!("r{i}"), format!("name {i}"), format!("{}", i * 7)]
}

fn ours(n: usize) -> Table<'static> {
    Table::new(
        (0..n).map(|i| {
            let r = Row::new(row(i));
            if i % 3 == 0 {
                r.height(2).bottom_margin(1)
            } else {
                r
            }
        }),
        WIDTHS,
    )
    .header(Row::new(["Id", "Name", "Score"]).bottom_margin(1))
    .footer(Row::new(vec![Cell::new("total").column_span(2)]))
    .block(Block::bordered().title("Scores"))
    .highlight_symbol(">>")
    .row_highlight_style(Color::Red)
    .column_highlight_style(Color::Blue)
    .cell_highlight_style(Color::Green)
    .column_spacing(2)
    .id("t")
}

fn theirs(n: usize) -> ratatui::widgets::Table<'static> {
    use ratatui::widgets::{Cell, Row};
    ratatui::widgets::Table::new(
        (0..n).map(|i| {
            let r = Row::new(row(i));
            if i % 3 == 0 {
                r.height(2).bottom_margin(1)
            } else {
                r
            }
        }),
        WIDTHS,
    )
    .header(Row::new(["Id", "Name", "Score"]).bottom_margin(1))
    .footer(Row::new(vec![Cell::new("total").column_span(2)]))
    .block(ratatui::widgets::Block::bordered().title("Scores"))
    .highlight_symbol(">>")
    .row_highlight_style(Color::Red)
    .column_highlight_style(Color::Blue)
    .cell_highlight_style(Color::Green)
    .column_spacing(2)
}

fn states() -> Vec<TableState> {
    let mut states = vec![];
    for selected in [None, Some(0), Some(5), Some(11), Some(99)] {
        for column in [None, Some(1), Some(7)] {
            for offset in [0, 4, 50] {
                states.push(
                    TableState::default()
                        .with_selected(selected)
                        .with_selected_column(column)
                        .with_offset(offset),
                );
            }
        }
    }
    states
}

#[test]
fn draws_what_ratatui_draws() {
    let area = Rect::new(0, 0, 30, 12);
    for n in [0, 3, 12] {
        for state in states() {
            let (mut a, mut b) = (Buffer::empty(area), Buffer::empty(area));
            let (mut sa, mut sb) = (state, state);
            StatefulWidget::render(ours(n), area, &mut a, &mut sa);
            StatefulWidget::render(theirs(n), area, &mut b, &mut sb);
            assert_eq!(a, b);
            assert_eq!(sa, sb);
        }
    }
    let (mut a, mut b) = (Buffer::empty(area), Buffer::empty(area));
    Widget::render(ours(4), area, &mut a);
    Widget::render(theirs(4), area, &mut b);
    assert_eq!(a, b);
}

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

/// Tables (and rows) built while recording hold readable rows; drawn later with
/// recording off they draw the same.
#[test]
fn rows_built_while_recording_draw_what_ratatui_draws() {
    let area = Rect::new(0, 0, 30, 12);
    let mut recorder = taria::widget::Recorder::new();
    for state in states() {
        let table = recorder.record(|| {
            assert!(taria::widget::is_recording());
            ours(12)
        });
        assert!(matches!(table.rows, Rows::Ours { .. }));
        let (mut a, mut b) = (Buffer::empty(area), Buffer::empty(area));
        let (mut sa, mut sb) = (state, state);
        StatefulWidget::render(table, area, &mut a, &mut sa);
        StatefulWidget::render(theirs(12), area, &mut b, &mut sb);
        assert_eq!(a, b);
        assert_eq!(sa, sb);
    }
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

#[test]
fn a_huge_table_records_only_its_visible_rows() {
    let rows: Vec<Row<'_>> = (0..100_000).map(|i| Row::new([i.to_string()])).collect();
    let mut state = TableState::default().with_selected(Some(77_777));
    let mut harness = Harness::new(20, 40);
    harness.render(|frame| {
        let table = Table::new(rows, [Constraint::Fill(1)]).id("big");
        frame.render_stateful_widget(table, frame.area(), &mut state);
    });
    let tree = harness.tree();
    let table = tree.get("big").expect("table");
    assert_eq!(table.position.count, Some(100_000));
    assert_eq!(table.children.len(), 40);
    assert!(
        tree.get("big/77777")
            .expect("the selected row")
            .state
            .selected
    );
}

/// One row of [`mixed`]: height, top and bottom margin, cells, first cell's span,
/// styled.
type Spec = (u16, u16, u16, usize, u16, bool);

/// `n` rows of every shape: heights 0 to 3, margins, 1 to 4 cells (row 2, and
/// the last row, 6), some spanning two columns, some styled. Deterministic.
fn mixed(n: usize) -> Vec<Spec> {
    let mut seed = 0x2545_f491_u64;
    (0..n)
        .map(|i| {
            seed = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
            let r = |k: u64, m: u64| ((seed >> (16 + 8 * k)) % m) as u16;
            let height = [1, 1, 1, 2, 0, 3][usize::from(r(0, 6))];
            let cells = if i == 2 || i + 1 == n {
                6
            } else {
                1 + usize::from(r(3, 4))
            };
            (
                height,
                r(1, 3) / 2,
                r(2, 5) / 3,
                cells,
                1 + r(4, 4) / 3,
                r(5, 3) == 0,
            )
        })
        .collect()
}

/// Our table (built while recording, so its rows are readable) and ratatui's, of
/// `spec`'s rows, with a header, a footer and a block; five widths or none.
fn pair(
    spec: &[Spec],
    widths: bool,
    spacing: &HighlightSpacing,
) -> (Table<'static>, ratatui::widgets::Table<'static>) {
    let cells = |i: usize, &(_, _, _, n, span, _): &Spec| {
        (0..n).map(move |c| (format!("{i}.{c}"), if c == 0 { span } else { 1 }))
    };
    let widths = if widths {
        vec![
            Constraint::Length(3),
            Constraint::Min(2),
            Constraint::Length(4),
        ]
        .into_iter()
        .chain([Constraint::Percentage(20), Constraint::Fill(1)])
        .collect()
    } else {
        vec![]
    };
    let ours = taria::widget::Recorder::new().record(|| {
        let rows = spec.iter().enumerate().map(|(i, s @ &(h, t, b, ..))| {
            let row = Row::new(
                cells(i, s)
                    .map(|(text, span)| Cell::new(text).column_span(span).style(Color::Cyan)),
            )
            .height(h)
            .top_margin(t)
            .bottom_margin(b);
            if s.5 { row.style(Color::Yellow) } else { row }
        });
        Table::new(rows, widths.clone())
            .header(Row::new(["A", "B", "C"]).bottom_margin(1))
            .footer(Row::new(["sum"]))
            .block(Block::bordered().title("T"))
            .highlight_symbol(">>")
            .highlight_spacing(spacing.clone())
            .row_highlight_style(Color::Red)
            .column_highlight_style(Color::Blue)
            .cell_highlight_style(Color::Green)
            .id("m")
    });
    assert!(matches!(ours.rows, Rows::Ours { .. }));
    let rows = spec.iter().enumerate().map(|(i, s @ &(h, t, b, ..))| {
        use ratatui::widgets::{Cell, Row};
        let row = Row::new(
            cells(i, s).map(|(text, span)| Cell::new(text).column_span(span).style(Color::Cyan)),
        )
        .height(h)
        .top_margin(t)
        .bottom_margin(b);
        if s.5 { row.style(Color::Yellow) } else { row }
    });
    let theirs = ratatui::widgets::Table::new(rows, widths)
        .header(ratatui::widgets::Row::new(["A", "B", "C"]).bottom_margin(1))
        .footer(ratatui::widgets::Row::new(["sum"]))
        .block(ratatui::widgets::Block::bordered().title("T"))
        .highlight_symbol(">>")
        .highlight_spacing(spacing.clone())
        .row_highlight_style(Color::Red)
        .column_highlight_style(Color::Blue)
        .cell_highlight_style(Color::Green);
    (ours, theirs)
}

/// A table built while recording hands ratatui only the rows it draws; whatever
/// the rows' shapes, the area, the selection and the offset, the pixels and the
/// state written back are ratatui's, frame after frame, and the rows recorded
/// start at the offset ratatui scrolled to.
#[test]
fn only_the_rows_on_screen_go_to_ratatui_and_it_draws_the_same() {
    let spacings = [
        HighlightSpacing::Always,
        HighlightSpacing::WhenSelected,
        HighlightSpacing::Never,
    ];
    let mut recorder = taria::widget::Recorder::new();
    // Cases whose recorded rows' start was compared (an area too small for any
    // row records none).
    let mut compared_offsets = 0;
    for n in [1, 6, 40] {
        let spec = mixed(n);
        for (widths, spacing) in [false, true]
            .into_iter()
            .flat_map(|w| spacings.iter().map(move |s| (w, s)))
        {
            for height in 0..=10 {
                let area = Rect::new(0, 0, 30, height);
                let (ours, theirs) = pair(&spec, widths, spacing);
                let (mut a, mut b) = (Buffer::empty(area), Buffer::empty(area));
                Widget::render(ours, area, &mut a);
                Widget::render(theirs, area, &mut b);
                assert_eq!(
                    a, b,
                    "{n} rows, widths {widths}, {spacing:?}, height {height}"
                );
                for selected in [None, Some(0), Some(n / 2), Some(n - 1), Some(n + 3)] {
                    for offset in [0, n / 2, n - 1, n + 5] {
                        for column in [None, Some(1), Some(4), Some(5), Some(9)] {
                            let state = TableState::default()
                                .with_offset(offset)
                                .with_selected(selected)
                                .with_selected_column(column);
                            let (mut so, mut st) = (state, state);
                            for frame in 0..2 {
                                let (ours, theirs) = pair(&spec, widths, spacing);
                                recorder.record(|| {
                                    StatefulWidget::render(ours, area, &mut a, &mut so);
                                });
                                StatefulWidget::render(theirs, area, &mut b, &mut st);
                                let case = format!(
                                    "{n} rows, widths {widths}, {spacing:?}, height {height}, \
                                     {state:?}, frame {frame}"
                                );
                                assert_eq!(a, b, "{case}");
                                assert_eq!(so, st, "{case}");
                                let tree = recorder.tree();
                                let first = tree
                                    .get("m")
                                    .and_then(|t| {
                                        // The first data row (the header row has
                                        // no index).
                                        t.children.iter().find(|c| {
                                            c.role == Role::Row && c.position.index.is_some()
                                        })
                                    })
                                    .and_then(|r| r.position.index);
                                if let Some(first) = first {
                                    assert_eq!(first as usize, st.offset(), "{case}");
                                    compared_offsets += 1;
                                }
                            }
                        }
                    }
                }
            }
        }
    }
    assert!(
        compared_offsets > 1_000,
        "only {compared_offsets} cases compared"
    );
}

/// The two ways of handing ratatui fewer rows that the test above must reach:
/// an empty row going first (the rows on screen have fewer columns than the
/// table), and rows from `min(offset, selected)` (ratatui scrolls past a selected
/// row taller than the rows area).
#[test]
fn windows_reach_the_padded_and_the_scrolled_past_cases() {
    let spec = mixed(40);
    let (table, _) = pair(&spec, false, &HighlightSpacing::WhenSelected);
    let Rows::Ours { rows, .. } = &table.rows else {
        panic!("rows built while recording");
    };
    // Rows 2 and 39 have 6 cells; rows 10.. on screen have fewer.
    let area = Rect::new(0, 0, 28, 6);
    let state = TableState::default().with_offset(10);
    let window = table.window(rows, area, &state);
    assert_eq!((window.first, window.pad), (10, Some(6)));
    assert_eq!(window.state.offset(), 1);
    // Three lines of rows area (8 less a block, a header with its margin and a
    // footer) and a selected row, below them, whose height and margins exceed it.
    let tall = Rect::new(0, 0, 28, 8);
    let tall_row = (5..40).find(|&i| {
        let (h, t, b, ..) = spec[i];
        h + t + b > 3
    });
    let selected = tall_row.expect("a row taller than three lines");
    let state = TableState::default().with_selected(Some(selected));
    let window = table.window(rows, tall, &state);
    assert!(window.first <= selected, "{window:?}");
    assert!(window.drawn.selected() == Some(selected));
}

/// A recorded frame of a table built while recording converts the rows ratatui
/// draws (and the header), however many rows the table has.
#[test]
fn a_recorded_frame_converts_only_the_rows_on_screen() {
    let area = Rect::new(0, 0, 30, 41);
    let frames = |len: usize, column: Option<usize>| {
        let mut recorder = taria::widget::Recorder::new();
        let mut state = TableState::default()
            .with_selected(Some(len / 2))
            .with_selected_column(column);
        let mut buf = Buffer::empty(area);
        let mut converted = vec![];
        for frame in 0..3 {
            let table = recorder.record(|| {
                let rows = (0..len).map(|i| {
                    let row = Row::new(["a", "b", "c", "d"].into_iter().take(1 + i % 3));
                    if i % 5 == 0 { row.height(2) } else { row }
                });
                Table::new(rows, [Constraint::Length(4); 4])
                    .header(Row::new(["Id"]))
                    .id("big")
            });
            CONVERTED.with(|n| n.set(0));
            recorder.record(|| StatefulWidget::render(table, area, &mut buf, &mut state));
            converted.push(CONVERTED.with(std::cell::Cell::get));
            let tree = recorder.tree();
            let rows = &tree.get("big").expect("table").children[1..];
            assert_eq!(rows.len(), converted[frame] - 1);
            assert!(rows.iter().all(|r| r.role == Role::Row));
            state.scroll_down_by(25);
        }
        converted
    };
    for column in [None, Some(3)] {
        let small = frames(1_000, column);
        assert_eq!(frames(100_000, column), small);
        // About 40 rows on screen, a sixth of them two lines high.
        assert!(small.iter().all(|&n| (30..=42).contains(&n)), "{small:?}");
    }
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
        taria::wire::protocol::RejectReason::UnknownNode,
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
        taria::wire::protocol::RejectReason::UnknownNode,
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
            taria::wire::protocol::RejectReason::UnknownNode,
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
