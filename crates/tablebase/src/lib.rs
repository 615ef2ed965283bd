#![warn(missing_docs)]
//! What the `solve` command and its server share: the reports every subcommand fills
//! ([`report`], in the schema of `docs/json.md`), the analysis of a position read out
//! of tables ([`analysis`]), each game's answers to a request over its tables
//! ([`query`]: its report, its board and its database), the registry of games: their
//! table directories and keys ([`registry`]), and where tables lie on disk ([`layout`]).

pub mod analysis;
pub mod layout;
pub mod query;
pub mod registry;
pub mod report;
