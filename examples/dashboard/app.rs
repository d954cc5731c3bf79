//! The dashboard's state, run loop and key handling. taria adds `#[taria::app]`
//! (records each frame, serves it to agents, merges their keys into `event::read`
//! and `event::poll`) and the `#[action]` handlers agents call; the rest is plain
//! ratatui.

use std::io;
use std::time::{Duration, Instant};

use ratatui::DefaultTerminal;
use ratatui::crossterm::event::{self, Event, KeyCode, KeyEvent, KeyEventKind, KeyModifiers};
use taria::{FromValue, ScrollDirection};
use taria_widgets::{TableState, TextInputState};

use crate::sim::{Column, Machine, Process};
use crate::tree_pane::TreePane;

/// How often the simulated machine moves on.
pub(crate) const TICK: Duration = Duration::from_secs(1);
/// The seed of the demo's data (tests use the same one).
pub(crate) const SEED: u64 = 0x7a71_a5ee_d000_0001;

#[expect(
    clippy::struct_excessive_bools,
    reason = "independent switches of the UI, not a state machine"
)]
pub(crate) struct App {
    pub(crate) machine: Machine,
    /// The table's rows: indices into `machine.processes`, filtered and sorted.
    pub(crate) view: Vec<usize>,
    pub(crate) sort: Column,
    pub(crate) descending: bool,
    pub(crate) table: TableState,
    /// The selected process, kept selected when a tick sorts the rows again.
    selected_pid: Option<u32>,
    pub(crate) filter: TextInputState,
    /// Whether keys go to the filter field.
    pub(crate) filtering: bool,
    /// How many lines the log is scrolled back from its newest (0: following).
    pub(crate) log_back: usize,
    /// How many log lines fit on screen (set when drawing).
    pub(crate) log_viewport: usize,
    /// How many table rows fit on screen (set when drawing).
    pub(crate) table_viewport: usize,
    /// Whether the timer moves the machine on.
    pub(crate) live: bool,
    pub(crate) status: String,
    /// The `F2` pane showing the semantic tree.
    pub(crate) tree_pane: TreePane,
    pub(crate) should_quit: bool,
}

#[taria::app(label = "dashboard")]
impl App {
    /// The event loop: draw, then wait for a key or the next tick, until quit.
    pub(crate) fn run(&mut self, terminal: &mut DefaultTerminal) -> io::Result<()> {
        let mut next_tick = Instant::now() + TICK;
        while !self.should_quit {
            terminal.draw(|frame| crate::ui::draw(frame, self))?;
            if self.tree_pane.take_latest() {
                terminal.draw(|frame| crate::ui::draw(frame, self))?;
            }
            let timeout = next_tick.saturating_duration_since(Instant::now());
            if event::poll(timeout)? {
                self.on_event(&event::read()?);
            }
            if Instant::now() >= next_tick {
                if self.live {
                    self.tick();
                }
                next_tick = Instant::now() + TICK;
            }
        }
        Ok(())
    }

    /// Sorts by a column (`sort/cpu`); the direction stays when it is sorted by that
    /// column already, so selecting twice changes nothing (`reverse` flips it).
    #[action(node = "sort/*", select)]
    fn select_sort(&mut self, key: &str) -> Result<(), String> {
        let column = Column::from_key(key).ok_or_else(|| format!("no column `{key}`"))?;
        if column != self.sort {
            self.sort_by(column, column.default_descending());
        }
        Ok(())
    }

    #[action(node = "sort", "reverse")]
    fn reverse_sort(&mut self) {
        self.sort_by(self.sort, !self.descending);
    }

    /// Selects a process by its row (`processes/<pid>`: rows are keyed by PID, so the
    /// id still names the same process after a sort or a tick). The table widget
    /// could take this itself; the app does, so the rows it builds for the frame are
    /// the ones that will be on screen.
    #[action(node = "processes/*", select)]
    fn select_row(&mut self, key: u32) -> Result<(), String> {
        let row = self
            .view
            .iter()
            .position(|&i| self.machine.processes[i].pid == key)
            .ok_or_else(|| format!("process {key} is not in the table (filtered out, or gone)"))?;
        self.select_row_at(row)
    }

    /// `select` on the table itself, with the row number as the value.
    #[action(node = "processes", select)]
    fn select_row_by_number(&mut self, invocation: &taria::Invocation<'_>) -> Result<(), String> {
        let Some(Ok(row)) = invocation.value().map(usize::from_value) else {
            return Err("select a row (`processes/<pid>`), or give the row number".into());
        };
        self.select_row_at(row)
    }

    /// Moves the selection up or down by `amount` rows.
    #[action(node = "processes", scroll)]
    fn scroll_table(&mut self, direction: ScrollDirection, amount: u16) -> Result<(), String> {
        match direction {
            ScrollDirection::Down => self.table.scroll_down_by(amount),
            ScrollDirection::Up => self.table.scroll_up_by(amount),
            ScrollDirection::Left | ScrollDirection::Right => {
                return Err("the table scrolls up and down".into());
            }
        }
        self.clamp_selection();
        Ok(())
    }

    #[action(node = "filter", set_value)]
    fn set_filter(&mut self, value: String) {
        self.filter.set_value(value);
        self.apply_filter();
    }

    #[action(node = "live", toggle)]
    fn toggle_live(&mut self) {
        self.live = !self.live;
        self.status = if self.live {
            "Live updates on".into()
        } else {
            "Paused: p resumes".into()
        };
    }

    #[action(node = "log", scroll)]
    fn scroll_log(&mut self, direction: ScrollDirection, amount: usize) -> Result<(), String> {
        match direction {
            ScrollDirection::Up => self.log_back = self.log_back.saturating_add(amount),
            ScrollDirection::Down => self.log_back = self.log_back.saturating_sub(amount),
            ScrollDirection::Left | ScrollDirection::Right => {
                return Err("the log scrolls up and down".into());
            }
        }
        self.clamp_log();
        Ok(())
    }
}

impl App {
    /// The dashboard with its demo data, sorted by CPU, busiest first.
    pub(crate) fn new(seed: u64) -> App {
        let mut app = App {
            machine: Machine::new(seed),
            view: Vec::new(),
            sort: Column::Cpu,
            descending: true,
            table: TableState::default().with_selected(Some(0)),
            selected_pid: None,
            filter: TextInputState::default(),
            filtering: false,
            log_back: 0,
            log_viewport: 10,
            table_viewport: 10,
            live: true,
            status: "Welcome! 1-6 sort, / filters, p pauses, F2 shows the semantic tree.".into(),
            tree_pane: TreePane::default(),
            should_quit: false,
        };
        app.refresh_view();
        app.table.select(Some(0));
        app.sync_selected();
        app
    }

    /// One step of the timer: the machine moves on, the rows are sorted again (the
    /// selected process stays selected), a scrolled-back log stays where it was.
    pub(crate) fn tick(&mut self) {
        let written = self.machine.log_written;
        self.machine.tick();
        if self.log_back > 0 {
            let new = usize::try_from(self.machine.log_written - written).unwrap_or(0);
            self.log_back += new;
            self.clamp_log();
        }
        self.refresh_view();
    }

    /// The process in the table's row `row`.
    pub(crate) fn row(&self, row: usize) -> Option<&Process> {
        self.view.get(row).map(|&i| &self.machine.processes[i])
    }

    /// The selected process.
    pub(crate) fn selected(&self) -> Option<&Process> {
        self.table.selected().and_then(|row| self.row(row))
    }

    fn select_row_at(&mut self, row: usize) -> Result<(), String> {
        if row >= self.view.len() {
            return Err(format!("no row {row}: the table has {}", self.view.len()));
        }
        self.table.select(Some(row));
        self.sync_selected();
        Ok(())
    }

    /// Keeps the selection on a row (`select_last` and `scroll_down_by` go past the
    /// end) and remembers which process it is.
    fn clamp_selection(&mut self) {
        if let Some(row) = self.table.selected()
            && row >= self.view.len()
        {
            self.table.select(self.view.len().checked_sub(1));
        }
        self.sync_selected();
    }

    /// Remembers which process is selected (after the selection moved).
    pub(crate) fn sync_selected(&mut self) {
        self.selected_pid = self.selected().map(|p| p.pid);
    }

    /// Sorts the rows and shows the top of the table (a timer tick sorts again too,
    /// but keeps the selected process selected).
    pub(crate) fn sort_by(&mut self, column: Column, descending: bool) {
        self.sort = column;
        self.descending = descending;
        self.selected_pid = None;
        self.refresh_view();
        self.status = format!(
            "Sorted by {} {}",
            column.title(),
            if descending { "▼" } else { "▲" }
        );
    }

    /// Filters the rows and shows the top of the table.
    fn apply_filter(&mut self) {
        self.selected_pid = None;
        self.refresh_view();
        let shown = self.view.len();
        self.status = if self.filter.value().is_empty() {
            "Filter cleared".into()
        } else {
            format!(
                "{shown} of {} processes match \"{}\"",
                self.machine.processes.len(),
                self.filter.value()
            )
        };
    }

    /// Rebuilds the rows from the filter and the sort order, keeping the selected
    /// process selected when it is still shown.
    fn refresh_view(&mut self) {
        let needle = self.filter.value().to_lowercase();
        let processes = &self.machine.processes;
        self.view.clear();
        self.view.extend((0..processes.len()).filter(|&i| {
            let p = &processes[i];
            needle.is_empty()
                || p.name.to_lowercase().contains(&needle)
                || p.user.contains(&needle)
                || p.pid.to_string().contains(&needle)
        }));
        let (column, descending) = (self.sort, self.descending);
        self.view.sort_unstable_by(|&a, &b| {
            let order = column.compare(&processes[a], &processes[b]);
            if descending { order.reverse() } else { order }
        });
        let row = self
            .selected_pid
            .and_then(|pid| self.view.iter().position(|&i| processes[i].pid == pid));
        match row {
            Some(row) => self.table.select(Some(row)),
            None if self.view.is_empty() => self.table.select(None),
            // A new order, or the selected process is filtered out: the top.
            None => self.table = TableState::default().with_selected(Some(0)),
        }
        // No blank rows below the last one when there are fewer rows than before.
        let most = self.view.len().saturating_sub(self.table_viewport);
        let offset = self.table.offset_mut();
        *offset = (*offset).min(most);
        self.sync_selected();
    }

    /// Keeps the log's scroll-back within the lines there are.
    fn clamp_log(&mut self) {
        let most = self
            .machine
            .log
            .len()
            .saturating_sub(self.log_viewport.max(1));
        self.log_back = self.log_back.min(most);
    }

    /// Handles one terminal event (what the loop read).
    pub(crate) fn on_event(&mut self, event: &Event) {
        if let Event::Key(key) = event
            && key.kind == KeyEventKind::Press
        {
            self.on_key(*key);
        }
    }

    fn on_key(&mut self, key: KeyEvent) {
        if self.filtering {
            match key.code {
                KeyCode::Enter => self.filtering = false,
                KeyCode::Esc => {
                    self.filtering = false;
                    self.filter.set_value("");
                    self.apply_filter();
                }
                _ => {
                    if self.filter.handle_key(key) {
                        self.apply_filter();
                    }
                }
            }
            return;
        }
        let page = 10;
        match key.code {
            KeyCode::Esc if !self.filter.value().is_empty() => {
                self.filter.set_value("");
                self.apply_filter();
            }
            KeyCode::Char('q') | KeyCode::Esc => self.should_quit = true,
            KeyCode::Char('c') if key.modifiers.contains(KeyModifiers::CONTROL) => {
                self.should_quit = true;
            }
            KeyCode::Down | KeyCode::Char('j') => self.table.scroll_down_by(1),
            KeyCode::Up | KeyCode::Char('k') => self.table.scroll_up_by(1),
            KeyCode::PageDown => self.table.scroll_down_by(page),
            KeyCode::PageUp => self.table.scroll_up_by(page),
            KeyCode::Home | KeyCode::Char('g') => self.table.select_first(),
            KeyCode::End | KeyCode::Char('G') => self.table.select_last(),
            KeyCode::Char(c @ '1'..='6') => {
                let column = Column::ALL[usize::from(c as u8 - b'1')];
                let descending = if column == self.sort {
                    !self.descending
                } else {
                    column.default_descending()
                };
                self.sort_by(column, descending);
            }
            KeyCode::Char('r') => self.sort_by(self.sort, !self.descending),
            KeyCode::Char('/') => self.filtering = true,
            KeyCode::Char('[') => {
                let _ = self.scroll_log(ScrollDirection::Up, 3);
            }
            KeyCode::Char(']') => {
                let _ = self.scroll_log(ScrollDirection::Down, 3);
            }
            KeyCode::Char('p' | ' ') => self.toggle_live(),
            KeyCode::F(2) => self.tree_pane.toggle(),
            _ => return,
        }
        self.clamp_selection();
    }
}
