//! A handler is shadowed only when an earlier one for the same action matches every
//! id it does and takes every argument it would: a wider value or key type on the
//! same or a wider pattern. A narrower or other type is not (dispatch by type).
use taria::Value;

struct Form;

#[taria::actions]
impl Form {
    #[action(node = "form/*", set_value)]
    fn set_number(&mut self, value: f64) {
        let _ = value;
    }

    // `f64` takes every whole number a `u8` does.
    #[action(node = "form/Age", set_value)]
    fn set_age(&mut self, value: u8) {
        let _ = value;
    }

    #[action(node = "rows/*", activate)]
    fn open_any(&mut self, key: String) {
        let _ = key;
    }

    // A `String` key takes every segment.
    #[action(node = "rows/*", activate)]
    fn open_row(&mut self, key: u32) {
        let _ = key;
    }

    #[action(node = "notes/*", "tag")]
    fn tag_any(&mut self, value: Value) {
        let _ = value;
    }

    // `taria::Value` takes every value.
    #[action(node = "notes/*", "tag")]
    fn tag_text(&mut self, value: Option<String>) {
        let _ = value;
    }

    #[action(node = "cells/*", toggle)]
    fn toggle_cell(&mut self, key: u8) {
        let _ = key;
    }

    // `7` converts to `u8`: the earlier handler always takes it.
    #[action(node = "cells/7", toggle)]
    fn toggle_seven(&mut self) {}

    // Not shadowed: `f64` refuses text.
    #[action(node = "form/Name", set_value)]
    fn set_name(&mut self, value: String) {
        let _ = value;
    }

    // Not shadowed: `u8` refuses `300`.
    #[action(node = "cells/300", toggle)]
    fn toggle_300(&mut self) {}
}

fn main() {}
