//! The app state the benchmark frame draws: a task board with a job table.

/// One entry of the task list.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Task {
    /// A stable id, used as the node key.
    pub id: u32,
    /// What the task is called.
    pub title: String,
    /// Whether the task is done.
    pub done: bool,
}

/// One row of the job table.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Job {
    /// The job's name, used as the row key.
    pub name: String,
    /// `queued`, `running`, `done` or `failed`.
    pub state: &'static str,
    /// Percent complete, `0..=100`.
    pub progress: u8,
    /// Who started the job.
    pub owner: String,
    /// How long the job has run, in seconds.
    pub elapsed_secs: u32,
}

/// Everything one frame shows.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Data {
    /// Tab titles of the header.
    pub tabs: Vec<String>,
    /// Index of the active tab.
    pub active_tab: usize,
    /// The task list.
    pub tasks: Vec<Task>,
    /// Index of the selected task.
    pub selected_task: usize,
    /// The job table.
    pub jobs: Vec<Job>,
    /// Index of the selected job, shown in the details pane.
    pub selected_job: usize,
    /// The status bar's message.
    pub status: String,
}

/// How many tasks [`Data::sample`] has.
pub const TASKS: usize = 100;
/// How many jobs [`Data::sample`] has.
pub const JOBS: usize = 20;

impl Data {
    /// A deterministic board: 4 tabs, [`TASKS`] tasks and [`JOBS`] jobs.
    ///
    /// ```
    /// let data = taria_benches::Data::sample();
    /// assert_eq!((data.tasks.len(), data.jobs.len()), (100, 20));
    /// ```
    #[must_use]
    pub fn sample() -> Data {
        const VERBS: [&str; 7] = ["Review", "Fix", "Write", "Ship", "Test", "Plan", "Refactor"];
        const NOUNS: [&str; 9] = [
            "login flow",
            "release notes",
            "parser",
            "cache eviction",
            "onboarding",
            "CI pipeline",
            "settings page",
            "error messages",
            "search index",
        ];
        const STATES: [&str; 4] = ["queued", "running", "done", "failed"];
        const OWNERS: [&str; 5] = ["alice", "bob", "carol", "dmitri", "eve"];
        let tasks = (0..TASKS)
            .map(|i| Task {
                id: 1000 + i as u32,
                title: format!("{} {}", VERBS[i % VERBS.len()], NOUNS[i % NOUNS.len()]),
                done: i % 3 == 0,
            })
            .collect();
        let jobs = (0..JOBS)
            .map(|i| Job {
                name: format!("job-{i:02}"),
                state: STATES[i % STATES.len()],
                progress: ((i * 37) % 101) as u8,
                owner: OWNERS[i % OWNERS.len()].to_owned(),
                elapsed_secs: (i as u32 + 1) * 83,
            })
            .collect();
        Data {
            tabs: ["Board", "Jobs", "Logs", "Settings"]
                .map(str::to_owned)
                .to_vec(),
            active_tab: 0,
            tasks,
            selected_task: 7,
            jobs,
            selected_job: 3,
            status: "Connected to build server: 20 jobs, 5 failed".to_owned(),
        }
    }
}
