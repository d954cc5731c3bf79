#[derive(taria::Semantic)]
struct Task {
    #[taria(label = "Title")]
    title: String,
}

fn main() {
    let task = Task { title: "Buy milk".into() };
    let _ = task.title;
}
