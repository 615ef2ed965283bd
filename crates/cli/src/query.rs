//! The options of the games built on the tier-game API alone (`solve trias`, `solve
//! njaka`, flattened into their arguments) for building tables and asking them about a
//! position. THI`, Kalah and Awari declare the same names themselves, beside options
//! these do not have (Kalah's search, Awari's stone counts, THI`'s setups).

use clap::Args;
use std::path::PathBuf;

#[derive(Args)]
pub struct QueryArgs {
    /// Directory holding the tables (created if missing).
    #[arg(long, default_value = "data")]
    pub out: PathBuf,
    /// Analyse this position instead of the start (see the notation above), from the
    /// tables already built under --out.
    #[arg(long, allow_hyphen_values = true)]
    pub position: Option<String>,
    /// With --position: build the tables it needs that are missing, instead of naming them.
    #[arg(long, requires = "position")]
    pub build: bool,
    /// Print one JSON object on standard output instead of text (progress still goes to
    /// standard error).
    #[arg(long)]
    pub json: bool,
    /// After building, check every stored value against its successors.
    #[arg(long)]
    pub verify: bool,
    /// Longest principal line printed, in moves.
    #[arg(long, default_value_t = 200)]
    pub max_line: usize,
}
