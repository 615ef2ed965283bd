//! What the `solve` command and its server share: the reports every subcommand fills
//! ([`report`], in the schema of `docs/json.md`).

pub mod report;
