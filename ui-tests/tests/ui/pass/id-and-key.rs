//! `id = "…"` is an explicit, frame-global id (a literal or any `Display`
//! expression); `key = expr` makes the id `<parent id>/<key>`.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use taria::testing::Harness;

#[taria::widget(role = list, id = "tasks")]
fn render_list(ids: &[u64], area: Rect, buf: &mut Buffer) {
    for id in ids {
        render_task(*id, area, buf);
    }
}

#[taria::widget(role = list_item, key = id)]
fn render_task(id: u64, area: Rect, buf: &mut Buffer) {
    let _ = (id, area, buf);
}

#[taria::widget(role = dialog, id = format_args!("confirm-{}", name))]
fn render_confirm(name: &str, area: Rect, buf: &mut Buffer) {
    let _ = (name, area, buf);
}

#[taria::widget(role = button, id = "ok.btn:1_a-b")]
fn render_ok(area: Rect, buf: &mut Buffer) {
    let _ = (area, buf);
}

fn main() {
    let tree = Harness::new(10, 1).render(|frame| {
        let area = frame.area();
        let buf = frame.buffer_mut();
        render_list(&[7, 9], area, buf);
        render_confirm("delete", area, buf);
        render_ok(area, buf);
    });
    let ids: Vec<&str> = tree.iter().map(|n| n.id.as_str()).collect();
    assert_eq!(ids, ["tasks", "tasks/7", "tasks/9", "confirm-delete", "ok.btn:1_a-b"]);
}
