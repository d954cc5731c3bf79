//! The app's handlers: what `#[taria::app]` / `#[taria::actions]` generate from
//! `#[action(...)]` methods ([`Actions`]), the request as a handler sees it
//! ([`Invocation`]), and what a handler returns ([`Outcome`], [`IntoOutcome`]) or
//! takes ([`FromValue`]). Where a request goes is the session's router.

use std::borrow::Cow;
use std::fmt::Display;

use taria_schema::{Action, ActionName, ActionRequest, ScrollDirection, Value};

pub(crate) mod closures;

/// An action request as a handler sees it: already validated against the tree the
/// agent saw (the node exists, offers the action, is not disabled, the value fits),
/// except for an id the app did not draw ([`Invocation::is_undrawn`]).
///
/// # Examples
///
/// A handler reads what the agent asked for; a test builds one by hand:
///
/// ```
/// use taria::{Action, Invocation, ScrollDirection, Value};
///
/// let name = Value::from("Ada");
/// let set = Invocation::new("form/name", Action::SetValue).with_value(&name);
/// assert_eq!((set.target(), set.value()), ("form/name", Some(&name)));
/// assert_eq!(set.matches("form/*"), Some("name"));
///
/// let scroll = Invocation::new("log", Action::Scroll).with_scroll(ScrollDirection::Down, 3);
/// assert_eq!(scroll.scroll(), Some((ScrollDirection::Down, 3)));
/// ```
#[derive(Clone, Debug)]
pub struct Invocation<'a> {
    pub(crate) target: &'a str,
    pub(crate) action: Cow<'a, ActionName>,
    pub(crate) value: Option<&'a Value>,
    pub(crate) scroll: Option<(ScrollDirection, u32)>,
    pub(crate) index: Option<u32>,
    pub(crate) undrawn: bool,
}

impl<'a> Invocation<'a> {
    /// An invocation built by hand, for tests of an [`Actions`] impl: a core action
    /// (`Action::Toggle`) or a name (`"toggle"` is the core action, `"archive"` a
    /// custom one).
    ///
    /// # Examples
    ///
    /// ```
    /// let inv = taria::Invocation::new("tasks/3", taria::Action::Toggle);
    /// assert_eq!(inv.matches("tasks/*"), Some("3"));
    /// assert!(inv.is(taria::Action::Toggle));
    /// assert!(taria::Invocation::new("tasks/3", "archive").is_custom("archive"));
    /// ```
    #[must_use]
    pub fn new(target: &'a str, action: impl Into<ActionName>) -> Invocation<'a> {
        Invocation {
            target,
            action: Cow::Owned(action.into()),
            value: None,
            scroll: None,
            index: None,
            undrawn: false,
        }
    }

    /// The handler's view of a validated request to the node at position `index`.
    pub(crate) fn of(request: &'a ActionRequest, index: Option<u32>) -> Invocation<'a> {
        Invocation {
            target: request.target.as_str(),
            action: Cow::Borrowed(&request.action),
            value: request.value(),
            scroll: request.scroll(),
            index,
            undrawn: false,
        }
    }

    /// The same invocation carrying a value (for `set_value`).
    #[must_use]
    pub fn with_value(mut self, value: &'a Value) -> Invocation<'a> {
        self.value = Some(value);
        self
    }

    /// The same invocation carrying the target's position index.
    #[must_use]
    pub fn with_index(mut self, index: u32) -> Invocation<'a> {
        self.index = Some(index);
        self
    }

    /// The same invocation on an id the app did not draw ([`Invocation::is_undrawn`]).
    #[must_use]
    pub fn as_undrawn(mut self) -> Invocation<'a> {
        self.undrawn = true;
        self
    }

    /// The same invocation carrying a scroll payload.
    #[must_use]
    pub fn with_scroll(mut self, direction: ScrollDirection, amount: u32) -> Invocation<'a> {
        self.scroll = Some((direction, amount));
        self
    }

    /// The target node's id.
    #[must_use]
    pub fn target(&self) -> &'a str {
        self.target
    }

    /// The action: a core one, or a custom name.
    #[must_use]
    pub fn action(&self) -> &ActionName {
        &self.action
    }

    /// Whether it is the core action `action`.
    #[must_use]
    pub fn is(&self, action: Action) -> bool {
        *self.action == ActionName::Core(action)
    }

    /// Whether it is the custom action named `name` (one the app defined, e.g.
    /// `archive`).
    #[must_use]
    pub fn is_custom(&self, name: &str) -> bool {
        matches!(&*self.action, ActionName::Custom(custom) if custom == name)
    }

    /// The value, for `set_value`.
    #[must_use]
    pub fn value(&self) -> Option<&'a Value> {
        self.value
    }

    /// The scroll direction and amount, for `scroll`.
    #[must_use]
    pub fn scroll(&self) -> Option<(ScrollDirection, u32)> {
        self.scroll
    }

    /// The target's position index among its container's items, if it has one.
    #[must_use]
    pub fn index(&self) -> Option<u32> {
        self.index
    }

    /// Whether the target is an id the app did not draw (an item off screen, under a
    /// list or table that scrolls): not validated against any node (nothing says it
    /// exists or what it offers), it has no [`index`](Invocation::index) and no value.
    /// A handler gets it exactly as the agent sent it; a widget looks it up among all
    /// its items.
    #[must_use]
    pub fn is_undrawn(&self) -> bool {
        self.undrawn
    }

    /// Matches the target id against `pattern`: an id, or an id with wildcard
    /// segments: `*` stands for one path segment (no `/`), e.g. `tasks/*`, and several
    /// may be used, each one segment (`table/*/*`: a table's cells, not its rows); `**`
    /// (alone) for one or more, e.g. `files/**` (a nested tree item
    /// `files/src/main.rs`). Returns what the wildcards stood for, from the first to the
    /// last (`r5/c2`; empty for a pattern without one), or `None` when it does not
    /// match.
    #[must_use]
    pub fn matches(&self, pattern: &str) -> Option<&'a str> {
        match_pattern(pattern, self.target)
    }
}

/// Matches `id` against a pattern with wildcard segments: `*` (one path segment, any
/// number of them) or one `**` (one or more); see [`Invocation::matches`].
#[must_use]
pub(crate) fn match_pattern<'a>(pattern: &str, id: &'a str) -> Option<&'a str> {
    if pattern.split('/').filter(|segment| *segment == "*").count() > 1 {
        return match_segments(pattern, id);
    }
    // `**`: one or more whole segments; `*`: exactly one.
    let (prefix, suffix, many) = match pattern.split_once("**") {
        Some((prefix, suffix)) => (prefix, suffix, true),
        None => match pattern.split_once('*') {
            Some((prefix, suffix)) => (prefix, suffix, false),
            None => return (pattern == id).then_some(""),
        },
    };
    let middle = id.strip_prefix(prefix)?.strip_suffix(suffix)?;
    let fits = if many {
        middle.split('/').all(|segment| !segment.is_empty())
    } else {
        !middle.is_empty() && !middle.contains('/')
    };
    fits.then_some(middle)
}

/// Matches `id` against a pattern of several `*` segments (`table/*/*`: a cell, not a
/// row), each one whole segment of the id and the others equal: what the wildcards
/// stood for, from the first to the last (`r5/c2`), or `None`.
fn match_segments<'a>(pattern: &str, id: &'a str) -> Option<&'a str> {
    let mut start = 0;
    let mut segments = Vec::new();
    for segment in id.split('/') {
        segments.push((start, segment));
        start += segment.len() + 1;
    }
    let parts: Vec<&str> = pattern.split('/').collect();
    if parts.len() != segments.len() {
        return None;
    }
    let mut stood = None::<(usize, usize)>;
    for (part, &(at, segment)) in parts.iter().zip(&segments) {
        if *part == "*" && !segment.is_empty() {
            let from = stood.map_or(at, |(from, _)| from);
            stood = Some((from, at + segment.len()));
        } else if *part != segment || part.contains('*') {
            return None;
        }
    }
    stood.map(|(from, to)| &id[from..to])
}

/// The arguments that did not convert for the handlers a generated dispatch tried, in
/// order: when no handler took an invocation, its refusal names each and why.
#[derive(Default, Debug)]
pub struct Refusals {
    why: String,
    /// Whether a refusal had another cause than a missing index.
    not_only_index: bool,
}

/// Why a handler's argument did not convert, for [`Refusals::refuse`]: text, or
/// [`IndexRefusal`].
pub trait RefusalReason {
    /// The reason, as the agent reads it.
    fn text(&self) -> &str;
    /// Whether the target had no index for an `index` parameter.
    fn is_no_index(&self) -> bool {
        false
    }
}

impl RefusalReason for str {
    fn text(&self) -> &str {
        self
    }
}

impl RefusalReason for String {
    fn text(&self) -> &str {
        self
    }
}

/// Why a handler's `index` parameter did not convert: the node has none (`missing`:
/// for an id the app did not draw, the handler is then passed over and the widget
/// route follows, instead of refusing), or it does not fit the type.
#[derive(Debug)]
pub struct IndexRefusal {
    /// The reason, as the agent reads it.
    pub why: String,
    /// Whether the target had no index at all.
    pub missing: bool,
}

impl RefusalReason for IndexRefusal {
    fn text(&self) -> &str {
        &self.why
    }

    fn is_no_index(&self) -> bool {
        self.missing
    }
}

impl Refusals {
    /// Notes that `handler` (its signature, as `set_age(value: u8)`), matched through
    /// `pattern`, could not take the invocation: `why`.
    #[cold]
    pub fn refuse<R: RefusalReason + ?Sized>(&mut self, handler: &str, pattern: &str, why: &R) {
        use std::fmt::Write as _;
        if !self.why.is_empty() {
            self.why.push_str("; ");
        }
        self.not_only_index |= !why.is_no_index();
        let _ = write!(self.why, "`{handler}` (for {pattern}): {}", why.text());
    }

    /// [`Outcome::NotHandled`] when no handler matched, or when the target was not
    /// drawn ([`Invocation::is_undrawn`]) and each handler that matched needed its
    /// index (only a drawn node has one: the widget route follows); else the refusal
    /// naming each.
    #[must_use]
    pub fn outcome(self, invocation: &Invocation<'_>) -> Outcome {
        if self.why.is_empty() || (invocation.is_undrawn() && !self.not_only_index) {
            return Outcome::NotHandled;
        }
        Outcome::Rejected(format!(
            "no handler takes `{}` on `{}`: {}",
            invocation.action(),
            invocation.target(),
            self.why
        ))
    }
}

/// Parses the segment a `*` in a handler's id pattern stood for (its `key` parameter).
pub fn key_arg<T: std::str::FromStr>(segment: &str) -> Result<T, String> {
    segment
        .parse()
        .map_err(|_| format!("`{segment}` is not a valid {}", std::any::type_name::<T>()))
}

/// The target's position index (a handler's `index` parameter).
pub fn index_arg<T: TryFrom<u32>>(invocation: &Invocation<'_>) -> Result<T, IndexRefusal> {
    let Some(index) = invocation.index() else {
        return Err(IndexRefusal {
            why: format!("node `{}` has no index", invocation.target()),
            missing: true,
        });
    };
    T::try_from(index).map_err(|_| IndexRefusal {
        why: format!("index {index} does not fit {}", std::any::type_name::<T>()),
        missing: false,
    })
}

/// What a handler did with an invocation.
///
/// # Examples
///
/// A handler returning `Err` refuses with its text; an action no handler matches goes
/// on to the widgets and key fallbacks:
///
/// ```
/// use taria::{Action, Actions as _, Invocation, Outcome};
///
/// let mut handlers = taria::on("save", Action::Activate, || Err::<(), _>("the disk is full"));
/// assert_eq!(
///     handlers.handle_action(&Invocation::new("save", Action::Activate)),
///     Outcome::Rejected("the disk is full".into())
/// );
/// assert_eq!(handlers.handle_action(&Invocation::new("quit", Action::Activate)), Outcome::NotHandled);
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Outcome {
    /// A handler ran.
    Handled,
    /// No handler matches; the next route (widget state, key fallback) gets it.
    NotHandled,
    /// A handler matched but refused, with the reason the agent is told.
    Rejected(String),
}

/// An app's action handlers. Generated by `#[taria::app]` / `#[taria::actions]`
/// from `#[action(...)]` methods; implement it by hand for full control.
///
/// # Examples
///
/// ```
/// use taria::{Action, Actions, Invocation, Outcome};
///
/// struct Counter(i32);
///
/// impl Actions for Counter {
///     fn handle_action(&mut self, inv: &Invocation<'_>) -> Outcome {
///         match (inv.target(), inv.action().core()) {
///             ("count", Some(Action::Increment)) => {
///                 self.0 += 1;
///                 Outcome::Handled
///             }
///             _ => Outcome::NotHandled,
///         }
///     }
/// }
///
/// let mut counter = Counter(0);
/// assert_eq!(counter.handle_action(&Invocation::new("count", Action::Increment)), Outcome::Handled);
/// assert_eq!(counter.0, 1);
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` does not handle agent actions",
    label = "not an app with `#[action]` handlers",
    note = "handlers are `#[action]` methods in a `#[taria::actions]` (or `#[taria::app]`) impl \
            block of the type; an app without handlers passes `&mut ()`, or leaves \
            `handlers = …` out of `#[taria::app]`"
)]
pub trait Actions {
    /// Runs the handler for `invocation`, or returns [`Outcome::NotHandled`].
    fn handle_action(&mut self, invocation: &Invocation<'_>) -> Outcome;
}

/// An app without handlers: every action goes to the widget and key-fallback routes.
impl Actions for () {
    fn handle_action(&mut self, _: &Invocation<'_>) -> Outcome {
        Outcome::NotHandled
    }
}

impl<T: Actions + ?Sized> Actions for &mut T {
    fn handle_action(&mut self, invocation: &Invocation<'_>) -> Outcome {
        (**self).handle_action(invocation)
    }
}

/// What a `scroll`'s direction converts into, for a handler's `direction` parameter:
/// taria's [`ScrollDirection`], or ratatui's (a scrollbar's, `Forward`/`Backward`,
/// which `taria_widgets::prelude` and `ratatui::widgets` name `ScrollDirection`), so a
/// handler may hand it straight to a `ScrollbarState`.
///
/// # Examples
///
/// ```
/// use taria::FromDirection;
/// use ratatui::widgets::ScrollDirection as Scrollbar;
///
/// assert_eq!(Scrollbar::from_direction(taria::ScrollDirection::Down), Scrollbar::Forward);
/// assert_eq!(Scrollbar::from_direction(taria::ScrollDirection::Left), Scrollbar::Backward);
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot carry a scroll direction",
    label = "a handler's `direction` parameter must be taria::ScrollDirection or ratatui's ScrollDirection"
)]
pub trait FromDirection: Sized {
    /// Converts the direction an agent's `scroll` asked for.
    fn from_direction(direction: ScrollDirection) -> Self;
}

impl FromDirection for ScrollDirection {
    fn from_direction(direction: ScrollDirection) -> Self {
        direction
    }
}

/// Towards the end (down, right) is `Forward`, towards the start `Backward`.
impl FromDirection for ratatui::widgets::ScrollDirection {
    fn from_direction(direction: ScrollDirection) -> Self {
        match direction {
            ScrollDirection::Down | ScrollDirection::Right => Self::Forward,
            ScrollDirection::Up | ScrollDirection::Left => Self::Backward,
        }
    }
}

/// A value that a `set_value` payload converts into, for a handler's `value` parameter.
///
/// # Examples
///
/// A handler's `value: u8` takes a whole number in range; anything else is refused
/// with the reason:
///
/// ```
/// use taria::{FromValue, Value};
///
/// assert_eq!(u8::from_value(&Value::Number(7.0)), Ok(7));
/// assert_eq!(
///     u8::from_value(&Value::Number(300.0)),
///     Err("expected a whole number in 0..=255, got 300".into())
/// );
/// assert_eq!(String::from_value(&Value::from("Ada")), Ok("Ada".to_owned()));
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot carry an action's value",
    label = "a handler's `value` parameter must be String, bool, a number type, Option of one, or taria::Value"
)]
pub trait FromValue: Sized {
    /// Converts, or says why not.
    fn from_value(value: &Value) -> Result<Self, String>;
}

impl FromValue for Value {
    fn from_value(value: &Value) -> Result<Self, String> {
        Ok(value.clone())
    }
}

impl FromValue for String {
    fn from_value(value: &Value) -> Result<Self, String> {
        match value {
            Value::Text(text) => Ok(text.clone()),
            other => Err(format!("expected text, got {other}")),
        }
    }
}

impl FromValue for bool {
    fn from_value(value: &Value) -> Result<Self, String> {
        match value {
            Value::Bool(b) => Ok(*b),
            other => Err(format!("expected true or false, got {other}")),
        }
    }
}

impl FromValue for f64 {
    fn from_value(value: &Value) -> Result<Self, String> {
        match value {
            Value::Number(n) if n.is_finite() => Ok(*n),
            other => Err(format!("expected a number, got {other}")),
        }
    }
}

impl FromValue for f32 {
    #[expect(
        clippy::cast_possible_truncation,
        reason = "f32 handlers accept the precision loss"
    )]
    fn from_value(value: &Value) -> Result<Self, String> {
        f64::from_value(value).map(|n| n as f32)
    }
}

macro_rules! integer_values {
    ($($t:ty),*) => {$(
        impl FromValue for $t {
            #[allow(clippy::cast_lossless, clippy::cast_possible_truncation, clippy::cast_precision_loss, clippy::cast_sign_loss, clippy::float_cmp, reason = "range and integrality are checked first")]
            fn from_value(value: &Value) -> Result<Self, String> {
                let n = f64::from_value(value)?;
                if n.fract() != 0.0 || n < <$t>::MIN as f64 || n > <$t>::MAX as f64 {
                    return Err(format!("expected a whole number in {}..={}, got {n}", <$t>::MIN, <$t>::MAX));
                }
                Ok(n as $t)
            }
        }
    )*};
}
integer_values!(u8, u16, u32, u64, usize, i8, i16, i32, i64, isize);

impl<T: FromValue> FromValue for Option<T> {
    fn from_value(value: &Value) -> Result<Self, String> {
        T::from_value(value).map(Some)
    }
}

/// What a handler method may return: `()` or `Result<(), E: Display>` (an `Err`
/// becomes a `rejected` answer with the error's text).
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not what an action handler returns",
    label = "a handler returns `()`, `Result<(), E>` with `E: Display`, or `taria::Outcome`"
)]
pub trait IntoOutcome {
    /// The outcome.
    fn into_outcome(self) -> Outcome;
}

impl IntoOutcome for () {
    fn into_outcome(self) -> Outcome {
        Outcome::Handled
    }
}

impl<E: Display> IntoOutcome for Result<(), E> {
    fn into_outcome(self) -> Outcome {
        match self {
            Ok(()) => Outcome::Handled,
            Err(e) => Outcome::Rejected(e.to_string()),
        }
    }
}

impl IntoOutcome for Outcome {
    fn into_outcome(self) -> Outcome {
        self
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn patterns_match_one_segment() {
        assert_eq!(match_pattern("tasks/*", "tasks/3"), Some("3"));
        assert_eq!(match_pattern("tasks/*", "tasks/"), None);
        assert_eq!(match_pattern("tasks/*", "tasks/3/x"), None);
        assert_eq!(match_pattern("tasks/*/done", "tasks/7/done"), Some("7"));
        assert_eq!(match_pattern("save", "save"), Some(""));
        assert_eq!(match_pattern("save", "save2"), None);
    }

    #[test]
    fn a_double_star_matches_one_or_more_segments() {
        assert_eq!(match_pattern("files/**", "files/src"), Some("src"));
        assert_eq!(
            match_pattern("files/**", "files/src/lib/mod.rs"),
            Some("src/lib/mod.rs")
        );
        assert_eq!(match_pattern("files/**", "files/"), None);
        assert_eq!(match_pattern("files/**", "files"), None);
        assert_eq!(match_pattern("files/**", "other/src"), None);
        assert_eq!(
            match_pattern("board/**/title", "board/a/b/title"),
            Some("a/b")
        );
        assert_eq!(match_pattern("board/**/title", "board/title"), None);
        assert_eq!(match_pattern("board/**/title", "board//title"), None);
    }

    #[test]
    fn values_convert_with_range_checks() {
        assert_eq!(u8::from_value(&Value::Number(200.0)), Ok(200));
        assert!(u8::from_value(&Value::Number(300.0)).is_err());
        assert!(u8::from_value(&Value::Number(1.5)).is_err());
        assert!(i32::from_value(&Value::Text("3".into())).is_err());
        assert_eq!(
            String::from_value(&Value::Text("hi".into())),
            Ok("hi".into())
        );
        assert_eq!(bool::from_value(&Value::Bool(true)), Ok(true));
        assert!(f64::from_value(&Value::Number(f64::INFINITY)).is_err());
    }
}
