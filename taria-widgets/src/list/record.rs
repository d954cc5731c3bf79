//! What a list records: the `list` node and its `list_item`s on screen, found by
//! mirroring ratatui's private item layout.

use ratatui::layout::Rect;
use ratatui::widgets::{ListDirection, ListState};
use taria::{Action, Role};

use super::List;
use crate::semantic::{Offer, id_and_label};
use crate::text::FirstLine;

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
                    None => n.position_key(i),
                };
                n.role(Role::ListItem)
                    .label(FirstLine(&item.content))
                    .selected(selected == Some(i))
                    .index(i)
                    .count(len)
                    .action(Action::Select)
                    .bounds(row);
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
