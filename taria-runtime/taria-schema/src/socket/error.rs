//! [`EndpointError`]: why an app's socket could not be served.

use std::path::PathBuf;

/// Why the endpoint could not start. The app keeps running without it.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum EndpointError {
    /// The label is not usable in a socket name.
    #[error("invalid app label {label:?}: use 1-64 ASCII letters, digits, '-', '_' or '.'")]
    InvalidLabel {
        /// The label given.
        label: String,
    },
    /// Another live app already serves this label.
    #[error(
        "label {label:?} is in use: another app is listening at {path}; give this app another label (or stop the other one)"
    )]
    LabelInUse {
        /// The label.
        label: String,
        /// The socket path.
        path: PathBuf,
    },
    /// The socket directory could be reached by someone else.
    #[error("refusing to use {path} for the socket: {reason}")]
    InsecureDirectory {
        /// The directory.
        path: PathBuf,
        /// What is wrong with it.
        reason: String,
    },
    /// A file that is not a socket is in the way.
    #[error("{path} exists and is not a socket; remove it or set TARIA_SOCKET to another path")]
    NotASocket {
        /// The path.
        path: PathBuf,
    },
    /// The socket path is longer than a Unix socket address can hold.
    #[error(
        "the socket path {path} is {len} bytes, but a socket path can be at most {max} bytes \
         on this system; set TARIA_SOCKET to a shorter path"
    )]
    PathTooLong {
        /// The path.
        path: PathBuf,
        /// Its length in bytes.
        len: usize,
        /// The most this system takes.
        max: usize,
    },
    /// An I/O error while setting up.
    #[error("cannot set up the socket at {path}: {source}")]
    Io {
        /// The path involved.
        path: PathBuf,
        /// The error.
        source: std::io::Error,
    },
}
