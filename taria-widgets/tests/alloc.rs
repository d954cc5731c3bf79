//! With recording off, building and rendering a taria List or Table allocates
//! exactly what ratatui's does: the same allocations, the same bytes (a list's
//! checked states and keys included: they are kept only while recording).

#![expect(unsafe_code, reason = "a counting global allocator forwards to System")]

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

use ratatui::buffer::Buffer;
use ratatui::layout::{Constraint, Rect};
use ratatui::widgets::StatefulWidget;

thread_local! {
    static COUNTING: Cell<bool> = const { Cell::new(false) };
    static COUNTS: Cell<(u64, u64)> = const { Cell::new((0, 0)) };
}

fn note(bytes: usize) {
    if COUNTING.try_with(Cell::get).unwrap_or(false) {
        let _ = COUNTS.try_with(|c| {
            let (n, b) = c.get();
            c.set((n + 1, b + bytes as u64));
        });
    }
}

struct Counting;

// SAFETY: forwards every call to `System` unchanged; only counts on the side.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        note(layout.size());
        // SAFETY: the caller's contract is passed on.
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: the caller's contract is passed on.
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        note(layout.size());
        // SAFETY: the caller's contract is passed on.
        unsafe { System.alloc_zeroed(layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        note(new_size);
        // SAFETY: the caller's contract is passed on.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

/// Allocations and bytes of 50 runs of `f`.
fn count(mut f: impl FnMut()) -> (u64, u64) {
    f(); // warm up caches (ratatui's layout cache, thread locals)
    COUNTS.with(|c| c.set((0, 0)));
    COUNTING.with(|c| c.set(true));
    for _ in 0..50 {
        f();
    }
    COUNTING.with(|c| c.set(false));
    COUNTS.with(Cell::get)
}

const TITLES: [&str; 8] = [
    "alpha", "beta", "gamma", "delta", "epsilon", "zeta", "eta", "theta",
];

fn both_ways(mut ours: impl FnMut(), mut theirs: impl FnMut()) {
    let plain = count(&mut theirs);
    assert_eq!(count(&mut ours), plain, "no recorder");
    let mut recorder = taria::widget::Recorder::new();
    recorder.set_enabled(false);
    assert_eq!(
        count(|| recorder.record(&mut ours)),
        plain,
        "a disabled recorder"
    );
}

#[test]
fn a_list_allocates_what_ratatuis_allocates() {
    let area = Rect::new(0, 0, 30, 50);
    let mut buf = Buffer::empty(area);
    let mut state = ratatui::widgets::ListState::default().with_selected(Some(3));
    let mut buf2 = buf.clone();
    let mut state2 = state;
    both_ways(
        || {
            let list = taria_widgets::List::new(TITLES.iter().cycle().take(200).copied())
                .block(ratatui::widgets::Block::bordered().title("Tasks"))
                .highlight_symbol("> ")
                .id("tasks")
                .checked((0..200).map(|i| i % 3 == 0))
                .toggle_key("space");
            list.render(area, &mut buf, &mut state);
        },
        || {
            let list = ratatui::widgets::List::new(TITLES.iter().cycle().take(200).copied())
                .block(ratatui::widgets::Block::bordered().title("Tasks"))
                .highlight_symbol("> ");
            list.render(area, &mut buf2, &mut state2);
        },
    );
}

#[test]
fn a_table_allocates_what_ratatuis_allocates() {
    let area = Rect::new(0, 0, 40, 50);
    let mut buf = Buffer::empty(area);
    let mut state = ratatui::widgets::TableState::default().with_selected(Some(3));
    let mut buf2 = buf.clone();
    let mut state2 = state;
    let widths = [Constraint::Length(8), Constraint::Fill(1)];
    both_ways(
        || {
            let rows =
                (0..200).map(|i| taria_widgets::Row::new([TITLES[i % 8], TITLES[(i + 3) % 8]]));
            let table = taria_widgets::Table::new(rows, widths)
                .header(taria_widgets::Row::new(["Name", "Other"]))
                .highlight_symbol(">")
                .id("jobs");
            table.render(area, &mut buf, &mut state);
        },
        || {
            let rows =
                (0..200).map(|i| ratatui::widgets::Row::new([TITLES[i % 8], TITLES[(i + 3) % 8]]));
            let table = ratatui::widgets::Table::new(rows, widths)
                .header(ratatui::widgets::Row::new(["Name", "Other"]))
                .highlight_symbol(">");
            table.render(area, &mut buf2, &mut state2);
        },
    );
}
