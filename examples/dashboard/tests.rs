//! The dashboard's tests: what a person sees and what an agent can do.

use crate::app::{App, SEED};
use crate::sim::{Machine, PROCESS_COUNT};

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
}

#[test]
fn pids_are_unique_and_increasing() {
    let m = Machine::new(1);
    assert_eq!(m.processes.len(), PROCESS_COUNT);
    assert!(m.processes.windows(2).all(|w| w[0].pid < w[1].pid));
}

#[test]
fn starts_sorted_by_cpu() {
    let app = App::new(SEED);
    assert_eq!(app.view.len(), PROCESS_COUNT);
    let first = app.row(0).expect("a row");
    assert!(
        app.view
            .iter()
            .all(|&i| app.machine.processes[i].cpu <= first.cpu)
    );
}
