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

/// The value each successor gives the player who moves into it.
pub fn move_values<'a, G: Game>(
    game: &G,
    tables: &TableSet<G>,
    successors: impl IntoIterator<Item = &'a Successor<G::Position>>,
) -> Result<Vec<Value>, ProbeError>
where
    G::Position: 'a,
{
    successors.into_iter().map(|s| Ok(tables.value(game, &s.position)?.before(s.turn))).collect()
}

/// The index of the best move: the first, in the game's move order, of those with the
/// best value.
pub fn best_move(values: &[Value]) -> Option<usize> {
    let best = values.iter().max()?;
    values.iter().position(|v| v == best)
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
        let mut successors = Vec::new();
        game.successors(here, &mut successors);
        let values = move_values(game, tables, &successors)?;
        let Some(best) = best_move(&values) else {
            return Ok(Line { positions, end: LineEnd::Cut });
        };
        let next = successors.swap_remove(best).position;
        if let Some(i) = positions.iter().position(|p| *p == next) {
            positions.push(next);
            return Ok(Line { positions, end: LineEnd::Cycle(i) });
        }
        positions.push(next);
    }
}
