//! The table verifier, for every kind of value: every stored value must equal the best
//! worth over its moves, or the rules' value where the game is over.
//!
//! **Outcomes with distance: the local check is complete.** A wrong win or loss implies a
//! wrong value at a smaller distance (the child it was derived from, or the one that
//! refutes it), and so on down to distance 0, where values come from the rules and are
//! checked directly; a wrong draw implies a wrong value among its children in the same
//! way. So a table that passes everywhere holds the true values.
//!
//! **Values whose in-tier moves form a DAG ([`Engine::Acyclic`]): complete too.** If every
//! value equals the best over its children, then by induction along the DAG (and over
//! tiers, lowest first) every value is the true minimax value, since the values at the
//! DAG's sinks are the outcomes of finished games.
//!
//! **Scores with cycles ([`Engine::CyclicScore`]): not complete on its own.** On a cycle
//! whose positions' only moves are the cycle's in-tier moves, any alternating values
//! `v, −v, v, …` pass it, while the true value is 0 (endless play). A pass proves the
//! tables are *a* fixpoint of the move equations, not the right one; exactness rests on
//! the attractor argument of [`crate::cyclic`] and on the suite's comparison with an
//! independent solver on small boards (`games/tests/awari_tables.rs`).
//!
//! [`Engine::Acyclic`]: crate::game::Engine::Acyclic
//! [`Engine::CyclicScore`]: crate::game::Engine::CyclicScore

use crate::game::{Game, Location, Move};
use crate::store::{ProbeError, Tables};
use crate::value::TableValue;
use rayon::prelude::*;
use thiserror::Error;

/// What the verifier found wrong.
#[derive(Debug, Error)]
pub enum VerifyError {
    /// A stored value differs from the best over its moves.
    #[error("tier {tier}, rank {rank}: stored {stored}, but its moves give {expected}: {position}")]
    Wrong {
        /// The tier, by name.
        tier: String,
        /// The rank.
        rank: u64,
        /// The position, in notation.
        position: String,
        /// The stored value.
        stored: String,
        /// The value its moves give.
        expected: String,
    },
    /// A value could not be read.
    // The cause is a field, not a `source`: the message says it once.
    #[error("tier {tier}, rank {rank}: {error}")]
    Probe {
        /// The tier, by name.
        tier: String,
        /// The rank.
        rank: u64,
        /// The cause.
        error: ProbeError,
    },
    /// A stored value whose code is past the bound the game gives for its tier
    /// ([`Game::largest_code`]).
    #[error("tier {tier}, rank {rank}: stored {stored}, code {code}, past the game's bound {bound}: {position}")]
    PastBound {
        /// The tier, by name.
        tier: String,
        /// The rank.
        rank: u64,
        /// The position, in notation.
        position: String,
        /// The stored value.
        stored: String,
        /// Its code.
        code: u16,
        /// The game's bound.
        bound: u16,
    },
    /// A position that is not over has no move.
    #[error("tier {tier}, rank {rank}: not over, yet no move: {position}")]
    NoMove {
        /// The tier, by name.
        tier: String,
        /// The rank.
        rank: u64,
        /// The position, in notation.
        position: String,
    },
}

/// The value a position must have given the stored values of its children: the rules'
/// value if the game is over, else the best worth over its moves; `None` if it is not
/// over and has no move.
pub fn expected_value<G: Game>(
    game: &G,
    tables: &Tables<G>,
    position: &G::Position,
    moves: &mut Vec<Move<G::Position>>,
) -> Result<Option<G::Value>, ProbeError> {
    if let Some(v) = game.end(position) {
        return Ok(Some(v));
    }
    moves.clear();
    game.moves(position, moves);
    let mut best: Option<G::Value> = None;
    for m in moves.iter() {
        let worth = G::Value::worth(tables.value(game, &m.position)?, m.gain, m.turn);
        best = Some(best.map_or(worth, |b| b.max(worth)));
    }
    Ok(best)
}

/// Checks every position of `tier` (whose table, and its children's, are in `tables`).
/// Returns the number of positions checked, or the fault at the lowest rank.
pub fn verify_tier<G: Game>(game: &G, tables: &Tables<G>, tier: G::Tier) -> Result<u64, VerifyError> {
    let size = game.tier_size(tier);
    let bound = game.largest_code(tier);
    let chunk = 1u64 << 14;
    let chunks = size.div_ceil(chunk);
    let fault = (0..chunks)
        .into_par_iter()
        .map(|c| {
            let mut moves = Vec::new();
            for rank in c * chunk..((c + 1) * chunk).min(size) {
                let position = game.position(Location::at(tier, rank));
                let here = |error| VerifyError::Probe { tier: tier.to_string(), rank, error };
                let stored = tables.probe(tier, rank).map_err(here)?;
                let expected = expected_value(game, tables, &position, &mut moves).map_err(here)?.ok_or_else(|| {
                    VerifyError::NoMove { tier: tier.to_string(), rank, position: position.to_string() }
                })?;
                if stored != expected {
                    return Err(VerifyError::Wrong {
                        tier: tier.to_string(),
                        rank,
                        position: position.to_string(),
                        stored: stored.to_string(),
                        expected: expected.to_string(),
                    });
                }
                if let Some(bound) = bound.filter(|&bound| stored.code() > bound) {
                    return Err(VerifyError::PastBound {
                        tier: tier.to_string(),
                        rank,
                        position: position.to_string(),
                        stored: stored.to_string(),
                        code: stored.code(),
                        bound,
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
