// Borrowed and Option fields pass by reference: `&str`/`char` values, `Option<bool>`
// checked (None = mixed), `bool` invalid, and the `modal` flag.
use taria::{Checked, Role, Semantic, testing::Harness};

#[derive(Semantic)]
#[taria(role = dialog)]
struct Confirm<'a> {
    #[taria(label)]
    title: &'a str,
    #[taria(value)]
    answer: &'a str,
    #[taria(checked)]
    remember: Option<bool>,
    #[taria(invalid)]
    invalid: bool,
    #[taria(modal)]
    modal: bool,
}

#[derive(Semantic)]
struct Key {
    #[taria(value)]
    letter: char,
}

fn main() {
    let confirm = Confirm { title: "Delete?", answer: "no", remember: None, invalid: true, modal: true };
    let key = Key { letter: 'y' };
    let tree = Harness::new(10, 2).render(|_| {
        taria::leaf(|n| confirm.describe(n.id("confirm")));
        taria::leaf(|n| key.describe(n.id("key")));
    });
    let node = tree.get("confirm").unwrap();
    assert_eq!(node.role, Role::Dialog);
    assert_eq!(node.value, Some(taria::Value::Text("no".into())));
    assert_eq!(node.state.checked, Some(Checked::Mixed));
    assert!(node.state.invalid && node.state.modal);
    assert_eq!(tree.get("key").unwrap().value, Some(taria::Value::Text("y".into())));
}
