//! A handler whose pattern an earlier handler of the same action covers is never
//! called (the first match wins): a compile error at both, not a silent refusal the
//! agent meets (`set_value 36` on `form/Age` reaching the `String` handler).
struct Form;

#[taria::actions]
impl Form {
    #[action(node = "form/*", set_value)]
    fn set_text(&mut self, value: String) {
        let _ = value;
    }

    #[action(node = "form/Age", set_value)]
    fn set_age(&mut self, value: u8) {
        let _ = value;
    }

    // Not shadowed: another action, and the narrower pattern first.
    #[action(node = "files/src/*", toggle)]
    fn toggle_src(&mut self) {}

    #[action(node = "files/**", toggle)]
    fn toggle_any(&mut self) {}
}

fn main() {}
