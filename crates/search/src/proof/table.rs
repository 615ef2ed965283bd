//! The proof search's transposition table: proof and disproof numbers of a position for
//! one question ([`Goal`]), shared by the threads, capped in size.
//!
//! The table is cut into shards by the position's hash, each behind its own lock, so an
//! entry is only ever read or written whole. Keys are whole positions, never a hash of
//! them: a wrong entry would be a wrong proof. A full shard drops the quarter of its
//! entries whose subtrees took the least work to search (what is cheapest to find again),
//! so a search never outgrows its cap, however long it runs.

use super::{Goal, Numbers};
use std::collections::HashMap;
use std::hash::{BuildHasher, Hash, RandomState};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Mutex, MutexGuard, PoisonError};

/// What the table keeps of a position for one question.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Entry {
    /// Its proof and disproof numbers, and the height of its proof once solved.
    pub numbers: Numbers,
    /// The index of the move that proves it, once proven.
    pub best: Option<u16>,
    /// Nodes searched below it, summed over the searches of it: what dropping it costs.
    pub work: u64,
}

/// Shards of the table: a power of two, many more than threads.
const SHARDS: usize = 64;

type Slots<P> = HashMap<(P, Goal), Entry>;

/// A transposition table shared by threads, holding at most a given number of entries.
pub(super) struct Table<P> {
    shards: Box<[Mutex<Slots<P>>]>,
    hasher: RandomState,
    per_shard: usize,
    len: AtomicUsize,
}

impl<P: Hash + Eq + Clone> Table<P> {
    /// An empty table of at most `most` entries (at least one a shard).
    pub fn new(most: usize) -> Table<P> {
        let shards = (0..SHARDS).map(|_| Mutex::new(HashMap::new())).collect();
        Table { shards, hasher: RandomState::new(), per_shard: (most / SHARDS).max(1), len: AtomicUsize::new(0) }
    }

    fn shard(&self, position: &P) -> MutexGuard<'_, Slots<P>> {
        let i = self.hasher.hash_one(position) as usize % SHARDS;
        // An entry is written by one assignment of a copied value: a panic under the
        // lock left every entry whole.
        self.shards[i].lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Entries held.
    pub fn len(&self) -> usize {
        self.len.load(Ordering::Relaxed)
    }

    /// The entry of `position` for `goal`, or what the other question's entry proves of
    /// it: a win proven proves "does not lose", and "does not lose" disproven disproves
    /// a win.
    pub fn get(&self, position: &P, goal: Goal) -> Option<Entry> {
        let shard = self.shard(position);
        let own = shard.get(&(position.clone(), goal)).copied();
        if own.is_some_and(|e| e.numbers.is_solved()) {
            return own;
        }
        let other = shard.get(&(position.clone(), goal.flip())).copied();
        let implied = other.filter(|e| match goal {
            Goal::NotLose => e.numbers.pn == 0,
            Goal::Win => e.numbers.dn == 0,
        });
        implied.map(|e| Entry { best: e.best.filter(|_| goal == Goal::NotLose), ..e }).or(own)
    }

    /// Keeps `entry` for `position` and `goal`; a solved entry is never replaced by an
    /// unsolved one, and work adds up.
    pub fn store(&self, position: &P, goal: Goal, entry: Entry) {
        let mut shard = self.shard(position);
        let key = (position.clone(), goal);
        if let Some(old) = shard.get_mut(&key) {
            let work = old.work.saturating_add(entry.work);
            if !old.numbers.is_solved() || entry.numbers.is_solved() {
                *old = entry;
            }
            old.work = work;
            return;
        }
        if shard.len() >= self.per_shard {
            self.drop_cheapest(&mut shard);
        }
        shard.insert(key, entry);
        self.len.fetch_add(1, Ordering::Relaxed);
    }

    /// Drops the quarter of a full shard's entries of least work (at least one).
    fn drop_cheapest(&self, shard: &mut Slots<P>) {
        let mut works: Vec<u64> = shard.values().map(|e| e.work).collect();
        let cut = works.len() / 4;
        let (_, &mut limit, _) = works.select_nth_unstable(cut);
        let before = shard.len();
        shard.retain(|_, e| e.work > limit);
        if shard.len() == before {
            if let Some(key) = shard.iter().min_by_key(|(_, e)| e.work).map(|(k, _)| k.clone()) {
                shard.remove(&key);
            }
        }
        self.len.fetch_sub(before - shard.len(), Ordering::Relaxed);
    }

    /// Every entry, for a proof file to keep.
    pub fn entries(&self) -> Vec<(P, Goal, Entry)> {
        let mut out = Vec::with_capacity(self.len());
        for shard in self.shards.iter() {
            let shard = shard.lock().unwrap_or_else(PoisonError::into_inner);
            out.extend(shard.iter().map(|((p, g), e)| (p.clone(), *g, *e)));
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::proof::INFINITE;

    fn entry(pn: u32, dn: u32, work: u64) -> Entry {
        Entry { numbers: Numbers { pn, dn, height: 0 }, best: None, work }
    }

    #[test]
    fn a_full_table_drops_the_cheapest_entries_and_keeps_solved_ones() {
        let table: Table<u32> = Table::new(SHARDS * 4);
        for p in 0..2000u32 {
            table.store(&p, Goal::Win, entry(1, 1, u64::from(p)));
        }
        assert!(table.len() <= SHARDS * 4);
        // The costliest entries stay.
        assert!(table.get(&1999, Goal::Win).is_some());
        table.store(&1999, Goal::Win, entry(0, INFINITE, 5));
        table.store(&1999, Goal::Win, entry(3, 3, 5));
        let kept = table.get(&1999, Goal::Win).unwrap();
        assert_eq!((kept.numbers.pn, kept.work), (0, 2009));
    }

    #[test]
    fn one_question_answers_the_other_where_it_implies_it() {
        let table: Table<u32> = Table::new(1 << 10);
        table.store(&1, Goal::Win, entry(0, INFINITE, 1));
        table.store(&2, Goal::NotLose, entry(INFINITE, 0, 1));
        table.store(&3, Goal::Win, entry(INFINITE, 0, 1));
        assert_eq!(table.get(&1, Goal::NotLose).unwrap().numbers.pn, 0);
        assert_eq!(table.get(&2, Goal::Win).unwrap().numbers.dn, 0);
        // A win disproven says nothing of "does not lose".
        assert!(table.get(&3, Goal::NotLose).is_none());
    }
}
