//! Format strings written part by part: `label = "Task {i}: {title}"` becomes the
//! builder argument `("Task ", i, ": ", title)` (each placeholder through the text
//! probe), so text and integers reach the arena without `core::fmt`. Anything this
//! does not handle (`{:>4}`, `{0}`, `{x:?}`, named arguments) stays `format_args!`.

use proc_macro2::TokenStream;
use quote::quote;
use syn::{Expr, Ident, LitStr};

use crate::expand::text_probe;

/// The most parts a tuple argument has (the runtime implements `IntoText` for
/// tuples up to this size).
const MAX_PARTS: usize = 12;

enum Part {
    Text(String),
    /// `{name}`: a captured variable.
    Named(Ident),
    /// `{}`: the next argument.
    Next,
}

/// The builder argument for `format` with `args`: a string, one probed part or a
/// tuple of parts; `None` when it needs `format_args!`.
pub(crate) fn parts(format: &LitStr, args: &[Expr]) -> Option<TokenStream> {
    if args.iter().any(|arg| matches!(arg, Expr::Assign(_))) {
        return None;
    }
    let parsed = parse(&format.value(), format)?;
    let mut args = args.iter();
    let mut tokens = Vec::new();
    for part in parsed {
        tokens.push(match part {
            Part::Text(text) => {
                let lit = LitStr::new(&text, format.span());
                quote! { #lit }
            }
            Part::Named(ident) => text_probe(&quote! { #ident }),
            Part::Next => {
                let arg = args.next()?;
                text_probe(&quote! { #arg })
            }
        });
    }
    // An argument left over is an error `format_args!` reports.
    if args.next().is_some() || tokens.len() > MAX_PARTS {
        return None;
    }
    Some(match tokens.as_slice() {
        [] => quote! { "" },
        [one] => one.clone(),
        many => quote! { (#(#many,)*) },
    })
}

/// The parts of `format`, or `None` for anything but text, `{{`, `}}`, `{}` and
/// `{identifier}`.
fn parse(format: &str, lit: &LitStr) -> Option<Vec<Part>> {
    let mut parts = Vec::new();
    let mut text = String::new();
    let mut chars = format.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '{' if chars.peek() == Some(&'{') => {
                chars.next();
                text.push('{');
            }
            '}' if chars.peek() == Some(&'}') => {
                chars.next();
                text.push('}');
            }
            '{' => {
                let mut inner = String::new();
                loop {
                    match chars.next()? {
                        '}' => break,
                        c => inner.push(c),
                    }
                }
                if !text.is_empty() {
                    parts.push(Part::Text(std::mem::take(&mut text)));
                }
                if inner.is_empty() {
                    parts.push(Part::Next);
                } else {
                    // A plain identifier; keywords, `r#…`, indices and specs are not.
                    let mut ident = syn::parse_str::<Ident>(&inner).ok()?;
                    if ident != inner {
                        return None;
                    }
                    ident.set_span(lit.span());
                    parts.push(Part::Named(ident));
                }
            }
            '}' => return None,
            c => text.push(c),
        }
    }
    if !text.is_empty() {
        parts.push(Part::Text(text));
    }
    Some(parts)
}

#[cfg(test)]
mod tests {
    use quote::quote;
    use syn::{Expr, LitStr, parse_quote};

    use super::parts;

    fn split(format: &str, args: &[Expr]) -> Option<String> {
        let lit = LitStr::new(format, proc_macro2::Span::call_site());
        parts(&lit, args).map(|t| t.to_string())
    }

    #[test]
    fn plain_text_is_one_string() {
        assert_eq!(split("Save", &[]), Some(quote!("Save").to_string()));
        assert_eq!(split("a {{b}} c", &[]), Some(quote!("a {b} c").to_string()));
        assert_eq!(split("", &[]), Some(quote!("").to_string()));
    }

    #[test]
    fn placeholders_become_probed_parts() {
        let split = split("Task {i}: {}", &[parse_quote!(task.title)]).expect("handled");
        assert!(split.starts_with("(\"Task \" ,"), "{split}");
        assert!(split.contains("TextProbe (& (i))"), "{split}");
        assert!(split.contains("TextProbe (& (task . title))"), "{split}");
    }

    #[test]
    fn anything_else_is_left_to_format_args() {
        for format in [
            "{:>4}", "{0}", "{x:?}", "{self}", "{", "}", "{r#type}", "{ x}",
        ] {
            assert_eq!(split(format, &[parse_quote!(a)]), None, "{format}");
        }
        assert_eq!(split("{}", &[]), None, "missing argument");
        assert_eq!(
            split("{}", &[parse_quote!(a), parse_quote!(b)]),
            None,
            "extra argument"
        );
        assert_eq!(split("{x}", &[parse_quote!(x = 1)]), None, "named argument");
        assert_eq!(split(&"{a}".repeat(13), &[]), None, "too many parts");
    }
}
