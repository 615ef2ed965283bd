//! Solving one tier whose in-tier moves form a DAG: a memoised depth-first evaluation.
//!
//! Every rank is evaluated from its moves: a move into a lower tier is one probe of that
//! tier's finished table; a move inside the tier needs the child's value first, so the
//! child is evaluated before its parent (an explicit stack, not recursion, so long chains
//! cannot overflow a thread's stack). Because the moves inside a tier form a DAG, every
//! chain ends, and each value is final the moment it is written.
//!
//! Positions are taken in rank order, and each one's moves are found, and their
//! children's values asked for, before the position found before it is evaluated: its
//! loads, most of them cache misses into the tier's values and the lower tables, then
//! find those values fetched while the next position was sown and ranked.
//!
//! Threads take chunks of ranks (rayon). Two threads may meet on the same child and
//! both evaluate it; they compute the same number, so the duplicate store is harmless
//! and no locking is needed: a value slot is an atomic integer holding the value's table
//! code, or a code meaning unknown until written. It is one byte where the game bounds
//! the tier's codes below 255 ([`Game::largest_code`]), else two: a Kalah build is bound
//! by its loads, and the tier's slots in bytes leave room in the cache for the lower
//! tables it probes (the 5-pit tables to 20 seeds, 10 million positions in the top tier:
//! up to a tenth faster on one thread, and a quarter less memory).
//!
//! A chain inside the tier longer than the tier has positions must revisit one: the
//! moves are not a DAG, and the tier is refused with [`SolveError::Cycle`].

use crate::checkpoint::{Checkpoints, Progress, SlotWord, Stage};
use crate::children::{ChildError, ChildTables};
use crate::distributed::Processes;
use crate::error::SolveError;
use crate::game::{Game, Location, Move};
use crate::prefetch::prefetch;
use crate::solve::{Codes, Observer};
use crate::table::Table;
use crate::value::TableValue;
use rayon::prelude::*;
use std::sync::atomic::{AtomicU16, AtomicU8, Ordering::Relaxed};

/// A position's value code while its tier is solved, or [`ValueSlot::UNKNOWN`].
trait ValueSlot: SlotWord + Send + Sync + Sized {
    /// A slot not yet written: one past the largest code the slot holds, a code the
    /// engine refuses to store.
    const UNKNOWN: u16;
    /// A slot not yet written.
    fn unknown() -> Self;
    /// The code, or `UNKNOWN`.
    fn code(&self) -> u16;
    /// Writes `code`, which is below `UNKNOWN`.
    fn write(&self, code: u16);
    /// The finished tier's codes, in rank order.
    fn into_codes(slots: Vec<Self>) -> Codes;
}

/// Two bytes: every code but `u16::MAX` (the zigzag code of `i16::MIN`, the outcome
/// code of a distance beyond [`crate::value::MAX_DISTANCE`]).
impl ValueSlot for AtomicU16 {
    const UNKNOWN: u16 = u16::MAX;
    fn unknown() -> Self {
        AtomicU16::new(Self::UNKNOWN)
    }
    #[inline]
    fn code(&self) -> u16 {
        self.load(Relaxed)
    }
    #[inline]
    fn write(&self, code: u16) {
        self.store(code, Relaxed);
    }
    fn into_codes(slots: Vec<Self>) -> Codes {
        // Same size and alignment: the conversion reuses the allocation.
        Codes::Memory(slots.into_iter().map(AtomicU16::into_inner).collect())
    }
}

/// One byte: the codes below 255.
impl ValueSlot for AtomicU8 {
    const UNKNOWN: u16 = u8::MAX as u16;
    fn unknown() -> Self {
        AtomicU8::new(u8::MAX)
    }
    #[inline]
    fn code(&self) -> u16 {
        self.load(Relaxed) as u16
    }
    #[inline]
    fn write(&self, code: u16) {
        debug_assert!(code < Self::UNKNOWN);
        self.store(code as u8, Relaxed);
    }
    fn into_codes(slots: Vec<Self>) -> Codes {
        Codes::Bytes(slots.into_iter().map(AtomicU8::into_inner).collect())
    }
}

/// Ranks handed to one rayon task at a time.
const CHUNK: u64 = 1 << 14;
// A tier shared between processes is split into whole ones.
const _: () = assert!(CHUNK == crate::distributed::SHARE_ALIGN);

/// One position being evaluated: its rank, the moves whose same-tier child was not yet
/// known when it was opened (with the children's ranks), the next of them to look at,
/// and the best worth so far (over every move already resolved).
struct Frame<P, V> {
    rank: u64,
    moves: Vec<Move<P>>,
    ranks: Vec<u64>,
    next: usize,
    best: Option<V>,
}

/// A position's moves with their children's places: the moves, the children's ranks and
/// the lower tables they lie in (`None`: this tier). Frames take the first two along; the
/// buffers are reused.
struct Located<'a, P> {
    moves: Vec<Move<P>>,
    ranks: Vec<u64>,
    tables: Vec<Option<&'a Table>>,
}

impl<P> Default for Located<'_, P> {
    fn default() -> Self {
        Located { moves: Vec::new(), ranks: Vec::new(), tables: Vec::new() }
    }
}

/// Each worker's buffers: the frames waiting for same-tier children, the moves of the
/// position being opened, of the positions found ahead of their evaluation, and
/// finished frames' buffers for reuse.
struct Work<'a, P, V> {
    stack: Vec<Frame<P, V>>,
    scratch: Located<'a, P>,
    spares: Vec<(Vec<Move<P>>, Vec<u64>)>,
}

impl<P, V> Default for Work<'_, P, V> {
    fn default() -> Self {
        Work { stack: Vec::new(), scratch: Located::default(), spares: Vec::new() }
    }
}

type WorkOf<'a, G> = Work<'a, <G as Game>::Position, <G as Game>::Value>;
type LocatedOf<'a, G> = Located<'a, <G as Game>::Position>;

struct TierSolver<'a, G: Game, S> {
    game: &'a G,
    tier: G::Tier,
    values: Vec<S>,
    /// The finished lower tiers a move can reach.
    children: &'a ChildTables<'a, G::Tier>,
}

impl<'a, G: Game, S: ValueSlot> TierSolver<'a, G, S> {
    fn error_tier(&self) -> String {
        self.tier.to_string()
    }

    // Once a position written; left to itself the compiler called it (2.4 % of a Kalah
    // build's instructions).
    #[inline(always)]
    fn code_of(&self, value: G::Value) -> Result<u16, SolveError> {
        match value.code() {
            code if code >= S::UNKNOWN => Err(SolveError::Range { tier: self.error_tier(), value: value.to_string() }),
            code => Ok(code),
        }
    }

    /// The value of `position` if the game is over there; else `None`, its moves and
    /// their children's places written to `out`, and the children's values asked for
    /// (fetched into the cache without waiting), so that reading them a little later
    /// ([`TierSolver::resolve`]) does not wait either: the build is bound by those loads.
    fn locate_moves(&self, position: &G::Position, out: &mut LocatedOf<'a, G>) -> Result<Option<G::Value>, SolveError> {
        if let Some(v) = self.game.end(position) {
            return Ok(Some(v));
        }
        let Located { moves, ranks, tables } = out;
        moves.clear();
        ranks.clear();
        tables.clear();
        self.game.moves(position, moves);
        if moves.is_empty() {
            return Err(SolveError::NoMove { tier: self.error_tier(), position: format!("{position:?}") });
        }
        for mv in moves.iter() {
            let Location { tier, rank, .. } = self.game.locate(&mv.position);
            let table = if tier == self.tier {
                if let Some(slot) = self.values.get(rank as usize) {
                    prefetch(slot);
                }
                None
            } else {
                let table = self.children.table_of(tier)?;
                table.prefetch(rank);
                Some(table)
            };
            tables.push(table);
            ranks.push(rank);
        }
        Ok(None)
    }

    /// The value of `rank`, whose moves `located` holds, if every child's value is known;
    /// else `None`, with a frame for it pushed on the stack (taking the moves still
    /// unknown along, `located` left with spare buffers).
    ///
    /// Every move is resolved here, before any child is searched: the lower tiers' probes
    /// and the same-tier loads are independent of each other, so the processor overlaps
    /// their cache misses. The result is small: a large one returned through memory
    /// stalled each caller's reads of it.
    fn resolve(
        &self,
        rank: u64,
        located: &mut LocatedOf<'a, G>,
        work: &mut WorkOf<'a, G>,
    ) -> Result<Option<G::Value>, SolveError> {
        let Located { moves, ranks, tables } = located;
        let mut best: Option<G::Value> = None;
        let mut kept = 0;
        for i in 0..moves.len() {
            let child_rank = ranks[i];
            let code = match tables[i] {
                None => self.values.get(child_rank as usize).map(S::code),
                Some(table) => table.code(child_rank).map_err(ChildError::from)?,
            };
            // Only the error names the child's tier, found again for it.
            let Some(code) = code else {
                let child = self.game.locate(&moves[i].position).tier.to_string();
                return Err(ChildError::RankOutOfRange { tier: self.error_tier(), child, rank: child_rank }.into());
            };
            if code == S::UNKNOWN {
                moves.swap(kept, i);
                ranks.swap(kept, i);
                kept += 1;
            } else {
                best = best.max(Some(worth::<G>(&moves[i], code)));
            }
        }
        if kept == 0 {
            return Ok(Some(best.expect("a position with moves has a best one")));
        }
        moves.truncate(kept);
        ranks.truncate(kept);
        let (spare_moves, spare_ranks) = work.spares.pop().unwrap_or_default();
        let moves = std::mem::replace(moves, spare_moves);
        let ranks = std::mem::replace(ranks, spare_ranks);
        work.stack.push(Frame { rank, moves, ranks, next: 0, best });
        Ok(None)
    }

    /// The value of `rank` (whose position is `position`) if it is known at once; else
    /// `None`, with a frame for it pushed on the stack.
    fn open(
        &self,
        rank: u64,
        position: &G::Position,
        work: &mut WorkOf<'a, G>,
    ) -> Result<Option<G::Value>, SolveError> {
        let mut located = std::mem::take(&mut work.scratch);
        let opened = match self.locate_moves(position, &mut located) {
            Ok(Some(v)) => Ok(Some(v)),
            Ok(None) => self.resolve(rank, &mut located, work),
            Err(e) => Err(e),
        };
        work.scratch = located;
        opened
    }

    /// Writes the value of `rank`, whose moves `located` holds, evaluating first every
    /// unevaluated same-tier position it depends on.
    fn finish(&self, rank: u64, located: &mut LocatedOf<'a, G>, work: &mut WorkOf<'a, G>) -> Result<(), SolveError> {
        // A position found ahead may have been evaluated since, as another's child.
        if self.values[rank as usize].code() != S::UNKNOWN {
            return Ok(());
        }
        match self.resolve(rank, located, work)? {
            Some(v) => self.values[rank as usize].write(self.code_of(v)?),
            None => self.descend(work)?,
        }
        Ok(())
    }

    /// Evaluates the frames on the stack and every unevaluated same-tier position they
    /// depend on, depth first.
    fn descend(&self, work: &mut WorkOf<'a, G>) -> Result<(), SolveError> {
        let limit = self.values.len();
        while let Some(frame) = work.stack.last_mut() {
            if let Some(mv) = frame.moves.get(frame.next) {
                let rank = frame.ranks[frame.next];
                let code = self.values[rank as usize].code();
                if code == S::UNKNOWN {
                    let position = mv.position.clone();
                    if work.stack.len() > limit {
                        return Err(SolveError::Cycle { tier: self.error_tier() });
                    }
                    if let Some(v) = self.open(rank, &position, work)? {
                        self.values[rank as usize].write(self.code_of(v)?);
                    }
                    // Either the child's value is written now or it is on the stack;
                    // this move is looked at again when the child is done.
                    continue;
                }
                frame.best = frame.best.max(Some(worth::<G>(mv, code)));
                frame.next += 1;
            } else {
                let done = work.stack.pop().expect("the loop holds a frame");
                let best = done.best.expect("a frame is opened for a position with moves");
                self.values[done.rank as usize].write(self.code_of(best)?);
                work.spares.push((done.moves, done.ranks));
            }
        }
        Ok(())
    }
}

/// A move's worth to its mover, given the value code of the position it leads to.
#[inline]
fn worth<G: Game>(mv: &Move<G::Position>, code: u16) -> G::Value {
    G::Value::worth(G::Value::from_code(code), mv.gain, mv.turn)
}

/// Solves one tier whose lower child tiers' tables are `children`, from its checkpoint
/// if it has one; returns the tier's value codes in rank order, for any kind of value.
pub fn solve_tier<'a, G: Game>(
    game: &'a G,
    tier: G::Tier,
    children: &'a ChildTables<'a, G::Tier>,
    (observer, checkpoints): (&dyn Observer, &Checkpoints<'_>),
    processes: &Processes,
) -> Result<Codes, SolveError> {
    if byte_slots(game, tier) {
        solve_in::<G, AtomicU8>(game, tier, children, (observer, checkpoints), processes)
    } else {
        solve_in::<G, AtomicU16>(game, tier, children, (observer, checkpoints), processes)
    }
}

/// Whether [`solve_tier`] keeps one byte a position of `tier` (else two): where the game
/// bounds the tier's codes below the byte's `UNKNOWN` ([`Game::largest_code`]).
pub(crate) fn byte_slots<G: Game + ?Sized>(game: &G, tier: G::Tier) -> bool {
    game.largest_code(tier).is_some_and(|code| code < AtomicU8::UNKNOWN)
}

/// [`solve_tier`] with slots of type `S`: the chunks of ranks in batches, each batch's
/// end a step of the tier's checkpoints. A value is final once written, so a checkpoint
/// holds every value found so far, the chunks after its step included.
///
/// Shared between processes, each one evaluates the chunks of its share, and evaluates
/// again, in its own slots, the same-tier children its positions reach in other shares:
/// no message is needed, at the price of that work done twice and of slots for the whole
/// tier in every process.
fn solve_in<'a, G: Game, S: ValueSlot>(
    game: &'a G,
    tier: G::Tier,
    children: &'a ChildTables<'a, G::Tier>,
    (observer, checkpoints): (&dyn Observer, &Checkpoints<'_>),
    processes: &Processes,
) -> Result<Codes, SolveError> {
    let size = game.tier_size(tier);
    let len = usize::try_from(size).map_err(|_| SolveError::TooLarge { tier: tier.to_string(), size })?;
    let solver = TierSolver::<G, S> { game, tier, values: (0..len).map(|_| S::unknown()).collect(), children };
    // Shares are whole chunks.
    let mine = processes.shares(size).my_blocks(CHUNK);
    let (first, chunks) = (mine.start, mine.end);
    let mut from = first;
    if let Some(saved) = checkpoints.resume::<S>(|stage| stage == Stage::Acyclic) {
        saved.restore(&solver.values);
        from = saved.progress().step.min(chunks);
    }
    let batch = crate::solve::checkpoint_batch((chunks - first) as usize) as u64;
    while from < chunks {
        let to = (from + batch).min(chunks);
        solve_chunks(&solver, from..to, observer)?;
        // After the last batch the table is written at once: no checkpoint is worth it.
        if to < chunks {
            let at = Progress { stage: Stage::Acyclic, step: to, of: chunks, done: to * CHUNK };
            checkpoints.reached(at, &solver.values)?;
        }
        from = to;
    }
    Ok(S::into_codes(solver.values))
}

/// Evaluates every position of the chunks `chunks`, in parallel.
fn solve_chunks<G: Game, S: ValueSlot>(
    solver: &TierSolver<'_, G, S>,
    chunks: std::ops::Range<u64>,
    observer: &dyn Observer,
) -> Result<(), SolveError> {
    let (game, tier, size) = (solver.game, solver.tier, solver.values.len() as u64);
    chunks.into_par_iter().try_for_each_init(
        || (WorkOf::<G>::default(), LocatedOf::<G>::default(), LocatedOf::<G>::default()),
        |(work, ahead, waiting), chunk| {
            let (from, to) = (chunk * CHUNK, ((chunk + 1) * CHUNK).min(size));
            // Positions in rank order: one unranking per chunk, then steps. Each position's
            // moves are found (and their children's values fetched) before the one found
            // before it is evaluated, so that its loads find those values in the cache.
            let mut waiting_rank = None;
            let mut position = game.position(Location::at(tier, from));
            for rank in from..to {
                if rank > from {
                    position = game.next_position(tier, rank, &position);
                }
                if solver.values[rank as usize].code() != S::UNKNOWN {
                    continue;
                }
                if let Some(v) = solver.locate_moves(&position, ahead)? {
                    solver.values[rank as usize].write(solver.code_of(v)?);
                    continue;
                }
                if let Some(before) = waiting_rank.replace(rank) {
                    solver.finish(before, waiting, work)?;
                }
                std::mem::swap(ahead, waiting);
            }
            if let Some(before) = waiting_rank {
                solver.finish(before, waiting, work)?;
            }
            observer.advanced(to - from);
            Ok::<(), SolveError>(())
        },
    )
}
