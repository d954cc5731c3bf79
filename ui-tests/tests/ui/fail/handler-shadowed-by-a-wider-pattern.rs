//! A handler whose pattern an earlier handler of the same action covers, and whose
//! arguments that one takes too, is never called: a compile error at both.
struct Form;

#[taria::actions]
impl Form {
    #[action(node = "form/*", set_value)]
    fn set_text(&mut self, value: String) {
        let _ = value;
    }

    #[action(node = "form/Age", set_value)]
    fn set_age(&mut self, value: String) {
        let _ = value;
    }

    // Not shadowed: another action, and the narrower pattern first.
    #[action(node = "files/src/*", toggle)]
    fn toggle_src(&mut self) {}

    #[action(node = "files/**", toggle)]
    fn toggle_any(&mut self) {}
}

fn main() {}
