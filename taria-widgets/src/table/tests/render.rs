//! What a table draws: the same buffer as ratatui's, rows built while recording
//! included.

use ratatui::widgets::StatefulWidget;
use ratatui::widgets::Widget;

use super::*;

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
