//! `#[taria::actions]`: an `Actions` impl that routes each invocation to the
//! `#[action(...)]` method handling its node and action.
//!
//! [`handler`] parses and checks each handler; this module finds them in the impl
//! block, strips their attributes and generates the dispatch.

mod accepts;
pub(crate) mod handler;
mod pattern;

use proc_macro2::{Span, TokenStream};
use quote::{ToTokens, format_ident, quote, quote_spanned};
use syn::spanned::Spanned;
use syn::{Ident, ImplItem, Item, ItemImpl, LitStr, Type};

use crate::errors::Errors;
use handler::{ActionAttr, Handler, Param, ParamKind, is_action_attr, parse_handler};

pub(crate) fn actions(args: TokenStream, item: TokenStream) -> TokenStream {
    let mut errors = Errors::default();
    if !args.is_empty() {
        errors.push(syn::Error::new_spanned(
            args,
            "`#[taria::actions]` takes no arguments; mark handler methods with `#[action(node = \"…\", <action>)]`",
        ));
    }
    let mut imp = match inherent_impl(item, "actions") {
        Ok(imp) => imp,
        Err(fallback) => return fallback,
    };
    let dispatch = impl_actions(&mut imp, &mut errors);
    let errors = errors.finish(()).err().map(|e| e.to_compile_error());
    quote! { #imp #dispatch #errors }
}

/// `#[taria::action]` where no `#[taria::actions]` or `#[taria::app]` read it: the item
/// as written, and an error at the attribute that says where it goes.
pub(crate) fn stray_action(item: TokenStream) -> TokenStream {
    let error = syn::Error::new(
        Span::call_site(),
        "`#[action]` only works on a method inside a `#[taria::actions]` (or `#[taria::app]`) \
         impl block: add `#[taria::actions]` to the impl, e.g. `#[taria::actions] impl App { … }`",
    )
    .to_compile_error();
    let mut out = item;
    out.extend(error);
    out
}

/// Parses `item` as an inherent impl block for `#[taria::<name>]`.
///
/// On failure returns what to emit instead: the item as written (with `#[action]`
/// attributes stripped from a trait impl's methods) and the error.
pub(crate) fn inherent_impl(item: TokenStream, name: &str) -> Result<ItemImpl, TokenStream> {
    let usage = format!(
        "`#[taria::{name}]` goes on an inherent impl block of the app, e.g. `#[taria::{name}] impl App {{ … }}`"
    );
    let error = match syn::parse2::<Item>(item.clone()) {
        Ok(Item::Impl(mut imp)) => match &imp.trait_ {
            None => return Ok(imp),
            Some((_, path, for_token)) => {
                let error = syn::Error::new_spanned(
                    quote! { #path #for_token },
                    format!("{usage}, not on a trait impl"),
                );
                strip_action_attrs(&mut imp);
                let error = error.to_compile_error();
                return Err(quote! { #imp #error });
            }
        },
        Ok(other) => syn::Error::new_spanned(item_head(&other), usage),
        Err(_) => syn::Error::new(Span::call_site(), usage),
    };
    let mut fallback = item;
    fallback.extend(error.to_compile_error());
    Err(fallback)
}

/// The first tokens of an item (its keyword and name), to point an error at.
pub(crate) fn item_head(item: &Item) -> TokenStream {
    match item {
        Item::Struct(s) => pair(&s.struct_token, &s.ident),
        Item::Enum(e) => pair(&e.enum_token, &e.ident),
        Item::Trait(t) => pair(&t.trait_token, &t.ident),
        Item::Fn(f) => pair(&f.sig.fn_token, &f.sig.ident),
        Item::Mod(m) => pair(&m.mod_token, &m.ident),
        Item::Type(t) => pair(&t.type_token, &t.ident),
        other => other.to_token_stream(),
    }
}

fn pair(a: &impl ToTokens, b: &impl ToTokens) -> TokenStream {
    quote! { #a #b }
}

/// Removes every `#[action]` attribute in `imp`, so the block compiles as written.
pub(crate) fn strip_action_attrs(imp: &mut ItemImpl) {
    for item in &mut imp.items {
        if let Some(attrs) = item_attrs(item) {
            attrs.retain(|a| !is_action_attr(a));
        }
    }
}

fn item_attrs(item: &mut ImplItem) -> Option<&mut Vec<syn::Attribute>> {
    match item {
        ImplItem::Fn(f) => Some(&mut f.attrs),
        ImplItem::Const(c) => Some(&mut c.attrs),
        ImplItem::Type(t) => Some(&mut t.attrs),
        ImplItem::Macro(m) => Some(&mut m.attrs),
        _ => None,
    }
}

/// Strips the handler attributes from `imp` and returns its `Actions` impl.
///
/// Handlers with errors are left out of the dispatch (their errors go to `errors`), so
/// the impl still exists and code that drives the app does not fail in turn.
pub(crate) fn impl_actions(imp: &mut ItemImpl, errors: &mut Errors) -> TokenStream {
    let mut handlers: Vec<Handler> = Vec::new();
    for item in &mut imp.items {
        let Some(attrs) = item_attrs(item) else {
            continue;
        };
        let (actions, others): (Vec<_>, Vec<_>) = attrs.drain(..).partition(is_action_attr);
        *attrs = others;
        if actions.is_empty() {
            continue;
        }
        let ImplItem::Fn(method) = item else {
            for attr in &actions {
                errors.push(syn::Error::new_spanned(
                    attr,
                    "`#[action]` goes on a method of the impl block",
                ));
            }
            continue;
        };
        if let Some(handler) = parse_handler(method, &actions, errors) {
            handlers.push(handler);
        }
    }
    drop_shadowed(&mut handlers, errors);
    let inv = Ident::new("__taria_inv", Span::call_site());
    let refusals = Ident::new("__taria_refusals", Span::call_site());
    let branches: Vec<TokenStream> = handlers
        .iter()
        .flat_map(|h| h.attrs.iter().map(|attr| branch(h, attr, &inv, &refusals)))
        .collect();
    // Refusals are collected only where a conversion can fail (no unused `mut`).
    let can_refuse = handlers
        .iter()
        .any(|h| !h.attrs.is_empty() && h.params.iter().any(is_fallible));
    let (start, end) = if can_refuse {
        (
            quote! { let mut #refusals = ::taria::__private::Refusals::default(); },
            quote! { #refusals.outcome(#inv) },
        )
    } else {
        (TokenStream::new(), quote! { ::taria::Outcome::NotHandled })
    };
    let (impl_generics, _, where_clause) = imp.generics.split_for_impl();
    let self_ty = &imp.self_ty;
    let cfgs = imp.attrs.iter().filter(|a| a.path().is_ident("cfg"));
    quote! {
        #(#cfgs)*
        #[automatically_derived]
        impl #impl_generics ::taria::Actions for #self_ty #where_clause {
            fn handle_action(&mut self, #inv: &::taria::Invocation<'_>) -> ::taria::Outcome {
                #start
                #(#branches)*
                #end
            }
        }
    }
}

/// Drops (with an error at both) each handler attribute that an earlier one, for the
/// same action, always takes first: its pattern matches every id this one's does, and
/// each of its parameters converts every argument this one's would (so this one is
/// never tried: handlers are tried in order, the first whose arguments convert runs).
fn drop_shadowed(handlers: &mut [Handler], errors: &mut Errors) {
    let mut kept: Vec<(usize, usize)> = Vec::new();
    let mut dropped = Vec::new();
    for (h, later) in handlers.iter().enumerate() {
        for (a, attr) in later.attrs.iter().enumerate() {
            let first = kept.iter().copied().find(|&(eh, ea)| {
                let (earlier, earlier_attr) = (&handlers[eh], &handlers[eh].attrs[ea]);
                earlier_attr.action == attr.action
                    && takes_first(earlier, earlier_attr, later, attr)
            });
            let Some((eh, ea)) = first else {
                kept.push((h, a));
                continue;
            };
            dropped.push((h, a));
            let (earlier, earlier_attr) = (&handlers[eh], &handlers[eh].attrs[ea]);
            let (wider, pattern) = (earlier_attr.pattern.value(), attr.pattern.value());
            let action = &attr.action;
            let (first_fn, later_fn) = (earlier.signature(), later.signature());
            let ids = if wider == pattern {
                "on the same pattern".to_owned()
            } else {
                format!("on `{wider}`, which takes every id `{pattern}` does,")
            };
            errors.push(syn::Error::new(
                earlier_attr.pattern.span(),
                format!(
                    "`{action}` on `{wider}` is handled here first, so `fn {}` below never is",
                    later.method
                ),
            ));
            errors.push(syn::Error::new_spanned(
                &attr.args,
                format!(
                    "`fn {}` is never reached for `{action}` on `{pattern}`: `fn {first_fn}`, \
                     declared before it, handles `{action}` {ids} and takes every argument \
                     `fn {later_fn}` would (handlers are tried in the order written, and the \
                     first whose arguments convert is called); declare the narrower handler \
                     first, or give it a narrower type",
                    later.method
                ),
            ));
        }
    }
    for (h, a) in dropped.into_iter().rev() {
        handlers[h].attrs.remove(a);
    }
}

/// Whether `earlier` (for `earlier_attr`) is always called where `later` (for
/// `later_attr`) would be: its pattern matches every id, and its parameters convert
/// every argument, that `later`'s do.
fn takes_first(
    earlier: &Handler,
    earlier_attr: &ActionAttr,
    later: &Handler,
    later_attr: &ActionAttr,
) -> bool {
    use accepts::{Accepts, Slot, accepts, admits_key, covers};
    let (wide, narrow) = (earlier_attr.pattern.value(), later_attr.pattern.value());
    if wide != narrow && !pattern::covers(&wide, &narrow) {
        return false;
    }
    let key = accepts(Slot::Key, earlier.param_type(ParamKind::Key));
    let key_fits = if key == Accepts::Everything {
        true
    } else if !later_attr.has_wildcard {
        // One id: what the earlier wildcard stands for in it is known.
        pattern::match_pattern(&wide, &narrow)
            .is_some_and(|text| admits_key(&key, text) == Some(true))
    } else {
        // The wildcards stand for the same text only on the same pattern.
        wide == narrow && covers(&key, &accepts(Slot::Key, later.param_type(ParamKind::Key)))
    };
    let slots = [
        (Slot::Value, ParamKind::Value),
        (Slot::Index, ParamKind::Index),
        (Slot::Amount, ParamKind::Amount),
        (Slot::Direction, ParamKind::Direction),
    ];
    key_fits
        && slots.iter().all(|&(slot, kind)| {
            covers(
                &accepts(slot, earlier.param_type(kind)),
                &accepts(slot, later.param_type(kind)),
            )
        })
}

/// Whether filling `param` can fail (and so move on to the next handler).
fn is_fallible(param: &Param) -> bool {
    match param.kind {
        ParamKind::Invocation => false,
        ParamKind::Key => !is_str_ref(&param.ty),
        _ => true,
    }
}

/// `if` the invocation is `attr`'s action on a node matching its pattern, and the
/// handler's arguments convert, run the handler; an argument that does not convert is
/// noted in `refusals` and the next handler is tried.
fn branch(handler: &Handler, attr: &ActionAttr, inv: &Ident, refusals: &Ident) -> TokenStream {
    let segment = Ident::new("__taria_segment", Span::call_site());
    let key = Ident::new("__taria_key", Span::call_site());
    let action = LitStr::new(&attr.action, attr.pattern.span());
    let pattern = &attr.pattern;
    let signature = handler.signature();
    let wants_key = handler.params.iter().any(|p| p.kind == ParamKind::Key);
    let binding = if wants_key {
        quote! { #segment }
    } else {
        quote! { _ }
    };
    let mut lets = Vec::new();
    if wants_key {
        // The key as the app gave it: an id escapes `/` and `%` in a key.
        lets.push(quote! { let #key = ::taria::__private::key_text(#segment); });
    }
    let mut args = Vec::new();
    let fallible = handler.params.iter().any(is_fallible);
    for (i, param) in handler.params.iter().enumerate() {
        let ty = &param.ty;
        let span = ty.span();
        let extract = |call: TokenStream| {
            quote_spanned! {span=>
                match #call {
                    ::core::result::Result::Ok(__taria_ok) => __taria_ok,
                    ::core::result::Result::Err(__taria_err) => {
                        #refusals.refuse(#signature, #pattern, &__taria_err);
                        break 'taria_handler;
                    }
                }
            }
        };
        let value = match param.kind {
            ParamKind::Invocation => {
                // Passed as is: a wrong type is reported at the parameter's type.
                args.push(Ident::new(&inv.to_string(), span).into_token_stream());
                continue;
            }
            ParamKind::Key if is_str_ref(ty) => quote_spanned!(span=> &#key),
            ParamKind::Key => {
                extract(quote_spanned!(span=> ::taria::__private::key_arg::<#ty>(&#key)))
            }
            ParamKind::Index => {
                extract(quote_spanned!(span=> ::taria::__private::index_arg::<#ty>(#inv)))
            }
            ParamKind::Value => {
                extract(quote_spanned!(span=> ::taria::__private::value_arg::<#ty>(#inv)))
            }
            ParamKind::Direction => {
                extract(quote_spanned!(span=> ::taria::__private::direction_arg::<#ty>(#inv)))
            }
            ParamKind::Amount => {
                extract(quote_spanned!(span=> ::taria::__private::amount_arg::<#ty>(#inv)))
            }
        };
        let var = format_ident!("__taria_arg{}", i);
        lets.push(quote! { let #var: #ty = #value; });
        args.push(var.into_token_stream());
    }
    // Named at the return type too: a call's span runs from its first token to its last.
    let mut method = handler.method.clone();
    method.set_span(handler.output_span);
    // Spanned at the return type, so a type that is no outcome is reported there.
    let call = quote_spanned! {handler.output_span=>
        ::taria::IntoOutcome::into_outcome(Self::#method(self #(, #args)*))
    };
    // The typed action: a core one by its variant, a custom one by its name.
    let is_action = if attr.core {
        let variant: String = attr
            .action
            .split('_')
            .map(|word| {
                let mut chars = word.chars();
                chars.next().map_or_else(String::new, |first| {
                    first.to_ascii_uppercase().to_string() + chars.as_str()
                })
            })
            .collect();
        let variant = Ident::new(&variant, attr.pattern.span());
        quote! { #inv.is(::taria::Action::#variant) }
    } else {
        quote! { #inv.is_custom(#action) }
    };
    let body = if fallible {
        quote! { 'taria_handler: { #(#lets)* return #call; } }
    } else {
        quote! { #(#lets)* return #call; }
    };
    quote! {
        if #is_action {
            if let ::core::option::Option::Some(#binding) = #inv.matches(#pattern) {
                #body
            }
        }
    }
}

/// Whether `ty` is `&str` (a `key` parameter that borrows the segment as is).
fn is_str_ref(ty: &Type) -> bool {
    matches!(ty, Type::Reference(r) if r.mutability.is_none()
        && matches!(&*r.elem, Type::Path(p) if p.qself.is_none() && p.path.is_ident("str")))
}

#[cfg(test)]
mod tests {
    use quote::quote;

    use super::actions;

    fn expand(item: proc_macro2::TokenStream) -> String {
        actions(proc_macro2::TokenStream::new(), item).to_string()
    }

    #[test]
    fn handlers_become_branches_in_source_order_and_attributes_are_stripped() {
        let out = expand(quote! {
            #[cfg(unix)]
            impl<T: Clone> App<T> where T: Default {
                #[action(node = "tasks/*", toggle)]
                fn toggle(&mut self, key: u64) {}
                #[action(node = "new-task", set_value)]
                #[action(node = "tasks/*", "rename")]
                fn set(&mut self, value: String, invocation: &taria::Invocation<'_>) -> Result<(), String> { Ok(()) }
                fn plain(&self) {}
            }
        });
        assert!(!out.contains("# [action"), "{out}");
        assert!(
            out.contains(
                "# [cfg (unix)] # [automatically_derived] \
                 impl < T : Clone > :: taria :: Actions for App < T > where T : Default"
            ),
            "{out}"
        );
        let toggle = out
            .find("is (:: taria :: Action :: Toggle)")
            .expect("toggle branch");
        let set_value = out
            .find("is (:: taria :: Action :: SetValue)")
            .expect("set_value branch");
        let rename = out.find("is_custom (\"rename\")").expect("rename branch");
        assert!(toggle < set_value && set_value < rename, "{out}");
        assert!(
            out.contains(":: taria :: __private :: key_arg :: < u64 > (& __taria_key)"),
            "{out}"
        );
        assert!(
            out.contains(":: taria :: __private :: value_arg :: < String > (__taria_inv)"),
            "{out}"
        );
        assert!(
            out.contains("Self :: set (self , __taria_arg0 , __taria_inv)"),
            "{out}"
        );
        assert!(
            out.contains("__taria_refusals . refuse (\"set(value: String)\" , \"tasks/*\" , & __taria_err) ; break 'taria_handler ;"),
            "{out}"
        );
        assert!(
            out.ends_with("__taria_refusals . outcome (__taria_inv) } }"),
            "{out}"
        );
        assert!(!out.contains("compile_error"), "{out}");
    }

    #[test]
    fn a_str_key_borrows_the_segment_and_no_key_ignores_it() {
        let out = expand(quote! {
            impl App {
                #[action(node = "tasks/*", "archive")]
                fn archive(&mut self, key: &str) {}
                #[action(node = "save", activate)]
                fn save(&mut self) {}
            }
        });
        assert!(
            out.contains("let __taria_arg0 : & str = & __taria_key ;"),
            "{out}"
        );
        assert!(
            out.contains("Some (_) = __taria_inv . matches (\"save\")"),
            "{out}"
        );
        // Nothing can refuse: no refusals, no labelled block.
        assert!(!out.contains("refusals"), "{out}");
        assert!(!out.contains("'taria_handler"), "{out}");
        assert!(
            out.ends_with(":: taria :: Outcome :: NotHandled } }"),
            "{out}"
        );
    }

    #[test]
    fn errors_keep_the_impl_and_the_valid_handlers() {
        let out = expand(quote! {
            impl App {
                #[action(node = "a", toggle)]
                fn a(&mut self, value: bool) {}
                #[action(node = "b", toggle)]
                fn b(&mut self) {}
                #[action(node = "b", toggle)]
                fn b2(&mut self) {}
                #[action(node = "c", activate)]
                fn c(&self) {}
                #[action(node = "d", activate)]
                fn d(&mut self, what: u8) {}
            }
        });
        assert!(out.contains("`toggle` carries no value"), "{out}");
        assert!(
            out.contains("`fn b2` is never reached for `toggle` on `b`: `fn b()`, declared before it, handles `toggle` on the same pattern"),
            "{out}"
        );
        assert!(out.contains("a handler takes `&mut self`"), "{out}");
        assert!(out.contains("unknown handler parameter `what`"), "{out}");
        assert!(out.contains("Self :: b (self)"), "{out}");
        for left_out in ["Self :: a (", "Self :: b2 (", "Self :: c (", "Self :: d ("] {
            assert!(!out.contains(left_out), "{left_out} in {out}");
        }
        assert!(!out.contains("# [action"), "{out}");
    }

    #[test]
    fn only_inherent_impls_are_accepted() {
        let out = expand(quote! { struct App; });
        assert!(out.starts_with("struct App ;"), "{out}");
        assert!(out.contains("goes on an inherent impl block"), "{out}");
        let out = expand(
            quote! { impl Foo for App { #[action(node = "a", toggle)] fn a(&mut self) {} } },
        );
        assert!(out.contains("not on a trait impl"), "{out}");
        assert!(!out.contains("# [action"), "{out}");
    }
}
