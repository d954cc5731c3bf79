//! The one way to start a [`Session`]: [`Session::builder`], then
//! [`start`](SessionBuilder::start) (never fails) or
//! [`try_start`](SessionBuilder::try_start) (says why the endpoint cannot start).

use std::io::IsTerminal as _;
use std::path::PathBuf;
use std::sync::Arc;

use super::Session;
use super::transport::{InProcess, Socket, Transport};
use crate::endpoint::{Endpoint, Signal};
use crate::logs::{LogHub, LogLayer, LogSink, install_panic_hook};
use taria_schema::socket::EndpointError;

/// How a [`Session`] is set up; from [`Session::builder`].
///
/// # Examples
///
/// ```
/// let dir = std::env::temp_dir().join(format!("taria-doc-{}-builder", std::process::id()));
/// let session = taria::Session::builder("todo")
///     .socket(dir.join("todo.sock"))
///     .terminal_input(false)
///     .start();
/// assert_eq!(session.label(), "todo");
/// assert_eq!(session.socket_path(), Some(dir.join("todo.sock").as_path()));
///
/// let refused = taria::Session::builder("not a label!").try_start().unwrap_err();
/// assert!(matches!(refused, taria::EndpointError::InvalidLabel { .. }));
/// # drop(session);
/// # std::fs::remove_dir_all(&dir)?;
/// # Ok::<(), std::io::Error>(())
/// ```
#[derive(Clone, Debug)]
#[must_use]
pub struct SessionBuilder {
    label: String,
    socket: Option<PathBuf>,
    terminal_input: bool,
    screen_reader: bool,
}

impl SessionBuilder {
    pub(super) fn new(label: &str) -> SessionBuilder {
        SessionBuilder {
            label: label.to_owned(),
            socket: None,
            terminal_input: true,
            screen_reader: true,
        }
    }

    /// Binds at `path` instead of the path [`socket_path`](taria_schema::socket::socket_path)
    /// resolves.
    pub fn socket(mut self, path: impl Into<PathBuf>) -> SessionBuilder {
        self.socket = Some(path.into());
        self
    }

    /// Whether [`crate::event`] also reads terminal events (on a background thread;
    /// on by default). Turn it off for headless apps and tests, where only agent input
    /// arrives.
    pub fn terminal_input(mut self, on: bool) -> SessionBuilder {
        self.terminal_input = on;
        self
    }

    /// Whether the app's tree is exported to screen readers over AT-SPI, through
    /// AccessKit (on by default). It needs cargo feature `atspi`, on Linux; without
    /// it this does nothing. The export does no work until a screen reader turns
    /// AT-SPI on (`docs/accessibility.md`).
    pub fn screen_reader(mut self, on: bool) -> SessionBuilder {
        self.screen_reader = on;
        self
    }

    /// Starts the session; never fails. When the endpoint cannot start (label in
    /// use, no runtime directory), the app runs exactly as before: the session logs
    /// a `tracing` warning and prints one line on stderr saying why and what to do,
    /// when it ends (for `#[taria::app]`, after the app has restored the terminal),
    /// or at once when stderr is not a terminal.
    #[must_use]
    pub fn start(self) -> Session {
        match self.clone().try_start() {
            Ok(session) => session,
            Err(error) => {
                tracing::warn!(%error, "taria: agent access is off for this run");
                let mut session = self.build(None, Arc::new(Signal::default()), None);
                session.start_error = Some(StartError {
                    message: error.to_string(),
                    reported: false,
                });
                // The app's screen is the terminal: say it now only when stderr goes
                // elsewhere (a log file); otherwise when the session ends.
                if !std::io::stderr().is_terminal() {
                    session.report_start_error();
                }
                session
            }
        }
    }

    /// Starts the session, or says why its endpoint cannot start.
    ///
    /// When the thread's `tracing` subscriber has a [`taria::logs`](crate::logs)
    /// layer, a bridge that asks gets the app's log, and a panic is logged as an
    /// error before the app unwinds (a panic hook chained in front of the app's).
    pub fn try_start(self) -> Result<Session, EndpointError> {
        let signal = Arc::new(Signal::default());
        let logs = LogLayer::current_hub().map(|hub| hub.sink());
        if logs.is_some() {
            install_panic_hook();
        }
        let endpoint = match &self.socket {
            Some(path) => Endpoint::bind_at(&self.label, path, Arc::clone(&signal), logs.clone())?,
            None => Endpoint::bind(&self.label, Arc::clone(&signal), logs.clone())?,
        };
        Ok(self.build(Some(Arc::new(Socket(endpoint))), signal, logs))
    }

    /// A session whose consumer is in this process (the test harness): it submits
    /// inputs and reads answers through the returned handle, and every frame is
    /// recorded. No terminal input. With `logs`, the handle also takes the entries
    /// logged meanwhile.
    pub(crate) fn in_process(self, logs: Option<&Arc<LogHub>>) -> (Session, Arc<InProcess>) {
        let logs = logs.map(LogHub::sink);
        let transport = InProcess::new(logs.clone());
        let session = self.terminal_input(false).screen_reader(false).build(
            Some(Arc::clone(&transport) as Arc<dyn Transport>),
            Arc::new(Signal::default()),
            logs,
        );
        (session, transport)
    }

    fn build(
        self,
        transport: Option<Arc<dyn Transport>>,
        signal: Arc<Signal>,
        logs: Option<Arc<LogSink>>,
    ) -> Session {
        let assistive =
            super::assistive::Assistive::start(&self.label, &signal, self.screen_reader);
        Session::new(
            self.label,
            transport,
            super::events::Events::new(signal, self.terminal_input),
            logs,
            assistive,
        )
    }
}

/// Why a session's endpoint did not start.
pub(super) struct StartError {
    pub(super) message: String,
    /// Printed already (see [`Session::report_start_error`]).
    pub(super) reported: bool,
}

impl Session {
    /// Prints why the endpoint did not start, once, as one line on stderr.
    pub(super) fn report_start_error(&mut self) {
        if let Some(error) = &mut self.start_error
            && !std::mem::replace(&mut error.reported, true)
        {
            eprintln!(
                "taria: agent access was off for this run: {}",
                error.message
            );
        }
    }
}
