//! The macros' vocabulary, defined once: the node properties `#[taria::widget]` and
//! `#[derive(Semantic)]` accept (how each is written, what it takes, which
//! `NodeBuilder` methods it calls), and the role and action names.
//!
//! Plain data without dependencies, so the ui-test `pass/every-role-and-action.rs`
//! includes this file as a module and checks it against the runtime: `Role::ALL`,
//! `Action::ALL` and `NodeBuilder`'s setters.

/// How a `#[taria::widget]` argument is written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Syntax {
    /// `role = <role>` or `role = custom("name", <base role>)`.
    Role,
    /// `id = "name"` or `id = <expr>`.
    Id,
    /// `name = "format {args}"`, `name = <expr>` or `name("format {}", args…)`.
    Text,
    /// `name` or `name = <bool expr>`.
    Flag,
    /// `name = <expr>`.
    Expr,
    /// `actions(activate, toggle = key("space"), "custom_name", …)`.
    Actions,
    /// `scroll(offset, content_length, viewport_length)`.
    Scroll,
}

/// What the builder method takes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Takes {
    /// Text (`impl IntoText`): macro arguments go through the text probe, so any
    /// `Display` type is accepted and text and integers are not formatted.
    Text,
    /// Anything else, passed as written.
    AsIs,
}

/// Whether `#[derive(Semantic)]` accepts `#[taria(name)]` on a field, and how it
/// passes the field.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Field {
    /// Not a field attribute.
    No,
    /// `&self.field`: the builder's argument traits accept references, nothing is cloned.
    ByRef,
    /// `Clone::clone(&self.field)`: the builder takes `Into<f64>` / `TryInto<u32>`,
    /// which a reference would not fit (`Copy` numbers in practice).
    ByValue,
}

/// One node property.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Property {
    /// The argument's (and the field attribute's) name.
    pub(crate) name: &'static str,
    pub(crate) syntax: Syntax,
    pub(crate) takes: Takes,
    pub(crate) field: Field,
    /// The `NodeBuilder` methods its expansion calls.
    pub(crate) builder: &'static [&'static str],
}

const fn property(
    name: &'static str,
    syntax: Syntax,
    takes: Takes,
    field: Field,
    builder: &'static [&'static str],
) -> Property {
    Property {
        name,
        syntax,
        takes,
        field,
        builder,
    }
}

/// A property whose builder method has its own name.
const fn plain(name: &'static str, syntax: Syntax, field: Field) -> Property {
    property(name, syntax, Takes::AsIs, field, &[])
}

/// Every node property, in the order the messages list them.
pub(crate) const PROPERTIES: &[Property] = &[
    property(
        "role",
        Syntax::Role,
        Takes::AsIs,
        Field::No,
        &["role", "custom_role"],
    ),
    property("id", Syntax::Id, Takes::Text, Field::ByRef, &[]),
    property("key", Syntax::Expr, Takes::Text, Field::ByRef, &[]),
    property("label", Syntax::Text, Takes::Text, Field::ByRef, &[]),
    plain("value", Syntax::Text, Field::ByRef),
    plain("min", Syntax::Expr, Field::ByValue),
    plain("max", Syntax::Expr, Field::ByValue),
    plain("step", Syntax::Expr, Field::ByValue),
    plain("max_len", Syntax::Expr, Field::ByValue),
    plain("options", Syntax::Expr, Field::ByRef),
    plain("focused", Syntax::Flag, Field::ByRef),
    plain("selected", Syntax::Flag, Field::ByRef),
    plain("checked", Syntax::Expr, Field::ByRef),
    plain("expanded", Syntax::Expr, Field::ByRef),
    plain("disabled", Syntax::Flag, Field::ByRef),
    plain("busy", Syntax::Flag, Field::ByRef),
    plain("required", Syntax::Flag, Field::ByRef),
    plain("readonly", Syntax::Flag, Field::ByRef),
    plain("invalid", Syntax::Expr, Field::ByRef),
    plain("redacted", Syntax::Flag, Field::ByRef),
    plain("untrusted", Syntax::Flag, Field::ByRef),
    plain("modal", Syntax::Flag, Field::ByRef),
    property(
        "actions",
        Syntax::Actions,
        Takes::AsIs,
        Field::No,
        &[
            "action",
            "custom_action",
            "key_fallback",
            "custom_key_fallback",
        ],
    ),
    plain("index", Syntax::Expr, Field::ByValue),
    plain("count", Syntax::Expr, Field::ByValue),
    plain("level", Syntax::Expr, Field::ByValue),
    plain("scroll", Syntax::Scroll, Field::No),
    plain("bounds", Syntax::Expr, Field::No),
];

impl Property {
    /// The `NodeBuilder` methods its expansion calls.
    pub(crate) fn builder_methods(&'static self) -> &'static [&'static str] {
        if self.builder.is_empty() {
            std::slice::from_ref(&self.name)
        } else {
            self.builder
        }
    }
}

/// The property named `name`.
pub(crate) fn property_named(name: &str) -> Option<&'static Property> {
    PROPERTIES.iter().find(|p| p.name == name)
}

pub(crate) const ROLES: &[&str] = &[
    "app",
    "region",
    "group",
    "dialog",
    "tabs",
    "tab",
    "menu",
    "menu_item",
    "list",
    "list_item",
    "tree",
    "tree_item",
    "table",
    "row",
    "cell",
    "column_header",
    "text_input",
    "text_area",
    "button",
    "checkbox",
    "radio",
    "switch",
    "select",
    "option",
    "slider",
    "spin_button",
    "link",
    "text",
    "heading",
    "log",
    "progress",
    "status",
    "scrollbar",
    "chart",
    "image",
    "terminal",
    "form",
    "form_field",
    "notification",
    "toolbar",
    "separator",
    "tooltip",
];

pub(crate) const ACTIONS: &[&str] = &[
    "activate",
    "focus",
    "select",
    "toggle",
    "expand",
    "collapse",
    "increment",
    "decrement",
    "scroll",
    "set_value",
    "dismiss",
    "copy",
    "submit",
    "sort",
];
