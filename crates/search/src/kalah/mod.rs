//! Kalah above its endgame tables: the MTD(f) search ([`search`]), its transposition
//! table ([`transposition`]), and the [`Solver`] that sizes and builds the tables beneath
//! the search and answers for any position ([`solver`]).

pub mod search;
pub mod solver;
pub mod transposition;

pub use search::{Bounds, Search, SearchError};
pub use solver::{auto_endgame_seeds, default_tt_bits, Margin, Plan, Solver, SolverError, Turn};
