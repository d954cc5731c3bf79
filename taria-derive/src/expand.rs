//! Code generation for `#[taria::widget]`: wraps the render body in a node scope.

use proc_macro2::{Span, TokenStream};
use quote::quote;
use syn::{Ident, ImplItemFn};

use crate::args::{NodeArgs, parse_node_args};
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
    let target = target::parse(item);
    let args = parse_node_args(args, &node);
    let (mut target, args) = match (target, args) {
        (Ok(t), Ok(a)) => (t, a),
        (Err(mut e), Err(a)) => {
            e.combine(a);
            return Err(e);
        }
        (Err(e), _) | (_, Err(e)) => return Err(e),
    };
    match &mut target {
        Target::WidgetImpl { item, stateful } => {
            let stateful = *stateful;
            let self_ty = item.self_ty.clone();
            let Some(render) = target::render_method(item) else {
                return Err(syn::Error::new_spanned(
                    self_ty,
                    "this impl has no `fn render` for `#[taria::widget]` to annotate",
                ));
            };
            let mut probes = probe(&quote!(&self), &node);
            let mut prelude = Vec::new();
            // render(self, area, buf, state): describe from the widget, then from its state.
            if stateful
                && let Some((state, rebind)) =
                    target::bind_param(&mut render.sig, 3, "__taria_state")
            {
                probes.extend(probe(&quote!(&*#state), &node));
                prelude.extend(rebind);
            }
            wrap(render, &args, &node, &probes, prelude)?;
            Ok(quote! { #item })
        }
        Target::RenderFn(f) => {
            wrap(f, &args, &node, &TokenStream::new(), Vec::new())?;
            Ok(quote! { #f })
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

fn wrap(
    f: &mut ImplItemFn,
    args: &NodeArgs,
    node: &Ident,
    probes: &TokenStream,
    mut prelude: Vec<syn::Stmt>,
) -> syn::Result<()> {
    let bounds = match target::area_param(&f.sig) {
        Some(index) => {
            let Some((area, rebind)) = target::bind_param(&mut f.sig, index, "__taria_area") else {
                return Err(syn::Error::new_spanned(&f.sig, target::WRONG_TARGET));
            };
            prelude.extend(rebind);
            quote! { #node.bounds(::taria::__private::AreaSource::taria_area(&#area)); }
        }
        None if args.has_bounds => TokenStream::new(),
        None => {
            return Err(syn::Error::new_spanned(
                &f.sig.ident,
                "a `#[taria::widget]` render function needs an `area: Rect` or `frame: &mut Frame` parameter \
                 for the node's bounds, or a `bounds = <Rect>` argument",
            ));
        }
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
