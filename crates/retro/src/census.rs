//! Counting the positions reachable from a start position, by value.
//!
//! Positions are told apart by tier, rank and orientation, so positions folded onto one
//! table entry by a symmetry are still counted one by one. The search goes breadth first,
//! a level at a time: successors are generated in parallel, then marked in one bit set
//! per tier.

use crate::game::{Game, Location};
use crate::store::{ProbeError, TableSet};
use crate::value::Value;
use bitvec::prelude::*;
use rayon::prelude::*;
use std::collections::HashMap;

/// Reachable positions, by their value for the player to move.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Census {
    pub positions: u64,
    pub win: u64,
    pub draw: u64,
    pub loss: u64,
    /// Longest shortest path from the start, in plies.
    pub depth: u64,
}

impl Census {
    fn count(&mut self, value: Value) {
        self.positions += 1;
        match value {
            Value::Win(_) => self.win += 1,
            Value::Draw => self.draw += 1,
            Value::Loss(_) => self.loss += 1,
        }
    }
}

/// Every position reachable from `start` (the start and finished games included).
pub fn reachable_census<G: Game>(game: &G, tables: &TableSet<G>, start: &G::Position) -> Result<Census, ProbeError> {
    let orientations = game.orientations() as u64;
    let mut seen: HashMap<G::Tier, BitVec<u64, Lsb0>> = HashMap::new();
    let mut census = Census::default();
    let mut mark = |loc: Location<G::Tier>, census: &mut Census| -> Result<bool, ProbeError> {
        let bits = seen.entry(loc.tier).or_insert_with(|| bitvec![u64, Lsb0; 0; (game.tier_size(loc.tier) * orientations) as usize]);
        let index = (loc.rank * orientations + loc.orientation as u64) as usize;
        if bits[index] {
            return Ok(false);
        }
        bits.set(index, true);
        let table = tables.table(loc.tier).ok_or_else(|| ProbeError::MissingTier(loc.tier.to_string()))?;
        let value = table.probe(loc.rank).ok_or(ProbeError::BadRank { tier: loc.tier.to_string(), rank: loc.rank })?;
        census.count(value);
        Ok(true)
    };
    let first = game.locate(start);
    mark(first, &mut census)?;
    let mut frontier = vec![first];
    while !frontier.is_empty() {
        let next: Vec<Vec<Location<G::Tier>>> = frontier
            .par_chunks(1024)
            .map(|chunk| {
                let mut successors = Vec::new();
                let mut out = Vec::new();
                for &loc in chunk {
                    let position = game.position(loc);
                    if game.outcome(&position).is_some() {
                        continue;
                    }
                    successors.clear();
                    game.successors(&position, &mut successors);
                    out.extend(successors.iter().map(|s| game.locate(&s.position)));
                }
                out
            })
            .collect();
        frontier = Vec::new();
        for loc in next.into_iter().flatten() {
            if mark(loc, &mut census)? {
                frontier.push(loc);
            }
        }
        if !frontier.is_empty() {
            census.depth += 1;
        }
    }
    Ok(census)
}
