#[derive(taria::Semantic)]
#[taria(label = "Task")]
struct Task {
    #[taria(label)]
    title: String,
}

fn main() {
    let task = Task { title: "Buy milk".into() };
    let _ = task.title;
}
