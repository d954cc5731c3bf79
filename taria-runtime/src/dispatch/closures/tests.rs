use super::*;
use taria_schema::{ScrollDirection, Value};

#[test]
fn handlers_are_tried_in_order_and_the_first_whose_arguments_convert_runs() {
    let (mut text, mut age) = (String::new(), 0_u8);
    let mut handlers = on("form/Age", Action::SetValue, |value: u8| age = value).on(
        "form/*",
        Action::SetValue,
        |Key(field): Key<String>, value: String| text = format!("{field}={value}"),
    );
    let n = Value::Number(36.0);
    let name = Value::Text("Ada".into());
    assert_eq!(
        handlers.handle_action(&Invocation::new("form/Age", Action::SetValue).with_value(&n)),
        Outcome::Handled
    );
    assert_eq!(
        handlers.handle_action(&Invocation::new("form/Name", Action::SetValue).with_value(&name)),
        Outcome::Handled
    );
    // Text on `form/Age`: the `u8` one does not take it, the `form/*` one does.
    assert_eq!(
        handlers.handle_action(&Invocation::new("form/Age", Action::SetValue).with_value(&name)),
        Outcome::Handled
    );
    drop(handlers);
    assert_eq!((text.as_str(), age), ("Age=Ada", 36));
}

#[test]
fn when_none_converts_the_agent_hears_each_and_why() {
    let mut handlers = on("form/Age", Action::SetValue, |_: u8| {}).on(
        "form/*",
        Action::SetValue,
        |_: Key<String>, _: String| {},
    );
    let big = Value::Number(300.0);
    let outcome =
        handlers.handle_action(&Invocation::new("form/Age", Action::SetValue).with_value(&big));
    assert_eq!(
        outcome,
        Outcome::Rejected(
            "no handler takes `set_value` on `form/Age`: `|u8|` (for form/Age): expected a \
             whole number in 0..=255, got 300; `|Key<String>, String|` (for form/*): expected \
             text, got 300"
                .into()
        )
    );
}

#[test]
fn an_err_is_the_answer_and_no_later_handler_runs() {
    let mut later = false;
    let mut handlers = on("save", Action::Activate, || Err::<(), _>("nothing to save")).on(
        "save",
        Action::Activate,
        || later = true,
    );
    assert_eq!(
        handlers.handle_action(&Invocation::new("save", Action::Activate)),
        Outcome::Rejected("nothing to save".into())
    );
    drop(handlers);
    assert!(!later);
}

#[test]
fn other_actions_and_ids_are_not_handled() {
    let mut handlers = on("save", Action::Activate, || {});
    assert_eq!(
        handlers.handle_action(&Invocation::new("save", Action::Toggle)),
        Outcome::NotHandled
    );
    assert_eq!(
        handlers.handle_action(&Invocation::new("saved", Action::Activate)),
        Outcome::NotHandled
    );
}

#[test]
fn keys_arrive_unescaped_and_a_double_star_takes_segments() {
    let mut seen = Vec::new();
    let mut handlers = on("files/**", Action::Activate, |Key(path): Key<String>| {
        seen.push(path);
    });
    for id in ["files/src/a%2Fb", "files/50%25"] {
        assert_eq!(
            handlers.handle_action(&Invocation::new(id, Action::Activate)),
            Outcome::Handled
        );
    }
    drop(handlers);
    assert_eq!(seen, ["src/a/b", "50%"]);
}

#[test]
fn a_key_that_does_not_parse_or_has_no_wildcard_is_refused_with_why() {
    let mut handlers = on("tasks/*", Action::Toggle, |_: Key<u32>| {});
    assert_eq!(
        handlers.handle_action(&Invocation::new("tasks/x", Action::Toggle)),
        Outcome::Rejected(
            "no handler takes `toggle` on `tasks/x`: `|Key<u32>|` (for tasks/*): `x` is not a \
             valid u32"
                .into()
        )
    );
    let mut handlers = on("date", Action::Activate, |_: Key<String>| {});
    let Outcome::Rejected(why) = handlers.handle_action(&Invocation::new("date", Action::Activate))
    else {
        panic!("a key without a wildcard is refused");
    };
    assert!(why.contains("its pattern has no `*` or `**`"), "{why}");
}

#[test]
fn an_index_handler_is_passed_over_for_an_undrawn_id() {
    let mut picked = None;
    let mut handlers = on("people/*", Action::Select, |Index(i): Index<usize>| {
        picked = Some(i);
    });
    let undrawn = Invocation::new("people/p77", Action::Select).as_undrawn();
    assert_eq!(handlers.handle_action(&undrawn), Outcome::NotHandled);
    let drawn = Invocation::new("people/p3", Action::Select).with_index(3);
    assert_eq!(handlers.handle_action(&drawn), Outcome::Handled);
    // Drawn, but without an index: refused, saying so.
    let Outcome::Rejected(why) =
        handlers.handle_action(&Invocation::new("people/p4", Action::Select))
    else {
        panic!("a drawn node without an index is refused");
    };
    assert!(why.contains("has no index"), "{why}");
    drop(handlers);
    assert_eq!(picked, Some(3));
}

#[test]
fn a_value_handler_on_an_action_without_one_is_refused() {
    let mut handlers = on("dark", Action::Toggle, |_: bool| {});
    assert_eq!(
        handlers.handle_action(&Invocation::new("dark", Action::Toggle)),
        Outcome::Rejected(
            "no handler takes `toggle` on `dark`: `|bool|` (for dark): `toggle` carries no value"
                .into()
        )
    );
}

#[test]
fn actions_by_name_and_the_whole_invocation() {
    let (mut archived, mut scrolled) = (None, None);
    let mut handlers = on("tasks/*", "archive", |Key(k): Key<u32>| archived = Some(k))
        .on("tasks/*", "toggle", || {})
        .on_invocation("log", Action::Scroll, |inv: &Invocation<'_>| {
            scrolled = inv.scroll();
        });
    assert_eq!(
        handlers.handle_action(&Invocation::new("tasks/4", "archive")),
        Outcome::Handled
    );
    assert_eq!(
        handlers.handle_action(&Invocation::new("tasks/4", Action::Toggle)),
        Outcome::Handled
    );
    let scroll = Invocation::new("log", Action::Scroll).with_scroll(ScrollDirection::Up, 3);
    assert_eq!(handlers.handle_action(&scroll), Outcome::Handled);
    drop(handlers);
    assert_eq!(
        (archived, scrolled),
        (Some(4), Some((ScrollDirection::Up, 3)))
    );
}

#[test]
fn a_type_of_the_apps_converts_and_rejects_out_of_domain_values() {
    #[derive(Debug, PartialEq)]
    struct Day(u8);
    impl FromValue for Day {
        fn from_value(value: &Value) -> Result<Self, String> {
            match u8::from_value(value)? {
                day @ 1..=31 => Ok(Day(day)),
                day => Err(format!("{day} is not a day of the month")),
            }
        }
    }
    let mut day = Day(1);
    let mut handlers = on("day", Action::SetValue, |value: Day| day = value);
    let v = Value::Number(40.0);
    assert_eq!(
        handlers.handle_action(&Invocation::new("day", Action::SetValue).with_value(&v)),
        Outcome::Rejected(
            "no handler takes `set_value` on `day`: `|Day|` (for day): 40 is not a day of the \
             month"
                .into()
        )
    );
    let v = Value::Number(29.0);
    assert_eq!(
        handlers.handle_action(&Invocation::new("day", Action::SetValue).with_value(&v)),
        Outcome::Handled
    );
    drop(handlers);
    assert_eq!(day, Day(29));
}

#[test]
fn type_names_are_cut_to_their_last_segment() {
    assert_eq!(short_type_name("alloc::string::String"), "String");
    assert_eq!(
        short_type_name("taria::dispatch::closures::Key<core::option::Option<u32>>"),
        "Key<Option<u32>>"
    );
    assert_eq!(short_type_name("(u8, &str)"), "(u8, &str)");
}
