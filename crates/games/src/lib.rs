#![warn(missing_docs)]
//! The games: rules, positions, text notation and the index the engine solves over.
//!
//! Each game implements [`retro::Game`]; the invariants it must keep are listed there
//! and tested for every game in `tests/invariants.rs` (Trias and Njaka in their
//! `tests/*_tables.rs`).

pub mod awari;
pub mod echo;
pub mod kalah;
pub mod njaka;
pub mod oware;
pub mod side;
pub mod thi;
pub mod trias;
