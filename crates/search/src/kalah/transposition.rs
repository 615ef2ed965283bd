//! The search's transposition table, shared by all threads without locks.
//!
//! A power-of-two array of 64-byte buckets (a cache line) of four entries; a board not
//! in its bucket takes the place of the entry with the fewest seeds (the smallest
//! subtree). Four entries a bucket searched 4.6 % fewer boards than two (one kept for the
//! most seeds, one always replaced) for every opening move of Kalah(6,4), in the same
//! memory and with one cache miss a probe as before. An entry holds, per board, the
//! best lower and upper bounds found, the best move and the board's seeds, in two 64-bit
//! words written with the "lockless" XOR scheme (the key word is the board's hash XOR the
//! data word), so threads share it without locks: a torn entry fails its key check and is
//! ignored.
//!
//! The array is an anonymous memory map with transparent huge pages requested: every probe
//! lands on a random bucket, and with 4 KiB pages nearly every probe also missed the TLB
//! (the page walk, not the cache miss, was most of a node's time on Kalah(6,4)).
//!
//! The whole array is reserved at once, but a search uses only its first buckets, one entry
//! per board searched so far ([`TranspositionTable::fit`]): the system zeroes
//! each page on first touch, and zeroing all 2 GiB of the default size made every small
//! search (`solve verify kalah`'s thirty instances, a position near the end) pay for memory it
//! never used (docs/performance.md, transposition table). Growing the mask is safe while other threads probe and store: until the
//! growing thread has moved an entry to its new bucket, a probe there misses it, which costs
//! a re-search, never a wrong value (every entry is checked by its key).

use memmap2::{Advice, MmapMut};
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering::Relaxed};

/// Entries a bucket holds.
const WAYS: usize = 4;

/// `WAYS` entries: key and data words of each, one cache line.
#[repr(C, align(64))]
struct Bucket([AtomicU64; 2 * WAYS]);

/// What the table knows of a board.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Entry {
    /// A lower bound of the board's value for the player to move.
    pub lower: i16,
    /// An upper bound of it.
    pub upper: i16,
    /// Best pit + 1, or 0.
    pub best: u8,
    /// Seeds in the pits of the board: a bucket keeps, in one slot, the entry with the
    /// most (the largest subtree).
    pub seeds: u8,
}

/// Data word of an entry: lower bound, upper bound (each offset by 2^15), best pit + 1,
/// seeds in the pits.
fn pack(e: Entry) -> u64 {
    ((e.lower as i32 + 32768) as u64)
        | (((e.upper as i32 + 32768) as u64) << 16)
        | ((e.best as u64) << 32)
        | ((e.seeds as u64) << 40)
}

fn unpack(data: u64) -> Entry {
    Entry {
        lower: ((data & 0xffff) as i32 - 32768) as i16,
        upper: (((data >> 16) & 0xffff) as i32 - 32768) as i16,
        best: (data >> 32) as u8,
        seeds: (data >> 40) as u8,
    }
}

/// The entry a data word found by [`TranspositionTable::find`] holds (0: none; a packed
/// entry is never 0).
#[inline]
pub fn entry(data: u64) -> Option<Entry> {
    (data != 0).then(|| unpack(data))
}

/// A lock-free table of search results, keyed by a board's hash, on memory mapped once.
pub struct TranspositionTable {
    map: MmapMut,
    buckets: usize,
    /// Buckets in use − 1 (a power of two less one, at most `buckets − 1`).
    mask: AtomicUsize,
}

/// Entries in use per board searched so far. Four cost the Kalah(6,4) value over 20-seed
/// tables 2 s of the system's time zeroing pages (8.7 s against 6.6 s on one thread), for
/// 3 % fewer boards.
const ENTRIES_PER_BOARD: u64 = 1;

/// Buckets a table starts with (2 MiB, one huge page), if it has that many.
const FIRST_BUCKETS: usize = 1 << 15;

impl TranspositionTable {
    /// A table of `2^bits` entries (16 bytes each) reserved, all empty, its first 2 MiB in use.
    pub fn new(bits: u32) -> std::io::Result<TranspositionTable> {
        let buckets = (1usize << bits.max(WAYS.trailing_zeros())) / WAYS;
        let map = MmapMut::map_anon(buckets * std::mem::size_of::<Bucket>())?;
        // Only a hint: without huge pages the table works, more slowly.
        #[cfg(target_os = "linux")]
        let _ = map.advise(Advice::HugePage);
        let mask = AtomicUsize::new(buckets.min(FIRST_BUCKETS) - 1);
        Ok(TranspositionTable { map, buckets, mask })
    }

    /// Entries in use now.
    pub fn entries(&self) -> usize {
        WAYS * (self.mask.load(Relaxed) + 1)
    }

    /// Grows the part in use to at least `ENTRIES_PER_BOARD` entries per board of
    /// `searched` (up to the whole table): every search calls this as its count of boards grows. The thread that
    /// grows it moves the entries whose bucket changed to their new place (the others go
    /// on searching meanwhile): dropping them cost 9 % more boards on Kalah(6,4).
    pub fn fit(&self, searched: u64) {
        let wanted = ((searched.saturating_mul(ENTRIES_PER_BOARD) / WAYS as u64) as usize).min(self.buckets);
        let old = self.mask.load(Relaxed);
        if wanted <= old + 1 {
            return;
        }
        let new = wanted.next_power_of_two().min(self.buckets) - 1;
        if self.mask.compare_exchange(old, new, Relaxed, Relaxed).is_err() {
            return; // another thread grew it
        }
        for i in 0..=old {
            let b = &self.bucket_at(i).0;
            for slot in (0..2 * WAYS).step_by(2) {
                let (k, d) = (b[slot].load(Relaxed), b[slot + 1].load(Relaxed));
                let key = k ^ d;
                // An empty slot has no data word (a packed entry is never 0).
                if d != 0 && (key as usize) & new != i {
                    b[slot].store(0, Relaxed);
                    b[slot + 1].store(0, Relaxed);
                    self.store(key, unpack(d));
                }
            }
        }
    }

    #[inline]
    fn bucket(&self, key: u64) -> &Bucket {
        self.bucket_at((key as usize) & self.mask.load(Relaxed))
    }

    #[inline]
    fn bucket_at(&self, i: usize) -> &Bucket {
        debug_assert!(i < self.buckets);
        // SAFETY: `i` is below `buckets` (masked by a mask below it, or counted up to one);
        // the map holds `buckets` buckets (its length is `buckets * 64`), is page-aligned
        // (so 64-byte aligned), and starts zeroed, which is a valid `AtomicU64`; every
        // access to it goes through these atomics.
        unsafe { &*(self.map.as_ptr() as *const Bucket).add(i) }
    }

    /// What the table knows of the board with hash `key`.
    #[inline]
    pub fn lookup(&self, key: u64) -> Option<Entry> {
        entry(self.find(key))
    }

    /// The data word of `key`'s entry, 0 if its bucket holds none ([`entry`] decodes it),
    /// read without a branch: a search reads several children's buckets in a row, and a
    /// branch on a word still being loaded (is this the key?) is mispredicted often enough
    /// to make the loads wait for each other.
    #[inline]
    pub fn find(&self, key: u64) -> u64 {
        let b = &self.bucket(key).0;
        let words: [u64; 2 * WAYS] = std::array::from_fn(|i| b[i].load(Relaxed));
        let mut data = 0;
        for w in words.chunks_exact(2) {
            data = if w[0] ^ w[1] == key { w[1] } else { data };
        }
        data
    }

    /// Asks for a board's bucket to be fetched ahead of its [`TranspositionTable::find`]
    /// (the search does other work meanwhile).
    #[inline]
    pub fn prefetch(&self, key: u64) {
        retro::prefetch(self.bucket(key));
    }

    /// Keeps `entry` for the board with hash `key`, in the slot its bucket's replacement
    /// policy picks.
    #[inline]
    pub fn store(&self, key: u64, entry: Entry) {
        let b = &self.bucket(key).0;
        let data = pack(entry);
        let words: [u64; 2 * WAYS] = std::array::from_fn(|i| b[i].load(Relaxed));
        // The board's own entry, else the first entry of the fewest seeds (an empty one,
        // all zero, has none): the lowest score, the board's own counting below any.
        let mut slot = 0;
        let mut lowest = i32::MAX;
        for (i, w) in words.chunks_exact(2).enumerate() {
            let score = if w[0] ^ w[1] == key { -1 } else { unpack(w[1]).seeds as i32 };
            if score < lowest {
                (slot, lowest) = (2 * i, score);
            }
        }
        b[slot].store(key ^ data, Relaxed);
        b[slot + 1].store(data, Relaxed);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entries_round_trip_and_the_fewest_seeds_make_way() {
        let table = TranspositionTable::new(4).unwrap();
        let buckets = 16 / WAYS as u64;
        let entry = |seeds| Entry { lower: -40, upper: 12, best: 3, seeds };
        // One bucket filled with boards of 30, 20, 40 and 25 seeds.
        let keys: Vec<u64> = (0..WAYS as u64).map(|i| 7 + i * buckets).collect();
        for (&key, seeds) in keys.iter().zip([30, 20, 40, 25]) {
            table.store(key, entry(seeds));
        }
        for (&key, seeds) in keys.iter().zip([30, 20, 40, 25]) {
            assert_eq!(table.lookup(key), Some(entry(seeds)));
        }
        // A board's own entry is updated in place.
        table.store(keys[0], Entry { lower: 5, upper: 5, best: 1, seeds: 30 });
        assert_eq!(table.lookup(keys[0]), Some(Entry { lower: 5, upper: 5, best: 1, seeds: 30 }));
        // A fifth board takes the place of the one with the fewest seeds, even with fewer.
        let fifth = 7 + WAYS as u64 * buckets;
        table.store(fifth, entry(10));
        assert_eq!(table.lookup(fifth), Some(entry(10)));
        assert_eq!(table.lookup(keys[1]), None, "20 seeds, the fewest, made way");
        for &key in [keys[0], keys[2], keys[3]].iter() {
            assert!(table.lookup(key).is_some());
        }
        assert_eq!(table.lookup(7 + 5 * WAYS as u64 * buckets), None);
    }

    #[test]
    fn the_part_in_use_grows_with_the_search_and_keeps_what_it_can() {
        let table = TranspositionTable::new(22).unwrap();
        assert_eq!(table.entries(), WAYS * FIRST_BUCKETS);
        let e = Entry { lower: 1, upper: 3, best: 2, seeds: 9 };
        // Two keys in bucket 5 now; after growing, one stays there and one moves.
        let (stays, moves) = (5u64, 5 + FIRST_BUCKETS as u64);
        table.store(stays, e);
        table.store(moves, e);
        let filling = (WAYS * FIRST_BUCKETS) as u64 / ENTRIES_PER_BOARD;
        table.fit(filling);
        assert_eq!(table.entries(), WAYS * FIRST_BUCKETS, "no growth while the entries a board is given remain");
        table.fit(filling + WAYS as u64);
        assert_eq!(table.entries(), 2 * WAYS * FIRST_BUCKETS);
        assert_eq!(table.lookup(stays), Some(e));
        assert_eq!(table.lookup(moves), Some(e), "moved to its new bucket");
        table.fit(u64::MAX);
        assert_eq!(table.entries(), 1 << 22, "never past the reserved size");
    }
}
