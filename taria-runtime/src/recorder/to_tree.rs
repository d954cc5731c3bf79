//! Turns a recorded frame into the owned [`Tree`] consumers read.

use super::arena::{ActionRef, ArenaDiagnostic, FrameArena, NodeRecord, ValueRecord};
use taria_schema::{
    Action, ActionName, Checked, Diagnostic, Node, NodeId, Role, State, StateFlags, Tree, Value,
    ValueSchema,
};

impl FrameArena {
    /// The frame's owned tree.
    pub(crate) fn to_tree(&self) -> taria_schema::Tree {
        build(self)
    }
}

pub(crate) fn build(arena: &FrameArena) -> Tree {
    let mut roots = Vec::new();
    let mut i = 0;
    while i < arena.nodes.len() {
        roots.push(build_node(arena, i));
        i = arena.nodes[i].end as usize;
    }
    let mut diagnostics: Vec<Diagnostic> = arena
        .diagnostics
        .iter()
        .map(|d| match *d {
            ArenaDiagnostic::DuplicateId { requested, node } => Diagnostic::DuplicateId {
                id: arena.str(requested).to_owned(),
                renamed_to: arena.str(arena.nodes[node as usize].id).to_owned(),
            },
        })
        .collect();
    if arena.skipped_by_depth > 0 {
        diagnostics.push(Diagnostic::DepthLimit {
            skipped: arena.skipped_by_depth,
        });
    }
    if arena.skipped_by_count > 0 {
        diagnostics.push(Diagnostic::NodeLimit {
            skipped: arena.skipped_by_count,
        });
    }
    let mut tree = Tree::default();
    tree.frame = arena.frame;
    tree.roots = roots;
    tree.diagnostics = diagnostics;
    tree
}

fn build_node(arena: &FrameArena, index: usize) -> Node {
    let record = &arena.nodes[index];
    let redacted = record.flags.contains(StateFlags::REDACTED);
    let mut state = State::default();
    state.set_flags(record.flags);
    state.checked = record.checked;
    state.expanded = record.expanded;
    state.invalid_message = record.invalid_message.map(|s| arena.str(s).to_owned());

    let mut actions: Vec<ActionName> = record.actions.iter().map(ActionName::Core).collect();
    actions.extend(
        arena.spans[record.custom_actions.indices()]
            .iter()
            .map(|s| ActionName::Custom(arena.str(*s).to_owned())),
    );
    let keys = arena.keys[record.keys.indices()]
        .iter()
        .map(|(action, key)| {
            let action = match action {
                ActionRef::Core(a) => a.name().to_owned(),
                ActionRef::Custom(span) => arena.str(*span).to_owned(),
            };
            (action, arena.str(*key).to_owned())
        })
        .collect();

    let redacted_length = match record.value {
        ValueRecord::Text(span) if redacted && !arena.str(span).is_empty() => {
            Some(u32::try_from(arena.str(span).chars().count()).unwrap_or(u32::MAX))
        }
        ValueRecord::Number(n) if redacted => {
            Some(u32::try_from(Value::Number(n).to_string().len()).unwrap_or(u32::MAX))
        }
        _ => None,
    };
    let value = if redacted {
        None
    } else {
        match record.value {
            ValueRecord::None => None,
            ValueRecord::Text(span) => Some(Value::Text(arena.str(span).to_owned())),
            ValueRecord::Number(n) => Some(Value::Number(n)),
            ValueRecord::Bool(b) => Some(Value::Bool(b)),
        }
    };
    let value_schema = record
        .actions
        .contains(Action::SetValue)
        .then(|| schema(arena, record));

    let mut children = Vec::new();
    let mut child = index + 1;
    while child < record.end as usize {
        children.push(build_node(arena, child));
        child = arena.nodes[child].end as usize;
    }

    // `Node` is `non_exhaustive` (the schema's): built field by field.
    let mut node = Node::default();
    node.id = NodeId::new(arena.str(record.id));
    node.stable = record.stable;
    node.role = record.role;
    node.custom_role = record.custom_role.map(|s| arena.str(s).to_owned());
    node.label = record.label.map(|s| arena.str(s).to_owned());
    node.value = value;
    node.redacted_length = redacted_length;
    node.value_schema = value_schema;
    node.state = state;
    node.actions = actions;
    node.keys = keys;
    node.position = record.position;
    node.scroll = record.scroll;
    node.bounds = record.bounds;
    node.children = children;
    node
}

/// The domain of a settable node, from what it recorded: options win, then a
/// numeric range or value, then a bool value or a checkable/switch role, else text.
pub(crate) fn schema(arena: &FrameArena, record: &NodeRecord) -> ValueSchema {
    if record.options.start != record.options.end {
        let options = arena.spans[record.options.indices()]
            .iter()
            .map(|s| arena.str(*s).to_owned())
            .collect();
        return ValueSchema::Options { options };
    }
    let numeric = record.min.is_some() || record.max.is_some() || record.step.is_some();
    match record.value {
        ValueRecord::Number(_) => ValueSchema::Number {
            min: record.min,
            max: record.max,
            step: record.step,
        },
        _ if numeric => ValueSchema::Number {
            min: record.min,
            max: record.max,
            step: record.step,
        },
        ValueRecord::Bool(_) => ValueSchema::Bool,
        _ if record.checked.is_some_and(|c| c != Checked::Mixed)
            || matches!(record.role, Role::Switch) =>
        {
            ValueSchema::Bool
        }
        _ => ValueSchema::Text {
            max_len: record.max_len,
        },
    }
}
