//! Fetching memory ahead of its use: the engines set parents' slots at random, nearly
//! every one a cache miss, and their setting is a locked compare-and-swap that the next
//! read waits behind; a scan probes the lower tiers' tables at random; the Kalah search
//! reads its children's transposition buckets at random. Asked for ahead, the misses
//! overlap each other and the work between.

/// Asks the processor to fetch the memory `value` starts in into its cache, without
/// waiting for it.
#[inline]
pub fn prefetch<T>(value: &T) {
    prefetch_address(value as *const T as *const u8);
}

/// Asks the processor to fetch the byte `bytes[at]` into its cache, if there is one.
#[inline]
pub(crate) fn prefetch_byte(bytes: &[u8], at: usize) {
    if let Some(byte) = bytes.get(at) {
        prefetch_address(byte);
    }
}

#[inline(always)]
fn prefetch_address(address: *const u8) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: a prefetch is a hint; it reads nothing and cannot fault.
    unsafe {
        use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
        _mm_prefetch::<_MM_HINT_T0>(address as *const i8);
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = address;
}
