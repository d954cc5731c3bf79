//! `#[derive(Semantic)]`: fields supply a node's label, value and state. Parsed by
//! [`attr`](crate::attr), checked by [`valid`](crate::valid), expanded here.

use proc_macro2::{Span, TokenStream};
use quote::{quote, quote_spanned};
use syn::{DeriveInput, Ident};

use crate::ast::SemanticInput;
use crate::errors::Errors;
use crate::expand::{role_call, text_probe, with_text_probe};
use crate::vocabulary::{Field, Takes, property_named};
use crate::{attr, valid};

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
    let mut errors = Errors::default();
    let parsed = attr::semantic_input(input, &mut errors);
    if let Some(role) = parsed.as_ref().and_then(|p| p.role.as_ref()) {
        errors.ok(valid::role(role));
    }
    let Some(parsed) = errors.finish(parsed)? else {
        return Err(syn::Error::new(Span::call_site(), "unreachable: reported"));
    };
    let node = Ident::new("__taria_node", Span::call_site());
    let calls = calls(&parsed, &node);
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

fn calls(input: &SemanticInput, node: &Ident) -> TokenStream {
    let role_property = property_named("role").expect("the vocabulary has `role`");
    let mut calls = input
        .role
        .as_ref()
        .map(|role| role_call(role_property, role, node))
        .unwrap_or_default();
    for field in &input.fields {
        let method = Ident::new(field.property.builder_methods()[0], field.span);
        let member = &field.member;
        calls.extend(match (field.property.field, field.property.takes) {
            (Field::ByValue, _) => {
                quote! { #node.#method(::core::clone::Clone::clone(&self.#member)); }
            }
            (_, Takes::Text) => {
                let text = text_probe(&quote_spanned! {field.span=> self.#member });
                quote! { #node.#method(#text); }
            }
            (_, Takes::AsIs) => quote! { #node.#method(&self.#member); },
        });
    }
    with_text_probe(calls)
}
