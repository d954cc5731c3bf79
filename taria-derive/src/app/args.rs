//! The arguments of `#[taria::app(label = "…", handlers = …)]`.

use proc_macro2::TokenStream;
use quote::quote;
use syn::{Expr, LitStr};

/// The longest app label.
const MAX_LABEL_LEN: usize = 64;

/// What `#[taria::app(…)]` was given.
#[derive(Default)]
pub(crate) struct AppArgs {
    /// `label = "…"`: the name agents find the app by.
    pub(crate) label: Option<LitStr>,
    /// `handlers = <expr>`: on a function, the value whose `#[action]` methods handle
    /// agent actions; with the `handlers` keyword, to point errors at.
    pub(crate) handlers: Option<(syn::Ident, Expr)>,
}

impl AppArgs {
    /// The label expression: the literal, else the binary's name, else the package's.
    pub(crate) fn label_expr(&self) -> TokenStream {
        if let Some(label) = &self.label {
            return quote! { #label };
        }
        quote! {
            match ::core::option_env!("CARGO_BIN_NAME") {
                ::core::option::Option::Some(__taria_name) => __taria_name,
                ::core::option::Option::None => ::core::env!("CARGO_PKG_NAME"),
            }
        }
    }
}

/// Parses `label = "…"` and `handlers = <expr>`, both optional.
pub(crate) fn parse_args(args: TokenStream) -> syn::Result<AppArgs> {
    let mut parsed = AppArgs::default();
    let parser = syn::meta::parser(|meta| {
        if meta.path.is_ident("label") {
            if parsed.label.is_some() {
                return Err(meta.error("`label` is given twice: give it once"));
            }
            let lit: LitStr = meta.value()?.parse().map_err(|e| {
                syn::Error::new(
                    e.span(),
                    "the label is a string literal, e.g. `label = \"todo\"`",
                )
            })?;
            check_label(&lit)?;
            parsed.label = Some(lit);
            return Ok(());
        }
        if meta.path.is_ident("handlers") {
            if parsed.handlers.is_some() {
                return Err(meta.error("`handlers` is given twice: give it once"));
            }
            let keyword = meta.path.require_ident()?.clone();
            let expr: Expr = meta.value()?.parse().map_err(|e| {
                syn::Error::new(
                    e.span(),
                    "`handlers` names the app's value, e.g. `handlers = app`",
                )
            })?;
            parsed.handlers = Some((keyword, expr));
            return Ok(());
        }
        Err(meta.error(
            "unknown argument; `#[taria::app]` takes an optional `label = \"…\"` (default: the \
             binary's name) and, on a function, `handlers = <the app>` (the value whose \
             `#[action]` methods handle agent actions)",
        ))
    });
    syn::parse::Parser::parse2(parser, args)?;
    Ok(parsed)
}

/// An app label: 1 to 64 ASCII letters, digits, `-`, `_` or `.`.
fn check_label(lit: &LitStr) -> syn::Result<()> {
    let label = lit.value();
    let valid = (1..=MAX_LABEL_LEN).contains(&label.len())
        && label
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.'));
    if valid {
        return Ok(());
    }
    Err(syn::Error::new(
        lit.span(),
        format!(
            "`{label}` is not a valid app label: use 1 to {MAX_LABEL_LEN} ASCII letters, digits, `-`, `_` or `.` \
             (agents find the app by this name)"
        ),
    ))
}

#[cfg(test)]
mod tests {
    use quote::{ToTokens, quote};

    use super::parse_args;

    fn label(args: proc_macro2::TokenStream) -> Result<Option<String>, String> {
        parse_args(args)
            .map(|a| a.label.map(|l| l.value()))
            .map_err(|e| e.to_string())
    }

    #[test]
    fn the_label_is_optional_and_checked() {
        assert_eq!(label(quote! {}), Ok(None));
        assert_eq!(
            label(quote! { label = "todo-2.b_c" }),
            Ok(Some("todo-2.b_c".into()))
        );
        assert!(
            label(quote! { label = "my app" })
                .unwrap_err()
                .contains("not a valid app label")
        );
        assert!(
            label(quote! { label = "" })
                .unwrap_err()
                .contains("not a valid app label")
        );
        let long = "a".repeat(65);
        assert!(
            label(quote! { label = #long })
                .unwrap_err()
                .contains("1 to 64")
        );
        assert!(
            label(quote! { label = todo })
                .unwrap_err()
                .contains("string literal")
        );
        assert!(
            label(quote! { name = "x" })
                .unwrap_err()
                .contains("unknown argument")
        );
        assert!(
            label(quote! { label = "a", label = "b" })
                .unwrap_err()
                .contains("twice")
        );
    }

    #[test]
    fn handlers_name_an_expression_once() {
        let args = parse_args(quote! { label = "a", handlers = state.app }).unwrap();
        let (keyword, expr) = args.handlers.expect("handlers");
        assert_eq!(keyword, "handlers");
        assert_eq!(expr.to_token_stream().to_string(), "state . app");
        let twice = parse_args(quote! { handlers = a, handlers = b });
        assert!(twice.err().unwrap().to_string().contains("twice"));
        let missing = parse_args(quote! { handlers });
        assert!(missing.is_err());
    }
}
