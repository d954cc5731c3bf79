//! Which handler an input reaches: id patterns (a space inside a segment, an escaped
//! `/`), and the handler whose value type fits.

use ratatui::widgets::Paragraph;
use taria::testing::AppHarness;
use taria::{Action, Role, Value};
use taria_schema::protocol::RejectReason;

/// Fields keyed by their labels: ids with a space inside (`form/First Name`).
#[derive(Default)]
struct Named {
    first: String,
    other: String,
}

#[taria::actions]
impl Named {
    // Issue 14: a pattern names an id made from a key with a space, as it is.
    #[action(node = "form/First Name", set_value)]
    fn set_first(&mut self, value: String) {
        self.first = value;
    }

    #[action(node = "form/*", set_value)]
    fn set_other(&mut self, value: String) {
        self.other = value;
    }
}

fn draw_named(frame: &mut ratatui::Frame<'_>, app: &mut Named) {
    frame.render_widget(Paragraph::new(app.first.as_str()), frame.area());
    let _form = taria::scope(|n| {
        n.role(Role::Form).id("form");
    });
    for (label, value) in [("First Name", &app.first), ("Last Name", &app.other)] {
        taria::leaf(|n| {
            n.role(Role::TextInput)
                .key(label)
                .label(label)
                .value(value.as_str())
                .action(Action::SetValue);
        });
    }
}

#[test]
fn a_handler_pattern_names_an_id_with_a_space_inside() {
    let mut h = AppHarness::new(Named::default(), 20, 2, draw_named);
    h.set_value("form/First Name", "Ada").unwrap();
    h.set_value("form/Last Name", "Lovelace").unwrap();
    assert_eq!(
        (h.app().first.as_str(), h.app().other.as_str()),
        ("Ada", "Lovelace")
    );
    assert_eq!(
        h.node("form/First Name").value,
        Some(Value::Text("Ada".into()))
    );
}

/// A form whose fields share one pattern but take different value types.
#[derive(Default)]
struct Profile {
    name: String,
    age: Option<u8>,
}

#[taria::actions]
impl Profile {
    // Issue 14: the `String` handler first no longer hides the `u8` one (it refuses
    // numbers, so the next handler is tried).
    #[action(node = "profile/*", set_value)]
    fn set_text(&mut self, value: String) {
        self.name = value;
    }

    #[action(node = "profile/Age", set_value)]
    fn set_age(&mut self, value: u8) {
        self.age = Some(value);
    }
}

fn draw_profile(frame: &mut ratatui::Frame<'_>, app: &mut Profile) {
    frame.render_widget(Paragraph::new(app.name.as_str()), frame.area());
    let _form = taria::scope(|n| {
        n.role(Role::Form).id("profile");
    });
    taria::leaf(|n| {
        n.role(Role::TextInput)
            .key("Name")
            .value(app.name.as_str())
            .action(Action::SetValue);
    });
    taria::leaf(|n| {
        n.role(Role::SpinButton)
            .key("Age")
            .value(app.age.unwrap_or(0))
            .min(0)
            .max(1000)
            .action(Action::SetValue);
    });
}

#[test]
fn dispatch_picks_the_handler_whose_value_type_fits() {
    let mut h = AppHarness::new(Profile::default(), 20, 2, draw_profile);
    h.set_value("profile/Age", 36).unwrap();
    h.set_value("profile/Name", "Ada").unwrap();
    assert_eq!((h.app().name.as_str(), h.app().age), ("Ada", Some(36)));
    // In the node's range (0..=1000), but no handler takes it: each one is named.
    let error = h.set_value("profile/Age", 300).unwrap_err();
    assert_eq!(error.reason, RejectReason::HandlerRejected);
    assert_eq!(
        error.message,
        "no handler takes `set_value` on `profile/Age`: `set_text(value: String)` (for \
         profile/*): expected text, got 300; `set_age(value: u8)` (for profile/Age): \
         expected a whole number in 0..=255, got 300"
    );
    assert_eq!(h.app().age, Some(36));
}

/// Entries keyed by names that hold `/` and `%`.
#[derive(Default)]
struct Paths {
    names: Vec<&'static str>,
    opened: Vec<String>,
}

#[taria::actions]
impl Paths {
    #[action(node = "paths/*", activate)]
    fn open(&mut self, key: String) {
        self.opened.push(key);
    }

    // A pattern names a keyed id as the tree shows it: escaped.
    #[action(node = "paths/a%2Fb", toggle)]
    fn toggle_ab(&mut self) {
        self.opened.push("toggled a/b".into());
    }

    #[action(node = "tree/**", activate)]
    fn open_nested(&mut self, key: &str) {
        self.opened.push(format!("nested {key}"));
    }
}

fn draw_paths(frame: &mut ratatui::Frame<'_>, app: &mut Paths) {
    frame.render_widget(Paragraph::new("paths"), frame.area());
    let list = taria::scope(|n| {
        n.role(Role::List).id("paths");
    });
    for name in &app.names {
        taria::leaf(|n| {
            n.role(Role::ListItem)
                .key(*name)
                .label(*name)
                .actions([Action::Activate, Action::Toggle]);
        });
    }
    drop(list);
    let _tree = taria::scope(|n| {
        n.role(Role::Tree).id("tree");
    });
    let _folder = taria::scope(|n| {
        n.role(Role::TreeItem).key("src");
    });
    taria::leaf(|n| {
        n.role(Role::TreeItem).key("a/b").action(Action::Activate);
    });
}

#[test]
fn a_key_with_a_slash_is_one_escaped_segment_and_the_handler_gets_it_back() {
    let mut h = AppHarness::new(
        Paths {
            names: vec!["a/b", "50%", "First Name"],
            ..Paths::default()
        },
        20,
        2,
        draw_paths,
    );
    let tree = h.tree();
    let ids: Vec<&str> = tree
        .get("paths")
        .unwrap()
        .children
        .iter()
        .map(|c| c.id.as_str())
        .collect();
    assert_eq!(ids, ["paths/a%2Fb", "paths/50%25", "paths/First Name"]);
    assert!(tree.get("paths/a/b").is_none() && tree.get("paths/a").is_none());
    assert!(tree.get("paths/a%2Fb").unwrap().stable);
    h.act("paths/a%2Fb", "activate").unwrap();
    h.act("paths/50%25", "activate").unwrap();
    h.act("paths/First Name", "activate").unwrap();
    h.act("paths/a%2Fb", "toggle").unwrap();
    // `**` stands for segments: the `/` between them stays, an escaped one comes back.
    h.act("tree/src/a%2Fb", "activate").unwrap();
    assert_eq!(
        h.app().opened,
        ["a/b", "50%", "First Name", "toggled a/b", "nested src/a/b"]
    );
    assert_eq!(taria::builder::escape_key("a/b"), "a%2Fb");
}

/// A table's cell handler: `grid/*/*` (a `*` per segment) takes the cells, not the
/// rows, so a row's `select` (an undrawn one included) is left to the table. Found
/// porting a CSV viewer: one wildcard per pattern made it `grid/**`, which took the
/// off-screen rows before the table could bring them into view.
#[derive(Default)]
struct Grid {
    cells: Vec<String>,
}

#[taria::actions]
impl Grid {
    #[action(node = "grid/*/*", select)]
    fn select_cell(&mut self, key: String) {
        self.cells.push(key);
    }
}

fn draw_grid(frame: &mut ratatui::Frame<'_>, _: &mut Grid) {
    frame.render_widget(Paragraph::new("grid"), frame.area());
    let _grid = taria::scope(|n| {
        n.role(Role::Table).id("grid").scroll(0, 100, 2);
    });
    for row in ["r1", "r2"] {
        let _row = taria::scope(|n| {
            n.role(Role::Row).key(row).action(Action::Select);
        });
        for column in ["c1", "c2"] {
            taria::leaf(|n| {
                n.role(Role::Cell).key(column).action(Action::Select);
            });
        }
    }
}

#[test]
fn a_star_per_segment_takes_a_table_s_cells_and_leaves_its_rows() {
    let mut h = AppHarness::new(Grid::default(), 20, 3, draw_grid);
    h.act("grid/r2/c1", "select").unwrap();
    assert_eq!(h.app().cells, ["r2/c1"]);
    // A row, drawn or not, is not the cell handler's.
    let _ = h.act("grid/r1", "select");
    let _ = h.act("grid/r77", "select");
    assert_eq!(h.app().cells, ["r2/c1"]);
}
