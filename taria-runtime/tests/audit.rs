//! `taria::testing::audit` finds each kind of untrue answer on an app broken on
//! purpose, and nothing on the same app built right: one small app (a button, a
//! list, a text input, a status line), one defect at a time.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::{Modifier, Style};
use ratatui::text::Line;
use ratatui::widgets::Paragraph;
use taria::testing::{AppHarness, AuditReport, Check, audit};
use taria::{Action, Role};

/// The one defect the app is built with.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
enum Defect {
    #[default]
    None,
    /// The button's label is not what it draws.
    Undrawn,
    /// The button has no bounds.
    ZeroBounds,
    /// The list highlights the item after the selected one.
    Selection,
    /// The status holds three lines in one row.
    ClippedValue,
    /// A text node says the button's label over the button.
    Duplicate,
    /// The button's id counts frames.
    UnstableIds,
    /// The text input has no label.
    Accessibility,
    /// The list's items offer `activate`, which nothing performs.
    UnperformedOffer,
    /// Saving changes nothing drawn.
    NoVisibleEffect,
    /// Focusing the input types an `e` into it (found in the wild).
    RepeatChanged,
    /// Not a defect: a clock no node records ticks below the status line each frame,
    /// as an app's header line does (the dashboard's `up 00:01:00`).
    Clock,
}

#[derive(Default)]
struct Probe {
    defect: Defect,
    saves: u32,
    fruit: usize,
    name: String,
    editing: bool,
    frames: u32,
}

const FRUITS: [&str; 3] = ["apple", "pear", "plum"];

#[taria::actions]
impl Probe {
    #[action(node = "save", activate)]
    fn save(&mut self) {
        self.saves += 1;
    }

    #[action(node = "fruits/*", select)]
    fn pick(&mut self, index: usize) {
        self.fruit = index.min(FRUITS.len() - 1);
    }

    #[action(node = "name", focus)]
    fn edit(&mut self) {
        if self.defect == Defect::RepeatChanged {
            self.name.push('e');
        }
        self.editing = true;
    }

    #[action(node = "name", set_value)]
    fn rename(&mut self, value: String) {
        self.name = value;
    }
}

fn row(y: u16) -> Rect {
    Rect::new(0, y, 30, 1)
}

fn draw(frame: &mut Frame<'_>, app: &mut Probe) {
    app.frames += 1;
    let defect = app.defect;
    let saved = if defect == Defect::NoVisibleEffect {
        "[ Save ]".to_owned()
    } else {
        format!("[ Save ] saved {}", app.saves)
    };
    let button_id = if defect == Defect::UnstableIds {
        format!("save-{}", app.frames)
    } else {
        "save".to_owned()
    };
    taria::leaf(|n| {
        n.role(Role::Button)
            .id(button_id.as_str())
            .label(if defect == Defect::Undrawn {
                "Load"
            } else {
                "Save"
            })
            .action(Action::Activate);
        if defect != Defect::ZeroBounds {
            n.bounds(row(0));
        }
    });
    if defect == Defect::Duplicate {
        taria::leaf(|n| {
            n.role(Role::Text).label("Save").bounds(row(0));
        });
    }
    frame.render_widget(Paragraph::new(saved), row(0));
    {
        let _list = taria::scope(|n| {
            n.role(Role::List)
                .id("fruits")
                .bounds(Rect::new(0, 1, 30, 3));
        });
        let highlighted = if defect == Defect::Selection {
            (app.fruit + 1) % FRUITS.len()
        } else {
            app.fruit
        };
        for (i, fruit) in FRUITS.iter().enumerate() {
            taria::leaf(|n| {
                n.role(Role::ListItem)
                    .key(i)
                    .label(*fruit)
                    .index(i)
                    .count(FRUITS.len())
                    .selected(i == app.fruit)
                    .action(Action::Select)
                    .bounds(row(1 + i as u16));
                if defect == Defect::UnperformedOffer {
                    n.action(Action::Activate);
                }
            });
            let style = if i == highlighted {
                Style::new().add_modifier(Modifier::REVERSED)
            } else {
                Style::new()
            };
            frame.render_widget(Line::styled(*fruit, style), row(1 + i as u16));
        }
    }
    taria::leaf(|n| {
        n.role(Role::TextInput)
            .id("name")
            .value(app.name.as_str())
            .focused(app.editing)
            .actions([Action::Focus, Action::SetValue])
            .bounds(row(4));
        if defect != Defect::Accessibility {
            n.label("Name");
        }
    });
    frame.render_widget(Paragraph::new(format!("Name: {}", app.name)), row(4));
    let status = if defect == Defect::ClippedValue {
        "ready\nsteady\ngo"
    } else {
        "ready"
    };
    taria::leaf(|n| {
        n.role(Role::Status).value(status).bounds(row(5));
    });
    frame.render_widget(Paragraph::new(status), row(5));
    if defect == Defect::Clock {
        frame.render_widget(Paragraph::new(format!("up {} frames", app.frames)), row(6));
    }
}

fn audited(defect: Defect) -> AuditReport {
    audit(|| {
        AppHarness::new(
            Probe {
                defect,
                ..Probe::default()
            },
            30,
            7,
            draw,
        )
    })
}

/// The checks the report broke, once each.
fn broken(report: &AuditReport) -> Vec<Check> {
    let mut checks: Vec<Check> = report.violations.iter().map(|v| v.check).collect();
    checks.dedup();
    checks
}

#[test]
fn the_app_built_right_has_no_violations_and_every_action_was_tried() {
    let report = audited(Defect::None);
    assert!(report.is_clean(), "{report}");
    let coverage = report.coverage();
    // save activate, 3 × select, name focus + set_value.
    assert_eq!((coverage.tried, coverage.offered), (6, 6), "{report}");
    assert!(report.untried.is_empty(), "{report}");
    assert!(
        report
            .to_string()
            .starts_with("no violations; tried 6 of 6"),
        "{report}"
    );
    assert_eq!(report.to_json()["clean"], true);
}

#[test]
fn a_label_that_is_not_drawn_is_undrawn() {
    let report = audited(Defect::Undrawn);
    assert_eq!(broken(&report), [Check::Undrawn], "{report}");
    assert_eq!(report.violations[0].node.as_deref(), Some("save"));
}

#[test]
fn a_drawn_node_without_bounds_is_zero_bounds() {
    let report = audited(Defect::ZeroBounds);
    assert_eq!(broken(&report), [Check::ZeroBounds], "{report}");
    assert!(
        report.violations[0].message.contains("\"Save\" is drawn"),
        "{report}"
    );
}

#[test]
fn a_selection_mark_on_an_item_the_screen_does_not_highlight_is_reported() {
    let report = audited(Defect::Selection);
    assert_eq!(broken(&report), [Check::Selection], "{report}");
    let first = &report.violations[0];
    assert_eq!(first.node.as_deref(), Some("fruits/0"), "{report}");
    assert!(
        first
            .message
            .contains("the screen highlights `fruits/1` instead"),
        "{report}"
    );
}

#[test]
fn a_value_taller_than_its_bounds_that_does_not_say_so_is_clipped_value() {
    let report = audited(Defect::ClippedValue);
    assert_eq!(broken(&report), [Check::ClippedValue], "{report}");
    assert!(report.violations[0].message.contains("3 lines"), "{report}");
}

#[test]
fn two_nodes_saying_the_same_in_the_same_place_are_duplicates() {
    let report = audited(Defect::Duplicate);
    assert_eq!(broken(&report), [Check::Duplicate], "{report}");
}

#[test]
fn an_id_that_changes_on_a_redraw_with_no_input_is_unstable() {
    let report = audited(Defect::UnstableIds);
    assert!(broken(&report).contains(&Check::UnstableIds), "{report}");
    let unstable = report
        .violations
        .iter()
        .find(|v| v.check == Check::UnstableIds)
        .unwrap();
    assert!(unstable.message.contains("`save-"), "{report}");
}

#[test]
fn an_input_without_a_label_fails_the_accessibility_lint() {
    let report = audited(Defect::Accessibility);
    assert_eq!(broken(&report), [Check::Accessibility], "{report}");
    assert_eq!(report.violations[0].node.as_deref(), Some("name"));
}

#[test]
fn an_offer_nothing_performs_is_reported_for_each_node() {
    let report = audited(Defect::UnperformedOffer);
    assert_eq!(broken(&report), [Check::UnperformedOffer], "{report}");
    assert_eq!(report.violations.len(), 3, "one per item: {report}");
}

#[test]
fn an_action_delivered_with_nothing_to_show_for_it_is_reported() {
    let report = audited(Defect::NoVisibleEffect);
    assert_eq!(broken(&report), [Check::NoVisibleEffect], "{report}");
    assert_eq!(report.violations[0].node.as_deref(), Some("save"));
}

#[test]
fn a_second_focus_that_types_into_the_field_is_repeat_changed() {
    let report = audited(Defect::RepeatChanged);
    assert_eq!(broken(&report), [Check::RepeatChanged], "{report}");
    assert_eq!(report.violations[0].node.as_deref(), Some("name"));
    assert_eq!(report.to_json()["violations"][0]["check"], "repeat_changed");
}

/// Text that changes with no input outside any node is learned as such and left out
/// of every comparison of screens: a second `select` is not said to change the app
/// because the clock moved between the two.
#[test]
fn a_clock_outside_any_node_is_not_taken_for_an_effect() {
    let report = audited(Defect::Clock);
    assert!(report.is_clean(), "{report}");
    assert_eq!(report.coverage().tried, 6, "{report}");
}

/// Cards of two rows, a title and a note, of which the app highlights the selected
/// card's note only; with `marks_next`, it marks the card after the selected one.
struct Cards {
    selected: usize,
    marks_next: bool,
}

impl taria::Actions for Cards {
    fn handle_action(&mut self, _: &taria::Invocation<'_>) -> taria::Outcome {
        taria::Outcome::NotHandled
    }
}

fn draw_cards(frame: &mut Frame<'_>, cards: &mut Cards) {
    let (selected, marks_next) = (&cards.selected, &cards.marks_next);
    let _cards = taria::scope(|n| {
        n.role(Role::List)
            .id("cards")
            .bounds(Rect::new(0, 0, 30, 6));
    });
    for i in 0..3_usize {
        let top = 2 * i as u16;
        let marked = if *marks_next {
            (*selected + 1) % 3
        } else {
            *selected
        };
        taria::leaf(|n| {
            n.role(Role::ListItem)
                .key(i)
                .label(("card ", i))
                .index(i)
                .count(4)
                .selected(i == marked)
                .bounds(Rect::new(0, top, 30, 2));
        });
        frame.render_widget(Line::from(format!("card {i}")), Rect::new(0, top, 30, 1));
        let note = if i == *selected {
            Style::new().add_modifier(Modifier::REVERSED)
        } else {
            Style::new()
        };
        frame.render_widget(
            Line::styled("due friday", note),
            Rect::new(0, top + 1, 30, 1),
        );
    }
}

/// Found on a kanban port: the selection check read a node's first row only, so a
/// card whose selection shows on a lower row was drawn "like its siblings".
#[test]
fn a_selection_shown_below_an_item_s_first_row_is_seen() {
    let cards = |marks_next| {
        move || {
            let app = Cards {
                selected: 1,
                marks_next,
            };
            AppHarness::new(app, 30, 8, draw_cards)
        }
    };
    let report = audit(cards(false));
    assert!(report.is_clean(), "{report}");
    let report = audit(cards(true));
    assert_eq!(broken(&report), [Check::Selection], "{report}");
    assert_eq!(
        report.violations[0].node.as_deref(),
        Some("cards/2"),
        "{report}"
    );
    assert!(
        report.violations[0]
            .message
            .contains("the screen highlights `cards/1` instead"),
        "{report}"
    );
}
