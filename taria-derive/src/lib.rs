//! Macros for [taria](https://docs.rs/taria): `#[taria::widget]`,
//! `#[derive(taria::Semantic)]`, `#[taria::app]` and `#[taria::actions]`. Use them through the `taria` crate, which
//! re-exports them; the generated code refers to `::taria`.
//!
//! Layout follows `thiserror-impl`, in phases: `attr` parses arguments and attributes
//! into the typed `ast`, `valid` checks its names against the `vocabulary` (the node
//! properties, roles and actions, defined once in `vocabulary/table.rs`), `expand`
//! (with `fmt` for format strings) and `derive` generate code; `target` classifies
//! the annotated item, `errors` collects every error of a call so they are all
//! reported at once. `actions` generates an app's action dispatch from its
//! `#[action]` handlers, `app` adds the rewrite of the app's loop, wherever it is.

mod actions;
mod app;
mod ast;
mod attr;
mod derive;
mod errors;
mod expand;
mod fmt;
mod target;
mod text_renders;
mod valid;
mod vocabulary;

use proc_macro::TokenStream;

/// Records the annotated render code as a node of the semantic tree.
///
/// Put it on an `impl Widget for T` / `impl StatefulWidget for T` block (wraps
/// `render`), or on a render function or method that takes `area: Rect` or
/// `frame: &mut Frame`. The node's bounds are the render area. Arguments:
///
/// * `role = list_item` or `role = custom("kanban_card", list_item)`;
/// * `id = "save"` (explicit, stable) or `key = expr` (id = parent id + key);
/// * `label = "Task {name}"` (format string), `label = expr` (Display), or
///   `label("Task {}", n)`; `value = …` likewise, or a number or bool expression;
/// * `min`, `max`, `step`, `max_len`, `options = iter`;
/// * flags, bare or `= bool`: `focused`, `selected`, `disabled`, `busy`, `required`,
///   `readonly`, `redacted`, `untrusted`, `modal`;
/// * `checked = expr`, `expanded = expr`, `invalid = expr`;
/// * `index`, `count`, `level`, `scroll(offset, content, viewport)`, `bounds = rect`;
/// * `actions(activate, toggle = key("space"), "archive")`; an action offered only on
///   the frames where a condition holds is `"move_back" = key("n").when(column > 0)`
///   (or `archive.when(…)` without a key); `focus = cycle("l", "h")` names the keys
///   the app moves the focus by among the nodes that declare the same two (the next
///   one, the previous one).
///
/// Every expression is evaluated only while a frame is being recorded.
#[proc_macro_attribute]
pub fn widget(args: TokenStream, item: TokenStream) -> TokenStream {
    expand::widget(args.into(), item.into()).into()
}

/// Implements `taria::Semantic` from field attributes: `#[taria(label)]`,
/// `#[taria(value)]`, `#[taria(key)]`, `#[taria(checked)]`, … and a container
/// attribute `#[taria(role = …)]`.
#[proc_macro_derive(Semantic, attributes(taria))]
pub fn derive_semantic(input: TokenStream) -> TokenStream {
    derive::derive(input.into()).into()
}

/// Routes agent actions to the app's own methods: implements `taria::Actions` for
/// the type of the annotated inherent impl block from its `#[action(...)]` methods.
///
/// ```text
/// #[taria::actions]
/// impl App {
///     #[action(node = "tasks/*", toggle)]            // `*` stands for one id segment
///     fn toggle_task(&mut self, key: u64) { … }      // key: what `*` stood for (FromStr)
///
///     #[action(node = "new-task", set_value)]
///     fn set_draft(&mut self, value: String) { … }    // value: the payload (FromValue)
///
///     #[action(node = "tasks/*", "archive")]         // a custom action, snake_case
///     #[action(node = "done/*", "archive")]          // several attributes, one method
///     fn archive(&mut self, key: &str, invocation: &taria::Invocation<'_>)
///         -> Result<(), String> { … }                 // `Err` rejects with its text
///
///     #[action(node = "log", scroll)]
///     fn scroll_log(&mut self, direction: taria::ScrollDirection, amount: u16) { … }
/// }
/// ```
///
/// * `#[action(node = "<pattern>", <action>)]`: the pattern is a node id as the tree
///   shows it (segments joined by `/`; a key's own `/` and `%` escaped as `%2F` and
///   `%25`) with at most one wildcard segment: `*` stands for one segment, `**` for
///   one or more (`files/**` matches the nested `files/src/main.rs`); the action is a
///   core action (`activate`, `focus`, `select`, `toggle`, `expand`, `collapse`,
///   `increment`, `decrement`, `scroll`, `set_value`, `dismiss`, `copy`, `submit`) or
///   a custom one as a string. One action per attribute.
/// * Handlers whose pattern and action match are tried in source order; the first
///   whose arguments convert is called, and when none does the action is refused
///   with each one's reason. A handler that an earlier one always takes first (a
///   pattern covering its ids, parameters taking every argument it would) is an error.
/// * A handler takes `&mut self`, then parameters chosen by name: `key: T` (what the
///   wildcard stood for, `T: FromStr` or `&str`), `index: T` (the node's position,
///   `T: TryFrom<u32>`), `value: T` (`set_value` and custom actions; `T: FromValue`),
///   `direction: ScrollDirection` and `amount: T` (`scroll`), `invocation:
///   &Invocation<'_>`. An argument that cannot be converted moves on to the next
///   handler.
/// * It returns `()`, `Result<(), E: Display>` or `taria::Outcome`.
///
/// The `#[action]` attributes are removed; the methods stay callable as usual.
#[proc_macro_attribute]
pub fn actions(args: TokenStream, item: TokenStream) -> TokenStream {
    actions::actions(args.into(), item.into()).into()
}

/// Marks a handler method inside a [`macro@actions`] or [`macro@app`] impl block, which
/// read and remove it. Anywhere else it is an error that says where it goes (rather
/// than rustc's "cannot find attribute `action`").
#[proc_macro_attribute]
pub fn action(_args: TokenStream, item: TokenStream) -> TokenStream {
    actions::stray_action(item.into()).into()
}

/// Makes a ratatui app drivable by agents without changing its loop: goes on the code
/// that holds the loop, whatever its shape.
///
/// ```text
/// #[taria::app]                       // or #[taria::app(label = "todo")]
/// impl App {                          // the loop in a method: the app is `self`
///     fn run(&mut self, terminal: &mut DefaultTerminal) -> io::Result<()> {
///         while !self.exit {
///             // + pending agent actions run here, before each frame
///             terminal.draw(|frame| self.draw(frame))?;   // recorded for agents
///             self.handle_events()?;
///         }
///         Ok(())
///     }
///     fn handle_events(&mut self) -> io::Result<()> {
///         match event::read()? { … }  // → taria::event::read(): also wakes for agents
///     }
///     #[action(node = "quit", activate)]
///     fn quit(&mut self) { self.exit = true; }
/// }
///
/// #[taria::app(label = "popup")]      // the loop in main's ratatui::run closure
/// fn main() -> io::Result<()> {
///     let mut show = false;
///     ratatui::run(|terminal| loop { terminal.draw(|f| render(f, show))?; … })
/// }
///
/// #[taria::app(handlers = app)]       // a loop in a function; `app`'s #[action]s
/// fn run(terminal: &mut DefaultTerminal, app: &mut App) -> io::Result<()> { loop { … } }
/// ```
///
/// * On an inherent impl block it is [`macro@actions`] too; on one method, the handlers
///   are in a `#[taria::actions]` block around it. On a function, `handlers = <expr>`
///   names the app (owned or `&mut`) whose `#[action]` methods handle agent actions;
///   without it there are none (actions go to widgets and key fallbacks).
/// * `<terminal>.draw(f)` (one argument that is not a reference, receiver not `self`)
///   becomes `taria::__private::app_draw(label, |end| <terminal>.draw(…))`, `f` wrapped
///   so the frame is recorded and published as soon as `f` has rendered (before
///   ratatui's diff and terminal write); a draw the code only calls (a method with no
///   loop around its draw) uses `taria::draw`.
/// * `…event::read()` and `…event::poll(timeout)` (any path ending in `event::`)
///   become `taria::event::read()` / `taria::event::poll(timeout)`.
/// * Pending agent actions run before each frame: at the top of the innermost `loop`,
///   `while` or `for` around each draw, else in the statement before the draw; in code
///   that draws nothing itself, by its event reads instead. Where that needs the app
///   and there is none to lend (a `&self` method), or the code neither draws nor reads
///   events, it is an error that names the shape and the fix.
///
/// `label` names the app to agents: 1 to 64 ASCII letters, digits, `-`, `_` or `.`;
/// the default is the binary's name (`CARGO_BIN_NAME`, else `CARGO_PKG_NAME`).
#[proc_macro_attribute]
pub fn app(args: TokenStream, item: TokenStream) -> TokenStream {
    app::app(args.into(), item.into()).into()
}
