//! Re-checking cyclic score tables against the rules: every stored value must equal the
//! best over its moves (exits probed in the lower tiers, in-tier moves worth the child's
//! negated stored value), or the rules' value where the mover has no move.
//!
//! **Not complete on its own.** With cycles inside a tier the local check admits wrong
//! but self-consistent labellings: on a cycle where each position's only moves are the
//! cycle's in-tier moves, any alternating values `v, −v, v, …` pass it, while the true
//! value is 0 (endless play). A pass proves the tables are *a* fixpoint of the move
//! equations, not the right one; exactness rests on the attractor argument of
//! [`crate::cyclic`] and on the suite's comparison with an independent solver on small
//! boards (`games/tests/awari_tables.rs`).

use super::{CyclicScoreGame, CyclicTables};
use crate::store::ProbeError;
use rayon::prelude::*;
use thiserror::Error;

#[derive(Debug, Error, PartialEq, Eq)]
pub enum CyclicVerifyError {
    #[error(transparent)]
    Probe(#[from] ProbeError),
    #[error("tier {tier}, rank {rank} ({position}): stored {stored}, but its moves give {expected}")]
    Wrong { tier: String, rank: u64, position: String, stored: i16, expected: i32 },
    #[error("tier {tier}, rank {rank} ({position}): not over, yet no move")]
    NoMove { tier: String, rank: u64, position: String },
}

/// The value a position must have given the stored values of its children: the rules'
/// value if the mover has no move, else the best worth over its moves. `None` if the
/// position is not over and has no move.
pub fn expected_value<G: CyclicScoreGame>(
    game: &G,
    tables: &CyclicTables<G>,
    position: &G::Position,
) -> Result<Option<i32>, ProbeError> {
    if let Some(v) = game.outcome(position) {
        return Ok(Some(v as i32));
    }
    let mut moves = Vec::new();
    game.moves(position, &mut moves);
    let mut best = None;
    for mv in &moves {
        let worth = mv.worth(tables.value(game, &mv.position)?) as i32;
        best = Some(best.map_or(worth, |b: i32| b.max(worth)));
    }
    Ok(best)
}

/// Checks every rank of `tier`; returns the number of positions checked.
pub fn verify_tier<G: CyclicScoreGame>(
    game: &G,
    tables: &CyclicTables<G>,
    tier: G::Tier,
) -> Result<u64, CyclicVerifyError> {
    let size = game.tier_size(tier);
    (0..size).into_par_iter().try_for_each(|rank| {
        let position = game.position(tier, rank);
        let stored = tables.probe(tier, rank)?;
        match expected_value(game, tables, &position)? {
            None => Err(CyclicVerifyError::NoMove { tier: tier.to_string(), rank, position: format!("{position:?}") }),
            Some(expected) if expected != stored as i32 => Err(CyclicVerifyError::Wrong {
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
