//! Every widget's semantic contract, in one table: its role, the state it must
//! carry, the actions it advertises and its value schema where settable. A widget
//! in `ALL_WIDGETS` without a row here fails the test. Then the forms a widget takes
//! when given the role it plays (`given.rs`), each against ratatui's buffer.

#![expect(clippy::unwrap_used, reason = "tests")]
#![expect(
    clippy::too_many_lines,
    clippy::semicolon_if_nothing_returned,
    reason = "one table of contracts; its draw closures read best as expressions"
)]

use ratatui::Frame;
use ratatui::layout::Constraint;
use taria::testing::Harness;
use taria::{Node, Role};
use taria_widgets as w;

mod given;

struct Contract {
    widget: &'static str,
    /// Draws the widget with id `x` (or its first node is checked).
    draw: fn(&mut Frame<'_>),
    role: Role,
    actions: &'static [&'static str],
    /// What else the node must carry.
    check: fn(&Node),
}

fn draw_stateful<W: ratatui::widgets::StatefulWidget<State: Sized>>(
    frame: &mut Frame<'_>,
    widget: W,
    mut state: W::State,
) {
    frame.render_stateful_widget(widget, frame.area(), &mut state);
}

fn contracts() -> Vec<Contract> {
    vec![
        Contract {
            widget: "Block",
            draw: |f| f.render_widget(w::Block::bordered().title("Box").id("x"), f.area()),
            role: Role::Region,
            actions: &[],
            check: |n| assert_eq!(n.label.as_deref(), Some("Box")),
        },
        Contract {
            widget: "List",
            draw: |f| {
                draw_stateful(
                    f,
                    w::List::new(["a", "b"])
                        .id("x")
                        .checked([true, false])
                        .toggle_key("space"),
                    w::ListState::default().with_selected(Some(1)),
                )
            },
            role: Role::List,
            actions: &["select", "scroll"],
            check: |n| {
                assert_eq!(n.position.count, Some(2));
                assert!(n.scroll.is_some());
                let items: Vec<_> = n.children.iter().collect();
                assert!(items.iter().all(|i| i.role == Role::ListItem
                    && i.label.is_some()
                    && i.position.index.is_some()));
                assert!(items[1].state.selected);
                assert!(items[0].actions.iter().any(|a| a.as_str() == "select"));
                // `List::checked`: the state, and `toggle` by the app's key.
                assert_eq!(items[0].state.checked, Some(taria::Checked::True));
                assert_eq!(items[1].state.checked, Some(taria::Checked::False));
                assert!(items[0].actions.iter().any(|a| a.as_str() == "toggle"));
                assert_eq!(
                    items[0].keys.get("toggle").map(String::as_str),
                    Some("space")
                );
            },
        },
        Contract {
            widget: "Table",
            draw: |f| {
                draw_stateful(
                    f,
                    w::Table::new([w::Row::new(["1", "2"])], [Constraint::Length(3); 2])
                        .header(w::Row::new(["A", "B"]))
                        .id("x"),
                    w::TableState::default().with_selected_cell((0, 1)),
                )
            },
            role: Role::Table,
            actions: &["select", "scroll"],
            check: |n| {
                assert_eq!(n.position.count, Some(1));
                assert!(n.scroll.is_some());
                let header = &n.children[0];
                assert_eq!((header.role, header.id.as_str()), (Role::Row, "x/header"));
                assert_eq!(header.children[0].role, Role::ColumnHeader);
                let row = &n.children[1];
                assert_eq!(row.role, Role::Row);
                assert!(row.state.selected);
                assert!(!row.stable, "a row without a key is named by its position");
                assert_eq!(row.children[1].role, Role::Cell);
                assert_eq!(row.children[1].label.as_deref(), Some("B"));
                assert!(row.children[1].value.is_some());
                // A column is selected: the cells offer `select`, the selected one shows it.
                assert!(row.children[1].state.selected);
                assert!(!row.children[0].state.selected);
                assert!(
                    row.children[0]
                        .actions
                        .iter()
                        .any(|a| a.as_str() == "select")
                );
            },
        },
        Contract {
            widget: "Tabs",
            draw: |f| draw_stateful(f, w::Tabs::new(["a", "b"]).id("x"), Some(1)),
            role: Role::Tabs,
            actions: &["select"],
            check: |n| {
                assert!(
                    n.children
                        .iter()
                        .all(|t| t.role == Role::Tab && t.label.is_some())
                );
                assert!(n.children[1].state.selected);
            },
        },
        Contract {
            widget: "Paragraph",
            draw: |f| f.render_widget(w::Paragraph::new("hello\nworld").id("x"), f.area()),
            role: Role::Text,
            actions: &[],
            check: |n| {
                assert_eq!(n.label.as_deref(), Some("hello"));
                assert_eq!(n.value, Some(taria::Value::Text("hello\nworld".into())));
            },
        },
        Contract {
            widget: "Gauge",
            draw: |f| {
                f.render_widget(
                    w::Gauge::default().ratio(0.5).label("Load").id("x"),
                    f.area(),
                )
            },
            role: Role::Progress,
            actions: &[],
            check: |n| {
                assert_eq!(n.value, Some(taria::Value::Number(0.5)));
                assert_eq!(n.label.as_deref(), Some("Load"));
            },
        },
        Contract {
            widget: "LineGauge",
            draw: |f| {
                f.render_widget(
                    w::LineGauge::default().ratio(0.5).label("Load").id("x"),
                    f.area(),
                )
            },
            role: Role::Progress,
            actions: &[],
            check: |n| assert_eq!(n.value, Some(taria::Value::Number(0.5))),
        },
        Contract {
            widget: "Scrollbar",
            draw: |f| {
                draw_stateful(
                    f,
                    w::Scrollbar::new(w::ScrollbarOrientation::VerticalRight).id("x"),
                    w::ScrollbarState::new(40).position(3),
                )
            },
            role: Role::Scrollbar,
            actions: &["scroll"],
            check: |n| assert_eq!(n.scroll.unwrap().content, 40),
        },
        Contract {
            widget: "TextInput",
            draw: |f| {
                draw_stateful(
                    f,
                    w::TextInput::new().label("Name").max_len(5).id("x"),
                    w::TextInputState::new("Ada"),
                )
            },
            role: Role::TextInput,
            actions: &["set_value"],
            check: |n| {
                assert_eq!(n.value, Some(taria::Value::Text("Ada".into())));
                assert_eq!(
                    n.value_schema,
                    Some(taria::node::ValueSchema::Text { max_len: Some(5) })
                );
            },
        },
        Contract {
            widget: "Checkbox",
            draw: |f| draw_stateful(f, w::Checkbox::new("Done").id("x"), true),
            role: Role::Checkbox,
            actions: &["toggle", "set_value"],
            check: |n| {
                assert_eq!(n.state.checked, Some(taria::Checked::True));
                assert_eq!(n.value_schema, Some(taria::node::ValueSchema::Bool));
            },
        },
        Contract {
            widget: "Button",
            draw: |f| f.render_widget(w::Button::new("Save").id("x"), f.area()),
            role: Role::Button,
            actions: &["activate"],
            check: |n| assert_eq!(n.label.as_deref(), Some("Save")),
        },
        Contract {
            widget: "Select",
            draw: |f| {
                let mut state = w::SelectState::default();
                state.select(Some(1));
                draw_stateful(
                    f,
                    w::Select::new(["Low", "High"]).label("Level").id("x"),
                    state,
                )
            },
            role: Role::Select,
            actions: &["set_value"],
            check: |n| {
                assert_eq!(n.value, Some(taria::Value::Text("High".into())));
                assert_eq!(
                    n.value_schema,
                    Some(taria::node::ValueSchema::Options {
                        options: vec!["Low".into(), "High".into()]
                    })
                );
            },
        },
        Contract {
            widget: "Sparkline",
            draw: |f| {
                f.render_widget(
                    w::Sparkline::default().data([1, 4, 2]).label("cpu").id("x"),
                    f.area(),
                )
            },
            role: Role::Chart,
            actions: &[],
            check: |n| {
                assert_eq!(n.label.as_deref(), Some("cpu"));
                assert_eq!(
                    n.value,
                    Some(taria::Value::Text("3 points min 1 max 4 last 2".into()))
                );
            },
        },
        Contract {
            widget: "BarChart",
            draw: |f| {
                f.render_widget(
                    w::BarChart::default()
                        .data(&[("a", 1), ("b", 3)])
                        .block(w::Block::bordered().title("Bars"))
                        .id("x"),
                    f.area(),
                )
            },
            role: Role::Chart,
            actions: &[],
            check: |n| {
                assert_eq!(n.label.as_deref(), Some("Bars"));
                assert_eq!(
                    n.value,
                    Some(taria::Value::Text(
                        r#"2 bars min 1 max 3: "a" 1, "b" 3"#.into()
                    ))
                );
            },
        },
        Contract {
            widget: "Chart",
            draw: |f| {
                static POINTS: [(f64, f64); 2] = [(0.0, 1.0), (1.0, 2.0)];
                f.render_widget(
                    w::Chart::new(vec![w::Dataset::default().name("s").data(&POINTS)])
                        .x_axis(w::Axis::default().title("t").bounds([0.0, 1.0]))
                        .label("Plot")
                        .id("x"),
                    f.area(),
                )
            },
            role: Role::Chart,
            actions: &[],
            check: |n| {
                assert_eq!(n.label.as_deref(), Some("Plot"));
                assert_eq!(
                    n.value,
                    Some(taria::Value::Text(
                        r#"1 series: "s" 2 points min 1 max 2 last 2; x axis "t" [0, 1], y axis [0, 0]"#
                            .into()
                    ))
                );
            },
        },
        Contract {
            widget: "Canvas",
            draw: |f| {
                f.render_widget(
                    w::Canvas::default().paint(|_| {}).label("map").id("x"),
                    f.area(),
                )
            },
            role: Role::Image,
            actions: &[],
            check: |n| assert_eq!(n.label.as_deref(), Some("map")),
        },
        #[cfg(feature = "calendar")]
        Contract {
            widget: "Monthly",
            draw: |f| {
                // The app marks the date it shows as selected: that is the value.
                let day = time::Date::from_calendar_date(2025, time::Month::March, 9).unwrap();
                let mut events = w::CalendarEventStore::default();
                events.add(
                    day,
                    ratatui::style::Style::new().add_modifier(ratatui::style::Modifier::REVERSED),
                );
                f.render_widget(w::Monthly::new(day, &events).id("x"), f.area());
            },
            role: Role::Text,
            actions: &[],
            check: |n| {
                assert_eq!(n.label.as_deref(), Some("March 2025"));
                assert_eq!(n.value, Some(taria::Value::Text("2025-03-09".into())));
                let events: Vec<_> = n.children.iter().map(|c| c.label.as_deref()).collect();
                assert_eq!(events, [Some("9")]);
            },
        },
        #[cfg(feature = "tui-tree-widget")]
        Contract {
            widget: "tui_tree_widget::Tree",
            draw: |f| {
                use w::tui_tree_widget::{Tree, TreeItem, TreeState};
                let items = [
                    TreeItem::new_leaf("a", "Alfa"),
                    TreeItem::new("b", "Bravo", vec![TreeItem::new_leaf("c", "Charlie")]).unwrap(),
                ];
                let mut state = TreeState::default();
                state.open(vec!["b"]);
                state.select(vec!["b", "c"]);
                let tree = Tree::new(&items)
                    .unwrap()
                    .block(w::Block::bordered().title("T"))
                    .id("x");
                f.render_stateful_widget(tree, f.area(), &mut state);
            },
            role: Role::Tree,
            actions: &["scroll"],
            check: |n| {
                assert_eq!(n.label.as_deref(), Some("T"));
                assert_eq!(n.position.count, Some(3));
                let rows: Vec<_> = n
                    .children
                    .iter()
                    .map(|c| (c.role, c.id.as_str(), c.position.level))
                    .collect();
                assert_eq!(
                    rows,
                    [
                        (Role::TreeItem, "x/a", Some(1)),
                        (Role::TreeItem, "x/b", Some(1)),
                        (Role::TreeItem, "x/b.c", Some(2))
                    ]
                );
                assert_eq!(n.children[1].state.expanded, Some(true));
                assert!(
                    n.children[1]
                        .actions
                        .iter()
                        .any(|a| a.as_str() == "collapse")
                );
                assert!(n.children[2].state.selected);
            },
        },
        #[cfg(feature = "ratatui-textarea")]
        Contract {
            widget: "ratatui_textarea::TextArea",
            draw: |f| {
                let mut text = w::ratatui_textarea::TextArea::from(["one", "two"]);
                text.set_block(w::Block::bordered().title("Notes"));
                text.set_id("x");
                text.set_submit_key("ctrl+s");
                f.render_widget(&text, f.area());
            },
            role: Role::TextArea,
            actions: &["set_value", "submit"],
            check: |n| {
                assert_eq!(n.label.as_deref(), Some("Notes"));
                assert_eq!(n.value, Some(taria::Value::Text("one\ntwo".into())));
                assert!(n.state.focused);
            },
        },
        #[cfg(feature = "tui-scrollview")]
        Contract {
            widget: "tui_scrollview::ScrollView",
            draw: |f| {
                use ratatui::layout::{Rect, Size};
                let mut view = w::tui_scrollview::ScrollView::new(Size::new(10, 20)).id("x");
                let text: Vec<String> = (0..20).map(|i| format!("row {i}")).collect();
                view.render_widget(
                    ratatui::widgets::Paragraph::new(text.join("\n")),
                    Rect::new(0, 0, 10, 20),
                );
                draw_stateful(f, view, w::tui_scrollview::ScrollViewState::default());
            },
            role: Role::Region,
            actions: &["scroll"],
            check: |n| {
                let scroll = n.scroll.as_ref().unwrap();
                assert_eq!((scroll.offset, scroll.content, scroll.viewport), (0, 20, 8));
                assert!(
                    matches!(&n.value, Some(taria::Value::Text(t)) if t.starts_with("row 0\nrow 1"))
                );
            },
        },
        Contract {
            widget: "Slider",
            draw: |f| {
                draw_stateful(
                    f,
                    w::Slider::new(0.0, 10.0).step(0.5).id("x"),
                    w::SliderState::new(3.0),
                )
            },
            role: Role::Slider,
            actions: &["increment", "decrement", "set_value"],
            check: |n| {
                assert_eq!(n.value, Some(taria::Value::Number(3.0)));
                assert_eq!(
                    n.value_schema,
                    Some(taria::node::ValueSchema::Number {
                        min: Some(0.0),
                        max: Some(10.0),
                        step: Some(0.5)
                    })
                );
            },
        },
    ]
}

/// The name of every widget the crate exports (keep in step with `lib.rs`'s
/// `pub use`s): each has one contract row. `Monthly` only with `calendar`, each
/// third-party adapter with its crate's feature.
const ALL_WIDGETS: &[&str] = &[
    "BarChart",
    "Block",
    "Button",
    "Canvas",
    "Chart",
    "Checkbox",
    "Gauge",
    "LineGauge",
    "List",
    #[cfg(feature = "calendar")]
    "Monthly",
    "Paragraph",
    "Scrollbar",
    "Select",
    "Slider",
    "Sparkline",
    "Table",
    "Tabs",
    "TextInput",
    #[cfg(feature = "tui-tree-widget")]
    "tui_tree_widget::Tree",
    #[cfg(feature = "ratatui-textarea")]
    "ratatui_textarea::TextArea",
    #[cfg(feature = "tui-scrollview")]
    "tui_scrollview::ScrollView",
];

#[test]
fn every_widget_keeps_its_contract() {
    let contracts = contracts();
    let mut names: Vec<&str> = contracts.iter().map(|c| c.widget).collect();
    names.sort_unstable();
    let mut all: Vec<&str> = ALL_WIDGETS.to_vec();
    all.sort_unstable();
    assert_eq!(
        names, all,
        "one contract row per widget in ALL_WIDGETS, and no other"
    );
    for contract in contracts {
        let mut harness = Harness::new(30, 8);
        let tree = harness.render(contract.draw);
        let node = tree.get("x").unwrap_or_else(|| {
            panic!(
                "{}: no node with id `x`:\n{}",
                contract.widget,
                tree.outline()
            )
        });
        assert_eq!(node.role, contract.role, "{}", contract.widget);
        let actions: Vec<&str> = node
            .actions
            .iter()
            .map(taria::node::ActionName::as_str)
            .collect();
        assert_eq!(actions, contract.actions, "{}", contract.widget);
        if actions.contains(&"set_value") {
            assert!(
                node.value_schema.is_some(),
                "{}: settable without a valueSchema",
                contract.widget
            );
        }
        (contract.check)(node);
    }
}

/// A drop-in keeps ratatui's style shorthands: `Block::bordered().bg(…)` compiled with
/// ratatui's `Block` and must with taria's (issue 14: it did not, and rustc's hint
/// pointed at an unrelated trait), styling the block as ratatui's does.
#[test]
fn a_block_takes_the_style_shorthands_as_ratatui_s_does() {
    use ratatui::style::{Color, Style, Stylize as _};
    let ours = taria_widgets::Block::bordered()
        .title("Tasks")
        .bg(Color::Blue);
    let theirs = ratatui::widgets::Block::bordered()
        .title("Tasks")
        .bg(Color::Blue);
    assert_eq!(
        ratatui::style::Styled::style(&ours),
        ratatui::style::Styled::style(&theirs)
    );
    assert_eq!(
        ratatui::style::Styled::style(&ours),
        Style::new().bg(Color::Blue)
    );
    let area = ratatui::layout::Rect::new(0, 0, 12, 3);
    let (mut a, mut b) = (
        ratatui::buffer::Buffer::empty(area),
        ratatui::buffer::Buffer::empty(area),
    );
    ratatui::widgets::Widget::render(ours, area, &mut a);
    ratatui::widgets::Widget::render(theirs, area, &mut b);
    assert_eq!(a, b);
}
