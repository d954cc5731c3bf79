//! Handlers whose patterns overlap but whose arguments differ are all reachable: the
//! first, in the order written, whose arguments convert is called, and when none
//! does the refusal names each handler that matched and why it refused.

use taria::{Actions, Invocation, Outcome, Value};

#[derive(Default)]
struct Form {
    calls: Vec<String>,
}

#[taria::actions]
impl Form {
    #[action(node = "form/*", set_value)]
    fn set_text(&mut self, key: &str, value: String) {
        self.calls.push(format!("text {key}={value}"));
    }

    // Not shadowed by the `String` handler: it takes numbers, which that one refuses.
    #[action(node = "form/Age", set_value)]
    fn set_age(&mut self, value: u8) {
        self.calls.push(format!("age={value}"));
    }

    // Same pattern, another value type: dispatch by type.
    #[action(node = "form/*", set_value)]
    fn set_flag(&mut self, key: &str, value: bool) {
        self.calls.push(format!("flag {key}={value}"));
    }

    // A numeric key first, any key after it.
    #[action(node = "rows/*", activate)]
    fn open_row(&mut self, key: u32) {
        self.calls.push(format!("row {key}"));
    }

    #[action(node = "rows/*", activate)]
    fn open_named(&mut self, key: String) {
        self.calls.push(format!("named {key}"));
    }

    // An id the earlier handler's key does not convert (`u8` from `300`).
    #[action(node = "cells/*", toggle)]
    fn toggle_small(&mut self, key: u8) {
        self.calls.push(format!("small {key}"));
    }

    #[action(node = "cells/300", toggle)]
    fn toggle_300(&mut self) {
        self.calls.push("300".into());
    }
}

fn set(form: &mut Form, id: &str, value: Value) -> Outcome {
    form.handle_action(&Invocation::new(id, "set_value").with_value(&value))
}

fn main() {
    let mut form = Form::default();
    assert_eq!(set(&mut form, "form/Name", Value::Text("Ada".into())), Outcome::Handled);
    assert_eq!(set(&mut form, "form/Age", Value::Number(36.0)), Outcome::Handled);
    assert_eq!(set(&mut form, "form/Age", Value::Text("36".into())), Outcome::Handled);
    assert_eq!(set(&mut form, "form/Adult", Value::Bool(true)), Outcome::Handled);
    let act = |form: &mut Form, id| form.handle_action(&Invocation::new(id, "activate"));
    assert_eq!(act(&mut form, "rows/7"), Outcome::Handled);
    assert_eq!(act(&mut form, "rows/seven"), Outcome::Handled);
    let toggle = |form: &mut Form, id| form.handle_action(&Invocation::new(id, "toggle"));
    assert_eq!(toggle(&mut form, "cells/3"), Outcome::Handled);
    assert_eq!(toggle(&mut form, "cells/300"), Outcome::Handled);
    assert_eq!(
        form.calls,
        [
            "text Name=Ada", "age=36", "text Age=36", "flag Adult=true", "row 7", "named seven",
            "small 3", "300"
        ]
    );
    assert_eq!(
        set(&mut form, "form/Age", Value::Number(300.0)),
        Outcome::Rejected(
            "no handler takes `set_value` on `form/Age`: `set_text(key: &str, value: String)` \
             (for form/*): expected text, got 300; `set_age(value: u8)` (for form/Age): \
             expected a whole number in 0..=255, got 300; `set_flag(key: &str, value: bool)` \
             (for form/*): expected true or false, got 300"
                .into()
        )
    );
    assert_eq!(toggle(&mut form, "cells/x"), Outcome::Rejected(
        "no handler takes `toggle` on `cells/x`: `toggle_small(key: u8)` (for cells/*): `x` is not a valid u8".into()
    ));
    assert_eq!(toggle(&mut form, "other"), Outcome::NotHandled);
}
