//! The file browser's state, run loop and key handling. taria adds `#[taria::app]`
//! (records each frame, serves it to agents, merges their keys into `event::read`)
//! and the `#[action]` handlers agents call; the rest is plain ratatui.

use std::fs;
use std::io::{self, Read};
use std::path::{Path, PathBuf};

use ratatui::DefaultTerminal;
use ratatui::crossterm::event::{self, Event, KeyCode, KeyEvent, KeyEventKind, KeyModifiers};
use taria::ScrollDirection;
use taria_widgets::ListState;

use crate::tree_pane::TreePane;

/// How much of a file the preview reads.
pub(crate) const PREVIEW_BYTES: usize = 8 * 1024;

/// What a tree entry is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Kind {
    Folder,
    File,
    /// Anything else: a broken link, a socket, a device.
    Other,
}

/// One file or folder of the tree. Its index in [`App::entries`] is its id (agents
/// see `files/<index>`): given when its folder is first read, never reused.
pub(crate) struct Entry {
    pub(crate) name: String,
    pub(crate) path: PathBuf,
    pub(crate) kind: Kind,
    pub(crate) size: u64,
    /// 0 for the entries of the root folder.
    pub(crate) depth: usize,
    pub(crate) parent: Option<usize>,
    /// A folder's entries, once read (read again on each expand).
    pub(crate) children: Option<Vec<usize>>,
    pub(crate) expanded: bool,
}

impl Entry {
    pub(crate) fn is_hidden(&self) -> bool {
        self.name.starts_with('.')
    }
}

/// What the preview pane shows.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Preview {
    /// Nothing is selected.
    Nothing,
    /// The start of a text file (control characters made visible).
    Text {
        text: String,
        size: u64,
    },
    Binary {
        size: u64,
    },
    Folder {
        items: usize,
    },
    /// The file or folder could not be read.
    Error(String),
}

pub(crate) struct App {
    /// The folder being browsed.
    pub(crate) root: PathBuf,
    /// Its name, as the tree's label.
    pub(crate) root_name: String,
    pub(crate) entries: Vec<Entry>,
    /// The root folder's entries.
    top: Vec<usize>,
    /// The entries on the tree's rows, in order: the expanded part of the tree.
    pub(crate) rows: Vec<usize>,
    /// Each row's place among its shown siblings: index and count.
    pub(crate) places: Vec<(usize, usize)>,
    /// The selected row and the first row on screen.
    pub(crate) list: ListState,
    /// How many rows fit on screen (set when drawing).
    pub(crate) viewport: usize,
    pub(crate) preview: Preview,
    /// The first preview line on screen.
    pub(crate) preview_scroll: u16,
    pub(crate) show_hidden: bool,
    pub(crate) status: String,
    /// The `F2` pane showing the semantic tree.
    pub(crate) tree_pane: TreePane,
    pub(crate) should_quit: bool,
}

#[taria::app(label = "files")]
impl App {
    /// The event loop: draw, then handle one event, until quit.
    pub(crate) fn run(&mut self, terminal: &mut DefaultTerminal) -> io::Result<()> {
        while !self.should_quit {
            terminal.draw(|frame| crate::ui::draw(frame, self))?;
            if self.tree_pane.take_latest() {
                terminal.draw(|frame| crate::ui::draw(frame, self))?;
            }
            self.on_event(&event::read()?);
        }
        Ok(())
    }

    /// Opens a folder: reads its entries (again, so the tree is current) and shows them.
    #[action(node = "files/*", expand)]
    pub(crate) fn expand(&mut self, key: usize) -> Result<(), String> {
        let entry = self.entries.get(key).ok_or("no such entry")?;
        if entry.kind != Kind::Folder {
            return Err(format!("{} is not a folder", entry.name));
        }
        let children = self.read_folder(Some(key)).map_err(|e| {
            let message = format!("cannot open {}: {e}", self.entries[key].name);
            tracing::warn!(folder = %self.entries[key].path.display(), error = %e, "cannot read a folder");
            self.status.clone_from(&message);
            message
        })?;
        let entry = &mut self.entries[key];
        entry.children = Some(children);
        entry.expanded = true;
        self.status = format!("Opened {}", entry.name);
        self.refresh_rows();
        Ok(())
    }

    /// Closes a folder; a selection inside it moves to the folder.
    #[action(node = "files/*", collapse)]
    pub(crate) fn collapse(&mut self, key: usize) -> Result<(), String> {
        let entry = self.entries.get_mut(key).ok_or("no such entry")?;
        if entry.kind != Kind::Folder {
            return Err(format!("{} is not a folder", entry.name));
        }
        entry.expanded = false;
        let selected_inside = self
            .selected_entry()
            .is_some_and(|s| s != key && self.is_inside(s, key));
        if selected_inside {
            self.select_entry(key)?;
        }
        self.status = format!("Closed {}", self.entries[key].name);
        self.refresh_rows();
        Ok(())
    }

    /// Selects a file or folder shown in the tree and previews it.
    #[action(node = "files/*", select)]
    pub(crate) fn select_entry(&mut self, key: usize) -> Result<(), String> {
        let row = self
            .rows
            .iter()
            .position(|&e| e == key)
            .ok_or("that entry is not shown: expand its folder first")?;
        self.select_row(row);
        Ok(())
    }

    /// Moves the selection up or down the tree by `amount` rows.
    #[action(node = "files", scroll)]
    fn scroll_tree(&mut self, direction: ScrollDirection, amount: usize) -> Result<(), String> {
        let row = self.list.selected().unwrap_or(0);
        let row = match direction {
            ScrollDirection::Down => row.saturating_add(amount),
            ScrollDirection::Up => row.saturating_sub(amount),
            ScrollDirection::Left | ScrollDirection::Right => {
                return Err("the tree scrolls up and down".into());
            }
        };
        self.select_row(row);
        Ok(())
    }

    #[action(node = "hidden", toggle)]
    fn toggle_hidden(&mut self) {
        self.show_hidden = !self.show_hidden;
        self.status = if self.show_hidden {
            "Showing hidden files".into()
        } else {
            "Hiding hidden files".into()
        };
        self.refresh_rows();
    }
}

impl App {
    /// Browses `root`; its entries are read now, folders below it when expanded.
    pub(crate) fn open(root: &Path) -> io::Result<App> {
        let root = fs::canonicalize(root)?;
        let root_name = root.file_name().map_or_else(
            || root.display().to_string(),
            |n| n.to_string_lossy().into_owned(),
        );
        let mut app = App {
            root,
            root_name,
            entries: Vec::new(),
            top: Vec::new(),
            rows: Vec::new(),
            places: Vec::new(),
            list: ListState::default(),
            viewport: 20,
            preview: Preview::Nothing,
            preview_scroll: 0,
            show_hidden: false,
            status: "→ opens a folder, ← closes it, . shows hidden files, F2 the semantic tree."
                .into(),
            tree_pane: TreePane::default(),
            should_quit: false,
        };
        app.top = app.read_folder(None)?;
        app.refresh_rows();
        app.select_row(0);
        Ok(app)
    }

    /// The selected entry's index.
    pub(crate) fn selected_entry(&self) -> Option<usize> {
        self.list
            .selected()
            .and_then(|row| self.rows.get(row).copied())
    }

    /// Whether `entry` is somewhere below `folder`.
    fn is_inside(&self, entry: usize, folder: usize) -> bool {
        let mut at = self.entries[entry].parent;
        while let Some(parent) = at {
            if parent == folder {
                return true;
            }
            at = self.entries[parent].parent;
        }
        false
    }

    /// Reads a folder (`None`: the root): folders first, then by name. Entries seen
    /// before keep their index, so their ids stay the same.
    fn read_folder(&mut self, parent: Option<usize>) -> io::Result<Vec<usize>> {
        let (path, depth, known) = match parent {
            None => (self.root.clone(), 0, self.top.clone()),
            Some(p) => {
                let e = &self.entries[p];
                (
                    e.path.clone(),
                    e.depth + 1,
                    e.children.clone().unwrap_or_default(),
                )
            }
        };
        let mut found = Vec::new();
        for item in fs::read_dir(&path)? {
            let item = item?;
            let name = item.file_name().to_string_lossy().into_owned();
            let path = item.path();
            // Follow links: a link to a folder opens like the folder.
            let (kind, size) = match fs::metadata(&path) {
                Ok(m) if m.is_dir() => (Kind::Folder, 0),
                Ok(m) if m.is_file() => (Kind::File, m.len()),
                _ => (Kind::Other, 0),
            };
            found.push((name, path, kind, size));
        }
        found.sort_by(|a, b| {
            (a.2 != Kind::Folder)
                .cmp(&(b.2 != Kind::Folder))
                .then_with(|| a.0.to_lowercase().cmp(&b.0.to_lowercase()))
                .then_with(|| a.0.cmp(&b.0))
        });
        let mut children = Vec::with_capacity(found.len());
        for (name, path, kind, size) in found {
            let same = known
                .iter()
                .copied()
                .find(|&k| self.entries[k].name == name && self.entries[k].kind == kind);
            let index = if let Some(index) = same {
                self.entries[index].size = size;
                index
            } else {
                self.entries.push(Entry {
                    name,
                    path,
                    kind,
                    size,
                    depth,
                    parent,
                    children: None,
                    expanded: false,
                });
                self.entries.len() - 1
            };
            children.push(index);
        }
        Ok(children)
    }

    /// Lays the expanded part of the tree out in rows, keeping the selected entry
    /// selected when it is still shown.
    fn refresh_rows(&mut self) {
        let selected = self.selected_entry();
        let (mut rows, mut places) = (Vec::new(), Vec::new());
        self.lay_out(&self.top, &mut rows, &mut places);
        self.rows = rows;
        self.places = places;
        if let Some(row) = selected.and_then(|s| self.rows.iter().position(|&e| e == s)) {
            self.list.select(Some(row));
        } else {
            // It is hidden now: select what took its row.
            self.select_row(self.list.selected().unwrap_or(0));
        }
    }

    /// Appends the shown `children` of a folder, and the open folders' below them.
    fn lay_out(&self, children: &[usize], rows: &mut Vec<usize>, places: &mut Vec<(usize, usize)>) {
        let shown: Vec<usize> = children
            .iter()
            .copied()
            .filter(|&c| self.show_hidden || !self.entries[c].is_hidden())
            .collect();
        for (i, &c) in shown.iter().enumerate() {
            rows.push(c);
            places.push((i, shown.len()));
            let entry = &self.entries[c];
            if entry.expanded
                && let Some(grandchildren) = &entry.children
            {
                self.lay_out(grandchildren, rows, places);
            }
        }
    }

    /// Selects row `row` (clamped to the rows there are) and previews its entry.
    fn select_row(&mut self, row: usize) {
        let before = self.selected_entry();
        if self.rows.is_empty() {
            self.list.select(None);
        } else {
            self.list.select(Some(row.min(self.rows.len() - 1)));
        }
        let now = self.selected_entry();
        if now != before || self.preview == Preview::Nothing {
            self.preview = now.map_or(Preview::Nothing, |e| preview(&self.entries[e]));
            self.preview_scroll = 0;
        }
    }

    /// Keeps the selected row on screen: the first row shown, for `viewport` rows.
    pub(crate) fn fit_offset(&mut self, viewport: usize) {
        self.viewport = viewport.max(1);
        let selected = self.list.selected().unwrap_or(0);
        let most = self.rows.len().saturating_sub(self.viewport);
        let mut offset = self.list.offset().min(selected).min(most);
        if selected >= offset + self.viewport {
            offset = selected + 1 - self.viewport;
        }
        *self.list.offset_mut() = offset;
    }

    /// How many lines the preview has.
    fn preview_lines(&self) -> usize {
        match &self.preview {
            Preview::Text { text, .. } => text.lines().count(),
            _ => 1,
        }
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
        let row = self.list.selected().unwrap_or(0);
        let selected = self.selected_entry();
        let folder = selected.filter(|&e| self.entries[e].kind == Kind::Folder);
        match key.code {
            KeyCode::Char('q') | KeyCode::Esc => self.should_quit = true,
            KeyCode::Char('c') if key.modifiers.contains(KeyModifiers::CONTROL) => {
                self.should_quit = true;
            }
            KeyCode::Down | KeyCode::Char('j') => self.select_row(row + 1),
            KeyCode::Up | KeyCode::Char('k') => self.select_row(row.saturating_sub(1)),
            KeyCode::PageDown => self.select_row(row + self.viewport),
            KeyCode::PageUp => self.select_row(row.saturating_sub(self.viewport)),
            KeyCode::Home | KeyCode::Char('g') => self.select_row(0),
            KeyCode::End | KeyCode::Char('G') => self.select_row(usize::MAX),
            KeyCode::Right | KeyCode::Char('l') => match folder {
                Some(f) if self.entries[f].expanded => self.select_row(row + 1),
                Some(f) => {
                    let _ = self.expand(f);
                }
                None => {}
            },
            KeyCode::Left | KeyCode::Char('h') => match (folder, selected) {
                (Some(f), _) if self.entries[f].expanded => {
                    let _ = self.collapse(f);
                }
                (_, Some(e)) => {
                    if let Some(parent) = self.entries[e].parent {
                        let _ = self.select_entry(parent);
                    }
                }
                _ => {}
            },
            KeyCode::Enter | KeyCode::Char(' ') => {
                if let Some(f) = folder {
                    let _ = if self.entries[f].expanded {
                        self.collapse(f)
                    } else {
                        self.expand(f)
                    };
                }
            }
            KeyCode::Char('J') => {
                let most = self.preview_lines().saturating_sub(1);
                let most = u16::try_from(most).unwrap_or(u16::MAX);
                self.preview_scroll = (self.preview_scroll + 3).min(most);
            }
            KeyCode::Char('K') => self.preview_scroll = self.preview_scroll.saturating_sub(3),
            KeyCode::Char('.') => self.toggle_hidden(),
            KeyCode::F(2) => self.tree_pane.toggle(),
            _ => {}
        }
    }
}

/// What the preview shows for `entry`: the start of a file, read now.
fn preview(entry: &Entry) -> Preview {
    match entry.kind {
        Kind::Folder => match fs::read_dir(&entry.path) {
            Ok(items) => Preview::Folder {
                items: items.count(),
            },
            Err(e) => Preview::Error(format!("cannot read folder: {e}")),
        },
        Kind::Other => {
            Preview::Error("not a regular file: a broken link, a socket or a device".into())
        }
        Kind::File => match read_start(&entry.path) {
            Ok((bytes, size)) if bytes.contains(&0) => Preview::Binary { size },
            Ok((bytes, size)) => Preview::Text {
                text: printable(&bytes),
                size,
            },
            Err(e) => Preview::Error(format!("cannot read: {e}")),
        },
    }
}

/// The first [`PREVIEW_BYTES`] of a file, and its size.
fn read_start(path: &Path) -> io::Result<(Vec<u8>, u64)> {
    let file = fs::File::open(path)?;
    let size = file.metadata()?.len();
    let mut bytes = Vec::with_capacity(PREVIEW_BYTES);
    file.take(PREVIEW_BYTES as u64).read_to_end(&mut bytes)?;
    Ok((bytes, size))
}

/// File bytes as text that is safe to draw: UTF-8 (a character cut at the end is
/// dropped, invalid bytes become `�`), tabs as spaces, carriage returns dropped, and
/// every other control character shown as its symbol (`␛`), so a file cannot send
/// escape sequences to the terminal.
pub(crate) fn printable(bytes: &[u8]) -> String {
    let bytes = match std::str::from_utf8(bytes) {
        Err(e) if e.error_len().is_none() => &bytes[..e.valid_up_to()],
        _ => bytes,
    };
    let mut text = String::with_capacity(bytes.len());
    for c in String::from_utf8_lossy(bytes).chars() {
        match c {
            '\n' => text.push('\n'),
            '\t' => text.push_str("    "),
            '\r' => {}
            '\u{7f}' => text.push('␡'),
            c if u32::from(c) < 0x20 => {
                text.push(char::from_u32(0x2400 + u32::from(c)).unwrap_or('�'));
            }
            c if c.is_control() => text.push('�'),
            c => text.push(c),
        }
    }
    text
}

/// `512 B`, `1.5 KiB`, `3.2 MiB`.
pub(crate) fn human_size(bytes: u64) -> String {
    const UNITS: [&str; 4] = ["KiB", "MiB", "GiB", "TiB"];
    if bytes < 1024 {
        return format!("{bytes} B");
    }
    #[expect(clippy::cast_precision_loss, reason = "a size shown with one decimal")]
    let mut size = bytes as f64 / 1024.0;
    let mut unit = 0;
    while size >= 1024.0 && unit < UNITS.len() - 1 {
        size /= 1024.0;
        unit += 1;
    }
    format!("{size:.1} {}", UNITS[unit])
}
