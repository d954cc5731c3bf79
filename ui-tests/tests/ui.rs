//! Compile-pass and compile-fail cases for `#[taria::widget]` and `#[derive(taria::Semantic)]`.
//!
//! Regenerate the expected compiler output with `TRYBUILD=overwrite cargo test -p taria-ui-tests`,
//! then read every changed `.stderr` before checking it in.

#[test]
fn ui() {
    let t = trybuild::TestCases::new();
    t.pass("tests/ui/pass/*.rs");
    t.compile_fail("tests/ui/fail/*.rs");
}
