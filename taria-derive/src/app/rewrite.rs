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
//!   drains go by the event reads instead, in the same way ([`Anchor`]);
//! * a drain after each event read, `::taria::__private::app_drain_after_read(<app>)`,
//!   as the statement after the read's: in a loop that drains (or holds one that
//!   does), or in a method lending the app with no loop around the read (a
//!   `handle_events(&mut self)` the loop calls). The agent's action that woke the read
//!   runs there, and the rest of the loop turn sees what it changed, its condition
//!   included: the drain before the frame would run it too, but the loop, which then
//!   waits for events before it looks at its condition again, would have to be woken
//!   once more, for one more frame. None where the code drains with handlers of its
//!   own (`taria::drain_with`), nor after a block's value (a tail expression);
//! * a `taria::drain_with(<handlers>)` (or `taria::drain(<app>)`) the code calls itself
//!   → `::taria::__private::app_drain_with(<label>, <handlers>)`: the drain of the
//!   innermost loop around it (or, with no loop around it, of the draws after it), in
//!   place of the one the attribute would put there. Closure handlers for state in
//!   local variables are given this way, where the locals are in scope.
//!
//! A `.draw(…)` call is taken for a terminal's when it has one argument that is not a
//! reference (`Canvas` contexts draw `&shape`) and its receiver is not `self` (an app's
//! own `fn draw(&self, frame)`); draws inside its argument are left alone.

use proc_macro2::{Span, TokenStream};
use quote::ToTokens;
use syn::punctuated::Punctuated;
use syn::spanned::Spanned;
use syn::visit_mut::{self, VisitMut};
use syn::{Block, Expr, ExprCall, ExprLit, ExprMethodCall, Item, Lit, Pat, Token, Type};

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
#[derive(Default, Debug)]
pub(crate) struct Found {
    /// Terminal draws rewritten.
    pub(crate) draws: usize,
    /// Drains placed (not counting those after reads).
    pub(crate) drains: usize,
    /// The first place a drain was needed where there is no app to lend.
    pub(crate) missing: Option<Missing>,
    /// Drains of the app's own (`taria::drain_with(…)`) among `drains`.
    pub(crate) own: usize,
    /// Where the attribute placed a drain with no handlers (`&mut ()`), the first: with
    /// drains of the app's own elsewhere, its handlers would miss that loop's inputs.
    pub(crate) without_handlers: Option<Span>,
    /// What is wrong with the closure handlers given to those drains (a pattern
    /// `#[action(node = …)]` would not take, a `Key` with no wildcard to come from).
    pub(crate) handler_errors: Vec<syn::Error>,
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
        own_outside_loops: false,
        in_draw: 0,
        owed: None,
        read_in_stmt: false,
        unit_block: false,
        after_reads: Vec::new(),
        found: Found::default(),
    };
    rewriter.visit_block_mut(block);
    let after_reads: Vec<bool> = if rewriter.found.own > 0 {
        // The app drains with handlers of its own: a drain after a read would run its
        // actions without them.
        vec![false; rewriter.after_reads.len()]
    } else {
        rewriter
            .after_reads
            .iter()
            .map(|keep| *keep == Some(true))
            .collect()
    };
    PlaceAfterReads {
        keep: &after_reads,
        app: rewrite.app,
    }
    .visit_block_mut(block);
    rewriter.found
}

struct Rewriter<'a> {
    rewrite: &'a Rewrite<'a>,
    /// For each enclosing loop, whether its body holds what anchors a drain, and
    /// whether it holds a drain of the app's own (`taria::drain_with(…)`).
    loops: Vec<LoopSeen>,
    /// Whether a drain of the app's own was met outside any loop (the draws after it
    /// with no loop around them need no other).
    own_outside_loops: bool,
    /// How deep we are inside the argument of a rewritten draw.
    in_draw: usize,
    /// A drain owed before the statement being visited (an anchor with no loop around
    /// it). A statement of its own, not part of the anchor's expression: there it
    /// would borrow the app inside a call whose receiver has it borrowed already
    /// (`self.state.on(event::read()?)`).
    owed: Option<Expr>,
    /// Whether an event read was rewritten in the statement being visited (and not in
    /// a statement of a block inside it, which has its own drain after it).
    read_in_stmt: bool,
    /// Whether the block about to be visited has the type `()` (a loop's body, the
    /// block of an `if` without `else`), so a statement may follow its last.
    unit_block: bool,
    /// For each drain-after-read marker placed (numbered in order), whether it
    /// becomes a drain: its loop drains, or it is in a method lending the app
    /// (`None` until its innermost loop is seen whole).
    after_reads: Vec<Option<bool>>,
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
        if app.to_string() == "& mut ()" {
            self.found.without_handlers.get_or_insert(span);
        }
        let label = self.rewrite.label;
        Some(syn::parse_quote_spanned! {span=>
            ::taria::__private::app_drain(#label, #app)
        })
    }

    /// Notes an anchor: its innermost loop drains, else (a draw) it drains itself.
    fn anchor_in_loop(&mut self) -> bool {
        match self.loops.last_mut() {
            Some(seen) => {
                seen.anchored = true;
                true
            }
            None => false,
        }
    }

    /// Visits a loop body; if it holds an anchor and no drain of the app's own,
    /// starts it with a drain.
    fn visit_loop_body(&mut self, body: &mut Block, keyword: Span) {
        self.loops.push(LoopSeen {
            first_after_read: self.after_reads.len(),
            ..LoopSeen::default()
        });
        self.unit_block = true;
        self.visit_block_mut(body);
        let seen = self.loops.pop().unwrap_or_default();
        // The reads of this loop's own (not of a loop inside it, which decided for
        // its own) drain after them when a frame is drawn before the loop waits again.
        let drains_around = (seen.anchored || seen.inner_anchored) && !seen.own_drain;
        for keep in &mut self.after_reads[seen.first_after_read..] {
            keep.get_or_insert(drains_around && self.rewrite.app.is_some());
        }
        if let Some(outer) = self.loops.last_mut() {
            outer.inner_anchored |= seen.anchored || seen.inner_anchored;
        }
        if seen.anchored
            && !seen.own_drain
            && let Some(drain) = self.drain(keyword, Missing::Loop)
        {
            body.stmts
                .insert(0, syn::parse_quote_spanned! {keyword=> #drain; });
        }
    }

    /// A marker for a drain after the statement just visited, which read events;
    /// whether it becomes one is decided by its loop ([`Rewriter::visit_loop_body`]),
    /// or here with no loop around it: where the app is lent (a method of the app).
    fn after_read_marker(&mut self) -> syn::Stmt {
        let keep = self.loops.is_empty().then(|| {
            self.rewrite
                .app
                .is_some_and(|app| app.to_string() != "& mut ()")
        });
        let index = self.after_reads.len();
        self.after_reads.push(keep);
        let marker = AfterReadMarker(index);
        syn::Stmt::Expr(
            Expr::Verbatim(marker.tokens()),
            Some(Token![;](Span::call_site())),
        )
    }

    /// An anchor with no loop around it: a drain before its statement, unless the
    /// app drains there itself.
    fn owe_drain(&mut self, span: Span, missing: Missing) {
        if self.owed.is_none() && !self.own_outside_loops {
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
            Expr::Call(call) if own_drain(call).is_some() => {
                visit_mut::visit_expr_call_mut(self, call);
                if let Some(handlers) = call.args.first() {
                    check_chain(handlers, &mut self.found.handler_errors);
                }
                if let Some(app) = self.rewrite.app
                    && app.to_string() != "& mut ()"
                    && own_drain(call).is_some_and(|drain| drain == "app_drain_with")
                {
                    self.found.handler_errors.push(syn::Error::new_spanned(
                        &call.func,
                        "this drain of the app's own takes the place of the one `#[taria::app]` \
                         puts here, which runs the app's `#[action]` methods (`self`, or \
                         `handlers = …`): they would not run in this loop. Closure handlers are \
                         for state in local variables; for an app value, write an `#[action]` \
                         method instead",
                    ));
                }
                if let Some(drain) = own_drain(call) {
                    let (span, label) = (call.func.span(), self.rewrite.label);
                    let args = match call.args.first().and_then(lazy_chain) {
                        Some(lazy) => lazy,
                        None => call.args.to_token_stream(),
                    };
                    let private: Expr = syn::parse_quote_spanned! {span=>
                        ::taria::__private::#drain
                    };
                    *expr = syn::parse_quote_spanned! {span=> #private(#label, #args) };
                    self.found.drains += 1;
                    self.found.own += 1;
                    match self.loops.last_mut() {
                        Some(seen) => seen.own_drain = true,
                        None => self.own_outside_loops = true,
                    }
                }
            }
            Expr::Call(call) => {
                visit_mut::visit_expr_call_mut(self, call);
                if let Some((read, waits)) = event_call(call) {
                    let span = read.span();
                    *expr = read;
                    self.read_in_stmt |= waits == Wait::Read;
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
                // A read in the loop's condition: the body is what follows it, and its
                // own drain (if the loop draws) comes first there.
                self.read_in_stmt = false;
                let keyword = w.while_token.span;
                self.visit_loop_body(&mut w.body, keyword);
            }
            Expr::ForLoop(f) => {
                self.visit_expr_mut(&mut f.expr);
                self.read_in_stmt = false;
                let keyword = f.for_token.span;
                self.visit_loop_body(&mut f.body, keyword);
            }
            Expr::If(i) if i.else_branch.is_none() => {
                self.visit_expr_mut(&mut i.cond);
                self.unit_block = true;
                self.visit_block_mut(&mut i.then_branch);
            }
            _ => visit_mut::visit_expr_mut(self, expr),
        }
    }

    /// Each statement that owes a drain gets it just before it; each that read
    /// events, a marker for a drain after it (unless it is the block's value).
    fn visit_block_mut(&mut self, block: &mut Block) {
        let outer = self.owed.take();
        let unit = std::mem::take(&mut self.unit_block);
        let outer_read = std::mem::take(&mut self.read_in_stmt);
        let mut i = 0;
        while i < block.stmts.len() {
            self.read_in_stmt = false;
            self.visit_stmt_mut(&mut block.stmts[i]);
            let is_value = i + 1 == block.stmts.len()
                && matches!(block.stmts[i], syn::Stmt::Expr(_, None))
                && !unit;
            if std::mem::take(&mut self.read_in_stmt) && !is_value {
                // No longer the block's last: an expression that is not a block needs
                // its semicolon (the block's type is `()`, so it was one).
                if let syn::Stmt::Expr(expr, semi @ None) = &mut block.stmts[i]
                    && !is_block_like(expr)
                {
                    *semi = Some(Token![;](expr.span()));
                }
                let marker = self.after_read_marker();
                block.stmts.insert(i + 1, marker);
            }
            if let Some(drain) = self.owed.take() {
                block.stmts.insert(i, syn::parse_quote! { #drain; });
                i += 1;
            }
            i += 1;
        }
        self.read_in_stmt = outer_read;
        self.owed = outer;
    }

    fn visit_stmt_mut(&mut self, stmt: &mut syn::Stmt) {
        visit_mut::visit_stmt_mut(self, stmt);
        crate::text_renders::allow_semicolon(stmt);
    }

    /// Items nested in a body are not the app's code: leave them alone.
    fn visit_item_mut(&mut self, _: &mut Item) {}
}

/// What a loop's body held, for its drain.
#[derive(Clone, Copy, Default)]
struct LoopSeen {
    /// A draw (or, anchored by reads, an event read).
    anchored: bool,
    /// A loop inside it that is anchored: its turns draw.
    inner_anchored: bool,
    /// A drain of the app's own, `taria::drain_with(…)`.
    own_drain: bool,
    /// The first drain-after-read marker placed in it.
    first_after_read: usize,
}

/// A statement standing for a drain after a read until the whole body is seen.
struct AfterReadMarker(usize);

impl AfterReadMarker {
    const NAME: &'static str = "__taria_after_read_marker";

    fn tokens(&self) -> TokenStream {
        let name = proc_macro2::Ident::new(Self::NAME, Span::call_site());
        let index = proc_macro2::Literal::usize_unsuffixed(self.0);
        quote::quote! { #name #index }
    }

    /// The marker's number, if `stmt` is one.
    fn of(stmt: &syn::Stmt) -> Option<usize> {
        let syn::Stmt::Expr(Expr::Verbatim(tokens), _) = stmt else {
            return None;
        };
        let mut tokens = tokens.clone().into_iter();
        match (tokens.next(), tokens.next(), tokens.next()) {
            (
                Some(proc_macro2::TokenTree::Ident(name)),
                Some(proc_macro2::TokenTree::Literal(index)),
                None,
            ) if name == Self::NAME => index.to_string().parse().ok(),
            _ => None,
        }
    }
}

/// Turns each marker into its drain, or takes it out.
struct PlaceAfterReads<'a> {
    keep: &'a [bool],
    app: Option<&'a TokenStream>,
}

impl VisitMut for PlaceAfterReads<'_> {
    fn visit_block_mut(&mut self, block: &mut Block) {
        let stmts = std::mem::take(&mut block.stmts);
        for mut stmt in stmts {
            if let Some(index) = AfterReadMarker::of(&stmt) {
                if let (Some(true), Some(app)) = (self.keep.get(index), self.app) {
                    block.stmts.push(syn::parse_quote! {
                        ::taria::__private::app_drain_after_read(#app);
                    });
                }
            } else {
                self.visit_stmt_mut(&mut stmt);
                block.stmts.push(stmt);
            }
        }
    }

    fn visit_item_mut(&mut self, _: &mut Item) {}
}

/// The drain a call of the app's own becomes, when `call` is one:
/// `taria::drain_with(…)` → `app_drain_with`, `taria::drain(…)` → `app_drain`.
fn own_drain(call: &ExprCall) -> Option<proc_macro2::Ident> {
    let Expr::Path(path) = &*call.func else {
        return None;
    };
    let segments: Vec<_> = path.path.segments.iter().collect();
    let [taria, function] = segments[..] else {
        return None;
    };
    if path.qself.is_some()
        || taria.ident != "taria"
        || !taria.arguments.is_none()
        || !function.arguments.is_none()
        || call.args.len() != 1
    {
        return None;
    }
    let span = function.ident.span();
    match function.ident.to_string().as_str() {
        "drain_with" => Some(proc_macro2::Ident::new("app_drain_with", span)),
        "drain" => Some(proc_macro2::Ident::new("app_drain", span)),
        _ => None,
    }
}

/// Checks the closure handlers of a `taria::on(…).on(…)` chain given to a drain of
/// the app's own, where their patterns are literals, as `#[action(node = …)]` is
/// checked: the pattern is one the runtime can match, and a closure taking a
/// `Key<…>` has a wildcard for it to come from.
fn check_chain(expr: &Expr, errors: &mut Vec<syn::Error>) {
    match expr {
        Expr::MethodCall(call) if call.method == "on" || call.method == "on_invocation" => {
            check_link(&call.args, errors);
            check_chain(&call.receiver, errors);
        }
        Expr::Call(call) if is_taria_on(call) => check_link(&call.args, errors),
        Expr::Paren(inner) => check_chain(&inner.expr, errors),
        Expr::Reference(inner) => check_chain(&inner.expr, errors),
        _ => {}
    }
}

/// A `taria::on(p, a, c).on(…)…` chain written out in the drain, as one closure that
/// makes each handler closure only when its turn comes: then two of them may borrow
/// the same local mutably (`marked` for `toggle` and for `select`), which closures
/// stored side by side in a chain may not. `None` for anything else (a chain built
/// elsewhere and passed by name stays as it is).
fn lazy_chain(expr: &Expr) -> Option<TokenStream> {
    let mut links = Vec::new();
    let mut at = expr;
    loop {
        match at {
            Expr::MethodCall(call)
                if (call.method == "on" || call.method == "on_invocation")
                    && call.args.len() == 3
                    && call.turbofish.is_none() =>
            {
                let whole = call.method == "on_invocation";
                links.push((whole, &call.args, call.method.span()));
                at = &call.receiver;
            }
            Expr::Call(call) if is_taria_on(call) && call.args.len() == 3 => {
                links.push((false, &call.args, call.func.span()));
                break;
            }
            Expr::Paren(inner) => at = &inner.expr,
            _ => return None,
        }
    }
    let inv = quote::format_ident!("__taria_inv");
    let refusals = quote::format_ident!("__taria_refusals");
    let tries = links.iter().rev().map(|(whole, args, span)| {
        let try_fn = if *whole {
            quote::format_ident!("try_on_invocation", span = *span)
        } else {
            quote::format_ident!("try_on", span = *span)
        };
        let args = args.iter();
        quote::quote_spanned! {*span=>
            if let ::core::option::Option::Some(__taria_outcome) =
                ::taria::__private::#try_fn(#(#args,)* #inv, #refusals)
            {
                return ::core::option::Option::Some(__taria_outcome);
            }
        }
    });
    Some(quote::quote_spanned! {expr.span()=>
        ::taria::__private::lazy_handlers(
            |#inv: &::taria::Invocation<'_>, #refusals: &mut ::taria::__private::Refusals| {
                #(#tries)*
                ::core::option::Option::None
            },
        )
    })
}

/// `taria::on(…)` (or `::taria::on(…)`).
fn is_taria_on(call: &ExprCall) -> bool {
    let Expr::Path(path) = &*call.func else {
        return false;
    };
    let segments: Vec<_> = path.path.segments.iter().map(|s| &s.ident).collect();
    path.qself.is_none() && matches!(segments[..], [taria, on] if taria == "taria" && on == "on")
}

/// One link's pattern and closure (`pattern, action, closure`).
fn check_link(args: &Punctuated<Expr, Token![,]>, errors: &mut Vec<syn::Error>) {
    let (Some(pattern), Some(handler)) = (args.first(), args.iter().nth(2)) else {
        return;
    };
    let Expr::Lit(ExprLit {
        lit: Lit::Str(lit), ..
    }) = pattern
    else {
        return;
    };
    match crate::actions::handler::check_pattern(lit) {
        Err(error) => errors.push(error),
        Ok(true) => {}
        Ok(false) => {
            let Expr::Closure(closure) = handler else {
                return;
            };
            for input in closure.inputs.iter().filter(|input| takes_key(input)) {
                errors.push(syn::Error::new_spanned(
                    input,
                    format!(
                        "`{}` has no `*` or `**`, so this closure's `Key` has nothing to come \
                         from: give the pattern a wildcard (`\"tasks/*\"`), or take no key",
                        lit.value()
                    ),
                ));
            }
        }
    }
}

/// Whether a closure's parameter is typed `Key<…>` (`taria::Key<…>`).
fn takes_key(input: &Pat) -> bool {
    let Pat::Type(typed) = input else {
        return false;
    };
    let Type::Path(path) = &*typed.ty else {
        return false;
    };
    path.path.segments.last().is_some_and(|s| s.ident == "Key")
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

/// Whether `expr` may stand as a statement without a semicolon before another.
fn is_block_like(expr: &Expr) -> bool {
    matches!(
        expr,
        Expr::If(_)
            | Expr::Match(_)
            | Expr::Block(_)
            | Expr::Loop(_)
            | Expr::While(_)
            | Expr::ForLoop(_)
            | Expr::Unsafe(_)
            | Expr::Const(_)
            | Expr::TryBlock(_)
    )
}

/// Which event wait a call is.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Wait {
    Read,
    Poll,
}

/// `…event::read()` → `::taria::event::read()`, `…event::poll(t)` → `::taria::event::poll(t)`.
fn event_call(call: &ExprCall) -> Option<(Expr, Wait)> {
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
        ("read", 0) => Some((
            syn::parse_quote_spanned! {span=>
                (#original, ::taria::event::read()).1
            },
            Wait::Read,
        )),
        ("poll", 1) => {
            let timeout = &call.args[0];
            Some((
                syn::parse_quote_spanned! {span=>
                    (#original, ::taria::event::poll(#timeout)).1
                },
                Wait::Poll,
            ))
        }
        _ => None,
    }
}
