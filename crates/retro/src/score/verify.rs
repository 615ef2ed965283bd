//! Re-checking score tables against the rules: every stored value must equal the best
//! over its moves (or the outcome, where the game is over).
//!
//! The local check is complete for tiers whose inner moves form a DAG: if every value
//! equals the best over its children, then by induction along the DAG (and over tiers,
//! lowest first) every value is the true minimax value, since the values at the DAG's
//! sinks are the outcomes of finished games.

use super::{ScoreGame, ScoreTables};
use crate::store::ProbeError;
use rayon::prelude::*;
use thiserror::Error;

#[derive(Debug, Error, PartialEq, Eq)]
pub enum ScoreVerifyError {
    #[error(transparent)]
    Probe(#[from] ProbeError),
    #[error("tier {tier}, rank {rank} ({position}): stored {stored}, but its moves give {expected}")]
    Wrong { tier: String, rank: u64, position: String, stored: i16, expected: i32 },
    #[error("tier {tier}, rank {rank} ({position}): not over, yet no move")]
    NoMove { tier: String, rank: u64, position: String },
}

/// The value a position must have given its children's stored values: its outcome if the
/// game is over, else the best worth over its moves. `None` if not over and no move.
pub fn expected_value<G: ScoreGame>(
    game: &G,
    tables: &ScoreTables<G>,
    position: &G::Position,
) -> Result<Option<i32>, ProbeError> {
    if let Some(v) = game.outcome(position) {
        return Ok(Some(v as i32));
    }
    let mut moves = Vec::new();
    game.moves(position, &mut moves);
    let mut best = None;
    for mv in &moves {
        let child = tables.value(game, &mv.position)?;
        let worth = mv.worth(child) as i32;
        best = Some(best.map_or(worth, |b: i32| b.max(worth)));
    }
    Ok(best)
}

/// Checks every rank of `tier`; returns the number of positions checked.
pub fn verify_tier<G: ScoreGame>(game: &G, tables: &ScoreTables<G>, tier: G::Tier) -> Result<u64, ScoreVerifyError> {
    let size = game.tier_size(tier);
    (0..size).into_par_iter().try_for_each(|rank| {
        let position = game.position(tier, rank);
        let stored = tables.probe(tier, rank)?;
        match expected_value(game, tables, &position)? {
            None => Err(ScoreVerifyError::NoMove { tier: tier.to_string(), rank, position: format!("{position:?}") }),
            Some(expected) if expected != stored as i32 => Err(ScoreVerifyError::Wrong {
                tier: tier.to_string(),
                rank,
                position: format!("{position:?}"),
                stored,
                expected,
            }),
            Some(_) => Ok(()),
        }
    })?;
    Ok(size)
}
