//! The frame in pure ratatui: the baseline the annotated frame is measured against.
//!
//! Mirrors [`annotated`](crate::annotated) function for function.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::widgets::Widget;

use crate::data::{Data, Job, Task};
use crate::paint;

/// Draws the frame into `buf` (reset first, as a terminal does between frames).
///
/// ```
/// use taria_benches::{Data, draw_plain, new_buffer};
///
/// let mut buf = new_buffer();
/// draw_plain(&mut buf, &Data::sample());
/// assert_eq!(buf.cell((1, 0)).unwrap().symbol(), "B"); // " Board " tab
/// ```
pub fn draw_plain(buf: &mut Buffer, data: &Data) {
    buf.reset();
    let areas = paint::frame_areas(buf.area, data.jobs.len());
    render_tabs(&data.tabs, data.active_tab, areas.header, buf);
    render_tasks_pane(&data.tasks, data.selected_task, areas.tasks, buf);
    render_jobs_pane(&data.jobs, data.selected_job, areas.jobs, buf);
    if let Some(job) = data.jobs.get(data.selected_job) {
        render_details(job, areas.details, buf);
    }
    render_status(&data.status, areas.footer, buf);
}

fn render_tabs(tabs: &[String], active: usize, area: Rect, buf: &mut Buffer) {
    let mut x = area.x;
    for (i, name) in tabs.iter().enumerate() {
        let tab = paint::tab_area(name, x, area);
        paint::tab(name, i == active, tab, buf);
        x = x.saturating_add(tab.width);
    }
}

fn render_tasks_pane(tasks: &[Task], selected: usize, area: Rect, buf: &mut Buffer) {
    let inner = paint::pane("Tasks", area, buf);
    TaskList { tasks, selected }.render(inner, buf);
}

struct TaskList<'a> {
    tasks: &'a [Task],
    selected: usize,
}

impl Widget for TaskList<'_> {
    fn render(self, area: Rect, buf: &mut Buffer) {
        for (i, task) in self.tasks.iter().enumerate() {
            render_task(i, task, i == self.selected, paint::task_area(i, area), buf);
        }
    }
}

fn render_task(i: usize, task: &Task, selected: bool, area: Rect, buf: &mut Buffer) {
    paint::task(i, &task.title, task.done, selected, area, buf);
}

fn render_jobs_pane(jobs: &[Job], selected: usize, area: Rect, buf: &mut Buffer) {
    let table = paint::pane("Jobs", area, buf);
    let header = paint::row_area(0, table);
    let style = paint::row_style(true, false);
    for (title, cell) in paint::COLUMNS.iter().zip(paint::cell_areas(header)) {
        paint::cell(title, style, cell, buf);
    }
    for (i, job) in jobs.iter().enumerate() {
        let row = paint::row_area(i + 1, table);
        let style = paint::row_style(false, i == selected);
        for (column, cell) in paint::cell_areas(row).into_iter().enumerate() {
            let text = paint::cell_text(job, column);
            paint::cell(&text, style, cell, buf);
        }
    }
}

fn render_details(job: &Job, area: Rect, buf: &mut Buffer) {
    let inner = paint::pane("Details", area, buf);
    let [name, state, owner, gauge] = paint::field_areas(inner);
    for (key, value, field) in [
        ("Name", job.name.as_str(), name),
        ("State", job.state, state),
        ("Owner", job.owner.as_str(), owner),
    ] {
        paint::field(key, value, field, buf);
    }
    paint::progress(job.progress, gauge, buf);
}

fn render_status(message: &str, area: Rect, buf: &mut Buffer) {
    paint::status(message, area, buf);
}
