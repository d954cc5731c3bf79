#[taria::app]
struct App {
    exit: bool,
}

fn main() {
    let app = App { exit: false };
    let _ = app.exit;
}
