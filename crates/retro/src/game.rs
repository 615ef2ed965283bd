//! What a game must give the engine, and the invariants it must keep.
//!
//! The invariants, tested for every game by `games`' invariant suite:
//! 1. `locate(position(loc)) == loc` for every location, and
//!    `position(locate(p))` is `p` itself (orientation included).
//! 2. Every successor lies in the same tier or in one of `child_tiers(tier)`; the tier
//!    graph is acyclic apart from each tier's own loops.
//! 3. `predecessors` lists, for a position `c`, exactly the positions `p` of the same tier
//!    such that `c` is among `successors(p)` with that turn, and none that are over.
//! 4. Positions that are images under a symmetry of the rules have the same value.

use crate::value::{Turn, Value};
use std::fmt::{Debug, Display};
use std::hash::Hash;

/// Where a position lives: its tier, its dense rank inside the tier, and which of the
/// positions sharing that rank it is (0 for the one the tables are built on).
///
/// Games fold symmetric positions onto one rank (for example a colour swap with a board
/// turned round); `orientation` tells them apart again, so that
/// `(tier, rank, orientation)` names exactly one position.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Location<T> {
    pub tier: T,
    pub rank: u64,
    pub orientation: u8,
}

/// A position one move away, and whether the same player moves again there.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Successor<P> {
    pub position: P,
    pub turn: Turn,
}

/// A two-player game of perfect information, split into tiers that play never leaves
/// except towards lower tiers.
pub trait Game: Sync {
    /// Displays in the game's text notation.
    type Position: Clone + Eq + Hash + Debug + Display + Send + Sync;
    type Tier: Copy + Eq + Ord + Hash + Debug + Display + Send + Sync;

    /// Names the game, its rules and its parameters; written into every table header and
    /// checked when a table is opened. Two games with equal keys must have equal tables.
    fn table_key(&self) -> String;

    /// Number of ranks in `tier`.
    fn tier_size(&self, tier: Self::Tier) -> u64;

    /// The tiers that a move from `tier` can reach, other than `tier` itself.
    fn child_tiers(&self, tier: Self::Tier) -> Vec<Self::Tier>;

    /// How many positions share one rank at most (orientations `0..orientations()`).
    fn orientations(&self) -> u8 {
        1
    }

    /// The tier, rank and orientation of a position.
    fn locate(&self, position: &Self::Position) -> Location<Self::Tier>;

    /// The position at a location. Orientation 0 is the one solved.
    fn position(&self, location: Location<Self::Tier>) -> Self::Position;

    /// The value for the player to move if the game is over at `position`.
    fn outcome(&self, position: &Self::Position) -> Option<Value>;

    /// The positions one move away from a position that is not over. Order is the
    /// game's move order; several moves may lead to one position.
    fn successors(&self, position: &Self::Position, out: &mut Vec<Successor<Self::Position>>);

    /// The locations of the successors, with their turns, in the order of `successors`.
    /// Games may override this to rank successors without building them.
    fn successor_locations(&self, position: &Self::Position, out: &mut Vec<(Location<Self::Tier>, Turn)>) {
        let mut successors = Vec::new();
        self.successors(position, &mut successors);
        out.extend(successors.iter().map(|s| (self.locate(&s.position), s.turn)));
    }

    /// The positions of the same tier, not over, from which one move leads to `position`,
    /// with the turn of that move.
    fn predecessors(&self, position: &Self::Position, out: &mut Vec<Successor<Self::Position>>);
}
