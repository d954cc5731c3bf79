//! The file browser's tests: what a person sees and what an agent can do.

use crate::app::printable;

#[test]
fn control_characters_are_shown_not_sent() {
    assert_eq!(printable(b"a\tb\r\n\x1b[31mred\x7f"), "a    b\n␛[31mred␡");
    assert_eq!(
        printable("é".as_bytes()[..1].as_ref()),
        "",
        "a cut character is dropped"
    );
    assert_eq!(printable(b"ok\xffok"), "ok\u{fffd}ok");
}
