//! The core every widget here shares, and the way any other widget crate (or an app)
//! ships semantics for its own widget: it *describes* itself (records its node while
//! a frame is recorded) and *hands over* to the code that draws. [`SemanticWidget`] is
//! that pair; the macros below write the `Widget`, `StatefulWidget` and `Styled`
//! impls and the builder methods that only set a field or forward to ratatui once,
//! for every widget here.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use taria::{Invocation, NodeBuilder, Outcome};

/// A widget that records what it is and draws: the one mechanism behind every widget
/// of this crate and its third-party adapters, public so that any widget crate's
/// author (or an app author, for a widget of their own) can ship semantics.
///
/// Implement [`describe`](SemanticWidget::describe) (record the widget's node, and
/// its children's, with [`taria::leaf`]/[`taria::scope`]) and
/// [`hand_over`](SemanticWidget::hand_over) (draw, exactly as the widget draws
/// without taria); then the widget's `Widget::render` calls
/// [`render_alone`](SemanticWidget::render_alone) and its
/// `StatefulWidget::render` [`render_with`](SemanticWidget::render_with). A widget
/// whose state an agent's action can change (a selection, a value) also gives its
/// explicit id ([`widget_id`](SemanticWidget::widget_id)) and
/// [`apply`](SemanticWidget::apply): actions addressed to the id (or its children's
/// ids, `<id>/…`) that no handler of the app took are then applied to the app's state
/// while the widget renders, before it records, so the frame shows the effect. It
/// offers them (the node's actions) only when [`Offer::takes`] says it takes them.
/// With recording off (no agent connected) the cost is one thread-local flag check.
///
/// # Examples
///
/// ```
/// use ratatui::{buffer::Buffer, layout::Rect, widgets::{StatefulWidget, Widget}};
/// use taria::{Action, Invocation, Outcome, Role, testing::Harness};
/// use taria_widgets::{Offer, SemanticWidget};
///
/// /// A counter drawn as `n: 3`; an agent's `increment` adds one.
/// struct Counter<'a> {
///     id: Option<&'a str>,
/// }
///
/// impl SemanticWidget for Counter<'_> {
///     type State = u32;
///
///     fn widget_id(&self) -> Option<&str> {
///         self.id
///     }
///
///     fn apply(&self, count: &mut u32, inv: &Invocation<'_>) -> Outcome {
///         if !inv.is(Action::Increment) {
///             return Outcome::NotHandled;
///         }
///         *count += 1;
///         Outcome::Handled
///     }
///
///     fn describe(&self, area: Rect, count: &u32, offer: Offer) {
///         taria::leaf(|n| {
///             n.role(Role::SpinButton).label("n").value(f64::from(*count)).bounds(area);
///             if let Some(id) = self.id {
///                 n.id(id);
///             }
///             if offer.takes() {
///                 n.action(Action::Increment);
///             }
///         });
///     }
///
///     fn hand_over(self, area: Rect, buf: &mut Buffer, count: &mut u32) {
///         buf.set_string(area.x, area.y, format!("n: {count}"), ratatui::style::Style::new());
///     }
/// }
///
/// impl StatefulWidget for Counter<'_> {
///     type State = u32;
///
///     fn render(self, area: Rect, buf: &mut Buffer, count: &mut u32) {
///         self.render_with(area, buf, count);
///     }
/// }
///
/// let mut count = 3;
/// let mut harness = Harness::new(10, 1);
/// let tree = harness.render(|f| {
///     f.render_stateful_widget(Counter { id: Some("n") }, f.area(), &mut count);
/// });
/// let node = tree.get("n").unwrap();
/// assert_eq!(node.value, Some(taria::Value::Number(3.0)));
/// assert!(node.actions.iter().any(|a| a.as_str() == "increment"));
/// ```
pub trait SemanticWidget: Sized {
    /// What the widget draws with: ratatui's state, or `()` for a widget without one.
    type State: Default;

    /// The state drawn with when the app gives none (`Widget::render`): by default
    /// `State::default()`.
    #[inline]
    fn own_state(&self) -> Self::State {
        Self::State::default()
    }

    /// The app's explicit id: a widget takes agent actions only with one.
    #[inline]
    fn widget_id(&self) -> Option<&str> {
        None
    }

    /// What the widget does with one agent action addressed to it or its children;
    /// by default nothing (a widget with nothing of the app's to change).
    #[inline]
    fn apply(&self, state: &mut Self::State, inv: &Invocation<'_>) -> Outcome {
        let _ = (state, inv);
        Outcome::NotHandled
    }

    /// A fingerprint of the part of `state` an agent's action sets (the selection, the
    /// scroll offset), for widgets that take `select` or `scroll`: the next frame
    /// compares it with the state the app hands in, to tell an app that rebuilds the
    /// state each frame ([`taria::widget::widget_state`]). `None`: not compared.
    #[inline]
    fn fingerprint(state: &Self::State) -> Option<u64> {
        let _ = state;
        None
    }

    /// Takes the agent's actions addressed to the widget into `state` (through
    /// [`taria::widget::take_widget_actions`]), when it has an id and its state is not one the
    /// app rebuilds each frame; whether it took one.
    #[inline]
    fn take_actions(&self, state: &mut Self::State) -> bool {
        match self.widget_id() {
            Some(id) if !taria::widget::widget_state_rebuilt(id) => {
                taria::widget::take_widget_actions(id, |inv| self.apply(state, inv))
            }
            _ => false,
        }
    }

    /// Records the widget's node (and its children's); called only while recording.
    /// `offer` says whether the widget takes its own actions this frame ([`Offer`]).
    fn describe(&self, area: Rect, state: &Self::State, offer: Offer);

    /// Draws with ratatui's widget, writing back into `state` what ratatui writes.
    fn hand_over(self, area: Rect, buf: &mut Buffer, state: &mut Self::State);

    /// `StatefulWidget::render`: takes the agent's actions, records, draws. While a
    /// frame is recorded (an agent is connected) it also reports what the app handed
    /// in and what it left ([`taria::widget::widget_state`]).
    #[inline]
    fn render_with(self, area: Rect, buf: &mut Buffer, state: &mut Self::State) {
        let recording = taria::widget::is_recording();
        let handed = if recording {
            Self::fingerprint(state)
        } else {
            None
        };
        let took = self.take_actions(state);
        if let (Some(id), Some(handed), Some(left)) =
            (self.widget_id(), handed, Self::fingerprint(state))
        {
            taria::widget::widget_state(id, handed, left, took);
        }
        if recording && on_screen(area, buf) {
            self.describe(area, state, Offer::new(self.widget_id(), true));
        }
        self.hand_over(area, buf, state);
    }

    /// `Widget::render`: records and draws with [`SemanticWidget::own_state`]; no agent
    /// actions are taken (there is no state of the app's for them to change).
    #[inline]
    fn render_alone(self, area: Rect, buf: &mut Buffer) {
        let mut state = self.own_state();
        if taria::widget::is_recording() && on_screen(area, buf) {
            self.describe(area, &state, Offer::new(self.widget_id(), false));
        }
        self.hand_over(area, buf, &mut state);
    }
}

/// Whether the widget performs its own actions this frame: `select` and `scroll` on a
/// list, table or tabs, `scroll` on a scrollbar, a form control's value. The one rule
/// every widget offers them by: a widget offers an action only where something
/// performs it, and held actions reach a widget only when it has an explicit id and
/// is drawn with the app's state (`StatefulWidget`), which is where they land. An
/// id-less widget (its derived id is positional, no handler names it) or one drawn
/// with `Widget` (no state of the app's to change) offers none of them; what others
/// perform is offered apart from this: `select` on items (list items, rows, tabs) by
/// the runtime's navigation keys, and actions the app performs by a declared key
/// fallback, or by a handler on the explicit id (`Button`'s `activate`, a checked
/// item's `toggle`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Offer {
    takes: bool,
    stateful: bool,
}

impl Offer {
    /// For a widget with the app's `id`, drawn with the app's state or not. A state
    /// the app was seen to rebuild each frame ([`taria::widget::widget_state_rebuilt`]) does
    /// not keep what the widget sets: nothing performs its own actions then.
    pub(crate) fn new(id: Option<&str>, stateful: bool) -> Offer {
        Offer {
            takes: stateful && id.is_some_and(|id| !taria::widget::widget_state_rebuilt(id)),
            stateful,
        }
    }

    /// Whether the widget's items can be selected: drawn with a state of the app's,
    /// which the app's keys move (drawn with `Widget`, a list or table shows no
    /// selection, and nothing selects one of its items).
    pub const fn selectable(self) -> bool {
        self.stateful
    }

    /// Whether the widget takes its own actions (and so offers them).
    pub const fn takes(self) -> bool {
        self.takes
    }

    /// Whether anything can name the widget for an action the app performs (a
    /// handler on its explicit id), or a key fallback `key` performs it.
    pub fn app_performs(id: Option<&str>, key: Option<&str>) -> bool {
        id.is_some() || key.is_some()
    }
}

/// A fingerprint of a few numbers (see [`SemanticWidget::fingerprint`]).
pub(crate) fn fingerprint(parts: impl std::hash::Hash) -> u64 {
    use std::hash::{BuildHasher, BuildHasherDefault, DefaultHasher};
    BuildHasherDefault::<DefaultHasher>::default().hash_one(parts)
}

/// Whether any cell of `area` is on the screen: a widget laid out with no width or
/// height, or wholly off screen, shows nothing, and records nothing (no node, no
/// children), the same for every widget.
#[inline]
pub(crate) fn on_screen(area: Rect, buf: &Buffer) -> bool {
    !area.intersection(buf.area).is_empty()
}

/// Records the app's `id`, if any, and a `label`, if any: what most widgets' nodes
/// carry besides their role and state.
pub(crate) fn id_and_label(
    n: &mut NodeBuilder<'_>,
    id: Option<&str>,
    label: Option<impl taria::builder::IntoText>,
) {
    if let Some(id) = id {
        n.id(id);
    }
    if let Some(label) = label {
        n.label(label);
    }
}

/// `impl Widget` (and, listed after it, `StatefulWidget` with the widget's
/// [`SemanticWidget::State`]) for a [`SemanticWidget`] widget:
/// `widget_impls!(Table<'_>: Widget, StatefulWidget<TableState>)`. `by ref` draws through
/// `&Widget` as ratatui's own does (`SemanticWidget` is implemented for the reference);
/// generics go first in brackets: `widget_impls!([F: Fn()] Canvas<'_, F>: Widget by ref)`.
/// `&Widget by clone` (and `&StatefulWidget<State> by clone`) draw `&Widget` through a
/// clone, for a widget that hands ratatui's its items by value.
macro_rules! widget_impls {
    ([$($g:tt)*] $ty:ty: Widget by ref) => {
        impl<$($g)*> ratatui::widgets::Widget for &$ty {
            #[inline]
            fn render(self, area: ratatui::layout::Rect, buf: &mut ratatui::buffer::Buffer) {
                $crate::semantic::SemanticWidget::render_alone(self, area, buf);
            }
        }

        impl<$($g)*> ratatui::widgets::Widget for $ty {
            #[inline]
            fn render(self, area: ratatui::layout::Rect, buf: &mut ratatui::buffer::Buffer) {
                ratatui::widgets::Widget::render(&self, area, buf);
            }
        }
    };
    ([$($g:tt)*] $ty:ty: Widget, StatefulWidget<$state:ty>) => {
        $crate::semantic::widget_impls!([$($g)*] $ty: Widget);
        $crate::semantic::widget_impls!([$($g)*] $ty: StatefulWidget<$state>);
    };
    ([$($g:tt)*] $ty:ty: Widget) => {
        impl<$($g)*> ratatui::widgets::Widget for $ty {
            #[inline]
            fn render(self, area: ratatui::layout::Rect, buf: &mut ratatui::buffer::Buffer) {
                $crate::semantic::SemanticWidget::render_alone(self, area, buf);
            }
        }
    };
    ([$($g:tt)*] $ty:ty: StatefulWidget<$state:ty>) => {
        impl<$($g)*> ratatui::widgets::StatefulWidget for $ty {
            type State = $state;

            #[inline]
            fn render(
                self,
                area: ratatui::layout::Rect,
                buf: &mut ratatui::buffer::Buffer,
                state: &mut Self::State,
            ) {
                $crate::semantic::SemanticWidget::render_with(self, area, buf, state);
            }
        }
    };
    ([$($g:tt)*] $ty:ty: &Widget by clone) => {
        /// Draws a copy: ratatui's draws by reference, but ours hands its items to
        /// ratatui's widget by value.
        impl<$($g)*> ratatui::widgets::Widget for &$ty {
            #[inline]
            fn render(self, area: ratatui::layout::Rect, buf: &mut ratatui::buffer::Buffer) {
                ratatui::widgets::Widget::render(self.clone(), area, buf);
            }
        }
    };
    ([$($g:tt)*] $ty:ty: &StatefulWidget<$state:ty> by clone) => {
        /// Draws a copy (taking agent actions into `state` as the widget does): ratatui's
        /// draws by reference, but ours hands its items to ratatui's widget by value.
        impl<$($g)*> ratatui::widgets::StatefulWidget for &$ty {
            type State = $state;

            #[inline]
            fn render(
                self,
                area: ratatui::layout::Rect,
                buf: &mut ratatui::buffer::Buffer,
                state: &mut Self::State,
            ) {
                ratatui::widgets::StatefulWidget::render(self.clone(), area, buf, state);
            }
        }
    };
    ($ty:ty: $($rest:tt)*) => {
        $crate::semantic::widget_impls!([] $ty: $($rest)*);
    };
}

/// `impl Styled`, its style read from ratatui's widget in the `inner` field
/// (`styled!(Gauge<'_>: inner)`) or from a `Style` field (`styled!(Cell<'_>: field
/// style)`); `set_style` is the widget's own `style` setter.
macro_rules! styled {
    ($ty:ty: inner) => {
        $crate::semantic::styled!(@impl $ty, |w| ratatui::style::Styled::style(&w.inner));
    };
    ($ty:ty: field $field:ident) => {
        $crate::semantic::styled!(@impl $ty, |w| w.$field);
    };
    (@impl $ty:ty, |$w:ident| $style:expr) => {
        impl ratatui::style::Styled for $ty {
            type Item = Self;

            fn style(&self) -> ratatui::style::Style {
                let $w = self;
                $style
            }

            fn set_style<S: Into<ratatui::style::Style>>(self, style: S) -> Self::Item {
                self.style(style)
            }
        }
    };
}

/// Builder methods documented "See ratatui's [`Type::method`]", for a widget that
/// mirrors `Type` in the module `path`: `fn name(arg: T) => inner;` hands the
/// argument to ratatui's widget in the `inner` field, `fn name(arg: T) => field =
/// expr;` sets a field of ours. Attributes (more doc lines) go before `fn`.
macro_rules! setters {
    ($ty:ident in $($m:ident)::+;) => {};
    ($ty:ident in $($m:ident)::+; $(#[$attr:meta])* const fn $($rest:tt)*) => {
        $crate::semantic::setters!(@fn [const] $ty in $($m)::+; $(#[$attr])* $($rest)*);
    };
    ($ty:ident in $($m:ident)::+; $(#[$attr:meta])* fn $($rest:tt)*) => {
        $crate::semantic::setters!(@fn [] $ty in $($m)::+; $(#[$attr])* $($rest)*);
    };
    (
        @fn [$($const:tt)?] $ty:ident in $($m:ident)::+;
        $(#[$attr:meta])* $name:ident $(<$($g:ident: $b:path),+>)? ($arg:ident: $t:ty)
            => $($to:ident)? $(= $e:expr)?;
        $($rest:tt)*
    ) => {
        #[doc = concat!("See ratatui's [`", stringify!($ty), "::", stringify!($name), "`](",
            $(stringify!($m), "::",)+ stringify!($ty), "::", stringify!($name), ").")]
        $(#[$attr])*
        #[inline]
        #[must_use = "method moves the value of self and returns the modified value"]
        pub $($const)? fn $name $(<$($g: $b),+>)? (mut self, $arg: $t) -> Self {
            $crate::semantic::setters!(@set self $name $arg $($to)? $(= $e)?);
            self
        }
        $crate::semantic::setters!($ty in $($m)::+; $($rest)*);
    };
    (@set $s:ident $name:ident $arg:ident inner) => {
        $s.inner = $s.inner.$name($arg)
    };
    (@set $s:ident $name:ident $arg:ident $field:ident = $e:expr) => {
        $s.$field = $e
    };
}

/// The `id` builder method, for a widget with an `id: Option<&'a str>` field; doc
/// lines given replace the default one.
macro_rules! id_setter {
    () => {
        $crate::semantic::id_setter!(
            /// Sets an explicit, stable id.
        );
    };
    ($(#[$attr:meta])+) => {
        $(#[$attr])+
        #[inline]
        #[must_use = "method moves the value of self and returns the modified value"]
        pub const fn id(mut self, id: &'a str) -> Self {
            self.id = Some(id);
            self
        }
    };
}

/// The `block` builder method: ratatui's block goes to ratatui's widget (`=> inner`)
/// or into a `block` field (`=> block`), its first title into the `label` field named.
macro_rules! block_setter {
    ($ty:ident in $($m:ident)::+ => $to:ident, $label:ident) => {
        #[doc = concat!("See ratatui's [`", stringify!($ty), "::block`](",
            $(stringify!($m), "::",)+ stringify!($ty), "::block). Takes a taria [`Block`]",
            "(crate::Block), whose first title labels the widget, or a ratatui one.")]
        #[inline]
        #[must_use = "method moves the value of self and returns the modified value"]
        pub fn block(mut self, block: impl Into<$crate::Block<'a>>) -> Self {
            let (block, label) = block.into().into_parts();
            $crate::semantic::block_setter!(@put self $to block);
            self.$label = label;
            self
        }
    };
    (@put $s:ident inner $block:ident) => {
        $s.inner = $s.inner.block($block)
    };
    (@put $s:ident block $block:ident) => {
        $s.block = Some($block)
    };
}

pub(crate) use {block_setter, id_setter, setters, styled, widget_impls};
