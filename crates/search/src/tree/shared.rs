//! What the threads of one search share: the transposition table, the counts and the
//! node budget, the bounds proven on the root's moves and which moves are being
//! searched, and whether one thread has finished the search.
//!
//! Everything shared is a proof or a count: a thread takes the bounds another proved
//! as its own (their intersection holds), so no thread waits for another, and none
//! needs to know what another is doing beyond which root moves it is searching.

use super::table::Table;
use super::MoveBounds;
use std::hash::Hash;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Mutex, MutexGuard, PoisonError};
use std::time::Instant;

/// Nodes a thread takes from a node budget at once: a thread counts its own nodes and
/// takes more only when it has counted these, so threads seldom touch the shared count.
const NODES_TAKEN: u64 = 1 << 10;

/// The bounds on the root's moves and how many threads search each.
struct RootMoves<V> {
    bounds: Vec<(V, V)>,
    searching: Vec<u32>,
}

/// What the threads of a search share.
pub(super) struct Shared<P, V> {
    pub table: Table<P, V>,
    pub started: Instant,
    /// Nodes and probes the threads have told (each tells its own now and then).
    nodes: AtomicU64,
    probes: AtomicU64,
    /// Nodes of the budget the threads have taken.
    taken: AtomicU64,
    /// Set when a thread has finished the search (or failed): the others stop.
    finished: AtomicBool,
    root: Mutex<RootMoves<V>>,
}

impl<P: Hash + Eq + Clone, V: Copy + Ord> Shared<P, V> {
    pub fn new(table_entries: usize) -> Shared<P, V> {
        Shared {
            table: Table::new(table_entries),
            started: Instant::now(),
            nodes: AtomicU64::new(0),
            probes: AtomicU64::new(0),
            taken: AtomicU64::new(0),
            finished: AtomicBool::new(false),
            root: Mutex::new(RootMoves { bounds: Vec::new(), searching: Vec::new() }),
        }
    }
}

impl<P, V: Copy + Ord> Shared<P, V> {
    /// Nodes counted by all threads, as far as told.
    pub fn nodes(&self) -> u64 {
        self.nodes.load(Ordering::Relaxed)
    }

    /// Positions probed by all threads, as far as told.
    pub fn probes(&self) -> u64 {
        self.probes.load(Ordering::Relaxed)
    }

    /// Adds a thread's nodes and probes counted since it last told.
    pub fn tell(&self, nodes: u64, probes: u64) {
        self.nodes.fetch_add(nodes, Ordering::Relaxed);
        self.probes.fetch_add(probes, Ordering::Relaxed);
    }

    /// Takes nodes of a budget of `most` for one thread to count: how many (0 when the
    /// budget is spent).
    pub fn take_nodes(&self, most: u64) -> u64 {
        let taken = self
            .taken
            .fetch_update(Ordering::Relaxed, Ordering::Relaxed, |t| (t < most).then(|| (t + NODES_TAKEN).min(most)));
        taken.map_or(0, |t| (t + NODES_TAKEN).min(most) - t)
    }

    /// Tells the other threads to stop: the search is finished.
    pub fn finish(&self) {
        self.finished.store(true, Ordering::Relaxed);
    }

    pub fn is_finished(&self) -> bool {
        self.finished.load(Ordering::Relaxed)
    }

    fn root(&self) -> MutexGuard<'_, RootMoves<V>> {
        // Bounds are written whole, one intersection at a time: a panic elsewhere left
        // them proven.
        self.root.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Starts the root's shared bounds from `moves`.
    pub fn set_root<Q>(&self, moves: &[MoveBounds<Q, V>]) {
        let mut root = self.root();
        root.bounds = moves.iter().map(|m| (m.lower, m.upper)).collect();
        root.searching = vec![0; moves.len()];
    }

    /// Intersects a thread's bounds on the root's moves with the shared ones, both ways.
    pub fn merge<Q>(&self, moves: &mut [MoveBounds<Q, V>]) {
        let mut root = self.root();
        for (mine, shared) in moves.iter_mut().zip(root.bounds.iter_mut()) {
            *shared = (mine.lower.max(shared.0), mine.upper.min(shared.1));
            (mine.lower, mine.upper) = *shared;
        }
    }

    /// The first of `candidates` (root moves, in the order to search them) that no
    /// thread is searching, else the first; counted as searched by one thread more.
    pub fn claim(&self, candidates: &[usize]) -> Option<usize> {
        let mut root = self.root();
        let i = candidates.iter().copied().find(|&i| root.searching[i] == 0).or(candidates.first().copied())?;
        root.searching[i] += 1;
        Some(i)
    }

    /// A thread has stopped searching root move `i`.
    pub fn release(&self, i: usize) {
        self.root().searching[i] -= 1;
    }

    /// Whether the shared bounds decide the window (α, β) on root move `i`'s worth on
    /// `scale`: the move's own bounds, or another move's lower bound reaching β (the
    /// root's value then reaches it whatever this move is worth).
    pub fn decided(&self, i: usize, (alpha, beta): (i32, i32), scale: impl Fn(V) -> i32) -> bool {
        let root = self.root();
        let (lower, upper) = root.bounds[i];
        lower == upper
            || scale(lower) >= beta
            || scale(upper) <= alpha
            || root.bounds.iter().any(|&(lower, _)| scale(lower) >= beta)
    }
}
