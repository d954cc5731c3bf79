//! Times one frame of the `taria_benches` task board, drawn into a reused buffer:
//! plain ratatui, annotated with no recorder or a disabled one, and annotated while
//! a recorder (reused across iterations) records it.
//!
//! Run with `cargo bench -p taria-benches --bench frame`. The frame benches count the
//! annotated frame's nodes as items, so divan's throughput column is nodes per second;
//! `enabled_per_node` records as many nodes (a list and its items) without drawing,
//! to time recording alone. The `bare_text_*` benches draw bare `Line`s through
//! `Frame::render_widget`, where the macros' bare-text probe runs.

use divan::counter::ItemsCount;
use divan::{Bencher, black_box};
use ratatui::layout::Rect;
use taria::widget::Recorder;
use taria::{Action, Role};
use taria_benches::{ANNOTATED_NODES, Data, HEIGHT, WIDTH, draw_annotated, draw_plain, new_buffer};

fn main() {
    println!("frame: {WIDTH}x{HEIGHT} cells, {ANNOTATED_NODES} nodes recorded per annotated frame");
    // One frame is ~0.2 ms, so 1000 one-frame samples take ~0.2 s per bench: enough
    // for a stable median on a noisy machine. `--sample-count` still overrides it.
    divan::Divan::default()
        .sample_count(1000)
        .config_with_args()
        .main();
}

fn nodes() -> ItemsCount {
    ItemsCount::new(ANNOTATED_NODES)
}

/// Pure ratatui: the baseline.
#[divan::bench]
fn plain(bencher: Bencher<'_, '_>) {
    let (mut buf, data) = (new_buffer(), Data::sample());
    bencher
        .counter(nodes())
        .bench_local(|| draw_plain(black_box(&mut buf), black_box(&data)));
}

/// Annotated, no recorder at all: every annotation is one flag check.
#[divan::bench]
fn annotated_no_recorder(bencher: Bencher<'_, '_>) {
    let (mut buf, data) = (new_buffer(), Data::sample());
    bencher
        .counter(nodes())
        .bench_local(|| draw_annotated(black_box(&mut buf), black_box(&data)));
}

/// Annotated, drawn through a recorder that is switched off.
#[divan::bench]
fn annotated_disabled(bencher: Bencher<'_, '_>) {
    let (mut buf, data) = (new_buffer(), Data::sample());
    let mut recorder = Recorder::new();
    recorder.set_enabled(false);
    bencher.counter(nodes()).bench_local(|| {
        recorder.record(|| draw_annotated(black_box(&mut buf), black_box(&data)));
    });
}

/// Annotated and recorded; the recorder (and its arena) is reused frame after frame.
#[divan::bench]
fn annotated_enabled(bencher: Bencher<'_, '_>) {
    let (mut buf, data) = (new_buffer(), Data::sample());
    let mut recorder = Recorder::new();
    recorder.record(|| draw_annotated(&mut buf, &data));
    assert_eq!(recorder.node_count(), ANNOTATED_NODES);
    bencher.counter(nodes()).bench_local(|| {
        recorder.record(|| draw_annotated(black_box(&mut buf), black_box(&data)));
    });
}

/// Recording alone: a list of `ANNOTATED_NODES - 1` items, each described like the
/// frame's task items (key, formatted label, index, state, actions, bounds), and
/// nothing drawn. Time per item is the recorder's cost per node. The label is given in
/// parts, as `#[taria::widget(label = "Task {i}: {title}")]` passes it.
#[divan::bench]
fn enabled_per_node(bencher: Bencher<'_, '_>) {
    record_items(bencher, |n, i, title| {
        n.label(("Task ", i, ": ", title));
    });
}

/// [`enabled_per_node`] with the label formatted by `format_args!`, as the macros
/// expanded `label = "Task {i}: {title}"` before they wrote it part by part.
#[divan::bench]
fn enabled_per_node_format_args(bencher: Bencher<'_, '_>) {
    record_items(bencher, |n, i, title| {
        n.label(format_args!("Task {i}: {title}"));
    });
}

/// The two benches above, differing only in how `label` gives the item's label.
fn record_items(
    bencher: Bencher<'_, '_>,
    label: impl Fn(&mut taria::NodeBuilder<'_>, usize, &str),
) {
    let data = Data::sample();
    let mut recorder = Recorder::new();
    let mut record = || {
        recorder.record(|| {
            let _list = taria::scope(|n| {
                n.role(Role::List).id("tasks").label("Tasks");
            });
            for i in 0..ANNOTATED_NODES - 1 {
                let task = &data.tasks[i % data.tasks.len()];
                taria::leaf(|n| {
                    n.role(Role::ListItem)
                        .key(task.id + 1000 * (i / data.tasks.len()) as u32);
                    label(n, i, &task.title);
                    n.index(i)
                        .selected(i == data.selected_task)
                        .checked(task.done)
                        .action(Action::Select)
                        .key_fallback(Action::Toggle, "space")
                        .bounds(Rect::new(0, i as u16, 40, 1));
                });
            }
        });
    };
    record();
    bencher.counter(nodes()).bench_local(record);
    assert_eq!(recorder.node_count(), ANNOTATED_NODES);
}

/// Text lines drawn bare with `Frame::render_widget`, as a help popup draws them: the
/// calls `#[taria::widget]` and `#[taria::app]` rewrite with the bare-text probe.
const BARE_LINES: u16 = 40;

fn bare_text_frame() -> ratatui::Terminal<ratatui::backend::TestBackend> {
    ratatui::Terminal::new(ratatui::backend::TestBackend::new(WIDTH, HEIGHT))
        .expect("a test backend")
}

fn draw_bare_plain(frame: &mut ratatui::Frame<'_>) {
    for row in 0..BARE_LINES {
        let area = Rect::new(0, row, WIDTH, 1);
        frame.render_widget(
            ratatui::text::Line::from("q quits | ? help | / search | n next"),
            area,
        );
    }
}

#[taria::widget(role = region, id = "help", label = "Help")]
fn draw_bare_annotated(frame: &mut ratatui::Frame<'_>) {
    for row in 0..BARE_LINES {
        let area = Rect::new(0, row, WIDTH, 1);
        frame.render_widget(
            ratatui::text::Line::from("q quits | ? help | / search | n next"),
            area,
        );
    }
}

/// Bare text, plain: the baseline for the probe.
#[divan::bench]
fn bare_text_plain(bencher: Bencher<'_, '_>) {
    let mut terminal = bare_text_frame();
    bencher.bench_local(|| draw_bare_plain(black_box(&mut terminal.get_frame())));
}

/// Bare text through the probe, no recorder: what an app pays with no agent.
#[divan::bench]
fn bare_text_annotated_no_recorder(bencher: Bencher<'_, '_>) {
    let mut terminal = bare_text_frame();
    bencher.bench_local(|| draw_bare_annotated(black_box(&mut terminal.get_frame())));
}

/// Bare text through the probe, recorded: one `text` node per line.
#[divan::bench]
fn bare_text_annotated_enabled(bencher: Bencher<'_, '_>) {
    let mut terminal = bare_text_frame();
    let mut recorder = Recorder::new();
    recorder.record(|| draw_bare_annotated(&mut terminal.get_frame()));
    assert_eq!(recorder.node_count(), 1 + usize::from(BARE_LINES));
    bencher.bench_local(|| {
        recorder.record(|| draw_bare_annotated(black_box(&mut terminal.get_frame())));
    });
}

/// A whole frame through a ratatui `Terminal` (a `TestBackend`): the baseline of the
/// session benches below.
#[divan::bench]
fn terminal_draw_plain(bencher: Bencher<'_, '_>) {
    let mut terminal = bare_text_frame();
    let data = Data::sample();
    bencher.counter(nodes()).bench_local(|| {
        terminal
            .draw(|frame| draw_annotated(frame.buffer_mut(), black_box(&data)))
            .expect("drawn");
    });
}

/// The same frame through `Session::draw` with nobody reading: no bridge, and the
/// screen-reader export (cargo feature `atspi`) started when `screen_reader`, idle.
fn session_draw(bencher: Bencher<'_, '_>, screen_reader: bool) {
    let dir = std::env::temp_dir().join(format!("taria-bench-{}", std::process::id()));
    let mut session = taria::Session::builder("bench")
        .socket(dir.join(format!("{screen_reader}.sock")))
        .terminal_input(false)
        .screen_reader(screen_reader)
        .start();
    let mut terminal = bare_text_frame();
    let data = Data::sample();
    bencher.counter(nodes()).bench_local(|| {
        session
            .draw(&mut terminal, |frame| {
                draw_annotated(frame.buffer_mut(), black_box(&data));
            })
            .expect("drawn");
    });
    drop(session);
    let _ = std::fs::remove_dir_all(&dir);
}

/// [`session_draw`] with the export off (`SessionBuilder::screen_reader(false)`, or
/// built without the `atspi` feature).
#[divan::bench]
fn session_draw_screen_reader_off(bencher: Bencher<'_, '_>) {
    session_draw(bencher, false);
}

/// [`session_draw`] with the export started (with `--features atspi`) and no screen
/// reader reading: one flag checked per frame.
#[divan::bench]
fn session_draw_screen_reader_idle(bencher: Bencher<'_, '_>) {
    session_draw(bencher, true);
}
