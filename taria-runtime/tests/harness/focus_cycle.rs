//! Focus moved by the app's keys among sibling lists (`focus = cycle("l", "h")`): a
//! kanban board, whose `h`/`l` move the focus between columns and `j`/`k` the card
//! selected in the focused one. An action on a column, or on a card, whose column does
//! not have focus presses `l` or `h` as many times as the tree shows it away first;
//! a card is then selected by the keys the frame after calls for (the app clamps the
//! selection when the focus moves). Found porting tui-kanban: 56 lines of handlers
//! did this by hand.

use ratatui::crossterm::event::{Event, KeyCode};
use ratatui::layout::Rect;
use taria::testing::AppHarness;
use taria::{Action, Role};
use taria_schema::protocol::AckStatus;

#[derive(Default)]
struct Board {
    columns: Vec<Vec<&'static str>>,
    column: usize,
    card: usize,
    /// `i`: nothing shows focus (an input is open).
    typing: bool,
    keys: Vec<KeyCode>,
}

impl Board {
    fn new() -> Board {
        Board {
            columns: vec![
                vec!["a1", "a2", "a3"],
                vec!["b1"],
                vec!["c1", "c2", "c3", "c4"],
            ],
            ..Board::default()
        }
    }

    fn clamp(&mut self) {
        self.card = self
            .card
            .min(self.columns[self.column].len().saturating_sub(1));
    }

    fn on_event(&mut self, event: &Event) {
        let Event::Key(key) = *event else { return };
        self.keys.push(key.code);
        match key.code {
            KeyCode::Char('l') if self.column + 1 < self.columns.len() => {
                self.column += 1;
                self.clamp();
            }
            KeyCode::Char('h') if self.column > 0 => {
                self.column -= 1;
                self.clamp();
            }
            KeyCode::Down if self.card + 1 < self.columns[self.column].len() => self.card += 1,
            KeyCode::Up if self.card > 0 => self.card -= 1,
            KeyCode::Char('m') if self.column + 1 < self.columns.len() => {
                let card = self.columns[self.column].remove(self.card);
                self.columns[self.column + 1].push(card);
                self.clamp();
            }
            KeyCode::Char('a') => self.columns[self.column].push("new"),
            KeyCode::Char('i') => self.typing = true,
            _ => {}
        }
    }

    fn draw(&self) {
        for (c, cards) in self.columns.iter().enumerate() {
            let x = u16::try_from(c * 10).expect("three columns");
            let focused = c == self.column && !self.typing;
            let _column = taria::scope(|n| {
                n.role(Role::List)
                    .id(["todo", "doing", "done"][c])
                    .bounds(Rect::new(x, 0, 10, 6))
                    .focused(focused)
                    .focus_cycle("l", "h")
                    .custom_key_fallback("add_card", "a");
            });
            for (i, card) in cards.iter().enumerate() {
                taria::leaf(|n| {
                    n.role(Role::ListItem)
                        .key(*card)
                        .label(*card)
                        .index(i)
                        .bounds(Rect::new(x, u16::try_from(i).expect("a few cards"), 10, 1))
                        .selected(c == self.column && i == self.card)
                        .action(Action::Select)
                        .custom_key_fallback("move_forward", "m");
                });
            }
        }
    }
}

impl taria::Actions for Board {
    fn handle_action(&mut self, _: &taria::Invocation<'_>) -> taria::Outcome {
        taria::Outcome::NotHandled
    }
}

fn board(app: Board) -> AppHarness<Board> {
    AppHarness::new(app, 30, 6, |frame, app: &mut Board| {
        app.draw();
        frame.render_widget(ratatui::widgets::Paragraph::new("board"), frame.area());
    })
    .on_event(|app, event| app.on_event(&event))
}

#[test]
fn a_card_in_a_column_without_focus_is_selected_by_moving_the_focus_then_the_selection() {
    let mut h = board(Board::new());
    h.act("done/c3", "select").unwrap();
    assert_eq!((h.app().column, h.app().card), (2, 2));
    assert_eq!(
        h.app().keys,
        [
            KeyCode::Char('l'),
            KeyCode::Char('l'),
            KeyCode::Down,
            KeyCode::Down
        ]
    );
    assert!(h.node("done/c3").state.selected);
    assert!(h.node("done").state.focused);
    // Back: `h` twice; passing `doing` (one card) the app clamped the selection to
    // its first, so `todo/a1` is selected after, one `down` from `todo/a2`: read from
    // the frame after the focus moved, not guessed from the one before.
    h.app_mut().keys.clear();
    h.act("todo/a2", "select").unwrap();
    assert_eq!(
        h.app().keys,
        [KeyCode::Char('h'), KeyCode::Char('h'), KeyCode::Down]
    );
    assert!(h.node("todo/a2").state.selected);
}

#[test]
fn a_card_s_own_key_is_pressed_once_its_column_has_focus_and_it_is_selected() {
    let mut h = board(Board::new());
    h.act("doing/b1", "move_forward").unwrap();
    assert_eq!(h.app().columns[2], ["c1", "c2", "c3", "c4", "b1"]);
    assert_eq!(h.app().keys, [KeyCode::Char('l'), KeyCode::Char('m')]);
}

#[test]
fn a_column_s_own_key_and_its_focus_press_the_keys_the_tree_counts() {
    let mut h = board(Board::new());
    h.act("done", "add_card").unwrap();
    assert_eq!(h.app().columns[2].last(), Some(&"new"));
    assert_eq!(
        h.app().keys,
        [KeyCode::Char('l'), KeyCode::Char('l'), KeyCode::Char('a')]
    );
    h.app_mut().keys.clear();
    h.act("doing", "focus").unwrap();
    assert_eq!(h.app().keys, [KeyCode::Char('h')]);
    assert!(h.node("doing").state.focused);
    assert_eq!(
        h.node("doing").keys.get("focus").map(String::as_str),
        Some("l (next) / h (previous)")
    );
}

#[test]
fn with_no_column_showing_focus_nothing_is_pressed_and_the_refusal_says_why() {
    let mut h = board(Board {
        typing: true,
        ..Board::new()
    });
    let error = h.act("done/c1", "select").unwrap_err();
    assert_eq!(error.status, AckStatus::Ignored, "{error}");
    assert!(
        error.message.contains(
            "the focus cannot be moved to `done` by its keys (l (next) / h (previous)): none \
             of the 3 nodes they move it among shows focus now"
        ),
        "{error}"
    );
    assert!(h.app().keys.is_empty(), "nothing was pressed");
}
