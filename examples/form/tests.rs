//! The form, driven headless as a person and as an agent would.
