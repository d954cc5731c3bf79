//! Support for macro-generated code. Not public API: no stability guarantees.

use ratatui::Frame;
pub use ratatui::layout::Rect;

use crate::dispatch::{FromDirection, FromValue};
use crate::recorder::{Displayed, IntoText, NodeBuilder};
use crate::semantic::Semantic;
use crate::session::DrawOutput;
pub use crate::session::FrameEnd;

pub use crate::recorder::bare::{AreaSource, BareText, ViaBareText, ViaWidget, WidgetProbe};
pub use crate::recorder::{leaf, scope};

/// Autoref-specialization probe: `(&Probe(&x)).taria_describe(n)` calls
/// [`Semantic::describe`] when `x`'s type implements it, and does nothing otherwise.
pub struct Probe<'a, T: ?Sized>(pub &'a T);

/// Picked when the probed type implements [`Semantic`].
pub trait ViaSemantic {
    /// Describes the node from the type's fields.
    fn taria_describe(&self, node: &mut NodeBuilder<'_>);
}

impl<T: Semantic + ?Sized> ViaSemantic for Probe<'_, T> {
    #[inline]
    fn taria_describe(&self, node: &mut NodeBuilder<'_>) {
        self.0.describe(node);
    }
}

/// Picked otherwise.
pub trait ViaNothing {
    /// Does nothing.
    #[inline]
    fn taria_describe(&self, _node: &mut NodeBuilder<'_>) {}
}

impl<T: ?Sized> ViaNothing for &Probe<'_, T> {}

/// Autoref-specialization probe for text arguments: `(&TextProbe(&x)).taria_text()`
/// is `&x` when that is an [`IntoText`] (text, integers: no formatting), and
/// `Displayed(&x)` for any other `Display` type, so macro arguments take both.
pub struct TextProbe<'a, T: ?Sized>(pub &'a T);

/// Picked when a reference to the probed value is an [`IntoText`].
pub trait ViaText {
    /// What is passed to the builder.
    type Text: IntoText;
    /// The argument.
    fn taria_text(&self) -> Self::Text;
}

impl<'a, T: ?Sized> ViaText for TextProbe<'a, T>
where
    &'a T: IntoText,
{
    type Text = &'a T;
    #[inline]
    fn taria_text(&self) -> &'a T {
        self.0
    }
}

/// Picked otherwise: `Displayed(&x)`, an [`IntoText`] when `x` is `Display` (and
/// otherwise the builder call says that `x` is not `Display`).
pub trait ViaDisplay {
    /// What is passed to the builder.
    type Text;
    /// The argument.
    fn taria_text(&self) -> Self::Text;
}

impl<'a, T: ?Sized> ViaDisplay for &TextProbe<'a, T> {
    type Text = Displayed<&'a T>;
    #[inline]
    fn taria_text(&self) -> Displayed<&'a T> {
        Displayed(self.0)
    }
}

// ---- support for `#[taria::app]` / `#[taria::actions]` handlers ----

use crate::dispatch::closures::{Chain as _, Handler, HandlerAction, HandlerArgs};
pub use crate::dispatch::{
    Actions, IndexRefusal, IntoOutcome, Invocation, Outcome, RefusalReason, Refusals, index_arg,
    key_arg,
};
pub use crate::recorder::unescape_key as key_text;

/// The payload value (a handler's `value` parameter).
pub fn value_arg<T: FromValue>(invocation: &Invocation<'_>) -> Result<T, String> {
    let value = invocation
        .value()
        .ok_or_else(|| format!("`{}` needs a value", invocation.action()))?;
    T::from_value(value)
}

/// The scroll direction (a handler's `direction` parameter): taria's or ratatui's.
pub fn direction_arg<T: FromDirection>(invocation: &Invocation<'_>) -> Result<T, String> {
    invocation
        .scroll()
        .map(|(d, _)| T::from_direction(d))
        .ok_or_else(|| "`scroll` needs a direction".to_owned())
}

/// The scroll amount (a handler's `amount` parameter).
pub fn amount_arg<T: TryFrom<u32>>(invocation: &Invocation<'_>) -> Result<T, String> {
    let amount = invocation.scroll().map_or(1, |(_, a)| a);
    T::try_from(amount).map_err(|_| {
        format!(
            "amount {amount} does not fit {}",
            std::any::type_name::<T>()
        )
    })
}

/// `#[taria::app]`'s drain before each frame: starts this thread's session on first
/// use, then runs the agent's pending actions (see [`crate::Session::drain`]).
pub fn app_drain<A: Actions + ?Sized>(label: &str, app: &mut A) -> usize {
    crate::session::with_current_or_start(label, |session| session.drain(app)).unwrap_or(0)
}

/// `#[taria::app]`'s drain after an event read in a loop that draws (or right after
/// one in a method of the app): runs the actions the read woke the loop for, where the
/// rest of the loop turn, its condition included, still sees what they changed, so the
/// loop is not woken once more for that (see [`crate::Session::drain_after_read`]).
/// Does nothing before the session has started (the loop's first drain or draw starts
/// it).
pub fn app_drain_after_read<A: Actions + ?Sized>(app: &mut A) -> usize {
    crate::session::with_current(|session| session.drain_after_read(app)).unwrap_or(0)
}

/// A `taria::drain_with(handlers)` statement in code `#[taria::app]` is on: that
/// loop's drain, with the closures it was given (see [`crate::drain_with`]).
pub fn app_drain_with<A: Actions>(label: &str, mut handlers: A) -> usize {
    app_drain(label, &mut handlers)
}

/// A `taria::on(…).on(…)` chain `#[taria::app]` found written out in a
/// `taria::drain_with(…)`, as one closure that makes each handler closure only when
/// its turn comes ([`try_on`], [`try_on_invocation`]), so two may borrow one local.
pub fn lazy_handlers<F>(handlers: F) -> LazyHandlers<F>
where
    F: FnMut(&Invocation<'_>, &mut Refusals) -> Option<Outcome>,
{
    LazyHandlers(handlers)
}

/// See [`lazy_handlers`].
pub struct LazyHandlers<F>(F);

impl<F> Actions for LazyHandlers<F>
where
    F: FnMut(&Invocation<'_>, &mut Refusals) -> Option<Outcome>,
{
    fn handle_action(&mut self, invocation: &Invocation<'_>) -> Outcome {
        let mut refusals = Refusals::default();
        (self.0)(invocation, &mut refusals).unwrap_or_else(|| refusals.outcome(invocation))
    }
}

/// One link of a chain [`lazy_handlers`] runs: `taria::on(pattern, action, handler)`
/// tried on `invocation`.
pub fn try_on<A, F, Args>(
    pattern: &str,
    action: A,
    handler: F,
    invocation: &Invocation<'_>,
    refusals: &mut Refusals,
) -> Option<Outcome>
where
    A: HandlerAction,
    F: Handler<Args>,
    Args: HandlerArgs,
    F::Output: IntoOutcome,
{
    crate::dispatch::closures::on(pattern, action, handler).try_each(invocation, refusals)
}

/// One `.on_invocation(pattern, action, handler)` link of a chain [`lazy_handlers`]
/// runs.
pub fn try_on_invocation<A, F, R>(
    pattern: &str,
    action: A,
    handler: F,
    invocation: &Invocation<'_>,
    refusals: &mut Refusals,
) -> Option<Outcome>
where
    A: HandlerAction,
    F: FnMut(&Invocation<'_>) -> R,
    R: IntoOutcome,
{
    crate::dispatch::closures::whole(pattern, action, handler).try_each(invocation, refusals)
}

/// Lends `#[taria::app(handlers = app)]`'s value to [`app_drain`] whether `app` is the
/// value or a `&mut` to it: a method call reborrows either (`&mut app` would need a
/// `mut` binding of the reference).
pub trait Lend {
    /// `self`, mutably.
    fn __taria_lend(&mut self) -> &mut Self {
        self
    }
}

impl<T: ?Sized> Lend for T {}

/// `#[taria::app]`'s wrapper around each `.draw(…)` call: starts this thread's
/// session on first use, records and publishes the frame. `draw` is the app's draw
/// with its render argument wrapped in [`render_then_end`].
pub fn app_draw<R: DrawOutput>(
    label: &str,
    draw: impl FnOnce(Option<&mut FrameEnd<'_>>) -> R,
) -> R {
    crate::session::record(Some(label), draw)
}

/// The render argument of a draw `#[taria::app]` rewrote: `render`, then the frame
/// ended (published before ratatui diffs it and writes the terminal) when it is
/// recorded.
pub fn render_then_end<'e, 's, F: FnOnce(&mut Frame<'_>)>(
    end: Option<&'e mut FrameEnd<'s>>,
    render: F,
) -> impl FnOnce(&mut Frame<'_>) + use<'e, 's, F> {
    move |frame: &mut Frame<'_>| {
        render(frame);
        if let Some(end) = end {
            end.end(Some(frame.buffer_mut()));
        }
    }
}
