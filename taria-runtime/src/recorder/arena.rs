//! The per-frame store: flat node records in drawing order plus one text buffer.
//!
//! Everything here is cleared, not freed, between frames, so once the vectors have
//! grown to a frame's size, recording allocates nothing.

use std::collections::HashMap;
use std::collections::hash_map::Entry;
use std::fmt::Write as _;
use std::hash::{BuildHasherDefault, Hasher};

use super::text::{IntoText, TextSink, truncate};
use crate::model::{
    Action, ActionSet, Bounds, Checked, MAX_DEPTH, MAX_NODES, Position, Role, ScrollInfo,
    StateFlags, hash_id_text,
};

/// A byte range of [`FrameArena::text`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Span {
    pub(crate) start: u32,
    pub(crate) end: u32,
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
}

/// A problem noticed while recording, resolved to text when the tree is built.
#[derive(Clone, Copy, Debug)]
pub(crate) enum ArenaDiagnostic {
    DuplicateId { requested: Span, node: u32 },
}

/// An id hash is already well mixed; the map uses it as is.
#[derive(Default)]
pub(crate) struct IdHasher(u64);

impl Hasher for IdHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        self.0 = hash_id_text(bytes);
    }
    fn write_u64(&mut self, n: u64) {
        self.0 = n;
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
    /// Id hash → node index, to detect duplicate ids.
    pub(crate) ids: HashMap<u64, u32, BuildHasherDefault<IdHasher>>,
    /// Scratch for the explicit id and the key of the node being opened.
    pub(crate) scratch_id: String,
    pub(crate) scratch_key: String,
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
            scratch_id,
            scratch_key,
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
        scratch_id.clear();
        scratch_key.clear();
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

    /// The frame's owned tree.
    pub(crate) fn to_tree(&self) -> crate::model::Tree {
        super::to_tree::build(self)
    }

    /// The index of the node with this id.
    pub(crate) fn find(&self, id: &str) -> Option<u32> {
        let mut hash = hash_id_text(id.as_bytes());
        loop {
            let index = *self.ids.get(&hash)?;
            if self.str(self.nodes.get(index as usize)?.id) == id {
                return Some(index);
            }
            hash = hash.wrapping_add(1);
        }
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

    /// The text of a span.
    pub(crate) fn str(&self, span: Span) -> &str {
        span_text(&self.text, span)
    }

    /// Appends `value`'s display form, cut to `cap` bytes at a character boundary.
    pub(crate) fn push_display(&mut self, value: &dyn std::fmt::Display, cap: usize) -> Span {
        let start = self.text.len();
        TextSink::new(&mut self.text, cap).display(value);
        Span {
            start: start as u32,
            end: self.text.len() as u32,
        }
    }

    /// Appends `value`'s text (see [`IntoText`]), cut to `cap` bytes at a character
    /// boundary, as [`push_display`](Self::push_display) would cut its display form.
    #[inline]
    pub(crate) fn push_text(&mut self, value: impl IntoText, cap: usize) -> Span {
        let start = self.text.len();
        value.write_text(&mut TextSink::new(&mut self.text, cap));
        Span {
            start: start as u32,
            end: self.text.len() as u32,
        }
    }

    /// Appends `text`, cut to `cap` bytes at a character boundary: what
    /// [`push_display`](Self::push_display) does for a `&str`, without going through
    /// the formatting machinery.
    pub(crate) fn push_str(&mut self, text: &str, cap: usize) -> Span {
        let start = self.text.len();
        self.text.push_str(truncate(text, cap));
        Span {
            start: start as u32,
            end: self.text.len() as u32,
        }
    }

    /// Opens a node as a child of the innermost open node. Returns its index, or
    /// `None` (and counts it) when it is over the depth or node limit.
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
        self.scratch_id.clear();
        self.scratch_key.clear();
        Some(index)
    }

    /// Gives the node just opened its id, once its builder has run (and its bounds are
    /// known: an enclosing leaf it does not lie inside is closed first).
    pub(crate) fn assign_id(&mut self, index: u32) {
        self.leave_enclosers(index);
        let node = self.nodes[index as usize];
        let parent = node.parent.map(|p| self.nodes[p as usize]);
        let counter = match node.parent {
            Some(p) => &mut self.nodes[p as usize].child_count,
            None => &mut self.root_count,
        };
        let ordinal = *counter;
        *counter += 1;
        let start = self.text.len() as u32;
        let parent_stable = parent.is_none_or(|p| p.stable);
        let stable = match node.id_source {
            IdSource::Explicit => {
                self.text.push_str(&self.scratch_id);
                true
            }
            IdSource::Keyed | IdSource::PositionKeyed | IdSource::Positional => {
                if let Some(parent) = parent {
                    self.text
                        .extend_from_within(parent.id.start as usize..parent.id.end as usize);
                    self.text.push('/');
                }
                if node.id_source == IdSource::Keyed {
                    // One segment whatever the key holds (`a/b` is `a%2Fb`).
                    super::push_key(&mut self.text, &self.scratch_key);
                    parent_stable
                } else if node.id_source == IdSource::PositionKeyed {
                    self.text.push_str(&self.scratch_key);
                    false
                } else {
                    let _ = write!(self.text, "{}#{ordinal}", node.role.name());
                    false
                }
            }
        };
        let mut id = Span {
            start,
            end: self.text.len() as u32,
        };
        let requested = id;
        let mut suffix = 1u32;
        'ids: loop {
            // Open addressing on the id's hash: a different id with the same hash
            // moves on to the next slot, so neither is lost.
            let mut hash = hash_id_text(self.str(id).as_bytes());
            loop {
                match self.ids.entry(hash) {
                    Entry::Occupied(other)
                        if span_text(&self.text, self.nodes[*other.get() as usize].id)
                            == span_text(&self.text, id) =>
                    {
                        // A duplicate: try `id~2`, `id~3`, …
                        suffix += 1;
                        self.text
                            .extend_from_within(requested.start as usize..requested.end as usize);
                        let start = self.text.len() - (requested.end - requested.start) as usize;
                        let _ = write!(self.text, "~{suffix}");
                        id = Span {
                            start: start as u32,
                            end: self.text.len() as u32,
                        };
                        continue 'ids;
                    }
                    Entry::Occupied(_) => hash = hash.wrapping_add(1),
                    Entry::Vacant(entry) => {
                        entry.insert(index);
                        break 'ids;
                    }
                }
            }
        }
        if suffix > 1 {
            self.diagnostics.push(ArenaDiagnostic::DuplicateId {
                requested,
                node: index,
            });
        }
        let record = &mut self.nodes[index as usize];
        record.id = id;
        record.stable = stable && suffix == 1;
        if record.flags.contains(StateFlags::MODAL) {
            self.modal = Some(index);
        }
    }

    /// Keeps the leaf just recorded (`index`) open when it encloses what follows
    /// ([`NodeBuilder::encloses`](super::NodeBuilder::encloses)); a scope holds its
    /// children anyway, and its flag is dropped.
    pub(crate) fn hold_if_enclosing(&mut self, index: u32, scope: bool) {
        let node = &mut self.nodes[index as usize];
        if scope {
            node.encloses = false;
        } else if node.encloses {
            self.stack.push(index);
        }
    }

    /// The node just opened (`index`), once its bounds are known, leaves the enclosing
    /// leaves it does not lie inside: each is closed before it, and it becomes their
    /// parent's child.
    fn leave_enclosers(&mut self, index: u32) {
        let bounds = self.nodes[index as usize].bounds;
        while let Some(&top) = self.stack.last() {
            let encloser = self.nodes[top as usize];
            if !encloser.encloses || lies_inside(bounds, encloser.bounds) {
                break;
            }
            self.stack.pop();
            self.nodes[top as usize].end = index;
            self.nodes[index as usize].parent = self.stack.last().copied();
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

    /// Ends the frame: closes what is still open and applies the modal rule.
    pub(crate) fn finish(&mut self) {
        while !self.stack.is_empty() {
            self.close();
        }
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

/// The text of `span` in `text` (a free function, so it can be used while another
/// field of the arena is borrowed).
fn span_text(text: &str, span: Span) -> &str {
    text.get(span.start as usize..span.end as usize)
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::FrameArena;

    #[test]
    fn push_str_keeps_what_push_display_keeps() {
        let mut arena = FrameArena::default();
        for (text, cap) in [("space", 1024), ("ééé", 3), ("ééé", 4), ("abc", 0), ("", 5)] {
            let fast = arena.push_str(text, cap);
            let formatted = arena.push_display(&text, cap);
            assert_eq!(
                arena.str(fast),
                arena.str(formatted),
                "{text:?} cut to {cap}"
            );
        }
    }

    fn open_with_id(arena: &mut FrameArena, id: &str) -> u32 {
        let index = arena.open().expect("within limits");
        arena.scratch_id.push_str(id);
        arena.nodes[index as usize].id_source = super::IdSource::Explicit;
        arena.assign_id(index);
        index
    }

    #[test]
    fn ids_whose_hashes_collide_are_both_kept_and_found() {
        let mut arena = FrameArena::default();
        let x = open_with_id(&mut arena, "x");
        // Pretend "x" landed in the slot of "y"'s hash: a collision.
        arena.ids.insert(crate::model::hash_id_text(b"y"), x);
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
