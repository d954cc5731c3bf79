//! Every widget of the conformance table, at random sizes and with random contents:
//! each node the tree gives bounds shows its label or value inside them on the drawn
//! buffer ([`taria::testing::undrawn_text`]); a widget with no area on screen records
//! nothing; a scrollbar's recorded view is the length it is drawn along; a bar chart
//! keeps the text its bars show; a paragraph given a role shows its value, and a
//! popup's block given a dialog role holds the text drawn inside it.

#![expect(clippy::cast_precision_loss, reason = "tests of small numbers")]

use proptest::prelude::*;
use ratatui::Frame;
use ratatui::layout::{Constraint, Rect};
use taria::testing::{Harness, undrawn_text};
use taria::{Role, Tree};
use taria_widgets as w;

/// Short words, a space between, sometimes a wide or accented letter.
fn text() -> impl Strategy<Value = String> {
    proptest::collection::vec("[a-zA-Z]{1,6}|é|日本", 1..4).prop_map(|words| words.join(" "))
}

fn texts(max: usize) -> impl Strategy<Value = Vec<String>> {
    proptest::collection::vec(text(), 1..max)
}

/// The screen, and the area the widget is drawn in: a part of the screen, as a
/// layout gives it: at least 8x4, or empty (ratatui's widgets assume an area inside
/// the buffer, as a layout of `frame.area()` gives).
fn layout() -> impl Strategy<Value = ((u16, u16), Rect)> {
    let size = prop_oneof![Just(0u16), 8u16..40];
    (12u16..60, 4u16..20, 0u16..50, 0u16..20, size.clone(), size).prop_map(
        |(sw, sh, x, y, w, h)| {
            let screen = Rect::new(0, 0, sw, sh);
            // Room for a border and a letter, as a layout leaves it, or none.
            let area = Rect::new(x % sw, y % sh, w, h.min(4 + h % 8)).intersection(screen);
            let area = if area.width < 8 || area.height < 4 {
                Rect::new(area.x, area.y, 0, area.height)
            } else {
                area
            };
            ((sw, sh), area)
        },
    )
}

/// Draws `draw` into `area` of a `size` screen; the tree, checked against the buffer.
fn check(size: (u16, u16), area: Rect, draw: impl FnOnce(&mut Frame<'_>, Rect)) -> Tree {
    let mut harness = Harness::new(size.0, size.1);
    let tree = harness.render(|frame| draw(frame, area));
    let screen = harness.screen_text().join("\n");
    if area.intersection(harness.buffer().area).is_empty() {
        assert!(
            tree.roots.is_empty(),
            "drawn in {area:?}, nothing on screen, yet recorded:\n{}",
            tree.outline()
        );
    }
    let undrawn = undrawn_text(&tree, harness.buffer());
    assert!(
        undrawn.is_empty(),
        "{undrawn:#?}\n{}\nscreen:\n{screen}",
        tree.outline()
    );
    tree
}

fn widths(n: usize, w: u16) -> Vec<Constraint> {
    (0..n)
        .map(|i| Constraint::Length(w + (i as u16 % 3)))
        .collect()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(
        std::env::var("TARIA_FUZZ_CASES").ok().and_then(|n| n.parse().ok()).unwrap_or(128)
    ))]

    #[test]
    fn a_block_shows_its_title((size, area) in layout(), title in text()) {
        check(size, area, |f, a| f.render_widget(w::Block::bordered().title(title.as_str()), a));
    }

    #[test]
    fn a_list_shows_its_items(
        (size, area) in layout(), items in texts(12), selected in 0usize..14,
        id in any::<bool>(), block in any::<bool>(),
    ) {
        check(size, area, |f, a| {
            let mut list = w::List::new(items.iter().map(String::as_str)).highlight_symbol("> ");
            if id {
                list = list.id("l");
            }
            if block {
                list = list.block(w::Block::bordered().title("Items"));
            }
            let mut state = w::ListState::default().with_selected(Some(selected));
            f.render_stateful_widget(list, a, &mut state);
        });
    }

    #[test]
    fn a_table_shows_its_cells(
        (size, area) in layout(), rows in proptest::collection::vec(texts(4), 1..8),
        header in texts(4), width in 2u16..8, selected in 0usize..9, default in any::<bool>(),
    ) {
        check(size, area, |f, a| {
            let columns = rows.iter().map(Vec::len).max().unwrap_or(1);
            let body = rows.iter().map(|r| w::Row::new(r.iter().map(String::as_str)));
            let table = if default {
                w::Table::default().rows(body).widths(widths(columns, width))
            } else {
                w::Table::new(body, widths(columns, width))
            }
            .header(w::Row::new(header.iter().map(String::as_str)))
            .block(w::Block::bordered())
            .id("t");
            let mut state = w::TableState::default().with_selected(Some(selected));
            f.render_stateful_widget(table, a, &mut state);
        });
    }

    #[test]
    fn tabs_show_their_titles((size, area) in layout(), titles in texts(5), selected in 0usize..5) {
        check(size, area, |f, a| {
            f.render_widget(w::Tabs::new(titles.iter().map(String::as_str)).select(selected), a);
        });
    }

    #[test]
    fn a_paragraph_shows_its_text((size, area) in layout(), lines in texts(4), wrap in any::<bool>()) {
        check(size, area, |f, a| {
            let mut p = w::Paragraph::new(lines.join("\n"));
            if wrap {
                p = p.wrap(w::Wrap { trim: true });
            }
            f.render_widget(p, a);
        });
    }

    /// A paragraph given a role (an input line, a status) shows its value where its
    /// bounds are, and a popup's block given a dialog role holds the text drawn in it:
    /// the text, inside the dialog's bounds, is drawn there.
    #[test]
    fn a_paragraph_given_a_role_and_a_dialog_show_their_text(
        (size, area) in layout(), lines in texts(4), title in text(), modal in any::<bool>(),
        role in prop_oneof![Just(Role::TextInput), Just(Role::Status), Just(Role::Log), Just(Role::TextArea), Just(Role::Heading)],
    ) {
        let text = lines.join("\n");
        let first = lines[0].clone();
        check(size, area, |f, a| {
            let p = w::Paragraph::new(text.as_str()).role(role).id("p").value(first.as_str());
            f.render_widget(p, a);
        });
        let tree = check(size, area, |f, a| {
            let block = w::Block::bordered().title(title.as_str()).role(Role::Dialog).modal(modal);
            let inner = block.inner(a);
            f.render_widget(ratatui::widgets::Clear, a);
            f.render_widget(block, a);
            f.render_widget(w::Paragraph::new(text.as_str()), inner);
        });
        if let Some(dialog) = tree.roots.first() {
            prop_assert_eq!(dialog.role, Role::Dialog);
            prop_assert_eq!(tree.roots.len(), 1, "the text is the dialog's: {}", tree.outline());
            let d = dialog.bounds;
            let inside = |b: taria::node::Bounds| {
                b.x >= d.x && b.y >= d.y && b.x + b.width <= d.x + d.width
                    && b.y + b.height <= d.y + d.height
            };
            prop_assert!(dialog.children.iter().all(|c| inside(c.bounds)));
        }
    }

    #[test]
    fn gauges_show_their_labels((size, area) in layout(), label in text(), ratio in 0.0f64..=1.0) {
        check(size, area, |f, a| {
            f.render_widget(w::Gauge::default().ratio(ratio).label(label.as_str()), a);
        });
        check(size, area, |f, a| {
            f.render_widget(w::LineGauge::default().ratio(ratio).label(label.as_str()), a);
        });
    }

    #[test]
    fn a_scrollbar_records_the_track_it_is_drawn_along(
        (size, area) in layout(), content in 0usize..60, position in 0usize..60,
        orientation in 0usize..5,
    ) {
        let orientations = [
            w::ScrollbarOrientation::VerticalRight,
            w::ScrollbarOrientation::VerticalLeft,
            w::ScrollbarOrientation::HorizontalBottom,
            w::ScrollbarOrientation::HorizontalTop,
        ];
        // The last choice is `Scrollbar::default()`: ratatui's default is vertical.
        let vertical = orientation == 4 || orientations[orientation].is_vertical();
        let tree = check(size, area, |f, a| {
            let bar = orientations
                .get(orientation)
                .map_or_else(w::Scrollbar::default, |o| w::Scrollbar::new(o.clone()));
            let mut state = w::ScrollbarState::new(content).position(position);
            f.render_stateful_widget(bar.id("s"), a, &mut state);
        });
        if let Some(node) = tree.get("s") {
            let scroll = node.scroll.unwrap();
            let along = if vertical { node.bounds.height } else { node.bounds.width };
            // Its track: the length less ratatui's default arrows, one cell each.
            let track = u32::from(along).saturating_sub(2);
            prop_assert_eq!(scroll.viewport, track, "{}", tree.outline());
        }
    }

    #[test]
    fn form_controls_show_their_labels(
        (size, area) in layout(), label in text(), value in text(), options in texts(4),
    ) {
        check(size, area, |f, a| {
            let mut state = w::TextInputState::new(value.as_str());
            f.render_stateful_widget(w::TextInput::new().label(label.as_str()).id("i"), a, &mut state);
        });
        check(size, area, |f, a| {
            f.render_stateful_widget(w::Checkbox::new(label.as_str()).id("c"), a, &mut true);
        });
        check(size, area, |f, a| f.render_widget(w::Button::new(label.as_str()).id("b"), a));
        check(size, area, |f, a| {
            let mut state = w::SelectState::default();
            state.select(Some(0));
            let select = w::Select::new(options.iter().map(String::as_str)).label(label.as_str());
            f.render_stateful_widget(select.id("s"), a, &mut state);
        });
        check(size, area, |f, a| {
            let mut state = w::SliderState::new(3.0);
            f.render_stateful_widget(w::Slider::new(0.0, 10.0).label(&label).id("r"), a, &mut state);
        });
    }

    #[test]
    fn charts_have_an_area_and_show_their_titles(
        (size, area) in layout(), title in text(), data in proptest::collection::vec(0u64..100, 0..20),
    ) {
        check(size, area, |f, a| {
            let block = w::Block::bordered().title(title.as_str());
            f.render_widget(w::Sparkline::default().data(data.iter().copied()).block(block), a);
        });
        let points: Vec<(f64, f64)> =
            data.iter().enumerate().map(|(i, &v)| (i as f64, v as f64)).collect();
        check(size, area, |f, a| {
            let chart = w::Chart::new(vec![w::Dataset::default().name("s").data(&points)])
                .block(w::Block::bordered().title(title.as_str()));
            f.render_widget(chart, a);
        });
        check(size, area, |f, a| {
            let canvas = w::Canvas::default()
                .paint(|_| {})
                .block(w::Block::bordered().title(title.as_str()));
            f.render_widget(canvas, a);
        });
    }

    #[test]
    fn a_bar_chart_keeps_the_text_its_bars_show(
        (size, area) in layout(),
        bars in proptest::collection::vec(("[A-Z][a-z]{0,4}", 1u64..100, any::<bool>()), 1..6),
        bar_width in 1u16..7, horizontal in any::<bool>(),
    ) {
        let chart = || {
            let bars: Vec<w::Bar<'_>> = bars
                .iter()
                .map(|(label, value, text)| {
                    let bar = w::Bar::with_label(label.as_str(), *value);
                    if *text { bar.text_value(format!("{value}-{}", value + 30)) } else { bar }
                })
                .collect();
            let chart = w::BarChart::default().data(w::BarGroup::new(bars)).bar_width(bar_width).id("c");
            if horizontal { chart.direction(ratatui::layout::Direction::Horizontal) } else { chart }
        };
        let tree = check(size, area, |f, a| f.render_widget(chart(), a));
        let mut harness = Harness::new(size.0, size.1);
        harness.render(|f| f.render_widget(chart(), area));
        let screen = harness.screen_text().join("\n");
        if let Some(node) = tree.get("c") {
            prop_assert_eq!(node.role, Role::Chart);
            let value = match &node.value { Some(taria::Value::Text(t)) => t.clone(), _ => String::new() };
            for (label, value_, text) in &bars {
                let shown = format!("{value_}-{}", value_ + 30);
                if *text && screen.contains(&shown) {
                    prop_assert!(value.contains(&shown), "{shown} drawn, not in {value:?}");
                }
                prop_assert!(value.contains(&format!("\"{label}\"")), "{label} not in {value:?}");
            }
        }
    }
}

/// Found on ratatui's demo2 recipe: a row of two-line cells cut by the table's bottom
/// recorded both lines while one showed. A cell's value is the lines its row shows.
#[test]
fn a_cell_of_a_row_cut_by_the_table_s_bottom_holds_the_lines_that_show() {
    let tree = check((30, 3), Rect::new(0, 0, 30, 3), |f, a| {
        // Built while the frame is recorded, as in a draw.
        let rows = [
            w::Row::new(["1 cup", "rice"]).height(2),
            w::Row::new(["1", "red bell pepper cut\ninto slivers"]).height(2),
        ];
        let widths = [Constraint::Length(6), Constraint::Length(20)];
        f.render_widget(w::Table::new(rows, widths).id("t"), a);
    });
    let cell = tree
        .iter()
        .filter(|n| n.role == Role::Cell)
        .last()
        .unwrap_or_else(|| panic!("no cells: {}", tree.outline()));
    assert_eq!(
        cell.value.as_ref().map(ToString::to_string).as_deref(),
        Some("red bell pepper cut"),
        "{}",
        tree.outline()
    );
}
