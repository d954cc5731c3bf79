//! Bare text rendered as a widget records a `text` node: in the code `#[taria::app]`
//! and `#[taria::widget]` rewrite, each `<frame>.render_widget(<widget>, <area>)`
//! becomes
//!
//! ```text
//! match (<widget>, <area>) {
//!     (w, a) => {
//!         (&::taria::__private::WidgetProbe(&w)).taria_text_node(&a);
//!         <frame>.render_widget(w, a)
//!     }
//! }
//! ```
//!
//! The probe (autoref specialization) records `w` only when it is a `&str`, a
//! `String`, a `Span`, a `Line` or a `Text` (or a reference to one): for every other
//! widget it is a call to an empty function. The arguments are evaluated once, in
//! order, and their temporaries live as long as they did in the call (a `match`,
//! not a `let`), so any code that compiled before compiles the same.

use proc_macro2::{Ident, Span};
use syn::visit_mut::{self, VisitMut};
use syn::{Expr, ExprMethodCall, Item, Pat, Stmt};

/// Rewrites every `render_widget` call in `block` (not in items nested in it).
pub(crate) fn rewrite_block(block: &mut syn::Block) {
    TextRenders.visit_block_mut(block);
}

/// Rewrites `expr` if it is a `render_widget` call (its arguments already visited).
pub(crate) fn rewrite_call(expr: &mut Expr) {
    let Expr::MethodCall(call) = expr else {
        return;
    };
    if !is_render_widget(call) {
        return;
    }
    let span = call.method.span();
    let widget = Ident::new("__taria_widget", Span::mixed_site());
    let area = Ident::new("__taria_area", Span::mixed_site());
    let (first, second) = (&call.args[0], &call.args[1]);
    let receiver = &call.receiver;
    let method = &call.method;
    let turbofish = &call.turbofish;
    let rewritten: Expr = syn::parse_quote_spanned! {span=>
        match (#first, #second) {
            (#widget, #area) => {
                {
                    #[allow(unused_imports)]
                    use ::taria::__private::{ViaBareText as _, ViaWidget as _};
                    (&::taria::__private::WidgetProbe(&#widget)).taria_text_node(&#area);
                }
                #receiver.#method #turbofish (#widget, #area)
            }
        }
    };
    *expr = rewritten;
}

/// `<receiver>.render_widget(<widget>, <area>)`.
fn is_render_widget(call: &ExprMethodCall) -> bool {
    call.method == "render_widget" && call.args.len() == 2
}

/// A rewritten call that was a statement (`frame.render_widget(…);`) is a `match`
/// statement with the user's `;` after it: allowed, or clippy's pedantic
/// `unnecessary_semicolon` would point at the user's code.
pub(crate) fn allow_semicolon(stmt: &mut Stmt) {
    if let Stmt::Expr(Expr::Match(m), Some(_)) = stmt
        && m.arms.len() == 1
        && matches!(&m.arms[0].pat, Pat::Tuple(t)
            if matches!(t.elems.first(), Some(Pat::Ident(i)) if i.ident == "__taria_widget"))
    {
        m.attrs
            .push(syn::parse_quote! { #[allow(clippy::unnecessary_semicolon)] });
    }
}

struct TextRenders;

impl VisitMut for TextRenders {
    fn visit_expr_mut(&mut self, expr: &mut Expr) {
        visit_mut::visit_expr_mut(self, expr);
        rewrite_call(expr);
    }

    fn visit_stmt_mut(&mut self, stmt: &mut Stmt) {
        visit_mut::visit_stmt_mut(self, stmt);
        allow_semicolon(stmt);
    }

    /// Items nested in a body are not the annotated code: leave them alone.
    fn visit_item_mut(&mut self, _: &mut Item) {}
}
