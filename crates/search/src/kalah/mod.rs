//! Kalah above its endgame tables: the [`Solver`] that sizes and builds the tables
//! beneath the window search ([`crate::window`], Kalah's instance of it: [`Search`]) and
//! answers for any position ([`solver`]).

pub mod solver;

pub use crate::window::{Bounds, SearchError};
pub use solver::{auto_endgame_seeds, default_tt_bits, Margin, Plan, Solver, SolverError, Turn};

/// The window search over Kalah's boards, of at most a move a pit.
pub type Search<'a> = crate::window::Search<'a, games::kalah::Kalah, { games::kalah::MAX_PITS }>;
