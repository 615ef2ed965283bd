//! Solving one tier by retrograde analysis, in five named steps:
//!
//! 1. the finished tables of the tiers a move can reach ([`crate::children`]);
//! 2. [`scan_tier`]: every position's moves: lower-tier ones are probed, same-tier
//!    ones counted; positions already decided go to the frontier at their distance;
//! 3. [`push_frontier`]: frontier positions are fixed in order of distance and their
//!    values pushed to their same-tier parents (found by un-moves): a win for a
//!    predecessor is queued at the next distance, and a predecessor all of whose
//!    moves are bad for it becomes a loss once the last of them is known;
//! 4. [`mark_draws`]: whatever is still undecided can never be forced to an end: a draw;
//! 5. saving the codes (see [`crate::store`]).
//!
//! Why the distances are exact: the frontier is processed one distance at a time, in
//! increasing order, and a position is fixed the first time it is taken from the
//! frontier. A win is queued at `1 + d` when a move is a loss in `d` for the
//! opponent; it is taken out no later than any other queued win of it, so the first
//! is the shortest. A loss is queued when its last undecided same-tier move becomes
//! a win for the opponent; same-tier moves are decided in increasing distance, so
//! that one is the longest, and the lower-tier moves' longest was noted in the scan.
//!
//! Threads share the tier's arrays through atomics: a position's value is set by one
//! compare-and-swap from "undecided", and its count of undecided moves is
//! decremented with `fetch_sub`, so exactly one thread sees it reach zero.

use crate::children::ChildTables;
pub use crate::error::SolveError;
use crate::game::{Game, Location, Move};
use crate::parents::{edge, Edge, Parents};
use crate::value::{TableValue, Turn, Value, MAX_DISTANCE};
use rayon::prelude::*;
use std::sync::atomic::{AtomicBool, AtomicU16, Ordering::Relaxed};

/// A rank's value slot before it is decided.
const UNDECIDED: u16 = u16::MAX;
/// In `worst_lower`: some lower-tier move is a draw or a win, so this position
/// cannot be lost.
const CANNOT_LOSE: u16 = u16::MAX;
/// Ranks handed to one rayon task at a time.
const CHUNK: usize = 1 << 14;

/// Progress of a build, reported to whoever shows it.
pub trait Observer: Sync {
    /// A tier is about to be solved; `work` units will be reported for it.
    fn tier_started(&self, _tier: &str, _work: u64) {}
    /// `units` more work units of the current tier are done.
    fn advanced(&self, _units: u64) {}
    /// The tier is solved and saved.
    fn tier_finished(&self, _tier: &str) {}
}

/// An observer that shows nothing.
pub struct Silent;
impl Observer for Silent {}

/// The working state of a tier being solved.
pub struct TierWork<T> {
    tier: T,
    /// Value code per rank, or `UNDECIDED`.
    values: Vec<AtomicU16>,
    /// Same-tier moves not yet known to be wins for the opponent (or, after a
    /// bonus move, losses for the mover).
    pending: Vec<AtomicU16>,
    /// Longest distance among the lower-tier moves that are bad for the mover, or
    /// `CANNOT_LOSE`.
    worst_lower: Vec<u16>,
    /// Positions to fix, by distance: `(rank, value code)`.
    frontier: Vec<Vec<(u64, u16)>>,
    /// The parents found by the scan, for a game that does not list un-moves.
    parents: Option<Parents>,
}

impl<T> TierWork<T> {
    fn queue(&mut self, entries: Vec<(u64, u16)>) {
        for (rank, code) in entries {
            let level = Value::from_code(code).plies().unwrap_or(0) as usize;
            if self.frontier.len() <= level {
                self.frontier.resize_with(level + 1, Vec::new);
            }
            self.frontier[level].push((rank, code));
        }
    }
}

/// A position decided by the scan: its rank and value code, queued at its distance.
type Queued = (u64, u16);

/// Splits move locations into same-tier edges (distinct `(rank, turn)` pairs, into
/// `edges`) and the others (left in `moves`).
fn split_moves<T: Copy + Eq>(tier: T, moves: &mut Vec<Move<Location<T>>>, edges: &mut Vec<(u64, Turn)>) {
    edges.clear();
    edges.extend(moves.iter().filter(|m| m.position.tier == tier).map(|m| (m.position.rank, m.turn)));
    moves.retain(|m| m.position.tier != tier);
    edges.sort_unstable();
    edges.dedup();
}

/// Step 2: classify every position of the tier by its moves.
pub fn scan_tier<G: Game>(
    game: &G,
    tier: G::Tier,
    children: &ChildTables<'_, G::Tier>,
    observer: &dyn Observer,
) -> Result<TierWork<G::Tier>, SolveError> {
    let size = game.tier_size(tier);
    let len = usize::try_from(size).map_err(|_| SolveError::TooLarge { tier: tier.to_string(), size })?;
    let values: Vec<AtomicU16> = (0..len).map(|_| AtomicU16::new(UNDECIDED)).collect();
    let pending: Vec<AtomicU16> = (0..len).map(|_| AtomicU16::new(0)).collect();
    let mut worst_lower = vec![0u16; len];
    let failure = std::sync::Mutex::new(None::<SolveError>);
    let failed = AtomicBool::new(false);
    let find_parents = !game.lists_unmoves();

    let scanned: Vec<(Vec<Queued>, Vec<Edge>)> = worst_lower
        .par_chunks_mut(CHUNK)
        .enumerate()
        .map(|(chunk, worst)| {
            let mut out = Vec::new();
            let mut moves = Vec::new();
            let mut edges = Vec::new();
            let mut parent_edges = Vec::new();
            let first = (chunk * CHUNK) as u64;
            for (i, worst) in worst.iter_mut().enumerate() {
                if failed.load(Relaxed) {
                    break;
                }
                let rank = first + i as u64;
                match scan_position(game, tier, rank, children, &mut moves, &mut edges) {
                    Ok(scan) => {
                        if find_parents && scan.same_tier > 0 {
                            parent_edges.extend(edges.iter().map(|&(child, turn)| edge(child, rank, turn)));
                        }
                        pending[rank as usize].store(scan.same_tier, Relaxed);
                        *worst = scan.worst_lower;
                        if let Some(v) = scan.queue {
                            out.push((rank, v.code()));
                        }
                    }
                    Err(e) => {
                        failed.store(true, Relaxed);
                        failure.lock().unwrap_or_else(|p| p.into_inner()).get_or_insert(e);
                        break;
                    }
                }
            }
            observer.advanced(worst.len() as u64);
            (out, parent_edges)
        })
        .collect();
    if let Some(e) = failure.into_inner().unwrap_or_else(|p| p.into_inner()) {
        return Err(e);
    }
    let (queued, edges): (Vec<_>, Vec<_>) = scanned.into_iter().unzip();
    let parents = find_parents.then(|| Parents::new(len, edges));
    let mut work = TierWork { tier, values, pending, worst_lower, frontier: Vec::new(), parents };
    for entries in queued {
        work.queue(entries);
    }
    Ok(work)
}

struct ScannedPosition {
    same_tier: u16,
    worst_lower: u16,
    queue: Option<Value>,
}

fn scan_position<G: Game>(
    game: &G,
    tier: G::Tier,
    rank: u64,
    children: &ChildTables<'_, G::Tier>,
    moves: &mut Vec<Move<Location<G::Tier>>>,
    edges: &mut Vec<(u64, Turn)>,
) -> Result<ScannedPosition, SolveError> {
    let position = game.position(Location { tier, rank, orientation: 0 });
    if let Some(value) = game.end(&position) {
        let value = Value::from_code(value.code());
        let queue = (value != Value::Draw).then_some(value);
        return Ok(ScannedPosition { same_tier: 0, worst_lower: CANNOT_LOSE, queue });
    }
    moves.clear();
    game.move_locations(&position, moves);
    if moves.is_empty() {
        return Err(SolveError::NoMove { tier: tier.to_string(), position: position.to_string() });
    }
    split_moves(tier, moves, edges);
    let mut best_win: Option<u16> = None;
    let mut worst = 0u16;
    let mut can_lose = true;
    for m in moves.iter() {
        let child = Value::from_code(children.code(m.position.tier, m.position.rank)?);
        match child.before(m.turn) {
            Value::Win(d) => best_win = Some(best_win.map_or(d, |b| b.min(d))),
            Value::Loss(d) => worst = worst.max(d),
            Value::Draw => can_lose = false,
        }
    }
    if best_win.unwrap_or(0).max(worst) > MAX_DISTANCE {
        return Err(SolveError::TooDeep { tier: tier.to_string() });
    }
    // A position has far fewer distinct moves than this; more would be a game bug.
    let same_tier = u16::try_from(edges.len()).unwrap_or(u16::MAX);
    if let Some(d) = best_win {
        return Ok(ScannedPosition { same_tier, worst_lower: CANNOT_LOSE, queue: Some(Value::Win(d)) });
    }
    if !can_lose {
        return Ok(ScannedPosition { same_tier, worst_lower: CANNOT_LOSE, queue: None });
    }
    if same_tier == 0 {
        return Ok(ScannedPosition { same_tier, worst_lower: worst, queue: Some(Value::Loss(worst)) });
    }
    // `worst` is a distance after the move already; a loss found later adds the
    // same-tier move's ply the same way, so keep it one ply back.
    Ok(ScannedPosition { same_tier, worst_lower: worst.saturating_sub(1), queue: None })
}

/// Step 3: fix frontier positions in order of distance and push them to their parents.
pub fn push_frontier<G: Game>(game: &G, work: &mut TierWork<G::Tier>) -> Result<(), SolveError> {
    let tier = work.tier;
    let mut level = 0;
    while level < work.frontier.len() {
        let entries = std::mem::take(&mut work.frontier[level]);
        if entries.is_empty() {
            level += 1;
            continue;
        }
        if level >= MAX_DISTANCE as usize {
            return Err(SolveError::TooDeep { tier: tier.to_string() });
        }
        let values = &work.values;
        let pending = &work.pending;
        let worst_lower = &work.worst_lower;
        let parents = &work.parents;
        let queued: Vec<Vec<(u64, u16)>> = entries
            .par_chunks(CHUNK / 4)
            .map(|chunk| {
                let mut out = Vec::new();
                let mut unmoves = Vec::new();
                let mut edges: Vec<(u64, Turn)> = Vec::new();
                for &(rank, code) in chunk {
                    if values[rank as usize].compare_exchange(UNDECIDED, code, Relaxed, Relaxed).is_err() {
                        continue;
                    }
                    let value = Value::from_code(code);
                    edges.clear();
                    match parents {
                        Some(parents) => edges.extend(parents.of(rank)),
                        None => {
                            let position = game.position(Location { tier, rank, orientation: 0 });
                            unmoves.clear();
                            game.unmoves(&position, &mut unmoves);
                            edges.extend(unmoves.iter().map(|p| (game.locate(&p.position).rank, p.turn)));
                            edges.sort_unstable();
                            edges.dedup();
                        }
                    }
                    for &(parent, turn) in edges.iter() {
                        let p = parent as usize;
                        if values[p].load(Relaxed) != UNDECIDED {
                            continue;
                        }
                        match value.before(turn) {
                            win @ Value::Win(_) => out.push((parent, win.code())),
                            Value::Loss(_) => {
                                if worst_lower[p] == CANNOT_LOSE {
                                    continue;
                                }
                                if pending[p].fetch_sub(1, Relaxed) == 1 {
                                    let d = (level as u16).max(worst_lower[p]) + 1;
                                    out.push((parent, Value::Loss(d).code()));
                                }
                            }
                            Value::Draw => {}
                        }
                    }
                }
                out
            })
            .collect();
        for entries in queued {
            work.queue(entries);
        }
        level += 1;
    }
    Ok(())
}

/// Step 4: every position still undecided is a draw. Returns the tier's value codes.
pub fn mark_draws<T>(work: TierWork<T>) -> Vec<u16> {
    work.values
        .into_par_iter()
        .map(|v| match v.into_inner() {
            UNDECIDED => Value::Draw.code(),
            code => code,
        })
        .collect()
}

/// Steps 2 to 4 for one tier whose child tiers' tables are `children`: the value code of
/// every rank. The game's values must be coded as outcomes with distance
/// ([`crate::store::build`] checks this before it calls an engine).
pub fn solve_tier<G: Game>(
    game: &G,
    tier: G::Tier,
    children: &ChildTables<'_, G::Tier>,
    observer: &dyn Observer,
) -> Result<Vec<u16>, SolveError> {
    let mut work = scan_tier(game, tier, children, observer)?;
    push_frontier(game, &mut work)?;
    Ok(mark_draws(work))
}
