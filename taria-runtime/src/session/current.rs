//! This thread's session: what `#[taria::app]` starts on its first drain or draw, and
//! what the free functions [`drain`], [`draw`], [`with_session`] and [`crate::event`]
//! use.

use std::cell::RefCell;

use ratatui::backend::Backend;
use ratatui::{CompletedFrame, Frame, Terminal};

use super::{DrawOutput, FrameEnd, Session, terminal};
use crate::dispatch::Actions;

thread_local! {
    static CURRENT: RefCell<Option<Session>> = const { RefCell::new(None) };
}

/// Makes `session` this thread's session, for [`drain`] and [`crate::event`].
/// Returns the one it replaces.
///
/// # Examples
///
/// ```
/// let dir = std::env::temp_dir().join(format!("taria-doc-{}-install", std::process::id()));
/// let session = taria::Session::builder("todo")
///     .socket(dir.join("todo.sock"))
///     .terminal_input(false)
///     .start();
/// assert!(taria::install(session).is_none(), "this thread had no session");
/// let label = taria::with_session(|session| session.label().to_owned());
/// assert_eq!(label.as_deref(), Some("todo"));
/// # std::fs::remove_dir_all(&dir)?;
/// # Ok::<(), std::io::Error>(())
/// ```
pub fn install(session: Session) -> Option<Session> {
    terminal::set_thread_signal(&session.events.signal);
    CURRENT.with(|current| current.borrow_mut().replace(session))
}

/// Runs `f` with this thread's session, if there is one and it is not in use.
pub(crate) fn with_current<R>(f: impl FnOnce(&mut Session) -> R) -> Option<R> {
    CURRENT.with(|current| {
        current
            .try_borrow_mut()
            .ok()
            .and_then(|mut s| s.as_mut().map(f))
    })
}

/// Runs `f` with this thread's session, starting one labelled `label` first if needed.
pub(crate) fn with_current_or_start<R>(
    label: &str,
    f: impl FnOnce(&mut Session) -> R,
) -> Option<R> {
    CURRENT.with(|current| {
        let mut current = current.try_borrow_mut().ok()?;
        let session = current.get_or_insert_with(|| {
            let session = Session::builder(label).start();
            terminal::set_thread_signal(&session.events.signal);
            session
        });
        Some(f(session))
    })
}

/// Runs `f` with this thread's session (started by `#[taria::app]` or [`install`]).
/// `None` when there is none, or while it is drawing.
///
/// # Examples
///
/// ```
/// assert!(taria::with_session(|session| session.tree()).is_none());
/// ```
pub fn with_session<R>(f: impl FnOnce(&mut Session) -> R) -> Option<R> {
    with_current(f)
}

/// Handles the agent's queued inputs with this thread's session (see
/// [`Session::drain`]); does nothing without one. Returns how many were taken.
///
/// # Examples
///
/// Once per loop turn, before the frame: here `save` would run for an agent's
/// `activate` on the node `save` (`testing::AppHarness` acts as that agent in a test).
///
/// ```
/// #[derive(Default)]
/// struct App {
///     saved: bool,
/// }
///
/// #[taria::actions]
/// impl App {
///     #[action(node = "save", activate)]
///     fn save(&mut self) {
///         self.saved = true;
///     }
/// }
///
/// let mut app = App::default();
/// assert_eq!(taria::drain(&mut app), 0, "no session on this thread: nothing to take");
/// assert!(!app.saved);
/// ```
pub fn drain<A: Actions + ?Sized>(app: &mut A) -> usize {
    with_current(|session| session.drain(app)).unwrap_or(0)
}

/// Runs the agent's pending actions with `handlers`, closures that change the app's
/// local variables ([`crate::on`]), made anew each loop turn where those locals are in
/// scope. In code `#[taria::app]` is on, a `taria::drain_with(…)` statement in a loop
/// is that loop's drain (the attribute places no other there); elsewhere it uses this
/// thread's session, as [`drain`] does. Returns how many inputs were taken.
///
/// # Examples
///
/// ```no_run
/// use ratatui::crossterm::event::{self, Event, KeyCode};
/// use taria::Action;
///
/// #[taria::app(label = "counter")]
/// fn main() -> std::io::Result<()> {
///     let mut count = 0_i64;
///     ratatui::run(|terminal| loop {
///         taria::drain_with(taria::on("count", Action::SetValue, |value: i64| count = value));
///         terminal.draw(|frame| {
///             frame.render_widget(format!("Count: {count}"), frame.area());
///             taria::leaf(|n| {
///                 n.role(taria::Role::SpinButton).id("count").label("Count").value(count);
///                 n.action(Action::SetValue).bounds(frame.area());
///             });
///         })?;
///         if let Event::Key(key) = event::read()? {
///             match key.code {
///                 KeyCode::Char('+') => count += 1,
///                 KeyCode::Char('q') => break Ok(()),
///                 _ => {}
///             }
///         }
///     })
/// }
/// ```
pub fn drain_with<A: Actions>(mut handlers: A) -> usize {
    drain(&mut handlers)
}

/// Draws a frame on `terminal` with this thread's session (started by `#[taria::app]`
/// or [`install`]): recorded and published while an agent is connected, as
/// `#[taria::app]` does with each `terminal.draw(…)` in the code it is on. This is
/// for a draw that code only calls: the loop in `main` carries the attribute, and
/// the frame is drawn in a method it calls. Without a session on this thread, or
/// inside another draw, it is `terminal.draw(render)`.
///
/// # Examples
///
/// Drawn with an installed session, the frame is recorded (here always, so that its
/// tree can be read without a bridge):
///
/// ```
/// use ratatui::{Terminal, backend::TestBackend};
/// use taria::Role;
///
/// let dir = std::env::temp_dir().join(format!("taria-doc-{}-draw", std::process::id()));
/// let mut session = taria::Session::builder("clock")
///     .socket(dir.join("clock.sock"))
///     .terminal_input(false)
///     .start();
/// session.set_always_record(true);
/// taria::install(session);
///
/// let mut terminal = Terminal::new(TestBackend::new(20, 1))?;
/// taria::draw(&mut terminal, |frame| {
///     taria::leaf(|n| {
///         n.role(Role::Status).id("ticks").label("3 ticks");
///     });
/// })?;
/// let tree = taria::with_session(|session| session.tree()).unwrap();
/// assert_eq!(tree.get("ticks").unwrap().label.as_deref(), Some("3 ticks"));
/// # std::fs::remove_dir_all(&dir)?;
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// In an app, the method that draws calls it, and the loop in `main` carries the
/// attribute:
///
/// ```no_run
/// use ratatui::crossterm::event::{self, Event};
/// use ratatui::{DefaultTerminal, Frame};
///
/// struct Clock { ticks: u32 }
///
/// impl Clock {
///     // The loop is in `main`: this method only draws.
///     fn render(&self, terminal: &mut DefaultTerminal) -> std::io::Result<()> {
///         taria::draw(terminal, |frame| self.draw(frame))?; // was `terminal.draw(…)`
///         Ok(())
///     }
///     fn draw(&self, frame: &mut Frame<'_>) {
///         frame.render_widget(format!("{} ticks", self.ticks), frame.area());
///     }
/// }
///
/// #[taria::app(label = "clock")]
/// fn main() -> std::io::Result<()> {
///     let mut terminal = ratatui::init();
///     let mut clock = Clock { ticks: 0 };
///     loop {
///         clock.render(&mut terminal)?;
///         if let Event::Key(_) = event::read()? {
///             break;
///         }
///         clock.ticks += 1;
///     }
///     ratatui::restore();
///     Ok(())
/// }
/// ```
pub fn draw<B: Backend>(
    terminal: &mut Terminal<B>,
    render: impl FnOnce(&mut Frame<'_>),
) -> Result<CompletedFrame<'_>, B::Error> {
    record(None, move |end| match end {
        Some(end) => terminal.draw(end.after(render)),
        None => terminal.draw(render),
    })
}

/// Runs `draw`, recorded by this thread's session (first started, labelled `start`,
/// when given and there is none), which it may tell when its render is done (see
/// [`FrameEnd::after`]); unrecorded, with `None`, when there is no session or it is
/// busy (a draw inside a draw).
pub(crate) fn record<R: DrawOutput>(
    start: Option<&str>,
    draw: impl FnOnce(Option<&mut FrameEnd<'_>>) -> R,
) -> R {
    let mut draw = Some(draw);
    let mut run = |end: Option<&mut FrameEnd<'_>>| (draw.take().expect("draw runs once"))(end);
    let recorded = match start {
        Some(label) => {
            with_current_or_start(label, |session| session.record_frame(|end| run(Some(end))))
        }
        None => with_current(|session| session.record_frame(|end| run(Some(end)))),
    };
    recorded.unwrap_or_else(|| run(None))
}
