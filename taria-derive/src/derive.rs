//! `#[derive(Semantic)]`: fields supply a node's label, value and state.

use proc_macro2::{Span, TokenStream};
use quote::{format_ident, quote};
use syn::{Data, DeriveInput, Fields, Ident, Index, Member};

use crate::args::role;
use crate::vocabulary::did_you_mean;

/// Field attributes and the builder call each makes.
const FIELD_ATTRS: &[&str] = &[
    "label",
    "value",
    "id",
    "key",
    "checked",
    "selected",
    "focused",
    "expanded",
    "disabled",
    "busy",
    "required",
    "readonly",
    "invalid",
    "redacted",
    "untrusted",
    "index",
    "count",
    "level",
    "min",
    "max",
    "step",
    "max_len",
    "options",
];

/// Attributes whose field is passed by value (cloned) rather than by reference.
const BY_VALUE: &[&str] = &["index", "count", "level", "min", "max", "step", "max_len"];

pub(crate) fn derive(input: TokenStream) -> TokenStream {
    match syn::parse2::<DeriveInput>(input) {
        Ok(input) => {
            let ident = input.ident.clone();
            let generics = input.generics.clone();
            match try_derive(&input) {
                Ok(tokens) => tokens,
                Err(error) => {
                    // Still implement the trait so uses elsewhere don't pile up errors.
                    let (impl_generics, ty_generics, where_clause) = generics.split_for_impl();
                    let error = error.to_compile_error();
                    quote! {
                        #error
                        impl #impl_generics ::taria::Semantic for #ident #ty_generics #where_clause {
                            fn describe(&self, _: &mut ::taria::NodeBuilder<'_>) {}
                        }
                    }
                }
            }
        }
        Err(error) => error.to_compile_error(),
    }
}

fn try_derive(input: &DeriveInput) -> syn::Result<TokenStream> {
    let node = Ident::new("__taria_node", Span::call_site());
    let mut errors: Option<syn::Error> = None;
    let mut push_error = |e: syn::Error| match &mut errors {
        Some(all) => all.combine(e),
        None => errors = Some(e),
    };

    let mut calls = TokenStream::new();
    for attr in input.attrs.iter().filter(|a| a.path().is_ident("taria")) {
        let parsed = attr.parse_nested_meta(|meta| {
            if meta.path.is_ident("role") {
                let expr: syn::Expr = meta.value()?.parse()?;
                calls.extend(role(&expr, &node)?);
                Ok(())
            } else {
                Err(meta.error("the only container attribute is `#[taria(role = <role>)]`; field attributes go on fields"))
            }
        });
        if let Err(e) = parsed {
            push_error(e);
        }
    }

    let fields = match &input.data {
        Data::Struct(s) => &s.fields,
        Data::Enum(e) => {
            return Err(syn::Error::new(
                e.enum_token.span,
                "`#[derive(Semantic)]` supports structs; implement `taria::Semantic` by hand for an enum",
            ));
        }
        Data::Union(u) => {
            return Err(syn::Error::new(
                u.union_token.span,
                "`#[derive(Semantic)]` supports structs",
            ));
        }
    };
    field_calls(fields, &node, &mut calls, &mut push_error);
    if let Some(errors) = errors {
        return Err(errors);
    }
    let ident = &input.ident;
    let (impl_generics, ty_generics, where_clause) = input.generics.split_for_impl();
    Ok(quote! {
        #[automatically_derived]
        impl #impl_generics ::taria::Semantic for #ident #ty_generics #where_clause {
            fn describe(&self, #node: &mut ::taria::NodeBuilder<'_>) {
                #calls
            }
        }
    })
}

/// The builder calls the fields' `#[taria(…)]` attributes make.
fn field_calls(
    fields: &Fields,
    node: &Ident,
    calls: &mut TokenStream,
    push_error: &mut impl FnMut(syn::Error),
) {
    let mut seen: Vec<(String, Span)> = Vec::new();
    let members: Vec<(Member, &syn::Field)> = match fields {
        Fields::Named(named) => named
            .named
            .iter()
            .map(|f| {
                (
                    Member::Named(f.ident.clone().unwrap_or_else(|| format_ident!("_"))),
                    f,
                )
            })
            .collect(),
        Fields::Unnamed(unnamed) => unnamed
            .unnamed
            .iter()
            .enumerate()
            .map(|(i, f)| (Member::Unnamed(Index::from(i)), f))
            .collect(),
        Fields::Unit => Vec::new(),
    };
    for (member, field) in members {
        for attr in field.attrs.iter().filter(|a| a.path().is_ident("taria")) {
            let parsed = attr.parse_nested_meta(|meta| {
                let Some(ident) = meta.path.get_ident() else {
                    return Err(meta.error("expected a field attribute such as `label`"));
                };
                let name = ident.to_string();
                if !FIELD_ATTRS.contains(&name.as_str()) {
                    return Err(meta.error(format!(
                        "unknown field attribute `{name}`{}; expected one of: {}",
                        did_you_mean(&name, FIELD_ATTRS),
                        FIELD_ATTRS.join(", ")
                    )));
                }
                if let Some((_, _first)) = seen.iter().find(|(n, _)| *n == name) {
                    return Err(meta.error(format!(
                        "`#[taria({name})]` is on two fields: only one field can supply the {name}"
                    )));
                }
                seen.push((name.clone(), ident.span()));
                let method = Ident::new(&name, ident.span());
                calls.extend(if BY_VALUE.contains(&name.as_str()) {
                    quote! { #node.#method(::core::clone::Clone::clone(&self.#member)); }
                } else {
                    quote! { #node.#method(&self.#member); }
                });
                Ok(())
            });
            if let Err(e) = parsed {
                push_error(e);
            }
        }
    }
}
