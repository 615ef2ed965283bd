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
//! when marked and each un-move is generated once per tier. Per position the pass keeps
//! one byte each for `best_exit`, the counter and the value.
//!
//! Both steps run in parallel: the scan over chunks of ranks, the propagation layer by
//! layer (the positions one layer decides are the next layer), with values set by
//! compare-and-swap and counters decremented atomically (see `Pass`).

use crate::children::{ChildError, ChildTables};
use crate::error::SolveError;
use crate::game::{Game, Location, Move};
use crate::parents::{edge, Edge, Parents};
use crate::solve::Observer;
use crate::value::{code_score, score_code, TableValue, Turn};
use rayon::prelude::*;
use std::sync::atomic::{AtomicI8, AtomicU8, Ordering::Relaxed};

/// `best_exit` of a position without exits.
const NO_EXIT: i8 = i8::MIN;
/// Ranks handed to one rayon task at a time in the scan.
const CHUNK: usize = 1 << 14;

struct TierSolver<'a, G: Game> {
    game: &'a G,
    tier: G::Tier,
    size: u64,
    children: &'a ChildTables<'a, G::Tier>,
    /// The parents found by the scan, for a game that does not list un-moves.
    scanned: Option<Parents>,
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
        let count = u8::try_from(inside.len()).map_err(|_| SolveError::TooManyChildren {
            tier: self.err_tier(),
            position: format!("{position:?}"),
            limit: 255,
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

/// Solves one tier whose lower child tiers' tables are `children`; returns the tier's
/// value codes ([`score_code`]) in rank order. The game's values must be coded as scores
/// ([`crate::store::build`] checks this before it calls an engine).
pub fn solve_tier<'a, G: Game>(
    game: &'a G,
    tier: G::Tier,
    children: &'a ChildTables<'a, G::Tier>,
    observer: &dyn Observer,
) -> Result<Vec<u16>, SolveError> {
    let size = game.tier_size(tier);
    let len = usize::try_from(size).map_err(|_| SolveError::TooLarge { tier: tier.to_string(), size })?;
    let mut solver = TierSolver { game, tier, size, children, scanned: None };
    let find_parents = !game.lists_unmoves();

    // 1. Scan; without un-moves, each position's in-tier moves noted as its children's
    //    parent edges.
    let mut best_exit = vec![NO_EXIT; len];
    let mut counter = vec![0u8; len];
    let edges: Vec<Vec<Edge>> = best_exit
        .par_chunks_mut(CHUNK)
        .zip(counter.par_chunks_mut(CHUNK))
        .enumerate()
        .map_init(
            || (Vec::new(), Vec::new()),
            |(moves, inside), (chunk, (best, count))| {
                let from = (chunk * CHUNK) as u64;
                let mut edges = Vec::new();
                for (i, (b, c)) in best.iter_mut().zip(count.iter_mut()).enumerate() {
                    let rank = from + i as u64;
                    (*b, *c) = solver.scan(rank, moves, inside)?;
                    if find_parents && *c > 0 {
                        edges.extend(inside.iter().map(|&child| edge(child, rank, Turn::Passes)));
                    }
                }
                // The scan is most of the work; the passes below are counted with it.
                observer.advanced(best.len() as u64);
                Ok(edges)
            },
        )
        .collect::<Result<_, SolveError>>()?;
    if find_parents {
        solver.scanned = Some(Parents::new(len, edges));
    }
    let solver = solver;

    // 2. Thresholds, largest first; 0 in `value` is "not marked".
    let top = best_exit.par_iter().filter(|&&b| b != NO_EXIT).map(|&b| (b as i32).abs()).max().unwrap_or(0);
    let value: Vec<AtomicI8> = (0..len).into_par_iter().map(|_| AtomicI8::new(0)).collect();
    let counter: Vec<AtomicU8> = counter.into_par_iter().map(AtomicU8::new).collect();
    let pass = Pass { solver: &solver, best_exit: &best_exit, counter: &counter, value: &value };
    for t in (1..=top as i8).rev() {
        let mut frontier = pass.seed(t);
        while !frontier.is_empty() {
            frontier = pass.propagate(t, &frontier)?;
        }
    }
    // 3. The rest is endless play: 0.
    Ok(value.into_par_iter().map(|v| score_code(v.into_inner() as i16)).collect())
}

/// The state of one tier's threshold passes, shared by the threads: a position's value is
/// set once (0 → ±t, by compare-and-swap, so exactly one thread pushes it), a counter only
/// falls. Which thread gets there first changes nothing: at threshold `t` every position
/// marked is worth ±t, and the fixpoint of the attractor does not depend on the order in
/// which it is reached.
struct Pass<'a, G: Game> {
    solver: &'a TierSolver<'a, G>,
    best_exit: &'a [i8],
    counter: &'a [AtomicU8],
    value: &'a [AtomicI8],
}

impl<G: Game> Pass<'_, G> {
    /// Marks the undecided positions that threshold `t` decides without looking at their
    /// in-tier children's new values: an exit worth ≥ t (won), or exits all worth ≤ −t and
    /// every in-tier child already won for the opponent (lost). Returns them.
    fn seed(&self, t: i8) -> Vec<u64> {
        self.value
            .par_chunks(CHUNK)
            .enumerate()
            .flat_map_iter(|(chunk, values)| {
                let from = chunk * CHUNK;
                values.iter().enumerate().filter_map(move |(i, v)| {
                    let r = from + i;
                    if v.load(Relaxed) != 0 {
                        return None;
                    }
                    let b = self.best_exit[r];
                    let mark = if b >= t {
                        t
                    } else if b <= -t && self.counter[r].load(Relaxed) == 0 {
                        -t
                    } else {
                        return None;
                    };
                    v.store(mark, Relaxed);
                    Some(r as u64)
                })
            })
            .collect()
    }

    /// One layer of the retrograde propagation at threshold `t`: the parents that the
    /// positions of `frontier` decide, marked and returned.
    fn propagate(&self, t: i8, frontier: &[u64]) -> Result<Vec<u64>, SolveError> {
        let layers: Vec<Vec<u64>> = frontier
            .par_chunks(CHUNK / 16)
            .map_init(
                || (Vec::new(), Vec::new()),
                |(buffer, parents), chunk| {
                    let mut next = Vec::new();
                    for &r in chunk {
                        self.solver.parents(r, buffer, parents)?;
                        if self.value[r as usize].load(Relaxed) > 0 {
                            // The child's X-state is won: one fewer way out for each parent's Y-state.
                            for &q in parents.iter() {
                                let q = q as usize;
                                if self.value[q].load(Relaxed) != 0 {
                                    continue;
                                }
                                let left = self.counter[q].fetch_sub(1, Relaxed).checked_sub(1).ok_or_else(|| {
                                    SolveError::UnmoveNotAMove {
                                        tier: self.solver.err_tier(),
                                        position: format!(
                                            "{:?}",
                                            self.solver.game.position(Location::at(self.solver.tier, q as u64))
                                        ),
                                    }
                                })?;
                                if left == 0
                                    && self.best_exit[q] <= -t
                                    && self.value[q].compare_exchange(0, -t, Relaxed, Relaxed).is_ok()
                                {
                                    next.push(q as u64);
                                }
                            }
                        } else {
                            // The child's Y-state is lost: every parent's X-state moves there and wins.
                            for &p in parents.iter() {
                                if self.value[p as usize].compare_exchange(0, t, Relaxed, Relaxed).is_ok() {
                                    next.push(p);
                                }
                            }
                        }
                    }
                    Ok(next)
                },
            )
            .collect::<Result<_, SolveError>>()?;
        Ok(layers.concat())
    }
}
