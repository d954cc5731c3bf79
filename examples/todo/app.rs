//! The todo app's state and key handling: plain Rust, no taria here.

use ratatui::crossterm::event::{KeyCode, KeyEvent};
use ratatui::widgets::ListState;

/// One task.
pub(crate) struct Task {
    pub(crate) id: u32,
    pub(crate) title: String,
    pub(crate) done: bool,
}

/// Which tasks the list shows.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Filter {
    All,
    Active,
    Done,
}

impl Filter {
    pub(crate) const ALL: [Filter; 3] = [Filter::All, Filter::Active, Filter::Done];

    pub(crate) fn name(self) -> &'static str {
        match self {
            Filter::All => "All",
            Filter::Active => "Active",
            Filter::Done => "Done",
        }
    }

    pub(crate) fn keeps(self, task: &Task) -> bool {
        match self {
            Filter::All => true,
            Filter::Active => !task.done,
            Filter::Done => task.done,
        }
    }
}

/// What has the keyboard.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Mode {
    Browsing,
    Adding,
    ConfirmingDelete,
}

pub(crate) struct App {
    pub(crate) tasks: Vec<Task>,
    pub(crate) list: ListState,
    pub(crate) filter: Filter,
    pub(crate) mode: Mode,
    pub(crate) draft: String,
    pub(crate) status: String,
    pub(crate) show_tree: bool,
    pub(crate) tree_outline: String,
    pub(crate) should_quit: bool,
    next_id: u32,
}

impl App {
    pub(crate) fn with_sample_tasks() -> App {
        let mut app = App {
            tasks: Vec::new(),
            list: ListState::default().with_selected(Some(0)),
            filter: Filter::All,
            mode: Mode::Browsing,
            draft: String::new(),
            status: "Welcome! Press a to add a task, F2 to see the semantic tree.".into(),
            show_tree: false,
            tree_outline: String::new(),
            should_quit: false,
            next_id: 1,
        };
        for title in ["Write the README", "Record a demo", "Ship v0"] {
            app.add(title.into());
        }
        app.tasks[0].done = true;
        app
    }

    /// The tasks the current filter shows.
    pub(crate) fn visible(&self) -> Vec<&Task> {
        self.tasks.iter().filter(|t| self.filter.keeps(t)).collect()
    }

    fn selected_id(&self) -> Option<u32> {
        let visible = self.visible();
        self.list
            .selected()
            .and_then(|i| visible.get(i))
            .map(|t| t.id)
    }

    pub(crate) fn add(&mut self, title: String) {
        self.tasks.push(Task {
            id: self.next_id,
            title,
            done: false,
        });
        self.next_id += 1;
    }

    pub(crate) fn toggle_selected(&mut self) {
        if let Some(id) = self.selected_id()
            && let Some(task) = self.tasks.iter_mut().find(|t| t.id == id)
        {
            task.done = !task.done;
            self.status = format!(
                "{} \"{}\"",
                if task.done { "Completed" } else { "Reopened" },
                task.title
            );
        }
    }

    pub(crate) fn delete_selected(&mut self) {
        if let Some(id) = self.selected_id() {
            self.tasks.retain(|t| t.id != id);
            self.status = "Deleted the task".into();
            self.clamp_selection();
        }
    }

    fn clamp_selection(&mut self) {
        let len = self.visible().len();
        self.list.select(if len == 0 {
            None
        } else {
            Some(self.list.selected().unwrap_or(0).min(len - 1))
        });
    }

    pub(crate) fn on_key(&mut self, key: KeyEvent) {
        match self.mode {
            Mode::Adding => match key.code {
                KeyCode::Enter => {
                    let title = self.draft.trim().to_owned();
                    if title.is_empty() {
                        self.status = "A task needs a title".into();
                    } else {
                        self.status = format!("Added \"{title}\"");
                        self.add(title);
                        self.mode = Mode::Browsing;
                        self.draft.clear();
                    }
                }
                KeyCode::Esc => {
                    self.mode = Mode::Browsing;
                    self.draft.clear();
                }
                KeyCode::Backspace => {
                    self.draft.pop();
                }
                KeyCode::Char(c) => self.draft.push(c),
                _ => {}
            },
            Mode::ConfirmingDelete => {
                if key.code == KeyCode::Char('y') || key.code == KeyCode::Enter {
                    self.delete_selected();
                }
                self.mode = Mode::Browsing;
            }
            Mode::Browsing => match key.code {
                KeyCode::Char('q') | KeyCode::Esc => self.should_quit = true,
                KeyCode::Down | KeyCode::Char('j') => self.list.select_next(),
                KeyCode::Up | KeyCode::Char('k') => self.list.select_previous(),
                KeyCode::Char(' ') => self.toggle_selected(),
                KeyCode::Char('a') => self.mode = Mode::Adding,
                KeyCode::Char('d') if self.selected_id().is_some() => {
                    self.mode = Mode::ConfirmingDelete;
                }
                KeyCode::Tab => {
                    let next = Filter::ALL
                        .iter()
                        .position(|f| *f == self.filter)
                        .map_or(0, |i| (i + 1) % 3);
                    self.filter = Filter::ALL[next];
                    self.clamp_selection();
                }
                KeyCode::F(2) => self.show_tree = !self.show_tree,
                _ => {}
            },
        }
    }
}
