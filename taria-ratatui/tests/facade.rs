//! An app that renames its `ratatui` dependency to taria-ratatui keeps every
//! `use ratatui::…` line: the names resolve (globs included, none ambiguous), the widgets
//! taria wraps are taria's and record, and the rest are ratatui's own items.

// A name two globs give as different items would be an error (E0659) on use: made an
// error on import too.
#![deny(ambiguous_glob_imports)]

use std::any::TypeId;
use taria::Role;
use taria::testing::Harness;
use taria_ratatui as ratatui;

fn same<T: 'static, U: 'static>() -> bool {
    TypeId::of::<T>() == TypeId::of::<U>()
}

#[test]
fn the_widgets_taria_wraps_are_taria_s_and_the_rest_ratatui_s() {
    use ratatui::widgets;
    assert!(same::<widgets::List<'static>, taria_widgets::List<'static>>());
    assert!(same::<widgets::Table<'static>, taria_widgets::Table<'static>>());
    assert!(same::<
        widgets::Paragraph<'static>,
        taria_widgets::Paragraph<'static>,
    >());
    assert!(same::<widgets::Block<'static>, taria_widgets::Block<'static>>());
    assert!(same::<widgets::Tabs<'static>, taria_widgets::Tabs<'static>>());
    assert!(same::<
        widgets::canvas::Canvas<'static, fn(&mut widgets::canvas::Context<'_>)>,
        taria_widgets::Canvas<'static, fn(&mut widgets::canvas::Context<'_>)>,
    >());
    assert!(same::<widgets::Clear, ::ratatui::widgets::Clear>());
    assert!(same::<widgets::Borders, ::ratatui::widgets::Borders>());
    assert!(same::<ratatui::Frame<'static>, ::ratatui::Frame<'static>>());
    assert!(same::<ratatui::layout::Rect, ::ratatui::layout::Rect>());
    assert!(same::<ratatui::style::Style, ::ratatui::style::Style>());
    assert!(same::<
        ratatui::text::Line<'static>,
        ::ratatui::text::Line<'static>,
    >());
}

/// A file written against ratatui's globs, as many apps are.
mod written_for_ratatui {
    use super::ratatui::prelude::*;
    use super::ratatui::widgets::*;

    pub(crate) fn draw(frame: &mut Frame<'_>, state: &mut ListState) {
        let [top, bottom] =
            Layout::vertical([Constraint::Fill(1), Constraint::Length(3)]).areas(frame.area());
        let tasks = List::new(["Buy milk", "Walk dog"])
            .block(Block::new().borders(Borders::ALL).title("Tasks"))
            .highlight_symbol("> ");
        frame.render_stateful_widget(tasks, top, state);
        frame.render_widget(Clear, bottom);
        let help = Paragraph::new("q quits").block(Block::bordered().title("Help"));
        frame.render_widget(help, bottom);
    }
}

#[test]
fn an_app_written_for_ratatui_records_through_the_renamed_dependency() {
    let mut state = ratatui::widgets::ListState::default().with_selected(Some(1));
    let tree = Harness::new(30, 8).render(|frame| written_for_ratatui::draw(frame, &mut state));
    let list = tree
        .iter()
        .find(|n| n.role == Role::List)
        .expect("the list records");
    assert_eq!(list.label.as_deref(), Some("Tasks"));
    let items: Vec<_> = list.children.iter().map(|n| n.label.as_deref()).collect();
    assert_eq!(items, [Some("Buy milk"), Some("Walk dog")]);
    assert!(list.children[1].state.selected);
    let help = tree
        .iter()
        .find(|n| n.role == Role::Text)
        .expect("the paragraph records");
    assert_eq!(
        (
            help.label.as_deref(),
            help.value.as_ref().map(ToString::to_string).as_deref()
        ),
        (Some("Help"), Some("q quits"))
    );
}

#[test]
fn a_taria_block_handed_to_a_widget_taking_ratatui_s_draws_the_same_cells() {
    use ::ratatui::buffer::Buffer;
    use ::ratatui::layout::Rect;
    use ::ratatui::widgets::Widget;
    let area = Rect::new(0, 0, 12, 3);
    let ours = ratatui::widgets::Block::bordered().title("Tree");
    let theirs: ::ratatui::widgets::Block<'_> = ours.clone().into();
    let (mut drawn, mut expected) = (Buffer::empty(area), Buffer::empty(area));
    theirs.render(area, &mut drawn);
    ::ratatui::widgets::Block::bordered()
        .title("Tree")
        .render(area, &mut expected);
    assert_eq!(drawn, expected);
}
