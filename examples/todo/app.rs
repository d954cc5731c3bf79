//! The todo app's state, run loop and key handling. taria adds `#[taria::app]`
//! (records each frame, serves it to agents, merges their keys into `event::read`)
//! and the `#[action]` handlers agents call; the rest is plain ratatui.

use std::io;

use ratatui::DefaultTerminal;
use ratatui::crossterm::event::{self, Event, KeyCode, KeyEvent, KeyEventKind};
use ratatui::widgets::ListState;

use crate::tree_pane::TreePane;

/// Gives the terminal back (cooked mode, main screen) for a program run in it.
/// Like `ratatui::restore`; `ratatui::init` is not its way back, because each call
/// installs one more panic hook.
fn suspend_terminal() -> io::Result<()> {
    ratatui::crossterm::terminal::disable_raw_mode()?;
    ratatui::crossterm::execute!(
        io::stdout(),
        ratatui::crossterm::terminal::LeaveAlternateScreen
    )
}

/// Takes the terminal again after [`suspend_terminal`]: `ratatui::init` without its
/// panic hook (the first call's is still installed). A new `Terminal` repaints all.
fn resume_terminal(terminal: &mut DefaultTerminal) -> io::Result<()> {
    ratatui::crossterm::terminal::enable_raw_mode()?;
    ratatui::crossterm::execute!(
        io::stdout(),
        ratatui::crossterm::terminal::EnterAlternateScreen
    )?;
    *terminal = ratatui::Terminal::new(ratatui::backend::CrosstermBackend::new(io::stdout()))?;
    Ok(())
}

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
    /// The `F2` pane showing the semantic tree.
    pub(crate) tree_pane: TreePane,
    pub(crate) should_quit: bool,
    /// `e` was pressed: the loop hands the terminal to `$EDITOR`.
    edit_requested: bool,
    next_id: u32,
}

#[taria::app(label = "todo")]
impl App {
    /// The event loop: draw, then handle one event, until quit.
    pub(crate) fn run(&mut self, terminal: &mut DefaultTerminal) -> io::Result<()> {
        while !self.should_quit {
            terminal.draw(|frame| crate::ui::draw(frame, self))?;
            if self.tree_pane.take_latest() {
                terminal.draw(|frame| crate::ui::draw(frame, self))?;
            }
            if let Event::Key(key) = event::read()?
                && key.kind == KeyEventKind::Press
            {
                self.on_key(key);
            }
            if std::mem::take(&mut self.edit_requested) {
                self.edit_selected(terminal)?;
            }
        }
        Ok(())
    }

    /// Edits the selected task's title in `$VISUAL`/`$EDITOR` (else `vi`), handing it
    /// the terminal. taria stops reading the terminal meanwhile
    /// (`taria::event::pause`), so the editor gets every key.
    fn edit_selected(&mut self, terminal: &mut DefaultTerminal) -> io::Result<()> {
        let Some(id) = self.selected_id() else {
            return Ok(());
        };
        let Some(title) = self
            .tasks
            .iter()
            .find(|t| t.id == id)
            .map(|t| t.title.clone())
        else {
            return Ok(());
        };
        let path = write_new_temp_file(&format!("{title}\n"))?;
        suspend_terminal()?;
        let status = {
            let _paused = taria::event::pause();
            editor_command(&path).status()
        };
        resume_terminal(terminal)?;
        let edited = std::fs::read_to_string(&path);
        let _ = std::fs::remove_file(&path);
        self.status = match (status, edited) {
            (Ok(status), Ok(text)) if status.success() => {
                let new = text.lines().next().unwrap_or("").trim().to_owned();
                if new.is_empty() {
                    "The title was left empty: the task is unchanged".into()
                } else {
                    if let Some(task) = self.tasks.iter_mut().find(|t| t.id == id) {
                        task.title.clone_from(&new);
                    }
                    format!("Renamed to \"{new}\"")
                }
            }
            (Ok(status), _) => format!("The editor ended with {status}: the task is unchanged"),
            (Err(e), _) => format!("Cannot start the editor ({e}): set $EDITOR"),
        };
        Ok(())
    }

    #[action(node = "tasks/*", toggle)]
    fn toggle_task(&mut self, key: u32) {
        if self.select_task(key).is_ok() {
            self.toggle_selected();
        }
    }

    #[action(node = "tasks/*", select)]
    fn select_task(&mut self, key: u32) -> Result<(), String> {
        let index = self
            .visible()
            .iter()
            .position(|t| t.id == key)
            .ok_or("that task is not shown")?;
        self.list.select(Some(index));
        Ok(())
    }

    #[action(node = "tasks/*", "delete")]
    fn ask_delete(&mut self, key: u32) -> Result<(), String> {
        self.select_task(key)?;
        self.mode = Mode::ConfirmingDelete;
        Ok(())
    }

    #[action(node = "confirm-delete", submit)]
    fn confirm_delete(&mut self) {
        self.delete_selected();
        self.mode = Mode::Browsing;
    }

    #[action(node = "confirm-delete", dismiss)]
    fn cancel_delete(&mut self) {
        self.mode = Mode::Browsing;
    }

    #[action(node = "new-task", set_value)]
    fn set_draft(&mut self, value: String) {
        self.mode = Mode::Adding;
        self.draft = value;
    }

    #[action(node = "new-task", submit)]
    fn submit_draft(&mut self) -> Result<(), String> {
        let title = self.draft.trim().to_owned();
        if title.is_empty() {
            tracing::warn!(draft = %self.draft, "refused a task with an empty title");
            return Err("the new task has no title: set_value on new-task first".into());
        }
        self.status = format!("Added \"{title}\"");
        self.add(title);
        self.draft.clear();
        self.mode = Mode::Browsing;
        Ok(())
    }

    #[action(node = "filter/*", select)]
    fn select_filter(&mut self, key: &str) -> Result<(), String> {
        self.filter = *Filter::ALL
            .iter()
            .find(|f| f.name().eq_ignore_ascii_case(key))
            .ok_or("no such filter")?;
        self.clamp_selection();
        Ok(())
    }
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
            tree_pane: TreePane::default(),
            should_quit: false,
            edit_requested: false,
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
                        tracing::warn!(draft = %self.draft, "refused a task with an empty title");
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
                // An agent's `e` would leave the app waiting in an editor it cannot drive.
                KeyCode::Char('e') if taria::event::from_agent() => {
                    self.status = "Editing in $EDITOR is for the person at the terminal".into();
                }
                KeyCode::Char('e') if self.selected_id().is_some() => self.edit_requested = true,
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
                KeyCode::F(2) => self.tree_pane.toggle(),
                _ => {}
            },
        }
    }
}

/// `$VISUAL`, else `$EDITOR`, else `vi`, opening `path`.
fn editor_command(path: &std::path::Path) -> std::process::Command {
    let editor = std::env::var("VISUAL")
        .or_else(|_| std::env::var("EDITOR"))
        .unwrap_or_else(|_| "vi".into());
    if cfg!(unix) {
        // `$EDITOR` may carry arguments (`code -w`): let the shell split it.
        let mut command = std::process::Command::new("sh");
        command
            .arg("-c")
            .arg(format!("{editor} \"$1\""))
            .arg("sh")
            .arg(path);
        command
    } else {
        let mut command = std::process::Command::new(editor);
        command.arg(path);
        command
    }
}

/// Writes `text` to a new file in the temp directory, never one that exists already
/// (another user's file or link there is left alone).
fn write_new_temp_file(text: &str) -> io::Result<std::path::PathBuf> {
    use std::io::Write as _;
    for attempt in 0..100 {
        let path =
            std::env::temp_dir().join(format!("taria-todo-{}-{attempt}.txt", std::process::id()));
        match std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&path)
        {
            Ok(mut file) => {
                file.write_all(text.as_bytes())?;
                return Ok(path);
            }
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists => {}
            Err(e) => return Err(e),
        }
    }
    Err(io::Error::other("no free name for a temporary file"))
}
