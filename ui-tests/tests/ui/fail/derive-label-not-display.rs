struct Opaque;

#[derive(taria::Semantic)]
struct Task {
    #[taria(label)]
    title: Opaque,
}

fn main() {
    let task = Task { title: Opaque };
    let _ = task.title;
}
