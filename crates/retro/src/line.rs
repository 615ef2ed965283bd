//! Reading play out of the tables, for every kind of value: the worth of each move and
//! the principal line.

use crate::game::{Game, Move};
use crate::store::{ProbeError, Tables};
use crate::value::TableValue;
use thiserror::Error;

/// How a principal line stops.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LineEnd<V> {
    /// The game is over at the last position, with this value for its mover.
    Over(V),
    /// The last position repeats the one at this index: play goes round for ever.
    Cycle(usize),
    /// The line was cut at the length asked for.
    Cut,
}

/// A line of play: positions from the given one on, and how it ends.
#[derive(Debug, Clone)]
pub struct Line<P, V> {
    /// The positions, the first the one asked about.
    pub positions: Vec<P>,
    /// How the line stops.
    pub end: LineEnd<V>,
}

/// Why no line can be read.
#[derive(Debug, Error, PartialEq, Eq)]
pub enum LineError {
    /// A table could not be read.
    #[error(transparent)]
    Probe(#[from] ProbeError),
    /// No move reaches a position's stored value: the tables do not hold this game's values.
    #[error("no move reaches the stored value {stored} of {position}: the tables are damaged")]
    Damaged {
        /// The position, in notation.
        position: String,
        /// Its stored value.
        stored: String,
    },
}

/// The worth of each move to the player who makes it.
pub fn move_values<'a, G: Game>(
    game: &G,
    tables: &Tables<G>,
    moves: impl IntoIterator<Item = &'a Move<G::Position>>,
) -> Result<Vec<G::Value>, ProbeError>
where
    G::Position: 'a,
{
    moves.into_iter().map(|m| Ok(G::Value::worth(tables.value(game, &m.position)?, m.gain, m.turn))).collect()
}

/// The index of the best move: the first, in the game's move order, of those with the
/// best worth.
pub fn best_move<V: Ord>(values: &[V]) -> Option<usize> {
    let best = values.iter().max()?;
    values.iter().position(|v| v == best)
}

/// Play from `position` on, each time the first move (in the game's move order) whose
/// worth is the stored value, until the game ends, a position repeats, or `max_plies`
/// moves are played. A position none of whose moves reaches its stored value is an error:
/// the tables do not hold the values of this game.
pub fn principal_line<G: Game>(
    game: &G,
    tables: &Tables<G>,
    position: &G::Position,
    max_plies: usize,
) -> Result<Line<G::Position, G::Value>, LineError> {
    let mut positions = vec![position.clone()];
    loop {
        let here = positions.last().expect("a line starts with a position");
        if let Some(v) = game.end(here) {
            return Ok(Line { positions, end: LineEnd::Over(v) });
        }
        if positions.len() > max_plies {
            return Ok(Line { positions, end: LineEnd::Cut });
        }
        let stored = tables.value(game, here)?;
        let mut moves = Vec::new();
        game.moves(here, &mut moves);
        let values = move_values(game, tables, &moves)?;
        let Some(best) = values.iter().position(|&v| v == stored) else {
            return Err(LineError::Damaged { position: here.to_string(), stored: stored.to_string() });
        };
        let next = moves.swap_remove(best).position;
        if let Some(i) = positions.iter().position(|p| *p == next) {
            positions.push(next);
            return Ok(Line { positions, end: LineEnd::Cycle(i) });
        }
        positions.push(next);
    }
}
