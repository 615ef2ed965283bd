#![warn(missing_docs)]
//! What the `solve` command and its server share: the reports every subcommand fills
//! ([`report`], in the schema of `docs/json.md`), the analysis of a position read out
//! of tables ([`analysis`]), each game's front end ([`front`]: its parameters, its key,
//! its board, its report's header, the command that builds its tables), requests and
//! answers over opened tables ([`query`]), the registry of games: the list of front ends
//! ([`registry`]), where tables lie on disk ([`layout`]), every table directory under a
//! root opened for queries ([`library`]), and games kept as text ([`record`]).

pub mod analysis;
pub mod front;
pub mod layout;
pub mod library;
pub mod ogn;
pub mod query;
pub mod record;
pub mod registry;
pub mod report;
