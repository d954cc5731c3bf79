//! `sort`, the action a table's column header offers: a CSV viewer sorts by a column
//! when Enter is pressed on its header (found porting one: the agent had only raw
//! keys for it). A handler on the headers' ids takes it with the column's key.

use ratatui::widgets::Paragraph;
use taria::testing::AppHarness;
use taria::{Action, Role};
use taria_schema::protocol::RejectReason;

struct Cities {
    rows: Vec<(&'static str, u32)>,
    sorted_by: Option<String>,
}

#[taria::actions]
impl Cities {
    #[action(node = "cities/header/*", sort)]
    fn sort_by(&mut self, key: String) -> Result<(), String> {
        match key.as_str() {
            "City" => self.rows.sort_by_key(|r| r.0),
            "Population" => self.rows.sort_by_key(|r| std::cmp::Reverse(r.1)),
            other => return Err(format!("no column {other}")),
        }
        self.sorted_by = Some(key);
        Ok(())
    }
}

fn draw(frame: &mut ratatui::Frame<'_>, app: &mut Cities) {
    let _table = taria::scope(|n| {
        n.role(Role::Table).id("cities");
    });
    {
        let _header = taria::scope(|n| {
            n.role(Role::Row).key("header");
        });
        for column in ["City", "Population"] {
            taria::leaf(|n| {
                n.role(Role::ColumnHeader)
                    .key(column)
                    .label(column)
                    .action(Action::Sort);
            });
        }
    }
    for (i, (city, _)) in app.rows.iter().enumerate() {
        taria::leaf(|n| {
            n.role(Role::Row).key(*city).label(*city).index(i);
        });
    }
    frame.render_widget(Paragraph::new("cities"), frame.area());
}

#[test]
fn an_agent_sorts_a_table_by_the_header_it_names() {
    let cities = Cities {
        rows: vec![("Lyon", 520), ("Paris", 2100), ("Arles", 50)],
        sorted_by: None,
    };
    let mut h = AppHarness::new(cities, 30, 6, draw);
    assert!(h.node("cities/header/City").offers("sort"));
    h.act("cities/header/Population", "sort").unwrap();
    assert_eq!(h.app().sorted_by.as_deref(), Some("Population"));
    let order: Vec<String> = h.node("cities").children[1..]
        .iter()
        .filter_map(|n| n.label.clone())
        .collect();
    assert_eq!(order, ["Paris", "Lyon", "Arles"]);
    // A row offers no `sort`: refused before the app is asked.
    let error = h.act("cities/Lyon", "sort").unwrap_err();
    assert_eq!(error.reason, RejectReason::ActionNotOffered, "{error}");
}
