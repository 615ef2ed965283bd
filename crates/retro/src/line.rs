//! Reading play out of the tables: the value of each move and the principal line.

use crate::game::{Game, Successor};
use crate::store::{ProbeError, TableSet};
use crate::value::Value;

/// How a principal line stops.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LineEnd {
    /// The game is over at the last position.
    Over(Value),
    /// The last position repeats the one at this index: play goes round for ever.
    Cycle(usize),
    /// The line was cut at the length asked for.
    Cut,
}

/// A line of play: positions from the given one on, and how it ends.
#[derive(Debug, Clone)]
pub struct Line<P> {
    pub positions: Vec<P>,
    pub end: LineEnd,
}

/// Each successor of `position` with the value it gives the player to move there.
pub fn successor_values<G: Game>(
    game: &G,
    tables: &TableSet<G>,
    position: &G::Position,
) -> Result<Vec<(Successor<G::Position>, Value)>, ProbeError> {
    let mut successors = Vec::new();
    if game.outcome(position).is_none() {
        game.successors(position, &mut successors);
    }
    successors
        .into_iter()
        .map(|s| {
            let v = tables.value(game, &s.position)?.before(s.turn);
            Ok((s, v))
        })
        .collect()
}

/// The index of the best successor: the first, in the game's move order, of those
/// with the best value.
pub fn best_successor(values: &[(impl Sized, Value)]) -> Option<usize> {
    let best = values.iter().map(|(_, v)| *v).max()?;
    values.iter().position(|(_, v)| *v == best)
}

/// Play the best move from `position` on until the game ends, a position repeats, or
/// `max_plies` moves are played.
pub fn principal_line<G: Game>(
    game: &G,
    tables: &TableSet<G>,
    position: &G::Position,
    max_plies: usize,
) -> Result<Line<G::Position>, ProbeError> {
    let mut positions = vec![position.clone()];
    loop {
        let here = positions.last().expect("a line starts with a position");
        if let Some(v) = game.outcome(here) {
            return Ok(Line { positions, end: LineEnd::Over(v) });
        }
        if positions.len() > max_plies {
            return Ok(Line { positions, end: LineEnd::Cut });
        }
        let values = successor_values(game, tables, here)?;
        let Some(best) = best_successor(&values) else {
            return Ok(Line { positions, end: LineEnd::Cut });
        };
        let next = values[best].0.position.clone();
        if let Some(i) = positions.iter().position(|p| *p == next) {
            positions.push(next);
            return Ok(Line { positions, end: LineEnd::Cycle(i) });
        }
        positions.push(next);
    }
}
