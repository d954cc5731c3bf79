#[derive(taria::Semantic)]
struct Task {
    #[taria(label)]
    title: String,
    #[taria(label)]
    summary: String,
}

fn main() {
    let task = Task { title: "Buy milk".into(), summary: "2 litres".into() };
    let _ = (task.title, task.summary);
}
