use std::fmt;

struct SaveButton;

#[taria::widget(role = button)]
impl fmt::Display for SaveButton {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Save")
    }
}

fn main() {
    println!("{SaveButton}");
}
