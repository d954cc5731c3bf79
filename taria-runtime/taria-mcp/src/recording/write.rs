//! The recording's writing thread: each line as it comes, so nothing that records
//! waits on the file.

use std::path::Path;
use std::sync::{Mutex, mpsc};

use taria_schema::recording::RecordingWriter;

use super::book::Out;
use super::redact::input_line;
use crate::lock::lock;

/// Writes each line as it comes, until the recorder finishes or the file fails
/// (logged once, and noted for the agent; the rest is not written).
pub(super) fn write_all(
    file: std::fs::File,
    path: &Path,
    rx: &mpsc::Receiver<Out>,
    failure: &Mutex<Option<String>>,
) {
    let failed = |error: &std::io::Error| {
        tracing::error!(
            path = %path.display(),
            error = %error,
            "cannot write the recording; recording stops here (the session goes on)"
        );
        *lock(failure) = Some(format!(
            "note: the recording {} stopped here: it cannot be written ({error}); the \
             session goes on unrecorded",
            path.display()
        ));
    };
    let mut writer: Option<RecordingWriter<std::fs::File>> = None;
    let mut file = Some(file);
    for out in rx {
        let line = match out {
            Out::Header(header) => {
                let Some(file) = file.take() else { continue };
                match RecordingWriter::new(file, &header) {
                    Ok(w) => writer = Some(w),
                    Err(e) => return failed(&e),
                }
                continue;
            }
            Out::Line(line) => line,
            Out::Tree(pending) => pending.line(),
            Out::Input(input, step) => input_line(*input, step),
        };
        let Some(w) = writer.as_mut() else { continue };
        if let Err(e) = w.write(&line) {
            return failed(&e);
        }
    }
}
