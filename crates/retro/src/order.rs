//! The order tiers are solved in: every tier after all the tiers its moves can reach.

use crate::game::Game;
use std::collections::HashMap;
use std::fmt::Display;
use std::hash::Hash;
use thiserror::Error;

/// Tiers whose children lead back to them, named.
#[derive(Debug, Error, PartialEq, Eq)]
#[error("the tier graph has a cycle through tier {0}: tiers cannot be solved in order")]
pub struct CycleError(pub String);

/// All tiers reachable from `roots`, children before parents. Fails if the child-tier
/// relation has a cycle (other than a tier's moves within itself).
pub fn tier_order<G: Game>(game: &G, roots: &[G::Tier]) -> Result<Vec<G::Tier>, CycleError> {
    tier_order_by(roots, |t| game.child_tiers(t))
}

/// [`tier_order`] for any tier type, given each tier's child tiers.
pub fn tier_order_by<T>(roots: &[T], child_tiers: impl Fn(T) -> Vec<T>) -> Result<Vec<T>, CycleError>
where
    T: Copy + Eq + Hash + Display,
{
    #[derive(Clone, Copy, PartialEq)]
    enum Mark {
        Open,
        Done,
    }
    let mut marks: HashMap<T, Mark> = HashMap::new();
    let mut order = Vec::new();
    for &root in roots {
        if marks.contains_key(&root) {
            continue;
        }
        // Iterative depth-first search: (tier, its children, next child to visit).
        let mut stack = vec![(root, child_tiers(root), 0usize)];
        marks.insert(root, Mark::Open);
        while let Some((tier, children, next)) = stack.last_mut() {
            if let Some(&child) = children.get(*next) {
                *next += 1;
                if child == *tier {
                    continue;
                }
                match marks.get(&child) {
                    Some(Mark::Done) => {}
                    Some(Mark::Open) => return Err(CycleError(child.to_string())),
                    None => {
                        marks.insert(child, Mark::Open);
                        let grandchildren = child_tiers(child);
                        stack.push((child, grandchildren, 0));
                    }
                }
            } else {
                let tier = *tier;
                marks.insert(tier, Mark::Done);
                order.push(tier);
                stack.pop();
            }
        }
    }
    Ok(order)
}
