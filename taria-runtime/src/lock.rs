//! Locking a std mutex that a panic poisoned: the state behind taria's locks is
//! consistent at every unlock, so a poisoned lock is still usable.

use std::sync::{Mutex, MutexGuard};

/// Locks `mutex`, recovering the data if a thread panicked while holding it.
pub(crate) fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}
