//! Fetching a slot ahead of its use: the engines set parents' slots at random, nearly
//! every one a cache miss, and their setting is a locked compare-and-swap that the next
//! read waits behind; asked for ahead, the misses overlap.

use std::sync::atomic::AtomicU16;

/// Asks the processor to fetch `slot` into its cache, without waiting for it.
#[inline]
pub(crate) fn prefetch(slot: &AtomicU16) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: a prefetch is a hint; it reads nothing and cannot fault.
    unsafe {
        use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
        _mm_prefetch::<_MM_HINT_T0>(slot.as_ptr() as *const i8);
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = slot;
}
