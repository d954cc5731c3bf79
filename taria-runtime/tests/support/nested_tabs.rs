//! An app with tabs inside a tab page, as found in the wild: `outer` (three
//! sections), and on its first page `inner` (three panes). The arrow keys move the
//! tabs that have focus (`tab` moves the focus between the two), and the app may or
//! may not mark that focus in its tree. No handler takes `select`: only a key fallback
//! can, by pressing arrows.

#![allow(dead_code, unreachable_pub, reason = "shared by several test files")]

use ratatui::Frame;
use ratatui::crossterm::event::{Event, KeyCode};
use ratatui::widgets::Paragraph;
use taria::{Action, Actions, Invocation, Outcome, Role};

pub const OUTER: [&str; 3] = ["Advanced", "General", "About"];
pub const INNER: [&str; 3] = ["Network", "Disk", "Cache"];

#[derive(Debug, Default)]
pub struct NestedTabs {
    pub outer: usize,
    pub inner: usize,
    /// Whether the arrows go to `inner` (else to `outer`).
    pub inner_has_focus: bool,
    /// Whether the tree marks which tabs have focus.
    pub marks_focus: bool,
    /// Every key the app read, by name.
    pub keys: Vec<String>,
}

impl NestedTabs {
    pub fn render(&self, frame: &mut Frame<'_>) {
        tabs(
            "outer",
            "Sections",
            &OUTER,
            self.outer,
            self.marks_focus && !self.inner_has_focus,
        );
        if self.outer == 0 {
            let _page = taria::scope(|n| {
                n.role(Role::Region).id("page").label(OUTER[0]);
            });
            tabs(
                "inner",
                "Panes",
                &INNER,
                self.inner,
                self.marks_focus && self.inner_has_focus,
            );
        }
        let text = format!(
            "{} > {}",
            OUTER[self.outer],
            if self.outer == 0 {
                INNER[self.inner]
            } else {
                ""
            }
        );
        frame.render_widget(Paragraph::new(text), frame.area());
    }

    pub fn on_event(&mut self, event: &Event) {
        let Event::Key(key) = event else { return };
        let chord = taria_schema::protocol::KeyChord {
            code: key.code,
            modifiers: key.modifiers,
        };
        self.keys.push(chord.to_string());
        let selected = if self.inner_has_focus && self.outer == 0 {
            &mut self.inner
        } else {
            &mut self.outer
        };
        match key.code {
            KeyCode::Right => *selected = (*selected + 1).min(2),
            KeyCode::Left => *selected = selected.saturating_sub(1),
            KeyCode::Tab => self.inner_has_focus = !self.inner_has_focus,
            _ => {}
        }
    }
}

fn tabs(id: &str, label: &str, titles: &[&str], selected: usize, focused: bool) {
    let _tabs = taria::scope(|n| {
        n.role(Role::Tabs).id(id).label(label).focused(focused);
    });
    for (i, title) in titles.iter().enumerate() {
        taria::leaf(|n| {
            n.role(Role::Tab)
                .key(i)
                .label(*title)
                .index(i)
                .count(titles.len())
                .selected(i == selected)
                .action(Action::Select);
        });
    }
}

impl Actions for NestedTabs {
    fn handle_action(&mut self, _: &Invocation<'_>) -> Outcome {
        Outcome::NotHandled
    }
}
