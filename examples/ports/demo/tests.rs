//! The demo port headless: each tab's widgets record what they are, an agent switches
//! tabs and picks a server and a mail with the app's own keys, nothing is recorded
//! twice and nothing is offered that nothing performs.

use ratatui::crossterm::event::Event;
use taria::testing::{AppHarness, unperformed_offers};
use taria::{Query, Role};

use super::App;

fn demo() -> AppHarness<App<'static>> {
    AppHarness::new(
        App::new("Ratatui Demo"),
        100,
        30,
        |frame, app: &mut App<'_>| {
            app.draw(frame);
        },
    )
    .on_event(|app, event| {
        if let Event::Key(key) = event {
            app.on_key(key);
        }
    })
}

/// The id of the `role` node whose label starts with `label`, as an agent finds it.
fn id_of(h: &AppHarness<App<'_>>, role: Role, label: &str) -> String {
    h.find_all(&Query::new().role(role))
        .into_iter()
        .find(|n| n.label.as_deref().is_some_and(|l| l.starts_with(label)))
        .unwrap_or_else(|| panic!("no {role:?} {label:?}:\n{}", h.tree().outline()))
        .id
        .to_string()
}

#[test]
fn the_dashboard_records_its_gauge_and_charts() {
    let h = demo();
    assert_eq!(
        h.node(&id_of(&h, Role::Progress, "73%")).value,
        Some(taria::Value::Number(0.73))
    );
    let charts: Vec<String> = h
        .find_all(&Query::new().role(Role::Chart))
        .into_iter()
        .filter_map(|n| n.label)
        .collect();
    assert_eq!(charts, ["CPU, last minute", "Load", "Load by server"]);
    h.assert_text_drawn();
    h.assert_no_duplicate_nodes();
    h.assert_accessible();
}

#[test]
fn an_agent_opens_the_servers_and_the_mail_with_the_app_s_keys() {
    let mut h = demo();
    h.act(&id_of(&h, Role::Tab, "Servers"), "select").unwrap();
    let europe = id_of(&h, Role::Row, "Europe-1");
    h.act(&europe, "select").unwrap();
    assert!(h.node(&europe).state.selected);
    h.assert_no_duplicate_nodes();
    h.assert_accessible();

    h.act(&id_of(&h, Role::Tab, "Email"), "select").unwrap();
    let grace = id_of(&h, Role::ListItem, "Grace");
    h.act(&grace, "select").unwrap();
    assert_eq!(h.app().email_index, 2);
    let mail = h
        .find(&Query::new().role(Role::Text).label("Grace"))
        .expect("the open mail");
    assert_eq!(
        mail.value,
        Some(taria::Value::Text(
            "The compiler meeting moves to room 4.\nBring the benchmark results.".into()
        ))
    );
    h.assert_text_drawn();
    h.assert_no_duplicate_nodes();
    h.assert_accessible();
}

#[test]
fn everything_each_tab_offers_is_performed() {
    for tab in 0..3 {
        let unperformed = unperformed_offers(|| {
            let mut h = demo();
            h.app_mut().tab = tab;
            h.render();
            h
        });
        assert_eq!(unperformed, Vec::<String>::new(), "tab {tab}");
    }
}
