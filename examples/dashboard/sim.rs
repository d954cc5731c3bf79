//! The dashboard's data: a simulated machine driven by a seeded xorshift generator,
//! so the same seed gives the same processes, metrics and log lines in every run
//! (the tests depend on it). Nothing here knows about ratatui or taria.

use std::cmp::Ordering;
use std::collections::VecDeque;

/// How many processes the table holds.
pub(crate) const PROCESS_COUNT: usize = 10_000;
/// How many CPU samples the sparkline keeps.
pub(crate) const CPU_HISTORY: usize = 120;
/// How many network samples the chart keeps.
pub(crate) const NET_HISTORY: usize = 60;
/// How many log lines are kept (older ones are dropped).
pub(crate) const LOG_CAPACITY: usize = 1_000;
/// Total memory of the simulated machine, in MiB.
pub(crate) const MEMORY_MIB: f64 = 32_768.0;
/// Size of the simulated disk, in GiB.
pub(crate) const DISK_GIB: f64 = 1_000.0;

/// xorshift64*: small, fast, and the same sequence for the same seed everywhere.
#[derive(Clone)]
pub(crate) struct Rng(u64);

impl Rng {
    pub(crate) fn new(seed: u64) -> Rng {
        // Zero is xorshift's one fixed point.
        Rng(seed.max(1))
    }

    pub(crate) fn next_u64(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.0 = x;
        x.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    /// A number in `0..n` (`n > 0`).
    pub(crate) fn below(&mut self, n: u64) -> u64 {
        self.next_u64() % n
    }

    /// A number in `0.0..1.0`.
    #[expect(
        clippy::cast_precision_loss,
        reason = "53 random bits fit an f64 exactly"
    )]
    pub(crate) fn unit(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }

    pub(crate) fn pick<T: Copy>(&mut self, items: &[T]) -> T {
        items[self.below(items.len() as u64) as usize]
    }
}

const PROGRAMS: &[&str] = &[
    "bash",
    "cargo",
    "chrome",
    "containerd",
    "cron",
    "dockerd",
    "firefox",
    "git",
    "java",
    "kworker",
    "nginx",
    "node",
    "postgres",
    "python3",
    "redis-server",
    "rust-analyzer",
    "rustc",
    "sshd",
    "systemd",
    "tmux",
    "vim",
    "zsh",
];

const USERS: &[&str] = &["root", "alice", "bob", "www-data", "postgres", "redis"];

/// One simulated process: a row of the table.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Process {
    pub(crate) pid: u32,
    pub(crate) name: String,
    pub(crate) user: &'static str,
    /// Percent of one core, one decimal.
    pub(crate) cpu: f64,
    pub(crate) mem_mib: u32,
    pub(crate) threads: u32,
}

/// A column of the process table, in display order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Column {
    Pid,
    Name,
    User,
    Cpu,
    Mem,
    Threads,
}

impl Column {
    pub(crate) const ALL: [Column; 6] = [
        Column::Pid,
        Column::Name,
        Column::User,
        Column::Cpu,
        Column::Mem,
        Column::Threads,
    ];

    /// The header text.
    pub(crate) fn title(self) -> &'static str {
        match self {
            Column::Pid => "PID",
            Column::Name => "Name",
            Column::User => "User",
            Column::Cpu => "CPU%",
            Column::Mem => "Mem MiB",
            Column::Threads => "Threads",
        }
    }

    /// A short, stable key (the sort control's node ids use it).
    pub(crate) fn key(self) -> &'static str {
        match self {
            Column::Pid => "pid",
            Column::Name => "name",
            Column::User => "user",
            Column::Cpu => "cpu",
            Column::Mem => "mem",
            Column::Threads => "threads",
        }
    }

    pub(crate) fn from_key(key: &str) -> Option<Column> {
        Column::ALL
            .into_iter()
            .find(|c| c.key().eq_ignore_ascii_case(key) || c.title().eq_ignore_ascii_case(key))
    }

    /// Whether the column holds numbers (drawn right-aligned).
    pub(crate) fn numeric(self) -> bool {
        !matches!(self, Column::Name | Column::User)
    }

    /// How a first click sorts: text and ids up, loads down (biggest first).
    pub(crate) fn default_descending(self) -> bool {
        matches!(self, Column::Cpu | Column::Mem | Column::Threads)
    }

    /// The cell text of `p` in this column.
    pub(crate) fn cell(self, p: &Process) -> String {
        match self {
            Column::Pid => p.pid.to_string(),
            Column::Name => p.name.clone(),
            Column::User => p.user.to_owned(),
            Column::Cpu => format!("{:.1}", p.cpu),
            Column::Mem => p.mem_mib.to_string(),
            Column::Threads => p.threads.to_string(),
        }
    }

    /// Compares two processes by this column; ties go by pid, so the order is total.
    pub(crate) fn compare(self, a: &Process, b: &Process) -> Ordering {
        let by = match self {
            Column::Pid => Ordering::Equal,
            Column::Name => a.name.cmp(&b.name),
            Column::User => a.user.cmp(b.user),
            Column::Cpu => a.cpu.total_cmp(&b.cpu),
            Column::Mem => a.mem_mib.cmp(&b.mem_mib),
            Column::Threads => a.threads.cmp(&b.threads),
        };
        by.then(a.pid.cmp(&b.pid))
    }
}

/// How bad a log line is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Level {
    Info,
    Warn,
    Error,
}

impl Level {
    pub(crate) fn name(self) -> &'static str {
        match self {
            Level::Info => "INFO",
            Level::Warn => "WARN",
            Level::Error => "ERROR",
        }
    }
}

/// One log line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct LogLine {
    /// Simulated seconds since start.
    pub(crate) at: u64,
    pub(crate) level: Level,
    pub(crate) text: String,
}

impl LogLine {
    /// `00:01:05 WARN  text`: the line as shown and recorded.
    pub(crate) fn render(&self) -> String {
        format!("{} {:<5} {}", clock(self.at), self.level.name(), self.text)
    }
}

/// `hh:mm:ss` of a number of seconds.
pub(crate) fn clock(seconds: u64) -> String {
    format!(
        "{:02}:{:02}:{:02}",
        seconds / 3600,
        seconds / 60 % 60,
        seconds % 60
    )
}

/// The simulated machine: processes, metrics and their history, and a log.
pub(crate) struct Machine {
    rng: Rng,
    /// Seconds simulated so far (one per tick).
    pub(crate) uptime: u64,
    pub(crate) processes: Vec<Process>,
    /// Total CPU use, percent (one decimal).
    pub(crate) cpu: f64,
    pub(crate) mem_used_mib: f64,
    pub(crate) disk_used_gib: f64,
    /// CPU use per tick, newest last, at most [`CPU_HISTORY`].
    pub(crate) cpu_history: VecDeque<u64>,
    /// (second, KiB/s) received and sent, newest last, at most [`NET_HISTORY`].
    pub(crate) net_rx: Vec<(f64, f64)>,
    pub(crate) net_tx: Vec<(f64, f64)>,
    pub(crate) log: VecDeque<LogLine>,
    /// How many log lines were ever written (the first kept one is number
    /// `log_written - log.len()`).
    pub(crate) log_written: u64,
}

impl Machine {
    /// A machine whose whole future follows from `seed`.
    pub(crate) fn new(seed: u64) -> Machine {
        let mut rng = Rng::new(seed);
        let mut pid = 1;
        let processes = (0..PROCESS_COUNT)
            .map(|i| {
                let program = rng.pick(PROGRAMS);
                let name = if i % 3 == 0 {
                    format!("{program}-{}", rng.below(64))
                } else {
                    program.to_owned()
                };
                let p = Process {
                    pid,
                    name,
                    user: rng.pick(USERS),
                    cpu: cpu_sample(&mut rng),
                    mem_mib: whole(squared(squared(rng.unit())) * 4096.0) + 1,
                    threads: 1 + rng.below(64) as u32,
                };
                pid += 1 + rng.below(7) as u32;
                p
            })
            .collect();
        let mut machine = Machine {
            rng,
            uptime: 0,
            processes,
            cpu: 20.0,
            mem_used_mib: MEMORY_MIB * 0.4,
            disk_used_gib: 412.0,
            cpu_history: VecDeque::with_capacity(CPU_HISTORY),
            net_rx: Vec::with_capacity(NET_HISTORY + 1),
            net_tx: Vec::with_capacity(NET_HISTORY + 1),
            log: VecDeque::with_capacity(LOG_CAPACITY),
            log_written: 0,
        };
        machine.push_log(Level::Info, "monitor started: 10000 processes".into());
        // A minute of history, so the charts and the log have something to show
        // before the first tick.
        for _ in 0..NET_HISTORY {
            machine.tick();
        }
        machine
    }

    /// One simulated second: metrics move, some processes change, new log lines.
    pub(crate) fn tick(&mut self) {
        self.step_metrics();
        for _ in 0..200 {
            let i = self.rng.below(self.processes.len() as u64) as usize;
            let sample = cpu_sample(&mut self.rng);
            let p = &mut self.processes[i];
            p.cpu = tenths(p.cpu * 0.6 + sample * 0.4);
            if self.rng.below(4) == 0 {
                let grown = f64::from(p.mem_mib) * (0.9 + self.rng.unit() * 0.2);
                p.mem_mib = whole(grown).max(1);
            }
        }
        let lines = 1 + self.rng.below(2);
        for _ in 0..lines {
            self.random_log_line();
        }
    }

    fn step_metrics(&mut self) {
        self.uptime += 1;
        let rng = &mut self.rng;
        // A random walk pulled back towards 35 %.
        let pull = (35.0 - self.cpu) * 0.1;
        self.cpu = tenths((self.cpu + pull + (rng.unit() - 0.5) * 16.0).clamp(2.0, 98.0));
        self.mem_used_mib = (self.mem_used_mib + (rng.unit() - 0.5) * 600.0)
            .clamp(MEMORY_MIB * 0.2, MEMORY_MIB * 0.95)
            .round();
        self.disk_used_gib = tenths((self.disk_used_gib + rng.unit() * 0.4).min(DISK_GIB));
        if self.cpu_history.len() == CPU_HISTORY {
            self.cpu_history.pop_front();
        }
        self.cpu_history.push_back(u64::from(whole(self.cpu)));
        #[expect(clippy::cast_precision_loss, reason = "seconds stay far below 2^52")]
        let t = self.uptime as f64;
        let rx = (rng.unit() * 900.0 + 100.0).round();
        let tx = (rng.unit() * 300.0 + 20.0).round();
        for (series, v) in [(&mut self.net_rx, rx), (&mut self.net_tx, tx)] {
            series.push((t, v));
            if series.len() > NET_HISTORY {
                series.remove(0);
            }
        }
    }

    fn random_log_line(&mut self) {
        let p = &self.processes[self.rng.below(self.processes.len() as u64) as usize];
        let (pid, name) = (p.pid, p.name.clone());
        let roll = self.rng.below(20);
        let (level, text) = match roll {
            0 => (
                Level::Error,
                format!("{name}[{pid}] exited with status {}", 1 + self.rng.below(3)),
            ),
            1..=3 => (
                Level::Warn,
                format!(
                    "{name}[{pid}] slow request: {} ms",
                    500 + self.rng.below(2500)
                ),
            ),
            4..=9 => {
                let path = self
                    .rng
                    .pick(&["/api/users", "/api/orders", "/health", "/"]);
                let status = self.rng.pick(&[200, 200, 200, 201, 304, 404]);
                (
                    Level::Info,
                    format!("nginx GET {path} {status} ({} ms)", 1 + self.rng.below(80)),
                )
            }
            _ => (
                Level::Info,
                format!("{name}[{pid}] job {} done", self.rng.below(10_000)),
            ),
        };
        self.push_log(level, text);
    }

    fn push_log(&mut self, level: Level, text: String) {
        if self.log.len() == LOG_CAPACITY {
            self.log.pop_front();
        }
        self.log.push_back(LogLine {
            at: self.uptime,
            level,
            text,
        });
        self.log_written += 1;
    }
}

/// A process's CPU use: most idle, one in eight busy.
fn cpu_sample(rng: &mut Rng) -> f64 {
    if rng.below(8) == 0 {
        tenths(squared(rng.unit()) * 80.0)
    } else {
        tenths(rng.unit() * 1.5)
    }
}

/// `x * x`: unlike `powi`, exactly the same result on every platform (the
/// snapshot tests depend on it).
fn squared(x: f64) -> f64 {
    x * x
}

/// A non-negative number rounded to a whole one.
#[expect(
    clippy::cast_sign_loss,
    reason = "callers pass non-negative numbers far below u32::MAX"
)]
fn whole(x: f64) -> u32 {
    x.round().max(0.0) as u32
}

/// Rounds to one decimal.
fn tenths(x: f64) -> f64 {
    (x * 10.0).round() / 10.0
}
