//! Solving one tier of a cyclic score game: every threshold in one retrograde pass.
//!
//! 1. **Scan** (parallel over chunks of ranks): for each position, `best_exit` (the best
//!    worth among its exits, lower-tier children probed once; the rules' value if it has
//!    no move) and the number of its distinct in-tier children.
//! 2. **Thresholds** `t` from the largest |exit worth| down to 1, as the module comment of
//!    [`crate::cyclic`] explains: seed every undecided position with `best_exit ≥ t` as
//!    won at `t`, and every undecided one with `best_exit ≤ −t` and no in-tier child left
//!    that is not won as lost at `t`; then propagate by un-moves to the fixpoint: a won
//!    child takes one from each parent's counter (a parent whose counter reaches 0 with
//!    every exit failing is lost at `t`), a lost child makes each parent won at `t`.
//! 3. Whatever was never marked is worth 0 (endless play).
//!
//! A position is marked once, with the first `t` that reaches it, so its value is final
//! when marked and each un-move is generated once per tier.
//!
//! Memory: one two-byte `Slot` a position. An undecided position needs its `best_exit`
//! and its counter; a decided one only its value, so the two share the slot, and the
//! finished slots become the table's codes in place. With the frontier (about 6 % of a
//! tier at its largest, eight bytes each) a tier takes about 2.5 bytes a position.
//!
//! Both steps run in parallel: the scan over chunks of ranks, the propagation layer by
//! layer (the positions one layer decides are the next layer), every change of a slot one
//! compare-and-swap from the state read (see `Pass`).

use crate::checkpoint::{Checkpoints, Progress, Stage};
use crate::children::{ChildError, ChildTables};
use crate::distributed::{Outbox, Processes, Shares};
use crate::error::SolveError;
use crate::game::{Game, Location, Move};
use crate::parents::{edge, Edge, Parents};
use crate::prefetch::prefetch;
use crate::solve::{Codes, MappedSlots, Observer};
use crate::value::{code_score, score_code, TableValue, Turn};
use rayon::prelude::*;
use std::ops::Range;
use std::sync::atomic::{AtomicU16, Ordering::Relaxed};

/// `best_exit` of a position without exits.
const NO_EXIT: i8 = i8::MIN;
/// Most distinct in-tier children a position may have: the counter's byte value 255 marks
/// a decided slot.
const MAX_CHILDREN: u8 = 254;

/// A position's state, two bytes:
///
/// ```text
///   undecided:  counter (0..=254) << 8 | best_exit as u8
///   decided:    255 << 8              | value as u8       (value ±t, never 0)
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Slot {
    Undecided { best_exit: i8, counter: u8 },
    Decided(i8),
}

impl Slot {
    const DECIDED: u16 = 0xFF00;

    fn encode(self) -> u16 {
        match self {
            Slot::Undecided { best_exit, counter } => (counter as u16) << 8 | best_exit as u8 as u16,
            Slot::Decided(value) => Slot::DECIDED | value as u8 as u16,
        }
    }

    fn decode(bits: u16) -> Slot {
        let low = bits as u8 as i8;
        match (bits >> 8) as u8 {
            255 => Slot::Decided(low),
            counter => Slot::Undecided { best_exit: low, counter },
        }
    }

    /// The value the slot ends with: 0 for a position never decided (endless play).
    fn value(bits: u16) -> i8 {
        match Slot::decode(bits) {
            Slot::Decided(value) => value,
            Slot::Undecided { .. } => 0,
        }
    }
}
/// Ranks handed to one rayon task at a time in the scan.
const CHUNK: usize = 1 << 14;
// A tier shared between processes is split into whole ones.
const _: () = assert!(CHUNK as u64 == crate::distributed::SHARE_ALIGN);

struct TierSolver<'a, G: Game> {
    game: &'a G,
    tier: G::Tier,
    size: u64,
    children: &'a ChildTables<'a, G::Tier>,
    /// The parents found by the scan, for a game that does not list un-moves.
    scanned: Option<Parents>,
    /// The ranks this process owns (every rank, for a build of one process).
    shares: Shares,
}

impl<G: Game> TierSolver<'_, G> {
    fn err_tier(&self) -> String {
        self.tier.to_string()
    }

    fn fits(&self, score: i32) -> Result<i8, SolveError> {
        match i8::try_from(score) {
            Ok(s) if s != NO_EXIT => Ok(s),
            _ => Err(SolveError::Range { tier: self.err_tier(), value: score.to_string() }),
        }
    }

    /// `best_exit` and the number of distinct in-tier children of the position at `rank`.
    fn scan(
        &self,
        rank: u64,
        moves: &mut Vec<Move<G::Position>>,
        inside: &mut Vec<u64>,
    ) -> Result<(i8, u8), SolveError> {
        let position = self.game.position(Location::at(self.tier, rank));
        if let Some(v) = self.game.end(&position) {
            return Ok((self.fits(code_score(v.code()) as i32)?, 0));
        }
        moves.clear();
        inside.clear();
        self.game.moves(&position, moves);
        if moves.is_empty() {
            return Err(SolveError::NoMove { tier: self.err_tier(), position: format!("{position:?}") });
        }
        let mut best = i32::MIN;
        for mv in moves.iter() {
            let Location { tier, rank: child, .. } = self.game.locate(&mv.position);
            if tier == self.tier {
                if mv.gain != 0 || mv.turn != Turn::Passes {
                    return Err(SolveError::InTierGain { tier: self.err_tier(), position: format!("{position:?}") });
                }
                if child >= self.size {
                    return Err(ChildError::RankOutOfRange {
                        tier: self.err_tier(),
                        child: tier.to_string(),
                        rank: child,
                    }
                    .into());
                }
                inside.push(child);
                continue;
            }
            let code = self.children.code(tier, child)?;
            best = best.max(i16::worth(code_score(code), mv.gain, mv.turn) as i32);
        }
        inside.sort_unstable();
        inside.dedup();
        let count = u8::try_from(inside.len()).ok().filter(|&c| c <= MAX_CHILDREN).ok_or_else(|| {
            SolveError::TooManyChildren {
                tier: self.err_tier(),
                position: format!("{position:?}"),
                limit: MAX_CHILDREN as u16,
            }
        })?;
        let best = if best == i32::MIN { NO_EXIT } else { self.fits(best)? };
        Ok((best, count))
    }

    /// The distinct in-tier parents of the position at `rank`, into `parents`.
    fn parents(
        &self,
        rank: u64,
        buffer: &mut Vec<Move<G::Position>>,
        parents: &mut Vec<u64>,
    ) -> Result<(), SolveError> {
        parents.clear();
        if let Some(scanned) = &self.scanned {
            parents.extend(scanned.of(rank).map(|(parent, _)| parent));
            return Ok(());
        }
        let position = self.game.position(Location::at(self.tier, rank));
        buffer.clear();
        self.game.unmoves(&position, buffer);
        for parent in buffer.iter() {
            let Location { tier, rank: r, .. } = self.game.locate(&parent.position);
            if tier != self.tier || r >= self.size {
                return Err(SolveError::UnmoveOutsideTier { tier: self.err_tier(), position: format!("{position:?}") });
            }
            parents.push(r);
        }
        parents.sort_unstable();
        parents.dedup();
        Ok(())
    }
}

/// Solves one tier whose lower child tiers' tables are `children`, from its checkpoint if
/// it has one; returns the tier's value codes ([`score_code`]) in rank order. The game's
/// values must be coded as scores ([`crate::store::build`] checks this before it calls an
/// engine).
pub fn solve_tier<'a, G: Game>(
    game: &'a G,
    tier: G::Tier,
    children: &'a ChildTables<'a, G::Tier>,
    (observer, checkpoints): (&dyn Observer, &Checkpoints<'_>),
    processes: &Processes,
) -> Result<Codes, SolveError> {
    let size = game.tier_size(tier);
    let len = usize::try_from(size).map_err(|_| SolveError::TooLarge { tier: tier.to_string(), size })?;
    let shares = processes.shares(size);
    let mine = shares.mine();
    let mut solver = TierSolver { game, tier, size, children, scanned: None, shares };
    // Parents are settled at random: huge pages spare most of those accesses a TLB miss
    // (`solve/mapped_slots.rs`). Shared, only this process's share of the map is ever
    // touched, so only its memory is taken.
    let slots = MappedSlots::for_tier(tier, len)?;
    let saved = checkpoints.resume::<AtomicU16>(|stage| matches!(stage, Stage::CyclicScan | Stage::CyclicThreshold));
    let resumed = saved.map(|saved| {
        saved.restore(&slots);
        saved.progress()
    });

    // 1. Scan; without un-moves, each position's in-tier moves noted as its children's
    //    parent edges.
    let edges = scan(&solver, &slots, resumed, (observer, checkpoints))?;
    if !game.lists_unmoves() {
        solver.scanned = Some(Parents::new(len, to_owners(edges, &solver.shares, processes)));
    }
    let solver = solver;

    // 2. Thresholds, largest first, each one's end a step of the checkpoints.
    let (first, top) = match resumed {
        Some(Progress { stage: Stage::CyclicThreshold, step, of, .. }) => (step as i32, of),
        _ => {
            let top = processes.max(largest_exit(&slots[mine.start as usize..mine.end as usize]) as u64) as i32;
            (top, top as u64)
        }
    };
    let outbox = processes.shared().then(|| Outbox::new(solver.shares.count()));
    let pass = Pass { solver: &solver, slots: &slots, outbox: outbox.as_ref() };
    let left = |frontier: &[Vec<u64>]| processes.sum(frontier.iter().map(|part| part.len() as u64).sum());
    for t in (1..=first as i8).rev() {
        let mut frontier = vec![pass.seed(t)];
        while left(&frontier) > 0 {
            frontier = pass.propagate(t, &frontier)?;
            frontier.extend(pass.settle_received(t, processes)?);
        }
        // After the last threshold the table is written at once: no checkpoint is worth it.
        if t > 1 {
            let at = Progress { stage: Stage::CyclicThreshold, step: t as u64 - 1, of: top, done: size };
            checkpoints.reached(at, &slots)?;
        }
    }
    // 3. The rest is endless play: 0. The slots become the codes in place, so no second
    //    array is ever held.
    slots[mine.start as usize..mine.end as usize]
        .par_iter()
        .for_each(|s| s.store(score_code(Slot::value(s.load(Relaxed)) as i16), Relaxed));
    Ok(Codes::Slots(slots.into_values()))
}

/// The parent edges `edges` a scan found, those of every child in this process's share:
/// for a tier shared between processes, each edge is sent to its child's owner.
fn to_owners(edges: Vec<Vec<Edge>>, shares: &Shares, processes: &Processes) -> Vec<Vec<Edge>> {
    if !processes.shared() {
        return edges;
    }
    let outbox = Outbox::new(shares.count());
    for (child, parent) in edges.into_iter().flatten() {
        outbox.post(shares.owner(child), &mut vec![child, parent]);
    }
    let received = processes.exchange_outbox(&outbox);
    vec![received.chunks_exact(2).map(|pair| (pair[0], pair[1])).collect()]
}

/// The largest |best exit| of the undecided positions: the first threshold.
fn largest_exit(slots: &[AtomicU16]) -> i32 {
    slots
        .par_iter()
        .filter_map(|s| match Slot::decode(s.load(Relaxed)) {
            Slot::Undecided { best_exit, .. } if best_exit != NO_EXIT => Some((best_exit as i32).abs()),
            _ => None,
        })
        .max()
        .unwrap_or(0)
}

/// Step 1: every position's `best_exit` and count of in-tier children into its slot, the
/// chunks a checkpoint saved left as they are; returns, for a game without un-moves, the
/// in-tier moves as parent edges (found again in the chunks saved). The chunks go in
/// batches, each batch's end a step of the checkpoints.
fn scan<G: Game>(
    solver: &TierSolver<'_, G>,
    slots: &[AtomicU16],
    resumed: Option<Progress>,
    (observer, checkpoints): (&dyn Observer, &Checkpoints<'_>),
) -> Result<Vec<Vec<Edge>>, SolveError> {
    let find_parents = !solver.game.lists_unmoves();
    let chunks = slots.len().div_ceil(CHUNK);
    let scanned = match resumed {
        Some(Progress { stage: Stage::CyclicScan, step, .. }) => (step as usize).min(chunks),
        Some(_) => chunks,
        None => 0,
    };
    // Shares are whole chunks.
    let owned = solver.shares.my_blocks(CHUNK as u64);
    let owned = owned.start as usize..owned.end as usize;
    let mut edges = Vec::new();
    let batch = crate::solve::checkpoint_batch(owned.len());
    for start in owned.clone().step_by(batch) {
        let end = (start + batch).min(owned.end);
        let found = (start..end)
            .into_par_iter()
            .map_init(
                || (Vec::new(), Vec::new()),
                |(moves, inside), chunk| {
                    let ranks = chunk * CHUNK..((chunk + 1) * CHUNK).min(slots.len());
                    let saved = chunk < scanned;
                    let mut edges = Vec::new();
                    if saved && !find_parents {
                        return Ok(edges);
                    }
                    for rank in ranks.clone().map(|r| r as u64) {
                        let (best_exit, counter) = solver.scan(rank, moves, inside)?;
                        if !saved {
                            slots[rank as usize].store(Slot::Undecided { best_exit, counter }.encode(), Relaxed);
                        }
                        if find_parents && counter > 0 {
                            edges.extend(inside.iter().map(|&child| edge(child, rank, Turn::Passes)));
                        }
                    }
                    // The scan is most of the work; the passes below are counted with it.
                    if !saved {
                        observer.advanced(ranks.len() as u64);
                    }
                    Ok(edges)
                },
            )
            .collect::<Result<Vec<_>, SolveError>>()?;
        edges.extend(found.into_iter().filter(|_| find_parents));
        if end > scanned {
            let done = (end * CHUNK).min(slots.len()) as u64;
            let at = Progress { stage: Stage::CyclicScan, step: end as u64, of: chunks as u64, done };
            checkpoints.reached(at, slots)?;
        }
    }
    Ok(edges)
}

/// The state of one tier's threshold passes, shared by the threads: a slot is decided once
/// (undecided → ±t, by compare-and-swap, so exactly one thread pushes it), and an
/// undecided slot's counter only falls. Which thread gets there first changes nothing: at
/// threshold `t` every position marked is worth ±t, and the fixpoint of the attractor does
/// not depend on the order in which it is reached.
struct Pass<'a, G: Game> {
    solver: &'a TierSolver<'a, G>,
    slots: &'a [AtomicU16],
    /// For a tier shared between processes: the children decided here whose parents are
    /// another process's, as `parent << 1 | won`, sent at the end of each layer.
    outbox: Option<&'a Outbox>,
}

impl<G: Game> Pass<'_, G> {
    /// Marks the undecided positions that threshold `t` decides without looking at their
    /// in-tier children's new values: an exit worth ≥ t (won), or exits all worth ≤ −t and
    /// every in-tier child already won for the opponent (lost). Returns them.
    fn seed(&self, t: i8) -> Vec<u64> {
        let mine: Range<u64> = self.solver.shares.mine();
        self.slots[mine.start as usize..mine.end as usize]
            .par_chunks(CHUNK)
            .enumerate()
            .flat_map_iter(|(chunk, slots)| {
                let from = mine.start as usize + chunk * CHUNK;
                slots.iter().enumerate().filter_map(move |(i, slot)| {
                    let mark = match Slot::decode(slot.load(Relaxed)) {
                        Slot::Undecided { best_exit, .. } if best_exit >= t => t,
                        Slot::Undecided { best_exit, counter: 0 } if best_exit <= -t => -t,
                        _ => return None,
                    };
                    // No propagation runs while seeding: nothing else writes the slot.
                    slot.store(Slot::Decided(mark).encode(), Relaxed);
                    Some((from + i) as u64)
                })
            })
            .collect()
    }

    /// What a child decided at threshold `t` does to its parent `q`: a child `won` (its
    /// X-state) takes one from the parent's counter, and the parent is lost at `t` when
    /// that leaves no child and every exit fails; a child lost (its Y-state) makes the
    /// parent won at `t`. True when this call decided `q`.
    fn settle(&self, q: u64, t: i8, won: bool) -> Result<bool, SolveError> {
        let slot = &self.slots[q as usize];
        let mut bits = slot.load(Relaxed);
        loop {
            let Slot::Undecided { best_exit, counter } = Slot::decode(bits) else {
                return Ok(false);
            };
            let now = if !won {
                Slot::Decided(t)
            } else {
                let left = counter.checked_sub(1).ok_or_else(|| SolveError::UnmoveNotAMove {
                    tier: self.solver.err_tier(),
                    position: format!("{:?}", self.solver.game.position(Location::at(self.solver.tier, q))),
                })?;
                if left == 0 && best_exit <= -t {
                    Slot::Decided(-t)
                } else {
                    Slot::Undecided { best_exit, counter: left }
                }
            };
            match slot.compare_exchange_weak(bits, now.encode(), Relaxed, Relaxed) {
                Ok(_) => return Ok(matches!(now, Slot::Decided(_))),
                Err(actual) => bits = actual,
            }
        }
    }

    /// One layer of the retrograde propagation at threshold `t`: the parents that the
    /// positions of `frontier` decide, marked and returned in parts (one a task: joined,
    /// they would be held twice for a moment).
    fn propagate(&self, t: i8, frontier: &[Vec<u64>]) -> Result<Vec<Vec<u64>>, SolveError> {
        let shares = &self.solver.shares;
        let mine = shares.mine();
        frontier
            .par_iter()
            .flat_map(|part| part.par_chunks(CHUNK / 16))
            .map_init(
                || (Vec::new(), Vec::new(), Vec::new(), vec![Vec::new(); shares.count()]),
                |(buffer, parents, pending, remote), chunk| {
                    let mut next = Vec::new();
                    // A position's parents are fetched when found and settled after the
                    // next position's are found (as the outcome engine's pushes do);
                    // those another process owns are posted to it.
                    let mut settle = |parents: &[u64], won: bool| -> Result<(), SolveError> {
                        for &q in parents {
                            if !mine.contains(&q) {
                                remote[shares.owner(q)].push(q << 1 | won as u64);
                            } else if self.settle(q, t, won)? {
                                next.push(q);
                            }
                        }
                        Ok(())
                    };
                    let mut pending_won = false;
                    pending.clear();
                    for &r in chunk {
                        self.solver.parents(r, buffer, parents)?;
                        for &q in parents.iter().filter(|q| mine.contains(q)) {
                            prefetch(&self.slots[q as usize]);
                        }
                        settle(pending, pending_won)?;
                        std::mem::swap(pending, parents);
                        pending_won = Slot::value(self.slots[r as usize].load(Relaxed)) > 0;
                    }
                    settle(pending, pending_won)?;
                    if let Some(outbox) = self.outbox {
                        for (process, messages) in remote.iter_mut().enumerate().filter(|(_, m)| !m.is_empty()) {
                            outbox.post(process, messages);
                        }
                    }
                    Ok(next)
                },
            )
            .collect()
    }

    /// Settles the parents in this process's share that the other processes' layer
    /// reached, once every process has sent them; returns those it decided, the next
    /// layer's part from them. Nothing for a tier not shared.
    fn settle_received(&self, t: i8, processes: &Processes) -> Result<Vec<Vec<u64>>, SolveError> {
        let Some(outbox) = self.outbox else { return Ok(Vec::new()) };
        let received = processes.exchange_outbox(outbox);
        received
            .par_chunks(CHUNK)
            .map(|messages| {
                let mut next = Vec::new();
                for &message in messages {
                    if self.settle(message >> 1, t, message & 1 == 1)? {
                        next.push(message >> 1);
                    }
                }
                Ok(next)
            })
            .collect()
    }
}
