//! What `#[taria::widget]` is placed on, and where its render area comes from.

use proc_macro2::TokenStream;
use syn::{FnArg, ImplItem, ImplItemFn, Item, ItemImpl, Pat, Signature, Type};

/// The item `#[taria::widget]` annotates.
pub(crate) enum Target {
    /// `impl Widget for T` / `impl StatefulWidget for T`: wrap its `render`.
    WidgetImpl { item: ItemImpl, stateful: bool },
    /// A free function or method that renders into an area or a frame.
    RenderFn(ImplItemFn),
}

pub(crate) const WRONG_TARGET: &str = "`#[taria::widget]` goes on an `impl Widget for …` or `impl StatefulWidget for …` block, \
     or on a render function that takes `area: Rect` (with a `Buffer`) or `frame: &mut Frame`";

pub(crate) fn parse(item: TokenStream) -> syn::Result<Target> {
    match syn::parse2::<Item>(item.clone()) {
        Ok(Item::Impl(imp)) => {
            let Some((_, path, _)) = &imp.trait_ else {
                return Err(syn::Error::new_spanned(
                    impl_header(&imp),
                    "put `#[taria::widget]` on the render method inside this impl, not on the impl itself \
                     (only `impl Widget for …` and `impl StatefulWidget for …` blocks take it whole)",
                ));
            };
            let trait_name = path.segments.last().map(|s| s.ident.to_string());
            match trait_name.as_deref() {
                Some("Widget") => Ok(Target::WidgetImpl {
                    item: imp,
                    stateful: false,
                }),
                Some("StatefulWidget") => Ok(Target::WidgetImpl {
                    item: imp,
                    stateful: true,
                }),
                other => Err(syn::Error::new_spanned(
                    path,
                    format!(
                        "an `impl {}` is not a widget: {WRONG_TARGET}",
                        other.unwrap_or("…")
                    ),
                )),
            }
        }
        Ok(Item::Fn(_)) | Err(_) => syn::parse2::<ImplItemFn>(item)
            .map(Target::RenderFn)
            .map_err(|_| wrong_target_error(None)),
        Ok(other) => Err(wrong_target_error(Some(&other))),
    }
}

fn wrong_target_error(item: Option<&Item>) -> syn::Error {
    match item {
        Some(item) => syn::Error::new_spanned(item_head(item), WRONG_TARGET),
        None => syn::Error::new(proc_macro2::Span::call_site(), WRONG_TARGET),
    }
}

/// The first tokens of an item (its keyword and name), to point an error at.
fn item_head(item: &Item) -> TokenStream {
    match item {
        Item::Struct(s) => {
            let (kw, ident) = (&s.struct_token, &s.ident);
            quote::quote! { #kw #ident }
        }
        Item::Enum(e) => {
            let (kw, ident) = (&e.enum_token, &e.ident);
            quote::quote! { #kw #ident }
        }
        Item::Trait(t) => {
            let (kw, ident) = (&t.trait_token, &t.ident);
            quote::quote! { #kw #ident }
        }
        other => quote::ToTokens::to_token_stream(other),
    }
}

/// `impl<…> Trait for Type` (without the body), to point an error at.
pub(crate) fn impl_header(imp: &ItemImpl) -> TokenStream {
    let (impl_token, generics, self_ty) = (&imp.impl_token, &imp.generics, &imp.self_ty);
    let trait_ = imp
        .trait_
        .as_ref()
        .map(|(bang, path, for_token)| quote::quote! { #bang #path #for_token });
    quote::quote! { #impl_token #generics #trait_ #self_ty }
}

/// The `render` method of a widget impl.
pub(crate) fn render_method(imp: &mut ItemImpl) -> Option<&mut ImplItemFn> {
    imp.items.iter_mut().find_map(|item| match item {
        ImplItem::Fn(f) if f.sig.ident == "render" => Some(f),
        _ => None,
    })
}

/// The last path segment of a type, seen through references.
fn type_name(ty: &Type) -> Option<String> {
    match ty {
        Type::Reference(r) => type_name(&r.elem),
        Type::Path(p) => p.path.segments.last().map(|s| s.ident.to_string()),
        _ => None,
    }
}

/// The index of the typed parameter an area can be read from: a `Rect`, else a `Frame`.
pub(crate) fn area_param(sig: &Signature) -> Option<usize> {
    let named = |wanted: &str| {
        sig.inputs.iter().position(|arg| match arg {
            FnArg::Typed(t) => type_name(&t.ty).as_deref() == Some(wanted),
            FnArg::Receiver(_) => false,
        })
    };
    named("Rect").or_else(|| named("Frame"))
}

/// Makes parameter `index` referable: returns its identifier, renaming a pattern
/// like `_` to a fresh name and returning the statement that rebinds the pattern.
pub(crate) fn bind_param(
    sig: &mut Signature,
    index: usize,
    fresh: &str,
) -> Option<(syn::Ident, Option<syn::Stmt>)> {
    let Some(FnArg::Typed(typed)) = sig.inputs.iter_mut().nth(index) else {
        return None;
    };
    if let Pat::Ident(pat) = &*typed.pat
        && pat.subpat.is_none()
    {
        return Some((pat.ident.clone(), None));
    }
    let ident = syn::Ident::new(fresh, proc_macro2::Span::call_site());
    let original = std::mem::replace(&mut *typed.pat, syn::parse_quote!(#ident));
    Some((
        ident.clone(),
        Some(syn::parse_quote! { let #original = #ident; }),
    ))
}
