//! The search crate's tests, in one binary: the window search (Kalah's and any acyclic
//! score game's), the proof search and the tree search, each against the tables.

mod kalah_search;
mod proof_search;
mod tree_search;
