//! Finding an app: where its socket lives ([`socket_path`], [`SOCKET_ENV`]), the
//! path as a local socket name ([`socket_name`]), and the checks an app makes before
//! it serves there, so nobody else can reach it ([`check_socket_path`],
//! [`check_socket_dir`], [`private_socket_dir`]). The app binds what these resolve;
//! a consumer connects to the same path, and says why when it cannot.

use std::path::{Path, PathBuf};

mod error;

pub use error::EndpointError;

/// The environment variable that overrides the socket path.
pub const SOCKET_ENV: &str = "TARIA_SOCKET";

/// Checks an app label: 1 to 64 ASCII letters, digits, `-`, `_` or `.`, not starting with `.`.
///
/// # Errors
///
/// [`EndpointError::InvalidLabel`] for any other label.
pub fn check_label(label: &str) -> Result<(), EndpointError> {
    let ok = !label.is_empty()
        && label.len() <= 64
        && !label.starts_with('.')
        && label
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.'));
    if ok {
        Ok(())
    } else {
        Err(EndpointError::InvalidLabel {
            label: label.chars().take(80).collect(),
        })
    }
}

/// The longest socket path this system's socket address holds, in bytes (without
/// the terminating NUL): `sun_path` is 108 bytes on Linux, 104 on macOS and the BSDs.
#[cfg(any(target_os = "linux", target_os = "android"))]
pub const MAX_SOCKET_PATH: usize = 107;
/// The longest socket path this system's socket address holds, in bytes (without
/// the terminating NUL): `sun_path` is 108 bytes on Linux, 104 on macOS and the BSDs.
#[cfg(all(unix, not(any(target_os = "linux", target_os = "android"))))]
pub const MAX_SOCKET_PATH: usize = 103;

/// Refuses a socket path too long for a socket address (107 bytes on Linux, 103 on
/// macOS and the BSDs): binding it would fail or, worse, leave a file nothing can
/// connect to. An app checks this before it binds, and a bridge before it connects.
///
/// # Examples
///
/// ```
/// let long = std::path::Path::new("/tmp").join("s".repeat(200));
/// # #[cfg(unix)]
/// assert!(taria_schema::socket::check_socket_path(&long).is_err());
/// assert!(taria_schema::socket::check_socket_path(std::path::Path::new("/tmp/todo.sock")).is_ok());
/// ```
#[cfg(unix)]
pub fn check_socket_path(path: &Path) -> Result<(), EndpointError> {
    let len = path.as_os_str().len();
    if len > MAX_SOCKET_PATH {
        return Err(EndpointError::PathTooLong {
            path: path.to_owned(),
            len,
            max: MAX_SOCKET_PATH,
        });
    }
    Ok(())
}

/// Refuses a socket path too long for a socket address. On Windows the endpoint is a
/// named pipe named after the path's file stem, so any path will do.
#[cfg(not(unix))]
pub fn check_socket_path(_: &Path) -> Result<(), EndpointError> {
    Ok(())
}

/// The socket path for `label`: `$TARIA_SOCKET` if set, else
/// `$XDG_RUNTIME_DIR/taria/<label>.sock`, else `<temp dir>/taria-<uid>/<label>.sock`.
///
/// # Examples
///
/// ```
/// # // SAFETY-free: only reads the environment.
/// let path = taria_schema::socket::socket_path("todo").unwrap();
/// assert!(path.ends_with("todo.sock") || std::env::var_os("TARIA_SOCKET").is_some());
/// ```
pub fn socket_path(label: &str) -> Result<PathBuf, EndpointError> {
    check_label(label)?;
    if let Some(path) = std::env::var_os(SOCKET_ENV).filter(|p| !p.is_empty()) {
        return Ok(PathBuf::from(path));
    }
    Ok(socket_dir().join(format!("{label}.sock")))
}

/// The per-user directory sockets go in (not created here): `$XDG_RUNTIME_DIR/taria`,
/// or `taria-<uid>` in the temporary directory.
pub fn socket_dir() -> PathBuf {
    if let Some(runtime) = std::env::var_os("XDG_RUNTIME_DIR").filter(|p| !p.is_empty()) {
        return PathBuf::from(runtime).join("taria");
    }
    std::env::temp_dir().join(format!("taria-{}", user_id()))
}

/// The user a socket directory is kept for: the effective uid on Unix.
#[cfg(unix)]
pub fn user_id() -> u32 {
    rustix::process::geteuid().as_raw()
}

/// The user a socket directory is kept for: `USERNAME` elsewhere.
#[cfg(not(unix))]
pub fn user_id() -> String {
    std::env::var("USERNAME").unwrap_or_else(|_| "user".into())
}

/// Creates the socket's directory if needed, mode 0700, and checks that it is a real
/// directory (not a symlink), owned by this user, and not reachable by others.
///
/// # Errors
///
/// When the directory cannot be created, or is not private to this user.
pub fn prepare_dir(socket: &Path) -> Result<(), EndpointError> {
    match socket.parent().filter(|d| !d.as_os_str().is_empty()) {
        Some(dir) => ensure_private_dir(dir),
        None => Ok(()),
    }
}

/// The per-user socket directory (`$XDG_RUNTIME_DIR/taria`, else
/// `<temp dir>/taria-<uid>`), created 0700 if missing, and checked to be a real
/// directory owned by this user that others cannot reach, as an app's socket
/// directory is: where `taria-mcp` makes a spawned app's private directory.
pub fn private_socket_dir() -> Result<PathBuf, EndpointError> {
    let dir = socket_dir();
    ensure_private_dir(&dir)?;
    Ok(dir)
}

/// Why an app would refuse to serve at `socket`, as it checks before it binds: the
/// path is too long for a socket address ([`check_socket_path`]), or its directory is
/// a symbolic link, not a directory, owned by another user, or reachable by others
/// (the app wants it 0700). `Ok` when none of these holds, including when the
/// directory does not exist yet (the app creates it). For a consumer that finds no
/// app at a path and wants to say why.
///
/// # Examples
///
/// ```
/// # #[cfg(unix)] {
/// use std::os::unix::fs::PermissionsExt as _;
/// let dir = std::env::temp_dir().join(format!("taria-doc-{}", std::process::id()));
/// std::fs::create_dir_all(&dir).unwrap();
/// std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o755)).unwrap();
/// let refused = taria_schema::socket::check_socket_dir(&dir.join("app.sock")).unwrap_err();
/// assert!(refused.to_string().contains("755"), "{refused}");
/// std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o700)).unwrap();
/// assert!(taria_schema::socket::check_socket_dir(&dir.join("app.sock")).is_ok());
/// std::fs::remove_dir(&dir).unwrap();
/// # }
/// ```
pub fn check_socket_dir(socket: &Path) -> Result<(), EndpointError> {
    check_socket_path(socket)?;
    match socket.parent().filter(|d| !d.as_os_str().is_empty()) {
        Some(dir) if std::fs::symlink_metadata(dir).is_ok() => check_private_dir(dir),
        _ => Ok(()),
    }
}

/// Creates `dir` if needed, mode 0700, and checks that it is a real directory (not a
/// symlink), owned by this user, and not reachable by others.
fn ensure_private_dir(dir: &Path) -> Result<(), EndpointError> {
    match std::fs::symlink_metadata(dir) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => create_private_dir(dir)?,
        Err(source) => {
            return Err(EndpointError::Io {
                path: dir.to_owned(),
                source,
            });
        }
        Ok(_) => {}
    }
    check_private_dir(dir)
}

/// Checks that `dir` is a real directory (not a symlink), owned by this user, and not
/// reachable by others.
fn check_private_dir(dir: &Path) -> Result<(), EndpointError> {
    let insecure = |reason: String| EndpointError::InsecureDirectory {
        path: dir.to_owned(),
        reason,
    };
    let meta = std::fs::symlink_metadata(dir).map_err(|source| EndpointError::Io {
        path: dir.to_owned(),
        source,
    })?;
    if meta.file_type().is_symlink() {
        return Err(insecure("it is a symbolic link".into()));
    }
    if !meta.is_dir() {
        return Err(insecure("it is not a directory".into()));
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt as _;
        if meta.uid() != user_id() {
            return Err(insecure(format!(
                "it is owned by uid {}, not by this user (uid {})",
                meta.uid(),
                user_id()
            )));
        }
        if meta.mode() & 0o077 != 0 {
            return Err(insecure(format!(
                "its mode is {:o}; it must be 0700 (run `chmod 700 {}`)",
                meta.mode() & 0o777,
                dir.display()
            )));
        }
    }
    Ok(())
}

fn create_private_dir(dir: &Path) -> Result<(), EndpointError> {
    let mut builder = std::fs::DirBuilder::new();
    builder.recursive(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::DirBuilderExt as _;
        builder.mode(0o700);
    }
    builder.create(dir).map_err(|source| EndpointError::Io {
        path: dir.to_owned(),
        source,
    })?;
    // `mode` is filtered by the umask, which can only remove bits: 0700 or less.
    Ok(())
}

/// The local socket name an app serving `path` listens on: the socket file on Unix;
/// on Windows a named pipe named after the path's file stem (`taria-<label>`).
#[cfg(unix)]
pub fn socket_name(path: &Path) -> std::io::Result<interprocess::local_socket::Name<'_>> {
    use interprocess::local_socket::{GenericFilePath, ToFsName as _};
    path.to_fs_name::<GenericFilePath>()
}

/// The local socket name an app serving `path` listens on: the socket file on Unix;
/// on Windows a named pipe named after the path's file stem (`taria-<label>`).
#[cfg(windows)]
pub fn socket_name(path: &Path) -> std::io::Result<interprocess::local_socket::Name<'_>> {
    // Named pipes live in their own namespace; the path's file name names the pipe.
    use interprocess::local_socket::{GenericNamespaced, ToNsName as _};
    let stem = path.file_stem().and_then(|s| s.to_str()).unwrap_or("taria");
    format!("taria-{stem}")
        .to_ns_name::<GenericNamespaced>()
        .map(interprocess::local_socket::Name::into_owned)
}
