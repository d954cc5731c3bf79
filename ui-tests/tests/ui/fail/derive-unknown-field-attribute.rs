#[derive(taria::Semantic)]
struct Task {
    #[taria(lable)]
    title: String,
}

fn main() {
    let task = Task { title: "Buy milk".into() };
    let _ = task.title;
}
