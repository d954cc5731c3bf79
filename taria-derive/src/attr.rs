//! Parsing: `#[taria::widget(...)]` arguments and `#[derive(Semantic)]` attributes
//! into the typed [`ast`](crate::ast), by the shape each property's
//! [`Syntax`] allows. Names are checked later, in [`valid`](crate::valid).

use proc_macro2::TokenStream;
use quote::ToTokens;
use syn::parse::{Parse, ParseStream};
use syn::punctuated::Punctuated;
use syn::{Data, DeriveInput, Expr, ExprLit, Ident, Index, Lit, LitStr, Member, Token};

use crate::ast::{
    ActionArg, ActionItem, FieldProp, IdArg, NodeArgs, Prop, PropValue, RoleArg, SemanticInput,
    TextArg,
};
use crate::errors::{Errors, Ordered};
use crate::vocabulary::{Field, PROPERTIES, Syntax, did_you_mean, property_named};

/// One argument as written: `name`, `name = expr` or `name(expr, …)`.
struct RawArg {
    name: Ident,
    value: RawValue,
}

enum RawValue {
    Flag,
    Assign(Expr),
    Call(Punctuated<Expr, Token![,]>),
}

impl Parse for RawArg {
    fn parse(input: ParseStream<'_>) -> syn::Result<Self> {
        let name: Ident = input.call(syn::ext::IdentExt::parse_any)?;
        let value = if input.peek(Token![=]) {
            input.parse::<Token![=]>()?;
            RawValue::Assign(input.parse()?)
        } else if input.peek(syn::token::Paren) {
            let content;
            syn::parenthesized!(content in input);
            RawValue::Call(content.parse_terminated(Expr::parse, Token![,])?)
        } else {
            RawValue::Flag
        };
        Ok(RawArg { name, value })
    }
}

/// Every argument name, for messages.
fn arg_names() -> Vec<&'static str> {
    PROPERTIES.iter().map(|p| p.name).collect()
}

/// Parses `input` as a comma-separated argument list.
///
/// A syntax error fails the whole list (`Err`). Otherwise each argument that has the
/// shape its property allows is in the returned list, and the errors of the others
/// go to `errors`, tagged with their place.
pub(crate) fn parse_node_args(input: TokenStream, errors: &mut Ordered) -> syn::Result<NodeArgs> {
    let raw = syn::parse::Parser::parse2(Punctuated::<RawArg, Token![,]>::parse_terminated, input)?;
    let mut seen: Vec<String> = Vec::new();
    let mut args = NodeArgs::default();
    for (at, arg) in raw.into_iter().enumerate() {
        let name = arg.name.to_string();
        if seen.contains(&name) {
            let message = format!("duplicate argument `{name}`: give each argument once");
            errors.push((at, 0, 0), syn::Error::new(arg.name.span(), message));
            continue;
        }
        seen.push(name.clone());
        // Even an invalid `bounds` says where the bounds come from: don't also
        // complain that the function has no area.
        args.has_bounds |= name == "bounds";
        match prop(at, arg, errors) {
            Ok(prop) => args.props.push(prop),
            Err(error) => errors.push((at, 0, 0), error),
        }
    }
    Ok(args)
}

fn prop(at: usize, arg: RawArg, errors: &mut Ordered) -> syn::Result<Prop> {
    let name = arg.name.to_string();
    let span = arg.name.span();
    let Some(property) = property_named(&name) else {
        let names = arg_names();
        return Err(syn::Error::new(
            span,
            format!(
                "unknown argument `{name}`{}; expected one of: {}",
                did_you_mean(&name, &names),
                names.join(", ")
            ),
        ));
    };
    let value = match (property.syntax, arg.value) {
        (Syntax::Role, RawValue::Assign(expr)) => PropValue::Role(role(&expr)?),
        (Syntax::Id, RawValue::Assign(expr)) => PropValue::Id(id(expr)?),
        (Syntax::Text, RawValue::Assign(expr)) => PropValue::Text(text(&name, expr)?),
        (Syntax::Text, RawValue::Call(parts)) => {
            let mut parts = parts.into_iter();
            match parts.next() {
                Some(Expr::Lit(ExprLit {
                    lit: Lit::Str(format),
                    ..
                })) => PropValue::Text(TextArg::Format {
                    format,
                    args: parts.collect(),
                }),
                Some(first) => {
                    return Err(syn::Error::new_spanned(
                        first,
                        format!(
                            "`{name}(…)` starts with a format string, e.g. `{name}(\"Task {{}}\", i)`"
                        ),
                    ));
                }
                None => return Err(syn::Error::new(span, usage(&name, property.syntax))),
            }
        }
        (Syntax::Actions, RawValue::Call(items)) => {
            let mut parsed = Vec::new();
            for (item_at, item) in items.iter().enumerate() {
                match action_item(item_at, item, &mut |e| errors.push((at, item_at, 1), e)) {
                    Ok(item) => parsed.push(item),
                    Err(error) => errors.push((at, item_at, 0), error),
                }
            }
            PropValue::Actions(parsed)
        }
        (Syntax::Scroll, RawValue::Call(parts)) if parts.len() == 3 => {
            let mut parts = parts.into_iter();
            let mut next = || parts.next().expect("three parts");
            PropValue::Scroll(Box::new([next(), next(), next()]))
        }
        (Syntax::Scroll, RawValue::Call(parts)) => {
            return Err(syn::Error::new(
                span,
                format!(
                    "`scroll(…)` takes 3 arguments, {} given: write `scroll(offset, content_length, viewport_length)`",
                    match parts.len() {
                        1 => "1 was".to_owned(),
                        n => format!("{n} were"),
                    }
                ),
            ));
        }
        (Syntax::Flag, RawValue::Flag) => PropValue::Flag(None),
        (Syntax::Flag, RawValue::Assign(expr)) => PropValue::Flag(Some(expr)),
        (Syntax::Expr, RawValue::Assign(expr)) => PropValue::Expr(expr),
        (Syntax::Flag | Syntax::Expr | Syntax::Role | Syntax::Id, RawValue::Call(parts))
            if parts.len() == 1 =>
        {
            let shown = match &parts[0] {
                short @ (Expr::Path(_) | Expr::Lit(_)) => short.to_token_stream().to_string(),
                _ => "…".to_owned(),
            };
            return Err(syn::Error::new(
                span,
                format!("`{name}` takes `=`, not parentheses: write `{name} = {shown}`"),
            ));
        }
        (syntax, _) => return Err(syn::Error::new(span, usage(&name, syntax))),
    };
    Ok(Prop {
        at,
        name: arg.name,
        property,
        value,
    })
}

/// How an argument of this syntax is written.
pub(crate) fn usage(name: &str, syntax: Syntax) -> String {
    match syntax {
        Syntax::Role => "expected `role = <role>` or `role = custom(\"name\", <base role>)`".into(),
        Syntax::Text => format!(
            "expected `{name} = \"format {{args}}\"`, `{name} = <expr>` or `{name}(\"format {{}}\", args…)`"
        ),
        Syntax::Actions => {
            "expected `actions(activate, toggle = key(\"space\"), \"custom_name\", …)` (each may \
             end in `.when(<bool expr>)`; `focus = cycle(\"next\", \"previous\")`)"
                .into()
        }
        Syntax::Id => "expected `id = \"name\"` or `id = <expr>`".into(),
        Syntax::Scroll => "expected `scroll(offset, content_length, viewport_length)`".into(),
        Syntax::Flag => format!("expected `{name}` or `{name} = <bool expr>`"),
        Syntax::Expr => format!("expected `{name} = <expr>`"),
    }
}

pub(crate) fn lit_str(expr: &Expr) -> Option<&LitStr> {
    match expr {
        Expr::Lit(ExprLit {
            lit: Lit::Str(s), ..
        }) => Some(s),
        _ => None,
    }
}

fn single_ident(expr: &Expr) -> Option<&Ident> {
    match expr {
        Expr::Path(p) if p.qself.is_none() => p.path.get_ident(),
        _ => None,
    }
}

/// `role = <ident>` or `role = custom("name", <ident>)`.
pub(crate) fn role(expr: &Expr) -> syn::Result<RoleArg> {
    if let Some(ident) = single_ident(expr) {
        return Ok(RoleArg::Core(ident.clone()));
    }
    if let Expr::Call(call) = expr
        && single_ident(&call.func).is_some_and(|f| f == "custom")
    {
        let (Some(name), Some(base), 2) = (
            call.args.first().and_then(lit_str),
            call.args.get(1).and_then(single_ident),
            call.args.len(),
        ) else {
            return Err(syn::Error::new_spanned(
                expr,
                "expected `custom(\"name\", <base role>)`, e.g. `custom(\"kanban_card\", list_item)`",
            ));
        };
        return Ok(RoleArg::Custom {
            name: name.clone(),
            base: base.clone(),
        });
    }
    Err(syn::Error::new_spanned(expr, usage("role", Syntax::Role)))
}

fn id(expr: Expr) -> syn::Result<IdArg> {
    if let Some(lit) = lit_str(&expr) {
        return Ok(IdArg::Lit(lit.clone()));
    }
    if let Expr::Lit(lit) = &expr {
        return Err(syn::Error::new_spanned(
            lit,
            "an id is a string, e.g. `id = \"save\"`, or an expression that implements Display",
        ));
    }
    Ok(IdArg::Expr(expr))
}

fn text(name: &str, expr: Expr) -> syn::Result<TextArg> {
    if let Some(lit) = lit_str(&expr) {
        return Ok(TextArg::Format {
            format: lit.clone(),
            args: Vec::new(),
        });
    }
    if let Expr::Lit(lit) = &expr
        && name == "label"
    {
        return Err(syn::Error::new_spanned(
            lit,
            "a label is a string: write `label = \"Save\"`, a format string like `label = \"Task {name}\"`, or an expression that implements Display",
        ));
    }
    Ok(TextArg::Expr(expr))
}

/// `<action>` or `<action> = key("…")`, either with `.when(condition)` (offered only
/// while it holds). An action that cannot be parsed fails the
/// item; a key fallback that cannot is reported through `key_error` and the item
/// kept without it, so a wrong action name in it is reported too.
fn action_item(
    at: usize,
    item: &Expr,
    key_error: &mut dyn FnMut(syn::Error),
) -> syn::Result<ActionItem> {
    let (item, when) = offered_when(item);
    match item {
        Expr::Assign(assign) => {
            let (action, when_action) = offered_when(&assign.left);
            let (fallback, when_key) = offered_when(&assign.right);
            let mut whens = [when, when_action, when_key].into_iter().flatten();
            let when = whens.next();
            if let Some(second) = whens.next() {
                return Err(syn::Error::new_spanned(
                    second,
                    "one `.when(…)` per action: on the action or on its key, not both",
                ));
            }
            action_item_parts(at, action, Some(fallback), when, key_error)
        }
        other => action_item_parts(at, other, None, when, key_error),
    }
}

/// `x.when(condition)`: `x` and the condition; anything else as it is.
fn offered_when(expr: &Expr) -> (&Expr, Option<syn::Expr>) {
    match expr {
        Expr::MethodCall(call) if call.method == "when" && call.args.len() == 1 => {
            (&call.receiver, Some(call.args[0].clone()))
        }
        other => (other, None),
    }
}

/// An action item's action, key fallback and condition, parsed.
fn action_item_parts(
    at: usize,
    action: &Expr,
    fallback: Option<&Expr>,
    when: Option<syn::Expr>,
    key_error: &mut dyn FnMut(syn::Error),
) -> syn::Result<ActionItem> {
    let parsed = if let Some(ident) = single_ident(action) {
        ActionArg::Core(ident.clone())
    } else if let Some(lit) = lit_str(action) {
        ActionArg::Custom(lit.clone())
    } else {
        return Err(syn::Error::new_spanned(
            action,
            usage("actions", Syntax::Actions),
        ));
    };
    let key = match fallback.map(|fallback| key_fallback(action, fallback)) {
        Some(Ok(key)) => Some(key),
        Some(Err(error)) => {
            key_error(error);
            None
        }
        None => None,
    };
    Ok(ActionItem {
        at,
        action: parsed,
        key,
        when,
    })
}

/// How an action is written in messages about its key fallback.
pub(crate) fn action_shown(action: &Expr) -> String {
    match lit_str(action) {
        Some(custom) => custom.value(),
        None => action.to_token_stream().to_string(),
    }
}

/// An example key fallback for `action`, for messages.
pub(crate) fn key_example(action: &str) -> String {
    format!("`{action} = key(\"space\")` or `{action} = key(\"ctrl+s\")`")
}

/// The key string of `<action> = key("…")`.
fn key_fallback(action: &Expr, fallback: &Expr) -> syn::Result<LitStr> {
    let action = action_shown(action);
    let example = key_example(&action);
    let Expr::Call(call) = fallback else {
        return Err(syn::Error::new_spanned(
            fallback,
            format!(
                "expected a key fallback: the key the app takes for `{action}`, e.g. {example}"
            ),
        ));
    };
    if action == "focus" && single_ident(&call.func).is_some_and(|f| f == "cycle") {
        return focus_cycle(call);
    }
    if single_ident(&call.func).is_none_or(|f| f != "key") || call.args.len() != 1 {
        return Err(syn::Error::new_spanned(
            fallback,
            format!("expected a key fallback: `key(\"…\")` with one key, e.g. {example}"),
        ));
    }
    match lit_str(&call.args[0]) {
        Some(key) => Ok(key.clone()),
        None => Err(syn::Error::new_spanned(
            &call.args[0],
            format!("the key is a string literal naming the key, e.g. {example}"),
        )),
    }
}

/// The two keys of a focus key `focus_cycle` wrote (as the runtime reads them back).
pub(crate) fn cycle_keys(key: &str) -> Option<(&str, &str)> {
    key.strip_suffix(" (previous)")?.split_once(" (next) / ")
}

/// `focus = cycle("next", "previous")`: the app moves the focus among the nodes that
/// declare it (siblings, in drawing order) with `next` and `previous`. Recorded as the
/// focus key `"<next> (next) / <previous> (previous)"`, which the runtime reads back
/// (`taria::NodeBuilder::focus_cycle`).
fn focus_cycle(call: &syn::ExprCall) -> syn::Result<LitStr> {
    let keys: Vec<&LitStr> = call.args.iter().filter_map(lit_str).collect();
    match keys.as_slice() {
        [next, previous] if call.args.len() == 2 => Ok(LitStr::new(
            &format!("{} (next) / {} (previous)", next.value(), previous.value()),
            next.span(),
        )),
        _ => Err(syn::Error::new_spanned(
            call,
            "expected `focus = cycle(\"next\", \"previous\")`: the key that moves the focus to \
             the next of these nodes and the one that moves it to the previous, e.g. \
             `focus = cycle(\"right\", \"left\")`",
        )),
    }
}

/// `#[taria(role = …)]` on the struct and `#[taria(name)]` on its fields. Returns
/// `None` for an enum or a union (after reporting it).
pub(crate) fn semantic_input(input: &DeriveInput, errors: &mut Errors) -> Option<SemanticInput> {
    let role = container_attrs(input, errors);
    let fields = match &input.data {
        Data::Struct(s) => &s.fields,
        Data::Enum(e) => {
            errors.push(syn::Error::new(
                e.enum_token.span,
                "`#[derive(Semantic)]` supports structs; implement `taria::Semantic` by hand for an enum",
            ));
            return None;
        }
        Data::Union(u) => {
            errors.push(syn::Error::new(
                u.union_token.span,
                "`#[derive(Semantic)]` supports structs",
            ));
            return None;
        }
    };
    let fields = field_attrs(fields, errors);
    Some(SemanticInput { role, fields })
}

fn container_attrs(input: &DeriveInput, errors: &mut Errors) -> Option<RoleArg> {
    let mut found = None;
    for attr in input.attrs.iter().filter(|a| a.path().is_ident("taria")) {
        let parsed = attr.parse_nested_meta(|meta| {
            if meta.path.is_ident("role") {
                if found.is_some() {
                    return Err(meta.error("duplicate container attribute `role`: give the role once"));
                }
                let expr: Expr = meta.value()?.parse()?;
                found = Some(role(&expr)?);
                return Ok(());
            }
            let name = meta.path.get_ident().map(ToString::to_string).unwrap_or_default();
            let is_field_attr = property_named(&name).is_some_and(|p| p.field != Field::No);
            Err(meta.error(if is_field_attr {
                format!(
                    "`{name}` is a field attribute: put `#[taria({name})]` on the field that holds the {name}; \
                     the only container attribute is `#[taria(role = <role>)]`"
                )
            } else {
                format!(
                    "unknown container attribute `{name}`{}; the only container attribute is `#[taria(role = <role>)]`",
                    did_you_mean(&name, &["role"])
                )
            }))
        });
        errors.ok(parsed);
    }
    found
}

fn field_attrs(fields: &syn::Fields, errors: &mut Errors) -> Vec<FieldProp> {
    let field_names: Vec<&str> = PROPERTIES
        .iter()
        .filter(|p| p.field != Field::No)
        .map(|p| p.name)
        .collect();
    let mut props: Vec<FieldProp> = Vec::new();
    // Each attribute used so far, with the field it is on.
    let mut seen: Vec<(String, String)> = Vec::new();
    for (i, field) in fields.iter().enumerate() {
        let member = field
            .ident
            .clone()
            .map_or_else(|| Member::Unnamed(Index::from(i)), Member::Named);
        let field_name = match &member {
            Member::Named(ident) => ident.to_string(),
            Member::Unnamed(index) => index.index.to_string(),
        };
        for attr in field.attrs.iter().filter(|a| a.path().is_ident("taria")) {
            let parsed = attr.parse_nested_meta(|meta| {
                let Some(ident) = meta.path.get_ident() else {
                    return Err(meta.error("expected a field attribute such as `label`"));
                };
                let name = ident.to_string();
                let Some(property) = property_named(&name).filter(|p| p.field != Field::No) else {
                    let hint = if name == "role" {
                        "; `role` is a container attribute: put `#[taria(role = <role>)]` on the struct".to_owned()
                    } else {
                        format!("; expected one of: {}", field_names.join(", "))
                    };
                    return Err(meta.error(format!(
                        "unknown field attribute `{name}`{}{hint}",
                        did_you_mean(&name, &field_names),
                    )));
                };
                if !meta.input.is_empty() && !meta.input.peek(Token![,]) {
                    return Err(meta.error(format!(
                        "a field attribute takes no value: write `#[taria({name})]` and the field's value is the {name}"
                    )));
                }
                if let Some((_, first)) = seen.iter().find(|(n, _)| *n == name) {
                    return Err(meta.error(if *first == field_name {
                        format!("`{name}` is given twice on field `{field_name}`: give it once")
                    } else {
                        format!(
                            "`#[taria({name})]` is on both field `{first}` and field `{field_name}`: \
                             only one field can supply the {name}"
                        )
                    }));
                }
                seen.push((name.clone(), field_name.clone()));
                props.push(FieldProp {
                    member: member.clone(),
                    property,
                    span: ident.span(),
                });
                Ok(())
            });
            errors.ok(parsed);
        }
    }
    props
}
