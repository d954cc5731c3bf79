//! The macros tell that one handler's node pattern takes every id another's does with
//! their own copy of the pattern matcher (`taria-derive/src/actions/pattern.rs`,
//! included here as a module); this checks it matches ids as `Invocation::matches` does.

#[path = "../../../../taria-derive/src/actions/pattern.rs"]
#[expect(dead_code, reason = "`covers` is the macros'; this test checks the matcher it stands on")]
mod pattern;

use taria::{Action, Invocation};

fn main() {
    let patterns = [
        "save", "tasks/*", "tasks/*/title", "files/**", "files/**/main.rs", "**", "*", "a*b",
        "form/*", "form/Age", "table/*/*", "*/*", "tasks/*/title/*", "a/*/b/*/c",
    ];
    let ids = [
        "save", "tasks/3", "tasks/", "tasks/3/title", "tasks/3/x", "files/src", "files/src/main.rs",
        "files/", "files", "files//x", "board/a/b/title", "a", "axb", "ab", "a/b", "form/Age",
        "form/Age/x", "", "/", "table/r5/c2", "table/r5", "table//c2", "table/r5/c2/x",
        "tasks/3/title/7", "a/x/b/y/c", "a/x/b//c", "a/b",
    ];
    for p in patterns {
        for id in ids {
            let runtime = Invocation::new(id, Action::Toggle).matches(p);
            assert_eq!(pattern::match_pattern(p, id), runtime, "{p:?} on {id:?}");
        }
    }
}
