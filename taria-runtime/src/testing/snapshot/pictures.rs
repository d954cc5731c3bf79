//! The screens of a failing snapshot as pictures, next to it: the screen the recorded
//! session showed at that step (`NAME.expected.svg`) and the one the test drew
//! (`NAME.actual.svg`), so a reviewer sees what changed, not only the outline's diff.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use ratatui::buffer::Buffer;
use taria_schema::picture::{Look, svg};
use taria_schema::protocol::ScreenStyles;
use taria_schema::recording::{RecordedLine, Recording};

use crate::endpoint::screen_styles;

/// Where a test's pictures go, and the recording whose screens they are held against.
#[derive(Clone, Debug)]
pub(super) struct Pictures {
    /// The snapshots' folder.
    dir: PathBuf,
    /// The recorded session the test replays.
    recording: PathBuf,
    /// Its screens by step (0: the first tree's), read at the first failure; or why
    /// they cannot be read.
    screens: OnceLock<Result<HashMap<u64, Vec<String>>, String>>,
}

impl Pictures {
    pub(super) fn new(dir: PathBuf, recording: PathBuf) -> Pictures {
        Pictures {
            dir,
            recording,
            screens: OnceLock::new(),
        }
    }

    fn paths(&self, name: &str) -> [PathBuf; 2] {
        [
            self.dir.join(format!("{name}.expected.svg")),
            self.dir.join(format!("{name}.actual.svg")),
        ]
    }

    /// A step's snapshot passed: pictures left by an earlier failure are stale.
    pub(super) fn passed(&self, name: &str) {
        for path in self.paths(name) {
            // Usually there is none.
            let _ = std::fs::remove_file(path);
        }
    }

    /// Step `step`'s snapshot `name` failed with `screen` drawn: writes the actual
    /// screen's picture and, when the recording has a screen for the step (`recorded`),
    /// the expected one. Says what it wrote, or why not, a line each.
    pub(super) fn failed(
        &self,
        name: &str,
        step: u64,
        screen: &Buffer,
        recorded: bool,
    ) -> Vec<String> {
        let [expected_path, actual_path] = self.paths(name);
        let look = Look::default();
        let actual = std::fs::create_dir_all(&self.dir)
            .map_err(|e| format!("cannot create {}: {e}", self.dir.display()))
            .and_then(|()| write(&actual_path, &svg(&screen_styles(screen), &look)));
        if let Err(why) = actual {
            return vec![format!("the step's screens were not written: {why}")];
        }
        let expected = if recorded {
            self.screen(step).and_then(|rows| {
                let width = rows
                    .iter()
                    .map(|row| unicode_width(row))
                    .max()
                    .unwrap_or(0)
                    .max(usize::from(screen.area.width));
                let cols = u16::try_from(width).unwrap_or(u16::MAX);
                let styles = ScreenStyles::text_only(rows.iter().map(String::as_str), cols);
                write(&expected_path, &svg(&styles, &look)).map(|()| expected_path.clone())
            })
        } else {
            Err("the recording has no screen for this step".to_owned())
        };
        let mut said = vec![format!(
            "the screen step {step} drew is at {}",
            actual_path.display()
        )];
        match expected {
            Ok(path) => said.push(format!(
                "the screen the recorded session showed is at {}",
                path.display()
            )),
            Err(why) => {
                // Not one from an earlier run, beside this run's actual screen.
                let _ = std::fs::remove_file(&expected_path);
                said.push(format!("no picture of the recorded screen: {why}"));
            }
        }
        said
    }

    /// The recorded screen of step `step`.
    fn screen(&self, step: u64) -> Result<&Vec<String>, String> {
        let screens = self
            .screens
            .get_or_init(|| recorded_screens(&self.recording))
            .as_ref()
            .map_err(Clone::clone)?;
        screens
            .get(&step)
            .ok_or_else(|| format!("{} has no screen for step {step}", self.recording.display()))
    }
}

/// The screens of the recording at `path` by step: the first tree's as step 0 (as
/// `taria-mcp test-from` takes it), then each input's.
fn recorded_screens(path: &Path) -> Result<HashMap<u64, Vec<String>>, String> {
    let recording = Recording::read(path).map_err(|e| e.to_string())?;
    let mut screens = HashMap::new();
    if let Some(first) = recording.first_screen() {
        screens.insert(0, first.clone());
    }
    for line in &recording.lines {
        if let RecordedLine::Input(input) = line
            && let Some(screen) = &input.screen
        {
            screens.insert(input.step, screen.clone());
        }
    }
    Ok(screens)
}

fn unicode_width(text: &str) -> usize {
    unicode_width::UnicodeWidthStr::width(text)
}

fn write(path: &Path, svg: &str) -> Result<(), String> {
    std::fs::write(path, svg).map_err(|e| format!("cannot write {}: {e}", path.display()))
}
