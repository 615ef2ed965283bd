//! The window search: MTD(f) over alpha-beta with a shared transposition table, probing
//! the built tables wherever a position's tier is built, for games whose tiers are acyclic
//! and whose values are scores (Kalah's). The search of every game
//! ([`crate::tree`]) hands such games to it.
//!
//! Values are, as in the tables, the score still to be gained by the player to move. A
//! move is worth its gain plus the child's value when the mover keeps the turn, its gain
//! minus the child's value when the turn passes; the alpha-beta window is carried through
//! both cases (shifted by the gain, and negated and swapped when the turn passes). No
//! position comes back on a path (the tiers are acyclic), so a search needs neither a
//! path nor a horizon: every pass searches down to the tables and the ends.
//!
//! At every node, before any child is searched:
//! - every child's place is computed (its table rank, or its key) and its memory asked
//!   for (a prefetch); the task then yields its thread to another task until the loads
//!   have likely arrived (`window/task.rs`), and reads them in one tight loop;
//! - children whose value is known at once (the game is over there, or their tier is
//!   built) are valued first;
//! - the other children's transposition-table bounds are looked at ("enhanced
//!   transposition cutoff"), within the game's bounds on their values
//!   ([`Game::value_bounds`]: in Kalah a mover gains at most every seed left and loses
//!   at most as many): a bound that already proves the cut ends the node;
//! - the rest are searched in order: the stored best move, then moves that keep the turn
//!   (the last in the game's order first: in Kalah the pit nearest the store, and playing
//!   it leaves the others' extra turns in place), then by what they bank at once.
//!   (Ordering by the children's stored bounds as well was measured: the same number of
//!   nodes on Kalah(6,4).)
//!
//! Nothing is allocated per node once a task's frames have grown: they are kept from node
//! to node.
//!
//! Threads and tasks: each thread of the [`Search`] runs [`TASKS_PER_THREAD`] tasks side
//! by side, each searching one position's whole tree. One search (a value, a null-window
//! test) is run by every task, sharing the transposition table and deferring a child
//! another task is searching ("simplified ABDADA"); the first to finish answers and the
//! others stop. Several positions at once (the opening moves) are handed out so that
//! tasks take different positions while there are enough ([`Search::values`]). A split
//! of the tree itself (young brothers wait) was measured twice as slow.
//!
//! A budget ([`Search::with_budget`]: nodes, a deadline, a flag the caller sets) is looked
//! at when a task publishes its count of nodes; once it is spent every task stops, and
//! each position searched answers the bounds its MTD(f) passes proved so far, intersected
//! with its transposition entry ([`Search::bounds`], [`Search::values`]): bounds, never a
//! guess, as every pass and every entry is proven.
//!
//! The transposition table ([`TranspositionTable`]) is shared by all tasks without
//! locks. An entry is found only by its own position, by the number its game packs it
//! into ([`Game::packed`]; a position without one is not kept at all): a 64-bit hash
//! alone was not enough, since the positions of a bucket agree on its index bits, and a
//! search of billions of probes would now and then have read another position's bounds.

mod handout;
mod task;
pub mod transposition;

use crate::tree::{Budget, Stop};
use handout::Handout;
use retro::store::ProbeError;
use retro::table::Table;
use retro::{Game, Move, Tables, Turn};
use std::ops::ControlFlow;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicU8, AtomicUsize, Ordering::Relaxed};
use std::sync::Mutex;
use std::time::Instant;
use task::{Goal, Task};
use transposition::{Entry, Key, TranspositionTable};

/// A game the window search runs on: its values are scores, its positions are copied
/// freely and its tiers are numbered (a tier's number is its index among the tables the
/// search probes). Its tiers must be acyclic, and its scores lie within
/// ±[`SCORE_LIMIT`], the search's arithmetic range (the transposition table keeps only
/// bounds within ±511).
pub trait Windowed: Game<Value = i16, Position: Copy, Tier: Into<usize> + Default> {}

impl<G: Game<Value = i16, Position: Copy, Tier: Into<usize> + Default>> Windowed for G {}

/// The most a score may be worth either way in a window search; a position the game
/// gives no bounds ([`Game::value_bounds`]) is taken as worth within ±this.
pub const SCORE_LIMIT: i16 = 8191;

/// Tasks each thread runs side by side (`window/task.rs`): two let one task's loads arrive
/// while the other computes; more fill the core's outstanding-miss slots and search more
/// positions (docs/performance.md, Kalah search).
pub const TASKS_PER_THREAD: usize = 2;

/// A search that probes `tables` (built for `game`) for positions of tiers numbered up
/// to `probe_up_to` and searches the rest, at positions of at most `N` moves (a node's
/// children are kept in arrays of `N`, as a recursive search keeps them on its stack:
/// vectors cost Kalah's search 7 % of its time); a position of more answers
/// [`SearchError::Wide`].
pub struct Search<'a, G: Windowed, const N: usize> {
    game: &'a G,
    /// The tables by tier number, `None` where missing.
    tables: Vec<Option<&'a Table>>,
    probe_up_to: usize,
    transpositions: TranspositionTable,
    nodes: AtomicU64,
    /// Threads a search runs on.
    threads: usize,
    /// Which children tasks are searching now, by hash ([`Busy`]).
    busy: Busy,
    /// Table probes so far (counted in batches, as the nodes).
    probes: AtomicU64,
    /// What the search may spend.
    spending: Spending<'a>,
}

/// Nodes a task counts before it publishes them and looks at the budget.
const PUBLISH_EVERY: u64 = 1 << 16;

/// What a search may spend ([`Search::with_budget`]), and why it stopped once spent.
#[derive(Default)]
struct Spending<'a> {
    /// Nodes in all, counted from the search's creation.
    nodes: Option<u64>,
    deadline: Option<Instant>,
    stop: Option<&'a AtomicBool>,
    /// 0 while the budget lasts, else the [`Stop`] that ended it ([`stop_code`]).
    spent: AtomicU8,
    /// The end of the one search running now, where it has one of its own
    /// ([`Search::bounds_until`]), and whether that end has come (the budget lasts).
    until: Mutex<Option<Instant>>,
    paused: AtomicBool,
}

/// A [`Stop`] as the byte [`Spending::spent`] holds.
fn stop_code(stop: Stop) -> u8 {
    match stop {
        Stop::Nodes => 1,
        Stop::Time => 2,
        Stop::Asked => 3,
    }
}

/// What a search answered for a position: its value's proven bounds (equal once exact).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Bounds {
    /// The least the value can be.
    pub lower: i16,
    /// The most it can be.
    pub upper: i16,
}

impl From<Bounds> for (i16, i16) {
    fn from(b: Bounds) -> (i16, i16) {
        (b.lower, b.upper)
    }
}

impl Bounds {
    /// The value, where proven.
    pub fn exact(self) -> Option<i16> {
        (self.lower == self.upper).then_some(self.lower)
    }

    /// What these bounds and `other` say together.
    pub fn meet(self, other: impl Into<(i16, i16)>) -> Bounds {
        let other = other.into();
        Bounds { lower: self.lower.max(other.0), upper: self.upper.min(other.1) }
    }
}

/// Why a search gave no exact answer.
#[derive(Debug, thiserror::Error)]
pub enum SearchError {
    /// A table could not be read.
    #[error(transparent)]
    Probe(#[from] ProbeError),
    /// The budget ran out before the answer was proven.
    #[error("the search's budget ran out ({}) before the answer was proven", stop_words(*.0))]
    Spent(Stop),
    /// A position has more moves than the search was made for.
    #[error("a position has {moves} moves, more than the {most} this search keeps at a node")]
    Wide {
        /// The position's moves.
        moves: usize,
        /// The most the search keeps.
        most: usize,
    },
}

/// What ended a budget, in words.
fn stop_words(stop: Stop) -> &'static str {
    match stop {
        Stop::Nodes => "its nodes",
        Stop::Time => "its time",
        Stop::Asked => "asked to stop",
    }
}

/// The children being searched right now, one hash per slot (a slot's later owner simply
/// overwrites it): with several tasks on one search, a task that finds a sibling busy
/// searches the others first and comes back to it, when its value is most likely in the
/// transposition table ("simplified ABDADA"). The tasks thus split the moves of the
/// nodes where every move must be searched, and share the rest.
struct Busy(Box<[AtomicU64]>);

impl Busy {
    const SLOTS: usize = 1 << 15;

    fn new() -> Busy {
        Busy((0..Busy::SLOTS).map(|_| AtomicU64::new(0)).collect())
    }

    #[inline]
    fn slot(&self, key: u64) -> &AtomicU64 {
        // The low bits index the transposition table; the high ones spread these slots.
        &self.0[(key >> 48) as usize & (Busy::SLOTS - 1)]
    }

    #[inline]
    fn holds(&self, key: u64) -> bool {
        self.slot(key).load(Relaxed) == key
    }

    #[inline]
    fn enter(&self, key: u64) {
        self.slot(key).store(key, Relaxed);
    }

    #[inline]
    fn leave(&self, key: u64) {
        let _ = self.slot(key).compare_exchange(key, 0, Relaxed, Relaxed);
    }
}

/// Why a task's search ended without its answer.
enum Halt {
    Probe(ProbeError),
    /// A position has more moves than the search keeps.
    Wide(usize),
    /// Another task of the same search found the answer first, or the budget ended it.
    Stopped,
    /// The budget is spent.
    Spent,
}

impl Halt {
    /// What the halt means for the search: `Ok` where a task merely stopped (the budget,
    /// or another task's answer: [`Handout::finish`] tells which), the error otherwise;
    /// `most`: the moves the search keeps at a node.
    fn failure(self, most: usize) -> Result<Halt, SearchError> {
        match self {
            Halt::Probe(e) => Err(SearchError::Probe(e)),
            Halt::Wide(moves) => Err(SearchError::Wide { moves, most }),
            stopped => Ok(stopped),
        }
    }
}

impl From<ProbeError> for Halt {
    fn from(e: ProbeError) -> Halt {
        Halt::Probe(e)
    }
}

/// One task's part in a search: the positions it searched (published in batches), the
/// flag it stops at (another task found the answer), and how many tasks are on its
/// search now: while it is alone, it neither marks nor defers busy children, whose shared
/// slots the other tasks would otherwise keep taking from its cache.
struct Worker<'s> {
    nodes: u64,
    probes: u64,
    /// The count of `nodes` at which the task publishes them and looks at the budget.
    quota: u64,
    stop: &'s AtomicBool,
    company: &'s AtomicUsize,
}

impl Worker<'_> {
    /// Whether other tasks are on this search now.
    #[inline(always)]
    fn in_company(&self) -> bool {
        self.company.load(Relaxed) > 1
    }
}

/// What the search keeps of a position it may search: its key, its tier and the game's
/// bounds on its value.
#[derive(Clone, Copy, Default)]
struct Place<T> {
    key: Key,
    tier: T,
    least: i16,
    most: i16,
}

/// Where a child's value comes from.
#[derive(Clone, Copy)]
enum Source<'t, T> {
    /// The game is over there.
    Known(i16),
    /// A table, the child's rank in it and its tier's number.
    Table(&'t Table, u64, usize),
    /// The search.
    Search(Place<T>),
}

/// What a node's children, read, tell it.
enum Opened {
    /// The node is cut: a child's value, or a child's stored bound alone, reaches beta
    /// (the value and the move, its index + 1).
    Cut(i16, u16),
    /// The best of the children whose values are known (`i16::MIN` if none) and its move
    /// (index + 1; 0 if none), and how many moves are left to search.
    Search(i16, u16, usize),
}

/// A move still to be searched at a node: its index in the node's move list, its child's
/// place, and its place in the order (higher first; [`TAKEN`] once taken).
#[derive(Clone, Copy, Default)]
struct Pending<T> {
    order: i32,
    index: u8,
    place: Place<T>,
}

/// The order of a pending move already taken.
const TAKEN: i32 = i32::MIN;

impl<'a, G: Windowed, const N: usize> Search<'a, G, N> {
    /// A search with a transposition table of at most `2^table_bits` entries (16 bytes
    /// each; reserved now, used as the search grows); fails only if the system refuses that
    /// memory.
    pub fn new(
        game: &'a G,
        tables: &'a Tables<G>,
        probe_up_to: u32,
        table_bits: u32,
    ) -> std::io::Result<Search<'a, G, N>> {
        let transpositions = TranspositionTable::new(table_bits)?;
        let probe_up_to = probe_up_to as usize;
        let mut by_number = vec![None; probe_up_to + 1];
        for (&tier, table) in tables.tables() {
            if let Some(slot) = by_number.get_mut(tier.into()) {
                *slot = Some(table);
            }
        }
        Ok(Search {
            game,
            tables: by_number,
            probe_up_to,
            transpositions,
            nodes: AtomicU64::new(0),
            threads: 1,
            busy: Busy::new(),
            probes: AtomicU64::new(0),
            spending: Spending::default(),
        })
    }

    /// The same search within `budget`: its nodes (counted from the search's creation),
    /// its time (from now: a deadline for every search this one runs), and its flag.
    /// Once spent, every search answers the bounds proven so far ([`Search::bounds`],
    /// [`Search::values`]), or [`SearchError::Spent`] where only an exact answer will do.
    /// (Its table's size is the search's own, not `budget.table_entries`.)
    pub fn with_budget(mut self, budget: Budget<'a>) -> Search<'a, G, N> {
        self.spending = Spending {
            nodes: budget.nodes,
            deadline: budget.time.map(|t| Instant::now() + t),
            stop: budget.stop,
            ..Spending::default()
        };
        self
    }

    /// The end of the budget's time, if it has one.
    pub fn deadline(&self) -> Option<Instant> {
        self.spending.deadline
    }

    /// Why the budget ended, once it has.
    pub fn spent(&self) -> Option<Stop> {
        match self.spending.spent.load(Relaxed) {
            0 => None,
            1 => Some(Stop::Nodes),
            2 => Some(Stop::Time),
            _ => Some(Stop::Asked),
        }
    }

    /// Whether the search running now must stop: the budget is spent, or the search's
    /// own end has come.
    fn halted(&self) -> bool {
        self.spent().is_some() || self.spending.paused.load(Relaxed)
    }

    /// Whether the search running now must stop, looked at now: the budget spent (and
    /// kept so once it is), or the search's own end come.
    fn budget_spent(&self) -> bool {
        if self.halted() {
            return true;
        }
        let spending = &self.spending;
        if locked(&spending.until).is_some_and(|end| Instant::now() >= end) {
            spending.paused.store(true, Relaxed);
            return true;
        }
        let stop = if spending.stop.is_some_and(|flag| flag.load(Relaxed)) {
            Stop::Asked
        } else if spending.nodes.is_some_and(|most| self.nodes() >= most) {
            Stop::Nodes
        } else if spending.deadline.is_some_and(|end| Instant::now() >= end) {
            Stop::Time
        } else {
            return false;
        };
        spending.spent.store(stop_code(stop), Relaxed);
        true
    }

    /// The nodes a task counts before it next publishes them: fewer as a limit on the
    /// nodes nears, so that the search passes it by no more than a node or so a task.
    fn quota(&self) -> u64 {
        let Some(most) = self.spending.nodes else { return PUBLISH_EVERY };
        let tasks = (self.threads * TASKS_PER_THREAD) as u64;
        (most.saturating_sub(self.nodes()) / tasks).clamp(1, PUBLISH_EVERY)
    }

    /// The same search on `threads` threads (at least one): every search ([`Search::value`],
    /// [`Search::at_least`], [`Search::values`]) runs on all of them, sharing the
    /// transposition table.
    pub fn with_threads(mut self, threads: usize) -> Search<'a, G, N> {
        self.threads = threads.max(1);
        self
    }

    /// The game's bounds on the value of a position of `tier` where the game goes on
    /// (the tier's, else the position's), within the search's range.
    #[inline(always)]
    fn widest(&self, position: &G::Position, tier: G::Tier) -> (i16, i16) {
        // A game's scores lie within the search's range (the contract of `Windowed`).
        if let Some(bounds) = self.game.tier_value_bounds(tier) {
            return bounds;
        }
        let (least, most) = self.game.value_bounds(position).unwrap_or((-SCORE_LIMIT, SCORE_LIMIT));
        (least.max(-SCORE_LIMIT), most.min(SCORE_LIMIT))
    }

    /// What the search keeps of a position of `tier`.
    #[inline(always)]
    fn place(&self, position: &G::Position, tier: G::Tier) -> Place<G::Tier> {
        let (least, most) = self.widest(position, tier);
        Place { key: Key::of(self.game.packed(position)), tier, least, most }
    }

    /// Positions searched (not probed) so far (counted in batches while a search runs).
    pub fn nodes(&self) -> u64 {
        self.nodes.load(Relaxed)
    }

    /// Entries of the transposition table in use now (it grows with the search).
    pub fn table_entries(&self) -> usize {
        self.transpositions.entries()
    }

    /// Table probes so far (counted in batches while a search runs).
    pub fn probes(&self) -> u64 {
        self.probes.load(Relaxed)
    }

    /// Adds a task's count of positions searched and tables probed, and grows the
    /// transposition table to fit.
    fn publish(&self, worker: &mut Worker) {
        let searched = self.nodes.fetch_add(worker.nodes, Relaxed) + worker.nodes;
        self.probes.fetch_add(worker.probes, Relaxed);
        (worker.nodes, worker.probes) = (0, 0);
        self.transpositions.fit(searched);
    }

    /// The exact value of a position: the score still to be gained by the mover;
    /// [`SearchError::Spent`] where the budget ends first.
    pub fn value(&self, position: &G::Position) -> Result<i16, SearchError> {
        self.value_from(position, 0)
    }

    /// [`Search::value`], starting MTD(f) from `guess`.
    pub fn value_from(&self, position: &G::Position, guess: i16) -> Result<i16, SearchError> {
        let bounds = self.bounds(position, guess)?;
        bounds.exact().ok_or_else(|| SearchError::Spent(self.spent().unwrap_or(Stop::Asked)))
    }

    /// The value of a position, by MTD(f) from `guess`: exact, or the bounds proven when
    /// the budget ends.
    pub fn bounds(&self, position: &G::Position, guess: i16) -> Result<Bounds, SearchError> {
        Ok(self.run(&[*position], Goal::Value { guess }, &|_, _| {})?[0])
    }

    /// [`Search::bounds`], stopped at `end` too (the budget left as it is for what
    /// follows).
    pub fn bounds_until(&self, position: &G::Position, guess: i16, end: Instant) -> Result<Bounds, SearchError> {
        *locked(&self.spending.until) = Some(end);
        let found = self.bounds(position, guess);
        *locked(&self.spending.until) = None;
        self.spending.paused.store(false, Relaxed);
        found
    }

    /// The value of a position by MTD(f) until `mtdf_end`, then, where that leaves it
    /// open, its bounds narrowed from both ends by null-window tests a quarter of the way
    /// in from each, until the value is exact or the budget is spent. MTD(f) tests next to
    /// the value, where a test costs the most: on a board far above its tables
    /// (Kalah(6,6) above 24-seed tables) its first test did not end in ten minutes,
    /// leaving the widest bounds, while tests far from the value end soon and each
    /// proves a bound.
    pub fn narrowed(&self, position: &G::Position, mtdf_end: Instant) -> Result<Bounds, SearchError> {
        let mut found = self.bounds_until(position, 0, mtdf_end)?;
        let open = |found: &Bounds| found.exact().is_none() && self.spent().is_none();
        while open(&found) {
            let step = ((found.upper - found.lower) / 4).max(1);
            found = found.meet(self.test(position, found.lower + step)?);
            if open(&found) {
                found = found.meet(self.test(position, found.upper - step + 1)?);
            }
        }
        Ok(found)
    }

    /// What one null-window test proves of a position's value: whether it reaches
    /// `target`, by how much the fail-soft bound says, within the game's bounds and the
    /// stored ones; the bounds stored so far where the budget ends the test first.
    pub fn test(&self, position: &G::Position, target: i16) -> Result<Bounds, SearchError> {
        let found = self.run(&[*position], Goal::AtLeast(target), &|_, _| {})?[0];
        let (least, most) = self.widest(position, self.game.material_tier(position));
        let widest = Bounds { lower: least, upper: most };
        Ok(match found.exact() {
            Some(v) if v >= target => widest.meet((v, most)),
            Some(v) => widest.meet((least, v)),
            None => widest.meet((found.lower, found.upper)),
        })
    }

    /// The values of several positions (say, those after each opening move), in order:
    /// exact, or, where the budget ends first, the bounds proven; `solved` hears of each
    /// exact value, with its position's index, as soon as it is found. The positions are
    /// solved side by side and the last ones by all tasks together (solving them one after
    /// the other, each by every thread, was measured slower: docs/performance.md, Kalah
    /// search).
    pub fn values(
        &self,
        positions: &[G::Position],
        solved: &(dyn Fn(usize, i16) + Sync),
    ) -> Result<Vec<Bounds>, SearchError> {
        self.run(positions, Goal::Value { guess: 0 }, solved)
    }

    /// Runs [`TASKS_PER_THREAD`] tasks on each thread until every position has its answer
    /// for `goal` or the budget is spent ([`Handout`]: which task takes which position).
    /// A position left unsolved answers the bounds its tasks' passes proved
    /// ([`Task::proven`]) and its transposition entry holds.
    fn run(
        &self,
        positions: &[G::Position],
        goal: Goal,
        solved: &(dyn Fn(usize, i16) + Sync),
    ) -> Result<Vec<Bounds>, SearchError> {
        // A budget spent before (by an earlier search, or a flag set meanwhile) starts
        // no pass: its tasks answer what is known at once.
        self.budget_spent();
        let handout = Handout::new(positions, |p| {
            let (lower, upper) = self.widest(p, self.game.material_tier(p));
            Bounds { lower, upper }
        });
        let run = || self.run_tasks(&handout, goal, solved);
        std::thread::scope(|scope| {
            let helpers: Vec<_> = (1..self.threads).map(|_| scope.spawn(run)).collect();
            run();
            helpers.into_iter().for_each(|h| h.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic)));
        });
        handout.answers(|p| self.stored_bounds(p))
    }

    /// One thread's part of [`Search::run`]: its tasks side by side, each taking a
    /// position from `handout` when it has none, until no position is left or everything
    /// stops.
    fn run_tasks(&self, handout: &Handout<'_, G::Position>, goal: Goal, solved: &(dyn Fn(usize, i16) + Sync)) {
        let mut tasks: Vec<Option<Task<G, N>>> = (0..TASKS_PER_THREAD).map(|_| None).collect();
        let mut exhausted = false;
        loop {
            let mut any = false;
            for slot in tasks.iter_mut() {
                if slot.is_none() && !exhausted {
                    match handout.take() {
                        Some(i) => {
                            let worker = handout.worker(i, self.quota());
                            *slot = Some(Task::new(self, i, handout.positions[i], goal, worker));
                        }
                        None => exhausted = true,
                    }
                }
                let Some(task) = slot else { continue };
                any = true;
                let result = match task.resume(self) {
                    Ok(None) => continue,
                    Ok(Some(v)) => Ok(v),
                    Err(e) => {
                        task.abandon(self);
                        Err(e)
                    }
                };
                self.publish(&mut task.worker);
                let (index, proven) = (task.index, task.proven());
                *slot = None;
                if handout.finish(index, result.map_err(|halt| halt.failure(N)), proven, solved) {
                    tasks.iter_mut().flatten().for_each(|task| task.abandon(self));
                    return;
                }
            }
            if !any {
                break;
            }
        }
    }

    /// The index in the game's list of moves of the move the transposition table holds as
    /// best at `position`, if it holds one.
    pub fn stored_best(&self, position: &G::Position) -> Option<usize> {
        let entry = self.transpositions.lookup(Key::of(self.game.packed(position)))?;
        entry.best.checked_sub(1).map(usize::from)
    }

    /// The bounds the transposition table holds on `position`'s value, if it holds an
    /// entry for it: what the search has proved of it so far (MTD(f) narrows them test by
    /// test).
    pub fn stored_bounds(&self, position: &G::Position) -> Option<(i16, i16)> {
        let entry = self.transpositions.lookup(Key::of(self.game.packed(position)))?;
        Some((entry.lower, entry.upper))
    }

    /// Whether the position's value is at least `target`: one null-window search;
    /// [`SearchError::Spent`] where the budget ends first.
    pub fn at_least(&self, position: &G::Position, target: i16) -> Result<bool, SearchError> {
        let found = self.test(position, target)?;
        match self.spent() {
            // A pass cut short answers the bounds stored before it, which may decide.
            Some(stop) if found.lower < target && found.upper >= target => Err(SearchError::Spent(stop)),
            _ => Ok(found.lower >= target),
        }
    }

    /// The table of a position of tier number `tier`, if the search probes that tier
    /// (none above `probe_up_to`); [`ProbeError::MissingTier`] for a tier it probes that is
    /// not built.
    #[inline(always)]
    fn table(&self, tier: usize) -> Result<Option<&'a Table>, ProbeError> {
        if tier > self.probe_up_to {
            return Ok(None);
        }
        match self.tables[tier] {
            Some(table) => Ok(Some(table)),
            None => Err(ProbeError::MissingTier(tier.to_string())),
        }
    }

    #[inline]
    fn probe(&self, table: &Table, position: &G::Position, tier: usize) -> Result<i16, ProbeError> {
        let rank = self.game.locate(position).rank;
        self.probe_at(table, rank, tier)
    }

    #[inline]
    fn probe_at(&self, table: &Table, rank: u64, tier: usize) -> Result<i16, ProbeError> {
        let code = table.code(rank)?.ok_or_else(|| ProbeError::BadRank { tier: tier.to_string(), rank })?;
        Ok(retro::value::code_score(code))
    }

    /// Stores what a search of the window (`alpha`, `beta`) proved (`best`, by `best_move`,
    /// its index + 1), intersected with what the table already knew (`known`).
    #[inline(always)]
    fn record(&self, key: Key, mut known: Entry, (alpha, beta): (i16, i16), best: i16, best_move: u16) {
        if best <= alpha {
            known.upper = known.upper.min(best);
        } else if best >= beta {
            known.lower = known.lower.max(best);
        } else {
            (known.lower, known.upper) = (best, best);
        }
        // The entry holds the first fifteen moves' indices.
        known.best = if best_move < 16 { best_move as u8 } else { 0 };
        self.transpositions.store(key, known);
    }

    /// Counts a node, publishing the count now and then (so that a long search can show
    /// its progress and its transposition table grows) and looking at the budget then;
    /// stops if another task of the search has the answer.
    #[inline(always)]
    fn count_node(&self, worker: &mut Worker) -> Result<(), Halt> {
        worker.nodes += 1;
        if worker.nodes >= worker.quota {
            self.publish(worker);
            if self.budget_spent() {
                return Err(Halt::Spent);
            }
            worker.quota = self.quota();
        }
        if worker.stop.load(Relaxed) {
            return Err(Halt::Stopped);
        }
        Ok(())
    }

    /// What the transposition table knows of a node, within the game's bounds on its
    /// value: breaks with a bound that settles the window (alpha, beta) alone, else
    /// continues with the entry and the window narrowed to its bounds. A window past the
    /// game's bounds is settled without a search: in Kalah, on the lines where one side has
    /// already banked what the rest cannot undo.
    #[inline(always)]
    fn stored_window(&self, place: &Place<G::Tier>, alpha: i16, beta: i16) -> ControlFlow<i16, (Entry, i16, i16)> {
        let stored = self.transpositions.lookup(place.key);
        let (lower, upper) = bounds(stored, place);
        let known =
            Entry { lower, upper, best: stored.map_or(0, |e| e.best), material: place.tier.into().min(255) as u8 };
        if known.lower >= beta {
            return ControlFlow::Break(known.lower);
        }
        if known.upper <= alpha {
            return ControlFlow::Break(known.upper);
        }
        ControlFlow::Continue((known, alpha.max(known.lower), beta.min(known.upper)))
    }

    /// Where each child's value is: pure computation (and the probes counted).
    #[inline(always)]
    fn child_sources(
        &self,
        moves: &[Move<G::Position>],
        sources: &mut [Source<'a, G::Tier>; N],
        tier: G::Tier,
        worker: &mut Worker,
    ) -> Result<(), Halt> {
        let sources = &mut sources[..moves.len()];
        for i in 0..moves.len() {
            let child = &moves[i].position;
            sources[i] = match self.game.end(child) {
                Some(v) => Source::Known(v),
                None => {
                    let tier = self.game.material_tier_after(tier, &moves[i]);
                    match self.table(tier.into())? {
                        Some(table) => {
                            worker.probes += 1;
                            Source::Table(table, self.game.locate(child).rank, tier.into())
                        }
                        None => Source::Search(self.place(child, tier)),
                    }
                }
            };
        }
        Ok(())
    }

    /// A node's children read, their memory asked for earlier: loaded in one tight loop
    /// (no branch on a word still being loaded), then taken in one pass: the values known
    /// at once, the enhanced transposition cutoff (a child's stored bound, or the game's
    /// bounds alone, proving the cut), and the moves left to search, written to `pending`
    /// with their places in the order: the stored best move (`stored_best`, index + 1),
    /// then moves that keep the turn (the last in the list first), then by what they bank
    /// at once.
    #[inline(always)]
    fn open_children(
        &self,
        moves: &[Move<G::Position>],
        sources: &[Source<'a, G::Tier>; N],
        (stored_best, beta): (u8, i16),
        pending: &mut [Pending<G::Tier>; N],
    ) -> Result<Opened, Halt> {
        let n = moves.len();
        let sources = &sources[..n];
        let mut found = [0u64; N];
        let mut codes = [None; N];
        for i in 0..n {
            match sources[i] {
                Source::Known(_) => {}
                Source::Table(table, rank, _) => codes[i] = table.code(rank).map_err(ProbeError::from)?,
                Source::Search(place) => found[i] = self.transpositions.find(place.key),
            }
        }
        let (mut best, mut best_move) = (i16::MIN, 0u16);
        let mut stored_cut = None;
        let mut count = 0;
        for i in 0..n {
            let m = &moves[i];
            let child = match sources[i] {
                Source::Known(v) => v,
                Source::Table(_, rank, tier) => retro::value::code_score(
                    codes[i].ok_or_else(|| ProbeError::BadRank { tier: tier.to_string(), rank })?,
                ),
                Source::Search(place) => {
                    let (child_lower, child_upper) = bounds(transposition::entry(found[i]), &place);
                    let lower = match m.turn {
                        Turn::Keeps => m.gain + child_lower,
                        Turn::Passes => m.gain - child_upper,
                    };
                    let number = i as u16 + 1;
                    if lower >= beta && stored_cut.is_none() {
                        stored_cut = Some((lower, number));
                    }
                    let order = if number == u16::from(stored_best) {
                        i32::MAX
                    } else if m.turn == Turn::Keeps {
                        1 << 30 | (i as i32) << 8
                    } else {
                        (m.gain as i32) << 16 | i as i32
                    };
                    pending[count] = Pending { order, index: i as u8, place };
                    count += 1;
                    continue;
                }
            };
            let v = worth(m, child);
            if v > best {
                (best, best_move) = (v, i as u16 + 1);
            }
        }
        // A known value's cut first, then the first stored bound's in the list's order.
        Ok(if best >= beta {
            Opened::Cut(best, best_move)
        } else if let Some((lower, number)) = stored_cut {
            Opened::Cut(lower, number)
        } else {
            Opened::Search(best, best_move, count)
        })
    }
}

/// A mutex's value, even if a thread panicked holding it (the panic is passed on anyway).
fn locked<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// The bounds of a position: what its transposition entry holds, if any, within the
/// game's bounds on its value.
#[inline(always)]
fn bounds<T>(entry: Option<Entry>, place: &Place<T>) -> (i16, i16) {
    match entry {
        Some(e) => (e.lower.max(place.least), e.upper.min(place.most)),
        None => (place.least, place.most),
    }
}

/// A move's worth to its mover, its child's value being `child`.
#[inline]
fn worth<P>(m: &Move<P>, child: i16) -> i16 {
    match m.turn {
        Turn::Keeps => m.gain + child,
        Turn::Passes => m.gain - child,
    }
}

/// The index of the best pending move not yet taken. Picked one at a time: most nodes
/// are cut by their first move, so sorting all of them would be wasted.
#[inline(always)]
fn next_best<T>(moves: &[Pending<T>]) -> usize {
    let mut best = (0, TAKEN);
    for (i, p) in moves.iter().enumerate() {
        if p.order > best.1 {
            best = (i, p.order);
        }
    }
    best.0
}
