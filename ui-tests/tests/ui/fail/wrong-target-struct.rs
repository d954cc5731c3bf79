#[taria::widget(role = button)]
struct SaveButton {
    label: &'static str,
}

fn main() {
    let button = SaveButton { label: "Save" };
    let _ = button.label;
}
