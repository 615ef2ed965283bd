//! A tier's slots in a scratch file mapped into memory, for a tier whose two bytes a
//! position do not fit in memory.
//!
//! Memory of the process itself could not be given back under pressure (there may be
//! no swap); a file's pages can: the kernel writes them out and drops them as memory
//! runs short. The engine then pushes the tier in parts (see [`crate::solve`]), so that
//! the pages it writes at random are one part's at a time. The whole file is allocated on
//! disk before it is mapped, so that a full disk is an error here rather than a `SIGBUS`
//! at a write into a page the disk has no room for.

use super::mapped_slots::{MappedSlots, MappedValues};
use memmap2::MmapMut;
use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicU16;

/// A file of `len` two-byte slots, mapped; the file is removed when this is dropped.
pub struct ScratchSlots {
    slots: MappedSlots,
    file: Removed,
}

impl ScratchSlots {
    /// Creates the file at `path` (which must not exist), allocates `len` zeroed slots
    /// in it on disk and maps it.
    pub fn create(path: &Path, len: usize) -> std::io::Result<ScratchSlots> {
        let bytes = len as u64 * 2;
        let file = std::fs::OpenOptions::new().read(true).write(true).create_new(true).open(path)?;
        let removed = Removed(path.to_owned());
        fs4::FileExt::allocate(&file, bytes.max(1))?;
        // SAFETY: the file was created just now by this process (`create_new`) in the
        // table directory the build holds locked, and nothing else maps, writes or
        // truncates it until it is removed on drop; the build's own accesses all go
        // through this one mapping.
        let map = unsafe { MmapMut::map_mut(&file) }?;
        Ok(ScratchSlots { slots: MappedSlots::in_map(map, len), file: removed })
    }

    /// The slots as plain values, once the threads are done with them.
    pub fn into_values(self) -> ScratchValues {
        ScratchValues { values: self.slots.into_values(), _file: self.file }
    }
}

impl std::ops::Deref for ScratchSlots {
    type Target = [AtomicU16];

    /// The slots, shared between threads.
    fn deref(&self) -> &[AtomicU16] {
        &self.slots
    }
}

/// A scratch file's slots as plain values; the file is removed when this is dropped.
pub struct ScratchValues {
    values: MappedValues,
    _file: Removed,
}

impl std::ops::Deref for ScratchValues {
    type Target = [u16];

    fn deref(&self) -> &[u16] {
        &self.values
    }
}

impl std::ops::DerefMut for ScratchValues {
    fn deref_mut(&mut self) -> &mut [u16] {
        &mut self.values
    }
}

/// A scratch file, removed when this is dropped (after its map, declared before it).
struct Removed(PathBuf);

impl Drop for Removed {
    fn drop(&mut self) {
        // Left behind by a crash, the file is removed by the next build that locks the
        // directory (its name is a temporary file's, `.tier-*.tmp`).
        let _ = std::fs::remove_file(&self.0);
    }
}
