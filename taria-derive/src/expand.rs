//! Code generation for `#[taria::widget]`: wraps the render body in a node scope.

use proc_macro2::{Span, TokenStream};
use quote::quote;
use syn::{Ident, ImplItemFn};

use crate::args::{NodeArgs, parse_node_args};
use crate::errors::Errors;
use crate::target::{self, Target};

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
    let args = match parse_node_args(args, &node) {
        Ok((args, arg_errors)) => {
            if let Some(e) = arg_errors {
                errors.push(e);
            }
            Some(args)
        }
        Err(e) => {
            errors.push(e);
            None
        }
    };
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

fn probe(value: &TokenStream, node: &Ident) -> TokenStream {
    quote! {
        {
            #[allow(unused_imports)]
            use ::taria::__private::{ViaNothing as _, ViaSemantic as _};
            (&::taria::__private::Probe(#value)).taria_describe(#node);
        }
    }
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
            quote! { #node.bounds(::taria::__private::AreaSource::taria_area(&#area)); }
        }
        // `bounds = …` is among the arguments.
        None => TokenStream::new(),
    };
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
