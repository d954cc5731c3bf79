//! Parsing `#[taria::widget(...)]` arguments into [`NodeArgs`], validating as we go.
//!
//! The same [`NodeArgs`] serves the derive's container attribute (only `role` there).

use proc_macro2::{Span, TokenStream};
use quote::{ToTokens, quote};
use syn::parse::{Parse, ParseStream};
use syn::punctuated::Punctuated;
use syn::{Expr, ExprLit, Ident, Lit, LitStr, Token};

use crate::errors::Errors;
use crate::vocabulary::{
    ACTIONS, ROLES, camel_case, check_custom_action, did_you_mean, is_valid_id, is_valid_name,
};

/// One raw argument: `name`, `name = expr` or `name(expr, …)`.
pub(crate) struct RawArg {
    pub(crate) name: Ident,
    pub(crate) value: RawValue,
}

pub(crate) enum RawValue {
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

/// Every argument name, for unknown-argument hints.
const ARG_NAMES: &[&str] = &[
    "role",
    "id",
    "key",
    "label",
    "value",
    "min",
    "max",
    "step",
    "max_len",
    "options",
    "focused",
    "selected",
    "checked",
    "expanded",
    "disabled",
    "busy",
    "required",
    "readonly",
    "invalid",
    "redacted",
    "untrusted",
    "modal",
    "actions",
    "index",
    "count",
    "level",
    "scroll",
    "bounds",
];

const FLAG_NAMES: &[&str] = &[
    "focused",
    "selected",
    "disabled",
    "busy",
    "required",
    "readonly",
    "redacted",
    "untrusted",
    "modal",
];
const EXPR_NAMES: &[&str] = &[
    "key", "min", "max", "step", "max_len", "options", "checked", "expanded", "invalid", "index",
    "count", "level", "bounds",
];

/// A validated argument list: each entry is one builder call.
#[derive(Default)]
pub(crate) struct NodeArgs {
    /// Builder calls, in the order written.
    pub(crate) calls: Vec<TokenStream>,
    /// Whether `bounds = …` was given (then the render area is not needed).
    pub(crate) has_bounds: bool,
}

/// Parses `input` as a comma-separated argument list.
///
/// A syntax error fails the whole list (`Err`). Otherwise every argument is checked and
/// the errors of all invalid ones are returned together with the valid ones, so the
/// caller can report them alongside its own.
pub(crate) fn parse_node_args(
    input: TokenStream,
    node: &Ident,
) -> syn::Result<(NodeArgs, Option<syn::Error>)> {
    let raw = syn::parse::Parser::parse2(Punctuated::<RawArg, Token![,]>::parse_terminated, input)?;
    let mut errors = Errors::default();
    let mut seen: Vec<String> = Vec::new();
    let mut args = NodeArgs::default();
    for arg in raw {
        let name = arg.name.to_string();
        if seen.contains(&name) {
            errors.push(syn::Error::new(
                arg.name.span(),
                format!("duplicate argument `{name}`: give each argument once"),
            ));
            continue;
        }
        seen.push(name.clone());
        // Even an invalid `bounds` says where the bounds come from: don't also
        // complain that the function has no area.
        args.has_bounds |= name == "bounds";
        if let Some(call) = errors.ok(check_arg(&arg, node)) {
            args.calls.push(call);
        }
    }
    let errors = errors.finish(()).err();
    Ok((args, errors))
}

fn check_arg(arg: &RawArg, node: &Ident) -> syn::Result<TokenStream> {
    let name = arg.name.to_string();
    let span = arg.name.span();
    let method = Ident::new(&name, span);
    match (name.as_str(), &arg.value) {
        ("role", RawValue::Assign(expr)) => role(expr, node),
        ("id", RawValue::Assign(expr)) => id(expr, node),
        ("label" | "value", RawValue::Assign(expr)) => text_arg(&name, expr, node),
        ("label" | "value", RawValue::Call(parts)) => format_call(&name, parts, span, node),
        ("actions", RawValue::Call(items)) => actions(items, node),
        ("scroll", RawValue::Call(parts)) if parts.len() == 3 => {
            let (o, c, v) = (&parts[0], &parts[1], &parts[2]);
            Ok(quote! { #node.scroll(#o, #c, #v); })
        }
        ("scroll", RawValue::Call(parts)) => Err(syn::Error::new(
            span,
            format!(
                "`scroll(…)` takes 3 arguments, {} given: write `scroll(offset, content_length, viewport_length)`",
                match parts.len() {
                    1 => "1 was".to_owned(),
                    n => format!("{n} were"),
                }
            ),
        )),
        (flag, RawValue::Flag) if FLAG_NAMES.contains(&flag) => Ok(quote! { #node.#method(true); }),
        (flag, RawValue::Assign(expr)) if FLAG_NAMES.contains(&flag) => {
            Ok(quote! { #node.#method(#expr); })
        }
        (other, RawValue::Assign(expr)) if EXPR_NAMES.contains(&other) => {
            Ok(quote! { #node.#method(#expr); })
        }
        (known, RawValue::Call(parts))
            if parts.len() == 1
                && (FLAG_NAMES.contains(&known)
                    || EXPR_NAMES.contains(&known)
                    || matches!(known, "role" | "id")) =>
        {
            let shown = match &parts[0] {
                short @ (Expr::Path(_) | Expr::Lit(_)) => short.to_token_stream().to_string(),
                _ => "…".to_owned(),
            };
            Err(syn::Error::new(
                span,
                format!("`{known}` takes `=`, not parentheses: write `{known} = {shown}`"),
            ))
        }
        (known, _) if ARG_NAMES.contains(&known) => Err(syn::Error::new(span, usage(known))),
        (unknown, _) => Err(syn::Error::new(
            span,
            format!(
                "unknown argument `{unknown}`{}; expected one of: {}",
                did_you_mean(unknown, ARG_NAMES),
                ARG_NAMES.join(", ")
            ),
        )),
    }
}

fn usage(name: &str) -> String {
    match name {
        "role" => "expected `role = <role>` or `role = custom(\"name\", <base role>)`".into(),
        "label" | "value" => format!(
            "expected `{name} = \"format {{args}}\"`, `{name} = <expr>` or `{name}(\"format {{}}\", args…)`"
        ),
        "actions" => {
            "expected `actions(activate, toggle = key(\"space\"), \"custom_name\", …)`".into()
        }
        "id" => "expected `id = \"name\"` or `id = <expr>`".into(),
        "scroll" => "expected `scroll(offset, content_length, viewport_length)`".into(),
        flag if FLAG_NAMES.contains(&flag) => {
            format!("expected `{flag}` or `{flag} = <bool expr>`")
        }
        other => format!("expected `{other} = <expr>`"),
    }
}

fn lit_str(expr: &Expr) -> Option<&LitStr> {
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

/// `::taria::Role::<Variant>` for a core role name; `custom_name` is set when the
/// name is the base of `custom(custom_name, base)`.
fn role_path(ident: &Ident, custom_name: Option<&LitStr>) -> syn::Result<TokenStream> {
    let name = ident.to_string();
    if ROLES.contains(&name.as_str()) {
        let variant = Ident::new(&camel_case(&name), ident.span());
        return Ok(quote! { ::taria::Role::#variant });
    }
    let hint = did_you_mean(&name, ROLES);
    let message = match custom_name {
        Some(custom) => format!(
            "unknown base role `{name}`{hint}; the base of a custom role is the core role that consumers \
             who don't know `{}` treat the node as, e.g. `custom(\"{}\", list_item)`",
            custom.value(),
            custom.value()
        ),
        None => format!(
            "unknown role `{name}`{hint}; for an app-specific role write `role = custom(\"{name}\", <base role>)`"
        ),
    };
    Err(syn::Error::new(ident.span(), message))
}

pub(crate) fn role(expr: &Expr, node: &Ident) -> syn::Result<TokenStream> {
    if let Some(ident) = single_ident(expr) {
        let path = role_path(ident, None)?;
        return Ok(quote! { #node.role(#path); });
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
        if !is_valid_name(&name.value()) {
            return Err(syn::Error::new(
                name.span(),
                "a custom role name is snake_case: lowercase letters, digits and `_`",
            ));
        }
        if ROLES.contains(&name.value().as_str()) {
            return Err(syn::Error::new(
                name.span(),
                format!(
                    "`{}` is a core role: write `role = {}`",
                    name.value(),
                    name.value()
                ),
            ));
        }
        let base = role_path(base, Some(name))?;
        return Ok(quote! { #node.custom_role(#name, #base); });
    }
    Err(syn::Error::new_spanned(expr, usage("role")))
}

fn id(expr: &Expr, node: &Ident) -> syn::Result<TokenStream> {
    if let Some(lit) = lit_str(expr) {
        if lit.value().is_empty() {
            return Err(syn::Error::new(
                lit.span(),
                "an id can't be empty: name the node, e.g. `id = \"save\"`, or leave `id` out to get an id derived from its parent",
            ));
        }
        if !is_valid_id(&lit.value()) {
            return Err(syn::Error::new(
                lit.span(),
                format!(
                    "`{}` is not a valid id: use ASCII letters, digits, `-`, `_`, `.` or `:` (no spaces; `/` is reserved for derived ids)",
                    lit.value()
                ),
            ));
        }
        return Ok(quote! { #node.id(#lit); });
    }
    if let Expr::Lit(lit) = expr {
        return Err(syn::Error::new_spanned(
            lit,
            "an id is a string, e.g. `id = \"save\"`, or an expression that implements Display",
        ));
    }
    Ok(quote! { #node.id(#expr); })
}

fn text_arg(name: &str, expr: &Expr, node: &Ident) -> syn::Result<TokenStream> {
    let method = Ident::new(name, Span::call_site());
    if let Some(lit) = lit_str(expr) {
        return Ok(quote! { #node.#method(::core::format_args!(#lit)); });
    }
    if let Expr::Lit(lit) = expr
        && name == "label"
    {
        return Err(syn::Error::new_spanned(
            lit,
            "a label is a string: write `label = \"Save\"`, a format string like `label = \"Task {name}\"`, or an expression that implements Display",
        ));
    }
    Ok(quote! { #node.#method(#expr); })
}

fn format_call(
    name: &str,
    parts: &Punctuated<Expr, Token![,]>,
    span: Span,
    node: &Ident,
) -> syn::Result<TokenStream> {
    let method = Ident::new(name, span);
    match parts.first() {
        Some(first) if lit_str(first).is_some() => {
            let parts = parts.iter();
            Ok(quote! { #node.#method(::core::format_args!(#(#parts),*)); })
        }
        Some(first) => Err(syn::Error::new_spanned(
            first,
            format!("`{name}(…)` starts with a format string, e.g. `{name}(\"Task {{}}\", i)`"),
        )),
        None => Err(syn::Error::new(span, usage(name))),
    }
}

fn actions(items: &Punctuated<Expr, Token![,]>, node: &Ident) -> syn::Result<TokenStream> {
    let mut calls = TokenStream::new();
    let mut errors = Errors::default();
    for item in items {
        if let Some(call) = errors.ok(action(item, node)) {
            calls.extend(call);
        }
    }
    errors.finish(calls)
}

enum ActionSpec {
    Core(TokenStream),
    Custom(LitStr),
}

fn action_spec(expr: &Expr) -> syn::Result<ActionSpec> {
    if let Some(ident) = single_ident(expr) {
        let name = ident.to_string();
        if ACTIONS.contains(&name.as_str()) {
            let variant = Ident::new(&camel_case(&name), ident.span());
            return Ok(ActionSpec::Core(quote! { ::taria::Action::#variant }));
        }
        return Err(syn::Error::new(
            ident.span(),
            format!(
                "unknown action `{name}`{}; core actions are: {}; for an app-specific action write it as a string, e.g. \"{name}\"",
                did_you_mean(&name, ACTIONS),
                ACTIONS.join(", ")
            ),
        ));
    }
    if let Some(lit) = lit_str(expr) {
        check_custom_action(lit)?;
        return Ok(ActionSpec::Custom(lit.clone()));
    }
    Err(syn::Error::new_spanned(expr, usage("actions")))
}

fn action(item: &Expr, node: &Ident) -> syn::Result<TokenStream> {
    if let Expr::Assign(assign) = item {
        let spec = action_spec(&assign.left)?;
        let key = key_fallback(&assign.left, &assign.right)?;
        return Ok(match spec {
            ActionSpec::Core(path) => quote! { #node.key_fallback(#path, #key); },
            ActionSpec::Custom(name) => quote! { #node.custom_key_fallback(#name, #key); },
        });
    }
    Ok(match action_spec(item)? {
        ActionSpec::Core(path) => quote! { #node.action(#path); },
        ActionSpec::Custom(name) => quote! { #node.custom_action(#name); },
    })
}

/// The key string of `<action> = key("…")`.
fn key_fallback<'a>(action: &Expr, fallback: &'a Expr) -> syn::Result<&'a LitStr> {
    let action = match lit_str(action) {
        Some(custom) => custom.value(),
        None => action.to_token_stream().to_string(),
    };
    let example = format!("`{action} = key(\"space\")` or `{action} = key(\"ctrl+s\")`");
    let Expr::Call(call) = fallback else {
        return Err(syn::Error::new_spanned(
            fallback,
            format!(
                "expected a key fallback: the key the app takes for `{action}`, e.g. {example}"
            ),
        ));
    };
    if single_ident(&call.func).is_none_or(|f| f != "key") || call.args.len() != 1 {
        return Err(syn::Error::new_spanned(
            fallback,
            format!("expected a key fallback: `key(\"…\")` with one key, e.g. {example}"),
        ));
    }
    match lit_str(&call.args[0]) {
        Some(key) if !key.value().trim().is_empty() => Ok(key),
        Some(key) => Err(syn::Error::new(
            key.span(),
            format!(
                "the key can't be empty: name the key the app takes for `{action}`, e.g. {example}"
            ),
        )),
        None => Err(syn::Error::new_spanned(
            &call.args[0],
            format!("the key is a string literal naming the key, e.g. {example}"),
        )),
    }
}

impl ToTokens for NodeArgs {
    fn to_tokens(&self, tokens: &mut TokenStream) {
        for call in &self.calls {
            call.to_tokens(tokens);
        }
    }
}
