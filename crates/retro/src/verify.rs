//! The table verifier: every stored value must equal the best value over its successors.
//!
//! This local check is complete. A wrong win or loss implies a wrong value at a smaller
//! distance (the successor it was derived from, or the one that refutes it), and so on
//! down to distance 0, where values come from the rules and are checked directly; a wrong
//! draw implies a wrong value among its successors in the same way. So a table that
//! passes everywhere holds the true values.

use crate::game::{Game, Location};
use crate::store::{ProbeError, TableSet};
use crate::value::Value;
use rayon::prelude::*;
use thiserror::Error;

#[derive(Debug, Error)]
pub enum VerifyError {
    #[error("tier {tier}, rank {rank}: stored {stored}, but its successors give {expected}: {position}")]
    Wrong { tier: String, rank: u64, position: String, stored: Value, expected: Value },
    #[error("tier {tier}, rank {rank}: {source}")]
    Probe { tier: String, rank: u64, source: ProbeError },
    #[error("tier {tier}, rank {rank}: not over, yet no move")]
    NoMove { tier: String, rank: u64 },
}

/// The value a position must have given the stored values of its successors.
pub fn expected_value<G: Game>(
    game: &G,
    tables: &TableSet<G>,
    position: &G::Position,
    successors: &mut Vec<crate::game::Successor<G::Position>>,
) -> Result<Option<Value>, ProbeError> {
    if let Some(v) = game.outcome(position) {
        return Ok(Some(v));
    }
    successors.clear();
    game.successors(position, successors);
    let mut best: Option<Value> = None;
    for s in successors.iter() {
        let v = tables.value(game, &s.position)?.before(s.turn);
        best = Some(best.map_or(v, |b| b.best(v)));
    }
    Ok(best)
}

/// Checks every position of `tier` (whose table, and its children's, are in `tables`).
/// Returns the number of positions checked, or the fault at the lowest rank.
pub fn verify_tier<G: Game>(game: &G, tables: &TableSet<G>, tier: G::Tier) -> Result<u64, VerifyError> {
    let size = game.tier_size(tier);
    let chunk = 1u64 << 14;
    let chunks = size.div_ceil(chunk);
    let fault = (0..chunks)
        .into_par_iter()
        .map(|c| {
            let mut successors = Vec::new();
            for rank in c * chunk..((c + 1) * chunk).min(size) {
                let position = game.position(Location { tier, rank, orientation: 0 });
                let here = |source| VerifyError::Probe { tier: tier.to_string(), rank, source };
                let stored = tables.value(game, &position).map_err(here)?;
                let expected = expected_value(game, tables, &position, &mut successors)
                    .map_err(here)?
                    .ok_or_else(|| VerifyError::NoMove { tier: tier.to_string(), rank })?;
                if stored != expected {
                    return Err(VerifyError::Wrong {
                        tier: tier.to_string(),
                        rank,
                        position: position.to_string(),
                        stored,
                        expected,
                    });
                }
            }
            Ok(())
        })
        .find_first(|r| r.is_err());
    match fault {
        Some(Err(e)) => Err(e),
        _ => Ok(size),
    }
}
