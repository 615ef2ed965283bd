//! Solving one tier by retrograde analysis, in five named steps:
//!
//! 1. the finished tables of the tiers a move can reach ([`crate::children`]);
//! 2. [`scan_tier`]: every position's moves: lower-tier ones are probed, same-tier ones
//!    counted; what that decides, or what it leaves open, is written into the
//!    position's two-byte slot (`solve/slot.rs`);
//! 3. [`push_levels`]: level by level in increasing distance, every position decided at
//!    that distance pushes its value to its same-tier parents (from the game's un-moves,
//!    or found from the moves where it lists none, [`crate::parents`]): a win
//!    for a parent is set at the next distance, and a parent all of whose moves are bad
//!    for it becomes a loss once the last of them is known (its distance the longer of
//!    that move's and its longest lower-tier loss, kept in its slot or read from its
//!    moves, all decided by then);
//! 4. [`mark_draws`]: whatever is still undecided can never be forced to an end: a draw;
//! 5. saving the codes (see [`crate::store`]).
//!
//! Why the distances are exact: levels are processed in increasing order, and a position
//! is set once, from undecided. A win is set at `1 + d` when a move is a loss in `d` for
//! the opponent, while level `d` is pushed, so the first is the shortest; a position
//! whose lower-tier move wins in `e` becomes that win at level `e` unless a same-tier
//! move won sooner. A loss is set when its last undecided same-tier move becomes a win
//! for the opponent: every move is then decided, and the loss is the longest of them.
//!
//! Memory: two bytes a position of the tier, its slot, which also counts the same-tier
//! moves still undecided and, where it fits beside the count, the longest lower-tier
//! loss; a position lost without it has its moves read again, one more move generation.
//! Which positions are pushed at a level is read back from the slots, block by block;
//! each block keeps the lowest level still to be pushed in it, so a level reads only the
//! blocks that have work for it.
//!
//! A tier whose slots do not fit in memory is solved from a scratch file (`solve/scratch.rs`)
//! in parts, as Romein and Bal split Awari's tiers over machines: the ranks are cut into
//! `parts` ranges. A level is pushed once, in rank order, setting the parents in the first
//! range and writing every other parent, with its move's turn, its weight and the pushed value, to
//! its range's file (`solve/spill.rs`); then each other range in turn is set from its
//! file, and sooner, between batches of the level's pushes, whenever the files outgrow
//! the scratch file's size ([`spill_budget`]). The pages written at random are then one
//! range's at a time, which fits; the price is the spilled parents written and read back
//! once. A pushed value means the same
//! whenever it reaches its parent within the level: a push decides parents at later
//! levels only, and the order of a level's pushes never mattered.
//!
//! Threads share the slots through atomics: every change is one compare-and-swap from
//! the undecided state read, so of two threads counting down one slot, or deciding it,
//! one retries or gives way, and exactly one sees a count reach zero.

mod mapped_slots;
mod scratch;
mod slot;
mod spill;

use crate::checkpoint::{Checkpoints, Progress, Stage};
use crate::children::ChildTables;
use crate::distributed::{DistributedError, Outbox, Processes, Shares};
pub use crate::error::SolveError;
use crate::game::{Game, Location, Move, Parent};
use crate::parents::{edge, Edge, Parents};
use crate::prefetch::prefetch;
use crate::table::{write_table, Header, Layout, TableError, TableIdentity};
use crate::value::{TableValue, Turn, Value};
pub use mapped_slots::{MappedSlots, MappedValues};
use rayon::prelude::*;
pub use scratch::{ScratchSlots, ScratchValues};
use slot::Slot;
pub use slot::{MAX_SLOT_COUNT, MAX_SLOT_DISTANCE};
pub use spill::Spill;
use std::ops::Range;
use std::path::{Path, PathBuf};
use std::sync::atomic::{
    AtomicU16,
    Ordering::{AcqRel, Acquire, Relaxed, Release},
};

/// Ranks a block: handed to one rayon task at a time, and the unit whose lowest level
/// still to be pushed is kept.
const BLOCK: usize = 1 << 14;
// A tier shared between processes is split into whole ones.
const _: () = assert!(BLOCK as u64 == crate::distributed::SHARE_ALIGN);
/// A block with nothing left to push.
const NOTHING: u16 = u16::MAX;
/// How many spilled parents ahead of the one being set have their slots fetched.
const SPILL_AHEAD: usize = 16;
/// Parents a pushed position has at most on average over a batch of pushes, for the
/// spill's bound: THI` 5×5 `fixed1` pushes to about 14, TRIAS to about 5.
const SPILL_PARENTS: u64 = 32;

/// Progress of a build, reported to whoever shows it.
pub trait Observer: Sync {
    /// A tier is about to be solved; `work` units will be reported for it.
    fn tier_started(&self, _tier: &str, _work: u64) {}
    /// `units` more work units of the current tier are done.
    fn advanced(&self, _units: u64) {}
    /// The tier is solved and saved.
    fn tier_finished(&self, _tier: &str) {}
    /// Every tier is solved; `tables` stored plain are being looked at, and stored compact
    /// where that pays.
    fn compacting(&self, _tables: usize) {}
    /// A table could not be stored compact (`why`: a full disk, say) and stays plain:
    /// whole and correct, only larger.
    fn not_compacted(&self, _why: &str) {}
    /// Something happened to the current tier's checkpoint.
    fn checkpoint(&self, _event: &crate::checkpoint::CheckpointEvent) {}
    /// The processes sharing the build sent each other `bytes` while they solved `tier`.
    fn exchanged(&self, _tier: &str, _bytes: u64) {}
}

/// An observer that shows nothing.
pub struct Silent;
impl Observer for Silent {}

/// Where a tier's slots are kept while it is solved.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub enum SlotPlacement {
    /// In memory, the tier pushed whole.
    #[default]
    Memory,
    /// In the scratch file `file` (created, and removed once the tier is solved), the
    /// ranks cut into `parts` ranges set one after another at each level.
    Scratch {
        /// The file; it must not exist.
        file: PathBuf,
        /// Parts, at least one.
        parts: usize,
    },
}

/// Where a tier's slots live while it is solved: in memory, or in a scratch file. The
/// engine is compiled once for each, so that a slot's look-up does not ask which.
pub trait SlotStorage: std::ops::Deref<Target = [AtomicU16]> + Sync {
    /// The finished codes (the value of every slot of `ranks`, undecided ones drawn), in
    /// rank order; the slots of other processes' shares are left as they are.
    fn into_codes(self, ranks: Range<u64>) -> Codes;
}

/// Turns the slots of `ranks` into their finished codes, in place.
fn finish_slots(slots: &[AtomicU16], ranks: Range<u64>) {
    let ranks = ranks.start as usize..ranks.end as usize;
    slots[ranks].par_iter().for_each(|slot| slot.store(Slot::finished_code(slot.load(Relaxed)), Relaxed));
}

impl SlotStorage for MappedSlots {
    fn into_codes(self, ranks: Range<u64>) -> Codes {
        finish_slots(&self, ranks);
        Codes::Slots(self.into_values())
    }
}

impl SlotStorage for ScratchSlots {
    fn into_codes(self, ranks: Range<u64>) -> Codes {
        finish_slots(&self, ranks);
        Codes::Scratch(self.into_values())
    }
}

/// A solved tier's value codes, in rank order, in memory or in its scratch file.
pub enum Codes {
    /// In memory.
    Memory(Vec<u16>),
    /// In memory, a byte each: a tier whose codes the game bounds below 255
    /// ([`Game::largest_code`]).
    Bytes(Vec<u8>),
    /// In the memory the tier's slots took.
    Slots(MappedValues),
    /// In the scratch file the tier was solved in (removed when this is dropped).
    Scratch(ScratchValues),
}

impl Codes {
    /// Writes the codes as the table file `path` ([`crate::table::write_table`]).
    pub fn write(&self, path: &Path, identity: &TableIdentity, layout: Layout) -> Result<Header, TableError> {
        match self {
            Codes::Memory(codes) => write_table(path, identity, codes, layout),
            Codes::Bytes(codes) => write_table(path, identity, codes, layout),
            Codes::Slots(codes) => write_table(path, identity, codes, layout),
            Codes::Scratch(codes) => write_table(path, identity, codes, layout),
        }
    }
}

impl Codes {
    /// Process 0 receives the codes of every other process's share of `shares`, so
    /// that it holds the whole tier to write; the others send theirs. One process has
    /// them all already.
    pub fn gather(&mut self, processes: &Processes, shares: &Shares) {
        if !processes.shared() {
            return;
        }
        match self {
            Codes::Memory(codes) => processes.gather_u16(codes, shares),
            Codes::Bytes(codes) => processes.gather_u8(codes, shares),
            Codes::Slots(codes) => processes.gather_u16(codes, shares),
            Codes::Scratch(codes) => processes.gather_u16(codes, shares),
        }
    }
}

impl From<Vec<u16>> for Codes {
    fn from(codes: Vec<u16>) -> Codes {
        Codes::Memory(codes)
    }
}

/// The working state of a tier being solved.
pub struct TierWork<T, S> {
    tier: T,
    /// Each rank's [`Slot`].
    slots: S,
    /// For a tier in parts: where each level's parents outside the first part wait.
    spill: Option<Spill>,
    /// Per block: the lowest level among its positions still to be pushed, or `NOTHING`.
    next: Vec<AtomicU16>,
    /// The highest level any position waits at.
    top: AtomicU16,
    /// The parents found by the scan, for a game that does not list un-moves.
    parents: Option<Parents>,
    /// The ranks this process owns (every rank, for a build of one process).
    shares: Shares,
    /// For a tier shared between processes: the pushes that reach other processes'
    /// shares, sent at the end of each level.
    outbox: Option<Outbox>,
}

impl<T, S: SlotStorage> TierWork<T, S> {
    /// The ranks whose parents a push sets as it finds them, and the ranks of a part: this
    /// process's share, for a shared tier; else the first of the parts of `part_len` ranks.
    fn set_here(&self, part_len: u64) -> (Range<u64>, u64) {
        match self.outbox {
            Some(_) => (self.shares.mine(), self.shares.each()),
            None => (0..part_len, part_len),
        }
    }

    /// Notes that the position at `rank` waits to be pushed at `level`.
    #[inline]
    fn waits(&self, rank: u64, level: u16) {
        self.next[rank as usize / BLOCK].fetch_min(level, Release);
        self.top.fetch_max(level, Relaxed);
    }

    /// Takes `by` from the count of `rank`'s same-tier moves not yet known to be bad for
    /// it, if it can still lose; true when the count reached zero.
    fn count_down(&self, rank: u64, by: u16) -> bool {
        let slot = &self.slots[rank as usize];
        let mut bits = slot.load(Relaxed);
        while let Slot::CanLose { count: count @ 1.., .. } = Slot::decode(bits) {
            debug_assert!(count >= by, "rank {rank} counted down by {by} from {count}");
            match slot.compare_exchange_weak(bits, Slot::counted_down(bits, by), Relaxed, Relaxed) {
                Ok(_) => return count == by,
                Err(now) => bits = now,
            }
        }
        false
    }
}

/// Step 2: classify every position of the tier by its moves, into `slots` (one a
/// position of the tier, zeroed, or as a checkpoint saved them: its blocks scanned then
/// are not scanned again); the tier is pushed in parts if a `spill` is given (one file a
/// part). The blocks go in batches, each batch's end a step of the tier's checkpoints.
pub fn scan_tier<G: Game, S: SlotStorage>(
    game: &G,
    tier: G::Tier,
    children: &ChildTables<'_, G::Tier>,
    (slots, spill, processes): (S, Option<Spill>, &Processes),
    observer: &dyn Observer,
    (resumed, checkpoints): (Option<Progress>, &Checkpoints<'_>),
) -> Result<TierWork<G::Tier, S>, SolveError> {
    let len = slots.len();
    let blocks = len.div_ceil(BLOCK);
    if !game.lists_unmoves() && spill.is_some() {
        return Err(SolveError::PartsNeedUnmoves { tier: tier.to_string() });
    }
    if !game.lists_unmoves() && processes.shared() {
        return Err(DistributedError::NeedsUnmoves { tier: tier.to_string() }.into());
    }
    let shares = processes.shares(len as u64);
    // Shares are whole blocks: a block is scanned and pushed by its owner alone.
    let owned = shares.my_blocks(BLOCK as u64);
    let owned = owned.start as usize..owned.end as usize;
    let mut work = TierWork {
        tier,
        slots,
        spill,
        next: (0..blocks).map(|_| AtomicU16::new(NOTHING)).collect(),
        top: AtomicU16::new(0),
        parents: None,
        outbox: processes.shared().then(|| Outbox::new(shares.count())),
        shares,
    };
    let scanned = match resumed {
        Some(Progress { stage: Stage::OutcomeScan, step, .. }) => (step as usize).min(blocks),
        Some(_) => blocks,
        None => 0,
    };
    let find_parents = !game.lists_unmoves();
    let mut edges: Vec<Vec<Edge>> = Vec::with_capacity(if find_parents { blocks } else { 0 });
    let batch = checkpoint_batch(owned.len());
    for start in owned.clone().step_by(batch) {
        let end = (start + batch).min(owned.end);
        let found = (start..end)
            .into_par_iter()
            .map(|block| match block < scanned {
                true => replay_block(game, children, &work, block, find_parents),
                false => scan_block(game, children, &work, block, observer),
            })
            .collect::<Result<Vec<_>, SolveError>>()?;
        edges.extend(found.into_iter().filter(|_| find_parents));
        if end > scanned {
            let done = (end * BLOCK).min(len) as u64;
            let at = Progress { stage: Stage::OutcomeScan, step: end as u64, of: blocks as u64, done };
            checkpoints.reached(at, &work.slots)?;
        }
    }
    work.parents = find_parents.then(|| Parents::new(len, edges));
    Ok(work)
}

/// Blocks (or chunks) an engine's pass takes between two steps of its checkpoints: a
/// sixty-fourth of the tier, but at least one a thread and at most sixteen, so that the
/// threads share each batch and a large tier still reaches a step every few seconds.
pub(crate) fn checkpoint_batch(blocks: usize) -> usize {
    let threads = rayon::current_num_threads();
    blocks.div_ceil(64).clamp(threads, 16 * threads)
}

/// The ranks of `block` in a tier of `len` positions.
fn block_ranks(block: usize, len: usize) -> Range<u64> {
    (block * BLOCK) as u64..((block + 1) * BLOCK).min(len) as u64
}

/// A block a checkpoint saved: its slots' levels noted again, and, for a game without
/// un-moves, its same-tier moves found again (the parents are not saved: the moves give
/// them back).
fn replay_block<G: Game, S: SlotStorage>(
    game: &G,
    children: &ChildTables<'_, G::Tier>,
    work: &TierWork<G::Tier, S>,
    block: usize,
    find_parents: bool,
) -> Result<Vec<Edge>, SolveError> {
    let ranks = block_ranks(block, work.slots.len());
    for rank in ranks.clone() {
        let level = Slot::level_of(work.slots[rank as usize].load(Relaxed));
        if level != u16::MAX {
            work.waits(rank, level);
        }
    }
    let mut parent_edges = Vec::new();
    if !find_parents {
        return Ok(parent_edges);
    }
    let (tier, mut moves, mut edges) = (work.tier, Vec::new(), Vec::new());
    let mut position: Option<G::Position> = None;
    for rank in ranks {
        let here = match &position {
            Some(previous) => game.next_position(tier, rank, previous),
            None => game.position(Location::at(tier, rank)),
        };
        if let Scanned::Moves(1..) = scan_moves_of(game, tier, &here, children, &mut moves, &mut edges)? {
            parent_edges.extend(edges.iter().map(|&(child, turn)| edge(child, rank, turn)));
        }
        position = Some(here);
    }
    Ok(parent_edges)
}

/// Scans the positions of `block`: each one's slot set from its moves (see
/// [`scan_tier`]); returns, for a game without un-moves, its same-tier moves as parent
/// edges.
fn scan_block<G: Game, S: SlotStorage>(
    game: &G,
    children: &ChildTables<'_, G::Tier>,
    work: &TierWork<G::Tier, S>,
    block: usize,
    observer: &dyn Observer,
) -> Result<Vec<Edge>, SolveError> {
    let tier = work.tier;
    let find_parents = !game.lists_unmoves();
    // The moves of this position, and of the one before, whose probes wait until this
    // one's moves are found (their table entries fetched meanwhile).
    let mut moves = [Vec::new(), Vec::new()];
    let mut waiting: Option<(u64, u16)> = None;
    let mut edges = Vec::new();
    let mut parent_edges = Vec::new();
    let ranks = block_ranks(block, work.slots.len());
    let count = ranks.end - ranks.start;
    let settle = |rank: u64, slot: Slot| {
        work.slots[rank as usize].store(slot.encode(), Relaxed);
        if let Some(level) = slot.level() {
            work.waits(rank, level);
        }
    };
    // The position found before, its moves' entries fetched by now: probed and set.
    let settle_waiting = |(rank, same_tier): (u64, u16), moves: &[Move<Location<G::Tier>>]| {
        classify(tier, moves, same_tier, children).map(|slot| settle(rank, slot))
    };
    // Positions in rank order: one unranking per block, then steps.
    let mut position: Option<G::Position> = None;
    for rank in ranks {
        let here = match &position {
            Some(previous) => game.next_position(tier, rank, previous),
            None => game.position(Location::at(tier, rank)),
        };
        let scanned = scan_moves_of(game, tier, &here, children, &mut moves[0], &mut edges)?;
        position = Some(here);
        match scanned {
            Scanned::Over(slot) => settle(rank, slot),
            Scanned::Moves(same_tier) => {
                // Without un-moves the parents come from these pairs.
                debug_assert!(!find_parents || same_tier == 0 || edges.len() == same_tier as usize);
                if find_parents && same_tier > 0 {
                    parent_edges.extend(edges.iter().map(|&(child, turn)| edge(child, rank, turn)));
                }
                if let Some(w) = waiting.take() {
                    settle_waiting(w, &moves[1])?;
                }
                moves.swap(0, 1);
                waiting = Some((rank, same_tier));
            }
        }
    }
    if let Some(w) = waiting {
        settle_waiting(w, &moves[1])?;
    }
    observer.advanced(count);
    Ok(parent_edges)
}

/// What the first step of a position's scan finds.
enum Scanned {
    /// The game is over there: its slot.
    Over(Slot),
    /// Its moves that leave the tier (in the move buffer), and its count of same-tier
    /// moves.
    Moves(u16),
}

/// The first step of a position's scan: whether the game is over, else its moves, those
/// that leave the tier into `moves` (their table entries asked for, so that the probes
/// made a position later do not wait for them) and the same-tier ones counted (as
/// distinct `(rank, turn)` pairs into `edges` for a game without un-moves).
fn scan_moves_of<G: Game>(
    game: &G,
    tier: G::Tier,
    position: &G::Position,
    children: &ChildTables<'_, G::Tier>,
    moves: &mut Vec<Move<Location<G::Tier>>>,
    edges: &mut Vec<(u64, Turn)>,
) -> Result<Scanned, SolveError> {
    if let Some(value) = game.end(position) {
        let value = Value::from_code(value.code());
        if value.plies().unwrap_or(0) > MAX_SLOT_DISTANCE {
            return Err(SolveError::TooDeep { tier: tier.to_string(), limit: MAX_SLOT_DISTANCE });
        }
        return Ok(Scanned::Over(Slot::decided(value)));
    }
    moves.clear();
    let same_tier = game.scan_moves(tier, position, moves, edges);
    if moves.is_empty() && same_tier == 0 {
        return Err(SolveError::NoMove { tier: tier.to_string(), position: position.to_string() });
    }
    let same_tier = match u16::try_from(same_tier) {
        Ok(n) if n <= MAX_SLOT_COUNT => n,
        _ => {
            let (tier, position) = (tier.to_string(), position.to_string());
            return Err(SolveError::TooManyChildren { tier, position, limit: MAX_SLOT_COUNT });
        }
    };
    for m in moves.iter() {
        children.prefetch(m.position.tier, m.position.rank);
    }
    Ok(Scanned::Moves(same_tier))
}

/// The second step of a position's scan: the slot that its moves leaving the tier
/// (probed now) and its count of same-tier moves give it.
fn classify<T: Copy + Ord + std::fmt::Display>(
    tier: T,
    moves: &[Move<Location<T>>],
    same_tier: u16,
    children: &ChildTables<'_, T>,
) -> Result<Slot, SolveError> {
    let mut best_win: Option<u16> = None;
    let mut worst = 0u16;
    let mut can_lose = true;
    for m in moves {
        let child = Value::from_code(children.code(m.position.tier, m.position.rank)?);
        match child.before(m.turn) {
            Value::Win(d) => best_win = Some(best_win.map_or(d, |b| b.min(d))),
            Value::Loss(d) => worst = worst.max(d),
            Value::Draw => can_lose = false,
        }
    }
    if best_win.unwrap_or(0).max(worst) > MAX_SLOT_DISTANCE {
        return Err(SolveError::TooDeep { tier: tier.to_string(), limit: MAX_SLOT_DISTANCE });
    }
    // Without same-tier moves, what the lower tiers say is final.
    Ok(match (best_win, can_lose, same_tier) {
        (Some(d), _, 0) => Slot::decided(Value::Win(d)),
        (Some(d), _, _) => Slot::LowerWin(d),
        (None, false, 0) => Slot::decided(Value::Draw),
        (None, false, _) => Slot::DrawsLower,
        (None, true, 0) => Slot::decided(Value::Loss(worst)),
        (None, true, n) => Slot::CanLose { count: n, worst: Some(worst) },
    })
}

/// Step 3: push every decided position to its parents, level by level, from level 0 or
/// the one a checkpoint saved as next; each level's end is a step of the tier's
/// checkpoints.
pub fn push_levels<G: Game, S: SlotStorage>(
    game: &G,
    children: &ChildTables<'_, G::Tier>,
    work: &TierWork<G::Tier, S>,
    (resumed, checkpoints): (Option<Progress>, &Checkpoints<'_>),
    processes: &Processes,
) -> Result<(), SolveError> {
    let len = work.slots.len();
    let parts = work.spill.as_ref().map_or(1, Spill::parts);
    let part_len = len.div_ceil(parts).max(1) as u64;
    let mut level = 0u16;
    if let Some(Progress { stage: Stage::OutcomePush, step, of, .. }) = resumed {
        // Both fit: they were levels.
        level = step as u16;
        work.top.fetch_max(of as u16, Relaxed);
    }
    // Every process of a shared tier pushes every level any of them has.
    let top_of_all = || work.top.fetch_max(processes.max(work.top.load(Relaxed) as u64) as u16, Relaxed);
    top_of_all();
    while level <= work.top.load(Relaxed) {
        // Pushing this level sets positions at the next one.
        if level >= MAX_SLOT_DISTANCE {
            return Err(SolveError::TooDeep { tier: work.tier.to_string(), limit: MAX_SLOT_DISTANCE });
        }
        let blocks: Vec<usize> = (0..work.next.len()).filter(|&b| work.next[b].load(Acquire) <= level).collect();
        // In parts, the level's pushes go a batch at a time, the parts set from the spill
        // whenever it has grown past its budget, so that it stays within what the build
        // announced: a batch adds at most one budget more.
        let batch = match &work.spill {
            Some(_) => spill_batch_blocks(len as u64),
            None => blocks.len().max(1),
        };
        for batch in blocks.chunks(batch) {
            push_level(game, children, work, level, batch, part_len)?;
            if work.spill.as_ref().is_some_and(Spill::over_budget) {
                drain_spill(game, children, work, part_len)?;
            }
        }
        drain_spill(game, children, work, part_len)?;
        set_received(game, children, work, processes)?;
        level += 1;
        top_of_all();
        // After the last level the table is written at once: no checkpoint is worth it.
        let top = work.top.load(Relaxed);
        if level <= top {
            let at = Progress { stage: Stage::OutcomePush, step: level as u64, of: top as u64, done: len as u64 };
            checkpoints.reached(at, &work.slots)?;
        }
    }
    Ok(())
}

/// Sets the parents the other processes' pushes of this level reached in this process's
/// share, once every process has sent them: for a tier shared between processes.
fn set_received<G: Game, S: SlotStorage>(
    game: &G,
    children: &ChildTables<'_, G::Tier>,
    work: &TierWork<G::Tier, S>,
    processes: &Processes,
) -> Result<(), SolveError> {
    let Some(outbox) = &work.outbox else { return Ok(()) };
    let received = processes.exchange_outbox(outbox);
    received.par_chunks(BLOCK).try_for_each_init(
        || Pusher::new(game, children, work, work.set_here(work.shares.each())),
        |pusher, edges| {
            for &edge in edges {
                let (parent, turn, weight, code) = spill::decode(edge);
                pusher.set(parent, turn, weight, Value::from_code(code))?;
            }
            Ok::<(), SolveError>(())
        },
    )
}

/// Sets the parents every part but the first has waiting in its spill file, part by part.
fn drain_spill<G: Game, S: SlotStorage>(
    game: &G,
    children: &ChildTables<'_, G::Tier>,
    work: &TierWork<G::Tier, S>,
    part_len: u64,
) -> Result<(), SolveError> {
    let Some(spill) = &work.spill else { return Ok(()) };
    let len = work.slots.len() as u64;
    for part in 1..spill.parts() {
        let ranks = part as u64 * part_len..((part as u64 + 1) * part_len).min(len);
        spill.drain(part, |edges| {
            edges.par_chunks(BLOCK).try_for_each_init(
                || Pusher::new(game, children, work, (ranks.clone(), part_len)),
                |pusher, edges| {
                    // Fetched a few edges ahead, as a push fetches its parents.
                    for (i, &edge) in edges.iter().enumerate() {
                        if let Some(&ahead) = edges.get(i + SPILL_AHEAD) {
                            prefetch(&work.slots[spill::decode(ahead).0 as usize]);
                        }
                        let (parent, turn, weight, code) = spill::decode(edge);
                        pusher.set(parent, turn, weight, Value::from_code(code))?;
                    }
                    Ok::<(), SolveError>(())
                },
            )
        })?;
    }
    Ok(())
}

/// Pushes the positions at `level` in `blocks` to their parents: those in the first
/// `part_len` ranks (every one, for a tier in memory) set, the others spilled to their
/// part's file.
fn push_level<G: Game, S: SlotStorage>(
    game: &G,
    children: &ChildTables<'_, G::Tier>,
    work: &TierWork<G::Tier, S>,
    level: u16,
    blocks: &[usize],
    part_len: u64,
) -> Result<(), SolveError> {
    blocks.par_iter().try_for_each_init(
        || Pusher::new(game, children, work, work.set_here(part_len)),
        |pusher, &block| -> Result<(), SolveError> {
            work.next[block].swap(NOTHING, AcqRel);
            let mut later = NOTHING;
            let ranks = block * BLOCK..((block + 1) * BLOCK).min(work.slots.len());
            for rank in ranks.map(|r| r as u64) {
                let bits = work.slots[rank as usize].load(Relaxed);
                let l = Slot::level_of(bits);
                if l == level {
                    let code = match Slot::decode(bits) {
                        Slot::LowerWin(d) => {
                            let code = Value::Win(d).code();
                            // Only this task sets a slot that waits at this level.
                            work.slots[rank as usize].store(code, Relaxed);
                            code
                        }
                        _ => bits,
                    };
                    pusher.push(rank, Value::from_code(code))?;
                }
                // `u16::MAX` (waiting for pushes) leaves `later` as it is.
                later = later.min(if l > level { l } else { NOTHING });
            }
            if later != NOTHING {
                work.next[block].fetch_min(later, Release);
            }
            pusher.flush()
        },
    )
}

/// What one thread needs to push values to parents: the tier's state and its buffers.
struct Pusher<'a, G: Game, S> {
    game: &'a G,
    children: &'a ChildTables<'a, G::Tier>,
    work: &'a TierWork<G::Tier, S>,
    /// The ranks whose slots this pass sets.
    part: Range<u64>,
    unmoves: Vec<Move<G::Position>>,
    parents: Vec<Parent<G::Tier>>,
    moves: Vec<Move<Location<G::Tier>>>,
    /// The parents the last push found in `part`, with their turns and weights, and its
    /// value: they are set at the next push (or flush), their slots fetched meanwhile.
    pending: Vec<(u64, Turn, u8)>,
    pending_value: Value,
    /// For a tier in parts: the ranks of each part, and the parents found outside
    /// `part`, by part, not yet spilled.
    part_len: u64,
    spilled: Vec<Vec<u64>>,
}

impl<'a, G: Game, S: SlotStorage> Pusher<'a, G, S> {
    /// A pusher that sets the parents in `part` (of `part_len` ranks a part) and spills
    /// the others.
    fn new(
        game: &'a G,
        children: &'a ChildTables<'a, G::Tier>,
        work: &'a TierWork<G::Tier, S>,
        (part, part_len): (Range<u64>, u64),
    ) -> Self {
        let parts = match &work.outbox {
            Some(_) => work.shares.count(),
            None => work.spill.as_ref().map_or(0, Spill::parts),
        };
        Pusher {
            game,
            children,
            work,
            part,
            part_len,
            unmoves: Vec::new(),
            parents: Vec::new(),
            moves: Vec::new(),
            pending: Vec::new(),
            pending_value: Value::Draw,
            spilled: vec![Vec::new(); parts],
        }
    }

    /// Sets the last push's parents, and writes the parents spilled so far to their
    /// parts' files: a task calls this when its block is pushed.
    fn flush(&mut self) -> Result<(), SolveError> {
        self.set_pending()?;
        if let Some(outbox) = &self.work.outbox {
            for (process, edges) in self.spilled.iter_mut().enumerate().filter(|(_, e)| !e.is_empty()) {
                outbox.post(process, edges);
            }
            return Ok(());
        }
        let Some(spill) = &self.work.spill else { return Ok(()) };
        for (part, edges) in self.spilled.iter_mut().enumerate().filter(|(_, e)| !e.is_empty()) {
            spill.append(part, edges)?;
            edges.clear();
        }
        Ok(())
    }

    /// Pushes `value`, just decided for the position at `rank`, to its same-tier parents.
    ///
    /// A parent is found once for each of its moves here (un-moves), or once for each of
    /// its distinct children (parents from the scan), as its count was made; so the
    /// parents are not sorted to drop repeats, and each is counted down by its weight.
    fn push(&mut self, rank: u64, value: Value) -> Result<(), SolveError> {
        let (game, work) = (self.game, self.work);
        self.parents.clear();
        match &work.parents {
            Some(parents) => self.parents.extend(parents.of(rank).map(|(parent, turn)| Parent {
                location: Location::at(work.tier, parent),
                turn,
                weight: 1,
            })),
            None => {
                let position = game.position(Location { tier: work.tier, rank, orientation: 0 });
                game.unmove_locations(&position, &mut self.unmoves, &mut self.parents);
            }
        }
        // This push's parents are fetched now and set at the next push, after the
        // previous push's, whose fetches have landed meanwhile (`prefetch.rs` says why).
        self.set_pending()?;
        self.pending_value = value;
        for p in &self.parents {
            let (parent, turn, weight) = (p.location.rank, p.turn, p.weight);
            if weight == 0 {
                // Another un-move finds this parent with its weight.
                continue;
            }
            if self.part.contains(&parent) {
                prefetch(&work.slots[parent as usize]);
                self.pending.push((parent, turn, weight));
            } else {
                // Only a tier in parts, or shared, has parents outside the part a pass
                // sets: its part's file, or the process that owns it, gets them.
                let part = (parent / self.part_len) as usize;
                self.spilled[part].push(spill::encode(parent, turn, weight, value.code()));
            }
        }
        Ok(())
    }

    /// Sets the parents the last push found in the part this pass sets.
    fn set_pending(&mut self) -> Result<(), SolveError> {
        let value = self.pending_value;
        for i in 0..self.pending.len() {
            let (parent, turn, weight) = self.pending[i];
            self.set(parent, turn, weight, value)?;
        }
        self.pending.clear();
        Ok(())
    }

    /// Sets what `value`, pushed through a move with `turn`, tells the parent at `parent`,
    /// for `weight` of its counted moves.
    fn set(&mut self, parent: u64, turn: Turn, weight: u8, value: Value) -> Result<(), SolveError> {
        let work = self.work;
        let slot = &work.slots[parent as usize];
        let bits = slot.load(Relaxed);
        match (value.before(turn), Slot::decode(bits)) {
            (_, Slot::Decided(_)) | (Value::Draw, _) => {}
            (Value::Win(d), _) => win(work, parent, d),
            (Value::Loss(d), Slot::CanLose { worst, .. }) => {
                if work.count_down(parent, weight as u16) {
                    // This move, pushed at the level being pushed, is the longest of the
                    // same-tier ones; the longest lower-tier one was kept if it fit.
                    let lost = match worst {
                        Some(w) => Value::Loss(w.max(d)),
                        None => self.settle(parent, Value::Loss(d))?,
                    };
                    debug_assert_eq!(lost, self.settle(parent, Value::Loss(d))?, "the loss of rank {parent}");
                    slot.store(lost.code(), Relaxed);
                    work.waits(parent, lost.plies().unwrap_or(0));
                }
            }
            (Value::Loss(_), _) => {}
        }
        Ok(())
    }

    /// The value of a position that can still lose, once its last same-tier move is known
    /// to be bad for it, worth `last` to it: the best of its moves, every one of them
    /// decided by now. The same-tier ones were pushed at this level or before, so none is
    /// worth more than `last` (every push of a level is worth as much): those in another
    /// process's share, whose slots this process does not hold, are passed over.
    fn settle(&mut self, rank: u64, last: Value) -> Result<Value, SolveError> {
        let (game, children, work) = (self.game, self.children, self.work);
        let position = game.position(Location { tier: work.tier, rank, orientation: 0 });
        self.moves.clear();
        game.move_locations(&position, &mut self.moves);
        let mine = work.shares.mine();
        let mut best = last;
        for m in &self.moves {
            let code = if m.position.tier == work.tier {
                if !mine.contains(&m.position.rank) {
                    continue;
                }
                let bits = work.slots[m.position.rank as usize].load(Relaxed);
                debug_assert!(matches!(Slot::decode(bits), Slot::Decided(_)), "{position}: a move is undecided");
                Slot::finished_code(bits)
            } else {
                children.code(m.position.tier, m.position.rank)?
            };
            best = best.best(Value::from_code(code).before(m.turn));
        }
        Ok(best)
    }
}

/// Sets the position at `rank` to a win in `d`, unless it is decided already or wins as
/// soon by a lower-tier move (it becomes that win by itself, at its level). Another
/// thread may change the slot meanwhile (count it down, or decide it): read it again.
fn win<T, S: SlotStorage>(work: &TierWork<T, S>, rank: u64, d: u16) {
    let slot = &work.slots[rank as usize];
    let mut bits = slot.load(Relaxed);
    loop {
        match Slot::decode(bits) {
            Slot::Decided(_) => return,
            Slot::LowerWin(e) if e <= d => return,
            _ => {}
        }
        match slot.compare_exchange_weak(bits, Value::Win(d).code(), Relaxed, Relaxed) {
            Ok(_) => return work.waits(rank, d),
            Err(now) => bits = now,
        }
    }
}

/// Step 4: every position still undecided is a draw. Returns the tier's value codes.
pub fn mark_draws<T, S: SlotStorage>(work: TierWork<T, S>) -> Codes {
    work.slots.into_codes(work.shares.mine())
}

/// Steps 2 to 4 for one tier whose child tiers' tables are `children`: the value code of
/// every rank. The game's values must be coded as outcomes with distance
/// ([`crate::store::build`] checks this before it calls an engine).
pub fn solve_tier<G: Game>(
    game: &G,
    tier: G::Tier,
    children: &ChildTables<'_, G::Tier>,
    placement: &SlotPlacement,
    (observer, checkpoints): (&dyn Observer, &Checkpoints<'_>),
    processes: &Processes,
) -> Result<Codes, SolveError> {
    let size = game.tier_size(tier);
    let len = usize::try_from(size).map_err(|_| SolveError::TooLarge { tier: tier.to_string(), size })?;
    match placement {
        SlotPlacement::Memory => {
            // Shared, this process sets only its share's slots: the rest of the map is
            // never touched, so the system gives it no memory.
            let slots = MappedSlots::for_tier(tier, len)?;
            solve_in(game, tier, children, (slots, None, processes), (observer, checkpoints))
        }
        SlotPlacement::Scratch { .. } if processes.shared() => {
            Err(DistributedError::InParts { tier: tier.to_string(), processes: processes.size() }.into())
        }
        SlotPlacement::Scratch { file, parts } => {
            let slots = ScratchSlots::create(file, len).map_err(|e| SolveError::Scratch {
                tier: tier.to_string(),
                file: file.clone(),
                error: e.to_string(),
            })?;
            // Parts past the tier's positions would be empty ranges, each with its file.
            let parts = (*parts).min(len);
            let spill = if parts > 1 {
                if size >= spill::MAX_RANKS {
                    return Err(SolveError::TooLarge { tier: tier.to_string(), size });
                }
                // Named as temporary files, like the scratch file, for the same clean-up.
                let stem = file.to_string_lossy().trim_end_matches(".tmp").to_owned();
                let paths: Vec<PathBuf> = (1..parts).map(|p| PathBuf::from(format!("{stem}.part-{p}.tmp"))).collect();
                Some(Spill::create(tier.to_string(), paths, spill_budget(size))?)
            } else {
                None
            };
            solve_in(game, tier, children, (slots, spill, processes), (observer, checkpoints))
        }
    }
}

/// Bytes the spill files of a tier of `size` positions solved in parts may hold before
/// they are drained within a level: the scratch file's size (two bytes a position).
pub fn spill_budget(size: u64) -> u64 {
    size.saturating_mul(2)
}

/// Blocks a level of a tier of `size` positions solved in parts pushes between two looks
/// at the spill: what adds at most its budget, but four blocks a thread at least, so
/// that the threads share the batch.
fn spill_batch_blocks(size: u64) -> usize {
    let fits = spill_budget(size) / (BLOCK as u64 * SPILL_PARENTS * 8);
    (fits as usize).max(4 * rayon::current_num_threads())
}

/// Bytes the spill files of a tier of `size` positions solved in parts hold at most: the
/// budget, and one batch of pushes beyond it.
pub fn spill_bound(size: u64) -> u64 {
    let batch = spill_batch_blocks(size) as u64 * BLOCK as u64 * SPILL_PARENTS * 8;
    spill_budget(size).saturating_add(batch)
}

/// Steps 2 to 4 in the slots given, pushed in so many parts, from the tier's checkpoint
/// if it has one.
fn solve_in<G: Game, S: SlotStorage>(
    game: &G,
    tier: G::Tier,
    children: &ChildTables<'_, G::Tier>,
    (slots, spill, processes): (S, Option<Spill>, &Processes),
    (observer, checkpoints): (&dyn Observer, &Checkpoints<'_>),
) -> Result<Codes, SolveError> {
    let saved = checkpoints.resume::<AtomicU16>(|stage| matches!(stage, Stage::OutcomeScan | Stage::OutcomePush));
    let resumed = saved.map(|saved| {
        saved.restore(&slots);
        saved.progress()
    });
    let work = scan_tier(game, tier, children, (slots, spill, processes), observer, (resumed, checkpoints))?;
    push_levels(game, children, &work, (resumed, checkpoints), processes)?;
    Ok(mark_draws(work))
}
