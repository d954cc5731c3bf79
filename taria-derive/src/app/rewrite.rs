//! The rewrite `#[taria::app]` makes of a body (a function's, or each method's of an
//! impl block):
//!
//! * `<terminal>.draw(<f>)` → `::taria::__private::app_draw(<label>, |end|
//!   <terminal>.draw(::taria::__private::render_then_end(end, <f>)))` (the frame is
//!   recorded when an agent is attached, and published as soon as `<f>` has rendered);
//! * `…event::read()` → `::taria::event::read()`, `…event::poll(t)` →
//!   `::taria::event::poll(t)` (input waits also wake for agent requests);
//! * a drain, `::taria::__private::app_drain(<label>, <app>)`, runs pending agent
//!   actions before each frame: at the top of the innermost `loop` / `while` / `for`
//!   around each draw, or as the statement before one with no loop around it. In
//!   code that draws no frame itself (its draw is in a method the loop calls), the
//!   drains go by the event reads instead, in the same way ([`Anchor`]).
//!
//! A `.draw(…)` call is taken for a terminal's when it has one argument that is not a
//! reference (`Canvas` contexts draw `&shape`) and its receiver is not `self` (an app's
//! own `fn draw(&self, frame)`); draws inside its argument are left alone.

use proc_macro2::{Span, TokenStream};
use syn::spanned::Spanned;
use syn::visit_mut::{self, VisitMut};
use syn::{Block, Expr, ExprCall, ExprMethodCall, Item};

/// What the drains are placed by.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Anchor {
    /// Before each frame the code draws.
    Draws,
    /// At the top of each loop that reads events: the code draws no frame itself.
    Reads,
}

/// How a body is rewritten.
pub(crate) struct Rewrite<'a> {
    /// The app label expression.
    pub(crate) label: &'a TokenStream,
    /// The drain's argument that lends the app (`&mut *self`, `&mut ()`, the
    /// `handlers` value), or `None` where the code cannot lend it (`&self`).
    pub(crate) app: Option<&'a TokenStream>,
    pub(crate) anchor: Anchor,
}

/// What the rewrite of one body found.
#[derive(Default, Debug, PartialEq, Eq)]
pub(crate) struct Found {
    /// Terminal draws rewritten.
    pub(crate) draws: usize,
    /// Drains placed.
    pub(crate) drains: usize,
    /// The first place a drain was needed where there is no app to lend.
    pub(crate) missing: Option<Missing>,
}

/// Where a drain could not be placed for want of an app to lend.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Missing {
    /// At the top of a loop.
    Loop,
    /// Before a draw with no loop around it.
    Draw,
    /// Before an event read with no loop around it (reads anchor the drains).
    Read,
}

/// Rewrites `block` as `rewrite` says.
pub(crate) fn rewrite_block(block: &mut Block, rewrite: &Rewrite<'_>) -> Found {
    let mut rewriter = Rewriter {
        rewrite,
        loops: Vec::new(),
        in_draw: 0,
        owed: None,
        found: Found::default(),
    };
    rewriter.visit_block_mut(block);
    rewriter.found
}

struct Rewriter<'a> {
    rewrite: &'a Rewrite<'a>,
    /// For each enclosing loop, whether its body holds what anchors a drain.
    loops: Vec<bool>,
    /// How deep we are inside the argument of a rewritten draw.
    in_draw: usize,
    /// A drain owed before the statement being visited (an anchor with no loop around
    /// it). A statement of its own, not part of the anchor's expression: there it
    /// would borrow the app inside a call whose receiver has it borrowed already
    /// (`self.state.on(event::read()?)`).
    owed: Option<Expr>,
    found: Found,
}

impl Rewriter<'_> {
    /// A drain of the app, spanned at `span`; `None` (noted as missing) without an app.
    fn drain(&mut self, span: Span, missing: Missing) -> Option<Expr> {
        let Some(app) = self.rewrite.app else {
            self.found.missing.get_or_insert(missing);
            return None;
        };
        self.found.drains += 1;
        let label = self.rewrite.label;
        Some(syn::parse_quote_spanned! {span=>
            ::taria::__private::app_drain(#label, #app)
        })
    }

    /// Notes an anchor: its innermost loop drains, else (a draw) it drains itself.
    fn anchor_in_loop(&mut self) -> bool {
        match self.loops.last_mut() {
            Some(anchored) => {
                *anchored = true;
                true
            }
            None => false,
        }
    }

    /// Visits a loop body; if it holds an anchor, starts it with a drain.
    fn visit_loop_body(&mut self, body: &mut Block, keyword: Span) {
        self.loops.push(false);
        self.visit_block_mut(body);
        if self.loops.pop() == Some(true)
            && let Some(drain) = self.drain(keyword, Missing::Loop)
        {
            body.stmts
                .insert(0, syn::parse_quote_spanned! {keyword=> #drain; });
        }
    }

    /// An anchor with no loop around it: a drain before its statement.
    fn owe_drain(&mut self, span: Span, missing: Missing) {
        if self.owed.is_none() {
            self.owed = self.drain(span, missing);
        }
    }

    fn rewrite_draw(&mut self, expr: &mut Expr) {
        let Expr::MethodCall(call) = expr else {
            return;
        };
        self.visit_expr_mut(&mut call.receiver);
        self.in_draw += 1;
        for arg in &mut call.args {
            self.visit_expr_mut(arg);
        }
        self.in_draw -= 1;
        self.found.draws += 1;
        let span = call.method.span();
        let label = self.rewrite.label;
        // The render argument ends the frame as soon as it has rendered, so the frame
        // is published before ratatui diffs it and writes the terminal.
        if let Some(render) = call.args.first_mut() {
            let original = std::mem::replace(render, Expr::Verbatim(TokenStream::new()));
            *render = syn::parse_quote_spanned! {original.span()=>
                ::taria::__private::render_then_end(__taria_frame_end, #original)
            };
        }
        let original = std::mem::replace(expr, Expr::Verbatim(TokenStream::new()));
        let draw: Expr = syn::parse_quote_spanned! {span=>
            ::taria::__private::app_draw(#label, |__taria_frame_end| #original)
        };
        *expr = draw;
        if self.rewrite.anchor == Anchor::Draws && !self.anchor_in_loop() {
            self.owe_drain(span, Missing::Draw);
        }
    }
}

impl VisitMut for Rewriter<'_> {
    fn visit_expr_mut(&mut self, expr: &mut Expr) {
        match expr {
            Expr::MethodCall(call) if self.in_draw == 0 && is_terminal_draw(call) => {
                self.rewrite_draw(expr);
            }
            Expr::Call(call) => {
                visit_mut::visit_expr_call_mut(self, call);
                if let Some(read) = event_call(call) {
                    let span = read.span();
                    *expr = read;
                    if self.rewrite.anchor == Anchor::Reads && !self.anchor_in_loop() {
                        self.owe_drain(span, Missing::Read);
                    }
                }
            }
            Expr::MethodCall(_) => {
                visit_mut::visit_expr_mut(self, expr);
                crate::text_renders::rewrite_call(expr);
            }
            Expr::Loop(l) => {
                let keyword = l.loop_token.span;
                self.visit_loop_body(&mut l.body, keyword);
            }
            Expr::While(w) => {
                self.visit_expr_mut(&mut w.cond);
                let keyword = w.while_token.span;
                self.visit_loop_body(&mut w.body, keyword);
            }
            Expr::ForLoop(f) => {
                self.visit_expr_mut(&mut f.expr);
                let keyword = f.for_token.span;
                self.visit_loop_body(&mut f.body, keyword);
            }
            _ => visit_mut::visit_expr_mut(self, expr),
        }
    }

    /// Each statement that owes a drain gets it just before it.
    fn visit_block_mut(&mut self, block: &mut Block) {
        let outer = self.owed.take();
        let mut i = 0;
        while i < block.stmts.len() {
            self.visit_stmt_mut(&mut block.stmts[i]);
            if let Some(drain) = self.owed.take() {
                block.stmts.insert(i, syn::parse_quote! { #drain; });
                i += 1;
            }
            i += 1;
        }
        self.owed = outer;
    }

    fn visit_stmt_mut(&mut self, stmt: &mut syn::Stmt) {
        visit_mut::visit_stmt_mut(self, stmt);
        crate::text_renders::allow_semicolon(stmt);
    }

    /// Items nested in a body are not the app's code: leave them alone.
    fn visit_item_mut(&mut self, _: &mut Item) {}
}

/// Whether `call` looks like `Terminal::draw`: `.draw(f)` with one argument that is not
/// a reference, on a receiver other than `self`.
fn is_terminal_draw(call: &ExprMethodCall) -> bool {
    let on_self =
        matches!(&*call.receiver, Expr::Path(p) if p.qself.is_none() && p.path.is_ident("self"));
    call.method == "draw"
        && call.turbofish.is_none()
        && call.args.len() == 1
        && !matches!(call.args[0], Expr::Reference(_))
        && !on_self
}

/// `…event::read()` → `::taria::event::read()`, `…event::poll(t)` → `::taria::event::poll(t)`.
fn event_call(call: &ExprCall) -> Option<Expr> {
    let Expr::Path(path) = &*call.func else {
        return None;
    };
    if path.qself.is_some() {
        return None;
    }
    let segments = &path.path.segments;
    let [.., module, function] = segments.iter().collect::<Vec<_>>()[..] else {
        return None;
    };
    if module.ident != "event" || !function.arguments.is_none() {
        return None;
    }
    let span = call.func.span();
    // Naming the original function too keeps the app's `use …::event` import in use;
    // a tuple rather than a block, which would end an expression statement early.
    let original = &call.func;
    match (function.ident.to_string().as_str(), call.args.len()) {
        ("read", 0) => Some(syn::parse_quote_spanned! {span=>
            (#original, ::taria::event::read()).1
        }),
        ("poll", 1) => {
            let timeout = &call.args[0];
            Some(syn::parse_quote_spanned! {span=>
                (#original, ::taria::event::poll(#timeout)).1
            })
        }
        _ => None,
    }
}
