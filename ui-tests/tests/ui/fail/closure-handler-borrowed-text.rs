use taria::Action;

fn main() {
    let mut name = String::new();
    taria::drain_with(taria::on("name", Action::SetValue, |value: &str| {
        name = value.to_owned();
    }));
}
