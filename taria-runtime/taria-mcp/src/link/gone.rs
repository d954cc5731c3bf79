//! Why there is no app to talk to, in words an agent can act on: attaching that
//! failed, a connection that ended, an exchange it cut off. In spawn mode these speak
//! of the app taria-mcp started (how it exited, what it printed), never of a socket
//! to start an app at: the socket is private, and only a restart of the MCP server
//! starts the app again.

use std::time::Duration;

use super::connection::Closed;
use super::{Inner, Link};
use crate::errors::{Code, ToolError};
use crate::lock::lock;

/// How long a spawned app whose connection ended is given to be seen exiting: a
/// killed app's socket closes a moment before its exit status is read.
const EXIT_WAIT: Duration = Duration::from_secs(1);

impl Inner {
    /// The error for "no usable connection", by why the last one ended (`closed`). In
    /// spawn mode, the app's exit when it is known, else spawn-mode words (see
    /// [`Link::not_connected_now`], which gives the exit time to be seen).
    pub(super) fn not_connected(&self, closed: Option<&Closed>) -> ToolError {
        if let Some(spawned) = &self.spawned {
            if let Some(exit) = spawned.exit() {
                return spawned.exited_error(&exit);
            }
            let app = match spawned.pid() {
                Some(pid) => format!("the app taria-mcp started (pid {pid})"),
                None => "the app taria-mcp started".to_owned(),
            };
            return match closed {
                Some(Closed::Busy(message)) => ToolError::new(
                    Code::Busy,
                    format!("{app} refused taria-mcp's connection: {message}; retry later"),
                ),
                Some(Closed::Refused(message)) => ToolError::new(
                    Code::AppNotConnected,
                    format!("{app} refused taria-mcp's connection: {message}"),
                ),
                Some(Closed::Stalled) => ToolError::new(
                    Code::AppNotConnected,
                    format!(
                        "{app} stopped reading its socket, so taria-mcp dropped the connection; \
                         retry: taria-mcp connects again on the next call"
                    ),
                ),
                Some(Closed::Failed) => ToolError::new(
                    Code::AppNotConnected,
                    format!(
                        "taria-mcp failed on something {app} sent (a bug in taria-mcp: its log \
                         says more) and dropped the connection; retry: taria-mcp connects again \
                         on the next call"
                    ),
                ),
                Some(Closed::Exited) => ToolError::new(
                    Code::AppNotConnected,
                    format!(
                        "{app} closed its connection and is still running (it may be exiting); \
                         retry in a moment: taria-mcp connects again, or says how the app ended"
                    ),
                ),
                Some(Closed::Released) | None => ToolError::new(
                    Code::AppNotConnected,
                    format!(
                        "{app} is running but not serving its socket now; retry in a moment \
                         (read_tree with format screen shows what it shows)"
                    ),
                ),
            };
        }
        let socket = self.socket.display();
        match closed {
            Some(Closed::Busy(message)) => ToolError::new(
                Code::Busy,
                format!(
                    "the app refused the connection: {message}. Another taria-mcp session (or \
                     client) holds it; retry later (sessions let go after their idle time)"
                ),
            ),
            Some(Closed::Refused(message)) => ToolError::new(
                Code::AppNotConnected,
                format!("the app at {socket} refused the connection: {message}"),
            ),
            Some(Closed::Exited) => ToolError::new(
                Code::AppExited,
                format!(
                    "the app exited (its connection at {socket} closed); start it again, then \
                     retry: taria-mcp reconnects on the next call"
                ),
            ),
            Some(Closed::Stalled) => ToolError::new(
                Code::AppNotConnected,
                format!(
                    "the app at {socket} stopped reading its socket, so taria-mcp dropped the \
                     connection; retry: taria-mcp reconnects on the next call"
                ),
            ),
            Some(Closed::Failed) => ToolError::new(
                Code::AppNotConnected,
                format!(
                    "taria-mcp failed on something the app at {socket} sent (a bug in taria-mcp: \
                     its log says more) and dropped the connection; retry: taria-mcp reconnects \
                     on the next call"
                ),
            ),
            Some(Closed::Released) | None => ToolError::new(
                Code::AppNotConnected,
                format!(
                    "no app is listening at {socket}; start the app (it serves its socket while \
                     running), then retry"
                ),
            ),
        }
    }
}

/// Why attaching to `socket` failed, and what to do about it.
pub(super) fn connect_failed(path: &std::path::Path, error: &std::io::Error) -> ToolError {
    if let Err(taria_schema::socket::EndpointError::PathTooLong { len, max, .. }) =
        taria_schema::socket::check_socket_path(path)
    {
        return ToolError::new(
            Code::AppNotConnected,
            format!(
                "cannot attach to {}: the path is {len} bytes, over the {max} a socket path can \
                 have on this system, so no app can listen there; give the app (TARIA_SOCKET) \
                 and --socket a shorter path",
                path.display()
            ),
        );
    }
    #[cfg(unix)]
    let (is_socket, socket) = {
        use std::os::unix::fs::FileTypeExt as _;
        let is_socket = std::fs::metadata(path).is_ok_and(|m| m.file_type().is_socket());
        (is_socket, path.display().to_string())
    };
    // A named pipe has no file: whatever is at the path is not what was tried. Name
    // the pipe that was.
    #[cfg(not(unix))]
    let (is_socket, socket) = (
        true,
        match taria_schema::socket::socket_name(path) {
            Ok(name) => format!("{} (named pipe {name:?})", path.display()),
            Err(_) => path.display().to_string(),
        },
    );
    let message = match error.kind() {
        std::io::ErrorKind::NotFound | std::io::ErrorKind::ConnectionRefused
            if !is_socket && path.exists() =>
        {
            format!(
                "{socket} is not a socket; check --socket/--app: it must be the socket of a \
             running taria app"
            )
        }
        // An app refuses a directory others can reach: if this one is such, that is
        // why nothing is there, whatever else could be.
        std::io::ErrorKind::NotFound => match taria_schema::socket::check_socket_dir(path) {
            Err(refused @ taria_schema::socket::EndpointError::InsecureDirectory { .. }) => {
                format!(
                    "no app is serving at {socket}, and none can: a taria app {refused} (it \
                 keeps running without agent access and says so on stderr when it exits). \
                 Fix the directory, or give the app (TARIA_SOCKET) and --socket a path in a \
                 0700 directory of yours, then restart the app"
                )
            }
            _ => format!(
                "no app is running at {socket}. Start the app (e.g. `cargo run --example \
                 todo`), then retry; or let taria-mcp start it: `taria-mcp -- <command>`. If \
                 it is running, it has another label or TARIA_SOCKET, or it is not built with \
                 taria (#[taria::app])"
            ),
        },
        std::io::ErrorKind::ConnectionRefused => format!(
            "{socket} is left over from an app that is no longer running; start the app \
             again, then retry"
        ),
        _ => format!(
            "cannot connect to {socket} ({error}); check --socket/--app: it must be the \
             socket of a running taria app"
        ),
    };
    ToolError::new(Code::AppNotConnected, message)
}

/// Where the link stands, for a person watching (the inspector).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Standing {
    /// A connection is open.
    Connected,
    /// No connection has opened yet (in attach mode taria-mcp connects on the
    /// agent's first tool call).
    NotYet,
    /// There is no connection now: why, in words.
    Gone(String),
}

impl Link {
    /// Where the link stands now.
    pub(crate) fn standing(&self) -> Standing {
        let state = lock(&self.inner.state);
        if state.open.is_some() {
            return Standing::Connected;
        }
        let exited = self.inner.spawned.as_ref().and_then(|s| s.exit());
        if state.generation == 0 && state.closed.is_none() && exited.is_none() {
            return Standing::NotYet;
        }
        Standing::Gone(self.inner.not_connected(state.closed.as_ref()).message)
    }

    /// [`Inner::not_connected`], once a spawned app whose connection ended has had
    /// [`EXIT_WAIT`] to be seen exiting.
    pub(super) async fn not_connected_now(&self) -> ToolError {
        if let Some(spawned) = &self.inner.spawned
            && spawned.exit().is_none()
        {
            spawned.exited_within(EXIT_WAIT).await;
        }
        self.not_connected()
    }

    /// [`Inner::not_connected`], by why the last connection ended.
    pub(super) fn not_connected(&self) -> ToolError {
        self.inner
            .not_connected(lock(&self.inner.state).closed.as_ref())
    }

    /// The error for an exchange the connection's end (`why`) cut off: `sent` says
    /// what was done ("sent, but"), `before` what did not come ("before answering"),
    /// `attach_next` what to do in attach mode. In spawn mode, how the app exited
    /// when it did.
    pub(super) async fn cut_off_error(
        &self,
        why: &Closed,
        (sent, before): (&str, &str),
        attach_next: &str,
    ) -> ToolError {
        let (code, cut_off) = why.cut_off();
        let Some(spawned) = &self.inner.spawned else {
            let message = format!("{sent} {cut_off} {before}{attach_next}");
            return ToolError::new(code, message.trim_start());
        };
        let message = match spawned.exited_within(EXIT_WAIT).await {
            Some(exit) => {
                let error = spawned.exited_error(&exit);
                let message = format!("{sent} {before}, {}", error.message);
                return ToolError {
                    message: message.trim_start().to_owned(),
                    ..error
                };
            }
            None => format!("{sent} {cut_off} {before}; read_tree to see where the app stands"),
        };
        ToolError::new(code, message.trim_start())
    }
}
