struct App;

#[taria::actions]
impl App {
    #[action(node = "upload", set_value)]
    fn upload(&mut self, value: Vec<u8>) {
        let _ = value;
    }
}

fn main() {}
