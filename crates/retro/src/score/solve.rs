//! Solving one tier of a score game: a memoised depth-first evaluation.
//!
//! Every rank is evaluated from its moves: a move into a lower tier is one probe of that
//! tier's finished table; a move inside the tier needs the child's value first, so the
//! child is evaluated before its parent (an explicit stack, not recursion, so long chains
//! cannot overflow a thread's stack). Because the moves inside a tier form a DAG, every
//! chain ends, and each value is final the moment it is written.
//!
//! Threads take chunks of ranks (rayon). Two threads may meet on the same child and
//! both evaluate it; they compute the same number, so the duplicate store is harmless
//! and no locking is needed: a value slot is an `AtomicU16` holding the zigzag code, or
//! [`UNKNOWN`] until written.
//!
//! A chain inside the tier longer than the tier has positions must revisit one: the
//! moves are not a DAG, and the tier is refused with [`ScoreSolveError::Cycle`].

use super::{ScoreGame, ScoreMove};
use crate::solve::Observer;
use crate::table::Table;
use crate::value::{code_score, score_code};
use rayon::prelude::*;
use std::sync::atomic::{AtomicU16, Ordering::Relaxed};
use thiserror::Error;

/// A value slot not yet written (no score reaches this zigzag code).
const UNKNOWN: u16 = u16::MAX;
/// Ranks handed to one rayon task at a time.
const CHUNK: u64 = 1 << 14;

#[derive(Debug, Error, PartialEq, Eq)]
pub enum ScoreSolveError {
    #[error("tier {tier}: a move leads to tier {child}, which is neither this tier nor a finished child tier")]
    UnexpectedTier { tier: String, child: String },
    #[error("tier {tier}: a move leads to rank {rank} of tier {child}, past its end")]
    RankOutOfRange { tier: String, child: String, rank: u64 },
    #[error("tier {tier}: position {position} is not over but has no move")]
    NoMove { tier: String, position: String },
    #[error("tier {tier}: the moves inside the tier come back to a position; this engine needs them acyclic")]
    Cycle { tier: String },
    #[error("tier {tier}: a score of {score} does not fit the table codes")]
    ScoreRange { tier: String, score: i32 },
    #[error("tier {tier} has {size} positions, more than this machine's address space allows")]
    TooLarge { tier: String, size: u64 },
}

/// One position being evaluated: its rank, its moves, the next move to look at, and the
/// best worth so far.
struct Frame<P> {
    rank: u64,
    moves: Vec<ScoreMove<P>>,
    next: usize,
    best: i32,
}

struct TierSolver<'a, G: ScoreGame> {
    game: &'a G,
    tier: G::Tier,
    values: Vec<AtomicU16>,
    lower: &'a (dyn Fn(G::Tier) -> Option<&'a Table> + Sync),
}

impl<G: ScoreGame> TierSolver<'_, G> {
    fn error_tier(&self) -> String {
        self.tier.to_string()
    }

    fn code_of(&self, score: i32) -> Result<u16, ScoreSolveError> {
        match i16::try_from(score) {
            Ok(s) if score_code(s) != UNKNOWN => Ok(score_code(s)),
            _ => Err(ScoreSolveError::ScoreRange { tier: self.error_tier(), score }),
        }
    }

    /// A frame for `rank`, or its value at once if the game is over there.
    fn open(
        &self,
        rank: u64,
        spare: Vec<ScoreMove<G::Position>>,
    ) -> Result<Result<Frame<G::Position>, i32>, ScoreSolveError> {
        let position = self.game.position(self.tier, rank);
        if let Some(v) = self.game.outcome(&position) {
            return Ok(Err(v as i32));
        }
        let mut moves = spare;
        moves.clear();
        self.game.moves(&position, &mut moves);
        if moves.is_empty() {
            return Err(ScoreSolveError::NoMove { tier: self.error_tier(), position: format!("{position:?}") });
        }
        Ok(Ok(Frame { rank, moves, next: 0, best: i32::MIN }))
    }

    /// Evaluates `root` and every unevaluated same-tier position it depends on.
    fn evaluate(
        &self,
        root: u64,
        stack: &mut Vec<Frame<G::Position>>,
        spares: &mut Vec<Vec<ScoreMove<G::Position>>>,
    ) -> Result<(), ScoreSolveError> {
        if self.values[root as usize].load(Relaxed) != UNKNOWN {
            return Ok(());
        }
        let limit = self.values.len();
        match self.open(root, spares.pop().unwrap_or_default())? {
            Err(v) => {
                self.values[root as usize].store(self.code_of(v)?, Relaxed);
                return Ok(());
            }
            Ok(frame) => stack.push(frame),
        }
        while let Some(frame) = stack.last_mut() {
            if let Some(mv) = frame.moves.get(frame.next) {
                let (tier, rank) = self.game.locate(&mv.position);
                let child = if tier == self.tier {
                    let code = self.values.get(rank as usize).ok_or_else(|| ScoreSolveError::RankOutOfRange {
                        tier: self.error_tier(),
                        child: tier.to_string(),
                        rank,
                    })?;
                    let code = code.load(Relaxed);
                    if code == UNKNOWN {
                        if stack.len() > limit {
                            return Err(ScoreSolveError::Cycle { tier: self.error_tier() });
                        }
                        match self.open(rank, spares.pop().unwrap_or_default())? {
                            Err(v) => self.values[rank as usize].store(self.code_of(v)?, Relaxed),
                            Ok(child) => stack.push(child),
                        }
                        // Either the child's value is written now or it is on the stack;
                        // this move is looked at again when the child is done.
                        continue;
                    }
                    code_score(code)
                } else {
                    let table = (self.lower)(tier).ok_or_else(|| ScoreSolveError::UnexpectedTier {
                        tier: self.error_tier(),
                        child: tier.to_string(),
                    })?;
                    let code = table.code(rank).ok_or_else(|| ScoreSolveError::RankOutOfRange {
                        tier: self.error_tier(),
                        child: tier.to_string(),
                        rank,
                    })?;
                    code_score(code)
                };
                frame.best = frame.best.max(mv.worth(child) as i32);
                frame.next += 1;
            } else {
                let done = stack.pop().expect("the loop holds a frame");
                self.values[done.rank as usize].store(self.code_of(done.best)?, Relaxed);
                spares.push(done.moves);
            }
        }
        Ok(())
    }
}

/// Solves one tier whose lower child tiers are finished (`lower` finds their tables);
/// returns the tier's value codes in rank order.
pub fn solve_tier<'a, G: ScoreGame>(
    game: &'a G,
    tier: G::Tier,
    lower: &'a (dyn Fn(G::Tier) -> Option<&'a Table> + Sync),
    observer: &dyn Observer,
) -> Result<Vec<u16>, ScoreSolveError> {
    let size = game.tier_size(tier);
    let len = usize::try_from(size).map_err(|_| ScoreSolveError::TooLarge { tier: tier.to_string(), size })?;
    let solver = TierSolver { game, tier, values: (0..len).map(|_| AtomicU16::new(UNKNOWN)).collect(), lower };
    let chunks = size.div_ceil(CHUNK);
    (0..chunks).into_par_iter().try_for_each_init(
        || (Vec::new(), Vec::new()),
        |(stack, spares), chunk| {
            let (from, to) = (chunk * CHUNK, ((chunk + 1) * CHUNK).min(size));
            for rank in from..to {
                solver.evaluate(rank, stack, spares)?;
            }
            observer.advanced(to - from);
            Ok(())
        },
    )?;
    // Same size and alignment: the conversion reuses the allocation.
    Ok(solver.values.into_iter().map(AtomicU16::into_inner).collect())
}
