//! The reports every subcommand fills (the `solve` binary prints them, as text or JSON,
//! and the server sends them): one schema for every game, documented field by field in
//! `docs/json.md`. A key means the same thing in every game; a value is always seen from
//! the player it belongs to.

use serde::Serialize;
use serde_json::Value as Json;

/// The version of the schema, written into every report.
pub const SCHEMA: u32 = 1;

/// The value of a position for its player to move, or of a move for its mover.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "lowercase")]
pub enum ValueReport {
    /// Win, draw or loss, with the plies to the end (none for a draw).
    Outcome {
        /// Win, draw or loss.
        outcome: Outcome,
        /// Plies to the end under perfect play; `None` for a draw.
        plies: Option<u16>,
    },
    /// The final difference, this player minus the other, under perfect play.
    Score {
        /// The score's sign.
        outcome: Outcome,
        /// The difference.
        score: i32,
    },
    /// A value a search bounded without proving it: it lies between `lower` and `upper`,
    /// both included.
    Bounds {
        /// The least the value can be.
        lower: Bound,
        /// The most it can be.
        upper: Bound,
    },
}

/// One end of a bounded value: a score as a number, or an outcome with its plies (an
/// outcome value report).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(untagged)]
pub enum Bound {
    /// A score.
    Score(i32),
    /// Win, draw or loss, with the plies to the end.
    Outcome(OutcomeValue),
}

/// An outcome with its plies, written as a value report of kind `outcome`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename = "outcome")]
pub struct OutcomeValue {
    /// Win, draw or loss.
    pub outcome: Outcome,
    /// Plies to the end; `None` for a draw.
    pub plies: Option<u16>,
}

/// Win, draw or loss for the player a value belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Outcome {
    /// The player wins (or ends ahead).
    Win,
    /// Neither wins: a drawn end, endless play, or an even score.
    Draw,
    /// The player loses (or ends behind).
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

impl Bound {
    /// `value` as the lower end of bounds (`upper` false) or the upper one: a score, an
    /// outcome, or the same end of bounds.
    fn end(value: ValueReport, upper: bool) -> Bound {
        match value {
            ValueReport::Outcome { outcome, plies } => Bound::Outcome(OutcomeValue { outcome, plies }),
            ValueReport::Score { score, .. } => Bound::Score(score),
            ValueReport::Bounds { lower, upper: high } => {
                if upper {
                    high
                } else {
                    lower
                }
            }
        }
    }

    /// The bound as a value report.
    fn value(self) -> ValueReport {
        match self {
            Bound::Score(score) => ValueReport::score(score),
            Bound::Outcome(OutcomeValue { outcome, plies }) => ValueReport::Outcome { outcome, plies },
        }
    }
}

impl ValueReport {
    /// The value `lower` when the two are equal (proven), else the bounds between them.
    pub fn between(lower: ValueReport, upper: ValueReport) -> ValueReport {
        if lower == upper {
            lower
        } else {
            ValueReport::Bounds { lower: Bound::end(lower, false), upper: Bound::end(upper, true) }
        }
    }

    /// Whether the value is proven (not only bounded).
    pub fn is_exact(&self) -> bool {
        !matches!(self, ValueReport::Bounds { .. })
    }
}

/// Bounds in words: `at least a draw`, `at most a draw`, `a win in 3 to 9 plies`,
/// `between -2 and +4`, `between loss in 4 plies and win in 1 ply`.
fn bounds_text(f: &mut std::fmt::Formatter<'_>, lower: Bound, upper: Bound) -> std::fmt::Result {
    use Outcome::{Draw, Loss, Win};
    match (lower, upper) {
        (Bound::Outcome(l), Bound::Outcome(u)) => match (l.outcome, u.outcome, l.plies, u.plies) {
            (Draw, Win, ..) => f.write_str("at least a draw"),
            (Loss, Draw, ..) => f.write_str("at most a draw"),
            (Win, Win, Some(most), Some(least)) => write!(f, "a win in {least} to {most} plies"),
            (Loss, Loss, Some(least), Some(most)) => write!(f, "a loss in {least} to {most} plies"),
            _ => write!(f, "between {} and {}", lower.value(), upper.value()),
        },
        _ => write!(f, "between {} and {}", lower.value(), upper.value()),
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
    /// `win in 7 plies`, `draw`, `loss in 12 plies`; a score with its sign: `+3`, `0`, `-2`;
    /// bounds in words (`at least a draw`, `between -2 and +4`).
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match *self {
            ValueReport::Outcome { outcome, plies: Some(d) } => {
                write!(f, "{} in {d} pl{}", outcome.name(), if d == 1 { "y" } else { "ies" })
            }
            ValueReport::Outcome { outcome, plies: None } => f.write_str(outcome.name()),
            ValueReport::Score { score, .. } => write!(f, "{score:+}"),
            ValueReport::Bounds { lower, upper } => bounds_text(f, lower, upper),
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
    /// The move's name in the game's notation.
    #[serde(rename = "move")]
    pub name: String,
    /// What the move is worth to the player who makes it.
    pub value: ValueReport,
    /// The position it leads to, in notation.
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
    /// Why the line stops.
    pub kind: LineEndKind,
    /// The last position of the line, in notation.
    pub position: String,
    /// For a repetition: the ply after which the repeated position first stood.
    pub repeats_ply: Option<usize>,
}

/// The tables an answer came from.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct TablesReport {
    /// The table directory.
    pub directory: String,
    /// Positions the loaded tables hold.
    pub positions: u64,
    /// Their size on disk.
    pub bytes: u64,
    /// Tiers loaded.
    pub tiers: usize,
    /// Positions of the largest tier: the one whose solving needs the most memory.
    pub largest_tier: u64,
    /// Tiers this run solved.
    pub tiers_built: usize,
    /// Tiers this run found built and checked.
    pub tiers_reused: usize,
    /// Wall time of the build (or the checks), in seconds.
    pub seconds: f64,
    /// The process's peak resident memory, where the system tells it.
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
            largest_tier: tables.tables().map(|(_, t)| t.entries()).max().unwrap_or(0),
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
    /// Positions reachable from the start, the start and finished games included.
    pub positions: u64,
    /// Of those, won for their player to move (`None` where not counted).
    pub win: Option<u64>,
    /// Drawn.
    pub draw: Option<u64>,
    /// Lost.
    pub loss: Option<u64>,
}

/// Everything known about one position: the report of `solve <game>` and of the API.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PositionReport {
    /// The schema's version, [`SCHEMA`].
    pub schema: u32,
    /// The game's name.
    pub game: String,
    /// The board and its setup, by name (`docs/json.md`, Parameters).
    pub parameters: Json,
    /// The rule set's name.
    pub rules: String,
    /// The position, in the game's notation.
    pub position: String,
    /// Whether it is the start of the game for `parameters`.
    pub start: bool,
    /// The player to move.
    pub to_move: String,
    /// Whether the game is over at the position.
    pub over: bool,
    /// The position's value for `to_move` under perfect play.
    pub value: ValueReport,
    /// Every legal move in the game's order; `None` when not computed.
    pub moves: Option<Vec<MoveReport>>,
    /// The best move's name; `None` when the game is over.
    pub best: Option<String>,
    /// The names of the principal line's moves.
    pub line: Vec<String>,
    /// How the principal line stops.
    pub line_end: LineEnd,
    /// The tables the answer came from.
    pub tables: TablesReport,
    /// Positions reachable from the start, by value, where counted.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reachable: Option<ReachableReport>,
    /// What only this game reports (`docs/json.md`, Details).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub details: Option<Json>,
}

/// One tier of a tables report.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct TierReport {
    /// The tier's name.
    pub tier: String,
    /// Its positions.
    pub positions: u64,
    /// Positions by value (the value as text).
    pub values: std::collections::BTreeMap<String, u64>,
    /// The count under a published index rule, where the game has one (Awari's, on the
    /// real board of 6 pits); `None` elsewhere.
    pub published_rule: Option<u64>,
}

/// A report on tables alone, with no position (`solve awari --stones K`).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct TablesOnlyReport {
    /// The schema's version, [`SCHEMA`].
    pub schema: u32,
    /// The game's name.
    pub game: String,
    /// The board and the tables asked for, by name.
    pub parameters: Json,
    /// The rule set's name.
    pub rules: String,
    /// The tables.
    pub tables: TablesReport,
    /// Each tier's count of positions by value.
    pub tiers: Vec<TierReport>,
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
        let scores = serde_json::to_value(ValueReport::between(ValueReport::score(-2), ValueReport::score(4))).unwrap();
        assert_eq!(scores, serde_json::json!({"kind": "bounds", "lower": -2, "upper": 4}));
        let outcomes = ValueReport::between(retro::Value::Draw.into(), retro::Value::Win(1).into());
        assert_eq!(
            serde_json::to_value(outcomes).unwrap(),
            serde_json::json!({
                "kind": "bounds",
                "lower": {"kind": "outcome", "outcome": "draw", "plies": null},
                "upper": {"kind": "outcome", "outcome": "win", "plies": 1}
            })
        );
        let exact = ValueReport::between(ValueReport::score(3), ValueReport::score(3));
        assert_eq!(exact, ValueReport::score(3), "equal bounds are the value");
    }

    #[test]
    fn bounds_read_as_words() {
        let between = |l: retro::Value, u: retro::Value| ValueReport::between(l.into(), u.into()).to_string();
        use retro::Value::{Draw, Loss, Win};
        assert_eq!(between(Draw, Win(1)), "at least a draw");
        assert_eq!(between(Loss(1), Draw), "at most a draw");
        assert_eq!(between(Win(9), Win(3)), "a win in 3 to 9 plies");
        assert_eq!(between(Loss(4), Loss(20)), "a loss in 4 to 20 plies");
        assert_eq!(between(Loss(4), Win(1)), "between loss in 4 plies and win in 1 ply");
        assert_eq!(
            ValueReport::between(ValueReport::score(-2), ValueReport::score(4)).to_string(),
            "between -2 and +4"
        );
    }
}
