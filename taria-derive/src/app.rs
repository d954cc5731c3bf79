//! `#[taria::app]`: `#[taria::actions]`, plus a rewrite of the app's own loop
//! ([`rewrite`]) so it records frames, reads input through taria and runs pending
//! agent actions each iteration.

pub(crate) mod rewrite;

use proc_macro2::TokenStream;
use quote::quote;
use syn::LitStr;

use crate::actions::{impl_actions, inherent_impl};
use crate::errors::Errors;

/// The longest app label.
const MAX_LABEL_LEN: usize = 64;

pub(crate) fn app(args: TokenStream, item: TokenStream) -> TokenStream {
    let mut errors = Errors::default();
    let label = errors.ok(parse_args(args)).flatten();
    let mut imp = match inherent_impl(item, "app") {
        Ok(imp) => imp,
        Err(fallback) => {
            let errors = errors.finish(()).err().map(|e| e.to_compile_error());
            return quote! { #fallback #errors };
        }
    };
    let dispatch = impl_actions(&mut imp, &mut errors);
    rewrite::rewrite_impl(&mut imp, &label_expr(label.as_ref()), &mut errors);
    let errors = errors.finish(()).err().map(|e| e.to_compile_error());
    quote! { #imp #dispatch #errors }
}

/// Parses `label = "…"`, the only argument.
fn parse_args(args: TokenStream) -> syn::Result<Option<LitStr>> {
    let mut label: Option<LitStr> = None;
    let parser = syn::meta::parser(|meta| {
        if meta.path.is_ident("label") {
            if label.is_some() {
                return Err(meta.error("`label` is given twice: give it once"));
            }
            let lit: LitStr = meta.value()?.parse().map_err(|e| {
                syn::Error::new(
                    e.span(),
                    "the label is a string literal, e.g. `label = \"todo\"`",
                )
            })?;
            check_label(&lit)?;
            label = Some(lit);
            return Ok(());
        }
        Err(meta.error(
            "unknown argument; `#[taria::app]` takes an optional `label = \"…\"` (default: the binary's name)",
        ))
    });
    syn::parse::Parser::parse2(parser, args)?;
    Ok(label)
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

/// The label expression: the literal, else the binary's name, else the package's.
fn label_expr(label: Option<&LitStr>) -> TokenStream {
    if let Some(label) = label {
        return quote! { #label };
    }
    quote! {
        match ::core::option_env!("CARGO_BIN_NAME") {
            ::core::option::Option::Some(__taria_name) => __taria_name,
            ::core::option::Option::None => ::core::env!("CARGO_PKG_NAME"),
        }
    }
}

#[cfg(test)]
mod tests {
    use quote::quote;

    use super::{app, parse_args};

    fn label(args: proc_macro2::TokenStream) -> Result<Option<String>, String> {
        parse_args(args)
            .map(|l| l.map(|l| l.value()))
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
    fn the_app_gets_an_actions_impl_and_its_loop_is_rewritten() {
        let out = app(
            quote! { label = "todo" },
            quote! {
                impl App {
                    fn run(&mut self, terminal: &mut DefaultTerminal) -> io::Result<()> {
                        while !self.exit {
                            terminal.draw(|f| self.draw(f))?;
                            self.handle_events()?;
                        }
                        Ok(())
                    }
                    #[action(node = "quit", activate)]
                    fn quit(&mut self) { self.exit = true; }
                }
            },
        )
        .to_string();
        assert!(out.contains(
            "while ! self . exit { :: taria :: drain (& mut * self) ; \
             :: taria :: __private :: app_draw (\"todo\" , | | terminal . draw (| f | self . draw (f))) ? ;"
        ), "{out}");
        assert!(out.contains("impl :: taria :: Actions for App"), "{out}");
        assert!(!out.contains("compile_error"), "{out}");
    }

    #[test]
    fn without_a_label_the_binary_name_is_used() {
        let out = app(
            quote! {},
            quote! { impl App { fn once(&self, t: &mut T) { t.draw(|f| ()); } } },
        )
        .to_string();
        assert!(
            out.contains("app_draw (match :: core :: option_env ! (\"CARGO_BIN_NAME\")"),
            "{out}"
        );
    }

    #[test]
    fn a_bad_label_still_rewrites_and_reports() {
        let out = app(quote! { label = "my app" }, quote! { impl App {} }).to_string();
        assert!(out.contains("impl :: taria :: Actions for App"), "{out}");
        assert!(out.contains("not a valid app label"), "{out}");
    }
}
