use proc_macro2::TokenStream;
use quote::{ToTokens, quote};

use super::app;

/// The attribute's output for `item` (`label = "app"`): its first item (the rewritten
/// impl block or function), and the errors, if any.
fn rewrite(item: TokenStream) -> (String, Option<String>) {
    rewrite_with(quote! { label = "app" }, item)
}

fn rewrite_with(args: TokenStream, item: TokenStream) -> (String, Option<String>) {
    let out = app(args, item);
    let file: syn::File = syn::parse2(out).expect("items");
    let errors: Vec<String> = file
        .items
        .iter()
        .filter_map(|item| match item {
            syn::Item::Macro(m)
                if m.mac
                    .path
                    .segments
                    .last()
                    .is_some_and(|s| s.ident == "compile_error") =>
            {
                Some(m.mac.tokens.to_string())
            }
            _ => None,
        })
        .collect();
    let first = file.items[0].to_token_stream().to_string();
    (first, (!errors.is_empty()).then(|| errors.join("\n")))
}

/// Asserts the attribute (`args`) rewrites `item` without errors into code holding
/// `needle`.
fn assert_rewritten(args: TokenStream, item: TokenStream, needle: &str) {
    let (out, errors) = rewrite_with(args, item);
    assert_eq!(errors, None);
    assert!(out.contains(needle), "{needle}\nnot in\n{out}");
}

fn expected(item: TokenStream) -> String {
    syn::parse2::<syn::Item>(item)
        .expect("an item")
        .into_token_stream()
        .to_string()
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
    assert!(
        out.contains(
            "while ! self . exit { :: taria :: __private :: app_drain (\"todo\" , & mut * self) ; \
             :: taria :: __private :: app_draw (\"todo\" , | __taria_frame_end | terminal . draw (:: taria :: __private :: render_then_end (__taria_frame_end , | f | self . draw (f)))) ? ;"
        ),
        "{out}"
    );
    assert!(out.contains("impl :: taria :: Actions for App"), "{out}");
    assert!(!out.contains("compile_error"), "{out}");
}

#[test]
fn without_a_label_the_binary_name_is_used() {
    let out = app(
        quote! {},
        quote! { impl App { fn once(&mut self, t: &mut T) { t.draw(|f| ()); } } },
    )
    .to_string();
    assert!(
        out.contains("app_draw (match :: core :: option_env ! (\"CARGO_BIN_NAME\")"),
        "{out}"
    );
}

#[test]
fn a_bad_label_still_rewrites_and_reports() {
    let out = app(
        quote! { label = "my app" },
        quote! { impl App { fn run(&mut self, t: &mut T) { loop { t.draw(|f| ()); } } } },
    )
    .to_string();
    assert!(out.contains("impl :: taria :: Actions for App"), "{out}");
    assert!(out.contains("app_drain"), "{out}");
    assert!(out.contains("not a valid app label"), "{out}");
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
                        ::taria::__private::app_drain("app", &mut *self);
                        ::taria::__private::app_draw("app", |__taria_frame_end| terminal.draw(::taria::__private::render_then_end(__taria_frame_end, |frame| self.draw(frame))))?;
                        self.handle_events()?;
                    }
                    Ok(())
                }
                fn draw(&self, frame: &mut Frame) {
                    // Bare text rendered as a widget records a text node.
                    #[allow(clippy::unnecessary_semicolon)]
                    match (self, frame.area()) {
                        (__taria_widget, __taria_area) => {
                            {
                                #[allow(unused_imports)]
                                use ::taria::__private::{ViaBareText as _, ViaWidget as _};
                                (&::taria::__private::WidgetProbe(&__taria_widget)).taria_text_node(&__taria_area);
                            }
                            frame.render_widget(__taria_widget, __taria_area)
                        }
                    };
                }
                fn handle_events(&mut self) -> io::Result<()> {
                    if (event::poll, ::taria::event::poll(Duration::from_millis(250))).1? {
                        match (crossterm::event::read, ::taria::event::read()).1? {
                            Event::Key(key) => self.on_key(key),
                            _ => {}
                        }
                        ::taria::__private::app_drain_after_read(&mut *self);
                    }
                    (event::read, ::taria::event::read()).1?;
                    ::taria::__private::app_drain_after_read(&mut *self);
                    let _ = (ratatui::crossterm::event::read, ::taria::event::read()).1;
                    ::taria::__private::app_drain_after_read(&mut *self);
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
                            ::taria::__private::app_drain("app", &mut self);
                            ::taria::__private::app_draw("app", |__taria_frame_end| self.terminal.draw(::taria::__private::render_then_end(__taria_frame_end, render)))?;
                        }
                        let _ = (event::read, ::taria::event::read()).1?;
                        ::taria::__private::app_drain_after_read(&mut self);
                        if self.quit { break Ok(()); }
                    }
                }
            }
        })
    );
}

#[test]
fn other_draws_and_calls_are_left_alone() {
    let body = quote! {
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
    };
    let (out, errors) = rewrite(quote! { impl App { #body } });
    assert_eq!(out, expected(quote! { impl App { #body } }));
    let errors = errors.expect("nothing to rewrite is an error");
    assert!(
        errors.contains("none of this impl block's methods draws a frame"),
        "{errors}"
    );
}

#[test]
fn a_draw_inside_a_draw_is_wrapped_once() {
    let (out, _) = rewrite(quote! {
        impl App {
            fn once(&mut self, t: &mut T, u: &mut T) {
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

#[test]
fn a_draw_with_no_loop_around_it_drains_in_the_statement_before_it() {
    assert_rewritten(
        quote! { label = "app" },
        quote! {
            impl App {
                fn run(&mut self, terminal: &mut DefaultTerminal) -> io::Result<()> {
                    while !self.exit {
                        self.render(terminal)?;
                        self.handle_events()?;
                    }
                    Ok(())
                }
                fn render(&mut self, terminal: &mut DefaultTerminal) -> io::Result<()> {
                    terminal.draw(|f| self.draw(f))?;
                    Ok(())
                }
            }
        },
        "{ :: taria :: __private :: app_drain (\"app\" , & mut * self) ; \
         :: taria :: __private :: app_draw (\"app\" , | __taria_frame_end | terminal . draw (:: taria :: __private :: render_then_end (__taria_frame_end , | f | self . draw (f)))) ? ;",
    );
}

#[test]
fn a_read_in_a_call_on_the_app_drains_in_the_statement_before_it() {
    // Inside the call, `&mut *self` would be a second borrow of what the receiver
    // `self.state` holds.
    assert_rewritten(
        quote! { label = "app" },
        quote! {
            impl App {
                fn render(&self, terminal: &mut DefaultTerminal) {
                    terminal.draw(|f| self.draw(f)).ok();
                }
                fn handle_events(&mut self) -> io::Result<()> {
                    self.state.on(&event::read()?);
                    Ok(())
                }
            }
        },
        "{ :: taria :: __private :: app_drain (\"app\" , & mut * self) ; \
         self . state . on (& (event :: read , :: taria :: event :: read ()) . 1 ?) ;",
    );
}

#[test]
fn a_draw_in_a_shared_self_method_drains_at_the_loop_s_reads_instead() {
    // The loop's method reads through a helper, the frame is drawn in a `&self`
    // method: the helper's read is where the loop turns, so the drain goes there.
    let (out, errors) = rewrite(quote! {
        impl App {
            fn run(&mut self, terminal: &mut DefaultTerminal) -> io::Result<()> {
                while !self.exit {
                    self.render(terminal)?;
                    self.handle_events()?;
                }
                Ok(())
            }
            fn render(&self, terminal: &mut DefaultTerminal) -> io::Result<()> {
                terminal.draw(|f| self.draw(f))?;
                Ok(())
            }
            fn handle_events(&mut self) -> io::Result<()> {
                if let Event::Key(key) = event::read()? { self.on_key(key); }
                Ok(())
            }
        }
    });
    assert_eq!(errors, None);
    assert_eq!(out.matches("app_drain (").count(), 1, "{out}");
    assert!(
        out.contains(
            "{ self . on_key (key) ; } :: taria :: __private :: app_drain_after_read (& mut * self) ; Ok (()) }"
        ),
        "the read drains after it: {out}"
    );
    assert!(
        out.contains("app_draw (\"app\" , | __taria_frame_end | terminal . draw"),
        "the draw is still recorded: {out}"
    );
}

#[test]
fn a_draw_in_a_shared_self_method_with_the_loop_elsewhere_is_an_error() {
    let (out, errors) = rewrite(quote! {
        impl TypingTest {
            fn render(&self, terminal: &mut DefaultTerminal) -> io::Result<()> {
                terminal.draw(|f| self.draw(f))?;
                Ok(())
            }
        }
    });
    let errors = errors.expect("an error");
    assert!(
        errors.contains("`render` draws a frame with no loop around it and takes `&self`"),
        "{errors}"
    );
    assert!(errors.contains("taria::draw(terminal"), "{errors}");
    assert!(out.contains("app_draw"), "{out}");
}

#[test]
fn handlers_are_for_functions() {
    let (_, errors) = rewrite_with(
        quote! { handlers = app },
        quote! { impl App { fn run(&mut self, t: &mut T) { loop { t.draw(|f| ()); } } } },
    );
    let errors = errors.expect("an error");
    assert!(
        errors.contains("`handlers` is for `#[taria::app]` on a function"),
        "{errors}"
    );
    let (_, errors) = rewrite_with(
        quote! { handlers = app },
        quote! { fn run(&mut self, t: &mut T) { loop { t.draw(|f| ()); } } },
    );
    let errors = errors.expect("an error");
    assert!(errors.contains("in `run` the app is `self`"), "{errors}");
}

#[test]
fn an_app_attribute_on_a_method_of_an_app_impl_is_reported_and_removed() {
    let (out, errors) = rewrite(quote! {
        impl App {
            #[taria::app]
            fn run(&mut self, t: &mut T) { loop { t.draw(|f| ()); } }
        }
    });
    let errors = errors.expect("an error");
    assert!(errors.contains("already covers this method"), "{errors}");
    assert!(!out.contains("# [taria :: app]"), "{out}");
}

#[test]
fn a_ratatui_run_closure_in_main_is_rewritten_with_no_handlers() {
    let (out, errors) = rewrite(quote! {
        fn main() -> io::Result<()> {
            let mut on = false;
            ratatui::run(|terminal| loop {
                terminal.draw(|frame| render(frame, on))?;
                if let Event::Key(_) = event::read()? { on = !on; }
            })
        }
    });
    assert_eq!(errors, None);
    assert_eq!(
        out,
        expected(quote! {
            fn main() -> io::Result<()> {
                let mut on = false;
                ratatui::run(|terminal| loop {
                    ::taria::__private::app_drain("app", &mut ());
                    ::taria::__private::app_draw("app", |__taria_frame_end| terminal.draw(::taria::__private::render_then_end(__taria_frame_end, |frame| render(frame, on))))?;
                    if let Event::Key(_) = (event::read, ::taria::event::read()).1? { on = !on; }
                    ::taria::__private::app_drain_after_read(&mut ());
                })
            }
        })
    );
}

#[test]
fn a_function_lends_its_handlers_value() {
    assert_rewritten(
        quote! { label = "app", handlers = app },
        quote! {
            fn run(terminal: &mut DefaultTerminal, app: &mut App) -> io::Result<()> {
                while !app.exit {
                    terminal.draw(|frame| app.draw(frame))?;
                    app.on(event::read()?);
                }
                Ok(())
            }
        },
        "app_drain (\"app\" , { use :: taria :: __private :: Lend as _ ; (app) . __taria_lend () }) ;",
    );
}

#[test]
fn a_function_that_only_reads_drains_at_the_top_of_its_reading_loop() {
    // The draw is in a method (`taria::draw` there): main's loop reads.
    assert_rewritten(
        quote! { label = "app" },
        quote! {
            fn main() -> io::Result<()> {
                let mut terminal = ratatui::init();
                let mut test = TypingTest::new();
                loop {
                    test.render(&mut terminal)?;
                    if let Event::Key(key) = event::read()? { test.on_key(key); }
                }
            }
        },
        "loop { :: taria :: __private :: app_drain (\"app\" , & mut ()) ; test . render",
    );
}

#[test]
fn a_function_that_neither_draws_nor_reads_is_an_error() {
    let (out, errors) = rewrite(quote! {
        fn main() -> io::Result<()> {
            let terminal = ratatui::init();
            let result = App::default().run(terminal);
            ratatui::restore();
            result
        }
    });
    let errors = errors.expect("an error");
    assert!(errors.contains("`main` neither draws a frame"), "{errors}");
    assert!(
        errors.contains("the impl block of the app whose method loops"),
        "{errors}"
    );
    assert!(out.contains("App :: default () . run (terminal)"), "{out}");
}

#[test]
fn a_method_annotated_on_its_own_drains_with_self() {
    assert_rewritten(
        quote! { label = "app" },
        quote! {
            fn run(&mut self, terminal: &mut DefaultTerminal) -> io::Result<()> {
                loop { terminal.draw(|f| self.draw(f))?; self.keys()?; }
            }
        },
        "loop { :: taria :: __private :: app_drain (\"app\" , & mut * self) ;",
    );
}

#[test]
fn other_items_are_emitted_with_the_error() {
    let out = app(quote! {}, quote! { struct App { exit: bool } }).to_string();
    assert!(out.contains("struct App"), "{out}");
    assert!(
        out.contains("goes on the code that holds the app's loop"),
        "{out}"
    );
    let out = app(
        quote! {},
        quote! { impl Widget for App { #[action(node = "x", activate)] fn render(self) {} } },
    )
    .to_string();
    assert!(out.contains("not on a trait impl"), "{out}");
    assert!(!out.contains("# [action"), "{out}");
}

#[test]
fn a_drain_of_the_apps_own_is_its_loops_drain() {
    let (out, errors) = rewrite(quote! {
        fn main() -> io::Result<()> {
            let mut date = today();
            ratatui::run(|terminal| loop {
                taria::drain_with(taria::on("date", Action::SetValue, |v: Date| date = v));
                terminal.draw(|f| draw(f, date))?;
                if let Event::Key(_) = event::read()? { break Ok(()); }
            })
        }
    });
    assert_eq!(errors, None);
    assert!(
        out.contains(
            "loop { :: taria :: __private :: app_drain_with (\"app\" , :: taria :: __private :: \
             lazy_handlers (| __taria_inv : & :: taria :: Invocation < '_ > , __taria_refusals : \
             & mut :: taria :: __private :: Refusals | { if let :: core :: option :: Option :: \
             Some (__taria_outcome) = :: taria :: __private :: try_on (\"date\" , Action :: \
             SetValue , | v : Date | date = v , __taria_inv , __taria_refusals)"
        ),
        "{out}"
    );
    // The chain written out is one closure that makes each handler only in its turn.
    assert!(
        out.contains(
            ":: core :: option :: Option :: None } ,)) ; :: taria :: __private :: app_draw"
        ),
        "{out}"
    );
    assert_eq!(out.matches("app_drain").count(), 1, "{out}");
    // Written with a leading `::`, or as `taria::drain(&mut app)`, the same.
    assert_rewritten(
        quote! {},
        quote! {
            fn run(terminal: &mut DefaultTerminal, app: &mut App) -> io::Result<()> {
                loop {
                    ::taria::drain(&mut *app);
                    terminal.draw(|f| app.draw(f))?;
                }
            }
        },
        "loop { :: taria :: __private :: app_drain (",
    );
}

#[test]
fn a_drain_of_the_apps_own_before_a_draw_with_no_loop_is_its_drain() {
    let (out, errors) = rewrite(quote! {
        fn step(terminal: &mut DefaultTerminal, count: &mut i64) -> io::Result<()> {
            taria::drain_with(taria::on("count", Action::SetValue, |v: i64| *count = v));
            terminal.draw(|f| draw(f, *count))?;
            Ok(())
        }
    });
    assert_eq!(errors, None);
    assert_eq!(out.matches("app_drain").count(), 1, "{out}");
    assert!(
        out.contains("try_on (\"count\" , Action :: SetValue , | v : i64 | * count = v ,"),
        "{out}"
    );
}

#[test]
fn a_drawing_loop_without_the_apps_own_drain_beside_one_with_it_is_an_error() {
    let (_, errors) = rewrite(quote! {
        fn main() -> io::Result<()> {
            let mut date = today();
            let mut terminal = ratatui::init();
            loop {
                taria::drain_with(taria::on("date", Action::SetValue, |v: Date| date = v));
                loop {
                    terminal.draw(|f| draw(f, date))?;
                    if let Event::Key(_) = event::read()? { break; }
                }
            }
        }
    });
    let errors = errors.expect("an error");
    assert!(
        errors.contains("has no `taria::drain_with(…)` of its own"),
        "{errors}"
    );
}

#[test]
fn the_closure_handlers_literal_patterns_are_checked_as_action_patterns_are() {
    let (_, errors) = rewrite(quote! {
        fn main() -> io::Result<()> {
            let mut terminal = ratatui::init();
            let (mut a, mut b) = (0, 0);
            loop {
                taria::drain_with(
                    taria::on("tasks/**/*", Action::Toggle, |Key(k): Key<u32>| a = k)
                        .on("date", Action::Activate, |Key(k): Key<u32>| b = k)
                        .on("files/**", Action::Activate, |Key(k): Key<String>| {}),
                );
                terminal.draw(|f| draw(f, a, b))?;
            }
        }
    });
    let errors = errors.expect("errors");
    assert!(
        errors.contains("`tasks/**/*` is not a valid node pattern"),
        "{errors}"
    );
    assert!(
        errors.contains("`date` has no `*` or `**`, so this closure's `Key` has nothing"),
        "{errors}"
    );
    assert!(!errors.contains("files/**"), "{errors}");
}

#[test]
fn a_drain_of_the_apps_own_beside_the_apps_handlers_is_an_error() {
    let (_, errors) = rewrite_with(
        quote! { handlers = counter },
        quote! {
            fn run(terminal: &mut DefaultTerminal, counter: &mut Counter) -> io::Result<()> {
                let mut extra = 0;
                loop {
                    taria::drain_with(taria::on("extra", Action::SetValue, |v: i64| extra = v));
                    terminal.draw(|f| counter.draw(f, extra))?;
                }
            }
        },
    );
    let errors = errors.expect("an error");
    assert!(
        errors.contains("they would not run in this loop"),
        "{errors}"
    );
    let (_, errors) = rewrite(quote! {
        impl App {
            fn run(&mut self, terminal: &mut DefaultTerminal) -> io::Result<()> {
                loop {
                    taria::drain(&mut *self);
                    terminal.draw(|f| self.draw(f))?;
                }
            }
        }
    });
    // `taria::drain(&mut *self)` names what it drains: the app's own choice.
    assert_eq!(errors, None);
}

#[test]
fn a_read_drains_after_it_only_where_the_loop_draws_before_it_waits_again() {
    let (out, errors) = rewrite(quote! {
        impl App {
            fn run(&mut self, terminal: &mut DefaultTerminal) -> io::Result<()> {
                loop {
                    terminal.draw(|f| self.draw(f))?;
                    // A loop of its own that reads and never draws: a drain after its
                    // read would change the app with no frame to show it.
                    loop {
                        if let Event::Key(_) = event::read()? { break; }
                    }
                    self.on(event::read()?)
                }
            }
            fn next_event(&mut self) -> io::Result<Event> {
                event::read()
            }
            fn wait() -> io::Result<Event> {
                let event = event::read()?;
                Ok(event)
            }
        }
    });
    assert_eq!(errors, None);
    assert_eq!(
        out,
        expected(quote! {
            impl App {
                fn run(&mut self, terminal: &mut DefaultTerminal) -> io::Result<()> {
                    loop {
                        ::taria::__private::app_drain("app", &mut *self);
                        ::taria::__private::app_draw("app", |__taria_frame_end| terminal.draw(::taria::__private::render_then_end(__taria_frame_end, |f| self.draw(f))))?;
                        loop {
                            if let Event::Key(_) = (event::read, ::taria::event::read()).1? { break; }
                        }
                        // No longer the body's last: it gets its semicolon.
                        self.on((event::read, ::taria::event::read()).1?);
                        ::taria::__private::app_drain_after_read(&mut *self);
                    }
                }
                // The block's value: nothing may follow it.
                fn next_event(&mut self) -> io::Result<Event> {
                    (event::read, ::taria::event::read()).1
                }
                // No app to lend: a drain here would run the actions without handlers.
                fn wait() -> io::Result<Event> {
                    let event = (event::read, ::taria::event::read()).1?;
                    Ok(event)
                }
            }
        })
    );
}
