use taria::{Action, Key};

struct TaskId(u32);

fn main() {
    taria::drain_with(taria::on("tasks/*", Action::Toggle, |Key(id): Key<TaskId>| {
        let _ = id.0;
    }));
}
