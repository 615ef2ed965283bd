#![warn(missing_docs)]
//! Weak solving: a search above the endgame tables, for positions with too many seeds for
//! the tables to hold. Kept apart from the rules (`games`) and the table engines
//! (`retro`), which it uses.

pub mod kalah;
pub mod proof;
pub mod tree;
pub mod window;
