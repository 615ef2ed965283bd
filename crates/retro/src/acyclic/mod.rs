//! The acyclic engine ([`crate::game::Engine::Acyclic`]): tiers whose moves inside the
//! tier form a DAG, for any kind of value.
//!
//! When no move inside a tier comes back to a position, no retrograde un-moves and no
//! fixpoint are needed: a tier is solved by a forward depth-first evaluation with
//! memoisation ([`solve`]), children in lower tiers being one probe each, and a cycle
//! inside a tier is reported, not looped on. Two kinds of game use it:
//!
//! - **Scores** (Kalah): the value of a position is the final store difference, and no
//!   rule depends on what the stores already hold; so a table keyed by the pits alone
//!   holds the **store difference still to be gained by the player to move**, and a full
//!   position's value is that plus the stores' current difference. A move that keeps
//!   every seed in the pits only carries seeds towards its mover's store along his own
//!   row, so the seeds' total distance to their owners' stores strictly falls: a DAG.
//! - **Outcomes with distance** where every move leaves its tier (Trias: every move
//!   removes a stone): a tier is one pass over its ranks, each value the best over lower
//!   tiers' probes, with one byte of working memory a position (two where a game does not
//!   bound its codes below 255, [`crate::Game::largest_code`]) where the retrograde
//!   engine ([`crate::solve`]) needs more than twenty.
//!
//! A move's worth to its mover is [`crate::TableValue::worth`] of the child's value: for
//! scores its immediate gain plus the child's value seen from his side (the child's value
//! itself when he moves again, its negation when the turn passes); for outcomes the
//! child's outcome seen from his side, one ply further from the end:
//!
//! ```text
//!   value(p) = max over moves (gain + child)   if the mover keeps the turn
//!                             (gain − child)   if the turn passes
//! ```
//!
//! Tables use the common file format ([`crate::table`]) with the value kind's encoding.

pub mod solve;

pub(crate) use solve::byte_slots;
pub use solve::solve_tier;
