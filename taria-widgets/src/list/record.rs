//! What a list records: the `list` node and its `list_item`s on screen, found by
//! mirroring ratatui's private item layout.

use ratatui::layout::Rect;
use ratatui::widgets::{ListDirection, ListState};
use taria::{Action, Role};

use std::cell::RefCell;
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

use super::List;
use crate::semantic::{Offer, id_and_label};
use crate::text::{FirstLine, with_item_key};

thread_local! {
    /// For the list being recorded: each item key's hash, the first item with it. Kept
    /// across frames, so recording allocates nothing once it has grown.
    static FIRST_OF_KEY: RefCell<HashMap<u64, usize, BuildHasherDefault<KeyHasher>>> =
        RefCell::new(HashMap::default());
}

/// An item key's hash (FNV-1a: keys are short, and two that collide only make the
/// second item named by its index).
fn key_hash(key: &str) -> u64 {
    let mut hash = 0xcbf2_9ce4_8422_2325u64;
    for byte in key.bytes() {
        hash = (hash ^ u64::from(byte)).wrapping_mul(0x0100_0000_01b3);
    }
    hash
}

/// The map's keys are hashes already.
#[derive(Default)]
struct KeyHasher(u64);

impl Hasher for KeyHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &byte in bytes {
            self.0 = (self.0 << 8) | u64::from(byte);
        }
    }

    fn write_u64(&mut self, n: u64) {
        self.0 = n;
    }
}

impl List<'_> {
    pub(super) fn record(&self, area: Rect, state: &ListState, offer: Offer) {
        let list_area = self.block.as_ref().map_or(area, |b| b.inner(area));
        let len = self.items.len();
        let (first, last) = if list_area.is_empty() || len == 0 {
            (state.offset(), state.offset())
        } else {
            let selected = state.selected().map(|s| s.min(len - 1));
            self.visible(selected, state.offset(), list_area.height as usize)
        };
        let _list = taria::scope(|n| {
            n.role(Role::List)
                .count(len)
                .scroll(first, len, last - first)
                .bounds(area);
            if offer.takes() {
                n.actions([Action::Select, Action::Scroll]);
            }
            id_and_label(n, self.id, self.label.as_ref());
        });
        let selected = state.selected().map(|s| s.min(len.saturating_sub(1)));
        FIRST_OF_KEY.with(|first_of| {
            // Taken only by a list recorded from inside another's recording (which
            // nothing does): its items are then named by their index.
            let Ok(mut first_of) = first_of.try_borrow_mut() else {
                let none = HashMap::default();
                return self.record_items(list_area, (first, last), (selected, offer), &none);
            };
            first_of.clear();
            if self.keyed_by_words() {
                // Whether an item is the first with its words depends only on the
                // items before it: those up to the last one on screen.
                for (i, item) in self.items.iter().enumerate().take(last) {
                    let hash = with_item_key(&item.content, key_hash);
                    first_of.entry(hash).or_insert(i);
                }
            }
            self.record_items(list_area, (first, last), (selected, offer), &first_of);
        });
    }

    /// Records the items on screen, `first..last`: each keyed by [`List::item_keys`],
    /// else (in a list with an id) by its words where it is the first with them
    /// (`first_of`: an item key's hash, the first item with it), else by its index.
    fn record_items(
        &self,
        list_area: Rect,
        (first, last): (usize, usize),
        (selected, offer): (Option<usize>, Offer),
        first_of: &HashMap<u64, usize, BuildHasherDefault<KeyHasher>>,
    ) {
        let len = self.items.len();
        let mut y = 0u16;
        for (i, item) in self.items.iter().enumerate().take(last).skip(first) {
            let height = item.height() as u16;
            let top = if self.direction == ListDirection::BottomToTop {
                y = y.saturating_add(height);
                list_area.bottom().saturating_sub(y)
            } else {
                let top = list_area.top().saturating_add(y);
                y = y.saturating_add(height);
                top
            };
            let row = Rect::new(list_area.x, top, list_area.width, height).intersection(list_area);
            taria::leaf(|n| {
                match self.keys.get(i) {
                    Some(key) => n.key(key),
                    None if self.keyed_by_words() => with_item_key(&item.content, |words| {
                        if !words.is_empty() && first_of.get(&key_hash(words)) == Some(&i) {
                            n.key(words)
                        } else {
                            n.position_key(i)
                        }
                    }),
                    None => n.position_key(i),
                };
                n.role(Role::ListItem)
                    .label(FirstLine(&item.content))
                    .selected(selected == Some(i))
                    .index(i)
                    .count(len)
                    .bounds(row);
                if offer.selectable() {
                    n.action(Action::Select);
                }
                if let Some(key) = self.activate_key {
                    n.key_fallback(Action::Activate, key);
                }
                if let Some(&checked) = self.checked.get(i) {
                    n.checked(checked);
                    // The app performs it: a handler on the list's id, or the key.
                    if let Some(key) = self.toggle_key {
                        n.key_fallback(Action::Toggle, key);
                    } else if Offer::app_performs(self.id, None) {
                        n.action(Action::Toggle);
                    }
                }
            });
        }
    }

    /// The items on screen, `first..last`: ratatui's `List::get_items_bounds`,
    /// mirrored (ratatui keeps it private). `selected` is already clamped.
    fn visible(&self, selected: Option<usize>, offset: usize, max_height: usize) -> (usize, usize) {
        let items = &self.items;
        let offset = offset.min(items.len().saturating_sub(1));
        let mut first = offset;
        let mut last = offset;
        let mut height = 0;
        for item in items.iter().skip(offset) {
            if height + item.height() > max_height {
                break;
            }
            height += item.height();
            last += 1;
        }
        let shown = self
            .padded_selection(selected, max_height, first, last)
            .unwrap_or(offset);
        while shown >= last {
            height = height.saturating_add(items[last].height());
            last += 1;
            while height > max_height {
                height = height.saturating_sub(items[first].height());
                first += 1;
            }
        }
        while shown < first {
            first -= 1;
            height = height.saturating_add(items[first].height());
            while height > max_height {
                last -= 1;
                height = height.saturating_sub(items[last].height());
            }
        }
        (first, last)
    }

    /// ratatui's `apply_scroll_padding_to_selected_index`, mirrored.
    fn padded_selection(
        &self,
        selected: Option<usize>,
        max_height: usize,
        first: usize,
        last: usize,
    ) -> Option<usize> {
        let last_valid = self.items.len().saturating_sub(1);
        let selected = selected?.min(last_valid);
        let mut padding = self.scroll_padding;
        while padding > 0 {
            let around: usize = (selected.saturating_sub(padding)
                ..=selected.saturating_add(padding).min(last_valid))
                .map(|i| self.items[i].height())
                .sum();
            if around <= max_height {
                break;
            }
            padding -= 1;
        }
        Some(
            if (selected + padding).min(last_valid) >= last {
                selected + padding
            } else if selected.saturating_sub(padding) < first {
                selected.saturating_sub(padding)
            } else {
                selected
            }
            .min(last_valid),
        )
    }
}
