use taria::{Action, Index, Key};

fn main() {
    taria::drain_with(taria::on(
        "rows/*",
        Action::SetValue,
        |_: Key<u32>, _: Index<u32>, _: String, _: bool| {},
    ));
}
