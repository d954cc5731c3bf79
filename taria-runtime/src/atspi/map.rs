//! The tree in AccessKit's terms, and a screen reader's requests in taria's: pure
//! functions of a [`Tree`], tested without D-Bus. The table a reader looks up is
//! `docs/accessibility.md`'s; each function here says its own part of it.

use std::collections::{HashMap, HashSet};

use accesskit::{
    Action as KitAction, ActionData as KitData, ActionRequest as KitRequest, Invalid,
    Node as KitNode, NodeId as KitId, Rect, Role as KitRole, Toggled, TreeId, TreeInfo, TreeUpdate,
};
use taria_schema::protocol::{ActionData, ActionRequest};
use taria_schema::{Action, ActionName, Checked, Node, Role, Tree, Value, ValueSchema};

/// A cell's size in pixels, for the bounds AT-SPI reports (`Component.GetExtents`).
/// A terminal app does not know its cells' pixels (few terminals say) nor where its
/// window is, so extents are nominal: right in proportion, relative to the window.
pub(super) const CELL: (f64, f64) = (8.0, 16.0);

/// The window every tree hangs from: the app, named by its label.
pub(super) const ROOT: KitId = KitId(0);

/// Node ids between frames: a taria id keeps its number while it is in the tree, so a
/// screen reader's object for a node survives the frames that redraw it.
///
/// Node `n` is AccessKit's `2n` and the text run inside it (a text value, which
/// AT-SPI's Text interface reads from a run) `2n + 1`; 0 is the window.
#[derive(Default)]
pub(super) struct Ids {
    numbers: HashMap<String, u64>,
    /// The taria id of each number, for a request's target.
    names: HashMap<u64, String>,
    next: u64,
}

impl Ids {
    /// The number of node `id`, kept from the frame before or new.
    fn number(&mut self, id: &str) -> u64 {
        if let Some(&number) = self.numbers.get(id) {
            return number;
        }
        self.next += 1;
        self.numbers.insert(id.to_owned(), self.next);
        self.names.insert(self.next, id.to_owned());
        self.next
    }

    /// Forgets the ids not in `kept` (nodes gone from the tree).
    fn keep_only(&mut self, kept: &HashSet<&str>) {
        self.numbers.retain(|id, _| kept.contains(id.as_str()));
        self.names.retain(|_, id| kept.contains(id.as_str()));
    }

    /// AccessKit's id of node `id`, if it was exported.
    #[cfg(test)]
    pub(super) fn kit_id(&self, id: &str) -> Option<KitId> {
        self.numbers.get(id).map(|n| KitId(2 * n))
    }

    /// The taria id of AccessKit node `target` (its node's, for a text run).
    pub(super) fn name(&self, target: KitId) -> Option<&str> {
        self.names.get(&(target.0 / 2)).map(String::as_str)
    }
}

/// The whole tree as one AccessKit update under a window named `label`; the adapter
/// sends AT-SPI only what changed since the last.
pub(super) fn update(tree: &Tree, label: &str, ids: &mut Ids) -> TreeUpdate {
    let mut seen = HashSet::new();
    let mut nodes = Vec::with_capacity(tree.len() + 1);
    let mut children = Vec::with_capacity(tree.roots.len());
    for root in &tree.roots {
        children.extend(add(root, ids, &mut seen, &mut nodes));
    }
    let mut window = window(label);
    window.set_children(children);
    nodes.push((ROOT, window));
    ids.keep_only(&seen);
    let focus = tree
        .focused()
        .map_or(ROOT, |node| KitId(2 * ids.number(node.id.as_str())));
    TreeUpdate {
        nodes,
        tree: Some(tree_info()),
        tree_id: TreeId::ROOT,
        focus,
    }
}

/// The tree before the app's first frame is exported: its window, empty.
pub(super) fn empty(label: &str) -> TreeUpdate {
    TreeUpdate {
        nodes: vec![(ROOT, window(label))],
        tree: Some(tree_info()),
        tree_id: TreeId::ROOT,
        focus: ROOT,
    }
}

fn tree_info() -> TreeInfo {
    let mut info = TreeInfo::new(ROOT);
    info.toolkit_name = Some("taria".into());
    info.toolkit_version = Some(env!("CARGO_PKG_VERSION").into());
    info
}

fn window(label: &str) -> KitNode {
    let mut window = KitNode::new(KitRole::Window);
    window.set_label(label);
    window
}

/// Adds `node` and its subtree to `nodes` (children first); returns its id. A node
/// whose id came before is left out with its subtree: the recorder renames duplicates
/// (`id~2`), and AccessKit takes a node once.
fn add<'t>(
    node: &'t Node,
    ids: &mut Ids,
    seen: &mut HashSet<&'t str>,
    nodes: &mut Vec<(KitId, KitNode)>,
) -> Option<KitId> {
    if !seen.insert(node.id.as_str()) {
        return None;
    }
    let id = KitId(2 * ids.number(node.id.as_str()));
    let mut out = convert(node);
    let mut children: Vec<KitId> = node
        .children
        .iter()
        .filter_map(|child| add(child, ids, seen, nodes))
        .collect();
    if let Some(run) = text_run(node) {
        children.insert(0, KitId(id.0 + 1));
        nodes.push((KitId(id.0 + 1), run));
    }
    if !children.is_empty() {
        out.set_children(children);
    }
    nodes.push((id, out));
    Some(id)
}

/// AccessKit's role for taria's (`docs/accessibility.md`, "Roles").
pub(super) fn role(role: Role) -> KitRole {
    match role {
        Role::Region => KitRole::Region,
        // `app`: the window is the app already (AccessKit's `Application` is AT-SPI's
        // "embedded", a plug-in's role).
        Role::App | Role::Group | Role::FormField => KitRole::Group,
        Role::Dialog => KitRole::Dialog,
        Role::Tabs => KitRole::TabList,
        Role::Tab => KitRole::Tab,
        Role::Menu => KitRole::Menu,
        Role::MenuItem => KitRole::MenuItem,
        Role::List => KitRole::List,
        Role::ListItem => KitRole::ListItem,
        Role::Tree => KitRole::Tree,
        Role::TreeItem => KitRole::TreeItem,
        Role::Table => KitRole::Table,
        Role::Row => KitRole::Row,
        Role::Cell => KitRole::Cell,
        Role::ColumnHeader => KitRole::ColumnHeader,
        Role::TextInput => KitRole::TextInput,
        Role::TextArea => KitRole::MultilineTextInput,
        Role::Button => KitRole::Button,
        Role::Checkbox => KitRole::CheckBox,
        Role::Radio => KitRole::RadioButton,
        Role::Switch => KitRole::Switch,
        Role::Select => KitRole::ComboBox,
        Role::Option => KitRole::ListBoxOption,
        Role::Slider => KitRole::Slider,
        Role::SpinButton => KitRole::SpinButton,
        Role::Link => KitRole::Link,
        Role::Text => KitRole::Label,
        Role::Heading => KitRole::Heading,
        Role::Log => KitRole::Log,
        Role::Progress => KitRole::ProgressIndicator,
        Role::Status => KitRole::Status,
        Role::Scrollbar => KitRole::ScrollBar,
        Role::Chart => KitRole::Figure,
        Role::Image => KitRole::Image,
        Role::Terminal => KitRole::Terminal,
        Role::Form => KitRole::Form,
        Role::Notification => KitRole::Alert,
        Role::Toolbar => KitRole::Toolbar,
        Role::Separator => KitRole::Splitter,
        Role::Tooltip => KitRole::Tooltip,
        // `Unknown`, and roles added later: a container whose name and children
        // still read.
        _ => KitRole::GenericContainer,
    }
}

/// The actions that a screen reader's "click" performs, in the order one is chosen
/// (`click_action`).
const CLICKS: [Action; 5] = [
    Action::Toggle,
    Action::Activate,
    Action::Select,
    Action::Submit,
    Action::Sort,
];

/// One node in AccessKit's terms, without its children.
fn convert(node: &Node) -> KitNode {
    let input = matches!(node.role, Role::TextInput | Role::TextArea);
    let kit_role = if node.state.redacted && input {
        KitRole::PasswordInput
    } else {
        role(node.role)
    };
    let mut out = KitNode::new(kit_role);
    if let Some(custom) = &node.custom_role {
        out.set_role_description(custom.as_str());
    }
    if let Some(label) = &node.label {
        out.set_label(label.as_str());
    }
    match &node.value {
        Some(Value::Text(text)) if !node.state.redacted => out.set_value(text.as_str()),
        Some(Value::Number(number)) => out.set_numeric_value(*number),
        Some(Value::Bool(on)) if node.state.checked.is_none() => {
            out.set_toggled(Toggled::from(*on));
        }
        _ => {}
    }
    if let Some(ValueSchema::Number { min, max, step, .. }) = &node.value_schema {
        if let Some(min) = min {
            out.set_min_numeric_value(*min);
        }
        if let Some(max) = max {
            out.set_max_numeric_value(*max);
        }
        if let Some(step) = step {
            out.set_numeric_value_step(*step);
        }
    }
    state(node, &mut out);
    for action in actions(node) {
        out.add_action(action);
    }
    out.set_bounds(pixels(node));
    out
}

/// A node's bounds in nominal pixels ([`CELL`]).
fn pixels(node: &Node) -> Rect {
    let b = node.bounds;
    let (w, h) = CELL;
    Rect::new(
        f64::from(b.x) * w,
        f64::from(b.y) * h,
        f64::from(b.x.saturating_add(b.width)) * w,
        f64::from(b.y.saturating_add(b.height)) * h,
    )
}

fn state(node: &Node, out: &mut KitNode) {
    let state = &node.state;
    match state.checked {
        Some(Checked::True) => out.set_toggled(Toggled::True),
        Some(Checked::False) => out.set_toggled(Toggled::False),
        Some(Checked::Mixed) => out.set_toggled(Toggled::Mixed),
        None => {}
    }
    // Selectable items say "not selected" too, so a reader knows they can be.
    if state.selected || node.offers(Action::Select.name()) {
        out.set_selected(state.selected);
    }
    if let Some(expanded) = state.expanded {
        out.set_expanded(expanded);
    }
    if state.disabled {
        out.set_disabled();
    }
    if state.busy {
        out.set_busy();
    }
    if state.required {
        out.set_required();
    }
    if state.readonly {
        out.set_read_only();
    }
    if state.modal {
        out.set_modal();
    }
    if state.invalid {
        out.set_invalid(Invalid::True);
        if let Some(message) = &state.invalid_message {
            out.set_description(message.as_str());
        }
    }
    // Behind a modal dialog: drawn, but not reachable until it closes.
    if state.inert {
        out.set_hidden();
    }
}

/// The AccessKit actions a node offers: `Click` for any of [`CLICKS`] or an expand or
/// collapse, `Focus`, `SetValue`, `Increment` and `Decrement`.
fn actions(node: &Node) -> impl Iterator<Item = KitAction> + '_ {
    let click = click_action(node).is_some();
    [
        (click, KitAction::Click),
        (node.offers(Action::Focus.name()), KitAction::Focus),
        (
            node.offers(Action::SetValue.name()) || steps(node),
            KitAction::SetValue,
        ),
        (node.offers(Action::Increment.name()), KitAction::Increment),
        (node.offers(Action::Decrement.name()), KitAction::Decrement),
    ]
    .into_iter()
    .filter_map(|(offered, action)| offered.then_some(action))
}

/// Whether a numeric value moves by `increment` and `decrement`, which a reader's
/// "set value" becomes when the node takes no `set_value`.
fn steps(node: &Node) -> bool {
    matches!(node.value, Some(Value::Number(_)))
        && (node.offers(Action::Increment.name()) || node.offers(Action::Decrement.name()))
}

/// What a screen reader's "click" on `node` performs: the first of [`CLICKS`] it
/// offers, else `expand` or `collapse` as it is collapsed or expanded.
pub(super) fn click_action(node: &Node) -> Option<Action> {
    if let Some(action) = CLICKS.into_iter().find(|a| node.offers(a.name())) {
        return Some(action);
    }
    let toggle_open = if node.state.expanded == Some(true) {
        Action::Collapse
    } else {
        Action::Expand
    };
    node.offers(toggle_open.name()).then_some(toggle_open)
}

/// The run that holds a node's text value, which AT-SPI's Text interface reads (an
/// editable field's, or a text node's value beside its name).
fn text_run(node: &Node) -> Option<KitNode> {
    let Some(Value::Text(text)) = &node.value else {
        return None;
    };
    if node.state.redacted {
        return None;
    }
    let mut run = KitNode::new(KitRole::TextRun);
    run.set_value(text.as_str());
    // One length per character, in UTF-8 bytes (AccessKit's text model); a character
    // is at most 4 bytes.
    let lengths: Vec<u8> = text
        .chars()
        .map(|c| u8::try_from(c.len_utf8()).unwrap_or(4))
        .collect();
    run.set_character_lengths(lengths);
    let mut starts = Vec::new();
    let mut after_space = true;
    for (at, c) in text.chars().enumerate() {
        // Word starts are kept as u8 indexes: words past 255 characters are not
        // marked (a reader still reads the text; it steps words by character).
        if after_space
            && !c.is_whitespace()
            && let Ok(at) = u8::try_from(at)
        {
            starts.push(at);
        }
        after_space = c.is_whitespace();
    }
    run.set_word_starts(starts);
    run.set_bounds(pixels(node));
    Some(run)
}

/// A screen reader's request as the input an agent would send for it, against the
/// tree last exported; why not, when it has none.
pub(super) fn request(
    request: &KitRequest,
    tree: &Tree,
    ids: &Ids,
) -> Result<ActionRequest, String> {
    let id = ids.name(request.target_node).ok_or_else(|| {
        format!(
            "no node {} in the tree exported last",
            request.target_node.0
        )
    })?;
    let node = tree
        .get(id)
        .ok_or_else(|| format!("`{id}` is no longer in the tree"))?;
    let (action, data) = match (request.action, &request.data) {
        (KitAction::Click, _) => {
            let action = click_action(node)
                .ok_or_else(|| format!("`{id}` offers nothing a click performs"))?;
            (action, None)
        }
        (KitAction::Focus, _) => (Action::Focus, None),
        (KitAction::Increment, _) => (Action::Increment, None),
        (KitAction::Decrement, _) => (Action::Decrement, None),
        (KitAction::SetValue, Some(KitData::Value(text))) => {
            (Action::SetValue, Some(Value::Text(text.to_string())))
        }
        (KitAction::SetValue, Some(KitData::NumericValue(number))) => numeric(node, *number)
            .ok_or_else(|| format!("`{id}` already has the value {number}, or takes no value"))?,
        (other, _) => {
            return Err(format!(
                "{other:?} has no taria action (docs/accessibility.md, \"Actions\")"
            ));
        }
    };
    Ok(ActionRequest {
        target: node.id.clone(),
        action: ActionName::Core(action),
        data: data.map(|value| ActionData::Value { value }),
        token: None,
    })
}

/// A reader's new number for `node`: `set_value` when it takes one, else a step
/// toward it (`increment` or `decrement`, one per request, as a reader's arrow keys
/// send them).
fn numeric(node: &Node, number: f64) -> Option<(Action, Option<Value>)> {
    if node.offers(Action::SetValue.name()) {
        return Some((Action::SetValue, Some(Value::Number(number))));
    }
    let Some(Value::Number(now)) = node.value else {
        return None;
    };
    if number > now && node.offers(Action::Increment.name()) {
        Some((Action::Increment, None))
    } else if number < now && node.offers(Action::Decrement.name()) {
        Some((Action::Decrement, None))
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use taria_schema::Bounds;

    fn node(id: &str, role: Role, label: &str, actions: &[Action]) -> Node {
        let mut node = Node::default();
        node.id = id.into();
        node.role = role;
        node.label = Some(label.to_owned());
        node.actions = actions.iter().copied().map(ActionName::from).collect();
        node.bounds = Bounds {
            x: 2,
            y: 3,
            width: 10,
            height: 1,
        };
        node
    }

    fn tree(roots: Vec<Node>) -> Tree {
        let mut tree = Tree::default();
        tree.roots = roots;
        tree
    }

    fn todo() -> Tree {
        let mut done = node(
            "tasks/1",
            Role::ListItem,
            "Write",
            &[Action::Toggle, Action::Select],
        );
        done.state.checked = Some(Checked::True);
        let open = node(
            "tasks/2",
            Role::ListItem,
            "Ship",
            &[Action::Toggle, Action::Select],
        );
        let mut list = node("tasks", Role::List, "Tasks", &[]);
        list.children = vec![done, open];
        let mut field = node(
            "new",
            Role::TextInput,
            "New task",
            &[Action::SetValue, Action::Focus],
        );
        field.value = Some(Value::Text("héllo wörld".into()));
        field.state.focused = true;
        tree(vec![list, field])
    }

    fn by_label<'u>(update: &'u TreeUpdate, label: &str) -> (KitId, &'u KitNode) {
        update
            .nodes
            .iter()
            .find(|(_, n)| n.label() == Some(label))
            .map(|(id, n)| (*id, n))
            .expect("a node with that label")
    }

    #[test]
    fn every_role_has_its_own_accesskit_role_but_unknown() {
        let mut seen = HashSet::new();
        for &role in Role::ALL {
            assert_ne!(super::role(role), KitRole::GenericContainer, "{role:?}");
            seen.insert(super::role(role));
        }
        // Three share `Group`: `app`, `group`, `form_field`.
        assert_eq!(seen.len(), Role::ALL.len() - 2);
        assert_eq!(super::role(Role::Unknown), KitRole::GenericContainer);
    }

    #[test]
    fn the_tree_hangs_from_a_window_named_by_the_label_with_states_actions_and_focus() {
        let mut ids = Ids::default();
        let update = update(&todo(), "todo", &mut ids);
        let (root, window) = update
            .nodes
            .iter()
            .find(|(id, _)| *id == ROOT)
            .expect("root");
        assert_eq!(
            (*root, window.role(), window.label()),
            (ROOT, KitRole::Window, Some("todo"))
        );
        assert_eq!(window.children().len(), 2);

        let (_, done) = by_label(&update, "Write");
        assert_eq!(done.role(), KitRole::ListItem);
        assert_eq!(done.toggled(), Some(Toggled::True));
        assert_eq!(done.is_selected(), Some(false), "selectable, not selected");
        assert!(done.supports_action(KitAction::Click));
        assert!(!done.supports_action(KitAction::Focus));
        let bounds = done.bounds().expect("bounds");
        assert_eq!(
            (bounds.x0, bounds.y0, bounds.x1, bounds.y1),
            (16.0, 48.0, 96.0, 64.0)
        );

        // The field's text is in a run of its own (AT-SPI's Text reads runs), and it
        // has the focus.
        let (field_id, field) = by_label(&update, "New task");
        assert_eq!(field.value(), Some("héllo wörld"));
        assert!(
            field.supports_action(KitAction::SetValue) && field.supports_action(KitAction::Focus)
        );
        assert_eq!(update.focus, field_id);
        let run_id = field.children()[0];
        let (_, run) = update
            .nodes
            .iter()
            .find(|(id, _)| *id == run_id)
            .expect("run");
        assert_eq!(run.role(), KitRole::TextRun);
        assert_eq!(run.value(), Some("héllo wörld"));
        assert_eq!(run.character_lengths(), &[1, 2, 1, 1, 1, 1, 1, 2, 1, 1, 1]);
        assert_eq!(run.word_starts(), &[0, 6]);
        // Every child named is in the update.
        for (_, n) in &update.nodes {
            for child in n.children() {
                assert!(update.nodes.iter().any(|(id, _)| id == child), "{child:?}");
            }
        }
    }

    #[test]
    fn a_node_keeps_its_number_while_it_stays_and_a_gone_one_is_forgotten() {
        let mut ids = Ids::default();
        let first = update(&todo(), "todo", &mut ids);
        let (write, _) = by_label(&first, "Write");
        let mut fewer = todo();
        fewer.roots[0].children.remove(1);
        let second = update(&fewer, "todo", &mut ids);
        assert_eq!(by_label(&second, "Write").0, write);
        assert_eq!(ids.name(write), Some("tasks/1"));
        assert_eq!(
            ids.name(KitId(write.0 + 1)),
            Some("tasks/1"),
            "a run is its node's"
        );
        assert!(!ids.numbers.contains_key("tasks/2") && ids.names.len() == ids.numbers.len());
        // It comes back with a new number, never an old one's.
        let third = update(&todo(), "todo", &mut ids);
        assert!(by_label(&third, "Ship").0 != by_label(&first, "Ship").0);
    }

    #[test]
    fn a_node_is_exported_once_even_if_its_id_comes_twice() {
        let twice = tree(vec![
            node("a", Role::Button, "first", &[]),
            node("a", Role::Button, "second", &[]),
        ]);
        let update = update(&twice, "app", &mut Ids::default());
        assert_eq!(update.nodes.len(), 2, "the window and the first");
        assert!(
            update
                .nodes
                .iter()
                .all(|(_, n)| n.label() != Some("second"))
        );
    }

    #[test]
    fn a_secret_is_a_password_field_with_no_text() {
        let mut secret = node("pw", Role::TextInput, "Password", &[Action::SetValue]);
        secret.value = Some(Value::Text("hunter2".into()));
        secret.state.redacted = true;
        let update = update(&tree(vec![secret]), "app", &mut Ids::default());
        let (_, field) = by_label(&update, "Password");
        assert_eq!(field.role(), KitRole::PasswordInput);
        assert_eq!(field.value(), None);
        assert!(field.children().is_empty());
        assert!(
            !update
                .nodes
                .iter()
                .any(|(_, n)| n.value() == Some("hunter2"))
        );
    }

    #[test]
    fn states_and_numbers_are_carried() {
        let mut slider = node(
            "vol",
            Role::Slider,
            "Volume",
            &[Action::Increment, Action::Decrement],
        );
        slider.value = Some(Value::Number(5.0));
        slider.value_schema = Some(ValueSchema::Number {
            min: Some(0.0),
            max: Some(10.0),
            step: Some(1.0),
        });
        slider.state.disabled = true;
        slider.state.invalid = true;
        slider.state.invalid_message = Some("too loud".into());
        slider.state.expanded = Some(false);
        slider.state.inert = true;
        let update = update(&tree(vec![slider]), "app", &mut Ids::default());
        let (_, n) = by_label(&update, "Volume");
        assert_eq!(n.numeric_value(), Some(5.0));
        assert_eq!(
            (
                n.min_numeric_value(),
                n.max_numeric_value(),
                n.numeric_value_step()
            ),
            (Some(0.0), Some(10.0), Some(1.0))
        );
        assert!(n.is_disabled() && n.is_hidden());
        assert_eq!(n.invalid(), Some(Invalid::True));
        assert_eq!(n.description(), Some("too loud"));
        assert_eq!(n.is_expanded(), Some(false));
        assert!(
            n.supports_action(KitAction::SetValue),
            "a reader's new value becomes steps"
        );
        assert!(!n.supports_action(KitAction::Click));
    }

    #[test]
    fn a_click_performs_the_first_of_toggle_activate_select_submit_sort_else_opens_or_closes() {
        let pick = |actions: &[Action], expanded: Option<bool>| {
            let mut n = node("n", Role::Button, "n", actions);
            n.state.expanded = expanded;
            click_action(&n)
        };
        assert_eq!(
            pick(&[Action::Select, Action::Toggle], None),
            Some(Action::Toggle)
        );
        assert_eq!(
            pick(&[Action::Select, Action::Activate], None),
            Some(Action::Activate)
        );
        assert_eq!(
            pick(&[Action::Sort, Action::Select], None),
            Some(Action::Select)
        );
        assert_eq!(
            pick(&[Action::Expand, Action::Collapse], Some(false)),
            Some(Action::Expand)
        );
        assert_eq!(
            pick(&[Action::Expand, Action::Collapse], Some(true)),
            Some(Action::Collapse)
        );
        assert_eq!(pick(&[Action::Focus, Action::Dismiss], None), None);
    }

    fn ask(
        tree: &Tree,
        ids: &Ids,
        label: &str,
        action: KitAction,
        data: Option<KitData>,
    ) -> Result<ActionRequest, String> {
        let target = ids.numbers[tree
            .iter()
            .find(|n| n.label.as_deref() == Some(label))
            .expect("node")
            .id
            .as_str()];
        request(
            &KitRequest {
                action,
                target_tree: TreeId::ROOT,
                target_node: KitId(2 * target),
                data,
            },
            tree,
            ids,
        )
    }

    #[test]
    fn a_readers_request_becomes_the_input_an_agent_would_send() {
        let tree = todo();
        let mut ids = Ids::default();
        update(&tree, "todo", &mut ids);
        let click = ask(&tree, &ids, "Ship", KitAction::Click, None).expect("mapped");
        assert_eq!(click, ActionRequest::new("tasks/2", Action::Toggle));
        let text = ask(
            &tree,
            &ids,
            "New task",
            KitAction::SetValue,
            Some(KitData::Value("milk".into())),
        )
        .expect("mapped");
        assert_eq!(text.action, ActionName::Core(Action::SetValue));
        assert_eq!(
            text.data,
            Some(ActionData::Value {
                value: Value::Text("milk".into())
            })
        );
        let focus = ask(&tree, &ids, "New task", KitAction::Focus, None).expect("mapped");
        assert_eq!(focus, ActionRequest::new("new", Action::Focus));
        // A request the model has no action for says so.
        let scroll = ask(&tree, &ids, "Ship", KitAction::ScrollIntoView, None).unwrap_err();
        assert!(scroll.contains("ScrollIntoView"), "{scroll}");
        let nothing = ask(&tree, &ids, "Tasks", KitAction::Click, None).unwrap_err();
        assert!(
            nothing.contains("offers nothing a click performs"),
            "{nothing}"
        );
        // A node that is gone: an id the last export did not have.
        let gone = request(
            &KitRequest {
                action: KitAction::Click,
                target_tree: TreeId::ROOT,
                target_node: KitId(9_999),
                data: None,
            },
            &tree,
            &ids,
        )
        .unwrap_err();
        assert!(gone.contains("no node"), "{gone}");
    }

    #[test]
    fn a_readers_new_number_is_set_or_stepped_toward() {
        let mut stepper = node(
            "vol",
            Role::Slider,
            "Volume",
            &[Action::Increment, Action::Decrement],
        );
        stepper.value = Some(Value::Number(5.0));
        let mut setter = node("zoom", Role::Slider, "Zoom", &[Action::SetValue]);
        setter.value = Some(Value::Number(1.0));
        let tree = tree(vec![stepper, setter]);
        let mut ids = Ids::default();
        update(&tree, "app", &mut ids);
        let to = |label: &str, number: f64| {
            ask(
                &tree,
                &ids,
                label,
                KitAction::SetValue,
                Some(KitData::NumericValue(number)),
            )
        };
        assert_eq!(
            to("Volume", 7.0).expect("up").action,
            ActionName::Core(Action::Increment)
        );
        assert_eq!(
            to("Volume", 2.0).expect("down").action,
            ActionName::Core(Action::Decrement)
        );
        assert!(to("Volume", 5.0).is_err(), "already there");
        let zoom = to("Zoom", 2.5).expect("set");
        assert_eq!(
            zoom.data,
            Some(ActionData::Value {
                value: Value::Number(2.5)
            })
        );
    }
}
