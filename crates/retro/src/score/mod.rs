//! The score engine ([`crate::game::Engine::Score`]): tiers whose values are the score
//! still to be gained, not win/loss, and whose in-tier moves form a DAG.
//!
//! In a sowing game such as Kalah the value of a position is the final store difference,
//! and no rule depends on what the stores already hold; so a table keyed by the pits
//! alone holds the **store difference still to be gained by the player to move**, and a
//! full position's value is that plus the stores' current difference.
//!
//! A score game ([`crate::Game`] with `i16` values) splits its positions into tiers (seeds
//! in the pits) that moves never leave except downwards; what this engine needs is what
//! happens inside a tier. Here the moves that stay in a tier must form a DAG (in Kalah, a move that keeps
//! every seed in the pits only carries seeds towards its mover's store along his own row,
//! so the seeds' total distance to their owners' stores strictly falls). Then no
//! retrograde un-moves and no fixpoint are needed: a tier is solved by a forward
//! depth-first evaluation with memoisation ([`solve`]), children in lower tiers being one
//! probe each, and a cycle inside a tier is reported, not looped on.
//!
//! A move's worth to its mover is its immediate gain plus the child's value seen from his
//! side: the child's value itself when he moves again (an extra turn), its negation when
//! the turn passes:
//!
//! ```text
//!   value(p) = max over moves (gain + child)   if the mover keeps the turn
//!                             (gain − child)   if the turn passes
//! ```
//!
//! Tables use the common file format ([`crate::table`]) with [`crate::table::ValueEncoding::Score`]:
//! zigzag codes of the signed value ([`crate::value::score_code`]).

pub mod solve;

pub use solve::{solve_tier, ScoreSolveError};
