//! A tier shared by several processes: which of its ranks each one owns, and the few
//! collective steps the engines take together.
//!
//! Every engine solves a tier in steps that read and set slots by rank (a scan, then
//! levels of pushes or thresholds of propagation). With several processes, each one
//! ([`Processes`]) owns one contiguous range of the tier's ranks ([`Shares`]), holds the
//! slots of that range only, scans it, and pushes its own decided positions. A push that
//! reaches a parent in another process's share is posted to that process ([`Outbox`]),
//! and at the end of the step the processes exchange what they posted and set what they
//! received: the same sets a single process would make, in another order within the
//! step, which the engines' fixpoints do not depend on. Whether there is a next step is
//! an all-reduce of what each process has left. Once the tier is solved, the first
//! process gathers the codes of every share and writes the table; the others wait, then
//! read it, as every process reads the tiers below (the table directory is shared).
//!
//! One process (no `mpirun`, or the build of a library user) is [`Processes::default`]:
//! it owns every rank and its collective steps return at once, so that the engines' code
//! is the same either way. The processes `mpirun` starts talk through MPI
//! (the module `mpi`, behind the cargo feature `mpi`). A process that dies or fails is
//! not waited for: MPI ends the whole job and `mpirun` names the process; a finished
//! tier is on disk, so running the command again resumes from the finished tiers.

#[cfg(feature = "mpi")]
pub mod mpi;
mod solo;

use std::ops::Range;
use std::sync::{Arc, Mutex};
use thiserror::Error;

/// Ranks to which every share is aligned: the blocks (and chunks) the engines hand to one
/// task at a time, so that a block is always one process's.
pub const SHARE_ALIGN: u64 = 1 << 14;

/// Whether `mpirun` (Open MPI's, or a launcher speaking PMI) started this process: said
/// by the environment it gives its processes, so that a program compiled without MPI can
/// tell too.
pub fn started_by_mpirun() -> bool {
    ["OMPI_COMM_WORLD_SIZE", "PMIX_RANK", "PMI_SIZE"].iter().any(|name| std::env::var_os(name).is_some())
}

/// What a build shared between processes cannot do.
#[derive(Debug, Error, PartialEq, Eq)]
pub enum DistributedError {
    /// A tier too large for a process's memory would be solved in parts from a scratch
    /// file; shares and parts are not combined.
    #[error(
        "tier {tier}: its share would be solved in parts from a scratch file, which a build shared by {processes} \
         processes does not do: run more processes, or on machines with more memory"
    )]
    InParts {
        /// The tier, by name.
        tier: String,
        /// The processes sharing it.
        processes: usize,
    },
    /// The outcome engine takes the parents of a game without un-moves from its scan, in
    /// one process's memory.
    #[error("tier {tier}: a build shared by several processes needs a game that lists un-moves for this engine")]
    NeedsUnmoves {
        /// The tier, by name.
        tier: String,
    },
}

/// The collective steps of the processes that build one set of tables together. Every
/// process calls each of them, in the same order; only the thread that started the
/// build calls them.
pub trait Communicator: Send + Sync {
    /// This process's number, from 0.
    fn rank(&self) -> usize;
    /// How many processes build together.
    fn size(&self) -> usize;
    /// Returns once every process has called it.
    fn barrier(&self);
    /// The largest of the values every process gives.
    fn max(&self, value: u64) -> u64;
    /// The sum of the values every process gives.
    fn sum(&self, value: u64) -> u64;
    /// Sends `outgoing[p]` to process `p` (this one's own list included) and returns
    /// what every process sent to this one, in process order.
    fn exchange(&self, outgoing: Vec<Vec<u64>>) -> Vec<u64>;
    /// Process 0 receives into `values` the ranges of `shares` the other processes own;
    /// the others send theirs.
    fn gather_u16(&self, values: &mut [u16], shares: &Shares);
    /// [`Communicator::gather_u16`] for codes of one byte.
    fn gather_u8(&self, values: &mut [u8], shares: &Shares);
    /// Bytes this process has sent to the others so far.
    fn bytes_sent(&self) -> u64;
    /// Ends every process of the build at once, with `code`: a process that failed,
    /// so that the others do not wait for it. One process does nothing.
    fn abort(&self, code: i32);
}

/// The processes building one set of tables: the one process itself by default.
#[derive(Clone)]
pub struct Processes(Arc<dyn Communicator>);

impl Default for Processes {
    fn default() -> Processes {
        Processes(Arc::new(solo::Solo))
    }
}

impl std::fmt::Debug for Processes {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "process {} of {}", self.0.rank(), self.0.size())
    }
}

impl std::ops::Deref for Processes {
    type Target = dyn Communicator;
    fn deref(&self) -> &(dyn Communicator + 'static) {
        &*self.0
    }
}

impl Processes {
    /// The processes `communicator` reaches.
    pub fn new(communicator: impl Communicator + 'static) -> Processes {
        Processes(Arc::new(communicator))
    }

    /// Whether more than one process builds.
    pub fn shared(&self) -> bool {
        self.size() > 1
    }

    /// Whether this process writes the tables (and takes the directory's lock): the first.
    pub fn writes(&self) -> bool {
        self.rank() == 0
    }

    /// The shares of a tier of `len` positions.
    pub fn shares(&self, len: u64) -> Shares {
        Shares::of(len, self.size(), self.rank())
    }

    /// Sends what `outbox` holds and returns what the other processes posted to this one.
    pub fn exchange_outbox(&self, outbox: &Outbox) -> Vec<u64> {
        self.exchange(outbox.take())
    }
}

/// How a tier's ranks are split between processes: contiguous ranges of a whole number of
/// [`SHARE_ALIGN`] ranks, the last one shorter, in process order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Shares {
    len: u64,
    each: u64,
    count: usize,
    mine: usize,
}

impl Shares {
    /// Every rank of a tier of `len` positions, in one share.
    pub fn whole(len: u64) -> Shares {
        Shares::of(len, 1, 0)
    }

    /// A tier of `len` positions split between `count` processes, seen from process
    /// `mine`.
    pub fn of(len: u64, count: usize, mine: usize) -> Shares {
        let count = count.max(1);
        let blocks = len.div_ceil(SHARE_ALIGN).max(1);
        let each = blocks.div_ceil(count as u64) * SHARE_ALIGN;
        Shares { len, each, count, mine }
    }

    /// The processes.
    pub fn count(&self) -> usize {
        self.count
    }

    /// Ranks a share holds (the last one may hold fewer).
    pub fn each(&self) -> u64 {
        self.each
    }

    /// The ranks process `process` owns (empty for a process past the tier's end).
    pub fn range(&self, process: usize) -> Range<u64> {
        let start = (process as u64 * self.each).min(self.len);
        start..(start + self.each).min(self.len)
    }

    /// The ranks this process owns.
    pub fn mine(&self) -> Range<u64> {
        self.range(self.mine)
    }

    /// The blocks of `block` ranks (a divisor of [`SHARE_ALIGN`]) this process owns:
    /// none for a process past the tier's end.
    pub fn my_blocks(&self, block: u64) -> Range<u64> {
        let mine = self.mine();
        mine.start.div_ceil(block)..mine.end.div_ceil(block)
    }

    /// The process that owns `rank`.
    pub fn owner(&self, rank: u64) -> usize {
        (rank / self.each) as usize
    }
}

/// What one step's threads post to other processes, one list a process, sent all at once
/// by [`Processes::exchange_outbox`].
pub struct Outbox {
    lists: Vec<Mutex<Vec<u64>>>,
}

impl Outbox {
    /// An empty outbox for `processes` processes.
    pub fn new(processes: usize) -> Outbox {
        Outbox { lists: (0..processes).map(|_| Mutex::new(Vec::new())).collect() }
    }

    /// Moves `items` (left empty) to the list for process `process`.
    pub fn post(&self, process: usize, items: &mut Vec<u64>) {
        let mut list = self.lists[process].lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        list.append(items);
    }

    /// The lists posted so far, the outbox left empty.
    pub fn take(&self) -> Vec<Vec<u64>> {
        self.lists
            .iter()
            .map(|list| std::mem::take(&mut *list.lock().unwrap_or_else(|poisoned| poisoned.into_inner())))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shares_cover_the_tier_once_in_aligned_ranges() {
        for len in [0, 1, SHARE_ALIGN - 1, SHARE_ALIGN, 5 * SHARE_ALIGN + 3, 1 << 30] {
            for count in 1..=5 {
                let shares = Shares::of(len, count, 0);
                let mut next = 0;
                for process in 0..count {
                    let range = shares.range(process);
                    assert_eq!(range.start, next, "len {len}, {count} processes");
                    assert!(range.start.is_multiple_of(SHARE_ALIGN) || range.is_empty());
                    for rank in [range.start, range.end.saturating_sub(1)].into_iter().filter(|r| range.contains(r)) {
                        assert_eq!(shares.owner(rank), process);
                    }
                    next = range.end;
                }
                assert_eq!(next, len);
                let blocks: u64 =
                    (0..count).map(|p| Shares::of(len, count, p).my_blocks(SHARE_ALIGN).count() as u64).sum();
                assert_eq!(blocks, len.div_ceil(SHARE_ALIGN), "len {len}, {count} processes");
            }
        }
    }

    #[test]
    fn one_process_owns_every_rank_and_gets_back_what_it_posts() {
        let processes = Processes::default();
        assert!(!processes.shared() && processes.writes());
        assert_eq!(processes.shares(100).mine(), 0..100);
        let outbox = Outbox::new(1);
        outbox.post(0, &mut vec![3, 1]);
        outbox.post(0, &mut vec![2]);
        assert_eq!(processes.exchange_outbox(&outbox), vec![3, 1, 2]);
        assert!(outbox.take()[0].is_empty());
    }
}
