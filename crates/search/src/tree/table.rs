//! The transposition table every thread of a search shares: bounds on a position's value
//! that hold on every path, and the move that proved the lower one.
//!
//! The table is cut into shards by the position's hash, each behind its own lock: an
//! entry is read and written whole under its shard's lock, so no thread ever reads
//! bounds half written by another (bounds mixed from two writes, or two positions,
//! would be a wrong proof). Keys are whole positions, never a hash of them, for the
//! same reason. With many shards two threads seldom want the same lock at once. A
//! position is hashed once: the hash chooses both its shard and its slot there.

use hashbrown::hash_table::{Entry as Slot, HashTable};
use std::hash::{BuildHasher, Hash, RandomState};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Mutex, MutexGuard, PoisonError};

/// What the table keeps of a position: bounds on its value that hold on every path, and
/// the index of the move that proved the lower one.
#[derive(Debug, Clone, Copy)]
pub(super) struct Entry<V> {
    pub lower: V,
    pub upper: V,
    pub best: Option<u16>,
}

/// Shards of the table: a power of two, many more than threads.
const SHARDS: usize = 256;

/// The bits of a position's hash that choose its shard: above those a shard's table
/// uses for a slot (the low ones) and below those it keeps as a tag (the top seven).
const SHARD_SHIFT: u32 = 40;

/// One shard: the positions whose hash chooses it, each with its hash. Aligned to a
/// cache line pair so that two threads locking neighbouring shards do not share a line.
#[repr(align(128))]
struct Shard<P, V>(Mutex<Slots<P, V>>);

/// A shard's positions, each with its hash and its entry.
type Slots<P, V> = HashTable<(u64, P, Entry<V>)>;

/// A transposition table shared by threads.
pub(super) struct Table<P, V> {
    shards: Box<[Shard<P, V>]>,
    hasher: RandomState,
    /// Positions held, and the most it takes.
    len: AtomicUsize,
    most: usize,
}

impl<P: Hash + Eq + Clone, V: Copy + Ord> Table<P, V> {
    /// An empty table that holds `most` positions at most.
    pub fn new(most: usize) -> Table<P, V> {
        let shards = (0..SHARDS).map(|_| Shard(Mutex::new(HashTable::new()))).collect();
        Table { shards, hasher: RandomState::new(), len: AtomicUsize::new(0), most }
    }

    /// The hash of `position` and its shard, locked.
    fn shard(&self, position: &P) -> (u64, MutexGuard<'_, Slots<P, V>>) {
        let hash = self.hasher.hash_one(position);
        let i = (hash >> SHARD_SHIFT) as usize % SHARDS;
        // A thread that panicked under the lock left every entry whole: each is
        // written by one assignment of a copied value.
        (hash, self.shards[i].0.lock().unwrap_or_else(PoisonError::into_inner))
    }

    /// The entry of `position`, if it has one.
    pub fn get(&self, position: &P) -> Option<Entry<V>> {
        let (hash, shard) = self.shard(position);
        shard.find(hash, |(_, p, _)| p == position).map(|&(_, _, entry)| entry)
    }

    /// Narrows the entry of `position` by `lower`, `upper` (bounds that hold on every
    /// path), keeping `best` where given; a full table takes no new position.
    pub fn store(&self, position: &P, lower: V, upper: V, best: Option<u16>) {
        let (hash, mut shard) = self.shard(position);
        match shard.entry(hash, |(_, p, _)| p == position, |&(h, _, _)| h) {
            Slot::Occupied(mut slot) => {
                let entry = &mut slot.get_mut().2;
                *entry =
                    Entry { lower: lower.max(entry.lower), upper: upper.min(entry.upper), best: best.or(entry.best) };
            }
            Slot::Vacant(slot) => {
                if self.reserve() {
                    slot.insert((hash, position.clone(), Entry { lower, upper, best }));
                }
            }
        }
    }

    /// Room for one more position, taken if there is.
    fn reserve(&self) -> bool {
        self.len.fetch_update(Ordering::Relaxed, Ordering::Relaxed, |n| (n < self.most).then_some(n + 1)).is_ok()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entries_narrow_and_a_full_table_takes_no_new_position() {
        let table: Table<u32, i16> = Table::new(2);
        table.store(&1, -5, 5, None);
        table.store(&1, -7, 3, Some(2));
        table.store(&1, -1, 9, None);
        let e = table.get(&1).unwrap();
        assert_eq!((e.lower, e.upper, e.best), (-1, 3, Some(2)));
        table.store(&2, 0, 0, None);
        table.store(&3, 0, 0, None);
        assert!(table.get(&3).is_none());
        assert!(table.get(&2).is_some());
    }

    /// Threads storing bounds that all contain one value per position, at once: every
    /// entry read, at any time, contains it.
    #[test]
    fn threads_never_read_bounds_that_miss_the_value() {
        let table: Table<u32, i16> = Table::new(1 << 12);
        let value = |p: u32| (p % 17) as i16 - 8;
        std::thread::scope(|scope| {
            for t in 0..3u32 {
                let table = &table;
                scope.spawn(move || {
                    for round in 0..20_000u32 {
                        let p = (round * 7 + t) % 512;
                        let (v, slack) = (value(p), (round % 5) as i16);
                        table.store(&p, v - slack, v + (round % 3) as i16, None);
                        let other = (round * 13 + t) % 512;
                        if let Some(e) = table.get(&other) {
                            assert!(e.lower <= value(other) && value(other) <= e.upper);
                        }
                    }
                });
            }
        });
    }
}
