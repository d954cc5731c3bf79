//! Handlers as closures, for an app whose state is in local variables (of `main`, of
//! its run function, of a `ratatui::run` closure): [`on`] starts a chain of them,
//! given each loop turn to [`drain_with`](crate::drain_with), where the locals are in
//! scope and nothing else borrows them. The chain is an [`Actions`] like the one
//! `#[taria::actions]` generates: tried in the order written, the first whose pattern
//! and action match and whose arguments convert is called, its `Err` is the agent's
//! answer, and when none takes the arguments the agent hears each and why.
//!
//! A closure's parameters are taken by type, each at most once: a value (any
//! [`FromValue`] type: text, a number, a bool, `Option` of one, [`Value`](crate::Value),
//! a type of the app's), [`Key`] (what the pattern's `*` or `**` stood for) and
//! [`Index`] (the node's position). Building the chain allocates nothing.

use std::borrow::Cow;
use std::marker::PhantomData;
use std::str::FromStr;

use super::{Actions, FromValue, IndexRefusal, IntoOutcome, Invocation, Outcome, Refusals};
use crate::recorder::unescape_key;
use taria_schema::{Action, ActionName};

/// What the pattern's wildcard (`*` or `**`) stood for, unescaped (the key the app
/// gave, `a/b` for the id segment `a%2Fb`), as a closure handler's parameter:
/// `|taria::Key(name): taria::Key<String>| …`. Any `FromStr` type; one that does not
/// parse passes the handler over (`tasks/*` with `Key<u32>` does not take `tasks/x`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Key<T>(pub T);

/// The node's position among its container's items (a list item's, a row's, a tab's),
/// as a closure handler's parameter: `|taria::Index(i): taria::Index<usize>| …`. A node
/// without one passes the handler over; an id the app did not draw has none (see
/// [`Invocation::is_undrawn`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Index<T>(pub T);

/// What a closure handler's parameter can be: a value (any [`FromValue`] type), a
/// [`Key`] or an [`Index`].
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be a parameter of a closure handler",
    label = "a closure handler takes a value (a `taria::FromValue` type), `taria::Key<T>` with `T: FromStr`, or `taria::Index<T>` with `T: TryFrom<u32>`"
)]
pub trait HandlerArg: Sized {
    /// Takes the parameter from `invocation`, whose pattern's wildcard stood for `key`
    /// (`None`: the pattern has none), or says why not.
    #[doc(hidden)]
    fn take(invocation: &Invocation<'_>, key: Option<&str>) -> Result<Self, IndexRefusal>;
    /// The parameter as a refusal names it: `u8`, `Key<u32>`.
    #[doc(hidden)]
    fn describe() -> String {
        short_type_name(std::any::type_name::<Self>())
    }
}

impl<T: FromValue> HandlerArg for T {
    fn take(invocation: &Invocation<'_>, _: Option<&str>) -> Result<T, IndexRefusal> {
        let value = invocation
            .value()
            .ok_or_else(|| refusal(format!("`{}` carries no value", invocation.action())))?;
        T::from_value(value).map_err(refusal)
    }
}

impl<T: FromStr> HandlerArg for Key<T> {
    fn take(_: &Invocation<'_>, key: Option<&str>) -> Result<Key<T>, IndexRefusal> {
        let Some(key) = key else {
            return Err(refusal(
                "its pattern has no `*` or `**` for a key to come from".to_owned(),
            ));
        };
        super::key_arg(key).map(Key).map_err(refusal)
    }
}

impl<T: TryFrom<u32>> HandlerArg for Index<T> {
    fn take(invocation: &Invocation<'_>, _: Option<&str>) -> Result<Index<T>, IndexRefusal> {
        super::index_arg(invocation).map(Index)
    }
}

fn refusal(why: String) -> IndexRefusal {
    IndexRefusal {
        why,
        missing: false,
    }
}

/// `alloc::string::String` → `String`, `taria::dispatch::closures::Key<u32>` →
/// `Key<u32>`: each path in a type's name cut to its last segment.
fn short_type_name(name: &str) -> String {
    let mut out = String::with_capacity(name.len());
    let mut segment = String::new();
    let mut chars = name.chars().peekable();
    while let Some(c) = chars.next() {
        if c == ':' && chars.peek() == Some(&':') {
            chars.next();
            segment.clear();
        } else if c.is_alphanumeric() || c == '_' {
            segment.push(c);
        } else {
            out.push_str(&segment);
            segment.clear();
            out.push(c);
        }
    }
    out.push_str(&segment);
    out
}

/// A closure that can handle an agent's action: it takes up to three parameters, each a
/// [`HandlerArg`] (a value, a [`Key`], an [`Index`]), and returns what an `#[action]`
/// method may ([`IntoOutcome`]: `()`, `Result<(), E: Display>`, [`Outcome`]). Only the
/// closure's shape is checked here; its parameters ([`HandlerArgs`]) and what it
/// returns are checked on their own, so an error names the one that does not fit.
#[diagnostic::on_unimplemented(
    message = "this closure cannot handle an agent's action",
    label = "a closure handler takes up to three parameters (a value, `taria::Key<T>`, `taria::Index<T>`)",
    note = "for anything else (a scroll's direction, the invocation as a whole) use `.on_invocation(pattern, action, |invocation: &taria::Invocation<'_>| …)`"
)]
pub trait Handler<Args> {
    /// What the closure returns.
    type Output;
    /// Calls the closure.
    #[doc(hidden)]
    fn call_with(&mut self, args: Args) -> Self::Output;
}

/// A closure handler's parameters, taken together from an invocation.
pub trait HandlerArgs: Sized {
    /// Takes each parameter, or says why the first that does not convert does not.
    #[doc(hidden)]
    fn take_all(invocation: &Invocation<'_>, key: Option<&str>) -> Result<Self, IndexRefusal>;
    /// The closure as a refusal names it: `|u8|`, `|Key<u32>, String|`.
    #[doc(hidden)]
    fn describe() -> String;
}

macro_rules! closure_handlers {
    ($($arg:ident),*) => {
        impl<F, R, $($arg),*> Handler<($($arg,)*)> for F
        where
            F: FnMut($($arg),*) -> R,
        {
            type Output = R;

            #[allow(non_snake_case, reason = "one binding per parameter type")]
            fn call_with(&mut self, ($($arg,)*): ($($arg,)*)) -> R {
                self($($arg),*)
            }
        }

        impl<$($arg: HandlerArg),*> HandlerArgs for ($($arg,)*) {
            #[allow(unused_variables, reason = "no parameters take nothing")]
            fn take_all(
                invocation: &Invocation<'_>,
                key: Option<&str>,
            ) -> Result<Self, IndexRefusal> {
                Ok(($($arg::take(invocation, key)?,)*))
            }

            fn describe() -> String {
                let params: &[String] = &[$($arg::describe()),*];
                format!("|{}|", params.join(", "))
            }
        }
    };
}
closure_handlers!();
closure_handlers!(A);
closure_handlers!(A, B);
closure_handlers!(A, B, C);

/// What a link of the chain calls: a closure with its parameters converted
/// ([`Handler`] and [`HandlerArgs`]), or one that takes the whole invocation
/// ([`WholeInvocation`]).
pub trait Call<Args> {
    /// Converts the parameters and calls, or says which did not convert.
    #[doc(hidden)]
    fn call(
        &mut self,
        invocation: &Invocation<'_>,
        key: Option<&str>,
    ) -> Result<Outcome, IndexRefusal>;
    /// The closure as a refusal names it.
    #[doc(hidden)]
    fn describe() -> String;
}

impl<F, Args> Call<Args> for F
where
    F: Handler<Args>,
    Args: HandlerArgs,
    F::Output: IntoOutcome,
{
    fn call(
        &mut self,
        invocation: &Invocation<'_>,
        key: Option<&str>,
    ) -> Result<Outcome, IndexRefusal> {
        let args = Args::take_all(invocation, key)?;
        Ok(self.call_with(args).into_outcome())
    }

    fn describe() -> String {
        Args::describe()
    }
}

/// A closure that takes the invocation as a whole (see [`Handlers::on_invocation`]).
pub struct WholeInvocation<F>(F);

/// The parameters of a [`WholeInvocation`] closure: the invocation.
pub struct Whole;

impl<F, R> Call<Whole> for WholeInvocation<F>
where
    F: FnMut(&Invocation<'_>) -> R,
    R: IntoOutcome,
{
    fn call(
        &mut self,
        invocation: &Invocation<'_>,
        _: Option<&str>,
    ) -> Result<Outcome, IndexRefusal> {
        Ok((self.0)(invocation).into_outcome())
    }

    fn describe() -> String {
        "|&Invocation|".to_owned()
    }
}

/// The action a closure handler is for: a core [`Action`], or a name (`"toggle"` is
/// the core action, `"archive"` a custom one).
pub trait HandlerAction {
    /// Whether `invocation` asks for this action.
    #[doc(hidden)]
    fn asked_by(&self, invocation: &Invocation<'_>) -> bool;
}

impl HandlerAction for Action {
    fn asked_by(&self, invocation: &Invocation<'_>) -> bool {
        invocation.is(*self)
    }
}

impl HandlerAction for &str {
    fn asked_by(&self, invocation: &Invocation<'_>) -> bool {
        match invocation.action() {
            ActionName::Core(action) => action.name() == *self,
            ActionName::Custom(name) => name == self,
        }
    }
}

impl HandlerAction for ActionName {
    fn asked_by(&self, invocation: &Invocation<'_>) -> bool {
        invocation.action() == self
    }
}

/// Handlers tried in order: a chain [`on`] starts (the empty chain is `()`).
pub trait Chain {
    /// The first handler in the chain that takes `invocation`, its outcome; the ones
    /// that matched but whose arguments did not convert are noted in `refusals`.
    #[doc(hidden)]
    fn try_each(&mut self, invocation: &Invocation<'_>, refusals: &mut Refusals)
    -> Option<Outcome>;
}

impl Chain for () {
    fn try_each(&mut self, _: &Invocation<'_>, _: &mut Refusals) -> Option<Outcome> {
        None
    }
}

/// Closure handlers for the agent's actions, tried in the order written: [`on`] starts
/// the chain, [`Handlers::on`] adds to it, [`drain_with`](crate::drain_with) runs the
/// agent's pending actions with it.
#[must_use = "handlers do nothing until given to `taria::drain_with` (or `Session::drain`)"]
pub struct Handlers<'p, Prev, A, F, Args> {
    prev: Prev,
    pattern: &'p str,
    action: A,
    handler: F,
    args: PhantomData<fn(Args)>,
}

/// Starts a chain of closure handlers: `handler` takes `action` on the nodes whose id
/// matches `pattern` (an id, or one with a `*` or `**` segment, as in
/// `#[action(node = …)]`). Give the chain to [`drain_with`](crate::drain_with) at the
/// top of the loop, where the locals it changes are in scope.
///
/// # Examples
///
/// ```
/// use taria::{Action, Invocation, Key, Outcome, Value};
/// use taria::Actions as _;
///
/// let (mut count, mut done) = (0_u8, vec![false; 3]);
/// let mut handlers = taria::on("count", Action::SetValue, |value: u8| count = value)
///     .on("tasks/*", Action::Toggle, |Key(i): Key<usize>| match done.get_mut(i) {
///         Some(done) => Ok(*done = !*done),
///         None => Err(format!("there is no task {i}")),
///     });
/// let ten = Value::Number(10.0);
/// let set = Invocation::new("count", Action::SetValue).with_value(&ten);
/// assert_eq!(handlers.handle_action(&set), Outcome::Handled);
/// let big = Value::Number(300.0);
/// let too_big = Invocation::new("count", Action::SetValue).with_value(&big);
/// assert_eq!(
///     handlers.handle_action(&too_big),
///     Outcome::Rejected("no handler takes `set_value` on `count`: `|u8|` (for count): \
///         expected a whole number in 0..=255, got 300".into())
/// );
/// assert_eq!(handlers.handle_action(&Invocation::new("tasks/1", Action::Toggle)), Outcome::Handled);
/// assert_eq!(
///     handlers.handle_action(&Invocation::new("tasks/7", Action::Toggle)),
///     Outcome::Rejected("there is no task 7".into())
/// );
/// drop(handlers);
/// assert_eq!((count, done), (10, vec![false, true, false]));
/// ```
pub fn on<A, F, Args>(pattern: &str, action: A, handler: F) -> Handlers<'_, (), A, F, Args>
where
    A: HandlerAction,
    F: Handler<Args>,
    Args: HandlerArgs,
    F::Output: IntoOutcome,
{
    Handlers {
        prev: (),
        pattern,
        action,
        handler,
        args: PhantomData,
    }
}

/// A chain of one handler taking the whole invocation (for `#[taria::app]`'s
/// rewrite of a chain, see `__private::try_on_invocation`).
pub(crate) fn whole<A, F, R>(
    pattern: &str,
    action: A,
    handler: F,
) -> Handlers<'_, (), A, WholeInvocation<F>, Whole>
where
    A: HandlerAction,
    F: FnMut(&Invocation<'_>) -> R,
    R: IntoOutcome,
{
    Handlers {
        prev: (),
        pattern,
        action,
        handler: WholeInvocation(handler),
        args: PhantomData,
    }
}

impl<'p, Prev: Chain, A: HandlerAction, F: Call<Args>, Args> Handlers<'p, Prev, A, F, Args> {
    /// Adds a handler, tried after those before it (see [`on`]).
    pub fn on<A2, F2, Args2>(
        self,
        pattern: &'p str,
        action: A2,
        handler: F2,
    ) -> Handlers<'p, Self, A2, F2, Args2>
    where
        A2: HandlerAction,
        F2: Handler<Args2>,
        Args2: HandlerArgs,
        F2::Output: IntoOutcome,
    {
        Handlers {
            prev: self,
            pattern,
            action,
            handler,
            args: PhantomData,
        }
    }

    /// Adds a handler that takes the invocation as a whole (its target, value, scroll,
    /// index: [`Invocation`]), tried after those before it.
    pub fn on_invocation<A2: HandlerAction, F2, R>(
        self,
        pattern: &'p str,
        action: A2,
        handler: F2,
    ) -> Handlers<'p, Self, A2, WholeInvocation<F2>, Whole>
    where
        F2: FnMut(&Invocation<'_>) -> R,
        R: IntoOutcome,
    {
        Handlers {
            prev: self,
            pattern,
            action,
            handler: WholeInvocation(handler),
            args: PhantomData,
        }
    }
}

impl<Prev: Chain, A: HandlerAction, F: Call<Args>, Args> Chain for Handlers<'_, Prev, A, F, Args> {
    fn try_each(
        &mut self,
        invocation: &Invocation<'_>,
        refusals: &mut Refusals,
    ) -> Option<Outcome> {
        if let Some(outcome) = self.prev.try_each(invocation, refusals) {
            return Some(outcome);
        }
        if !self.action.asked_by(invocation) {
            return None;
        }
        let segment = invocation.matches(self.pattern)?;
        let key: Option<Cow<'_, str>> = self.pattern.contains('*').then(|| unescape_key(segment));
        match Call::call(&mut self.handler, invocation, key.as_deref()) {
            Ok(outcome) => Some(outcome),
            Err(why) => {
                refusals.refuse(&<F as Call<Args>>::describe(), self.pattern, &why);
                None
            }
        }
    }
}

impl<Prev: Chain, A: HandlerAction, F: Call<Args>, Args> Actions
    for Handlers<'_, Prev, A, F, Args>
{
    fn handle_action(&mut self, invocation: &Invocation<'_>) -> Outcome {
        let mut refusals = Refusals::default();
        self.try_each(invocation, &mut refusals)
            .unwrap_or_else(|| refusals.outcome(invocation))
    }
}

#[cfg(test)]
mod tests;
