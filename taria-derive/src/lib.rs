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
///
/// # Examples
///
/// On a widget's `impl`, the node's bounds are the area it renders in:
///
/// ```
/// use ratatui::{buffer::Buffer, layout::Rect, widgets::Widget};
/// use taria::testing::Harness;
///
/// struct SaveButton {
///     focused: bool,
/// }
///
/// #[taria::widget(role = button, id = "save", label = "Save", focused = self.focused, actions(activate))]
/// impl Widget for SaveButton {
///     fn render(self, area: Rect, buf: &mut Buffer) {
///         "[ Save ]".render(area, buf);
///     }
/// }
///
/// let tree = Harness::new(10, 1).render(|frame| {
///     frame.render_widget(SaveButton { focused: true }, frame.area());
/// });
/// assert_eq!(tree.outline(), "- button \"Save\" [id=save] [focused] {activate}\n");
/// ```
///
/// On a render function drawn once per item, a key tells the items apart:
///
/// ```
/// use ratatui::{Frame, layout::Rect};
/// use taria::{Checked, testing::Harness};
///
/// struct Task {
///     id: u64,
///     title: String,
///     done: bool,
/// }
///
/// #[taria::widget(role = list_item, key = task.id, label = task.title, checked = task.done)]
/// fn draw_task(frame: &mut Frame<'_>, area: Rect, task: &Task) {
///     let mark = if task.done { 'x' } else { ' ' };
///     frame.render_widget(format!("[{mark}] {}", task.title), area);
/// }
///
/// let task = Task { id: 42, title: "Buy milk".into(), done: true };
/// let tree = Harness::new(20, 1).render(|frame| {
///     let area = frame.area();
///     draw_task(frame, area, &task);
/// });
/// let item = tree.get("42").unwrap();
/// assert_eq!((item.label.as_deref(), item.state.checked), (Some("Buy milk"), Some(Checked::True)));
/// ```
#[proc_macro_attribute]
pub fn widget(args: TokenStream, item: TokenStream) -> TokenStream {
    expand::widget(args.into(), item.into()).into()
}

/// Implements `taria::Semantic` from field attributes: `#[taria(label)]`,
/// `#[taria(value)]`, `#[taria(key)]`, `#[taria(checked)]`, … and a container
/// attribute `#[taria(role = …)]`.
///
/// # Examples
///
/// A `#[taria::widget]` render of the type describes its node from the fields first:
///
/// ```
/// use ratatui::{buffer::Buffer, layout::Rect, widgets::Widget};
/// use taria::{Checked, Role, testing::Harness};
///
/// #[derive(taria::Semantic)]
/// #[taria(role = checkbox)]
/// struct Task {
///     #[taria(key)]
///     id: u32,
///     #[taria(label)]
///     title: String,
///     #[taria(checked)]
///     done: bool,
/// }
///
/// #[taria::widget(actions(toggle))]
/// impl Widget for &Task {
///     fn render(self, area: Rect, buf: &mut Buffer) {
///         format!("[{}] {}", if self.done { 'x' } else { ' ' }, self.title).render(area, buf);
///     }
/// }
///
/// let task = Task { id: 7, title: "Buy milk".into(), done: true };
/// let tree = Harness::new(20, 1).render(|frame| frame.render_widget(&task, frame.area()));
/// let node = tree.get("7").unwrap();
/// assert_eq!((node.role, node.label.as_deref()), (Role::Checkbox, Some("Buy milk")));
/// assert_eq!(node.state.checked, Some(Checked::True));
/// ```
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
///
/// # Examples
///
/// The generated `taria::Actions` impl, driven directly
/// (`taria::testing::AppHarness` drives it as an agent would):
///
/// ```
/// use taria::{Action, Actions as _, Invocation, Outcome, Value};
///
/// #[derive(Default)]
/// struct Todo {
///     done: Vec<bool>,
///     draft: String,
/// }
///
/// #[taria::actions]
/// impl Todo {
///     #[action(node = "tasks/*", toggle)]
///     fn toggle(&mut self, key: usize) -> Result<(), String> {
///         let done = self.done.get_mut(key).ok_or(format!("there is no task {key}"))?;
///         *done = !*done;
///         Ok(())
///     }
///
///     #[action(node = "new-task", set_value)]
///     fn set_draft(&mut self, value: String) {
///         self.draft = value;
///     }
/// }
///
/// let mut todo = Todo { done: vec![false, false], draft: String::new() };
/// assert_eq!(todo.handle_action(&Invocation::new("tasks/1", Action::Toggle)), Outcome::Handled);
/// assert_eq!(todo.done, [false, true]);
/// let refused = todo.handle_action(&Invocation::new("tasks/5", Action::Toggle));
/// assert_eq!(refused, Outcome::Rejected("there is no task 5".into()));
/// let text = Value::from("Walk dog");
/// todo.handle_action(&Invocation::new("new-task", Action::SetValue).with_value(&text));
/// assert_eq!(todo.draft, "Walk dog");
/// ```
#[proc_macro_attribute]
pub fn actions(args: TokenStream, item: TokenStream) -> TokenStream {
    actions::actions(args.into(), item.into()).into()
}

/// Marks a handler method inside a [`macro@actions`] or [`macro@app`] impl block, which
/// read and remove it. Anywhere else it is an error that says where it goes (rather
/// than rustc's "cannot find attribute `action`").
///
/// # Examples
///
/// Several attributes on one method: each is a handler.
///
/// ```
/// use taria::{Action, Actions as _, Invocation};
///
/// #[derive(Default)]
/// struct Player {
///     volume: u8,
/// }
///
/// #[taria::actions]
/// impl Player {
///     #[action(node = "volume", increment)]
///     #[action(node = "volume", "louder")]
///     fn louder(&mut self) {
///         self.volume += 1;
///     }
/// }
///
/// let mut player = Player::default();
/// player.handle_action(&Invocation::new("volume", Action::Increment));
/// player.handle_action(&Invocation::new("volume", "louder"));
/// player.louder(); // still a method
/// assert_eq!(player.volume, 3);
/// ```
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
///
/// # Examples
///
/// An app's loop, drawn here on a test backend and stopped after one frame: its first
/// frame starts the thread's session, which serves the app to agents under its label.
///
/// ```
/// use ratatui::{Terminal, backend::TestBackend};
/// use taria::{Action, Actions as _, Invocation, Outcome};
///
/// #[derive(Default)]
/// struct App {
///     count: u32,
///     exit: bool,
/// }
///
/// #[taria::app(label = "taria-doc-counter")]
/// impl App {
///     fn run(&mut self, terminal: &mut Terminal<TestBackend>) -> Result<(), Box<dyn std::error::Error>> {
///         while !self.exit {
///             terminal.draw(|frame| frame.render_widget(format!("{}", self.count), frame.area()))?;
///             self.exit = true; // a real loop reads events here
///         }
///         Ok(())
///     }
///
///     #[action(node = "count", increment)]
///     fn increment(&mut self) {
///         self.count += 1;
///     }
/// }
///
/// let mut app = App::default();
/// assert_eq!(app.handle_action(&Invocation::new("count", Action::Increment)), Outcome::Handled);
/// app.run(&mut Terminal::new(TestBackend::new(10, 1))?)?;
/// let label = taria::with_session(|session| session.label().to_owned());
/// assert_eq!(label.as_deref(), Some("taria-doc-counter"));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[proc_macro_attribute]
pub fn app(args: TokenStream, item: TokenStream) -> TokenStream {
    app::app(args.into(), item.into()).into()
}
