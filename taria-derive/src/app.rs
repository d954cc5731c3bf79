//! `#[taria::app]`: makes the code that holds an app's loop record its frames, read
//! input through taria and run pending agent actions before each frame ([`rewrite`]).
//! It goes on whatever holds the loop ([`Target`]):
//!
//! * the app's inherent impl block: `#[taria::actions]` too, and the app is `self`;
//! * a function (`main`, whose `ratatui::run(|terminal| loop { … })` closure is
//!   rewritten with it, a free function, an associated one): the app is the value
//!   `handlers = …` names, else there are no handlers;
//! * one method: the app is `self`.
//!
//! Each placement that leaves nowhere to run the agent's actions is an error that
//! names the shape and what to write instead ([`Placement`]).

pub(crate) mod args;
pub(crate) mod rewrite;

use proc_macro2::TokenStream;
use quote::{ToTokens, quote, quote_spanned};
use syn::spanned::Spanned;
use syn::{Block, Expr, FnArg, ImplItem, Item, ItemFn, ItemImpl, Signature};

use crate::actions::handler::{is_mut_ref_self, is_self_type};
use crate::actions::{impl_actions, item_head, strip_action_attrs};
use crate::errors::Errors;
use args::{AppArgs, parse_args};
use rewrite::{Anchor, Found, Missing, Rewrite, rewrite_block};

pub(crate) fn app(args: TokenStream, item: TokenStream) -> TokenStream {
    let mut errors = Errors::default();
    let args = errors.ok(parse_args(args)).unwrap_or_default();
    let out = match syn::parse2::<Item>(item.clone()) {
        Ok(Item::Impl(imp)) if imp.trait_.is_none() => app_impl(imp, &args, &mut errors),
        Ok(Item::Fn(function)) => app_fn(function, &args, &mut errors),
        Ok(Item::Impl(mut imp)) => {
            let (_, path, for_token) = imp.trait_.as_ref().expect("a trait impl");
            errors.push(syn::Error::new_spanned(
                quote! { #path #for_token },
                format!("{USAGE}, not on a trait impl"),
            ));
            strip_action_attrs(&mut imp);
            imp.into_token_stream()
        }
        Ok(other) => {
            errors.push(syn::Error::new_spanned(item_head(&other), USAGE));
            item
        }
        Err(_) => {
            errors.push(syn::Error::new(proc_macro2::Span::call_site(), USAGE));
            item
        }
    };
    let errors = errors.finish(()).err().map(|e| e.to_compile_error());
    quote! { #out #errors }
}

/// Where the attribute goes, said by every placement error.
const USAGE: &str = "`#[taria::app]` goes on the code that holds the app's loop: the function \
    (`#[taria::app] fn main()`, also around a `ratatui::run(|terminal| loop { … })` closure) or \
    the app's inherent impl block (`#[taria::app] impl App { … }`)";

/// The app's impl block: its handlers, then every method rewritten.
fn app_impl(mut imp: ItemImpl, args: &AppArgs, errors: &mut Errors) -> TokenStream {
    if let Some((keyword, _)) = &args.handlers {
        errors.push(syn::Error::new_spanned(
            keyword,
            "`handlers` is for `#[taria::app]` on a function: on an impl block the app is `self`, \
             whose `#[action]` methods here handle agent actions; remove `handlers = …`",
        ));
    }
    take_nested_apps(&mut imp, errors);
    let dispatch = impl_actions(&mut imp, errors);
    let label = args.label_expr();
    let head = {
        let (impl_token, self_ty) = (&imp.impl_token, &imp.self_ty);
        quote! { #impl_token #self_ty }
    };
    let mut bodies: Vec<Body<'_>> = imp
        .items
        .iter_mut()
        .filter_map(|item| match item {
            ImplItem::Fn(method) => Some(Body::method(&method.sig, &mut method.block)),
            _ => None,
        })
        .collect();
    if let Err(placement) = place_drains(&mut bodies, &label, errors) {
        errors.push(placement.error(&head, Kind::Impl));
    }
    quote! { #imp #dispatch }
}

/// A `#[taria::app]` on a method of an impl block that has one itself: an error at the
/// inner one, which is removed (the block's covers the method).
fn take_nested_apps(imp: &mut ItemImpl, errors: &mut Errors) {
    for item in &mut imp.items {
        let ImplItem::Fn(method) = item else {
            continue;
        };
        method.attrs.retain(|attr| {
            let nested = is_app_attr(attr);
            if nested {
                errors.push(syn::Error::new_spanned(
                    attr,
                    "`#[taria::app]` on the impl block already covers this method: remove this one",
                ));
            }
            !nested
        });
    }
}

fn is_app_attr(attr: &syn::Attribute) -> bool {
    let path = attr.path();
    path.is_ident("app")
        || (path.segments.len() == 2
            && path.segments[0].ident == "taria"
            && path.segments[1].ident == "app")
}

/// A function, or a method annotated on its own.
fn app_fn(mut function: ItemFn, args: &AppArgs, errors: &mut Errors) -> TokenStream {
    let label = args.label_expr();
    let head = {
        let (fn_token, ident) = (&function.sig.fn_token, &function.sig.ident);
        quote! { #fn_token #ident }
    };
    let mut body = match (function.sig.receiver().is_some(), &args.handlers) {
        (true, handlers) => {
            if let Some((keyword, _)) = handlers {
                errors.push(syn::Error::new_spanned(
                    keyword,
                    format!(
                        "`handlers` is for a function without `self`: in `{}` the app is \
                         `self`, whose `#[action]` methods (in a `#[taria::actions]` impl \
                         block) handle agent actions; remove `handlers = …`",
                        function.sig.ident
                    ),
                ));
            }
            Body::method(&function.sig, &mut function.block)
        }
        (false, Some((_, app))) => Body::function(&function.sig, &mut function.block, lend(app)),
        (false, None) => Body::function(&function.sig, &mut function.block, quote! { &mut () }),
    };
    if let Err(placement) = place_drains(std::slice::from_mut(&mut body), &label, errors) {
        let name = function.sig.ident.to_string();
        errors.push(placement.error(&head, Kind::Fn(&name)));
    }
    function.into_token_stream()
}

/// `&mut <app>` for the drain, whether `app` is the value or a `&mut` to it: a method
/// call borrows either (spanned at `app`, so a type without handlers is named there).
fn lend(app: &Expr) -> TokenStream {
    quote_spanned! {app.span()=>
        {
            use ::taria::__private::Lend as _;
            (#app).__taria_lend()
        }
    }
}

/// One body the attribute rewrites.
struct Body<'a> {
    block: &'a mut Block,
    /// The drain's argument lending the app; `None` where it cannot (`&self`).
    app: Option<TokenStream>,
    /// The function's name.
    name: String,
    /// Where to point at the function: its receiver, else its name.
    at: TokenStream,
}

impl<'a> Body<'a> {
    /// A method's (or an associated function's) body: the app is `self`.
    fn method(sig: &Signature, block: &'a mut Block) -> Body<'a> {
        let app = match sig.inputs.first() {
            Some(FnArg::Receiver(r)) if is_mut_ref_self(&r.ty) => Some(quote! { &mut *self }),
            Some(FnArg::Receiver(r))
                if r.reference.is_none() && r.mutability.is_some() && is_self_type(&r.ty) =>
            {
                Some(quote! { &mut self })
            }
            Some(FnArg::Receiver(_)) => None,
            // An associated function: no app to lend, nor any handlers to lend to.
            _ => Some(quote! { &mut () }),
        };
        let at = match sig.inputs.first() {
            Some(receiver @ FnArg::Receiver(_)) => receiver.to_token_stream(),
            _ => sig.ident.to_token_stream(),
        };
        Body {
            block,
            app,
            name: sig.ident.to_string(),
            at,
        }
    }

    /// A function's body, lending `app`.
    fn function(sig: &Signature, block: &'a mut Block, app: TokenStream) -> Body<'a> {
        Body {
            block,
            app: Some(app),
            name: sig.ident.to_string(),
            at: sig.ident.to_token_stream(),
        }
    }

    fn rewrite(&self, label: &TokenStream, anchor: Anchor) -> (Block, Found) {
        let mut block = (*self.block).clone();
        let rewrite = Rewrite {
            label,
            app: self.app.as_ref(),
            anchor,
        };
        let found = rewrite_block(&mut block, &rewrite);
        (block, found)
    }
}

/// What the attribute is on, for its errors.
#[derive(Clone, Copy)]
enum Kind<'a> {
    Impl,
    /// A function, by name.
    Fn(&'a str),
}

/// Why the attribute cannot run the agent's actions where it is.
enum Placement {
    /// A method without a mutable `self` draws in a loop (or, where nothing draws,
    /// reads events in one: `reads`).
    LoopWithoutApp {
        name: String,
        at: TokenStream,
        reads: bool,
    },
    /// The only draws are in methods without a mutable `self` and no loop around them.
    DrawWithoutApp { name: String, at: TokenStream },
    /// Nothing draws a frame or reads events.
    Nothing,
    /// A loop that draws (or reads) has no `taria::drain_with(…)` of its own while
    /// another place has one: its inputs would miss the app's handlers.
    OutsideOwnDrain(proc_macro2::Span),
}

impl Placement {
    /// The error, pointing at the function, or at `head` (`impl App`, `fn main`).
    fn error(&self, head: &TokenStream, kind: Kind<'_>) -> syn::Error {
        match self {
            Placement::LoopWithoutApp { name, at, reads } => syn::Error::new_spanned(
                at,
                format!(
                    "`{name}` {} in a loop, where `#[taria::app]` runs pending agent actions \
                     before each frame; that changes the app, so the run loop must be a \
                     method taking `&mut self` or `mut self`",
                    if *reads {
                        "reads events"
                    } else {
                        "draws frames"
                    }
                ),
            ),
            Placement::DrawWithoutApp { name, at } => syn::Error::new_spanned(
                at,
                format!(
                    "`{name}` draws a frame with no loop around it and takes `&self`, so \
                     `#[taria::app]` has nowhere to run the agent's actions before the frame: \
                     when the loop is elsewhere (`main`), put `#[taria::app]` on the function \
                     that holds the loop and draw here with `taria::draw(terminal, |frame| …)`; \
                     or let `{name}` take `&mut self`"
                ),
            ),
            Placement::OutsideOwnDrain(span) => syn::Error::new(
                *span,
                "this loop draws frames (or reads events) but has no `taria::drain_with(…)` of \
                 its own, while another place in this code has one: `#[taria::app]` would run \
                 the agent's actions here without those handlers. Call `taria::drain_with(…)` \
                 at the top of the innermost loop around each draw",
            ),
            Placement::Nothing => {
                let message = match kind {
                    Kind::Impl => "none of this impl block's methods draws a frame \
                        (`terminal.draw(…)`) or reads events, so `#[taria::app]` has no loop to \
                        make drivable here: put it on the function that holds the loop \
                        (`#[taria::app] fn main()`); for an impl block of handlers only, use \
                        `#[taria::actions]`"
                        .to_owned(),
                    Kind::Fn(name) => format!(
                        "`{name}` neither draws a frame (`terminal.draw(…)`) nor reads events, so \
                         `#[taria::app]` has no loop to make drivable here: put it on the code \
                         that holds the loop, the impl block of the app whose method loops \
                         (`#[taria::app] impl App {{ … }}`) or the function with the `loop`"
                    ),
                };
                syn::Error::new_spanned(head, message)
            }
        }
    }
}

/// Rewrites `bodies`, with drains before each frame they draw; where that places none
/// (the draws are in `&self` methods with the loop elsewhere, or there are none), at
/// each event read instead (the loop reads in a `&mut self` method, or in a function
/// whose draw is in a method); else says why it cannot.
fn place_drains(
    bodies: &mut [Body<'_>],
    label: &TokenStream,
    errors: &mut Errors,
) -> Result<(), Placement> {
    let rewrite_all = |anchor| -> Vec<(Block, Found)> {
        bodies.iter().map(|b| b.rewrite(label, anchor)).collect()
    };
    let total = |rewritten: &[(Block, Found)], count: fn(&Found) -> usize| {
        rewritten.iter().map(|(_, f)| count(f)).sum::<usize>()
    };
    let first = |rewritten: &[(Block, Found)], missing: Missing| {
        rewritten
            .iter()
            .position(|(_, f)| f.missing == Some(missing))
    };
    let mut anchor = Anchor::Draws;
    let mut chosen = rewrite_all(Anchor::Draws);
    if total(&chosen, |f| f.drains) == 0 && first(&chosen, Missing::Loop).is_none() {
        let by_reads = rewrite_all(Anchor::Reads);
        let reading_loop_without_app = first(&by_reads, Missing::Loop).is_some();
        if total(&by_reads, |f| f.drains) > 0
            || (total(&chosen, |f| f.draws) == 0 && reading_loop_without_app)
        {
            chosen = by_reads;
            anchor = Anchor::Reads;
        }
    }
    for (_, found) in &mut chosen {
        for error in found.handler_errors.drain(..) {
            errors.push(error);
        }
    }
    let placed = total(&chosen, |f| f.drains) > 0;
    if total(&chosen, |f| f.own) > 0
        && let Some(span) = chosen.iter().find_map(|(_, f)| f.without_handlers)
    {
        return Err(Placement::OutsideOwnDrain(span));
    }
    let loop_without_app = first(&chosen, Missing::Loop);
    let draw_without_app = first(&chosen, Missing::Draw);
    for (body, (block, _)) in bodies.iter_mut().zip(chosen) {
        *body.block = block;
    }
    let named = |i: usize| (bodies[i].name.clone(), bodies[i].at.clone());
    // A drawing loop that cannot drain is an error even beside one that can; a
    // reading loop only when nothing else drains (reads are the fallback anchor).
    if let Some(i) = loop_without_app
        && (anchor == Anchor::Draws || !placed)
    {
        let (name, at) = named(i);
        return Err(Placement::LoopWithoutApp {
            name,
            at,
            reads: anchor == Anchor::Reads,
        });
    }
    if placed {
        return Ok(());
    }
    if let Some(i) = draw_without_app {
        let (name, at) = named(i);
        return Err(Placement::DrawWithoutApp { name, at });
    }
    Err(Placement::Nothing)
}

#[cfg(test)]
mod tests;
