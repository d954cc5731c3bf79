//! The per-frame store: flat node records in drawing order plus one text buffer.
//!
//! Everything here is cleared, not freed, between frames, so once the vectors have
//! grown to a frame's size, recording allocates nothing.
//!
//! The records are in pre-order, each knowing its parent and one past its last
//! descendant, so children are walked without a child list; one `String` holds every
//! text (ids, labels, values, option names); side tables hold option and custom-action
//! spans and key fallbacks; the ids by hash are `ids.rs`'s. `clear` destructures `Self`
//! so a new field cannot be forgotten, and `benches/tests/alloc.rs` asserts that a warm
//! frame allocates nothing.
//!
//! Beyond what each node says, the arena decides:
//!
//! * Enclosing: a leaf marked `encloses` (a `taria-widgets` `Block` given a role) stays
//!   open, and the nodes recorded after it whose bounds lie inside its bounds become its
//!   children, so a popup drawn as a frame and then its text is one node holding the
//!   text, with no guard for the app to keep. A scope with bounds is likewise left by
//!   the first node drawn wholly outside them, so a guard that lives to the end of its
//!   block does not take in the siblings drawn after its children (a calendar's months
//!   became children of the list drawn before them).
//! * The modal rule (`finish`): a node marked `modal` (the last one drawn wins) makes
//!   every node outside its subtree offer no actions, so nothing behind a dialog can be
//!   driven; those that offered something are marked `inert`, so outlines keep their ids
//!   for when the dialog closes.
//! * The text field rule (`finish`, `withdraw_keys_of_unfocused_fields`).
//! * The limits (`MAX_DEPTH`, `MAX_NODES`, `MAX_LABEL_BYTES`, `MAX_VALUE_BYTES`): deeper
//!   scopes and nodes past the count are left out and counted in the tree's diagnostics;
//!   longer text is cut at a character boundary.

use std::fmt::Display;

use super::ids::{IdPrefix, IdTable};
use super::text::{IntoText, TextSink, truncate};
use taria_schema::{
    Action, ActionSet, Bounds, Checked, MAX_DEPTH, MAX_NODES, Position, Role, ScrollInfo,
    StateFlags, hash_id_text as hash_bytes,
};

/// A byte range of [`FrameArena::text`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Span {
    pub(crate) start: u32,
    pub(crate) end: u32,
}

impl Span {
    /// What was appended to `text` since it was `start` bytes long.
    #[inline]
    pub(crate) fn since(start: usize, text: &str) -> Span {
        Span {
            start: start as u32,
            end: text.len() as u32,
        }
    }

    /// The span's text in `text` (empty if it is not there).
    #[inline]
    pub(crate) fn text(self, text: &str) -> &str {
        text.get(self.start as usize..self.end as usize)
            .unwrap_or_default()
    }

    /// The span's bytes in `text` (none if it is not there).
    #[inline]
    pub(crate) fn bytes(self, text: &str) -> &[u8] {
        text.as_bytes()
            .get(self.start as usize..self.end as usize)
            .unwrap_or_default()
    }
}

/// Appends `value`'s text (see [`IntoText`]) to `text`, cut to `cap` bytes at a
/// character boundary, as [`append_display`] would cut its display form.
#[inline]
pub(crate) fn append_text(text: &mut String, value: impl IntoText, cap: usize) -> Span {
    let start = text.len();
    value.write_text(&mut TextSink::new(text, cap));
    Span::since(start, text)
}

/// Appends `value`'s display form to `text`, cut to `cap` bytes at a character boundary.
pub(crate) fn append_display(text: &mut String, value: &dyn Display, cap: usize) -> Span {
    let start = text.len();
    TextSink::new(text, cap).display(value);
    Span::since(start, text)
}

/// Appends `value`, cut to `cap` bytes at a character boundary: what
/// [`append_display`] does for a `&str`, without going through the formatting machinery.
#[inline]
pub(crate) fn append_str(text: &mut String, value: &str, cap: usize) -> Span {
    let start = text.len();
    text.push_str(truncate(value, cap));
    Span::since(start, text)
}

/// A range of indices into one of the arena's side tables.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Range32 {
    pub(crate) start: u32,
    pub(crate) end: u32,
}

impl Range32 {
    pub(crate) fn indices(self) -> std::ops::Range<usize> {
        self.start as usize..self.end as usize
    }
}

/// Where a node's id came from.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) enum IdSource {
    /// No id or key was given: derived from the node's position.
    #[default]
    Positional,
    /// A key was given: derived from the parent's id plus the key.
    Keyed,
    /// A position was given as the key: derived like a key, but positional.
    PositionKeyed,
    /// An explicit id.
    Explicit,
}

#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub(crate) enum ValueRecord {
    #[default]
    None,
    Text(Span),
    Number(f64),
    Bool(bool),
}

/// An action a key fallback is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum ActionRef {
    Core(Action),
    Custom(Span),
}

/// One node as recorded.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct NodeRecord {
    /// Index of the parent node, `None` for a root.
    pub(crate) parent: Option<u32>,
    /// One past the index of the last descendant (nodes are stored in pre-order).
    pub(crate) end: u32,
    pub(crate) role: Role,
    pub(crate) custom_role: Option<Span>,
    pub(crate) id: Span,
    pub(crate) id_source: IdSource,
    pub(crate) stable: bool,
    pub(crate) label: Option<Span>,
    pub(crate) value: ValueRecord,
    pub(crate) min: Option<f64>,
    pub(crate) max: Option<f64>,
    pub(crate) step: Option<f64>,
    pub(crate) max_len: Option<u32>,
    /// Into [`FrameArena::spans`].
    pub(crate) options: Range32,
    pub(crate) flags: StateFlags,
    pub(crate) checked: Option<Checked>,
    pub(crate) expanded: Option<bool>,
    pub(crate) invalid_message: Option<Span>,
    pub(crate) actions: ActionSet,
    /// Into [`FrameArena::spans`].
    pub(crate) custom_actions: Range32,
    /// Into [`FrameArena::keys`].
    pub(crate) keys: Range32,
    pub(crate) position: Position,
    pub(crate) scroll: Option<ScrollInfo>,
    pub(crate) bounds: Bounds,
    /// How many children were opened so far (for positional ids).
    pub(crate) child_count: u32,
    /// A leaf that holds the nodes recorded after it inside its bounds
    /// ([`NodeBuilder::encloses`](super::NodeBuilder::encloses)): open until one is not,
    /// or its parent closes.
    pub(crate) encloses: bool,
    /// A scope with bounds: open until its guard drops, or a node is drawn wholly
    /// outside its bounds (a guard kept alive past its children does not take in
    /// the siblings drawn after them).
    pub(crate) bounded_scope: bool,
    /// Where the node's value is drawn, read from the frame's buffer when the frame
    /// ends if no value was given ([`NodeBuilder::drawn_value`](super::NodeBuilder::drawn_value));
    /// empty: nowhere.
    pub(crate) drawn_value: Bounds,
}

impl NodeRecord {
    /// Whether the two records are the same, numbers compared bit for bit (so `-0.0`
    /// and `0.0`, which the tree writes apart, differ; a NaN is itself).
    fn same(&self, other: &NodeRecord) -> bool {
        // Destructured so that a new field cannot be forgotten here.
        let NodeRecord {
            parent,
            end,
            role,
            custom_role,
            id,
            id_source,
            stable,
            label,
            value,
            min,
            max,
            step,
            max_len,
            options,
            flags,
            checked,
            expanded,
            invalid_message,
            actions,
            custom_actions,
            keys,
            position,
            scroll,
            bounds,
            child_count,
            encloses,
            bounded_scope,
            drawn_value,
        } = self;
        let bits = |n: &Option<f64>| n.map(f64::to_bits);
        let value_same = match (value, &other.value) {
            (ValueRecord::Number(a), ValueRecord::Number(b)) => a.to_bits() == b.to_bits(),
            (a, b) => a == b,
        };
        *parent == other.parent
            && *end == other.end
            && *role == other.role
            && *custom_role == other.custom_role
            && *id == other.id
            && *id_source == other.id_source
            && *stable == other.stable
            && *label == other.label
            && value_same
            && bits(min) == bits(&other.min)
            && bits(max) == bits(&other.max)
            && bits(step) == bits(&other.step)
            && *max_len == other.max_len
            && *options == other.options
            && *flags == other.flags
            && *checked == other.checked
            && *expanded == other.expanded
            && *invalid_message == other.invalid_message
            && *actions == other.actions
            && *custom_actions == other.custom_actions
            && *keys == other.keys
            && *position == other.position
            && *scroll == other.scroll
            && *bounds == other.bounds
            && *child_count == other.child_count
            && *encloses == other.encloses
            && *bounded_scope == other.bounded_scope
            && *drawn_value == other.drawn_value
    }
}

/// A problem noticed while recording, resolved to text when the tree is built.
#[derive(Clone, Copy, Debug)]
pub(crate) enum ArenaDiagnostic {
    DuplicateId { requested: Span, node: u32 },
}

impl ArenaDiagnostic {
    fn same(&self, other: &ArenaDiagnostic) -> bool {
        let (
            ArenaDiagnostic::DuplicateId { requested, node },
            ArenaDiagnostic::DuplicateId {
                requested: other_requested,
                node: other_node,
            },
        ) = (self, other);
        requested == other_requested && node == other_node
    }
}

/// The per-frame store.
#[derive(Default)]
pub(crate) struct FrameArena {
    pub(crate) nodes: Vec<NodeRecord>,
    pub(crate) text: String,
    pub(crate) spans: Vec<Span>,
    pub(crate) keys: Vec<(ActionRef, Span)>,
    pub(crate) diagnostics: Vec<ArenaDiagnostic>,
    /// Indices of the open nodes, innermost last.
    pub(crate) stack: Vec<u32>,
    /// The nodes by id, to find them and to catch duplicates.
    pub(crate) ids: IdTable,
    /// What the derived ids of the node being opened start with.
    pub(crate) prefix: IdPrefix,
    /// Scratch for a key being escaped.
    pub(crate) scratch: String,
    /// How many root nodes were opened (for positional ids of roots).
    pub(crate) root_count: u32,
    /// Nesting depth of scopes left out below [`MAX_DEPTH`] or past [`MAX_NODES`].
    pub(crate) suppressed: u32,
    pub(crate) skipped_by_depth: u32,
    pub(crate) skipped_by_count: u32,
    /// The last modal node opened this frame.
    pub(crate) modal: Option<u32>,
    /// Frames recorded so far.
    pub(crate) frame: u64,
}

impl FrameArena {
    /// Empties the arena for a new frame, keeping every allocation.
    pub(crate) fn clear(&mut self) {
        // Destructure so that a new field cannot be forgotten here.
        let FrameArena {
            nodes,
            text,
            spans,
            keys,
            diagnostics,
            stack,
            ids,
            prefix,
            scratch,
            root_count,
            suppressed,
            skipped_by_depth,
            skipped_by_count,
            modal,
            frame: _,
        } = self;
        nodes.clear();
        text.clear();
        spans.clear();
        keys.clear();
        diagnostics.clear();
        stack.clear();
        ids.clear();
        prefix.clear();
        scratch.clear();
        *root_count = 0;
        *suppressed = 0;
        *skipped_by_depth = 0;
        *skipped_by_count = 0;
        *modal = None;
    }

    /// Copies `other` into this arena, reusing this arena's allocations.
    pub(crate) fn copy_from(&mut self, other: &FrameArena) {
        self.clear();
        self.nodes.clone_from(&other.nodes);
        self.text.clone_from(&other.text);
        self.spans.clone_from(&other.spans);
        self.keys.clone_from(&other.keys);
        self.diagnostics.clone_from(&other.diagnostics);
        self.skipped_by_depth = other.skipped_by_depth;
        self.skipped_by_count = other.skipped_by_count;
        self.frame = other.frame;
    }

    /// Whether [`FrameArena::to_tree`] gives the same tree for both arenas, but for
    /// the frame number: the same records (numbers compared bit for bit), text, side
    /// tables and diagnostics. A redrawn frame that shows nothing new needs no tree
    /// built or diffed for the bridge.
    pub(crate) fn same_tree(&self, other: &FrameArena) -> bool {
        self.text == other.text
            && self.spans == other.spans
            && self.keys == other.keys
            && self.skipped_by_depth == other.skipped_by_depth
            && self.skipped_by_count == other.skipped_by_count
            && self.diagnostics.len() == other.diagnostics.len()
            && self
                .diagnostics
                .iter()
                .zip(&other.diagnostics)
                .all(|(a, b)| a.same(b))
            && self.nodes.len() == other.nodes.len()
            && self.nodes.iter().zip(&other.nodes).all(|(a, b)| a.same(b))
    }

    /// The index of the node with this id.
    pub(crate) fn find(&self, id: &str) -> Option<u32> {
        let (nodes, text) = (&self.nodes, &self.text);
        self.ids.find(hash_bytes(id.as_bytes()), |index| {
            nodes[index as usize].id.bytes(text) == id.as_bytes()
        })
    }

    /// The indices of the children of `index`.
    pub(crate) fn children(&self, index: u32) -> impl Iterator<Item = u32> + '_ {
        let end = self.nodes[index as usize].end;
        let mut next = index + 1;
        std::iter::from_fn(move || {
            (next < end).then(|| {
                let child = next;
                next = self.nodes[child as usize].end;
                child
            })
        })
    }

    /// The custom action names a node offers.
    pub(crate) fn custom_actions(&self, index: u32) -> impl Iterator<Item = &str> + '_ {
        let range = self.nodes[index as usize].custom_actions;
        self.spans[range.indices()].iter().map(|s| self.str(*s))
    }

    /// The key fallback a node declares for `action`.
    pub(crate) fn key_for(&self, index: u32, action: &str) -> Option<&str> {
        let range = self.nodes[index as usize].keys;
        self.keys[range.indices()].iter().find_map(|(a, key)| {
            let name = match a {
                ActionRef::Core(core) => core.name(),
                ActionRef::Custom(span) => self.str(*span),
            };
            (name == action).then(|| self.str(*key))
        })
    }

    /// The names of the actions node `index` declares a key for.
    pub(crate) fn key_actions(&self, index: u32) -> impl Iterator<Item = &str> {
        let range = self.nodes[index as usize].keys;
        self.keys[range.indices()]
            .iter()
            .map(|(action, _)| match action {
                ActionRef::Core(core) => core.name(),
                ActionRef::Custom(span) => self.str(*span),
            })
    }

    /// The text of a span.
    pub(crate) fn str(&self, span: Span) -> &str {
        span.text(&self.text)
    }

    /// Opens a node as a child of the innermost open node. Returns its index, or
    /// `None` (and counts it) when it is over the depth or node limit.
    #[inline]
    pub(crate) fn open(&mut self) -> Option<u32> {
        if self.nodes.len() >= MAX_NODES {
            self.skipped_by_count += 1;
            return None;
        }
        if self.suppressed > 0 || self.stack.len() >= MAX_DEPTH {
            self.skipped_by_depth += 1;
            return None;
        }
        let index = self.nodes.len() as u32;
        let parent = self.stack.last().copied();
        self.nodes.push(NodeRecord {
            parent,
            end: index + 1,
            ..NodeRecord::default()
        });
        Some(index)
    }

    /// Makes [`prefix`](Self::prefix) the one for the children of node `index`'s
    /// parent, which a key or a position of `index` follows.
    #[inline]
    pub(crate) fn prepare_prefix(&mut self, index: u32) {
        let parent = self.nodes[index as usize].parent;
        if !self.prefix.is_for(parent) {
            self.set_prefix(parent);
        }
    }

    #[cold]
    fn set_prefix(&mut self, parent: Option<u32>) {
        let parent_id = parent.map_or("", |p| self.nodes[p as usize].id.text(&self.text));
        self.prefix.set(parent, parent_id);
    }

    /// Gives the node just opened its id, once its builder has run: the explicit id or
    /// the key's id the builder wrote, else `<parent id>/<role>#<n>`; a duplicate is
    /// renamed `id~2`, `id~3`, … and reported.
    #[inline]
    pub(crate) fn assign_id(&mut self, index: u32) {
        if self.stack.last().is_some_and(|&top| {
            let top = &self.nodes[top as usize];
            top.encloses || top.bounded_scope
        }) {
            self.leave_enclosers(index);
        }
        let node = &self.nodes[index as usize];
        let (parent, id_source, written) = (node.parent, node.id_source, node.id);
        let (counter, parent_stable) = match parent {
            Some(p) => {
                let parent = &mut self.nodes[p as usize];
                (&mut parent.child_count, parent.stable)
            }
            None => (&mut self.root_count, true),
        };
        let ordinal = *counter;
        *counter += 1;
        let (requested, stable) = match id_source {
            IdSource::Explicit => (written, true),
            IdSource::Keyed => (written, parent_stable),
            IdSource::PositionKeyed => (written, false),
            IdSource::Positional => (self.positional_id(index, ordinal), false),
        };
        let (nodes, text) = (&self.nodes, &self.text);
        let wanted = requested.bytes(text);
        let unique = self
            .ids
            .insert(hash_bytes(wanted), index, |other| {
                nodes[other as usize].id.bytes(text) == wanted
            })
            .is_ok();
        let id = if unique {
            requested
        } else {
            self.rename_duplicate(index, requested)
        };
        let record = &mut self.nodes[index as usize];
        record.id = id;
        record.stable = stable && unique;
        if record.flags.contains(StateFlags::MODAL) {
            self.modal = Some(index);
        }
    }

    /// Writes `<parent id>/<role>#<ordinal>`, the id of a node with neither id nor key.
    #[inline(never)]
    fn positional_id(&mut self, index: u32, ordinal: u32) -> Span {
        let start = self.text.len();
        self.prefix.push_to(&mut self.text);
        let mut sink = TextSink::new(&mut self.text, usize::MAX);
        sink.str(self.nodes[index as usize].role.name());
        sink.str("#");
        ordinal.write_text(&mut sink);
        Span::since(start, &self.text)
    }

    /// Gives node `index`, whose `requested` id another node has, the first of `id~2`,
    /// `id~3`, … that no node has, and reports it.
    #[cold]
    fn rename_duplicate(&mut self, index: u32, requested: Span) -> Span {
        let mut suffix = 1u32;
        loop {
            suffix += 1;
            let start = self.text.len();
            self.text
                .extend_from_within(requested.start as usize..requested.end as usize);
            let mut sink = TextSink::new(&mut self.text, usize::MAX);
            sink.str("~");
            suffix.write_text(&mut sink);
            let id = Span::since(start, &self.text);
            let (nodes, text) = (&self.nodes, &self.text);
            let wanted = id.bytes(text);
            let inserted = self.ids.insert(hash_bytes(wanted), index, |other| {
                nodes[other as usize].id.bytes(text) == wanted
            });
            if inserted.is_ok() {
                self.diagnostics.push(ArenaDiagnostic::DuplicateId {
                    requested,
                    node: index,
                });
                return id;
            }
        }
    }

    /// Keeps the leaf just recorded (`index`) open when it encloses what follows
    /// ([`NodeBuilder::encloses`](super::NodeBuilder::encloses)); a scope holds its
    /// children anyway, and its flag is dropped.
    pub(crate) fn hold_if_enclosing(&mut self, index: u32, scope: bool) {
        let node = &mut self.nodes[index as usize];
        if scope {
            node.encloses = false;
            node.bounded_scope = !node.bounds.is_empty();
        } else if node.encloses {
            self.stack.push(index);
        }
    }

    /// The node just opened (`index`), once its bounds are known, leaves the enclosing
    /// leaves it does not lie inside and the scopes with bounds it lies wholly outside:
    /// each is closed before it, and it becomes their parent's child. A key or a
    /// position the builder already wrote under the encloser's id is written again
    /// under the new parent's. Not `#[cold]`: every node drawn inside a scope with
    /// bounds (most of them) comes through here.
    fn leave_enclosers(&mut self, index: u32) {
        let bounds = self.nodes[index as usize].bounds;
        let opened_under = self.nodes[index as usize].parent;
        while let Some(&top) = self.stack.last() {
            let encloser = &self.nodes[top as usize];
            let stays = if encloser.bounded_scope {
                !lies_outside(bounds, encloser.bounds)
            } else {
                !encloser.encloses || lies_inside(bounds, encloser.bounds)
            };
            if stays {
                break;
            }
            self.stack.pop();
            self.nodes[top as usize].end = index;
            self.nodes[index as usize].parent = self.stack.last().copied();
        }
        let parent = self.nodes[index as usize].parent;
        if parent == opened_under {
            return;
        }
        // Ids derived after the builder ran follow the new parent's prefix.
        self.prepare_prefix(index);
        let node = self.nodes[index as usize];
        if matches!(node.id_source, IdSource::Keyed | IdSource::PositionKeyed) {
            // The builder wrote `<encloser id>/<key>`: keep the key, change the rest.
            let old_prefix =
                opened_under.map_or(0, |p| self.nodes[p as usize].id.text(&self.text).len() + 1);
            let key = node.id.start as usize + old_prefix..node.id.end as usize;
            let start = self.text.len();
            self.prefix.push_to(&mut self.text);
            self.text.extend_from_within(key);
            self.nodes[index as usize].id = Span::since(start, &self.text);
        }
    }

    /// Closes the innermost open node (a scope), and the enclosing leaves open inside it.
    pub(crate) fn close(&mut self) {
        let end = self.nodes.len() as u32;
        while let Some(&top) = self.stack.last()
            && self.nodes[top as usize].encloses
        {
            self.stack.pop();
            self.nodes[top as usize].end = end;
        }
        if let Some(index) = self.stack.pop() {
            self.nodes[index as usize].end = end;
        }
    }

    /// Closes scope `index` of frame `frame` (its guard dropped), with what is still
    /// open inside it. Nothing when a node drawn wholly outside its bounds closed it
    /// already ([`FrameArena::leave_enclosers`]), or it is of another frame.
    pub(crate) fn close_scope(&mut self, index: u32, frame: u64) {
        if frame != self.frame || !self.stack.contains(&index) {
            return;
        }
        let end = self.nodes.len() as u32;
        while let Some(top) = self.stack.pop() {
            self.nodes[top as usize].end = end;
            if top == index {
                break;
            }
        }
    }

    /// Ends the frame: closes what is still open and applies the text field and modal
    /// rules.
    pub(crate) fn finish(&mut self) {
        while !self.stack.is_empty() {
            self.close();
        }
        self.withdraw_keys_of_unfocused_fields();
        if let Some(modal) = self.modal {
            let inside = modal as usize..self.nodes[modal as usize].end as usize;
            for (i, node) in self.nodes.iter_mut().enumerate() {
                if !inside.contains(&i) {
                    // What offered something is marked, so it keeps its id in outlines.
                    let offered = !node.actions.is_empty()
                        || !node.custom_actions.indices().is_empty()
                        || !node.keys.indices().is_empty();
                    node.flags = node.flags.with(StateFlags::INERT, offered);
                    node.actions = ActionSet::EMPTY;
                    node.custom_actions = Range32::default();
                    node.keys = Range32::default();
                }
            }
        }
        self.frame += 1;
    }
}

impl FrameArena {
    /// The text field rule: a text field (`text_input`, `text_area`) that declares a
    /// key for `focus` and does not have focus offers, of the core actions it declares
    /// keys for, only `focus`. Its other keys (`enter` to submit, `esc` to dismiss)
    /// reach it only while it has focus, and once focused they act on the text being
    /// typed, which an unfocused field does not have: a `submit` pressed as its focus
    /// key then `enter` re-submitted what was there (log-time-machine's filter). They
    /// are offered again on the frame that shows it focused. Its keys stay listed.
    fn withdraw_keys_of_unfocused_fields(&mut self) {
        for node in &mut self.nodes {
            if !matches!(node.role, Role::TextInput | Role::TextArea)
                || node.flags.contains(StateFlags::FOCUSED)
            {
                continue;
            }
            let declared = &self.keys[node.keys.indices()];
            if !declared
                .iter()
                .any(|(action, _)| *action == ActionRef::Core(Action::Focus))
            {
                continue;
            }
            for (action, _) in declared {
                if let ActionRef::Core(action) = *action
                    && action != Action::Focus
                {
                    node.actions = node.actions.without(action);
                }
            }
        }
    }
}

/// Whether `node` has an area and shares no cell with `scope`'s.
fn lies_outside(node: Bounds, scope: Bounds) -> bool {
    let right = |b: Bounds| u32::from(b.x) + u32::from(b.width);
    let bottom = |b: Bounds| u32::from(b.y) + u32::from(b.height);
    !node.is_empty()
        && (right(node) <= u32::from(scope.x)
            || right(scope) <= u32::from(node.x)
            || bottom(node) <= u32::from(scope.y)
            || bottom(scope) <= u32::from(node.y))
}

/// Whether `inner` has an area and lies wholly inside `outer`.
fn lies_inside(inner: Bounds, outer: Bounds) -> bool {
    let right = |b: Bounds| u32::from(b.x) + u32::from(b.width);
    let bottom = |b: Bounds| u32::from(b.y) + u32::from(b.height);
    !inner.is_empty()
        && inner.x >= outer.x
        && inner.y >= outer.y
        && right(inner) <= right(outer)
        && bottom(inner) <= bottom(outer)
}

#[cfg(test)]
mod tests {
    use super::FrameArena;

    #[test]
    fn append_str_keeps_what_append_display_keeps() {
        let mut text = String::new();
        for (value, cap) in [("space", 1024), ("ééé", 3), ("ééé", 4), ("abc", 0), ("", 5)] {
            let fast = super::append_str(&mut text, value, cap);
            let formatted = super::append_display(&mut text, &value, cap);
            assert_eq!(
                fast.text(&text),
                formatted.text(&text),
                "{value:?} cut to {cap}"
            );
        }
    }

    fn open_with_id(arena: &mut FrameArena, id: &str) -> u32 {
        let index = arena.open().expect("within limits");
        super::super::NodeBuilder::new(arena, index).id(id);
        arena.assign_id(index);
        index
    }

    #[test]
    fn ids_whose_hashes_collide_are_both_kept_and_found() {
        let mut arena = FrameArena::default();
        let x = open_with_id(&mut arena, "x");
        // Pretend "x" also hashes like "y": a collision.
        let collision = arena.ids.insert(super::hash_bytes(b"y"), x, |_| false);
        assert_eq!(collision, Ok(()));
        let y = open_with_id(&mut arena, "y");
        assert_ne!(x, y);
        assert_eq!(
            arena.str(arena.nodes[y as usize].id),
            "y",
            "not renamed as a duplicate"
        );
        assert!(arena.diagnostics.is_empty());
        assert_eq!(arena.find("y"), Some(y));
        assert_eq!(arena.find("x"), Some(x));
        assert_eq!(arena.find("z"), None);
        // A real duplicate of "y" is still caught past the collision.
        let y2 = open_with_id(&mut arena, "y");
        assert_eq!(arena.str(arena.nodes[y2 as usize].id), "y~2");
    }
}
