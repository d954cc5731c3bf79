//! The forms a widget takes when given the role it plays: what each records, and that
//! it draws what ratatui's widget draws.

use ratatui::Frame;
use taria::testing::Harness;
use taria::{Node, Role};
use taria_widgets as w;

/// A widget given the role it plays (`role`, `label`, `value`, `focused`, `modal`,
/// `key_fallbacks`, `actions`): what it records, and that it draws what ratatui's
/// widget draws, cell for cell.
struct GivenForm {
    form: &'static str,
    /// Draws the form with id `x`.
    draw: fn(&mut Frame<'_>),
    /// Draws the same with ratatui's widgets.
    ratatui: fn(&mut Frame<'_>),
    role: Role,
    actions: &'static [&'static str],
    check: fn(&Node),
}

fn given_forms() -> Vec<GivenForm> {
    use taria::Action;
    vec![
        GivenForm {
            form: "Paragraph as a text input",
            draw: |f| {
                let input = w::Paragraph::new("> hello")
                    .role(Role::TextInput)
                    .id("x")
                    .label("Message")
                    .value("hello")
                    .focused(true)
                    .key_fallbacks(&[(Action::Submit, "enter")]);
                f.render_widget(input, f.area());
            },
            ratatui: |f| f.render_widget(ratatui::widgets::Paragraph::new("> hello"), f.area()),
            role: Role::TextInput,
            actions: &["submit"],
            check: |n| {
                assert_eq!(n.label.as_deref(), Some("Message"));
                assert_eq!(n.value, Some(taria::Value::Text("hello".into())));
                assert!(n.state.focused);
                assert_eq!(n.keys.get("submit").map(String::as_str), Some("enter"));
            },
        },
        GivenForm {
            form: "Paragraph as a status line",
            draw: |f| {
                let status = w::Paragraph::new("Saved").role(Role::Status).id("x");
                f.render_widget(status, f.area());
            },
            ratatui: |f| f.render_widget(ratatui::widgets::Paragraph::new("Saved"), f.area()),
            role: Role::Status,
            actions: &[],
            check: |n| assert_eq!(n.value, Some(taria::Value::Text("Saved".into()))),
        },
        GivenForm {
            form: "Paragraph as a log, scrolled, from outside the app",
            draw: |f| {
                let log = w::Paragraph::new("one\ntwo\nthree")
                    .role(Role::Log)
                    .id("x")
                    .untrusted(true)
                    .scroll((1, 0))
                    .actions(&[Action::Scroll]);
                f.render_widget(log, f.area());
            },
            ratatui: |f| {
                let log = ratatui::widgets::Paragraph::new("one\ntwo\nthree").scroll((1, 0));
                f.render_widget(log, f.area());
            },
            role: Role::Log,
            actions: &["scroll"],
            check: |n| {
                assert!(n.state.untrusted);
                assert_eq!(n.scroll.map(|s| s.offset), Some(1));
            },
        },
        GivenForm {
            form: "Paragraph with a block given a dialog role",
            draw: |f| {
                let block = w::Block::bordered()
                    .title("Delete?")
                    .role(Role::Dialog)
                    .modal(true)
                    .key_fallbacks(&[(Action::Dismiss, "esc")]);
                let text = w::Paragraph::new("This cannot be undone")
                    .block(block)
                    .id("x");
                f.render_widget(ratatui::widgets::Clear, f.area());
                f.render_widget(text, f.area());
            },
            ratatui: |f| {
                let block = ratatui::widgets::Block::bordered().title("Delete?");
                let text = ratatui::widgets::Paragraph::new("This cannot be undone").block(block);
                f.render_widget(ratatui::widgets::Clear, f.area());
                f.render_widget(text, f.area());
            },
            role: Role::Dialog,
            actions: &["dismiss"],
            check: |n| {
                assert_eq!(n.label.as_deref(), Some("Delete?"));
                assert_eq!(
                    n.value,
                    Some(taria::Value::Text("This cannot be undone".into()))
                );
                assert!(n.state.modal);
            },
        },
        GivenForm {
            form: "Paragraph in a block given modal_dialog (ratatui's popup)",
            draw: |f| {
                let popup = w::Paragraph::new("Neptune: 2,000 km/h winds")
                    .wrap(ratatui::widgets::Wrap { trim: true })
                    .block(w::Block::bordered().title("Neptune").modal_dialog("esc"))
                    .id("x");
                f.render_widget(ratatui::widgets::Clear, f.area());
                f.render_widget(popup, f.area());
            },
            ratatui: |f| {
                let popup = ratatui::widgets::Paragraph::new("Neptune: 2,000 km/h winds")
                    .wrap(ratatui::widgets::Wrap { trim: true })
                    .block(ratatui::widgets::Block::bordered().title("Neptune"));
                f.render_widget(ratatui::widgets::Clear, f.area());
                f.render_widget(popup, f.area());
            },
            role: Role::Dialog,
            actions: &["dismiss"],
            check: |n| {
                assert_eq!(n.label.as_deref(), Some("Neptune"));
                assert!(n.state.modal);
                assert_eq!(n.keys.get("dismiss").map(String::as_str), Some("esc"));
                assert_eq!(
                    n.value,
                    Some(taria::Value::Text("Neptune: 2,000 km/h winds".into()))
                );
            },
        },
        GivenForm {
            form: "Clear + Block as a dialog + Paragraph inside it",
            draw: |f| {
                let area = f.area().inner(ratatui::layout::Margin::new(3, 1));
                let block = w::Block::bordered()
                    .title("Help")
                    .role(Role::Dialog)
                    .id("x")
                    .modal(false)
                    .key_fallbacks(&[(Action::Dismiss, "esc")]);
                let inner = block.inner(area);
                f.render_widget(ratatui::widgets::Clear, area);
                f.render_widget(block, area);
                f.render_widget(w::Paragraph::new("q quits\n? help"), inner);
                // Drawn after it, outside it: not the dialog's.
                f.render_widget(
                    w::Paragraph::new("status"),
                    f.area().rows().next_back().unwrap(),
                );
            },
            ratatui: |f| {
                let area = f.area().inner(ratatui::layout::Margin::new(3, 1));
                let block = ratatui::widgets::Block::bordered().title("Help");
                let inner = block.inner(area);
                f.render_widget(ratatui::widgets::Clear, area);
                f.render_widget(block, area);
                f.render_widget(ratatui::widgets::Paragraph::new("q quits\n? help"), inner);
                let last = f.area().rows().next_back().unwrap();
                f.render_widget(ratatui::widgets::Paragraph::new("status"), last);
            },
            role: Role::Dialog,
            actions: &["dismiss"],
            check: |n| {
                assert_eq!(n.label.as_deref(), Some("Help"));
                assert!(!n.state.modal);
                let [text] = n.children.as_slice() else {
                    panic!("the dialog holds its text: {n:#?}");
                };
                assert_eq!(
                    text.value,
                    Some(taria::Value::Text("q quits\n? help".into()))
                );
            },
        },
        GivenForm {
            form: "Block as a form whose handler submits it",
            draw: |f| {
                let form = w::Block::bordered()
                    .title("Sign up")
                    .role(Role::Form)
                    .id("x")
                    .actions(&[Action::Submit]);
                f.render_widget(form, f.area());
            },
            ratatui: |f| {
                let form = ratatui::widgets::Block::bordered().title("Sign up");
                f.render_widget(form, f.area());
            },
            role: Role::Form,
            actions: &["submit"],
            check: |n| assert_eq!(n.label.as_deref(), Some("Sign up")),
        },
        GivenForm {
            form: "Gauge as a slider the app's key moves",
            draw: |f| {
                let volume = w::Gauge::default()
                    .ratio(0.4)
                    .label("Volume")
                    .role(Role::Slider)
                    .id("x")
                    .key_fallbacks(&[(Action::Increment, "+"), (Action::Decrement, "-")]);
                f.render_widget(volume, f.area());
            },
            ratatui: |f| {
                let volume = ratatui::widgets::Gauge::default()
                    .ratio(0.4)
                    .label("Volume");
                f.render_widget(volume, f.area());
            },
            role: Role::Slider,
            actions: &["increment", "decrement"],
            check: |n| assert_eq!(n.value, Some(taria::Value::Number(0.4))),
        },
        GivenForm {
            form: "Sparkline as an image",
            draw: |f| {
                let graph = w::Sparkline::default()
                    .data([1, 2, 3])
                    .label("traffic")
                    .role(Role::Image)
                    .id("x");
                f.render_widget(graph, f.area());
            },
            ratatui: |f| {
                f.render_widget(
                    ratatui::widgets::Sparkline::default().data([1, 2, 3]),
                    f.area(),
                )
            },
            role: Role::Image,
            actions: &[],
            check: |n| assert_eq!(n.label.as_deref(), Some("traffic")),
        },
    ]
}

#[test]
fn a_widget_given_its_role_records_it_and_draws_what_ratatui_draws() {
    for form in given_forms() {
        let mut ours = Harness::new(30, 8);
        let tree = ours.render(form.draw);
        let node = tree
            .get("x")
            .unwrap_or_else(|| panic!("{}: no node with id `x`:\n{}", form.form, tree.outline()));
        assert_eq!(node.role, form.role, "{}", form.form);
        let actions: Vec<&str> = node
            .actions
            .iter()
            .map(taria::node::ActionName::as_str)
            .collect();
        assert_eq!(actions, form.actions, "{}", form.form);
        (form.check)(node);
        let mut theirs = Harness::new(30, 8);
        theirs.render(form.ratatui);
        assert_eq!(ours.buffer(), theirs.buffer(), "{}", form.form);
        assert!(
            taria::testing::duplicate_nodes(&tree).is_empty(),
            "{}: {:?}",
            form.form,
            taria::testing::duplicate_nodes(&tree)
        );
    }
}

/// Without an id, actions a handler would perform are not offered: nothing names the
/// node for a handler (what a key performs still is).
#[test]
fn a_handler_s_actions_are_offered_only_with_an_id() {
    use taria::Action;
    let tree = Harness::new(20, 3).render(|f| {
        let form = w::Block::bordered()
            .title("Sign up")
            .role(Role::Form)
            .actions(&[Action::Submit])
            .key_fallbacks(&[(Action::Dismiss, "esc")]);
        f.render_widget(form, f.area());
    });
    let actions: Vec<&str> = tree.roots[0]
        .actions
        .iter()
        .map(taria::node::ActionName::as_str)
        .collect();
    assert_eq!(actions, ["dismiss"]);
}

/// The role setters are `const fn`s, as ratatui's simple setters are.
const fn _given_in_const(p: w::Paragraph<'static>) -> w::Paragraph<'static> {
    p.role(Role::TextInput)
        .focused(true)
        .label("Message")
        .value("")
        .actions(&[taria::Action::SetValue])
        .key_fallbacks(&[(taria::Action::Submit, "enter")])
}
