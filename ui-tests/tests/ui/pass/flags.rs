//! Every flag argument, bare (`true`) and as `flag = <bool expr>` (a `bool` or `&bool`).

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use taria::testing::Harness;

#[taria::widget(role = text_input, id = "bare", focused, selected, disabled, busy, required, readonly, redacted, untrusted)]
fn render_bare(area: Rect, buf: &mut Buffer) {
    let _ = (area, buf);
}

#[taria::widget(role = dialog, id = "modal", modal)]
fn render_modal(area: Rect, buf: &mut Buffer) {
    let _ = (area, buf);
}

struct Field {
    on: bool,
}

#[taria::widget(
    role = text_input,
    id = "assigned",
    focused = on,
    selected = !on,
    disabled = field.on,
    busy = &field.on,
    required = false,
    readonly = on && field.on,
    redacted = on,
    untrusted = on,
    modal = false,
)]
fn render_assigned(on: bool, field: &Field, area: Rect, buf: &mut Buffer) {
    let _ = (on, field, area, buf);
}

fn main() {
    let field = Field { on: true };
    let tree = Harness::new(10, 3).render(|frame| {
        render_bare(Rect::new(0, 0, 10, 1), frame.buffer_mut());
        render_assigned(true, &field, Rect::new(0, 1, 10, 1), frame.buffer_mut());
        render_modal(Rect::new(0, 2, 10, 1), frame.buffer_mut());
    });
    assert_eq!(
        tree.outline(),
        "- text_input [id=bare] [focused] [selected] [disabled] [busy] [required] [readonly] [redacted] [untrusted]\n\
         - text_input [id=assigned] [focused] [disabled] [busy] [readonly] [redacted] [untrusted]\n\
         - dialog [id=modal] [modal]\n"
    );
}
