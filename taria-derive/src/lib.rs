//! Macros for [taria](https://docs.rs/taria-runtime): `#[taria::widget]` and
//! `#[derive(taria::Semantic)]`. Use them through the `taria` crate, which
//! re-exports them; the generated code refers to `::taria`.
//!
//! Layout follows `thiserror-impl`: [`args`] parses and validates attribute
//! arguments, [`target`] classifies the annotated item, [`expand`] and [`derive`]
//! generate code, [`vocabulary`] holds the role and action names.

mod args;
mod derive;
mod expand;
mod target;
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
/// * `actions(activate, toggle = key("space"), "archive")`.
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
