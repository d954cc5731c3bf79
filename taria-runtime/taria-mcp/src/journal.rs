//! A bounded ring of numbered entries that readers page through by cursor and
//! subscribers hear of: what the bridge keeps of the app's log ([`crate::logs`]) and
//! of the input calls it answered ([`crate::input_log`]), for the agent's tools and
//! the inspector's page.
//!
//! Entries are numbered from 1 in the order they are pushed; the numbers go on for
//! the whole session (across reconnects), so a number is a cursor: "what came after
//! entry 12". When the ring is full the oldest entry goes, and a reader whose cursor
//! is older than what is left is told how many it missed.

use std::collections::VecDeque;
use std::sync::{Arc, Mutex};

use tokio::sync::watch;

use crate::lock::lock;

/// A bounded journal. Cheap to clone: the clones share the entries.
pub(crate) struct Journal<T>(Arc<Shared<T>>);

impl<T> Clone for Journal<T> {
    fn clone(&self) -> Self {
        Journal(Arc::clone(&self.0))
    }
}

struct Shared<T> {
    ring: Mutex<Ring<T>>,
    /// The newest entry's number, for subscribers.
    newest: watch::Sender<u64>,
}

struct Ring<T> {
    entries: VecDeque<Numbered<T>>,
    capacity: usize,
    /// The number the next entry gets.
    next: u64,
}

/// An entry and its number.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Numbered<T> {
    /// Its number: 1 for the first entry of the session, one more for each after.
    pub(crate) number: u64,
    /// The entry.
    pub(crate) entry: T,
}

/// What a read returns: the entries after the cursor that were kept, at most the
/// limit, and where to go on from.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Page<T> {
    /// The entries, oldest first.
    pub(crate) entries: Vec<Numbered<T>>,
    /// Entries after the cursor that the ring no longer holds (it was full): read
    /// more often, or they are gone.
    pub(crate) missed: u64,
    /// More kept entries than the limit came after the cursor.
    pub(crate) more: bool,
    /// The cursor to read on from: the last entry returned when there are more,
    /// else the newest entry's number (everything up to it was looked at).
    pub(crate) next: u64,
}

impl<T: Clone> Journal<T> {
    /// A journal that keeps the newest `capacity` entries (at least one).
    pub(crate) fn new(capacity: usize) -> Journal<T> {
        Journal(Arc::new(Shared {
            ring: Mutex::new(Ring {
                entries: VecDeque::new(),
                capacity: capacity.max(1),
                next: 1,
            }),
            newest: watch::Sender::new(0),
        }))
    }

    /// Adds `entry` (dropping the oldest when full); returns its number.
    pub(crate) fn push(&self, entry: T) -> u64 {
        let number = {
            let mut ring = lock(&self.0.ring);
            let number = ring.next;
            ring.next += 1;
            if ring.entries.len() == ring.capacity {
                ring.entries.pop_front();
            }
            ring.entries.push_back(Numbered { number, entry });
            number
        };
        self.0.newest.send_replace(number);
        number
    }

    /// The entries numbered after `since` for which `keep` is true, oldest first, at
    /// most `limit` of them.
    pub(crate) fn read(&self, since: u64, limit: usize, keep: impl Fn(&T) -> bool) -> Page<T> {
        let ring = lock(&self.0.ring);
        let newest = ring.next - 1;
        let oldest = ring.entries.front().map_or(ring.next, |e| e.number);
        let missed = oldest.saturating_sub(since.saturating_add(1));
        let mut entries = Vec::new();
        let mut more = false;
        for numbered in ring.entries.iter().filter(|e| e.number > since) {
            if !keep(&numbered.entry) {
                continue;
            }
            if entries.len() == limit {
                more = true;
                break;
            }
            entries.push(numbered.clone());
        }
        let next = match entries.last() {
            Some(last) if more => last.number,
            _ => newest,
        };
        Page {
            entries,
            missed,
            more,
            next,
        }
    }

    /// The newest entry's number (0: none yet).
    pub(crate) fn newest(&self) -> u64 {
        *self.0.newest.borrow()
    }

    /// A receiver of the newest entry's number, which changes with every entry
    /// pushed: wait on it, then [`Journal::read`] from the last number read.
    pub(crate) fn subscribe(&self) -> watch::Receiver<u64> {
        self.0.newest.subscribe()
    }
}

#[cfg(test)]
mod tests {
    use super::Journal;

    fn numbers(page: &super::Page<u32>) -> Vec<u64> {
        page.entries.iter().map(|e| e.number).collect()
    }

    /// A reader pages through by cursor, filtered, and is told when the ring lost
    /// entries it had not read.
    #[test]
    fn readers_page_by_cursor_and_hear_what_the_ring_dropped() {
        let journal = Journal::new(4);
        for value in 1..=6u32 {
            assert_eq!(journal.push(value * 10), u64::from(value));
        }
        assert_eq!(journal.newest(), 6);
        let all = journal.read(0, 10, |_| true);
        assert_eq!(numbers(&all), vec![3, 4, 5, 6], "the newest four are kept");
        assert_eq!(all.missed, 2, "1 and 2 went before they were read");
        assert_eq!((all.more, all.next), (false, 6));

        let first = journal.read(2, 2, |_| true);
        assert_eq!(numbers(&first), vec![3, 4]);
        assert_eq!((first.missed, first.more, first.next), (0, true, 4));
        let rest = journal.read(first.next, 2, |_| true);
        assert_eq!(numbers(&rest), vec![5, 6]);
        assert_eq!((rest.more, rest.next), (false, 6));

        let even = journal.read(0, 10, |value| value % 20 == 0);
        assert_eq!(numbers(&even), vec![4, 6]);
        let none = journal.read(6, 10, |_| true);
        assert!(none.entries.is_empty());
        assert_eq!((none.missed, none.next), (0, 6));
        assert_eq!(
            journal.read(99, 10, |_| true).next,
            6,
            "a cursor from the future"
        );
    }

    /// A subscriber hears of each entry pushed.
    #[tokio::test]
    async fn subscribers_hear_of_each_entry() {
        let journal = Journal::new(8);
        let mut newest = journal.subscribe();
        let pusher = journal.clone();
        tokio::spawn(async move {
            pusher.push(7u32);
        });
        newest.changed().await.unwrap();
        assert_eq!(*newest.borrow_and_update(), 1);
        assert_eq!(journal.read(0, 1, |_| true).entries[0].entry, 7);
    }
}
