//! The third-party adapters against their crates: the same buffer as the crate's own
//! widget, cell for cell, on the crate's own example data; what they record; the
//! agent's actions taken into the app's state (through an in-process session).

#![expect(clippy::unwrap_used, reason = "tests")]

#[cfg(feature = "tui-tree-widget")]
mod tree {
    use ratatui::buffer::Buffer;
    use ratatui::layout::Rect;
    use ratatui::style::{Color, Modifier, Style};
    use ratatui::widgets::{Block, Scrollbar, ScrollbarOrientation, StatefulWidget};
    use taria::testing::{AppHarness, Harness};
    use taria::{Role, ScrollDirection};
    use taria_widgets::tui_tree_widget as adapter;

    /// tui-tree-widget's own example items (`TreeItem::example`, its render tests).
    macro_rules! example {
        ($item:path) => {{
            use $item as Item;
            vec![
                Item::new_leaf("a", "Alfa"),
                Item::new(
                    "b",
                    "Bravo",
                    vec![
                        Item::new_leaf("c", "Charlie"),
                        Item::new(
                            "d",
                            "Delta",
                            vec![Item::new_leaf("e", "Echo"), Item::new_leaf("f", "Foxtrot")],
                        )
                        .unwrap(),
                        Item::new_leaf("g", "Golf"),
                    ],
                )
                .unwrap(),
                Item::new_leaf("h", "Hotel"),
            ]
        }};
    }

    /// A state with `open` opened and `selected` selected, offset `offset`.
    fn state(
        open: &[&[&'static str]],
        selected: &[&'static str],
        offset: usize,
    ) -> adapter::TreeState<&'static str> {
        let mut state = adapter::TreeState::default();
        for path in open {
            state.open(path.to_vec());
        }
        state.select(selected.to_vec());
        state.scroll_down(offset);
        state
    }

    /// Draws the crate's tree and the adapter's with the same options and equal
    /// states; both buffers, and the states' offsets after.
    fn both(area: Rect, open: &[&[&'static str]], selected: &[&'static str]) -> (Buffer, Buffer) {
        let items = example!(tui_tree_widget::TreeItem);
        let ours = example!(adapter::TreeItem);
        let style = Style::new()
            .fg(Color::Black)
            .bg(Color::LightGreen)
            .add_modifier(Modifier::BOLD);
        let bar = || {
            Some(
                Scrollbar::new(ScrollbarOrientation::VerticalRight)
                    .begin_symbol(None)
                    .end_symbol(None),
            )
        };
        let mut expected = Buffer::empty(area);
        let mut a = state(open, selected, 0);
        tui_tree_widget::Tree::new(&items)
            .unwrap()
            .block(Block::bordered().title("Tree Widget"))
            .experimental_scrollbar(bar())
            .highlight_style(style)
            .highlight_symbol(">> ")
            .render(area, &mut expected, &mut a);
        let mut got = Buffer::empty(area);
        let mut b = state(open, selected, 0);
        adapter::Tree::new(&ours)
            .unwrap()
            .block(Block::bordered().title("Tree Widget"))
            .experimental_scrollbar(bar())
            .highlight_style(style)
            .highlight_symbol(">> ")
            .id("tree")
            .render(area, &mut got, &mut b);
        assert_eq!(a.get_offset(), b.get_offset());
        (expected, got)
    }

    #[test]
    fn draws_the_crates_buffer_cell_for_cell() {
        type Case = (
            Rect,
            &'static [&'static [&'static str]],
            &'static [&'static str],
        );
        let cases: [Case; 5] = [
            (Rect::new(0, 0, 10, 4), &[], &[]),
            (Rect::new(0, 0, 13, 7), &[&["b"]], &[]),
            (
                Rect::new(0, 0, 20, 11),
                &[&["b"], &["b", "d"]],
                &["b", "d", "f"],
            ),
            // Scrolled to show the selection, with the scrollbar.
            (Rect::new(0, 0, 20, 5), &[&["b"], &["b", "d"]], &["h"]),
            // Opened below a closed branch: the crate shows it closed.
            (Rect::new(2, 1, 16, 6), &[&["b", "d"]], &["a"]),
        ];
        for (area, open, selected) in cases {
            let (expected, got) = both(area, open, selected);
            assert_eq!(got, expected, "open {open:?}, selected {selected:?}");
        }
    }

    #[test]
    fn records_the_rows_on_screen() {
        let items = example!(adapter::TreeItem);
        let mut state = state(&[&["b"], &["b", "d"]], &["b", "d", "e"], 0);
        let tree = Harness::new(20, 6).render(|f| {
            let tree = adapter::Tree::new(&items)
                .unwrap()
                .block(taria_widgets::Block::bordered().title("Files"))
                .highlight_symbol(">")
                .id("tree");
            f.render_stateful_widget(tree, f.area(), &mut state);
        });
        let root = tree.get("tree").unwrap();
        assert_eq!(
            (root.role, root.label.as_deref()),
            (Role::Tree, Some("Files"))
        );
        assert_eq!(root.position.count, Some(8));
        assert!(root.actions.iter().any(|a| a.as_str() == "scroll"));
        let rows: Vec<_> = root
            .children
            .iter()
            .map(|n| {
                (
                    n.id.as_str(),
                    n.label.as_deref().unwrap(),
                    n.position.level.unwrap(),
                )
            })
            .collect();
        // 4 rows fit; the crate scrolled Echo (row 4) into view.
        assert_eq!(
            rows,
            [
                ("tree/b", "Bravo", 1),
                ("tree/b.c", "Charlie", 2),
                ("tree/b.d", "Delta", 2),
                ("tree/b.d.e", "Echo", 3)
            ]
        );
        assert_eq!(root.scroll.as_ref().map(|s| s.offset), Some(1));
        let delta = tree.get("tree/b.d").unwrap();
        assert_eq!(delta.state.expanded, Some(true));
        assert!(delta.actions.iter().any(|a| a.as_str() == "collapse"));
        assert_eq!(delta.bounds.y, 3);
        assert!(tree.get("tree/b.d.e").unwrap().state.selected);
        assert_eq!(tree.get("tree/b.c").unwrap().state.expanded, None);
    }

    #[test]
    fn without_an_id_rows_offer_only_select() {
        let items = example!(adapter::TreeItem);
        let mut state = adapter::TreeState::default();
        let tree = Harness::new(20, 4).render(|f| {
            let tree = adapter::Tree::new(&items).unwrap();
            f.render_stateful_widget(tree, f.area(), &mut state);
        });
        let root = &tree.roots[0];
        assert!(root.actions.is_empty());
        let bravo = &root.children[1];
        assert_eq!(bravo.label.as_deref(), Some("Bravo"));
        let actions: Vec<_> = bravo
            .actions
            .iter()
            .map(taria::node::ActionName::as_str)
            .collect();
        assert_eq!(actions, ["select"]);
    }

    struct App {
        items: Vec<adapter::TreeItem<'static, &'static str>>,
        state: adapter::TreeState<&'static str>,
    }

    impl taria::Actions for App {
        fn handle_action(&mut self, _: &taria::Invocation<'_>) -> taria::Outcome {
            taria::Outcome::NotHandled
        }
    }

    fn app(height: u16) -> AppHarness<App> {
        let app = App {
            items: example!(adapter::TreeItem),
            state: adapter::TreeState::default(),
        };
        AppHarness::new(app, 20, height, |f, app: &mut App| {
            let tree = adapter::Tree::new(&app.items)
                .unwrap()
                .highlight_symbol(">")
                .id("tree");
            f.render_stateful_widget(tree, f.area(), &mut app.state);
        })
    }

    #[test]
    fn takes_expand_select_collapse_and_scroll_into_the_state() {
        let mut h = app(8);
        h.act("tree/b", "expand").unwrap();
        assert!(h.app().state.opened().contains(&vec!["b"]));
        h.act("tree/b.d", "expand").unwrap();
        h.act("tree/b.d.f", "select").unwrap();
        assert_eq!(h.app().state.selected(), ["b", "d", "f"]);
        assert!(h.node("tree/b.d.f").state.selected);
        assert!(h.screen().contains(">      Foxtrot"), "{}", h.screen());
        h.scroll("tree", ScrollDirection::Down, 1).unwrap();
        assert_eq!(h.app().state.selected(), ["b", "g"]);
        h.act("tree/b", "collapse").unwrap();
        assert!(!h.app().state.opened().contains(&vec!["b"]));
        assert!(
            h.act("tree/a", "expand").is_err(),
            "a leaf has nothing to expand"
        );
        assert!(
            h.act("tree/h", "collapse").is_err(),
            "a leaf has nothing to collapse"
        );
    }

    #[test]
    fn the_audit_finds_every_offer_true() {
        let report = taria::testing::audit(|| app(5));
        assert!(report.violations.is_empty(), "{report}");
        assert!(!report.tried.is_empty(), "{report}");
    }
}

#[cfg(feature = "ratatui-textarea")]
mod textarea {
    use ratatui::buffer::Buffer;
    use ratatui::layout::Rect;
    use ratatui::style::{Color, Style};
    use ratatui::widgets::{Block, Borders, Widget};
    use taria::testing::{AppHarness, Harness};
    use taria::{Role, Value};
    use taria_widgets::ratatui_textarea::TextArea;

    /// ratatui-textarea's `minimal` example's text.
    const SAMPLE_TEXT: [&str; 4] = [
        "Click to move the cursor, drag to select, scroll to move the view.",
        "宽字符占两列，点击它的任意一半都会落在同一个字符上。",
        "한국어와 日本語のテキストも同じように動作します。",
        "Tabs\tand\tmixed 幅 width also map back to the right character.",
    ];

    #[test]
    fn draws_the_crates_buffer_cell_for_cell() {
        let area = Rect::new(0, 0, 40, 6);
        // The example's setup, on the crate's editor and on the adapter.
        let mut crate_area = ratatui_textarea::TextArea::from(SAMPLE_TEXT);
        crate_area.set_line_number_style(Style::default().fg(Color::DarkGray));
        crate_area.set_block(Block::default().borders(Borders::ALL).title("Minimal"));
        crate_area.move_cursor(ratatui_textarea::CursorMove::Bottom);
        let mut ours = TextArea::from(SAMPLE_TEXT);
        ours.set_line_number_style(Style::default().fg(Color::DarkGray));
        ours.set_block(Block::default().borders(Borders::ALL).title("Minimal"));
        ours.move_cursor(ratatui_textarea::CursorMove::Bottom);
        let mut expected = Buffer::empty(area);
        (&crate_area).render(area, &mut expected);
        let mut got = Buffer::empty(area);
        (&ours).render(area, &mut got);
        assert_eq!(got, expected);
    }

    #[test]
    fn records_its_lines_label_and_submit_key() {
        let mut textarea = TextArea::from(SAMPLE_TEXT);
        textarea.set_block(taria_widgets::Block::bordered().title("Notes"));
        textarea.set_submit_key("esc");
        let tree = Harness::new(40, 6).render(|f| f.render_widget(&textarea, f.area()));
        let node = &tree.roots[0];
        assert_eq!(
            (node.role, node.label.as_deref()),
            (Role::TextArea, Some("Notes"))
        );
        assert_eq!(node.value, Some(Value::Text(SAMPLE_TEXT.join("\n"))));
        assert!(node.state.focused);
        assert_eq!(node.keys.get("submit").map(String::as_str), Some("esc"));
        assert!(
            !node.actions.iter().any(|a| a.as_str() == "set_value"),
            "no id: no set_value"
        );
        textarea.set_mask_char('•');
        let tree = Harness::new(40, 6).render(|f| f.render_widget(&textarea, f.area()));
        assert!(tree.roots[0].state.redacted);
        assert!(!serde_json::to_string(&tree).unwrap().contains("Click"));
    }

    struct App {
        text: TextArea<'static>,
        /// Lines the app read after each event, as an app reads them.
        seen: Vec<Vec<String>>,
    }

    impl taria::Actions for App {
        fn handle_action(&mut self, _: &taria::Invocation<'_>) -> taria::Outcome {
            taria::Outcome::NotHandled
        }
    }

    #[test]
    fn takes_set_value_drawn_through_a_reference() {
        let mut text = TextArea::from(["draft"]);
        text.set_id("text");
        let app = App {
            text,
            seen: Vec::new(),
        };
        let mut h = AppHarness::new(app, 30, 4, |f, app: &mut App| {
            f.render_widget(&app.text, f.area());
        })
        .on_event(|app: &mut App, event| {
            app.text.input(event);
            app.seen.push(app.text.lines().to_vec());
        });
        assert!(
            h.node("text")
                .actions
                .iter()
                .any(|a| a.as_str() == "set_value")
        );
        h.set_value("text", "one\ntwo").unwrap();
        // Read through `Deref` at once, drawn, and the app's editor has it after its
        // next mutable borrow.
        assert_eq!(h.app().text.lines(), ["one", "two"]);
        assert_eq!(h.node("text").value, Some(Value::Text("one\ntwo".into())));
        assert!(h.screen().contains("two"), "{}", h.screen());
        h.press("x").unwrap();
        assert_eq!(h.app().seen.last().unwrap(), &["one", "twox"]);
        // The app's undo takes the key and the agent's edit (a clear, an insert) back.
        for _ in 0..3 {
            assert!(h.app_mut().text.undo());
        }
        assert_eq!(h.app().text.lines(), ["draft"]);
        let report = taria::testing::audit(|| {
            let mut text = TextArea::from(["draft"]);
            text.set_id("text");
            text.set_block(taria_widgets::Block::bordered().title("Draft"));
            AppHarness::new(
                App {
                    text,
                    seen: Vec::new(),
                },
                30,
                4,
                |f, app: &mut App| {
                    f.render_widget(&app.text, f.area());
                },
            )
        });
        assert!(report.violations.is_empty(), "{report}");
    }
}

#[cfg(feature = "tui-scrollview")]
mod scrollview {
    use ratatui::buffer::Buffer;
    use ratatui::layout::{Rect, Size};
    use ratatui::widgets::{Paragraph, StatefulWidget};
    use taria::testing::AppHarness;
    use taria::{Role, ScrollDirection, Value};
    use taria_widgets::tui_scrollview::{ScrollView, ScrollViewState};

    /// 30 numbered lines, as tui-scrollview's examples fill a view.
    fn lines() -> String {
        (1..=30)
            .map(|i| format!("line {i}"))
            .collect::<Vec<_>>()
            .join("\n")
    }

    #[test]
    fn draws_the_crates_buffer_cell_for_cell() {
        let area = Rect::new(0, 0, 12, 5);
        for offset in [0, 3, 40] {
            let content = Rect::new(0, 0, 10, 30);
            let mut theirs = tui_scrollview::ScrollView::new(Size::new(10, 30));
            theirs.render_widget(Paragraph::new(lines()), content);
            let mut ours = ScrollView::new(Size::new(10, 30)).id("log");
            ours.render_widget(Paragraph::new(lines()), content);
            let (mut a, mut b) = (ScrollViewState::default(), ScrollViewState::default());
            for _ in 0..offset {
                a.scroll_down();
                b.scroll_down();
            }
            let mut expected = Buffer::empty(area);
            theirs.render(area, &mut expected, &mut a);
            let mut got = Buffer::empty(area);
            ours.render(area, &mut got, &mut b);
            assert_eq!(got, expected, "offset {offset}");
            assert_eq!(a, b);
        }
    }

    struct App {
        state: ScrollViewState,
    }

    impl taria::Actions for App {
        fn handle_action(&mut self, _: &taria::Invocation<'_>) -> taria::Outcome {
            taria::Outcome::NotHandled
        }
    }

    fn app() -> AppHarness<App> {
        AppHarness::new(
            App {
                state: ScrollViewState::default(),
            },
            12,
            5,
            |f, app: &mut App| {
                let mut view = ScrollView::new(Size::new(10, 30)).id("log").label("Log");
                view.render_widget(Paragraph::new(lines()), Rect::new(0, 0, 10, 30));
                f.render_stateful_widget(view, f.area(), &mut app.state);
            },
        )
    }

    #[test]
    fn records_what_it_shows_and_takes_scroll() {
        let mut h = app();
        let log = h.node("log");
        assert_eq!(
            (log.role, log.label.as_deref()),
            (Role::Region, Some("Log"))
        );
        assert_eq!(
            log.value,
            Some(Value::Text("line 1\nline 2\nline 3\nline 4\nline 5".into()))
        );
        let scroll = log.scroll.unwrap();
        assert_eq!((scroll.offset, scroll.content, scroll.viewport), (0, 30, 5));
        h.scroll("log", ScrollDirection::Down, 3).unwrap();
        assert_eq!(h.app().state.offset().y, 3);
        assert!(h.screen().contains("line 4"), "{}", h.screen());
        assert_eq!(
            h.node("log").value,
            Some(Value::Text("line 4\nline 5\nline 6\nline 7\nline 8".into()))
        );
        h.scroll("log", ScrollDirection::Down, 100).unwrap();
        assert_eq!(h.app().state.offset().y, 25);
        assert!(
            h.scroll("log", ScrollDirection::Down, 1).is_err(),
            "at the end"
        );
        assert!(
            h.scroll("log", ScrollDirection::Right, 1).is_err(),
            "content fits across"
        );
        let report = taria::testing::audit(app);
        assert!(report.violations.is_empty(), "{report}");
    }
}

/// The public trait, proven outside the crate: a widget of the app's own.
mod public_trait {
    use ratatui::buffer::Buffer;
    use ratatui::layout::Rect;
    use ratatui::widgets::StatefulWidget;
    use taria::testing::AppHarness;
    use taria::{Action, Invocation, Outcome, Role, Value};
    use taria_widgets::{Offer, SemanticWidget};

    /// A star rating, `★★★☆☆`; an agent's `set_value` sets it (with an id).
    struct Stars<'a> {
        id: Option<&'a str>,
    }

    impl SemanticWidget for Stars<'_> {
        type State = u8;

        fn widget_id(&self) -> Option<&str> {
            self.id
        }

        fn apply(&self, stars: &mut u8, inv: &Invocation<'_>) -> Outcome {
            match inv.value() {
                Some(Value::Number(n))
                    if inv.is(Action::SetValue) && (0.0..=5.0).contains(n) && n.fract() == 0.0 =>
                {
                    #[expect(
                        clippy::cast_sign_loss,
                        clippy::cast_possible_truncation,
                        reason = "checked: a whole number in 0..=5"
                    )]
                    let whole = *n as u8;
                    *stars = whole;
                    Outcome::Handled
                }
                _ if inv.is(Action::SetValue) => Outcome::Rejected("0 to 5 stars".into()),
                _ => Outcome::NotHandled,
            }
        }

        fn describe(&self, area: Rect, stars: &u8, offer: Offer) {
            taria::leaf(|n| {
                n.role(Role::Slider)
                    .label("Rating")
                    .value(f64::from(*stars))
                    .min(0.0)
                    .max(5.0)
                    .bounds(area);
                if let Some(id) = self.id {
                    n.id(id);
                }
                if offer.takes() {
                    n.action(Action::SetValue);
                }
            });
        }

        fn hand_over(self, area: Rect, buf: &mut Buffer, stars: &mut u8) {
            let drawn: String = (0..5).map(|i| if i < *stars { '★' } else { '☆' }).collect();
            buf.set_string(area.x, area.y, drawn, ratatui::style::Style::new());
        }
    }

    impl StatefulWidget for Stars<'_> {
        type State = u8;

        fn render(self, area: Rect, buf: &mut Buffer, stars: &mut u8) {
            self.render_with(area, buf, stars);
        }
    }

    /// The app: a rating.
    struct Rating(u8);

    impl taria::Actions for Rating {
        fn handle_action(&mut self, _: &Invocation<'_>) -> Outcome {
            Outcome::NotHandled
        }
    }

    #[test]
    fn an_apps_own_widget_records_and_takes_actions() {
        let mut h = AppHarness::new(Rating(2), 5, 1, |f, app: &mut Rating| {
            f.render_stateful_widget(Stars { id: Some("stars") }, f.area(), &mut app.0);
        });
        assert_eq!(h.node("stars").value, Some(Value::Number(2.0)));
        h.set_value("stars", 4.0).unwrap();
        assert_eq!(h.app().0, 4);
        assert_eq!(h.screen().trim_end(), "★★★★☆");
        assert!(h.set_value("stars", 9.0).is_err());
        let mut plain = AppHarness::new(Rating(2), 5, 1, |f, app: &mut Rating| {
            f.render_stateful_widget(Stars { id: None }, f.area(), &mut app.0);
        });
        assert!(
            plain.tree().roots[0].actions.is_empty(),
            "no id: nothing offered"
        );
        assert!(plain.set_value("stars", 1.0).is_err());
    }
}
