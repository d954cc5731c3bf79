use taria::Actions;

struct App;

#[taria::app(label = "my app")]
impl App {}

fn main() {
    let _ = App.handle_action(&taria::Invocation::new("x", "activate"));
}
