//! Times taria-widgets against the ratatui widgets they wrap: each widget built and
//! rendered into a reused buffer, as an app does every frame — ratatui's widget
//! (`ratatui`), ours inside a disabled recorder (`disabled`), ours recorded
//! (`enabled`, one recorder reused). `huge_table` renders a table of 1,000 or
//! 100,000 rows with 40 on screen, the table built outside the timing, to show that
//! recording costs what the visible rows cost; `huge_table_built` the same table built
//! inside the frame, as an app's draw closure builds it.
//!
//! Run with `cargo bench -p taria-benches --bench widgets`. Each iteration's work runs
//! inside `ratatui_frame`, `disabled_frame` or `enabled_frame`, functions that are never
//! inlined, so that callgrind counts exactly that work (see `benches/README.md`).

use divan::{Bencher, black_box};
use ratatui::buffer::Buffer;
use ratatui::layout::{Constraint, Rect};
use ratatui::widgets::{StatefulWidget, Widget};
use taria::widget::Recorder;

fn main() {
    divan::Divan::default()
        .sample_count(1000)
        .config_with_args()
        .main();
}

const WORDS: [&str; 8] = [
    "alpha", "beta", "gamma", "delta", "epsilon", "zeta", "eta", "theta",
];

fn ratatui_block(title: &str) -> ratatui::widgets::Block<'_> {
    ratatui::widgets::Block::bordered().title(title)
}

fn block(title: &str) -> taria_widgets::Block<'_> {
    taria_widgets::Block::bordered().title(title)
}

/// Runs `draw` into a reused buffer of `area`: plain, through a disabled recorder, or
/// recording.
fn run(bencher: Bencher<'_, '_>, area: Rect, mode: Mode, mut draw: impl FnMut(&mut Buffer)) {
    let mut buf = Buffer::empty(area);
    let mut recorder = Recorder::new();
    recorder.set_enabled(mode == Mode::Enabled);
    recorder.record(|| draw(&mut buf));
    match mode {
        Mode::Ratatui => bencher.bench_local(|| ratatui_frame(|| draw(black_box(&mut buf)))),
        Mode::Disabled => {
            bencher
                .bench_local(|| disabled_frame(|| recorder.record(|| draw(black_box(&mut buf)))));
        }
        Mode::Enabled => {
            bencher.bench_local(|| enabled_frame(|| recorder.record(|| draw(black_box(&mut buf)))));
        }
    }
}

// One iteration's work, in a function of its own per mode, never inlined: callgrind's
// inclusive cost of each is exactly what that mode's iterations cost.

#[inline(never)]
fn ratatui_frame(f: impl FnOnce()) {
    f();
}

#[inline(never)]
fn disabled_frame(f: impl FnOnce()) {
    f();
}

#[inline(never)]
fn enabled_frame(f: impl FnOnce()) {
    f();
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Mode {
    Ratatui,
    Disabled,
    Enabled,
}

const MODES: [Mode; 3] = [Mode::Ratatui, Mode::Disabled, Mode::Enabled];

/// 200 items, 50 on screen.
#[divan::bench(args = MODES)]
fn list(bencher: Bencher<'_, '_>, mode: Mode) {
    let area = Rect::new(0, 0, 40, 52);
    let items = || WORDS.iter().cycle().take(200).copied();
    let mut state = ratatui::widgets::ListState::default().with_selected(Some(70));
    run(bencher, area, mode, |buf| {
        if mode == Mode::Ratatui {
            let list = ratatui::widgets::List::new(items())
                .block(ratatui_block("Tasks"))
                .highlight_symbol("> ");
            StatefulWidget::render(list, area, buf, &mut state);
        } else {
            let list = taria_widgets::List::new(items())
                .block(block("Tasks"))
                .highlight_symbol("> ")
                .id("tasks");
            StatefulWidget::render(list, area, buf, &mut state);
        }
    });
}

/// 200 rows × 3 columns with a header, 50 rows on screen.
#[divan::bench(args = MODES)]
fn table(bencher: Bencher<'_, '_>, mode: Mode) {
    let area = Rect::new(0, 0, 60, 53);
    let widths = [
        Constraint::Length(8),
        Constraint::Fill(1),
        Constraint::Length(10),
    ];
    let mut state = ratatui::widgets::TableState::default().with_selected(Some(70));
    run(bencher, area, mode, |buf| {
        let cells = |i: usize| [WORDS[i % 8], WORDS[(i + 3) % 8], WORDS[(i + 5) % 8]];
        if mode == Mode::Ratatui {
            let rows = (0..200).map(|i| ratatui::widgets::Row::new(cells(i)));
            let table = ratatui::widgets::Table::new(rows, widths)
                .header(ratatui::widgets::Row::new(["Id", "Name", "Owner"]))
                .block(ratatui_block("Jobs"))
                .highlight_symbol(">");
            StatefulWidget::render(table, area, buf, &mut state);
        } else {
            let rows = (0..200).map(|i| taria_widgets::Row::new(cells(i)));
            let table = taria_widgets::Table::new(rows, widths)
                .header(taria_widgets::Row::new(["Id", "Name", "Owner"]))
                .block(block("Jobs"))
                .highlight_symbol(">")
                .id("jobs");
            StatefulWidget::render(table, area, buf, &mut state);
        }
    });
}

#[divan::bench(args = MODES)]
fn tabs(bencher: Bencher<'_, '_>, mode: Mode) {
    let area = Rect::new(0, 0, 60, 1);
    run(bencher, area, mode, |buf| {
        if mode == Mode::Ratatui {
            ratatui::widgets::Tabs::new(WORDS)
                .select(2)
                .render(area, buf);
        } else {
            taria_widgets::Tabs::new(WORDS)
                .select(2)
                .id("tabs")
                .render(area, buf);
        }
    });
}

#[divan::bench(args = MODES)]
fn paragraph(bencher: Bencher<'_, '_>, mode: Mode) {
    let area = Rect::new(0, 0, 60, 12);
    let text = "The quick brown fox jumps over the lazy dog.\n".repeat(10);
    run(bencher, area, mode, |buf| {
        if mode == Mode::Ratatui {
            ratatui::widgets::Paragraph::new(text.as_str())
                .block(ratatui_block("Log"))
                .render(area, buf);
        } else {
            taria_widgets::Paragraph::new(text.as_str())
                .block(block("Log"))
                .id("log")
                .render(area, buf);
        }
    });
}

#[divan::bench(args = MODES)]
fn gauge(bencher: Bencher<'_, '_>, mode: Mode) {
    let area = Rect::new(0, 0, 60, 3);
    run(bencher, area, mode, |buf| {
        if mode == Mode::Ratatui {
            ratatui::widgets::Gauge::default()
                .ratio(0.4)
                .block(ratatui_block("Upload"))
                .render(area, buf);
        } else {
            taria_widgets::Gauge::default()
                .ratio(0.4)
                .block(block("Upload"))
                .id("up")
                .render(area, buf);
        }
    });
}

#[divan::bench(args = MODES)]
fn line_gauge(bencher: Bencher<'_, '_>, mode: Mode) {
    let area = Rect::new(0, 0, 60, 1);
    run(bencher, area, mode, |buf| {
        if mode == Mode::Ratatui {
            ratatui::widgets::LineGauge::default()
                .ratio(0.4)
                .label("Disk")
                .render(area, buf);
        } else {
            taria_widgets::LineGauge::default()
                .ratio(0.4)
                .label("Disk")
                .id("disk")
                .render(area, buf);
        }
    });
}

#[divan::bench(args = MODES)]
fn scrollbar(bencher: Bencher<'_, '_>, mode: Mode) {
    use ratatui::widgets::ScrollbarOrientation::VerticalRight;
    let area = Rect::new(0, 0, 1, 50);
    let mut ours = taria_widgets::ScrollbarState::new(500).position(120);
    let mut theirs = ratatui::widgets::ScrollbarState::new(500).position(120);
    run(bencher, area, mode, |buf| {
        if mode == Mode::Ratatui {
            ratatui::widgets::Scrollbar::new(VerticalRight).render(area, buf, &mut theirs);
        } else {
            taria_widgets::Scrollbar::new(VerticalRight)
                .id("bar")
                .render(area, buf, &mut ours);
        }
    });
}

/// 120 values, a titled block.
#[divan::bench(args = MODES)]
fn sparkline(bencher: Bencher<'_, '_>, mode: Mode) {
    let area = Rect::new(0, 0, 122, 10);
    let data: Vec<u64> = (0..120u64).map(|i| i * 37 % 101).collect();
    run(bencher, area, mode, |buf| {
        if mode == Mode::Ratatui {
            ratatui::widgets::Sparkline::default()
                .data(&data)
                .block(ratatui_block("CPU"))
                .render(area, buf);
        } else {
            taria_widgets::Sparkline::default()
                .data(&data)
                .block(block("CPU"))
                .id("cpu")
                .render(area, buf);
        }
    });
}

/// 12 labelled bars, a titled block.
#[divan::bench(args = MODES)]
fn bar_chart(bencher: Bencher<'_, '_>, mode: Mode) {
    let area = Rect::new(0, 0, 40, 12);
    let data: Vec<(&str, u64)> = (0..12)
        .map(|i| (WORDS[i % 8], (i * 7 % 13) as u64))
        .collect();
    run(bencher, area, mode, |buf| {
        if mode == Mode::Ratatui {
            ratatui::widgets::BarChart::default()
                .data(&data)
                .bar_width(2)
                .block(ratatui_block("Commits"))
                .render(area, buf);
        } else {
            taria_widgets::BarChart::default()
                .data(&data)
                .bar_width(2)
                .block(block("Commits"))
                .id("commits")
                .render(area, buf);
        }
    });
}

/// Two series of 200 points, braille lines, both axes titled and labelled.
#[divan::bench(args = MODES)]
fn chart(bencher: Bencher<'_, '_>, mode: Mode) {
    use ratatui::symbols::Marker;
    use ratatui::widgets::GraphType;
    let area = Rect::new(0, 0, 80, 24);
    let cpu: Vec<(f64, f64)> = (0..200)
        .map(|i| (f64::from(i), f64::from(i * 37 % 101)))
        .collect();
    let mem: Vec<(f64, f64)> = (0..200)
        .map(|i| (f64::from(i), f64::from(40 + i % 20)))
        .collect();
    run(bencher, area, mode, |buf| {
        if mode == Mode::Ratatui {
            use ratatui::widgets::{Axis, Chart, Dataset};
            let datasets = vec![
                Dataset::default()
                    .name("cpu")
                    .data(&cpu)
                    .marker(Marker::Braille)
                    .graph_type(GraphType::Line),
                Dataset::default()
                    .name("mem")
                    .data(&mem)
                    .marker(Marker::Braille)
                    .graph_type(GraphType::Line),
            ];
            Chart::new(datasets)
                .block(ratatui_block("Load"))
                .x_axis(
                    Axis::default()
                        .title("time")
                        .bounds([0.0, 200.0])
                        .labels(["0", "100", "200"]),
                )
                .y_axis(
                    Axis::default()
                        .title("%")
                        .bounds([0.0, 100.0])
                        .labels(["0", "50", "100"]),
                )
                .render(area, buf);
        } else {
            use taria_widgets::{Axis, Chart, Dataset};
            let datasets = vec![
                Dataset::default()
                    .name("cpu")
                    .data(&cpu)
                    .marker(Marker::Braille)
                    .graph_type(GraphType::Line),
                Dataset::default()
                    .name("mem")
                    .data(&mem)
                    .marker(Marker::Braille)
                    .graph_type(GraphType::Line),
            ];
            Chart::new(datasets)
                .block(block("Load"))
                .x_axis(
                    Axis::default()
                        .title("time")
                        .bounds([0.0, 200.0])
                        .labels(["0", "100", "200"]),
                )
                .y_axis(
                    Axis::default()
                        .title("%")
                        .bounds([0.0, 100.0])
                        .labels(["0", "50", "100"]),
                )
                .id("load")
                .render(area, buf);
        }
    });
}

/// A line and a circle on a braille canvas.
#[divan::bench(args = MODES)]
fn canvas(bencher: Bencher<'_, '_>, mode: Mode) {
    use ratatui::style::Color;
    use ratatui::widgets::canvas::{Circle, Context, Line};
    let area = Rect::new(0, 0, 60, 20);
    let paint = |ctx: &mut Context<'_>| {
        ctx.draw(&Line::new(0.0, 0.0, 100.0, 100.0, Color::Red));
        ctx.draw(&Circle {
            x: 50.0,
            y: 50.0,
            radius: 30.0,
            color: Color::Blue,
        });
    };
    run(bencher, area, mode, |buf| {
        if mode == Mode::Ratatui {
            ratatui::widgets::canvas::Canvas::default()
                .block(ratatui_block("Map"))
                .x_bounds([0.0, 100.0])
                .y_bounds([0.0, 100.0])
                .paint(paint)
                .render(area, buf);
        } else {
            taria_widgets::Canvas::default()
                .block(block("Map"))
                .x_bounds([0.0, 100.0])
                .y_bounds([0.0, 100.0])
                .paint(paint)
                .id("map")
                .render(area, buf);
        }
    });
}

/// A table of `rows` rows, 40 on screen, built outside the timing (in the mode's
/// recording state): what recording adds to the frame (enabled − disabled) must not
/// grow with `rows`.
/// The two modes' frame functions have identical bodies here and may be merged by the
/// compiler: measure each mode in a run of its own (`huge_table::1000::Enabled`).
#[divan::bench(consts = [1_000, 100_000], args = [Mode::Disabled, Mode::Enabled])]
fn huge_table<const ROWS: usize>(bencher: Bencher<'_, '_>, mode: Mode) {
    let area = Rect::new(0, 0, 40, 40);
    let mut buf = Buffer::empty(area);
    let mut state = ratatui::widgets::TableState::default().with_selected(Some(ROWS / 2));
    let mut recorder = Recorder::new();
    recorder.set_enabled(mode == Mode::Enabled);
    // The table is built in the same recording state as it is drawn in, as an app
    // building it in its draw closure does; a second recorder, so building is not timed.
    let mut builder = Recorder::new();
    builder.set_enabled(mode == Mode::Enabled);
    let make = || {
        let rows = (0..ROWS).map(|i| taria_widgets::Row::new([WORDS[i % 8], WORDS[(i + 1) % 8]]));
        taria_widgets::Table::new(rows, [Constraint::Length(10), Constraint::Fill(1)]).id("big")
    };
    recorder.record(|| StatefulWidget::render(make(), area, &mut buf, &mut state));
    let mut frame = |recorder: &mut Recorder, table: taria_widgets::Table<'static>| {
        recorder.record(|| StatefulWidget::render(table, area, black_box(&mut buf), &mut state));
    };
    bencher
        .with_inputs(|| builder.record(make))
        .bench_local_values(|table| match mode {
            Mode::Enabled => enabled_frame(|| frame(&mut recorder, table)),
            _ => disabled_frame(|| frame(&mut recorder, table)),
        });
}

/// A table of `rows` rows built *and* drawn inside the frame, as an app's draw
/// closure does: what recording adds to that frame (enabled − disabled) must not grow
/// with `rows` either. Measure each mode in a run of its own, as for `huge_table`.
#[divan::bench(consts = [1_000, 100_000], args = [Mode::Disabled, Mode::Enabled])]
fn huge_table_built<const ROWS: usize>(bencher: Bencher<'_, '_>, mode: Mode) {
    let area = Rect::new(0, 0, 40, 40);
    let mut state = ratatui::widgets::TableState::default().with_selected(Some(ROWS / 2));
    run(bencher, area, mode, |buf| {
        let rows = (0..ROWS).map(|i| taria_widgets::Row::new([WORDS[i % 8], WORDS[(i + 1) % 8]]));
        let table = taria_widgets::Table::new(rows, [Constraint::Length(10), Constraint::Fill(1)])
            .id("big");
        StatefulWidget::render(table, area, buf, &mut state);
    });
}
