//! The window search's transposition table, shared by all threads without locks.
//!
//! A power-of-two array of 64-byte buckets (a cache line) of four entries; a position not
//! in its bucket takes the place of the entry with the least material (the smallest
//! subtree). Four entries a bucket searched 4.6 % fewer boards than two (one kept for the
//! most seeds, one always replaced) for every opening move of Kalah(6,4), in the same
//! memory and with one cache miss a probe as before.
//!
//! ```text
//!   a position as its game packs it (Game::packed), a number below 2^96:
//!     lo = its low 64 bits,  hi = its high 32 bits
//!
//!   the key:                         hash = mix(mix(lo) ^ hi),  rest = hi
//!   an entry, two 64-bit words:      key word  = hash ^ data word
//!                                    data word = rest (32) | material (8) | best (4) | upper (10) | lower (10)
//! ```
//!
//! A position's entry is read by no other position: the key gives its 96 bits back
//! (`rest` is `hi`, and `mix` is a bijection, so `lo` is `mix⁻¹(mix⁻¹(hash) ^ hi)`), and
//! the game packs different positions into different numbers. The hash alone would not
//! do: the positions in one bucket already agree on its index bits (25 of them in a full
//! table of 2^27 entries), so a probe meets another position of its whole hash with odds
//! near 4 · 2^-39, and the billions of probes of a large search would now and then have
//! read another position's bounds. A position the game does not pack (`None`), or whose
//! `hi` is all ones, gets [`Key::UNKEPT`], never stored nor found, and is searched each
//! time it is met. Bounds are kept in 10 bits: an entry whose bounds pass ±511 is not kept
//! either ([`TranspositionTable::store`]).
//!
//! Threads share the table without locks by the "lockless" XOR scheme: the key word is the
//! hash XOR the data word, so a torn entry (one word of one store, the other of another)
//! fails its key check and is ignored. (It passes only if the two positions' hashes differ
//! by exactly what the two data words do: odds of 2^-64, on a read that is rare already.)
//!
//! The array is an anonymous memory map with transparent huge pages requested: every probe
//! lands on a random bucket, and with 4 KiB pages nearly every probe also missed the TLB
//! (the page walk, not the cache miss, was most of a node's time on Kalah(6,4)).
//!
//! The whole array is reserved at once, but a search uses only its first buckets, one entry
//! per position searched so far ([`TranspositionTable::fit`]): the system zeroes each page
//! on first touch, and zeroing all 2 GiB of the default size made every small search
//! (`solve verify kalah`'s thirty instances, a position near the end) pay for memory it
//! never used (docs/performance.md, transposition table). Growing the mask is safe while
//! other threads probe and store: until the growing thread has moved an entry to its new
//! bucket, a probe there misses it, which costs a re-search, never a wrong value (every
//! entry is checked by its key).

use memmap2::{Advice, MmapMut};
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering::Relaxed};

/// Entries a bucket holds.
const WAYS: usize = 4;

/// `WAYS` entries: key and data words of each, one cache line.
#[repr(C, align(64))]
struct Bucket([AtomicU64; 2 * WAYS]);

/// What the table knows of a position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Entry {
    /// A lower bound of the position's value for the player to move.
    pub lower: i16,
    /// An upper bound of it.
    pub upper: i16,
    /// Index of the best move in the game's list + 1, or 0 (none, or past the 15th).
    pub best: u8,
    /// The position's material, its tier's number (at most 255): a bucket keeps, in one
    /// slot, the entry with the most (the largest subtree).
    pub material: u8,
}

/// Where a position is kept: a hash of its packed number, which picks its bucket, and the
/// part of that number the entry keeps beside its data (see the module's diagram).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Key {
    /// `mix(mix(lo) ^ hi)`: its low bits are the bucket's index.
    pub hash: u64,
    /// `hi`.
    rest: u32,
}

impl Key {
    /// The key of a position that is not kept: stores of it are dropped and lookups of it
    /// find nothing. No kept position has this `rest` ([`Key::of`] gives this key to the
    /// only numbers that would). (Its hash is not 0, which an empty slot of the search's
    /// busy marks would seem to hold.)
    pub const UNKEPT: Key = Key { hash: u64::MAX, rest: u32::MAX };

    /// The key of a position its game packs into `packed` ([`retro::Game::packed`]):
    /// [`Key::UNKEPT`] for none, or a number of 96 bits or more, or one whose high 32 bits
    /// are all ones.
    #[inline]
    pub fn of(packed: Option<u128>) -> Key {
        match packed {
            Some(n) if n >> 64 < u32::MAX as u128 => Key::mixed(n as u64, (n >> 64) as u32),
            _ => Key::UNKEPT,
        }
    }

    #[inline]
    fn mixed(lo: u64, hi: u32) -> Key {
        // Two rounds of a 64-bit finaliser (splitmix64's constants), a bijection.
        let mix = |mut z: u64| {
            z = (z ^ (z >> 30)).wrapping_mul(0xbf58476d1ce4e5b9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94d049bb133111eb);
            z ^ (z >> 31)
        };
        Key { hash: mix(mix(lo) ^ hi as u64), rest: hi }
    }
}

/// Bounds are kept in 10 bits each, offset by this: a Kalah board holds at most 255 seeds
/// (`games::kalah::MAX_SEEDS`), so its value and every bound the search proves on it lie
/// within ±255.
const BOUND_OFFSET: i32 = 512;

/// The data word of an entry: its 32 bits of data (lower bound, upper bound, best pit + 1,
/// material) below the key's `rest`.
fn pack(rest: u32, e: Entry) -> u64 {
    debug_assert!(e.lower.abs() < BOUND_OFFSET as i16 && e.upper.abs() < BOUND_OFFSET as i16 && e.best < 16);
    ((e.lower as i32 + BOUND_OFFSET) as u64)
        | (((e.upper as i32 + BOUND_OFFSET) as u64) << 10)
        | ((e.best as u64) << 20)
        | ((e.material as u64) << 24)
        | ((rest as u64) << 32)
}

fn unpack(data: u64) -> Entry {
    Entry {
        lower: ((data & 0x3ff) as i32 - BOUND_OFFSET) as i16,
        upper: (((data >> 10) & 0x3ff) as i32 - BOUND_OFFSET) as i16,
        best: ((data >> 20) & 0xf) as u8,
        material: (data >> 24) as u8,
    }
}

/// One position's two data words as one: the tighter of each bound, and the newer best move
/// unless it has none. Another task may have proved more of the position while this one
/// searched it with the bounds it read on entering: keeping only the newer entry would
/// lose that (a null-window test answered by a child's loose bound proves little).
fn merged(old: u64, new: u64) -> u64 {
    let (o, n) = (unpack(old), unpack(new));
    let (lower, upper) = (o.lower.max(n.lower), o.upper.min(n.upper));
    debug_assert!(lower <= upper, "proven bounds cross: {o:?} and {n:?}");
    let best = if n.best == 0 { o.best } else { n.best };
    pack((new >> 32) as u32, Entry { lower, upper, best, ..n })
}

/// The entry a data word found by [`TranspositionTable::find`] holds (0: none; a packed
/// entry is never 0, its lower bound's field being at least 257).
#[inline]
pub fn entry(data: u64) -> Option<Entry> {
    (data != 0).then(|| unpack(data))
}

/// A lock-free table of search results, keyed by a position's hash, on memory mapped once.
pub struct TranspositionTable {
    map: MmapMut,
    buckets: usize,
    /// Buckets in use − 1 (a power of two less one, at most `buckets − 1`).
    mask: AtomicUsize,
}

/// Entries in use per position searched so far. Four cost the Kalah(6,4) value over 20-seed
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

    /// Grows the part in use to at least `ENTRIES_PER_BOARD` entries per position of
    /// `searched` (up to the whole table): every search calls this as its count of positions grows. The thread that
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
                let key = Key { hash: k ^ d, rest: (d >> 32) as u32 };
                // An empty slot has no data word (a packed entry is never 0).
                if d != 0 && (key.hash as usize) & new != i {
                    b[slot].store(0, Relaxed);
                    b[slot + 1].store(0, Relaxed);
                    self.store_data(key, d);
                }
            }
        }
    }

    #[inline]
    fn bucket(&self, hash: u64) -> &Bucket {
        self.bucket_at((hash as usize) & self.mask.load(Relaxed))
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

    /// What the table knows of the position with key `key`.
    #[inline]
    pub fn lookup(&self, key: Key) -> Option<Entry> {
        entry(self.find(key))
    }

    /// The data word of `key`'s entry, 0 if its bucket holds none ([`entry`] decodes it),
    /// read without a branch: a search reads several children's buckets in a row, and a
    /// branch on a word still being loaded (is this the key?) is mispredicted often enough
    /// to make the loads wait for each other.
    #[inline]
    pub fn find(&self, key: Key) -> u64 {
        let b = &self.bucket(key.hash).0;
        let words: [u64; 2 * WAYS] = std::array::from_fn(|i| b[i].load(Relaxed));
        let mut data = 0;
        for w in words.chunks_exact(2) {
            data = if w[0] ^ w[1] == key.hash { w[1] } else { data };
        }
        // The rest checked once, on the entry the hash picked: two entries of one hash
        // in a bucket (rare) may make a position miss its own, never read another's.
        if (data >> 32) as u32 == key.rest {
            data
        } else {
            0
        }
    }

    /// Asks for a position's bucket to be fetched ahead of its [`TranspositionTable::find`]
    /// (the search does other work meanwhile).
    #[inline]
    pub fn prefetch(&self, key: Key) {
        retro::prefetch(self.bucket(key.hash));
    }

    /// Keeps `entry` for the position with key `key`, in the slot its bucket's replacement
    /// policy picks; over the position's own entry, the tighter of each bound (`merged`).
    /// An entry whose bounds do not fit its 10-bit fields is not kept.
    #[inline]
    pub fn store(&self, key: Key, entry: Entry) {
        let fits = |v: i16| i32::from(v).abs() < BOUND_OFFSET;
        if key != Key::UNKEPT && fits(entry.lower) && fits(entry.upper) {
            self.store_data(key, pack(key.rest, entry));
        }
    }

    #[inline]
    fn store_data(&self, key: Key, data: u64) {
        let b = &self.bucket(key.hash).0;
        let words: [u64; 2 * WAYS] = std::array::from_fn(|i| b[i].load(Relaxed));
        // The position's own entry, else the first entry of the least material (an empty one,
        // all zero, has none): the lowest score, the position's own counting below any. An
        // entry of the same hash is taken for the position's own without its rest checked:
        // overwriting another position's entry only loses it.
        let mut slot = 0;
        let mut lowest = i32::MAX;
        for (i, w) in words.chunks_exact(2).enumerate() {
            let score = if w[0] ^ w[1] == key.hash { -1 } else { unpack(w[1]).material as i32 };
            if score < lowest {
                (slot, lowest) = (2 * i, score);
            }
        }
        let old = words[slot + 1];
        let data = if lowest == -1 && (old >> 32) as u32 == key.rest { merged(old, data) } else { data };
        b[slot].store(key.hash ^ data, Relaxed);
        b[slot + 1].store(data, Relaxed);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(hash: u64, rest: u32) -> Key {
        Key { hash, rest }
    }

    #[test]
    fn entries_round_trip_and_the_fewest_seeds_make_way() {
        let table = TranspositionTable::new(4).unwrap();
        let buckets = 16 / WAYS as u64;
        let entry = |material| Entry { lower: -40, upper: 12, best: 3, material };
        // One bucket filled with boards of 30, 20, 40 and 25 seeds.
        let keys: Vec<Key> = (0..WAYS as u64).map(|i| key(7 + i * buckets, 1 << (8 * i) as u32)).collect();
        for (&key, seeds) in keys.iter().zip([30, 20, 40, 25]) {
            table.store(key, entry(seeds));
        }
        for (&key, seeds) in keys.iter().zip([30, 20, 40, 25]) {
            assert_eq!(table.lookup(key), Some(entry(seeds)));
        }
        // A board's own entry is updated in place, keeping the tighter of each bound (what
        // another search proved meanwhile) and the newer best move, if it has one.
        table.store(keys[0], Entry { lower: -50, upper: 8, best: 5, material: 30 });
        assert_eq!(table.lookup(keys[0]), Some(Entry { lower: -40, upper: 8, best: 5, material: 30 }));
        table.store(keys[0], Entry { lower: -30, upper: 10, best: 0, material: 30 });
        assert_eq!(table.lookup(keys[0]), Some(Entry { lower: -30, upper: 8, best: 5, material: 30 }));
        // The widest fields round trip (a board of another bucket).
        let widest = Entry { lower: -255, upper: 255, best: 8, material: 255 };
        table.store(key(8, 0), widest);
        assert_eq!(table.lookup(key(8, 0)), Some(widest), "the widest bounds, the last pit and a full board kept");
        // A fifth board takes the place of the one with the fewest seeds, even with fewer.
        let fifth = key(7 + WAYS as u64 * buckets, 0xfeed);
        table.store(fifth, entry(10));
        assert_eq!(table.lookup(fifth), Some(entry(10)));
        assert_eq!(table.lookup(keys[1]), None, "20 seeds, the fewest, made way");
        for &key in [keys[0], keys[2], keys[3]].iter() {
            assert!(table.lookup(key).is_some());
        }
        assert_eq!(table.lookup(key(7 + 5 * WAYS as u64 * buckets, 0)), None);
    }

    /// The inverse of `Key::of`'s `mix`.
    fn unmix(mut z: u64) -> u64 {
        // The inverse of an odd multiplier modulo 2^64, by Newton's iteration.
        let inverse = |a: u64| (0..6).fold(a, |x: u64, _| x.wrapping_mul(2u64.wrapping_sub(a.wrapping_mul(x))));
        z ^= (z >> 31) ^ (z >> 62);
        z = z.wrapping_mul(inverse(0x94d049bb133111eb));
        z ^= (z >> 27) ^ (z >> 54);
        z = z.wrapping_mul(inverse(0xbf58476d1ce4e5b9));
        z ^ (z >> 30) ^ (z >> 60)
    }

    #[test]
    fn boards_of_one_hash_are_told_apart() {
        // A 6-pit board, and another whose last four cells differ, its first eight chosen
        // so that both hash alike: only the cells past the eighth tell them apart.
        let a: u128 = u128::from_le_bytes([4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 0, 0, 0, 0]);
        let (lo, hi) = (a as u64, (a >> 64) as u64);
        let other_hi = 0x0305_0200;
        // With no cells past the eighth, the hash is mix(mix(lo)).
        let mixed_lo = unmix(Key::of(Some(lo as u128)).hash);
        let other_lo = unmix(mixed_lo ^ hi ^ other_hi);
        let b = other_lo as u128 | (other_hi as u128) << 64;
        let (ka, kb) = (Key::of(Some(a)), Key::of(Some(b)));
        assert_ne!(a, b);
        assert_eq!(ka.hash, kb.hash, "the two boards' hashes collide");
        assert_ne!(ka, kb);
        let table = TranspositionTable::new(10).unwrap();
        let e = Entry { lower: 2, upper: 6, best: 3, material: 48 };
        table.store(ka, e);
        assert_eq!(table.lookup(ka), Some(e));
        assert_eq!(table.lookup(kb), None, "another board's bounds are never read");
        // The second board's store may take the first's slot (one of them is lost, which
        // costs a re-search), but neither reads the other's bounds.
        let other = Entry { lower: -6, upper: -6, best: 1, material: 40 };
        table.store(kb, other);
        assert_eq!(table.lookup(kb), Some(other));
        assert!(matches!(table.lookup(ka), None | Some(Entry { lower: 2, upper: 6, .. })));
    }

    /// The number a key names: its 96 bits `lo` and `hi` read back (the module's diagram).
    fn named(key: Key) -> u128 {
        let hi = key.rest as u64;
        unmix(unmix(key.hash) ^ hi) as u128 | (hi as u128) << 64
    }

    /// Numbers below 2^96 from a seeded generator (splitmix64).
    fn numbers(count: usize) -> impl Iterator<Item = u128> {
        let mut state = 0x5eed_u64;
        let mut next = move || {
            state = state.wrapping_add(0x9e3779b97f4a7c15);
            let z = (state ^ (state >> 31)).wrapping_mul(0xbf58476d1ce4e5b9);
            z ^ (z >> 29)
        };
        std::iter::repeat_with(move || next() as u128 | ((next() >> 32) as u128) << 64).take(count)
    }

    #[test]
    fn a_key_names_its_number() {
        for n in numbers(50_000).filter(|n| n >> 64 != u32::MAX as u128) {
            assert_eq!(named(Key::of(Some(n))), n);
        }
    }

    #[test]
    fn a_position_without_a_number_of_its_own_is_never_kept() {
        let table = TranspositionTable::new(10).unwrap();
        for packed in [None, Some(u128::MAX), Some(1 << 96), Some((u32::MAX as u128) << 64)] {
            let key = Key::of(packed);
            assert_eq!(key, Key::UNKEPT, "{packed:?}");
            table.store(key, Entry { lower: 0, upper: 0, best: 1, material: 79 });
            assert_eq!(table.lookup(key), None, "not stored");
        }
        // Nor an entry whose bounds pass what its fields hold.
        let kept = Key::of(Some(12345));
        table.store(kept, Entry { lower: -600, upper: 3, best: 1, material: 9 });
        assert_eq!(table.lookup(kept), None, "bounds past ±511 not stored");
        assert!((0..table.buckets).all(|i| table.bucket_at(i).0.iter().all(|w| w.load(Relaxed) == 0)));
    }

    #[test]
    fn the_part_in_use_grows_with_the_search_and_keeps_what_it_can() {
        let table = TranspositionTable::new(22).unwrap();
        assert_eq!(table.entries(), WAYS * FIRST_BUCKETS);
        let e = Entry { lower: 1, upper: 3, best: 2, material: 9 };
        // Two keys in bucket 5 now; after growing, one stays there and one moves.
        let (stays, moves) = (key(5, 17), key(5 + FIRST_BUCKETS as u64, 0xdead_beef));
        table.store(stays, e);
        table.store(moves, e);
        let filling = (WAYS * FIRST_BUCKETS) as u64 / ENTRIES_PER_BOARD;
        table.fit(filling);
        assert_eq!(table.entries(), WAYS * FIRST_BUCKETS, "no growth while the entries a board is given remain");
        table.fit(filling + WAYS as u64);
        assert_eq!(table.entries(), 2 * WAYS * FIRST_BUCKETS);
        assert_eq!(table.lookup(stays), Some(e));
        assert_eq!(table.lookup(moves), Some(e), "moved to its new bucket");
        assert_eq!(table.lookup(key(5 + FIRST_BUCKETS as u64, 0)), None, "and still told apart by its rest");
        table.fit(u64::MAX);
        assert_eq!(table.entries(), 1 << 22, "never past the reserved size");
    }
}
