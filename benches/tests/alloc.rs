//! Counts the heap allocations of the benchmark frame, plain and annotated, to hold
//! taria's recorder to its design: disabled, annotations allocate nothing; enabled,
//! once the arena has grown to the frame's size, recording allocates nothing.
//!
//! The counting allocator counts only on a thread that asked it to, so the tests can
//! run in parallel (as `cargo test` runs them) without counting each other.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

use ratatui::Terminal;
use ratatui::backend::TestBackend;
use taria::widget::Recorder;
use taria_benches::{
    ANNOTATED_NODES, Data, HEIGHT, JOBS, TASKS, WIDTH, draw_annotated, draw_plain, new_buffer,
};

/// Frames drawn per measurement.
const FRAMES: usize = 1_000;
/// Frames an enabled recorder may allocate in while its arena grows.
const WARM_UP_FRAMES: usize = 3;

/// Heap operations seen on one thread.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Counts {
    /// `alloc` and `alloc_zeroed` calls.
    allocs: u64,
    /// `realloc` calls.
    reallocs: u64,
    /// `dealloc` calls.
    deallocs: u64,
    /// Bytes requested by `alloc`, `alloc_zeroed` and growing `realloc`s.
    bytes: u64,
}

impl Counts {
    const ZERO: Counts = Counts {
        allocs: 0,
        reallocs: 0,
        deallocs: 0,
        bytes: 0,
    };
}

thread_local! {
    // Const-initialized and without drop glue: reading them never allocates and
    // never registers a destructor, so the allocator may touch them.
    static COUNTING: Cell<bool> = const { Cell::new(false) };
    static COUNTS: Cell<Counts> = const { Cell::new(Counts::ZERO) };
}

/// Adds to this thread's counts, if it is counting. `try_with`, because an
/// allocation may happen while the thread's locals are being torn down.
fn note(update: impl FnOnce(&mut Counts)) {
    let counting = COUNTING.try_with(Cell::get).unwrap_or(false);
    if counting {
        let _ = COUNTS.try_with(|counts| {
            let mut now = counts.get();
            update(&mut now);
            counts.set(now);
        });
    }
}

/// The system allocator, counting what the current thread asks of it.
struct CountingAllocator;

#[expect(
    unsafe_code,
    reason = "a global allocator is an unsafe trait; every call forwards to `System` unchanged"
)]
unsafe impl GlobalAlloc for CountingAllocator {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        note(|c| {
            c.allocs += 1;
            c.bytes += layout.size() as u64;
        });
        // SAFETY: forwarded unchanged; the caller upholds `GlobalAlloc::alloc`'s contract.
        unsafe { System.alloc(layout) }
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        note(|c| {
            c.allocs += 1;
            c.bytes += layout.size() as u64;
        });
        // SAFETY: as for `alloc`.
        unsafe { System.alloc_zeroed(layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        note(|c| {
            c.reallocs += 1;
            c.bytes += new_size.saturating_sub(layout.size()) as u64;
        });
        // SAFETY: `ptr` was allocated by `System` through this allocator with `layout`;
        // the caller upholds the rest of `GlobalAlloc::realloc`'s contract.
        unsafe { System.realloc(ptr, layout, new_size) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        note(|c| c.deallocs += 1);
        // SAFETY: `ptr` was allocated by `System` through this allocator with `layout`.
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static ALLOCATOR: CountingAllocator = CountingAllocator;

/// Runs `f` and returns what it allocated on this thread.
fn count(f: impl FnOnce()) -> Counts {
    COUNTS.with(|c| c.set(Counts::ZERO));
    COUNTING.with(|c| c.set(true));
    f();
    COUNTING.with(|c| c.set(false));
    COUNTS.with(Cell::get)
}

/// Moves the selection each frame: state changes, the tree's shape does not.
fn select_for_frame(data: &mut Data, frame: usize) {
    data.selected_task = frame % TASKS;
    data.selected_job = frame % JOBS;
}

#[test]
fn counting_allocator_counts_this_thread_only() {
    let here = count(|| drop(std::hint::black_box(vec![1u8; 10])));
    assert_eq!(
        here,
        Counts {
            allocs: 1,
            reallocs: 0,
            deallocs: 1,
            bytes: 10
        }
    );
    let elsewhere = count(|| {
        std::thread::spawn(|| drop(std::hint::black_box(vec![1u8; 10])))
            .join()
            .expect("thread");
    });
    // Spawning allocates here, but the vector allocated on the other thread is not counted.
    assert!(elsewhere.allocs > 0);
    assert!(elsewhere.bytes < 10_000, "{elsewhere:?}");
}

#[test]
fn annotations_allocate_nothing_when_not_recording() {
    let (mut buf, data) = (new_buffer(), Data::sample());
    let mut disabled = Recorder::new();
    disabled.set_enabled(false);
    // Warm up ratatui's thread-local layout cache for both paths.
    draw_plain(&mut buf, &data);
    draw_annotated(&mut buf, &data);
    disabled.record(|| draw_annotated(&mut buf, &data));

    let plain = count(|| {
        for _ in 0..FRAMES {
            draw_plain(&mut buf, &data);
        }
    });
    let no_recorder = count(|| {
        for _ in 0..FRAMES {
            draw_annotated(&mut buf, &data);
        }
    });
    let recorder_disabled = count(|| {
        for _ in 0..FRAMES {
            disabled.record(|| draw_annotated(&mut buf, &data));
        }
    });
    println!("{FRAMES} frames: plain {plain:?}");
    println!("{FRAMES} frames: annotated, no recorder {no_recorder:?}");
    println!("{FRAMES} frames: annotated, recorder disabled {recorder_disabled:?}");

    // The frame itself allocates (a `format!` per task, `Vec`s of spans), so a
    // counter that saw nothing would be broken, not a pass.
    assert!(plain.allocs >= (FRAMES * TASKS) as u64, "{plain:?}");
    assert_eq!(no_recorder, plain, "annotated frames with no recorder");
    assert_eq!(
        recorder_disabled, plain,
        "annotated frames with a disabled recorder"
    );
    assert_eq!(disabled.node_count(), 0);
}

/// A session's frames with no consumer: what the app's loop costs when nobody reads
/// it, with the screen-reader export (cargo feature `atspi`, built in under
/// `--all-features`) started and idle, and turned off.
#[test]
fn a_session_nobody_reads_allocates_what_a_plain_draw_does_screen_reader_export_on_or_off() {
    let data = Data::sample();
    let dir = std::env::temp_dir().join(format!("taria-alloc-{}", std::process::id()));
    for screen_reader in [true, false] {
        let mut session = taria::Session::builder("alloc")
            .socket(dir.join(format!("{screen_reader}.sock")))
            .terminal_input(false)
            .screen_reader(screen_reader)
            .start();
        assert!(
            session.start_error().is_none(),
            "{:?}",
            session.start_error()
        );
        let mut terminal = Terminal::new(TestBackend::new(WIDTH, HEIGHT)).expect("terminal");
        let mut plain = || {
            terminal
                .draw(|frame| draw_annotated(frame.buffer_mut(), &data))
                .expect("drawn");
        };
        plain();
        let plain_frames = count(|| (0..FRAMES / 10).for_each(|_| plain()));
        let mut through_session = || {
            session
                .draw(&mut terminal, |frame| {
                    draw_annotated(frame.buffer_mut(), &data);
                })
                .expect("drawn");
        };
        through_session();
        let session_frames = count(|| (0..FRAMES / 10).for_each(|_| through_session()));
        println!(
            "{} frames, screen reader export {}: plain draw {plain_frames:?}, through the session {session_frames:?}",
            FRAMES / 10,
            if screen_reader { "started" } else { "off" }
        );
        assert!(plain_frames.allocs > 0, "{plain_frames:?}");
        assert_eq!(
            session_frames, plain_frames,
            "screen reader export {screen_reader}"
        );
        assert!(session.tree().is_empty(), "nothing recorded");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn recording_allocates_nothing_once_the_arena_has_grown() {
    let (mut buf, mut data) = (new_buffer(), Data::sample());
    // Warm up ratatui's thread-local layout cache, so that what frame 1 adds is the
    // recorder's own growth.
    draw_plain(&mut buf, &data);

    let plain: Vec<Counts> = (1..=FRAMES)
        .map(|frame| {
            select_for_frame(&mut data, frame);
            count(|| draw_plain(&mut buf, &data))
        })
        .collect();
    let mut recorder = Recorder::new();
    let mut node_counts = Vec::with_capacity(FRAMES);
    let recording: Vec<Counts> = (1..=FRAMES)
        .map(|frame| {
            select_for_frame(&mut data, frame);
            let counts = count(|| recorder.record(|| draw_annotated(&mut buf, &data)));
            node_counts.push(recorder.node_count());
            counts
        })
        .collect();

    assert!(
        node_counts.iter().all(|&n| n == ANNOTATED_NODES),
        "the tree's shape changed"
    );
    for frame in 1..=WARM_UP_FRAMES {
        println!(
            "frame {frame}: plain {:?}, recording {:?}",
            plain[frame - 1],
            recording[frame - 1]
        );
    }
    // Frame 1 grows the arena: the counter sees the recorder's allocations.
    assert!(recording[0].allocs + recording[0].reallocs > plain[0].allocs + plain[0].reallocs);
    for frame in WARM_UP_FRAMES + 1..=FRAMES {
        assert_eq!(
            recording[frame - 1],
            plain[frame - 1],
            "frame {frame} of {ANNOTATED_NODES} recorded nodes allocated more than the plain frame"
        );
    }
    // The last frame is the right one.
    let tree = recorder.tree();
    let selected = tree.get(&format!("tasks/{}", 1000 + FRAMES % TASKS));
    assert!(selected.is_some_and(|task| task.state.selected));
}

#[test]
fn keys_with_a_slash_or_percent_are_escaped_without_allocating_once_warm() {
    let keys: Vec<String> = (0..200)
        .map(|i| match i % 3 {
            0 => format!("src/dir{i}/file.rs"),
            1 => format!("{i}% done"),
            _ => format!("plain {i}"),
        })
        .collect();
    let mut recorder = Recorder::new();
    let frame = |recorder: &mut Recorder| {
        recorder.record(|| {
            let _list = taria::scope(|n| {
                n.role(taria::Role::List).id("files");
            });
            for key in &keys {
                taria::leaf(|n| {
                    n.role(taria::Role::ListItem)
                        .key(key.as_str())
                        .label(key.as_str());
                });
            }
        });
    };
    for _ in 0..WARM_UP_FRAMES {
        frame(&mut recorder);
    }
    let counts = count(|| {
        for _ in 0..FRAMES {
            frame(&mut recorder);
        }
    });
    assert_eq!(counts, Counts::ZERO, "{FRAMES} frames of escaped keys");
    let tree = recorder.tree();
    assert!(tree.get("files/src%2Fdir0%2Ffile.rs").is_some());
    assert!(tree.get("files/1% done").is_none() && tree.get("files/1%25 done").is_some());
}

/// `n` events at each level, with fields, as an app logs them.
fn log_events(n: usize) {
    for i in 0..n {
        tracing::error!(i, path = "/tmp/x", "cannot read {i}");
        tracing::warn!(i, "refused an empty title");
        tracing::info!(i, "opened");
        tracing::debug!(i, "drew a frame");
    }
}

/// Logs in its handler, counting what that costs with the harness taking the log.
#[derive(Default)]
struct Logs {
    counts: Option<Counts>,
}
impl taria::Actions for Logs {
    fn handle_action(&mut self, _: &taria::Invocation<'_>) -> taria::Outcome {
        self.counts = Some(count(|| log_events(1)));
        taria::Outcome::Handled
    }
}

/// An app's `tracing` events with `taria::logs::layer()` in its subscriber allocate
/// nothing while no consumer takes the log (the layer checks one flag), and do once
/// one does (the same events, in a handler run by a harness, which takes the log).
#[test]
fn log_events_allocate_nothing_while_no_consumer_takes_the_log() {
    use tracing_subscriber::layer::SubscriberExt as _;

    let subscriber = tracing_subscriber::registry().with(taria::logs::layer());
    let idle = tracing::subscriber::with_default(subscriber, || {
        // A call site registers itself the first time it is hit.
        log_events(1);
        count(|| log_events(FRAMES))
    });
    assert_eq!(idle, Counts::ZERO, "{} events, no consumer", 4 * FRAMES);

    let mut harness = taria::testing::AppHarness::new(Logs::default(), 10, 1, |frame, _| {
        taria::leaf(|n| {
            n.role(taria::Role::Button)
                .id("log")
                .label("Log")
                .action(taria::Action::Activate)
                .bounds(frame.area());
        });
        frame.render_widget("Log", frame.area());
    });
    harness.act("log", "activate").expect("delivered");
    let taken = harness.app().counts.expect("the handler ran");
    assert!(taken.allocs > 0, "a consumer takes the log: {taken:?}");
    assert_eq!(
        harness.logs().len(),
        3,
        "error, warn, info; debug is below the layer"
    );
}
