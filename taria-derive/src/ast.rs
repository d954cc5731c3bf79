//! The typed syntax tree of node properties: what `#[taria::widget(...)]` arguments
//! and `#[derive(Semantic)]` attributes say, parsed (by [`attr`](crate::attr)) but
//! not yet checked against the vocabulary (by [`valid`](crate::valid)) nor turned
//! into builder calls (by [`expand`](crate::expand)).

use proc_macro2::Span;
use syn::{Expr, Ident, LitStr, Member};

use crate::vocabulary::Property;

/// A `#[taria::widget(...)]` argument list.
#[derive(Default)]
pub(crate) struct NodeArgs {
    /// The properties, in the order written (a later one overrides an earlier one).
    pub(crate) props: Vec<Prop>,
    /// Whether `bounds = …` was given (then the render area is not needed), even
    /// when it was given wrong.
    pub(crate) has_bounds: bool,
}

/// One property: `name`, `name = …` or `name(…)`.
pub(crate) struct Prop {
    /// Its position in the argument list, to report errors in source order.
    pub(crate) at: usize,
    pub(crate) name: Ident,
    pub(crate) property: &'static Property,
    pub(crate) value: PropValue,
}

/// A property's argument, by the shape its [`Syntax`](crate::vocabulary::Syntax) allows.
pub(crate) enum PropValue {
    Role(RoleArg),
    Id(IdArg),
    Text(TextArg),
    /// `name` (`None`) or `name = <bool expr>`.
    Flag(Option<Expr>),
    Expr(Expr),
    Actions(Vec<ActionItem>),
    Scroll(Box<[Expr; 3]>),
}

pub(crate) enum RoleArg {
    /// `role = list_item`.
    Core(Ident),
    /// `role = custom("kanban_card", list_item)`.
    Custom { name: LitStr, base: Ident },
}

pub(crate) enum IdArg {
    /// `id = "save"`.
    Lit(LitStr),
    /// `id = <expr>` (`Display`).
    Expr(Expr),
}

pub(crate) enum TextArg {
    /// `name = "format {args}"` (no `args`) or `name("format {}", args…)`.
    Format { format: LitStr, args: Vec<Expr> },
    /// `name = <expr>`.
    Expr(Expr),
}

/// One item of `actions(…)`.
pub(crate) struct ActionItem {
    /// Its position in the list, to report errors in source order.
    pub(crate) at: usize,
    pub(crate) action: ActionArg,
    /// The key of `<action> = key("…")`.
    pub(crate) key: Option<LitStr>,
    /// The condition of `<action>.when(…)` or `<action> = key("…").when(…)`: offered
    /// only on frames where it holds.
    pub(crate) when: Option<syn::Expr>,
}

pub(crate) enum ActionArg {
    /// `toggle`: a core action, by name.
    Core(Ident),
    /// `"archive"`: a custom action.
    Custom(LitStr),
}

/// What `#[derive(Semantic)]` reads from a struct.
pub(crate) struct SemanticInput {
    /// `#[taria(role = …)]`.
    pub(crate) role: Option<RoleArg>,
    pub(crate) fields: Vec<FieldProp>,
}

/// `#[taria(name)]` on a field.
pub(crate) struct FieldProp {
    pub(crate) member: Member,
    pub(crate) property: &'static Property,
    /// Where the attribute's name is, for the generated call.
    pub(crate) span: Span,
}
