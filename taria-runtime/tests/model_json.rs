//! The JSON form: compact, lenient with what a newer peer sends, round-trips.

use taria::node::{ActionName, ValueSchema};
use taria::testing::Harness;
use taria::{Action, Role, Tree, Value};

#[test]
fn json_drops_empty_fields_and_uses_camel_case() {
    let tree = Harness::new(10, 1).render(|frame| {
        taria::leaf(|n| {
            n.role(Role::Select)
                .id("size")
                .label("Size")
                .value("M")
                .options(["S", "M", "L"])
                .action(Action::SetValue)
                .bounds(frame.area());
        });
    });
    let json = serde_json::to_value(&tree.roots[0]).unwrap();
    assert_eq!(
        json,
        serde_json::json!({
            "id": "size",
            "role": "select",
            "label": "Size",
            "value": "M",
            "valueSchema": {"type": "options", "options": ["S", "M", "L"]},
            "actions": ["set_value"],
            "bounds": [0, 0, 10, 1]
        })
    );
}

#[test]
fn json_round_trips() {
    let tree = Harness::new(10, 2).render(|_| {
        let _list = taria::scope(|n| {
            n.role(Role::List).id("l").scroll(3, 40, 2);
        });
        taria::leaf(|n| {
            n.role(Role::ListItem)
                .label("x")
                .checked(true)
                .index(3)
                .count(40)
                .custom_action("archive");
        });
    });
    let json = serde_json::to_string(&tree).unwrap();
    let back: Tree = serde_json::from_str(&json).unwrap();
    assert_eq!(back, tree);
}

#[test]
fn unknown_roles_actions_and_fields_degrade_instead_of_failing() {
    let json = r#"{
        "frame": 7,
        "roots": [{
            "id": "x",
            "role": "hologram",
            "customRole": "holo_card",
            "label": "From the future",
            "actions": ["activate", "teleport"],
            "sparkle": {"level": 9},
            "focused": true,
            "bounds": [1, 2, 3, 4]
        }],
        "futureTopLevel": true
    }"#;
    let tree: Tree = serde_json::from_str(json).unwrap();
    let node = &tree.roots[0];
    assert_eq!(node.role, Role::Unknown);
    assert_eq!(node.custom_role.as_deref(), Some("holo_card"));
    assert_eq!(
        node.actions,
        [
            ActionName::Core(Action::Activate),
            ActionName::Custom("teleport".into())
        ]
    );
    assert!(node.state.focused);
    assert!(node.stable, "a missing `stable` means stable");
}

#[test]
fn value_schemas_check_their_domain() {
    let number = ValueSchema::Number {
        min: Some(0.0),
        max: Some(1.0),
        step: Some(0.25),
    };
    assert!(number.check(&Value::Number(0.75)).is_ok());
    assert_eq!(
        number.check(&Value::Number(0.3)).unwrap_err().to_string(),
        "0.3 is not a multiple of the step 0.25"
    );
    assert_eq!(
        number.check(&Value::Number(2.0)).unwrap_err().to_string(),
        "2 is outside 0..=1"
    );
    assert!(number.check(&Value::Number(f64::NAN)).is_err());
    assert_eq!(
        number
            .check(&Value::Text("a".into()))
            .unwrap_err()
            .to_string(),
        "expected number, got a"
    );
    let text = ValueSchema::Text { max_len: Some(3) };
    assert!(text.check(&Value::Text("héé".into())).is_ok());
    assert!(text.check(&Value::Text("four".into())).is_err());
    let options = ValueSchema::Options {
        options: vec!["S".into(), "M".into()],
    };
    assert!(options.check(&Value::Text("M".into())).is_ok());
    assert!(options.check(&Value::Text("XL".into())).is_err());
}

#[test]
fn a_checkbox_offering_set_value_takes_a_bool() {
    let tree = Harness::new(10, 1).render(|_| {
        taria::leaf(|n| {
            n.role(Role::Checkbox)
                .id("c")
                .checked(false)
                .action(Action::SetValue);
        });
    });
    assert_eq!(tree.get("c").unwrap().value_schema, Some(ValueSchema::Bool));
}
