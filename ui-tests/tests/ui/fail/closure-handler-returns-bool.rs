use taria::Action;

fn main() {
    let mut saved = false;
    taria::drain_with(taria::on("save", Action::Activate, || {
        saved = true;
        saved
    }));
}
