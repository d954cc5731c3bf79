//! Times taria-widgets against the ratatui widgets they wrap: each widget built and
//! rendered into a reused buffer, as an app does every frame — ratatui's widget
//! (`ratatui`), ours inside a disabled recorder (`disabled`), ours recorded
//! (`enabled`, one recorder reused). `huge_table` renders a table of 1,000 or
//! 100,000 rows with 40 on screen, the table built outside the timing, to show that
//! recording costs what the visible rows cost.
//!
//! Run with `cargo bench -p taria-benches --bench widgets`.

use divan::{Bencher, black_box};
use ratatui::buffer::Buffer;
use ratatui::layout::{Constraint, Rect};
use ratatui::widgets::{StatefulWidget, Widget};
use taria::Recorder;

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
        Mode::Ratatui => bencher.bench_local(|| draw(black_box(&mut buf))),
        Mode::Disabled | Mode::Enabled => {
            bencher.bench_local(|| recorder.record(|| draw(black_box(&mut buf))));
        }
    }
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

/// A table of `rows` rows, 40 on screen, built outside the timing: the recorded cost
/// (`enabled` − `disabled`) must not grow with `rows`.
#[divan::bench(consts = [1_000, 100_000], args = [Mode::Disabled, Mode::Enabled])]
fn huge_table<const ROWS: usize>(bencher: Bencher<'_, '_>, mode: Mode) {
    let area = Rect::new(0, 0, 40, 40);
    let mut buf = Buffer::empty(area);
    let mut state = ratatui::widgets::TableState::default().with_selected(Some(ROWS / 2));
    let mut recorder = Recorder::new();
    recorder.set_enabled(mode == Mode::Enabled);
    let make = || {
        let rows = (0..ROWS).map(|i| taria_widgets::Row::new([WORDS[i % 8], WORDS[(i + 1) % 8]]));
        taria_widgets::Table::new(rows, [Constraint::Length(10), Constraint::Fill(1)]).id("big")
    };
    recorder.record(|| StatefulWidget::render(make(), area, &mut buf, &mut state));
    bencher.with_inputs(make).bench_local_values(|table| {
        recorder.record(|| StatefulWidget::render(table, area, black_box(&mut buf), &mut state));
    });
}
