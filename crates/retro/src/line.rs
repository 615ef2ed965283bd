//! Reading play out of the tables, for every kind of value: the worth of each move and
//! the principal line.

use crate::game::{Engine, Game, Move};
use crate::store::{ProbeError, Tables};
use crate::value::TableValue;
use std::collections::HashSet;
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

/// A line of play: positions from the given one on, the moves between them, and how it
/// ends.
#[derive(Debug, Clone)]
pub struct Line<P, V> {
    /// The positions, the first the one asked about.
    pub positions: Vec<P>,
    /// The moves played: `moves[i]` leads from `positions[i]` to `positions[i + 1]` (two
    /// moves may reach one position with different gains, so the positions alone do not
    /// name them).
    pub moves: Vec<Move<P>>,
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
    /// A position of a tier with cycles is worth more or less than endless play, yet no
    /// line of best moves leaves its tier: a labelling the local check cannot tell from
    /// the true one (`crate::cyclic`), and wrong.
    #[error(
        "{position} is worth {stored}, but no line of best moves from it leaves its tier, as a value other than \
         endless play's needs: the tables are damaged"
    )]
    NoWayOut {
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

/// How many positions [`principal_line`] looks through, in one tier with cycles, for the
/// nearest way out of it before it cuts the line instead.
pub const MOST_POSITIONS_SEARCHED: usize = 1 << 18;

/// Play from `position` on, each time the first move (in the game's move order) whose
/// worth is the stored value, until the game ends, a position repeats, or `max_plies`
/// moves are played. A position none of whose moves reaches its stored value is an error:
/// the tables do not hold the values of this game.
///
/// In a tier with cycles ([`Engine::CyclicScore`]) a position worth anything but endless
/// play's 0 must leave the tier for its value to be made, yet its best moves inside the
/// tier may go round a cycle that would score 0. There the line follows the shortest
/// path of best moves to a best move out of the tier (a search of at most
/// [`MOST_POSITIONS_SEARCHED`] positions; past that the line is cut). A position worth 0
/// there keeps the first best move: endless play is what it is worth.
pub fn principal_line<G: Game>(
    game: &G,
    tables: &Tables<G>,
    position: &G::Position,
    max_plies: usize,
) -> Result<Line<G::Position, G::Value>, LineError> {
    let mut line = Line { positions: vec![position.clone()], moves: Vec::new(), end: LineEnd::Cut };
    loop {
        let here = line.positions.last().expect("a line starts with a position").clone();
        if let Some(v) = game.end(&here) {
            line.end = LineEnd::Over(v);
            return Ok(line);
        }
        if line.moves.len() >= max_plies {
            return Ok(line);
        }
        let stored = tables.value(game, &here)?;
        let tier = game.locate(&here).tier;
        let steps = if game.engine(tier) == Engine::CyclicScore && stored != G::Value::ENDLESS {
            match way_out(game, tables, &here, tier)? {
                Some(steps) => steps,
                None => return Ok(line),
            }
        } else {
            vec![best_moves(game, tables, &here, stored)?.swap_remove(0)]
        };
        for step in steps {
            if line.moves.len() >= max_plies {
                return Ok(line);
            }
            let repeats = line.positions.iter().position(|p| *p == step.position);
            line.positions.push(step.position.clone());
            line.moves.push(step);
            if let Some(i) = repeats {
                line.end = LineEnd::Cycle(i);
                return Ok(line);
            }
        }
    }
}

/// The moves of `position` whose worth is its `stored` value, in the game's order; an
/// error if there are none.
fn best_moves<G: Game>(
    game: &G,
    tables: &Tables<G>,
    position: &G::Position,
    stored: G::Value,
) -> Result<Vec<Move<G::Position>>, LineError> {
    let mut moves = Vec::new();
    game.moves(position, &mut moves);
    let values = move_values(game, tables, &moves)?;
    let best: Vec<_> = moves.into_iter().zip(values).filter(|&(_, v)| v == stored).map(|(m, _)| m).collect();
    if best.is_empty() {
        return Err(LineError::Damaged { position: position.to_string(), stored: stored.to_string() });
    }
    Ok(best)
}

/// A position [`way_out`] met: where from, and by which move (none for the first).
struct Met<P> {
    position: P,
    from: usize,
    by: Option<Move<P>>,
}

/// From `start`, in `tier`, the best moves of the shortest path of best moves to a
/// position that ends the game or has a best move out of the tier, that move included
/// (breadth first); `None` past [`MOST_POSITIONS_SEARCHED`] positions.
fn way_out<G: Game>(
    game: &G,
    tables: &Tables<G>,
    start: &G::Position,
    tier: G::Tier,
) -> Result<Option<Vec<Move<G::Position>>>, LineError> {
    let mut met = vec![Met { position: start.clone(), from: 0, by: None }];
    let mut seen = HashSet::from([start.clone()]);
    let path_to = |met: &[Met<G::Position>], mut i: usize| {
        let mut steps = Vec::new();
        while let Some(step) = &met[i].by {
            steps.push(step.clone());
            i = met[i].from;
        }
        steps.reverse();
        steps
    };
    let mut next = 0;
    while next < met.len() {
        let here = met[next].position.clone();
        if game.end(&here).is_some() {
            return Ok(Some(path_to(&met, next)));
        }
        let best = best_moves(game, tables, &here, tables.value(game, &here)?)?;
        if let Some(out) = best.iter().find(|m| game.locate(&m.position).tier != tier) {
            let mut steps = path_to(&met, next);
            steps.push(out.clone());
            return Ok(Some(steps));
        }
        for step in best {
            if seen.insert(step.position.clone()) {
                met.push(Met { position: step.position.clone(), from: next, by: Some(step) });
            }
        }
        if met.len() > MOST_POSITIONS_SEARCHED {
            return Ok(None);
        }
        next += 1;
    }
    let stored = tables.value(game, start)?;
    Err(LineError::NoWayOut { position: start.to_string(), stored: stored.to_string() })
}
