//! Plain forward solvers, independent of ranks, un-moves and tables: the oracles the
//! retrograde engines are tested against on small instances.
//!
//! [`solve_reachable`] (outcomes with distance) builds the explicit graph of positions
//! reachable from a start, then fixes values by distance: level 0 are the finished games; a position is a win at level `k` if a
//! move gives it a win in `k` plies, a loss at level `k` if every move is fixed
//! and the slowest gives a loss in `k`. Nothing new can appear after an empty level, and
//! what is left unfixed is a draw.

//!
//! [`score_reachable`] (scores) iterates values on the explicit graph, tier by tier.

use crate::game::Game;
use crate::order::{tier_order_by, CycleError};
use crate::value::{TableValue, Turn, Value};
use std::collections::HashMap;

/// The value of every position reachable from `start`.
pub fn solve_reachable<G: Game<Value = Value>>(game: &G, start: &G::Position) -> HashMap<G::Position, Value> {
    let mut ids: HashMap<G::Position, usize> = HashMap::new();
    let mut nodes: Vec<G::Position> = Vec::new();
    let mut edges: Vec<Vec<(usize, Turn)>> = Vec::new();
    let mut over: Vec<Option<Value>> = Vec::new();
    ids.insert(start.clone(), 0);
    nodes.push(start.clone());
    let mut next = 0;
    let mut successors = Vec::new();
    while next < nodes.len() {
        let position = nodes[next].clone();
        let outcome = game.end(&position);
        let mut out = Vec::new();
        if outcome.is_none() {
            successors.clear();
            game.moves(&position, &mut successors);
            for s in &successors {
                let id = *ids.entry(s.position.clone()).or_insert_with(|| {
                    nodes.push(s.position.clone());
                    nodes.len() - 1
                });
                out.push((id, s.turn));
            }
        }
        edges.push(out);
        over.push(outcome);
        next += 1;
    }

    let mut values: Vec<Option<Value>> = over.clone();
    for (v, e) in values.iter_mut().zip(&edges) {
        // A finished draw is final; a position with no move that is not over stays
        // undecided (a game bug the engine reports; here it simply ends up a draw).
        if v.is_none() && e.is_empty() {
            *v = Some(Value::Draw);
        }
    }
    let mut level: u16 = 0;
    loop {
        level += 1;
        let mut fixed = Vec::new();
        for (id, e) in edges.iter().enumerate() {
            if values[id].is_some() || e.is_empty() {
                continue;
            }
            let seen: Vec<Option<Value>> = e.iter().map(|&(c, t)| values[c].map(|v| v.before(t))).collect();
            if seen.contains(&Some(Value::Win(level))) {
                fixed.push((id, Value::Win(level)));
            } else if seen.iter().all(|v| matches!(v, Some(Value::Loss(_)))) && seen.contains(&Some(Value::Loss(level)))
            {
                fixed.push((id, Value::Loss(level)));
            }
        }
        if fixed.is_empty() {
            break;
        }
        for (id, v) in fixed {
            values[id] = Some(v);
        }
    }
    nodes.into_iter().zip(values).map(|(p, v)| (p, v.unwrap_or(Value::Draw))).collect()
}

/// The score of every position reachable from `starts`, by value iteration on the explicit
/// move graph, endless play scoring 0; no ranks, un-moves, counters or files.
///
/// The positions of a tier are iterated after those of all its child tiers (a move that
/// leaves a tier only goes down), those values fixed: `V_k` is the value of the game cut
/// off after `k` plies, an unfinished game scoring 0. For `t ≥ 1`, `V_k(p) ≥ t` exactly
/// when the mover can force, within `k` plies, an exit worth `≥ t`; these sets grow with
/// `k` and stop growing, so `V_k` stops changing, at the value with endless play scored 0.
/// (Iterating every position at once is not enough: an exit late in the horizon then
/// meets a lower tier's value that is not final yet, and the values can cycle for ever.)
/// Fails if the tiers met form a cycle.
pub fn score_reachable<G: Game<Value = i16>>(
    game: &G,
    starts: impl IntoIterator<Item = G::Position>,
) -> Result<HashMap<G::Position, i16>, CycleError> {
    let mut ids: HashMap<G::Position, usize> = HashMap::new();
    let mut nodes: Vec<G::Position> = Vec::new();
    for start in starts {
        ids.entry(start.clone()).or_insert_with(|| {
            nodes.push(start);
            nodes.len() - 1
        });
    }
    /// A position's end value, or its moves as (child, gain, turn).
    type Node = Result<Vec<(usize, i16, Turn)>, i16>;
    let mut graph: Vec<Node> = Vec::new();
    let mut moves = Vec::new();
    let mut next = 0;
    while next < nodes.len() {
        let position = nodes[next].clone();
        graph.push(match game.end(&position) {
            Some(v) => Err(v),
            None => {
                moves.clear();
                game.moves(&position, &mut moves);
                Ok(moves
                    .iter()
                    .map(|m| {
                        let id = *ids.entry(m.position.clone()).or_insert_with(|| {
                            nodes.push(m.position.clone());
                            nodes.len() - 1
                        });
                        (id, m.gain, m.turn)
                    })
                    .collect())
            }
        });
        next += 1;
    }
    let tier_of: Vec<G::Tier> = nodes.iter().map(|p| game.locate(p).tier).collect();
    let mut tiers: Vec<G::Tier> = tier_of.clone();
    tiers.sort();
    tiers.dedup();
    let mut value = vec![0i16; nodes.len()];
    for tier in tier_order_by(&tiers, |t| game.child_tiers(t))? {
        let group: Vec<usize> = (0..nodes.len()).filter(|&i| tier_of[i] == tier).collect();
        loop {
            let next: Vec<i16> = group
                .iter()
                .map(|&i| match &graph[i] {
                    Err(v) => *v,
                    // A position not over without a move is a game bug; it keeps 0 here.
                    Ok(moves) => {
                        moves.iter().map(|&(c, gain, turn)| i16::worth(value[c], gain, turn)).max().unwrap_or(0)
                    }
                })
                .collect();
            if group.iter().zip(&next).all(|(&i, &v)| value[i] == v) {
                break;
            }
            for (&i, v) in group.iter().zip(next) {
                value[i] = v;
            }
        }
    }
    Ok(nodes.into_iter().zip(value).collect())
}
