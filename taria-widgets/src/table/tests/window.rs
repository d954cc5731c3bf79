//! The rows on screen, ratatui's private algorithm mirrored: only those go to
//! ratatui and are recorded, and the buffer is the same, whatever the heights, margins,
//! offset and selection.

use ratatui::style::Color;
use ratatui::widgets::StatefulWidget;
use ratatui::widgets::Widget;
use taria::Role;
use taria::testing::Harness;

use super::*;
use crate::Block;

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
