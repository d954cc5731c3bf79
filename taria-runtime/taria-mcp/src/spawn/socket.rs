//! The app's socket in spawn mode: a fresh private directory (Unix) or an unguessable
//! named pipe (Windows), and whether it is there yet.

use std::path::{Path, PathBuf};
#[cfg(windows)]
use std::time::Instant;

/// Whether the app's socket is there to connect to. A named pipe has no file: look
/// for it among the pipes instead (opening it, as `Path::exists` would, connects to
/// the app). When the pipes cannot be listed, the connection attempt tells.
#[cfg(windows)]
pub(crate) fn socket_exists(socket: &Path) -> bool {
    let name = pipe_name(socket);
    match std::fs::read_dir(r"\\.\pipe\") {
        Ok(pipes) => pipes
            .filter_map(Result::ok)
            .any(|pipe| pipe.file_name().eq_ignore_ascii_case(&name)),
        Err(e) => {
            tracing::debug!(error = %e, "cannot list named pipes");
            true
        }
    }
}

/// The app's socket file is there.
#[cfg(unix)]
pub(crate) fn socket_exists(socket: &Path) -> bool {
    socket.exists()
}

/// The named pipe an app serving `socket` listens on: `taria-<file stem>`, as
/// `taria_schema::socket::socket_name` makes it on Windows.
#[cfg(windows)]
fn pipe_name(socket: &Path) -> String {
    let stem = socket
        .file_stem()
        .and_then(|s| s.to_str())
        .unwrap_or("taria");
    format!("taria-{stem}")
}

/// Where the app's socket goes, and the directory to remove afterwards: `<pid>.sock` in
/// a fresh private directory (see [`private_dir`]).
#[cfg(unix)]
pub(super) fn private_socket() -> std::io::Result<(PathBuf, Option<PathBuf>)> {
    let dir = private_dir()?;
    let socket = dir.join(format!("{}.sock", std::process::id()));
    Ok((socket, Some(dir)))
}

/// Where the app's socket goes: on Windows the endpoint is a named pipe named after
/// the path's file stem, in one namespace for everyone, so the stem is
/// `mcp-<pid>-<64 random bits>`: unique per spawn, and not guessable for another
/// session (or user) to take first. The path is in the per-user socket directory;
/// no file is made there.
#[cfg(windows)]
pub(super) fn private_socket() -> std::io::Result<(PathBuf, Option<PathBuf>)> {
    use std::hash::BuildHasher as _;
    let base = taria_schema::socket::private_socket_dir().map_err(std::io::Error::other)?;
    // std seeds each RandomState from the OS's random source.
    let token = std::hash::RandomState::new().hash_one((
        std::process::id(),
        std::time::SystemTime::now(),
        Instant::now(),
    ));
    let socket = base.join(format!("mcp-{}-{token:016x}.sock", std::process::id()));
    Ok((socket, None))
}

/// A fresh directory only this user can enter, for the app's socket:
/// `mcp-<pid>-<n>` in the per-user socket directory apps use
/// (`$XDG_RUNTIME_DIR/taria`, else `<temp dir>/taria-<uid>`), which is checked to be
/// private first.
#[cfg(unix)]
fn private_dir() -> std::io::Result<PathBuf> {
    let base = taria_schema::socket::private_socket_dir().map_err(std::io::Error::other)?;
    let prefix = "mcp";
    let seed = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.subsec_nanos());
    let mut last = None;
    for attempt in 0..64u32 {
        let dir = base.join(format!(
            "{prefix}-{}-{:08x}",
            std::process::id(),
            seed.wrapping_add(attempt.wrapping_mul(0x9e37_79b9))
        ));
        // Not recursive: an existing entry (a planted symlink too) is never reused.
        match private_builder().create(&dir) {
            Ok(()) => return Ok(dir),
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => last = Some(e),
            Err(e) => return Err(e),
        }
    }
    Err(last.unwrap_or_else(|| std::io::Error::other("no free directory name")))
}

/// Makes one directory (not its parents), mode 0700.
#[cfg(unix)]
fn private_builder() -> std::fs::DirBuilder {
    use std::os::unix::fs::DirBuilderExt as _;
    let mut builder = std::fs::DirBuilder::new();
    builder.mode(0o700);
    builder
}
