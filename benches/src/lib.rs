//! One realistic frame, drawn two ways, for taria's benchmarks and allocation tests.
//!
//! [`draw_plain`] is a task board in pure ratatui: a tab header, a 100-item task
//! list, a 20 × 5 job table, a details form and a status line. [`draw_annotated`]
//! makes the same ratatui calls plus taria annotations — `#[taria::widget]` on
//! render functions and a widget impl, `taria::scope`/`taria::leaf` in loops — for
//! [`ANNOTATED_NODES`] nodes. Both draw into a reused [`Buffer`], as a terminal's
//! back buffer is reused, so what is measured is drawing, not terminal I/O.
//!
//! ```
//! use taria_benches::{ANNOTATED_NODES, Data, draw_annotated, draw_plain, new_buffer};
//!
//! let data = Data::sample();
//! let (mut plain, mut annotated) = (new_buffer(), new_buffer());
//! draw_plain(&mut plain, &data);
//! let mut recorder = taria::widget::Recorder::new();
//! recorder.record(|| draw_annotated(&mut annotated, &data));
//! assert_eq!(plain, annotated);
//! assert_eq!(recorder.node_count(), ANNOTATED_NODES);
//! ```

mod annotated;
mod data;
mod paint;
mod plain;

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;

pub use annotated::draw_annotated;
pub use data::{Data, JOBS, Job, TASKS, Task};
pub use plain::draw_plain;

/// The frame's width in cells.
pub const WIDTH: u16 = 200;
/// The frame's height in cells.
pub const HEIGHT: u16 = 60;

/// How many nodes [`draw_annotated`] records for [`Data::sample`]: the app, the tabs
/// (1 + 4), the task pane, list and items (2 + 100), the job pane, table, header row
/// and cells (3 + 5), the job rows and cells (20 × 6), the details form and fields
/// (1 + 4) and the status line.
pub const ANNOTATED_NODES: usize = 1 + (1 + 4) + (2 + TASKS) + (3 + 5) + JOBS * 6 + (1 + 4) + 1;

const _: () = assert!(
    ANNOTATED_NODES >= 200,
    "the frame must record at least 200 nodes"
);

/// An empty [`WIDTH`] × [`HEIGHT`] buffer to draw the frame into.
#[must_use]
pub fn new_buffer() -> Buffer {
    Buffer::empty(Rect::new(0, 0, WIDTH, HEIGHT))
}

#[cfg(test)]
mod tests {
    use super::*;
    use taria::Role;
    use taria::widget::Recorder;

    #[test]
    fn annotated_frame_draws_exactly_what_the_plain_frame_draws() {
        let mut data = Data::sample();
        let (mut plain, mut annotated) = (new_buffer(), new_buffer());
        let mut recorder = Recorder::new();
        for (selected_task, selected_job) in [(7, 3), (0, 0), (99, 19), (55, 10)] {
            data.selected_task = selected_task;
            data.selected_job = selected_job;
            draw_plain(&mut plain, &data);
            recorder.record(|| draw_annotated(&mut annotated, &data));
            assert_eq!(plain, annotated);
            // Not recording draws the same too.
            draw_annotated(&mut annotated, &data);
            assert_eq!(plain, annotated);
        }
        // A buffer that already held something is reset first.
        assert_ne!(plain, new_buffer());
    }

    #[test]
    fn plain_frame_shows_every_part() {
        let mut buf = new_buffer();
        draw_plain(&mut buf, &Data::sample());
        let text: String = buf
            .content()
            .iter()
            .map(ratatui::buffer::Cell::symbol)
            .collect();
        for part in [
            " Board ",
            "Tasks",
            "  7. Review error messages",
            " 99. Fix login flow",
            "job-19",
            "Elapsed",
            "Details",
            "Owner: dmitri",
            "Connected to build server",
        ] {
            assert!(text.contains(part), "{part:?} is not on screen");
        }
    }

    #[test]
    fn annotated_frame_records_every_node_with_its_bounds() {
        let (mut buf, data) = (new_buffer(), Data::sample());
        let mut recorder = Recorder::new();
        recorder.record(|| draw_annotated(&mut buf, &data));
        assert_eq!(recorder.node_count(), ANNOTATED_NODES);
        let tree = recorder.tree();
        assert!(tree.diagnostics.is_empty(), "{:?}", tree.diagnostics);
        let task = tree.get("tasks/1099").expect("last task");
        assert_eq!(task.role, Role::ListItem);
        assert_eq!(task.label.as_deref(), Some("Task 99: Fix login flow"));
        let cell = tree.get("jobs/job-03/Progress").expect("a cell");
        assert_eq!(cell.label.as_deref(), Some(" 10%"));
        let symbol = |x, y| buf.cell((x, y)).map(ratatui::buffer::Cell::symbol);
        // The cell's bounds are where its text was drawn.
        assert_eq!(symbol(cell.bounds.x + 3, cell.bounds.y), Some("%"));
        assert_eq!(tree.get("status").map(|s| s.bounds.y), Some(HEIGHT - 1));
    }
}
