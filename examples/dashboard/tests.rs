//! The dashboard driven headless with `taria::testing::AppHarness`: an agent's task
//! through actions, the same by keys, the timer, the errors an agent gets, and the
//! tree's golden outline. The data comes from the app's fixed seed, so every run
//! sees the same machine.

use taria::testing::RejectReason;
use taria::testing::{AppHarness, unperformed_offers};
use taria::{Node, Query, Role, ScrollDirection, StateFlags, Value};

use crate::app::{App, SEED};
use crate::sim::{Machine, PROCESS_COUNT};

pub(crate) fn dashboard() -> AppHarness<App> {
    AppHarness::new(App::new(SEED), 120, 34, crate::ui::draw)
        .on_event(|app, event| app.on_event(&event))
}

fn text(node: &Node) -> &str {
    match &node.value {
        Some(Value::Text(text)) => text,
        other => panic!("{} has no text value: {other:?}", node.id),
    }
}

fn number(node: &Node) -> f64 {
    match node.value {
        Some(Value::Number(n)) => n,
        ref other => panic!("{} has no number value: {other:?}", node.id),
    }
}

/// The label of the selected sort tab.
fn sorted_by(h: &AppHarness<App>) -> String {
    h.find(&Query::new().role(Role::Tab).state(StateFlags::SELECTED))
        .and_then(|n| n.label)
        .unwrap_or_default()
}

/// The table's row at position `row` of the current order (as recorded: rows on
/// screen only). Rows are keyed by PID: `processes/<pid>`.
fn row_at(h: &AppHarness<App>, row: u32) -> Node {
    rows(h)
        .into_iter()
        .find(|r| r.position.index == Some(row))
        .unwrap_or_else(|| panic!("row {row} is not recorded:\n{}", h.tree().outline()))
}

/// Cell `column` of the table's row at position `row`.
fn cell(h: &AppHarness<App>, row: u32, column: usize) -> String {
    text(&row_at(h, row).children[column]).to_owned()
}

/// The process rows of the table recorded in the last frame (not the header row).
fn rows(h: &AppHarness<App>) -> Vec<Node> {
    h.find_all(&Query::new().role(Role::Row))
        .into_iter()
        .filter(|row| row.id != "processes/header")
        .collect()
}

#[test]
fn the_same_seed_gives_the_same_machine() {
    let (mut a, mut b) = (Machine::new(7), Machine::new(7));
    for _ in 0..5 {
        a.tick();
        b.tick();
    }
    assert_eq!(a.processes, b.processes);
    assert_eq!(a.log, b.log);
    assert_eq!(a.cpu.to_bits(), b.cpu.to_bits());
    assert_ne!(Machine::new(8).processes, a.processes);
    assert_eq!(a.processes.len(), PROCESS_COUNT);
    assert!(
        a.processes.windows(2).all(|w| w[0].pid < w[1].pid),
        "pids are unique"
    );
}

#[test]
fn an_agent_sorts_filters_selects_and_scrolls_the_log() {
    let mut h = dashboard();
    assert_eq!(sorted_by(&h), "CPU% ▼");
    let table = h.node("processes");
    assert_eq!(table.position.count, Some(10_000));

    // Sort by memory: the first row is the process using the most.
    h.act("sort/mem", "select").unwrap();
    assert_eq!(sorted_by(&h), "Mem MiB ▼");
    let most = h.app().machine.processes.iter().map(|p| p.mem_mib).max();
    assert_eq!(cell(&h, 0, 4), most.unwrap().to_string());
    assert!(h.screen().contains("5 Mem MiB ▼"), "{}", h.screen());
    // Selecting the sorted column again changes nothing; `reverse` flips it.
    h.act("sort/mem", "select").unwrap();
    assert_eq!(sorted_by(&h), "Mem MiB ▼");
    h.act("sort", "reverse").unwrap();
    assert_eq!(sorted_by(&h), "Mem MiB ▲");
    let least = h.app().machine.processes.iter().map(|p| p.mem_mib).min();
    assert_eq!(cell(&h, 0, 4), least.unwrap().to_string());

    // By PID: the row's label is its first cell, the PID.
    h.act("sort/pid", "select").unwrap();
    let first = row_at(&h, 0);
    assert_eq!(first.label.as_deref(), Some("1"));
    assert_eq!(first.id, "processes/1", "a row's id is its PID");
    assert!(first.stable);
    assert_eq!(h.node("status").label.as_deref(), Some("Sorted by PID ▲"));

    // Filter to one program: every row shown is one of its processes.
    h.set_value("filter", "postgres").unwrap();
    let matching = h
        .app()
        .machine
        .processes
        .iter()
        .filter(|p| p.name.contains("postgres") || p.user == "postgres")
        .count();
    assert_eq!(h.node("processes").position.count, Some(matching as u32));
    assert_eq!(h.node("filter").value, Some(Value::Text("postgres".into())));
    for row in rows(&h) {
        let cells: Vec<_> = row.children.iter().map(text).collect();
        assert!(
            cells[1].contains("postgres") || cells[2] == "postgres",
            "{cells:?}"
        );
    }
    assert!(
        h.screen()
            .contains(&format!("Processes ({matching} of 10000)")),
        "{}",
        h.screen()
    );

    // Select the fourth row: the app knows which process that is.
    let fourth = row_at(&h, 3);
    h.act(fourth.id.as_str(), "select").unwrap();
    assert!(h.node(fourth.id.as_str()).state.selected);
    let pid = fourth.label.unwrap();
    assert_eq!(h.app().selected().unwrap().pid.to_string(), pid);
    assert!(
        h.screen()
            .lines()
            .any(|l| l.contains(&format!("> {pid:>6}"))),
        "the highlight symbol marks it:\n{}",
        h.screen()
    );

    // Scroll the log back: the newest lines go off screen and stay off on a tick.
    let log = h.node("log");
    let scroll = log.scroll.unwrap();
    let newest = text(&log).lines().last().unwrap().to_owned();
    h.scroll("log", ScrollDirection::Up, 5).unwrap();
    let back = h.node("log");
    assert_eq!(back.scroll.unwrap().offset, scroll.offset - 5);
    assert!(!text(&back).contains(&newest));
    assert!(h.screen().contains("Log (↑5 lines, ] to follow)"));
    h.app_mut().tick();
    h.render();
    assert_eq!(
        text(&h.node("log")),
        text(&back),
        "a scrolled-back log stays put"
    );
    // Down to the bottom: it follows again, the new lines at the bottom.
    h.scroll("log", ScrollDirection::Down, 100).unwrap();
    let log = h.node("log");
    let newest_line = h.app().machine.log.back().unwrap().render();
    assert_eq!(text(&log).lines().last(), Some(newest_line.as_str()));
    assert!(h.screen().contains(&newest_line));

    // Pause the timer.
    h.act("live", "toggle").unwrap();
    assert!(!h.app().live);
    assert_eq!(h.node("live").state.checked, Some(taria::Checked::False));
    assert!(h.screen().contains("‖ live off"));
}

#[test]
fn a_tick_moves_the_gauges_charts_and_log() {
    let mut h = dashboard();
    let before = h.tree();
    let selected = h.app().selected().unwrap().pid;
    h.app_mut().tick();
    let after = h.render();
    for id in ["cpu", "memory", "cpu-history", "network", "log"] {
        assert_ne!(
            before.get(id).unwrap().value,
            after.get(id).unwrap().value,
            "{id} changed"
        );
    }
    let cpu = number(after.get("cpu").unwrap());
    assert!((0.0..=1.0).contains(&cpu));
    assert!(
        h.screen().contains(&format!("{}%", (cpu * 100.0).round())),
        "{}",
        h.screen()
    );
    // The rows were sorted again by the new CPU numbers; the selection followed
    // its process.
    assert_eq!(h.app().selected().unwrap().pid, selected);
    let cpus: Vec<f64> = rows(&h)
        .iter()
        .map(|r| text(&r.children[3]).parse().unwrap())
        .collect();
    assert!(cpus.windows(2).all(|w| w[0] >= w[1]), "{cpus:?}");
}

#[test]
fn a_person_does_the_same_with_keys() {
    let mut h = dashboard();
    h.press("3").unwrap();
    assert_eq!(sorted_by(&h), "User ▲");
    h.press("3").unwrap();
    assert_eq!(sorted_by(&h), "User ▼", "the same column again reverses");
    h.press("r").unwrap();
    assert_eq!(sorted_by(&h), "User ▲");
    assert_eq!(cell(&h, 0, 2), "alice");

    h.press("/").unwrap();
    assert!(h.node("filter").state.focused);
    h.type_text("redis\n").unwrap();
    assert!(!h.node("filter").state.focused);
    assert!(rows(&h).iter().all(|r| {
        r.children[1]
            .value
            .as_ref()
            .is_some_and(|v| v.to_string().contains("redis"))
            || text(&r.children[2]) == "redis"
    }));

    h.press("down").unwrap();
    h.press("down").unwrap();
    assert!(row_at(&h, 2).state.selected);
    h.press("end").unwrap();
    let last = h.node("processes").position.count.unwrap() - 1;
    assert!(row_at(&h, last).state.selected);

    h.press("[").unwrap();
    assert!(h.screen().contains("Log (↑3 lines"));
    h.press("]").unwrap();
    assert!(h.screen().contains("Log──"));

    h.press("p").unwrap();
    assert!(!h.app().live);
    h.press("esc").unwrap();
    assert_eq!(h.node("filter").value, Some(Value::Text(String::new())));
    assert!(!h.app().should_quit, "esc clears the filter first");
    h.press("q").unwrap();
    assert!(h.app().should_quit);
}

#[test]
fn the_table_records_only_the_rows_on_screen() {
    let mut h = dashboard();
    let table = h.node("processes");
    let scroll = table.scroll.unwrap();
    assert_eq!(scroll.content, 10_000);
    assert_eq!(rows(&h).len(), scroll.viewport as usize);
    assert!(rows(&h).len() < 30);
    // Far down the table, the rows on screen are recorded with their cells.
    h.scroll("processes", ScrollDirection::Down, 5_000).unwrap();
    let selected = row_at(&h, 5000);
    assert!(selected.state.selected);
    assert_eq!(selected.children.len(), 6);
    let first = h.node("processes").scroll.unwrap().offset;
    assert!(first > 4_900, "scrolled to the selection: {first}");
    assert!(rows(&h).iter().all(|r| r.position.index >= Some(first)));
    // And drawn: the selected row's PID is on screen.
    let pid = selected.label.unwrap();
    assert!(
        h.screen().contains(&format!("> {pid:>6}")),
        "{}",
        h.screen()
    );
}

#[test]
fn mistakes_get_errors_that_say_what_to_do() {
    let mut h = dashboard();
    let unknown = h.act("sort/colour", "select").unwrap_err();
    assert_eq!(unknown.reason, RejectReason::UnknownNode);
    let sideways = h.scroll("log", ScrollDirection::Left, 1).unwrap_err();
    assert_eq!(sideways.reason, RejectReason::HandlerRejected);
    assert!(sideways.message.contains("up and down"), "{sideways}");
    let too_long = h.set_value("filter", "x".repeat(41)).unwrap_err();
    assert_eq!(too_long.reason, RejectReason::OutOfDomain);
    let not_offered = h.act("cpu", "toggle").unwrap_err();
    assert_eq!(not_offered.reason, RejectReason::ActionNotOffered);
    // A filter that matches nothing leaves an empty table, not an error.
    h.set_value("filter", "no such process").unwrap();
    assert_eq!(h.node("processes").position.count, Some(0));
    assert!(rows(&h).is_empty());
    assert!(h.app().selected().is_none());
}

#[test]
fn the_first_frame_matches_its_outline() {
    let h = dashboard();
    let tree = h.tree();
    let outline = tree.outline();
    let per_node = outline.len() / tree.len();
    eprintln!(
        "dashboard: {} nodes, {} bytes of outline, {per_node} bytes per node",
        tree.len(),
        outline.len()
    );
    assert!(
        per_node < 80,
        "labels stay short: {per_node} bytes per node"
    );
    h.assert_snapshot("dashboard/snapshots/first-frame.outline");
}

#[test]
fn a_row_id_names_the_same_process_after_the_order_changes() {
    let mut h = dashboard();
    let third = row_at(&h, 2);
    let pid = third.label.clone().unwrap();
    h.act(third.id.as_str(), "select").unwrap();
    // Ticks reorder the table (it is sorted by CPU); the id stays with the process.
    for _ in 0..3 {
        h.app_mut().tick();
    }
    h.render();
    let selected = h.app().selected().unwrap().pid.to_string();
    assert_eq!(selected, pid, "the selection follows the process");
    // The selected row is on screen: its id still names the process, elsewhere now.
    let row = h.node(third.id.as_str());
    assert_eq!(row.label.as_deref(), Some(pid.as_str()));
    assert!(row.state.selected);
    assert_ne!(
        row.position.index, third.position.index,
        "the ticks moved it"
    );
    // An id of a process filtered out says so.
    h.set_value("filter", "no such process").unwrap();
    let gone = h.act(third.id.as_str(), "select").unwrap_err();
    assert_eq!(gone.reason, RejectReason::UnknownNode);
}

/// Issue 20: every node the tree gives bounds shows its label or value inside them
/// (`AppHarness::assert_text_drawn`), and no two nodes say the same thing in the same
/// place (`AppHarness::assert_no_duplicate_nodes`), and the accessibility lint finds
/// nothing (`AppHarness::assert_accessible`), at a few terminal sizes (from 80x24 on: at
/// 60x16 the log is squeezed to its borders, and its text is not on screen).
#[test]
fn every_node_shows_its_text_where_the_tree_says_at_any_size() {
    for (width, height) in [(120, 34), (160, 48), (80, 24), (100, 30)] {
        let mut h = dashboard();
        h.resize(width, height);
        h.assert_text_drawn();
        h.assert_no_duplicate_nodes();
        h.assert_accessible();
    }
}

/// Every action the tree offers is performed by something (a handler, a widget or a
/// key fallback).
#[test]
fn every_action_the_tree_offers_is_performed() {
    assert_eq!(unperformed_offers(dashboard), Vec::<String>::new());
}
