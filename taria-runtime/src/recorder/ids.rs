//! The frame's ids: what derived ids start with, and the ids by hash, which find a node
//! by its id and catch a duplicate while the frame records. Cleared, not freed,
//! between frames, so once grown to a frame's size they allocate nothing.
//!
//! How a node gets its id (`FrameArena::assign_id`): an explicit id (`id = "save"`) is
//! global to the frame and stable; otherwise it is the parent's id, `/`, and the key
//! (stable while the parent's id is) or `<role>#<n>` for the n-th child (positional, not
//! stable). An explicit id written in an attribute holds only ASCII letters, digits,
//! `-`, `_`, `.` and `:` (the macros check it), so it cannot be taken for an id derived
//! below a parent (`/`), a positional one (`#`) or a renamed duplicate (`~`).
//! A duplicate is renamed `id~2`, `id~3`, …, marked unstable and reported in the tree's
//! diagnostics; nodes are never merged. Text in keys and ids is kept as the app gives it
//! (why, and how it is written safely: the outline's escapes in `taria-schema`).

use super::text::Padded;

/// What the derived ids of one node's children start with: its id and `/` (nothing
/// for roots). Copied once for all the children, and kept padded when short, so that
/// writing it into a child's id is one store.
#[derive(Default)]
pub(crate) struct IdPrefix {
    text: String,
    padded: Option<Padded<16>>,
    /// Whose children the prefix is for.
    of: PrefixOf,
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
enum PrefixOf {
    /// Nobody's yet this frame.
    #[default]
    Nobody,
    /// The children of a node (`None`: the roots).
    ChildrenOf(Option<u32>),
}

impl IdPrefix {
    /// Forgets whose prefix this is (the node indices of a new frame are new nodes).
    pub(crate) fn clear(&mut self) {
        self.text.clear();
        self.padded = None;
        self.of = PrefixOf::Nobody;
    }

    /// Whether this is the prefix for the children of `parent` (`None`: the roots).
    #[inline]
    pub(crate) fn is_for(&self, parent: Option<u32>) -> bool {
        self.of == PrefixOf::ChildrenOf(parent)
    }

    /// Makes this the prefix for the children of `parent`, whose id is `parent_id`.
    pub(crate) fn set(&mut self, parent: Option<u32>, parent_id: &str) {
        self.text.clear();
        if parent.is_some() {
            self.text.push_str(parent_id);
            self.text.push('/');
        }
        self.padded = Padded::new(&self.text);
        self.of = PrefixOf::ChildrenOf(parent);
    }

    /// Appends the prefix to `out`.
    #[inline]
    pub(crate) fn push_to(&self, out: &mut String) {
        match &self.padded {
            Some(padded) => padded.push_to(out),
            None => out.push_str(&self.text),
        }
    }
}

/// Node indices by the hash of their id: open addressing with linear probing in a
/// power-of-two table at most half full. Two ids with the same hash both stay (the
/// caller's test tells them apart). A slot counts as filled only when stamped with
/// the current generation, so [`clear`](IdTable::clear) is one increment.
pub(crate) struct IdTable {
    slots: Vec<Slot>,
    /// The stamp of this frame's slots; never 0, the stamp of a slot never filled.
    generation: u32,
    len: usize,
}

#[derive(Clone, Copy, Default)]
struct Slot {
    hash: u64,
    index: u32,
    generation: u32,
}

/// The fewest slots a table that holds anything has.
const MIN_SLOTS: usize = 16;

impl Default for IdTable {
    fn default() -> Self {
        IdTable {
            slots: Vec::new(),
            generation: 1,
            len: 0,
        }
    }
}

impl IdTable {
    /// Empties the table, keeping its slots.
    pub(crate) fn clear(&mut self) {
        self.len = 0;
        self.generation = self.generation.wrapping_add(1);
        if self.generation == 0 {
            // After 2^32 frames: no stale stamp may equal a new generation.
            self.slots.fill(Slot::default());
            self.generation = 1;
        }
    }

    /// The node recorded under `hash` for which `is_it` holds.
    #[inline]
    pub(crate) fn find(&self, hash: u64, mut is_it: impl FnMut(u32) -> bool) -> Option<u32> {
        let mask = self.slots.len().checked_sub(1)?;
        let mut at = hash as usize & mask;
        loop {
            let slot = self.slots[at];
            if slot.generation != self.generation {
                return None;
            }
            if slot.hash == hash && is_it(slot.index) {
                return Some(slot.index);
            }
            at = (at + 1) & mask;
        }
    }

    /// Records node `index` under `hash`, unless a node for which `same` holds is
    /// recorded under it already: then that node is returned and nothing is recorded.
    #[inline]
    pub(crate) fn insert(
        &mut self,
        hash: u64,
        index: u32,
        mut same: impl FnMut(u32) -> bool,
    ) -> Result<(), u32> {
        if (self.len + 1) * 2 > self.slots.len() {
            self.grow();
        }
        let mask = self.slots.len() - 1;
        let mut at = hash as usize & mask;
        loop {
            let slot = &mut self.slots[at];
            if slot.generation != self.generation {
                *slot = Slot {
                    hash,
                    index,
                    generation: self.generation,
                };
                self.len += 1;
                return Ok(());
            }
            if slot.hash == hash && same(slot.index) {
                return Err(slot.index);
            }
            at = (at + 1) & mask;
        }
    }

    /// Doubles the slots (to at least [`MIN_SLOTS`]) and puts the entries back.
    #[cold]
    fn grow(&mut self) {
        let size = (self.slots.len() * 2).max(MIN_SLOTS);
        let old = std::mem::replace(&mut self.slots, vec![Slot::default(); size]);
        let mask = size - 1;
        for slot in old.into_iter().filter(|s| s.generation == self.generation) {
            let mut at = slot.hash as usize & mask;
            while self.slots[at].generation == self.generation {
                at = (at + 1) & mask;
            }
            self.slots[at] = slot;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{IdTable, MIN_SLOTS};

    #[test]
    fn entries_with_one_hash_are_told_apart_by_the_callers_test() {
        let mut table = IdTable::default();
        let names = ["a", "b", "c"];
        for index in 0..3 {
            assert_eq!(table.insert(7, index, |other| other == index), Ok(()));
        }
        assert_eq!(
            table.insert(7, 9, |other| other == 1),
            Err(1),
            "a duplicate"
        );
        for index in 0..3 {
            let name = names[index as usize];
            assert_eq!(table.find(7, |i| names[i as usize] == name), Some(index));
        }
        assert_eq!(table.find(7, |_| false), None);
        assert_eq!(table.find(8, |_| true), None);
    }

    #[test]
    fn clearing_forgets_every_entry_and_keeps_the_slots() {
        let mut table = IdTable::default();
        for index in 0..100u32 {
            let hash = u64::from(index).wrapping_mul(0x9e37_79b9_7f4a_7c15);
            assert_eq!(table.insert(hash, index, |_| true), Ok(()));
        }
        let slots = table.slots.len();
        assert!(slots >= 200, "at most half full: {slots}");
        table.clear();
        for index in 0..100u32 {
            let hash = u64::from(index).wrapping_mul(0x9e37_79b9_7f4a_7c15);
            assert_eq!(table.find(hash, |_| true), None);
            assert_eq!(table.insert(hash, index + 1, |_| true), Ok(()));
            assert_eq!(table.find(hash, |_| true), Some(index + 1));
        }
        assert_eq!(table.slots.len(), slots, "no growth for as many entries");
    }

    #[test]
    fn a_generation_that_wraps_leaves_no_stale_entry() {
        let mut table = IdTable::default();
        assert_eq!(table.insert(3, 1, |_| true), Ok(()));
        table.generation = u32::MAX;
        assert_eq!(table.insert(5, 2, |_| true), Ok(()));
        table.clear();
        assert_eq!(table.generation, 1);
        assert_eq!(table.slots.len(), MIN_SLOTS);
        assert_eq!(table.find(3, |_| true), None, "stamped 1 before the wrap");
        assert_eq!(table.find(5, |_| true), None);
    }
}
