//! A plain forward solver, independent of tiers, ranks, un-moves and tables: the oracle
//! the retrograde engine is tested against on small instances.
//!
//! It builds the explicit graph of positions reachable from a start, then fixes values
//! by distance: level 0 are the finished games; a position is a win at level `k` if a
//! move gives it a win in `k` plies, a loss at level `k` if every move is fixed
//! and the slowest gives a loss in `k`. Nothing new can appear after an empty level, and
//! what is left unfixed is a draw.

use crate::game::Game;
use crate::value::{Turn, Value};
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
