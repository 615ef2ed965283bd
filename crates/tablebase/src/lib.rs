#![warn(missing_docs)]
//! What the `solve` command and its server share: the reports every subcommand fills
//! ([`report`], in the schema of `docs/json.md`) and the analysis of a position read out
//! of tables ([`analysis`]), and the registry of games: their table directories and keys
//! ([`registry`]).

pub mod analysis;
pub mod layout;
pub mod query;
pub mod registry;
pub mod report;
