//! Code generation: node properties become `NodeBuilder` calls, and
//! `#[taria::widget]` wraps the render body in a node scope that makes them.

use proc_macro2::{Span, TokenStream};
use quote::{quote, quote_spanned};
use syn::{Ident, ImplItemFn};

use crate::ast::{ActionArg, ActionItem, IdArg, NodeArgs, Prop, PropValue, RoleArg, TextArg};
use crate::errors::{Errors, Ordered};
use crate::target::{self, Target};
use crate::vocabulary::{Property, Takes, camel_case};
use crate::{attr, fmt, valid};

pub(crate) fn widget(args: TokenStream, item: TokenStream) -> TokenStream {
    let original = item.clone();
    match try_widget(args, item) {
        Ok(tokens) => tokens,
        // Keep the user's item so the rest of their code still type-checks in the IDE.
        Err(error) => {
            let error = error.to_compile_error();
            quote! { #original #error }
        }
    }
}

fn try_widget(args: TokenStream, item: TokenStream) -> syn::Result<TokenStream> {
    let node = Ident::new("__taria_node", Span::call_site());
    // Check the item and the arguments independently, so all their errors show at once.
    let mut errors = Errors::default();
    let target = errors.ok(target::parse(item));
    let mut arg_errors = Ordered::default();
    let args = match attr::parse_node_args(args, &mut arg_errors) {
        Ok(args) => {
            valid::node_args(&args, &mut arg_errors);
            Some(args)
        }
        Err(e) => {
            errors.push(e);
            None
        }
    };
    arg_errors.into(&mut errors);
    let Some(mut target) = target else {
        return errors.finish(TokenStream::new());
    };
    let is_impl = matches!(target, Target::WidgetImpl { .. });
    let (render, stateful) = match &mut target {
        Target::WidgetImpl { item, stateful } => {
            let stateful = *stateful;
            let header = target::impl_header(item);
            let Some(render) = target::render_method(item) else {
                errors.push(syn::Error::new_spanned(
                    header,
                    "`#[taria::widget]` wraps the `fn render` of this impl, but it has none",
                ));
                return errors.finish(TokenStream::new());
            };
            (render, stateful)
        }
        Target::RenderFn(f) => (f, false),
    };
    let area = target::area_param(&render.sig);
    // Without parsed arguments it is unknown whether `bounds` was given: stay quiet.
    if area.is_none() && args.as_ref().is_some_and(|args| !args.has_bounds) {
        errors.push(syn::Error::new_spanned(
            &render.sig.ident,
            "a `#[taria::widget]` render function needs an `area: Rect` or `frame: &mut Frame` parameter \
             for the node's bounds, or a `bounds = <Rect>` argument",
        ));
    }
    let args = errors.finish(args)?.unwrap_or_default();

    let mut probes = TokenStream::new();
    let mut prelude = Vec::new();
    if is_impl {
        probes.extend(probe(&quote!(&self), &node));
    }
    // render(self, area, buf, state): describe from the widget, then from its state.
    if stateful
        && let Some((state, rebind)) = target::bind_param(&mut render.sig, 3, "__taria_state")
    {
        probes.extend(probe(&quote!(&*#state), &node));
        prelude.extend(rebind);
    }
    wrap(render, area, &args, &node, &probes, prelude)?;
    Ok(match target {
        Target::WidgetImpl { item, .. } => quote! { #item },
        Target::RenderFn(f) => quote! { #f },
    })
}

/// The builder calls of `args`, in the order written.
pub(crate) fn node_calls(args: &NodeArgs, node: &Ident) -> TokenStream {
    let calls: TokenStream = args
        .props
        .iter()
        .map(|prop| prop_calls(prop, node))
        .collect();
    with_text_probe(calls)
}

/// `calls`, with the text probe's traits in scope if they use it.
pub(crate) fn with_text_probe(calls: TokenStream) -> TokenStream {
    if !calls.to_string().contains("TextProbe") {
        return calls;
    }
    quote! {
        #[allow(unused_imports)]
        use ::taria::__private::{ViaDisplay as _, ViaText as _};
        #calls
    }
}

/// `expr` as a text argument: itself when a reference to it is an `IntoText`
/// (no formatting), else through `Display`. Needs [`with_text_probe`].
pub(crate) fn text_probe(expr: &TokenStream) -> TokenStream {
    // Spanned at the expression, so a type that is not `Display` is reported there.
    let span = syn::spanned::Spanned::span(expr);
    quote_spanned! {span=> (&::taria::__private::TextProbe(&(#expr))).taria_text() }
}

/// The builder method `name` of `property`, which its table entry must list: what
/// the expansion calls is what `vocabulary/table.rs` says (and the ui-test checks).
fn method(property: &'static Property, name: &str, span: Span) -> Ident {
    assert!(
        property.builder_methods().contains(&name),
        "taria-derive bug: `{}` expands to `{name}`, which vocabulary/table.rs does not list",
        property.name
    );
    Ident::new(name, span)
}

fn prop_calls(prop: &Prop, node: &Ident) -> TokenStream {
    // The method of the property's own name, for those that call one (not role, actions).
    let method = || method(prop.property, &prop.name.to_string(), prop.name.span());
    match &prop.value {
        PropValue::Role(role) => role_call(prop.property, role, node),
        PropValue::Id(IdArg::Lit(lit)) => {
            let method = method();
            quote! { #node.#method(#lit); }
        }
        PropValue::Id(IdArg::Expr(expr)) => {
            let (text, method) = (text_probe(&quote! { #expr }), method());
            quote! { #node.#method(#text); }
        }
        PropValue::Text(TextArg::Format { format, args }) => {
            let text = match prop.property.takes {
                Takes::Text => fmt::parts(format, args),
                Takes::AsIs => None,
            };
            let method = method();
            if let Some(text) = text {
                quote! { #node.#method(#text); }
            } else {
                quote! { #node.#method(::core::format_args!(#format #(, #args)*)); }
            }
        }
        PropValue::Text(TextArg::Expr(expr)) | PropValue::Expr(expr) => {
            let method = method();
            match prop.property.takes {
                Takes::Text => {
                    let text = text_probe(&quote! { #expr });
                    quote! { #node.#method(#text); }
                }
                Takes::AsIs => quote! { #node.#method(#expr); },
            }
        }
        PropValue::Flag(None) => {
            let method = method();
            quote! { #node.#method(true); }
        }
        PropValue::Flag(Some(expr)) => {
            let method = method();
            quote! { #node.#method(#expr); }
        }
        PropValue::Actions(items) => items
            .iter()
            .map(|item| action_call(prop.property, item, node))
            .collect(),
        PropValue::Scroll(parts) => {
            let ([o, c, v], method) = (&**parts, method());
            quote! { #node.#method(#o, #c, #v); }
        }
    }
}

/// `::taria::Role::<Variant>` for a (checked) core role name.
fn role_path(ident: &Ident) -> TokenStream {
    let variant = Ident::new(&camel_case(&ident.to_string()), ident.span());
    quote! { ::taria::Role::#variant }
}

pub(crate) fn role_call(property: &'static Property, role: &RoleArg, node: &Ident) -> TokenStream {
    let site = Span::call_site();
    match role {
        RoleArg::Core(ident) => {
            let (method, path) = (method(property, "role", site), role_path(ident));
            quote! { #node.#method(#path); }
        }
        RoleArg::Custom { name, base } => {
            let (method, base) = (method(property, "custom_role", site), role_path(base));
            quote! { #node.#method(#name, #base); }
        }
    }
}

fn action_call(property: &'static Property, item: &ActionItem, node: &Ident) -> TokenStream {
    let call = offer_call(property, item, node);
    match &item.when {
        Some(when) => quote! { if #when { #call } },
        None => call,
    }
}

fn offer_call(property: &'static Property, item: &ActionItem, node: &Ident) -> TokenStream {
    let site = Span::call_site();
    match (&item.action, &item.key) {
        (ActionArg::Core(ident), key) => {
            let variant = Ident::new(&camel_case(&ident.to_string()), ident.span());
            let path = quote! { ::taria::Action::#variant };
            if let Some(key) = key {
                let method = method(property, "key_fallback", site);
                quote! { #node.#method(#path, #key); }
            } else {
                let method = method(property, "action", site);
                quote! { #node.#method(#path); }
            }
        }
        (ActionArg::Custom(name), Some(key)) => {
            let method = method(property, "custom_key_fallback", site);
            quote! { #node.#method(#name, #key); }
        }
        (ActionArg::Custom(name), None) => {
            let method = method(property, "custom_action", site);
            quote! { #node.#method(#name); }
        }
    }
}

fn probe(value: &TokenStream, node: &Ident) -> TokenStream {
    quote! {
        {
            #[allow(unused_imports)]
            use ::taria::__private::{ViaNothing as _, ViaSemantic as _};
            (&::taria::__private::Probe(#value)).taria_describe(#node);
        }
    }
}

/// Roles whose value is text the widget draws.
const TEXT_ROLES: &[&str] = &[
    "text",
    "heading",
    "status",
    "log",
    "notification",
    "tooltip",
    "text_input",
    "text_area",
];

/// Whether the node takes its value from the screen: a role whose value is drawn text,
/// and neither a `label` nor a `value` given (a `set_string` in a custom widget's
/// `render` is then recorded with only the attribute).
fn value_from_screen(args: &NodeArgs) -> bool {
    let mut text_role = false;
    for prop in &args.props {
        match &prop.value {
            PropValue::Role(RoleArg::Core(role) | RoleArg::Custom { base: role, .. }) => {
                text_role = TEXT_ROLES.iter().any(|name| role == name);
            }
            _ if prop.name == "label" || prop.name == "value" => return false,
            _ => {}
        }
    }
    text_role
}

fn wrap(
    f: &mut ImplItemFn,
    area: Option<usize>,
    args: &NodeArgs,
    node: &Ident,
    probes: &TokenStream,
    mut prelude: Vec<syn::Stmt>,
) -> syn::Result<()> {
    let bounds = match area {
        Some(index) => {
            let Some((area, rebind)) = target::bind_param(&mut f.sig, index, "__taria_area") else {
                return Err(syn::Error::new_spanned(&f.sig, target::WRONG_TARGET));
            };
            prelude.extend(rebind);
            let area = quote! { ::taria::__private::AreaSource::taria_area(&#area) };
            let drawn = value_from_screen(args).then(|| quote! { #node.drawn_value(#area); });
            quote! { #node.bounds(#area); #drawn }
        }
        // `bounds = …` is among the arguments.
        None => TokenStream::new(),
    };
    let args = node_calls(args, node);
    crate::text_renders::rewrite_block(&mut f.block);
    let body = &f.block;
    f.block = syn::parse_quote! {{
        let __taria_scope = ::taria::__private::scope(|#node: &mut ::taria::NodeBuilder<'_>| {
            #probes
            #bounds
            #args
        });
        #(#prelude)*
        #body
    }};
    Ok(())
}
