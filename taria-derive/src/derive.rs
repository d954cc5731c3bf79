//! `#[derive(Semantic)]`: fields supply a node's label, value and state.

use proc_macro2::{Span, TokenStream};
use quote::quote;
use syn::{Data, DeriveInput, Fields, Ident, Index, Member};

use crate::args::role;
use crate::errors::Errors;
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
    "modal",
    "index",
    "count",
    "level",
    "min",
    "max",
    "step",
    "max_len",
    "options",
];

/// Attributes whose field is passed by value (cloned, all `Copy` numbers in practice)
/// rather than by reference: the builder takes them as `Into<f64>` / `TryInto<u32>`,
/// which `&u16` would not fit. Everything else is passed as `&field`, which the
/// builder's argument traits accept, so no field is cloned.
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
    let mut errors = Errors::default();
    let mut calls = TokenStream::new();
    container_attrs(input, &node, &mut calls, &mut errors);
    let fields = match &input.data {
        Data::Struct(s) => &s.fields,
        Data::Enum(e) => {
            errors.push(syn::Error::new(
                e.enum_token.span,
                "`#[derive(Semantic)]` supports structs; implement `taria::Semantic` by hand for an enum",
            ));
            return errors.finish(TokenStream::new());
        }
        Data::Union(u) => {
            errors.push(syn::Error::new(
                u.union_token.span,
                "`#[derive(Semantic)]` supports structs",
            ));
            return errors.finish(TokenStream::new());
        }
    };
    field_attrs(fields, &node, &mut calls, &mut errors);
    errors.finish(())?;
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

/// `#[taria(role = …)]` on the struct.
fn container_attrs(
    input: &DeriveInput,
    node: &Ident,
    calls: &mut TokenStream,
    errors: &mut Errors,
) {
    let mut has_role = false;
    for attr in input.attrs.iter().filter(|a| a.path().is_ident("taria")) {
        let parsed = attr.parse_nested_meta(|meta| {
            if meta.path.is_ident("role") {
                if has_role {
                    return Err(meta.error("duplicate container attribute `role`: give the role once"));
                }
                has_role = true;
                let expr: syn::Expr = meta.value()?.parse()?;
                calls.extend(role(&expr, node)?);
                return Ok(());
            }
            let name = meta.path.get_ident().map(ToString::to_string).unwrap_or_default();
            Err(meta.error(if FIELD_ATTRS.contains(&name.as_str()) {
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
}

/// `#[taria(label)]`, `#[taria(value)]`, … on the fields.
fn field_attrs(fields: &Fields, node: &Ident, calls: &mut TokenStream, errors: &mut Errors) {
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
                if !FIELD_ATTRS.contains(&name.as_str()) {
                    let hint = if name == "role" {
                        "; `role` is a container attribute: put `#[taria(role = <role>)]` on the struct".to_owned()
                    } else {
                        format!("; expected one of: {}", FIELD_ATTRS.join(", "))
                    };
                    return Err(meta.error(format!(
                        "unknown field attribute `{name}`{}{hint}",
                        did_you_mean(&name, FIELD_ATTRS),
                    )));
                }
                if !meta.input.is_empty() && !meta.input.peek(syn::Token![,]) {
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
                let method = Ident::new(&name, ident.span());
                calls.extend(if BY_VALUE.contains(&name.as_str()) {
                    quote! { #node.#method(::core::clone::Clone::clone(&self.#member)); }
                } else {
                    quote! { #node.#method(&self.#member); }
                });
                Ok(())
            });
            errors.ok(parsed);
        }
    }
}
