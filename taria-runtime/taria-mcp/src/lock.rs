//! Locking a `std` mutex that a panic may have poisoned: the bridge goes on with the
//! data (a tool that panicked is answered `internal`, and the bridge stays up), so no
//! caller has to decide it again.

use std::sync::{Mutex, MutexGuard, PoisonError};

/// Locks `mutex`, going on with its data when a thread panicked holding it.
pub(crate) fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}
