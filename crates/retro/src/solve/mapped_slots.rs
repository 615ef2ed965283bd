//! A tier's slots in a writable map: anonymous memory on transparent huge pages where
//! the system gives them, or a scratch file's pages (`scratch.rs`).
//!
//! A push reads and sets its parents' slots at random. With the slots of a large tier on
//! 4 KiB pages (5×5 THI` tier 5-5: 3.9 GB, a million pages) nearly every such access also
//! misses the TLB, and its page walk misses the caches too, which a virtual machine's
//! nested page tables make several times dearer; on 2 MiB pages the TLB covers gigabytes.
//! The scan writes every position's slot before a push reads one, so the map needs no
//! pass to clear it.

use crate::error::SolveError;
use memmap2::MmapMut;
use std::sync::atomic::AtomicU16;

/// `len` two-byte slots in a writable map.
pub struct MappedSlots {
    map: MmapMut,
    len: usize,
}

impl MappedSlots {
    /// Maps `len` zeroed slots in anonymous memory, huge pages asked for.
    pub fn anonymous(len: usize) -> std::io::Result<MappedSlots> {
        let map = MmapMut::map_anon(len.saturating_mul(2).max(1))?;
        // Only a hint: on 4 KiB pages the slots work the same, more slowly.
        #[cfg(target_os = "linux")]
        let _ = map.advise(memmap2::Advice::HugePage);
        Ok(MappedSlots::in_map(map, len))
    }

    /// [`MappedSlots::anonymous`] for tier `tier`, a failure named as its error.
    pub fn for_tier(tier: impl std::fmt::Display, len: usize) -> Result<MappedSlots, SolveError> {
        MappedSlots::anonymous(len).map_err(|e| SolveError::Memory {
            tier: tier.to_string(),
            bytes: len as u64 * 2,
            error: e.to_string(),
        })
    }

    /// The first `len` slots of `map`.
    ///
    /// # Panics
    /// If the map is shorter than `2 · len` bytes.
    pub(super) fn in_map(map: MmapMut, len: usize) -> MappedSlots {
        assert!(map.len() >= len * 2, "a map of {} bytes for {len} slots", map.len());
        MappedSlots { map, len }
    }

    /// The slots as plain values, once the threads are done with them.
    pub fn into_values(self) -> MappedValues {
        MappedValues(self)
    }
}

impl std::ops::Deref for MappedSlots {
    type Target = [AtomicU16];

    /// The slots, shared between threads.
    fn deref(&self) -> &[AtomicU16] {
        // SAFETY: the map is page-aligned and at least `2 · len` bytes long (`in_map`);
        // `AtomicU16` has the size and alignment of `u16`, and every access while this
        // view is out is atomic (no `&mut` view of the map is made while it lives).
        unsafe { std::slice::from_raw_parts(self.map.as_ptr().cast::<AtomicU16>(), self.len) }
    }
}

/// Mapped slots as plain values: no atomic view of them is left to write them.
pub struct MappedValues(MappedSlots);

impl std::ops::Deref for MappedValues {
    type Target = [u16];

    fn deref(&self) -> &[u16] {
        let MappedSlots { map, len } = &self.0;
        // SAFETY: as in `MappedSlots`' `deref`; `u16` and `AtomicU16` share their layout,
        // and owning the slots means no atomic view of them is alive.
        unsafe { std::slice::from_raw_parts(map.as_ptr().cast::<u16>(), *len) }
    }
}

impl std::ops::DerefMut for MappedValues {
    /// The values, to write: process 0 of a shared build receives the other shares here.
    fn deref_mut(&mut self) -> &mut [u16] {
        let MappedSlots { map, len } = &mut self.0;
        // SAFETY: as in `deref`; the `&mut` borrow of the values is the only view of the
        // map while it lives.
        unsafe { std::slice::from_raw_parts_mut(map.as_mut_ptr().cast::<u16>(), *len) }
    }
}
