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

use super::CyclicScoreGame;
use crate::score::ScoreMove;
use crate::solve::Observer;
use crate::table::Table;
use crate::value::{code_score, score_code, Turn};
use rayon::prelude::*;
use thiserror::Error;

/// `best_exit` of a position without exits.
const NO_EXIT: i8 = i8::MIN;
/// Ranks handed to one rayon task at a time in the scan.
const CHUNK: usize = 1 << 14;

#[derive(Debug, Error, PartialEq, Eq)]
pub enum CyclicSolveError {
    #[error("tier {tier}: a move leads to tier {child}, which is neither this tier nor a finished child tier")]
    UnexpectedTier { tier: String, child: String },
    #[error("tier {tier}: a move leads to rank {rank} of tier {child}, past its end")]
    RankOutOfRange { tier: String, child: String, rank: u64 },
    #[error("tier {tier}: position {position} is not over but has no move")]
    NoMove { tier: String, position: String },
    #[error("tier {tier}: position {position} has a move inside the tier that gains or keeps the turn")]
    InTierGain { tier: String, position: String },
    #[error("tier {tier}: an un-move of {position} leaves the tier")]
    UnmoveOutsideTier { tier: String, position: String },
    #[error("tier {tier}: un-moves list {position} as a parent more often than it has moves inside the tier")]
    UnmoveNotAMove { tier: String, position: String },
    #[error("tier {tier}: position {position} has more than 255 distinct moves inside the tier")]
    TooManyChildren { tier: String, position: String },
    #[error("tier {tier}: a score of {score} does not fit this engine (−127..=127)")]
    ScoreRange { tier: String, score: i32 },
    #[error("tier {tier} has {size} positions, more than this machine's address space allows")]
    TooLarge { tier: String, size: u64 },
}

struct TierSolver<'a, G: CyclicScoreGame> {
    game: &'a G,
    tier: G::Tier,
    size: u64,
    children: Vec<(G::Tier, &'a Table)>,
}

impl<G: CyclicScoreGame> TierSolver<'_, G> {
    fn err_tier(&self) -> String {
        self.tier.to_string()
    }

    fn fits(&self, score: i32) -> Result<i8, CyclicSolveError> {
        match i8::try_from(score) {
            Ok(s) if s != NO_EXIT => Ok(s),
            _ => Err(CyclicSolveError::ScoreRange { tier: self.err_tier(), score }),
        }
    }

    /// `best_exit` and the number of distinct in-tier children of the position at `rank`.
    fn scan(
        &self,
        rank: u64,
        moves: &mut Vec<ScoreMove<G::Position>>,
        inside: &mut Vec<u64>,
    ) -> Result<(i8, u8), CyclicSolveError> {
        let position = self.game.position(self.tier, rank);
        if let Some(v) = self.game.outcome(&position) {
            return Ok((self.fits(v as i32)?, 0));
        }
        moves.clear();
        inside.clear();
        self.game.moves(&position, moves);
        if moves.is_empty() {
            return Err(CyclicSolveError::NoMove { tier: self.err_tier(), position: format!("{position:?}") });
        }
        let mut best = i32::MIN;
        for mv in moves.iter() {
            let (tier, child) = self.game.locate(&mv.position);
            if tier == self.tier {
                if mv.gain != 0 || mv.turn != Turn::Passes {
                    return Err(CyclicSolveError::InTierGain {
                        tier: self.err_tier(),
                        position: format!("{position:?}"),
                    });
                }
                if child >= self.size {
                    return Err(CyclicSolveError::RankOutOfRange {
                        tier: self.err_tier(),
                        child: tier.to_string(),
                        rank: child,
                    });
                }
                inside.push(child);
                continue;
            }
            let table =
                self.children.iter().find(|(t, _)| *t == tier).map(|&(_, table)| table).ok_or_else(|| {
                    CyclicSolveError::UnexpectedTier { tier: self.err_tier(), child: tier.to_string() }
                })?;
            let code = table.code(child).ok_or_else(|| CyclicSolveError::RankOutOfRange {
                tier: self.err_tier(),
                child: tier.to_string(),
                rank: child,
            })?;
            best = best.max(mv.worth(code_score(code)) as i32);
        }
        inside.sort_unstable();
        inside.dedup();
        let count = u8::try_from(inside.len()).map_err(|_| CyclicSolveError::TooManyChildren {
            tier: self.err_tier(),
            position: format!("{position:?}"),
        })?;
        let best = if best == i32::MIN { NO_EXIT } else { self.fits(best)? };
        Ok((best, count))
    }

    /// The distinct in-tier parents of the position at `rank`, into `parents`.
    fn parents(
        &self,
        rank: u64,
        buffer: &mut Vec<G::Position>,
        parents: &mut Vec<u64>,
    ) -> Result<(), CyclicSolveError> {
        let position = self.game.position(self.tier, rank);
        buffer.clear();
        parents.clear();
        self.game.unmoves(&position, buffer);
        for parent in buffer.iter() {
            let (tier, r) = self.game.locate(parent);
            if tier != self.tier || r >= self.size {
                return Err(CyclicSolveError::UnmoveOutsideTier {
                    tier: self.err_tier(),
                    position: format!("{position:?}"),
                });
            }
            parents.push(r);
        }
        parents.sort_unstable();
        parents.dedup();
        Ok(())
    }
}

/// Solves one tier whose lower child tiers are finished (`lower` finds their tables);
/// returns the tier's value codes ([`score_code`]) in rank order.
pub fn solve_tier<'a, G: CyclicScoreGame>(
    game: &'a G,
    tier: G::Tier,
    lower: &'a (dyn Fn(G::Tier) -> Option<&'a Table> + Sync),
    observer: &dyn Observer,
) -> Result<Vec<u16>, CyclicSolveError> {
    let size = game.tier_size(tier);
    let len = usize::try_from(size).map_err(|_| CyclicSolveError::TooLarge { tier: tier.to_string(), size })?;
    let children = game.child_tiers(tier).into_iter().filter_map(|t| lower(t).map(|table| (t, table))).collect();
    let solver = TierSolver { game, tier, size, children };

    // 1. Scan.
    let mut best_exit = vec![NO_EXIT; len];
    let mut counter = vec![0u8; len];
    best_exit.par_chunks_mut(CHUNK).zip(counter.par_chunks_mut(CHUNK)).enumerate().try_for_each_init(
        || (Vec::new(), Vec::new()),
        |(moves, inside), (chunk, (best, count))| {
            let from = (chunk * CHUNK) as u64;
            for (i, (b, c)) in best.iter_mut().zip(count.iter_mut()).enumerate() {
                (*b, *c) = solver.scan(from + i as u64, moves, inside)?;
            }
            // The scan is most of the work; the passes below are counted with it.
            observer.advanced(best.len() as u64);
            Ok(())
        },
    )?;

    // 2. Thresholds, largest first; 0 in `value` is "not marked".
    let top = best_exit.iter().filter(|&&b| b != NO_EXIT).map(|&b| (b as i32).abs()).max().unwrap_or(0);
    let mut value = vec![0i8; len];
    let mut stack: Vec<u64> = Vec::new();
    let (mut buffer, mut parents) = (Vec::new(), Vec::new());
    for t in (1..=top as i8).rev() {
        for r in 0..len {
            if value[r] != 0 {
                continue;
            }
            let b = best_exit[r];
            if b >= t {
                value[r] = t;
                stack.push(r as u64);
            } else if b <= -t && counter[r] == 0 {
                value[r] = -t;
                stack.push(r as u64);
            }
        }
        while let Some(r) = stack.pop() {
            solver.parents(r, &mut buffer, &mut parents)?;
            if value[r as usize] > 0 {
                // The child's X-state is won: one fewer way out for each parent's Y-state.
                for &q in &parents {
                    let q = q as usize;
                    if value[q] != 0 {
                        continue;
                    }
                    counter[q] = counter[q].checked_sub(1).ok_or_else(|| CyclicSolveError::UnmoveNotAMove {
                        tier: solver.err_tier(),
                        position: format!("{:?}", game.position(tier, q as u64)),
                    })?;
                    if counter[q] == 0 && best_exit[q] <= -t {
                        value[q] = -t;
                        stack.push(q as u64);
                    }
                }
            } else {
                // The child's Y-state is lost: every parent's X-state moves there and wins.
                for &p in &parents {
                    if value[p as usize] == 0 {
                        value[p as usize] = t;
                        stack.push(p);
                    }
                }
            }
        }
    }
    // 3. The rest is endless play: 0.
    Ok(value.into_iter().map(|v| score_code(v as i16)).collect())
}
