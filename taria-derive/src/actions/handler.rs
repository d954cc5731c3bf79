//! Parsing and checking one handler: its `#[action(node = "…", <action>)]` attributes,
//! its receiver and its parameters (chosen by name).

use proc_macro2::{Delimiter, Span, TokenStream, TokenTree};
use quote::ToTokens;
use syn::parse::{Parse, ParseStream};
use syn::punctuated::Punctuated;
use syn::spanned::Spanned;
use syn::{Attribute, Expr, ExprLit, FnArg, Ident, ImplItemFn, Lit, LitStr, Pat, Token, Type};

use crate::errors::Errors;
use crate::vocabulary::{ACTIONS, check_custom_action, did_you_mean};

/// How a handler attribute is written, for error messages.
pub(crate) const USAGE: &str = "expected `#[action(node = \"<id pattern>\", <action>)]`, \
     e.g. `#[action(node = \"tasks/*\", toggle)]` or `#[action(node = \"tasks/*\", \"archive\")]`";

/// The parameter names a handler may take, each filled from the invocation.
pub(crate) const PARAM_NAMES: &[&str] =
    &["key", "index", "value", "direction", "amount", "invocation"];

/// One `#[action(...)]` attribute, checked.
pub(crate) struct ActionAttr {
    /// The node id pattern, as written.
    pub(crate) pattern: LitStr,
    /// Whether the pattern has a `*` or `**` (so a `key` parameter has something to
    /// parse).
    pub(crate) has_wildcard: bool,
    /// The action's name: a core action or a custom one.
    pub(crate) action: String,
    /// Whether `action` is a core action name.
    pub(crate) core: bool,
    /// The attribute's arguments, to point a "duplicate handler" error at.
    pub(crate) args: TokenStream,
}

/// What a handler parameter is filled with.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum ParamKind {
    /// What the pattern's `*` (one segment) or `**` (one or more) stood for, parsed
    /// with `FromStr` (or `&str` as is).
    Key,
    /// The target's position index.
    Index,
    /// The payload value (`set_value`, custom actions).
    Value,
    /// The scroll direction (`scroll`).
    Direction,
    /// The scroll amount (`scroll`).
    Amount,
    /// The invocation itself.
    Invocation,
}

/// One handler parameter.
pub(crate) struct Param {
    pub(crate) kind: ParamKind,
    /// The parameter's name, to point errors at.
    pub(crate) name: Ident,
    pub(crate) ty: Type,
    /// The type as written, spaced as Rust prints it (`Option<u8>`, `&str`).
    pub(crate) ty_name: String,
}

/// A handler method: its name, parameters, return type span and attributes.
pub(crate) struct Handler {
    pub(crate) method: Ident,
    pub(crate) params: Vec<Param>,
    /// The return type's span (the method name's when it returns `()` implicitly).
    pub(crate) output_span: Span,
    /// Its `#[action]` attributes whose parameters fit the action.
    pub(crate) attrs: Vec<ActionAttr>,
}

impl Handler {
    /// The handler as a refusal names it: `set_age(value: u8)` (without an
    /// `invocation`, which every handler could take).
    pub(crate) fn signature(&self) -> String {
        let params: Vec<String> = self
            .params
            .iter()
            .filter(|p| p.kind != ParamKind::Invocation)
            .map(|p| format!("{}: {}", p.name, p.ty_name))
            .collect();
        format!("{}({})", self.method, params.join(", "))
    }

    /// The type of its parameter of `kind`, if it has one.
    pub(crate) fn param_type(&self, kind: ParamKind) -> Option<&str> {
        self.params
            .iter()
            .find(|p| p.kind == kind)
            .map(|p| p.ty_name.as_str())
    }
}

/// Whether `attr` is a handler attribute: `#[action(...)]`, or `#[taria::action(...)]`
/// (which would otherwise run the stray-attribute error).
pub(crate) fn is_action_attr(attr: &Attribute) -> bool {
    let path = attr.path();
    path.is_ident("action")
        || (path.segments.len() == 2
            && path.segments[0].ident == "taria"
            && path.segments[1].ident == "action")
}

/// Parses and checks the handler `method`, whose `#[action]` attributes are `attrs`.
///
/// Errors go to `errors`; returns `None` when the method cannot be called from a
/// generated dispatch (bad receiver, unknown parameter), and drops the attributes that
/// fail. Whether an earlier handler shadows one is checked over all of them
/// ([`super::shadowed`]).
pub(crate) fn parse_handler(
    method: &ImplItemFn,
    attrs: &[Attribute],
    errors: &mut Errors,
) -> Option<Handler> {
    let checked: Vec<ActionAttr> = attrs
        .iter()
        .filter_map(|attr| errors.ok(parse_action_attr(attr)))
        .collect();
    let receiver_ok = errors.ok(check_receiver(method)).is_some();
    let mut params = Vec::new();
    let mut params_ok = true;
    let typed = method
        .sig
        .inputs
        .iter()
        .filter(|input| matches!(input, FnArg::Typed(_)));
    for input in typed {
        match parse_param(input) {
            Ok(param) => params.push(param),
            Err(e) => {
                params_ok = false;
                errors.push(e);
            }
        }
    }
    if !receiver_ok || !params_ok {
        return None;
    }
    // Keep the attributes whose action fits the parameters.
    let attrs = checked
        .into_iter()
        .filter(|attr| {
            let mut fits = true;
            for param in &params {
                if let Err(e) = check_fit(param, attr) {
                    errors.push(e);
                    fits = false;
                }
            }
            fits
        })
        .collect();
    let output_span = match &method.sig.output {
        syn::ReturnType::Default => method.sig.ident.span(),
        syn::ReturnType::Type(_, ty) => ty.span(),
    };
    Some(Handler {
        method: method.sig.ident.clone(),
        params,
        output_span,
        attrs,
    })
}

/// One argument of `#[action(...)]`: `name = expr`, a bare identifier, or a string.
enum RawActionArg {
    Named(Ident, Expr),
    Bare(Ident),
    Custom(LitStr),
}

impl Parse for RawActionArg {
    fn parse(input: ParseStream<'_>) -> syn::Result<Self> {
        if input.peek(LitStr) {
            return input.parse().map(RawActionArg::Custom);
        }
        let ident: Ident = input.call(syn::ext::IdentExt::parse_any)?;
        if input.peek(Token![=]) {
            input.parse::<Token![=]>()?;
            return Ok(RawActionArg::Named(ident, input.parse()?));
        }
        Ok(RawActionArg::Bare(ident))
    }
}

/// Parses and checks `#[action(node = "…", <action>)]`.
pub(crate) fn parse_action_attr(attr: &Attribute) -> syn::Result<ActionAttr> {
    let syn::Meta::List(meta) = &attr.meta else {
        return Err(syn::Error::new_spanned(&attr.meta, USAGE));
    };
    let args = meta.parse_args_with(Punctuated::<RawActionArg, Token![,]>::parse_terminated)?;
    let mut errors = Errors::default();
    let mut pattern: Option<(LitStr, bool)> = None;
    let mut action: Option<(String, bool)> = None;
    let mut node_given = false;
    let mut action_given = false;
    for arg in args {
        match arg {
            RawActionArg::Named(name, value) if name == "node" => {
                if node_given {
                    errors.push(syn::Error::new(
                        name.span(),
                        "`node` is given twice: give one id pattern",
                    ));
                    continue;
                }
                node_given = true;
                match &value {
                    Expr::Lit(ExprLit {
                        lit: Lit::Str(lit), ..
                    }) => pattern = errors.ok(check_pattern(lit)).map(|w| (lit.clone(), w)),
                    other => errors.push(syn::Error::new_spanned(
                        other,
                        "the node pattern is a string literal, e.g. `node = \"tasks/*\"`",
                    )),
                }
            }
            RawActionArg::Named(name, _) => errors.push(syn::Error::new(
                name.span(),
                format!(
                    "unknown argument `{name}`{}; {USAGE}",
                    did_you_mean(&name.to_string(), &["node"])
                ),
            )),
            RawActionArg::Bare(ident) if ident == "node" => {
                node_given = true;
                errors.push(syn::Error::new(
                    ident.span(),
                    "expected `node = \"<id pattern>\"`, e.g. `node = \"tasks/*\"`",
                ));
            }
            RawActionArg::Bare(ident) => {
                let span = ident.span();
                let checked = check_core_action(&ident);
                if one_action(&mut action_given, span, &mut errors) {
                    action = errors.ok(checked).map(|name| (name, true));
                }
            }
            RawActionArg::Custom(lit) => {
                let checked = check_custom_action(&lit);
                if one_action(&mut action_given, lit.span(), &mut errors) {
                    action = errors.ok(checked).map(|name| (name, false));
                }
            }
        }
    }
    if !node_given {
        errors.push(syn::Error::new_spanned(
            meta,
            format!("missing the node id pattern: {USAGE}"),
        ));
    }
    if !action_given {
        errors.push(syn::Error::new_spanned(
            meta,
            format!("missing the action: {USAGE}"),
        ));
    }
    errors.finish(())?;
    match (pattern, action) {
        (Some((pattern, has_wildcard)), Some((action, core))) => Ok(ActionAttr {
            pattern,
            has_wildcard,
            action,
            core,
            args: meta.tokens.clone(),
        }),
        // Every `None` above pushed an error.
        _ => Err(syn::Error::new_spanned(meta, USAGE)),
    }
}

/// Notes that an action was given; `false` (after an error) if one was given before.
fn one_action(given: &mut bool, span: Span, errors: &mut Errors) -> bool {
    if *given {
        errors.push(syn::Error::new(
            span,
            "one action per `#[action]`: put a second `#[action(node = …, …)]` on the method \
             to handle another action",
        ));
        return false;
    }
    *given = true;
    true
}

fn check_core_action(ident: &Ident) -> syn::Result<String> {
    let name = ident.to_string();
    if ACTIONS.contains(&name.as_str()) {
        return Ok(name);
    }
    Err(syn::Error::new(
        ident.span(),
        format!(
            "unknown action `{name}`{}; core actions are: {}; for an app-specific action write it as a string, e.g. \"{name}\"",
            did_you_mean(&name, ACTIONS),
            ACTIONS.join(", ")
        ),
    ))
}

/// Checks a node id pattern; returns whether it has a wildcard.
///
/// A pattern is `/`-separated segments, each the text of an id's segment as the app
/// makes it (a key may have spaces inside: `form/First Name`; a `/` or `%` inside one
/// is escaped, `files/a%2Fb`; no control characters, no spaces around); segments may
/// be wildcards: each `*` matches one segment of the target's id (`table/*/*`), or
/// one `**` (and no other wildcard) one or more.
pub(crate) fn check_pattern(lit: &LitStr) -> syn::Result<bool> {
    let pattern = lit.value();
    let fail = |why: &str| {
        Err(syn::Error::new(
            lit.span(),
            format!("`{pattern}` is not a valid node pattern: {why}"),
        ))
    };
    if pattern.is_empty() {
        return fail("it is empty; write the node's id, e.g. `\"save\"` or `\"tasks/*\"`");
    }
    let (mut wildcards, mut many) = (0, 0);
    for segment in pattern.split('/') {
        if segment == "*" || segment == "**" {
            wildcards += 1;
            many += usize::from(segment == "**");
        } else if segment.is_empty() {
            return fail("it has an empty segment (a leading, trailing or doubled `/`)");
        } else if segment.contains('*') {
            return fail(
                "`*` stands for a whole segment, as in `tasks/*` (`**` for one or more, as in \
                 `files/**`); it cannot be part of one",
            );
        } else if segment.chars().any(char::is_control) {
            return fail("it has a control character; a segment is the text between the `/`s");
        } else if bad_escape(segment) {
            return fail(
                "a `%` in an id starts an escape: a key's `/` is written `%2F` and its `%` \
                 `%25` (the key `a/b` makes the id segment `a%2Fb`); write the id as the tree \
                 shows it",
            );
        } else if segment.trim() != segment {
            return fail(
                "a segment starts or ends with a space; ids made from keys with spaces inside \
                 (`form/First Name`) are written as they are, but not with spaces around",
            );
        }
    }
    if many > 0 && wildcards > 1 {
        return fail(
            "a `**` (one or more segments) is the pattern's only wildcard; for a fixed number \
             of segments write a `*` for each (`table/*/*`)",
        );
    }
    Ok(wildcards > 0)
}

/// Whether `segment` has a `%` that is not `%2F` or `%25` (which no keyed id has).
fn bad_escape(segment: &str) -> bool {
    segment
        .match_indices('%')
        .any(|(at, _)| !(segment[at..].starts_with("%2F") || segment[at..].starts_with("%25")))
}

/// A handler takes `&mut self`.
fn check_receiver(method: &ImplItemFn) -> syn::Result<()> {
    let name = &method.sig.ident;
    let Some(FnArg::Receiver(receiver)) = method.sig.inputs.first() else {
        return Err(syn::Error::new(
            name.span(),
            format!("a handler takes `&mut self`: write `fn {name}(&mut self, …)`"),
        ));
    };
    if is_mut_ref_self(&receiver.ty) {
        if let Some(asyncness) = method.sig.asyncness {
            return Err(syn::Error::new(
                asyncness.span,
                "a handler runs to completion between two frames, so it cannot be `async`",
            ));
        }
        return Ok(());
    }
    Err(syn::Error::new_spanned(
        receiver,
        format!(
            "a handler takes `&mut self`, so it can change the app: write `fn {name}(&mut self, …)`"
        ),
    ))
}

/// Whether `ty` is `&mut Self` (the type of a `&mut self` receiver).
pub(crate) fn is_mut_ref_self(ty: &Type) -> bool {
    matches!(ty, Type::Reference(r) if r.mutability.is_some() && is_self_type(&r.elem))
}

/// Whether `ty` is `Self`.
pub(crate) fn is_self_type(ty: &Type) -> bool {
    matches!(ty, Type::Path(p) if p.qself.is_none() && p.path.is_ident("Self"))
}

fn parse_param(input: &FnArg) -> syn::Result<Param> {
    let FnArg::Typed(typed) = input else {
        // `self` can only come first, which the caller skipped.
        return Err(syn::Error::new_spanned(input, "unexpected `self`"));
    };
    let allowed = || {
        format!(
            "a handler's parameters are chosen by name: {}",
            PARAM_NAMES.join(", ")
        )
    };
    let Pat::Ident(pat) = &*typed.pat else {
        return Err(syn::Error::new_spanned(
            &typed.pat,
            format!(
                "{}; name the parameter instead of destructuring it",
                allowed()
            ),
        ));
    };
    let name = pat.ident.to_string();
    let kind = match name.as_str() {
        "key" => ParamKind::Key,
        "index" => ParamKind::Index,
        "value" => ParamKind::Value,
        "direction" => ParamKind::Direction,
        "amount" => ParamKind::Amount,
        "invocation" => ParamKind::Invocation,
        _ => {
            return Err(syn::Error::new(
                pat.ident.span(),
                format!(
                    "unknown handler parameter `{name}`{}; {}",
                    did_you_mean(&name, PARAM_NAMES),
                    allowed()
                ),
            ));
        }
    };
    Ok(Param {
        kind,
        name: pat.ident.clone(),
        ty_name: type_name(&typed.ty.to_token_stream()),
        ty: (*typed.ty).clone(),
    })
}

/// `tokens` as Rust prints a type: no spaces but after a `,` and between two words
/// (`&'a str`, `&mut T`, `Option<(u8, String)>`).
pub(crate) fn type_name(tokens: &TokenStream) -> String {
    fn walk(tokens: TokenStream, out: &mut String, word_before: &mut bool) {
        for token in tokens {
            match token {
                TokenTree::Group(group) => {
                    let (open, close) = match group.delimiter() {
                        Delimiter::Parenthesis => ("(", ")"),
                        Delimiter::Bracket => ("[", "]"),
                        Delimiter::Brace => ("{", "}"),
                        Delimiter::None => ("", ""),
                    };
                    out.push_str(open);
                    *word_before = false;
                    walk(group.stream(), out, word_before);
                    out.push_str(close);
                    *word_before = !close.is_empty() || *word_before;
                }
                TokenTree::Punct(punct) => {
                    let c = punct.as_char();
                    out.push(c);
                    if c == ',' || c == ';' {
                        out.push(' ');
                    }
                    *word_before = false;
                }
                TokenTree::Ident(word) => {
                    if *word_before {
                        out.push(' ');
                    }
                    out.push_str(&word.to_string());
                    *word_before = true;
                }
                TokenTree::Literal(lit) => {
                    if *word_before {
                        out.push(' ');
                    }
                    out.push_str(&lit.to_string());
                    *word_before = true;
                }
            }
        }
    }
    let mut out = String::new();
    walk(tokens.clone(), &mut out, &mut false);
    out.trim_end().to_owned()
}

/// Checks that the action of `attr` supplies what `param` asks for.
fn check_fit(param: &Param, attr: &ActionAttr) -> syn::Result<()> {
    let action = &attr.action;
    let why = match param.kind {
        ParamKind::Key if !attr.has_wildcard => format!(
            "`key` is what the pattern's `*` (or `**`) stands for, but `{}` has neither; \
             write a pattern like `\"tasks/*\"` or remove the parameter",
            attr.pattern.value()
        ),
        ParamKind::Value if attr.core && action != "set_value" => format!(
            "`{action}` carries no value; a `value` parameter fits `set_value` or a custom action"
        ),
        ParamKind::Direction | ParamKind::Amount if action != "scroll" => format!(
            "`{action}` carries no scroll {}; `direction` and `amount` fit `scroll` only",
            param.name
        ),
        _ => return Ok(()),
    };
    Err(syn::Error::new(param.name.span(), why))
}

#[cfg(test)]
mod tests {
    use super::{check_pattern, parse_action_attr};
    use syn::{Attribute, LitStr, parse_quote};

    fn pattern(text: &str) -> Result<bool, String> {
        check_pattern(&LitStr::new(text, proc_macro2::Span::call_site())).map_err(|e| e.to_string())
    }

    #[test]
    fn patterns_are_ids_with_whole_segment_stars_or_one_double_star() {
        assert_eq!(pattern("save"), Ok(false));
        assert_eq!(pattern("tasks/*"), Ok(true));
        assert_eq!(pattern("board:1/*/title"), Ok(true));
        assert_eq!(pattern("files/**"), Ok(true));
        assert!(pattern("files/**/*").unwrap_err().contains("only wildcard"));
        assert!(pattern("files/***").unwrap_err().contains("whole segment"));
        // A `*` per segment: a table's cells, not its rows.
        assert_eq!(pattern("tasks/*/*"), Ok(true));
        assert!(
            pattern("tasks/**/*")
                .unwrap_err()
                .contains("`**` (one or more segments) is the pattern's only wildcard")
        );
        // An id made from a key with a space inside can be named as it is.
        assert_eq!(pattern("form/First Name"), Ok(false));
        assert_eq!(pattern("notes/é"), Ok(false));
        // A key with `/` or `%` inside is named as its id is: escaped.
        assert_eq!(pattern("files/a%2Fb"), Ok(false));
        assert_eq!(pattern("sale/50%25"), Ok(false));
        assert!(pattern("sale/50%").unwrap_err().contains("`%25`"));
        assert!(pattern("files/a%2fb").unwrap_err().contains("`%2F`"));
        assert!(pattern("form/ Name").unwrap_err().contains("spaces around"));
        assert!(
            pattern("form/a\tb")
                .unwrap_err()
                .contains("control character")
        );
        assert!(pattern("task-*").unwrap_err().contains("whole segment"));
        assert!(pattern("tasks/").unwrap_err().contains("empty segment"));
        assert!(pattern("").unwrap_err().contains("empty"));
    }

    fn attr(attr: &Attribute) -> Result<(String, String, bool), String> {
        parse_action_attr(attr)
            .map(|a| (a.pattern.value(), a.action, a.core))
            .map_err(|e| e.to_string())
    }

    #[test]
    fn an_action_attribute_names_a_pattern_and_one_action() {
        assert_eq!(
            attr(&parse_quote!(#[action(node = "tasks/*", toggle)])),
            Ok(("tasks/*".into(), "toggle".into(), true))
        );
        assert_eq!(
            attr(&parse_quote!(#[action("archive", node = "tasks/*")])),
            Ok(("tasks/*".into(), "archive".into(), false))
        );
        assert!(
            attr(&parse_quote!(#[action(node = "x", togle)]))
                .unwrap_err()
                .contains("did you mean `toggle`")
        );
        assert!(
            attr(&parse_quote!(#[action(node = "x", "toggle")]))
                .unwrap_err()
                .contains("core action")
        );
        assert!(
            attr(&parse_quote!(#[action(node = "x", toggle, select)]))
                .unwrap_err()
                .contains("one action")
        );
        assert!(
            attr(&parse_quote!(#[action(toggle)]))
                .unwrap_err()
                .contains("missing the node")
        );
        assert!(
            attr(&parse_quote!(#[action(node = "x")]))
                .unwrap_err()
                .contains("missing the action")
        );
        assert!(
            attr(&parse_quote!(#[action(id = "x", toggle)]))
                .unwrap_err()
                .contains("unknown argument `id`")
        );
        assert!(
            attr(&parse_quote!(#[action]))
                .unwrap_err()
                .contains("expected `#[action(")
        );
    }
}
