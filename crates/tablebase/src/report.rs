//! The reports every subcommand fills and prints, as text or JSON: one schema for every
//! game, documented field by field in `docs/json.md`. A key means the same thing in every
//! game; a value is always seen from the player it belongs to.

use serde::Serialize;
use serde_json::Value as Json;

/// The version of the schema, written into every report.
pub const SCHEMA: u32 = 1;

/// The value of a position for its player to move, or of a move for its mover.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "lowercase")]
pub enum ValueReport {
    /// Win, draw or loss, with the plies to the end (none for a draw).
    Outcome { outcome: Outcome, plies: Option<u16> },
    /// The final difference, this player minus the other, under perfect play.
    Score { outcome: Outcome, score: i32 },
}

/// Win, draw or loss for the player a value belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Outcome {
    Win,
    Draw,
    Loss,
}

impl ValueReport {
    /// A score, with its sign as the outcome.
    pub fn score(score: i32) -> ValueReport {
        let outcome = match score.signum() {
            1 => Outcome::Win,
            0 => Outcome::Draw,
            _ => Outcome::Loss,
        };
        ValueReport::Score { outcome, score }
    }
}

impl From<retro::Value> for ValueReport {
    fn from(v: retro::Value) -> ValueReport {
        let outcome = match v {
            retro::Value::Win(_) => Outcome::Win,
            retro::Value::Draw => Outcome::Draw,
            retro::Value::Loss(_) => Outcome::Loss,
        };
        ValueReport::Outcome { outcome, plies: v.plies() }
    }
}

impl std::fmt::Display for ValueReport {
    /// `win in 7 plies`, `draw`, `loss in 12 plies`; a score with its sign: `+3`, `0`, `-2`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match *self {
            ValueReport::Outcome { outcome, plies: Some(d) } => {
                write!(f, "{} in {d} pl{}", outcome.name(), if d == 1 { "y" } else { "ies" })
            }
            ValueReport::Outcome { outcome, plies: None } => f.write_str(outcome.name()),
            ValueReport::Score { score, .. } => write!(f, "{score:+}"),
        }
    }
}

impl Outcome {
    /// `win`, `draw` or `loss`.
    pub fn name(self) -> &'static str {
        match self {
            Outcome::Win => "win",
            Outcome::Draw => "draw",
            Outcome::Loss => "loss",
        }
    }
}

/// One legal move: its name, its worth to its mover, where it leads.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct MoveReport {
    #[serde(rename = "move")]
    pub name: String,
    pub value: ValueReport,
    pub position: String,
    /// Sowing games: what the move captures at once.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub captures: Option<u32>,
}

/// How a principal line stops.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum LineEndKind {
    /// The game is over at the last position.
    Over,
    /// The last position repeats an earlier one: play goes on for ever.
    Repetition,
    /// The line reached the length asked for.
    Cut,
}

/// The end of a principal line.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct LineEnd {
    pub kind: LineEndKind,
    /// The last position of the line, in notation.
    pub position: String,
    /// For a repetition: the ply after which the repeated position first stood.
    pub repeats_ply: Option<usize>,
}

/// The tables an answer came from.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct TablesReport {
    pub directory: String,
    pub positions: u64,
    pub bytes: u64,
    pub tiers: usize,
    pub tiers_built: usize,
    pub tiers_reused: usize,
    pub seconds: f64,
    pub peak_memory_bytes: Option<u64>,
}

impl TablesReport {
    /// The report of a set of tables and of the build that made or found them.
    pub fn new<G: retro::Game>(
        tables: &retro::store::Tables<G>,
        build: &retro::store::BuildReport,
        seconds: f64,
        peak_memory_bytes: Option<u64>,
    ) -> TablesReport {
        let (positions, bytes) = tables.size();
        TablesReport {
            directory: tables.dir().display().to_string(),
            positions,
            bytes,
            tiers: build.tiers_built + build.tiers_reused,
            tiers_built: build.tiers_built,
            tiers_reused: build.tiers_reused,
            seconds,
            peak_memory_bytes,
        }
    }
}

/// Positions reachable from the start, by their value for the player to move.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct ReachableReport {
    pub positions: u64,
    pub win: Option<u64>,
    pub draw: Option<u64>,
    pub loss: Option<u64>,
}

/// Everything known about one position: the report of `solve <game>` and of the API.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PositionReport {
    pub schema: u32,
    pub game: String,
    /// The board and its setup, by name (`docs/json.md`, Parameters).
    pub parameters: Json,
    pub rules: String,
    pub position: String,
    pub start: bool,
    pub to_move: String,
    pub over: bool,
    pub value: ValueReport,
    /// Every legal move in the game's order; `None` when not computed.
    pub moves: Option<Vec<MoveReport>>,
    pub best: Option<String>,
    pub line: Vec<String>,
    pub line_end: LineEnd,
    pub tables: TablesReport,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reachable: Option<ReachableReport>,
    /// What only this game reports (`docs/json.md`, Details).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub details: Option<Json>,
}

/// One tier of a tables report.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct TierReport {
    pub tier: String,
    pub positions: u64,
    /// Positions by value (the value as text).
    pub values: std::collections::BTreeMap<String, u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub published_rule: Option<u64>,
}

/// A report on tables alone, with no position (`solve awari --stones K`).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct TablesOnlyReport {
    pub schema: u32,
    pub game: String,
    pub parameters: Json,
    pub rules: String,
    pub tables: TablesReport,
    pub tiers: Vec<TierReport>,
}

/// Prints a report as one pretty JSON object on standard output.
pub fn print_json(report: &impl Serialize) -> serde_json::Result<()> {
    println!("{}", serde_json::to_string_pretty(report)?);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_serialise_as_the_schema_says() {
        let win = serde_json::to_value(ValueReport::from(retro::Value::Win(31))).unwrap();
        assert_eq!(win, serde_json::json!({"kind": "outcome", "outcome": "win", "plies": 31}));
        let draw = serde_json::to_value(ValueReport::from(retro::Value::Draw)).unwrap();
        assert_eq!(draw, serde_json::json!({"kind": "outcome", "outcome": "draw", "plies": null}));
        let score = serde_json::to_value(ValueReport::score(-3)).unwrap();
        assert_eq!(score, serde_json::json!({"kind": "score", "outcome": "loss", "score": -3}));
    }
}
