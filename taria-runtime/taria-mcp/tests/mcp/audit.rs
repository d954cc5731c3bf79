//! `taria-mcp audit`, the real binary on a real app in a pseudo-terminal: a clean app
//! exits 0 with every offered action tried, a broken one exits 1 naming the node, the
//! check and the input that showed it, and a command that is no app is an `app_failed`
//! violation, not a crash.

use std::process::{Command, Output};

use serde_json::Value;

use crate::spawn::example_app;

fn audit(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_taria-mcp"))
        .arg("audit")
        .args(["--cols", "60", "--rows", "12", "--idle", "600"])
        .args(args)
        .output()
        .unwrap()
}

fn report(output: &Output) -> Value {
    serde_json::from_slice(&output.stdout).unwrap_or_else(|e| {
        panic!(
            "not a JSON report ({e}): {}\nstderr: {}",
            String::from_utf8_lossy(&output.stdout),
            String::from_utf8_lossy(&output.stderr)
        )
    })
}

#[test]
fn an_app_whose_offers_all_do_what_they_say_passes() {
    let probe = example_app("audit-probe");
    let output = audit(&["--json", "--", &probe]);
    let report = report(&output);
    assert_eq!(report["violations"], Value::Array(Vec::new()), "{report:#}");
    assert_eq!(output.status.code(), Some(0), "{report:#}");
    let coverage = &report["coverage"];
    assert_eq!(coverage["tried"], coverage["offered"], "{report:#}");
    assert!(coverage["tried"].as_u64().unwrap() >= 1, "{report:#}");
}

#[test]
fn an_offer_the_app_does_not_perform_fails_the_audit_naming_the_input() {
    let probe = example_app("audit-probe");
    let output = audit(&["--json", "--", &probe, "--broken"]);
    let report = report(&output);
    assert_eq!(output.status.code(), Some(1), "{report:#}");
    let violations = report["violations"].as_array().unwrap();
    let found = violations
        .iter()
        .find(|v| v["check"] == "no_visible_effect")
        .unwrap_or_else(|| panic!("no no_visible_effect violation: {report:#}"));
    assert_eq!(found["node"], "save", "{report:#}");
    assert_eq!(found["path"][0], "act save activate", "{report:#}");
    // The text report says the same, for people and agents.
    let text = audit(&["--", &probe, "--broken"]);
    assert_eq!(text.status.code(), Some(1));
    let text = String::from_utf8_lossy(&text.stdout);
    assert!(text.starts_with("taria-mcp audit: "), "{text}");
    assert!(text.contains("no_visible_effect"), "{text}");
    assert!(text.contains("act save activate"), "{text}");
}

#[test]
fn a_command_that_is_no_app_is_a_violation_not_a_crash() {
    let output = audit(&["--json", "--", "/nonexistent/taria-audit-app"]);
    let report = report(&output);
    assert_eq!(output.status.code(), Some(1), "{report:#}");
    assert_eq!(report["violations"][0]["check"], "app_failed", "{report:#}");
}

#[test]
fn an_audit_without_a_command_prints_its_usage_and_fails() {
    let output = audit(&["--json"]);
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("usage: taria-mcp audit"), "{stderr}");
    assert!(output.stdout.is_empty());
}
