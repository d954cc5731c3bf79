//! Input → handler → ack → new tree, over the app's real socket, with a real app loop
//! on its own thread; and the size of a patch for a one-node change in a 300-node tree.
//!
//! Run: `cargo bench -p taria-benches --bench round_trip` (prints a table).

#[cfg(unix)]
fn main() {
    unix::run();
}

#[cfg(not(unix))]
fn main() {
    println!("round_trip: Unix sockets only");
}

#[cfg(unix)]
mod unix {
    use std::io::{BufRead, BufReader, Write};
    use std::os::unix::net::UnixStream;
    use std::sync::Arc;
    use std::sync::atomic::{AtomicBool, Ordering};
    use std::time::{Duration, Instant};

    use ratatui::Terminal;
    use ratatui::backend::TestBackend;
    use ratatui::widgets::Paragraph;
    use serde_json::{Value, json};
    use taria::{Action, Actions, Invocation, Outcome, Role, Session};

    /// Inputs per measured run (after a warm-up of 200).
    const SAMPLES: usize = 2000;
    /// List items besides the list and the slider: 300 nodes in all.
    const ITEMS: usize = 298;

    struct App {
        volume: u32,
    }

    impl Actions for App {
        fn handle_action(&mut self, invocation: &Invocation<'_>) -> Outcome {
            match taria::__private::value_arg::<u32>(invocation) {
                Ok(volume) if invocation.target() == "volume" => {
                    self.volume = volume;
                    Outcome::Handled
                }
                _ => Outcome::NotHandled,
            }
        }
    }

    fn render(app: &App, frame: &mut ratatui::Frame<'_>) {
        let list = taria::scope(|n| {
            n.role(Role::List)
                .id("items")
                .label("Items")
                .count(ITEMS)
                .action(Action::Select);
        });
        for i in 0..ITEMS {
            taria::leaf(|n| {
                n.role(Role::ListItem)
                    .key(i)
                    .label(format_args!("Item number {i}"))
                    .index(i)
                    .count(ITEMS);
                n.action(Action::Toggle);
            });
        }
        drop(list);
        taria::leaf(|n| {
            n.role(Role::Slider)
                .id("volume")
                .label("Volume")
                .value(app.volume)
                .min(0)
                .max(1_000_000);
            n.action(Action::SetValue);
        });
        frame.render_widget(
            Paragraph::new(format!("volume {}", app.volume)),
            frame.area(),
        );
    }

    fn read_json(reader: &mut BufReader<UnixStream>, bytes: &mut usize) -> Value {
        let mut line = String::new();
        reader.read_line(&mut line).expect("the app answers");
        *bytes = line.len();
        serde_json::from_str(&line).expect("a JSON line")
    }

    pub(super) fn run() {
        let dir = std::env::temp_dir().join(format!("taria-bench-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("temp dir");
        {
            use std::os::unix::fs::PermissionsExt as _;
            // taria refuses a socket directory others can reach.
            std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o700)).expect("chmod");
        }
        let socket = dir.join("bench.sock");
        let stop = Arc::new(AtomicBool::new(false));
        let app_thread = {
            let (socket, stop) = (socket.clone(), Arc::clone(&stop));
            std::thread::spawn(move || {
                let options = Session::builder("bench")
                    .socket(&socket)
                    .terminal_input(false);
                let mut session = options.try_start().expect("session");
                let mut terminal = Terminal::new(TestBackend::new(80, 30)).expect("terminal");
                let mut app = App { volume: 0 };
                // An idle app: it waits for input in its event read, as a real one does.
                while !stop.load(Ordering::Relaxed) {
                    session.drain(&mut app);
                    session
                        .draw(&mut terminal, |frame| render(&app, frame))
                        .expect("draw");
                    let _ = session.next_event(Some(Duration::from_millis(100)));
                }
            })
        };
        while !socket.exists() {
            assert!(
                !app_thread.is_finished(),
                "the app thread stopped before binding its socket"
            );
            std::thread::sleep(Duration::from_millis(5));
        }
        let stream = UnixStream::connect(&socket).expect("connect");
        let mut writer = stream.try_clone().expect("clone");
        let mut reader = BufReader::new(stream);
        let mut bytes = 0;
        let hello = read_json(&mut reader, &mut bytes);
        assert_eq!(hello["type"], "hello");
        let tree = read_json(&mut reader, &mut bytes);
        assert_eq!(tree["type"], "tree");
        let full_tree_bytes = bytes;
        let nodes = serde_json::from_value::<taria::Tree>(tree["tree"].clone())
            .expect("tree")
            .len();

        let mut latencies = Vec::with_capacity(SAMPLES);
        let mut patch_bytes = Vec::new();
        for seq in 1..=(SAMPLES + 200) as u64 {
            let input = json!({"type": "input", "seq": seq, "kind": "act", "node": "volume", "action": "set_value", "value": seq});
            let mut line = serde_json::to_vec(&input).expect("json");
            line.push(b'\n');
            let start = Instant::now();
            writer.write_all(&line).expect("send");
            loop {
                let message = read_json(&mut reader, &mut bytes);
                match message["type"].as_str() {
                    Some("ack") => assert_eq!(message["status"], "delivered", "{message}"),
                    Some("patch") if message["input"].as_u64() >= Some(seq) => {
                        if seq > 200 {
                            latencies.push(start.elapsed());
                            patch_bytes.push(bytes);
                        }
                        break;
                    }
                    _ => {}
                }
            }
        }
        stop.store(true, Ordering::Relaxed);
        drop(writer);
        let _ = app_thread.join();
        let _ = std::fs::remove_dir_all(&dir);

        latencies.sort();
        // Percentile by rank: `per_mille` of the sorted samples.
        let pct = |per_mille: usize| latencies[(latencies.len() - 1) * per_mille / 1000];
        patch_bytes.sort_unstable();
        println!(
            "round trip: set_value -> handler -> ack -> patch, {SAMPLES} samples, {nodes}-node tree"
        );
        println!("| p50 | p90 | p99 | max |");
        println!("|---|---|---|---|");
        println!(
            "| {:.3} ms | {:.3} ms | {:.3} ms | {:.3} ms |",
            ms(pct(500)),
            ms(pct(900)),
            ms(pct(990)),
            ms(*latencies.last().expect("samples"))
        );
        println!();
        println!("| full tree line | patch line, one node changed (median) |");
        println!("|---|---|");
        println!(
            "| {full_tree_bytes} bytes | {} bytes |",
            patch_bytes[patch_bytes.len() / 2]
        );
    }

    fn ms(d: Duration) -> f64 {
        d.as_secs_f64() * 1000.0
    }
}
