//! Compile-pass and compile-fail cases for taria's macros; the cases live in
//! `tests/ui/` and run from `tests/ui.rs`. This library is empty.
