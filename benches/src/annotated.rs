//! The same frame as [`plain`](crate::plain), annotated for taria: attribute-wrapped
//! render functions and widget impls for the panes, `taria::scope`/`taria::leaf` for
//! what is drawn in loops.
//!
//! Mirrors [`plain`](crate::plain) function for function; the ratatui calls are the same.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::widgets::Widget;
use taria::{Action, Role};

use crate::data::{Data, Job, Task};
use crate::paint;

/// Draws the frame into `buf` (reset first, as a terminal does between frames),
/// recording its semantic tree when a [`taria::widget::Recorder`] is recording.
///
/// ```
/// use taria_benches::{Data, draw_annotated, new_buffer};
///
/// let (mut buf, data) = (new_buffer(), Data::sample());
/// let mut recorder = taria::widget::Recorder::new();
/// recorder.record(|| draw_annotated(&mut buf, &data));
/// let tree = recorder.tree();
/// let task = tree.get("tasks/1007").unwrap();
/// assert_eq!(task.label.as_deref(), Some("Task 7: Review error messages"));
/// assert!(task.state.selected);
/// ```
#[taria::widget(role = app, id = "board", label = "Task board", bounds = buf.area)]
pub fn draw_annotated(buf: &mut Buffer, data: &Data) {
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

#[taria::widget(role = tabs, id = "tabs", label = "Views", actions(select))]
fn render_tabs(tabs: &[String], active: usize, area: Rect, buf: &mut Buffer) {
    let mut x = area.x;
    for (i, name) in tabs.iter().enumerate() {
        let tab = paint::tab_area(name, x, area);
        taria::leaf(|n| {
            n.role(Role::Tab)
                .key(name)
                .label(name)
                .index(i)
                .count(tabs.len())
                .selected(i == active)
                .action(Action::Activate)
                .bounds(tab);
        });
        paint::tab(name, i == active, tab, buf);
        x = x.saturating_add(tab.width);
    }
}

#[taria::widget(role = region, id = "tasks-pane", label = "Tasks")]
fn render_tasks_pane(tasks: &[Task], selected: usize, area: Rect, buf: &mut Buffer) {
    let inner = paint::pane("Tasks", area, buf);
    TaskList { tasks, selected }.render(inner, buf);
}

struct TaskList<'a> {
    tasks: &'a [Task],
    selected: usize,
}

#[taria::widget(
    role = list,
    id = "tasks",
    label = "Tasks",
    count = self.tasks.len(),
    scroll(0, self.tasks.len(), self.tasks.len()),
    actions(select, scroll)
)]
impl Widget for TaskList<'_> {
    fn render(self, area: Rect, buf: &mut Buffer) {
        for (i, task) in self.tasks.iter().enumerate() {
            render_task(i, task, i == self.selected, paint::task_area(i, area), buf);
        }
    }
}

#[taria::widget(
    role = list_item,
    key = id,
    label = "Task {i}: {title}",
    index = i,
    selected = selected,
    checked = *done,
    actions(select, toggle = key("space"))
)]
fn render_task(
    i: usize,
    Task { id, title, done }: &Task,
    selected: bool,
    area: Rect,
    buf: &mut Buffer,
) {
    paint::task(i, title, *done, selected, area, buf);
}

#[taria::widget(role = region, id = "jobs-pane", label = "Jobs")]
fn render_jobs_pane(jobs: &[Job], selected: usize, area: Rect, buf: &mut Buffer) {
    let table = paint::pane("Jobs", area, buf);
    let _table = taria::scope(|n| {
        n.role(Role::Table)
            .id("jobs")
            .label("Jobs")
            .count(jobs.len())
            .actions([Action::Select, Action::Scroll])
            .bounds(table);
    });
    let header = paint::row_area(0, table);
    let style = paint::row_style(true, false);
    {
        let _header = taria::scope(|n| {
            n.role(Role::Row).key("header").bounds(header);
        });
        for (title, cell) in paint::COLUMNS.iter().zip(paint::cell_areas(header)) {
            taria::leaf(|n| {
                n.role(Role::ColumnHeader)
                    .key(title)
                    .label(title)
                    .bounds(cell);
            });
            paint::cell(title, style, cell, buf);
        }
    }
    for (i, job) in jobs.iter().enumerate() {
        let row = paint::row_area(i + 1, table);
        let style = paint::row_style(false, i == selected);
        let _row = taria::scope(|n| {
            n.role(Role::Row)
                .key(&job.name)
                .index(i)
                .count(jobs.len())
                .selected(i == selected)
                .action(Action::Select)
                .bounds(row);
        });
        for (column, cell) in paint::cell_areas(row).into_iter().enumerate() {
            let text = paint::cell_text(job, column);
            taria::leaf(|n| {
                n.role(Role::Cell)
                    .key(paint::COLUMNS[column])
                    .label(&text)
                    .bounds(cell);
            });
            paint::cell(&text, style, cell, buf);
        }
    }
}

#[taria::widget(role = form, id = "details", label("Job {}", job.name))]
fn render_details(job: &Job, area: Rect, buf: &mut Buffer) {
    let inner = paint::pane("Details", area, buf);
    let [name, state, owner, gauge] = paint::field_areas(inner);
    for (key, value, field) in [
        ("Name", job.name.as_str(), name),
        ("State", job.state, state),
        ("Owner", job.owner.as_str(), owner),
    ] {
        taria::leaf(|n| {
            n.role(Role::Text)
                .key(key)
                .label(key)
                .value(value)
                .readonly(true)
                .bounds(field);
        });
        paint::field(key, value, field, buf);
    }
    taria::leaf(|n| {
        n.role(Role::Progress)
            .key("progress")
            .label("Progress")
            .value(job.progress)
            .min(0)
            .max(100)
            .bounds(gauge);
    });
    paint::progress(job.progress, gauge, buf);
}

#[taria::widget(role = status, id = "status", label = "{message}")]
fn render_status(message: &str, area: Rect, buf: &mut Buffer) {
    paint::status(message, area, buf);
}
