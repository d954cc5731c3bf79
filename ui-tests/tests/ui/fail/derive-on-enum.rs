#[derive(taria::Semantic)]
enum Status {
    Idle,
    Busy,
}

fn main() {
    let _ = [Status::Idle, Status::Busy];
}
