//! The principal line of a search: from the root, moves that each make the value of the
//! position they are played from, as far as the values proven lead.

use super::node::{Known, Searcher};
use super::scale::Scale;
use super::SearchError;
use retro::{Game, Move, TableValue};
use std::collections::HashSet;

/// Plies a line holds at most.
pub const MOST_PLIES: usize = 1000;

/// The line from `root` that starts with `first`, a move of the root's value: then, from
/// each position whose value is proven, the first move (the stored best first) whose
/// child's proven value makes it; from a position of a built tier, the tables' line
/// ([`retro::line::principal_line`]). It stops where the game ends, where a position
/// repeats, or where no proven value leads on.
pub(super) fn principal_line<G: Game>(
    searcher: &mut Searcher<'_, G>,
    root: &G::Position,
    first: &Move<G::Position>,
) -> Result<Vec<Move<G::Position>>, SearchError>
where
    G::Value: Scale,
{
    let mut line = vec![first.clone()];
    let mut seen = HashSet::from([root.clone()]);
    let mut here = first.position.clone();
    while line.len() < MOST_PLIES && seen.insert(here.clone()) {
        let value = match searcher.known(&here)? {
            Some(Known::Over(_)) => break,
            Some(Known::Table(_)) => {
                let rest = retro::line::principal_line(searcher.game, searcher.tables, &here, MOST_PLIES - line.len())?;
                line.extend(rest.moves);
                break;
            }
            None => match searcher.stored(&here) {
                (lower, upper, _) if lower == upper => lower,
                _ => break,
            },
        };
        let Some(step) = making_move(searcher, &here, value)? else { break };
        here = step.position.clone();
        line.push(step);
    }
    Ok(line)
}

/// The first move of `position` (the stored best first) whose child's proven value makes
/// `value`.
fn making_move<G: Game>(
    searcher: &mut Searcher<'_, G>,
    position: &G::Position,
    value: G::Value,
) -> Result<Option<Move<G::Position>>, SearchError>
where
    G::Value: Scale,
{
    let mut moves = Vec::new();
    // A position of proven value has no undecided move that could make it.
    searcher.game.moves_decided(position, &mut moves);
    let (_, _, best) = searcher.stored(position);
    let best = best.map(usize::from).filter(|&b| b < moves.len());
    for i in best.into_iter().chain((0..moves.len()).filter(|&i| Some(i) != best)) {
        let m = &moves[i];
        let child = match searcher.known(&m.position)? {
            Some(Known::Over(v) | Known::Table(v)) => v,
            None => match searcher.stored(&m.position) {
                (lower, upper, _) if lower == upper => lower,
                _ => continue,
            },
        };
        if G::Value::worth(child, m.gain, m.turn) == value {
            return Ok(Some(m.clone()));
        }
    }
    Ok(None)
}
