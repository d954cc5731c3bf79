//! The loop rewrite of `#[taria::app]`, on every method body of the impl block:
//!
//! * `<terminal>.draw(<f>)` → `::taria::__private::app_draw(<label>, || <terminal>.draw(<f>))`
//!   (the frame is recorded when an agent is attached);
//! * `…event::read()` → `::taria::event::read()`, `…event::poll(t)` →
//!   `::taria::event::poll(t)` (input waits also wake for agent requests);
//! * the innermost `loop` / `while` / `for` around each rewritten draw starts with
//!   `::taria::drain(&mut *self);` (pending agent actions run before each frame).
//!
//! A `.draw(…)` call is taken for a terminal's when it has one argument that is not a
//! reference (`Canvas` contexts draw `&shape`) and its receiver is not `self` (an app's
//! own `fn draw(&self, frame)`); draws inside its argument are left alone.

use proc_macro2::{Span, TokenStream};
use quote::{ToTokens, quote};
use syn::spanned::Spanned;
use syn::visit_mut::{self, VisitMut};
use syn::{Block, Expr, ExprCall, ExprMethodCall, FnArg, ImplItem, ImplItemFn, Item, ItemImpl};

use crate::actions::handler::{is_mut_ref_self, is_self_type};
use crate::errors::Errors;

/// Rewrites every method of `imp`; `label` is the app label expression.
pub(crate) fn rewrite_impl(imp: &mut ItemImpl, label: &TokenStream, errors: &mut Errors) {
    for item in &mut imp.items {
        if let ImplItem::Fn(method) = item {
            rewrite_method(method, label, errors);
        }
    }
}

fn rewrite_method(method: &mut ImplItemFn, label: &TokenStream, errors: &mut Errors) {
    let mut rewriter = Rewriter {
        label,
        app: mutable_self(method),
        loops: Vec::new(),
        in_draw: 0,
        loop_without_mut_self: false,
    };
    rewriter.visit_block_mut(&mut method.block);
    if rewriter.loop_without_mut_self {
        let name = &method.sig.ident;
        let at = match method.sig.inputs.first() {
            Some(receiver @ FnArg::Receiver(_)) => receiver.to_token_stream(),
            _ => name.to_token_stream(),
        };
        errors.push(syn::Error::new_spanned(
            at,
            format!(
                "`{name}` draws frames in a loop, where `#[taria::app]` runs pending agent actions \
                 before each frame; that changes the app, so the run loop must be a method taking \
                 `&mut self` or `mut self`"
            ),
        ));
    }
}

/// How to borrow the app mutably in `method`: `&mut *self`, `&mut self`, or not at all.
fn mutable_self(method: &ImplItemFn) -> Option<TokenStream> {
    match method.sig.inputs.first() {
        Some(FnArg::Receiver(r)) if is_mut_ref_self(&r.ty) => Some(quote! { &mut *self }),
        Some(FnArg::Receiver(r))
            if r.reference.is_none() && r.mutability.is_some() && is_self_type(&r.ty) =>
        {
            Some(quote! { &mut self })
        }
        _ => None,
    }
}

struct Rewriter<'a> {
    label: &'a TokenStream,
    /// `&mut *self` or `&mut self`, when the method can lend the app mutably.
    app: Option<TokenStream>,
    /// For each enclosing loop, whether its body holds a rewritten draw.
    loops: Vec<bool>,
    /// How deep we are inside the argument of a rewritten draw.
    in_draw: usize,
    /// A loop needs a drain but the method has no mutable `self`.
    loop_without_mut_self: bool,
}

impl Rewriter<'_> {
    /// Visits a loop body; if it draws, starts it with a drain.
    fn visit_loop_body(&mut self, body: &mut Block, keyword: Span) {
        self.loops.push(false);
        self.visit_block_mut(body);
        if self.loops.pop() == Some(true) {
            match &self.app {
                Some(app) => body.stmts.insert(
                    0,
                    syn::parse_quote_spanned! {keyword=> ::taria::drain(#app); },
                ),
                None => self.loop_without_mut_self = true,
            }
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
        let span = call.method.span();
        let label = self.label;
        let original = std::mem::replace(expr, Expr::Verbatim(TokenStream::new()));
        *expr = syn::parse_quote_spanned! {span=>
            ::taria::__private::app_draw(#label, || #original)
        };
        if let Some(draws) = self.loops.last_mut() {
            *draws = true;
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
                if let Some(replacement) = event_call(call) {
                    *expr = replacement;
                }
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

    /// Items nested in a method body are not the app's methods: leave them alone.
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

#[cfg(test)]
mod tests {
    use proc_macro2::TokenStream;
    use quote::{ToTokens, quote};
    use syn::ItemImpl;

    use super::rewrite_impl;
    use crate::errors::Errors;

    fn rewrite(item: TokenStream) -> (String, Option<String>) {
        let mut imp: ItemImpl = syn::parse2(item).expect("an impl block");
        let mut errors = Errors::default();
        rewrite_impl(&mut imp, &quote! { "app" }, &mut errors);
        (
            imp.into_token_stream().to_string(),
            errors.finish(()).err().map(|e| e.to_string()),
        )
    }

    fn expected(item: TokenStream) -> String {
        syn::parse2::<ItemImpl>(item)
            .expect("an impl block")
            .into_token_stream()
            .to_string()
    }

    #[test]
    fn the_standard_ratatui_loop_records_drains_and_reads_through_taria() {
        let (out, errors) = rewrite(quote! {
            impl App {
                pub fn run(&mut self, terminal: &mut DefaultTerminal) -> io::Result<()> {
                    while !self.exit {
                        terminal.draw(|frame| self.draw(frame))?;
                        self.handle_events()?;
                    }
                    Ok(())
                }
                fn draw(&self, frame: &mut Frame) {
                    frame.render_widget(self, frame.area());
                }
                fn handle_events(&mut self) -> io::Result<()> {
                    if event::poll(Duration::from_millis(250))? {
                        match crossterm::event::read()? {
                            Event::Key(key) => self.on_key(key),
                            _ => {}
                        }
                    }
                    event::read()?;
                    let _ = ratatui::crossterm::event::read();
                    Ok(())
                }
            }
        });
        assert_eq!(errors, None);
        assert_eq!(
            out,
            expected(quote! {
                impl App {
                    pub fn run(&mut self, terminal: &mut DefaultTerminal) -> io::Result<()> {
                        while !self.exit {
                            ::taria::drain(&mut *self);
                            ::taria::__private::app_draw("app", || terminal.draw(|frame| self.draw(frame)))?;
                            self.handle_events()?;
                        }
                        Ok(())
                    }
                    fn draw(&self, frame: &mut Frame) {
                        frame.render_widget(self, frame.area());
                    }
                    fn handle_events(&mut self) -> io::Result<()> {
                        if (event::poll, ::taria::event::poll(Duration::from_millis(250))).1? {
                            match (crossterm::event::read, ::taria::event::read()).1? {
                                Event::Key(key) => self.on_key(key),
                                _ => {}
                            }
                        }
                        (event::read, ::taria::event::read()).1?;
                        let _ = (ratatui::crossterm::event::read, ::taria::event::read()).1;
                        Ok(())
                    }
                }
            })
        );
    }

    #[test]
    fn an_owned_app_is_lent_and_only_the_innermost_drawing_loop_drains() {
        let (out, errors) = rewrite(quote! {
            impl App {
                fn run(mut self, mut terminal: DefaultTerminal) -> Result<()> {
                    loop {
                        for _ in 0..2 {
                            self.terminal.draw(render)?;
                        }
                        let _ = event::read()?;
                        if self.quit { break Ok(()); }
                    }
                }
            }
        });
        assert_eq!(errors, None);
        assert_eq!(
            out,
            expected(quote! {
                impl App {
                    fn run(mut self, mut terminal: DefaultTerminal) -> Result<()> {
                        loop {
                            for _ in 0..2 {
                                ::taria::drain(&mut self);
                                ::taria::__private::app_draw("app", || self.terminal.draw(render))?;
                            }
                            let _ = (event::read, ::taria::event::read()).1?;
                            if self.quit { break Ok(()); }
                        }
                    }
                }
            })
        );
    }

    #[test]
    fn other_draws_and_calls_are_left_alone() {
        let source = quote! {
            impl App {
                fn paint(&mut self, ctx: &mut Context, shapes: &[Line]) {
                    for shape in shapes {
                        ctx.draw(&shape);
                        self.draw(ctx);
                        pen.draw();
                    }
                    let _ = read();
                    let _ = event::read(1);
                    let _ = event::poll();
                    let _ = other::read();
                    fn nested(t: &mut Terminal) { loop { t.draw(|f| ()); } }
                }
            }
        };
        let (out, errors) = rewrite(source.clone());
        assert_eq!(errors, None);
        assert_eq!(out, expected(source));
    }

    #[test]
    fn a_draw_inside_a_draw_is_wrapped_once() {
        let (out, _) = rewrite(quote! {
            impl App {
                fn once(&self, t: &mut T, u: &mut T) {
                    t.draw(|f| { u.draw(|g| ()); })
                }
            }
        });
        assert_eq!(out.matches("app_draw").count(), 1, "{out}");
    }

    #[test]
    fn a_drawing_loop_needs_a_mutable_self() {
        let (out, errors) = rewrite(quote! {
            impl App {
                fn run(&self, terminal: &mut DefaultTerminal) {
                    loop { terminal.draw(|f| self.draw(f)).ok(); }
                }
                fn show(&self, terminal: &mut DefaultTerminal) {
                    terminal.draw(|f| self.draw(f)).ok();
                }
            }
        });
        let errors = errors.expect("an error");
        assert!(errors.contains("`run` draws frames in a loop"), "{errors}");
        assert!(errors.contains("`&mut self` or `mut self`"), "{errors}");
        assert!(!out.contains("drain"), "{out}");
        assert_eq!(out.matches("app_draw").count(), 2, "{out}");
    }
}
