//! `checked` (`bool`, or `Option<bool>` with `None` for mixed), `expanded` and
//! `invalid` (`bool`, or an optional message).

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use taria::testing::Harness;

#[taria::widget(role = checkbox, key = "done", checked = done)]
fn render_done(done: bool, area: Rect, buf: &mut Buffer) {
    let _ = (done, area, buf);
}

#[taria::widget(role = checkbox, key = "all", checked = all)]
fn render_all(all: Option<bool>, area: Rect, buf: &mut Buffer) {
    let _ = (all, area, buf);
}

#[taria::widget(role = tree_item, key = "folder", expanded = open)]
fn render_folder(open: bool, area: Rect, buf: &mut Buffer) {
    let _ = (open, area, buf);
}

#[taria::widget(role = text_input, key = "email", invalid = error)]
fn render_email(error: Option<&str>, area: Rect, buf: &mut Buffer) {
    let _ = (error, area, buf);
}

#[taria::widget(role = text_input, key = "name", invalid = name.is_empty())]
fn render_name(name: &str, area: Rect, buf: &mut Buffer) {
    let _ = (name, area, buf);
}

fn main() {
    let tree = Harness::new(10, 5).render(|frame| {
        let area = frame.area();
        let buf = frame.buffer_mut();
        render_done(true, area, buf);
        render_all(None, area, buf);
        render_folder(false, area, buf);
        render_email(Some("missing @"), area, buf);
        render_name("", area, buf);
    });
    assert_eq!(
        tree.outline(),
        "- checkbox [id=done] [checked]\n\
         - checkbox [id=all] [checked=mixed]\n\
         - tree_item [id=folder] [collapsed]\n\
         - text_input [id=email] [invalid=\"missing @\"]\n\
         - text_input [id=name] [invalid]\n"
    );
}
