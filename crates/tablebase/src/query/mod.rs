//! Questions about positions, asked of tables opened once: what `solve serve` answers.
//!
//! Each game opens a table directory as a [`Database`] (through its front end,
//! [`crate::front`], and its registry entry, [`crate::registry::GameEntry::open`]) and
//! answers a [`Request`] (the parameters of `docs/api.md`, as name and value) with an
//! [`Answer`]: the position report of `docs/json.md` and the board to draw. A request
//! names its game's board and rules; a database that holds other ones says
//! [`QueryError::NotHere`], and when none holds them the game's entry names the command
//! that builds them ([`crate::registry::GameEntry::command`]).

use crate::report::{PositionReport, TablesReport, ValueReport};
use search::tree::Budget;
use serde::Serialize;
use std::collections::BTreeMap;
use std::str::FromStr;
use thiserror::Error;

/// Why a request gets no answer.
#[derive(Debug, Error, PartialEq, Eq)]
pub enum QueryError {
    /// A parameter is missing, unknown or out of range.
    #[error("parameter `{name}`: {why}")]
    Parameter {
        /// The parameter's name.
        name: String,
        /// What is wrong with it.
        why: String,
    },
    /// The position is not written in the game's notation.
    #[error("malformed position: {0}")]
    Malformed(String),
    /// The position is written well but cannot stand on this board under these rules.
    #[error("impossible position: {0}")]
    Impossible(String),
    /// The tables that would answer have more positions than a 64-bit index can number:
    /// no command builds them (the command line's search above smaller tables answers
    /// such a position).
    #[error("{0}")]
    BeyondIndex(String),
    /// This database holds another board or other rules than the request's.
    #[error("these tables are for another board or other rules")]
    NotHere,
    /// The tables that would answer are not built (or not loaded).
    #[error("{what} are not built here; build them with `{command}`{}{}", .note.as_deref().map(|n| format!(" ({n})")).unwrap_or_default(), left_out_note(.left_out))]
    NotBuilt {
        /// What is missing.
        what: String,
        /// The command that builds them.
        command: String,
        /// What the command costs, where it is far from small, and what else answers.
        note: Option<String>,
        /// Directories of the game's tables that failed their checks and were left out,
        /// with why: the tables asked for may be one of them, to be rebuilt first.
        left_out: Vec<String>,
    },
    /// The tables could not answer (a missing or damaged table).
    #[error("the tables could not answer: {0}")]
    Tables(String),
}

/// The directories of a game left out when opened (damaged, or renamed), in case the
/// tables asked for are among them: the command would stop at what is there.
fn left_out_note(left_out: &[String]) -> String {
    if left_out.is_empty() {
        String::new()
    } else {
        format!(
            " (left out when the tables were opened: {}; the command builds there, so first remove or \
             rename what is there)",
            left_out.join("; ")
        )
    }
}

impl QueryError {
    /// An error about the parameter `name`.
    pub fn parameter(name: &str, why: impl ToString) -> QueryError {
        QueryError::Parameter { name: name.to_owned(), why: why.to_string() }
    }

    /// The error as the command line says it: a parameter by its flag (`--max-line: …`),
    /// every other as it is.
    pub fn flag_message(&self) -> String {
        match self {
            QueryError::Parameter { name, why } => format!("--{}: {why}", name.replace('_', "-")),
            other => other.to_string(),
        }
    }
}

/// Longest principal line given where none is asked for, in moves: by the CLI's
/// `--max-line` and the API's `max_line` alike.
pub const DEFAULT_MAX_LINE: usize = 200;

/// Longest value a parameter may have: a position of the largest board fits well within.
pub const MAX_PARAMETER_BYTES: usize = 1024;

/// The parameters of one query: the game's board and rules, a position or a start, and
/// how long a principal line to give.
#[derive(Debug, Clone, Default)]
pub struct Request {
    params: BTreeMap<String, String>,
}

impl Request {
    /// A request from parameters in the order given; a parameter given twice, or longer
    /// than [`MAX_PARAMETER_BYTES`], is an error.
    pub fn new<K: AsRef<str>, V: AsRef<str>>(pairs: impl IntoIterator<Item = (K, V)>) -> Result<Request, QueryError> {
        let mut params = BTreeMap::new();
        for (name, value) in pairs {
            let (name, value) = (name.as_ref(), value.as_ref());
            if name.len() > 64 {
                return Err(QueryError::parameter(&games::echo::excerpt(name), "no parameter has so long a name"));
            }
            if value.len() > MAX_PARAMETER_BYTES {
                return Err(QueryError::parameter(name, format!("longer than {MAX_PARAMETER_BYTES} bytes")));
            }
            if params.insert(name.to_owned(), value.to_owned()).is_some() {
                return Err(QueryError::parameter(name, "given twice"));
            }
        }
        Ok(Request { params })
    }

    /// Fails on any parameter not in `known` (the game's parameters).
    pub fn only(&self, known: &[&str]) -> Result<(), QueryError> {
        match self.params.keys().find(|k| !known.contains(&k.as_str()) && k.as_str() != "max_line") {
            Some(name) => Err(QueryError::parameter(
                &games::echo::excerpt(name),
                format!("unknown here (this game takes: {}, max_line)", known.join(", ")),
            )),
            None => Ok(()),
        }
    }

    /// The parameter's text, if given.
    pub fn get(&self, name: &str) -> Option<&str> {
        self.params.get(name).map(String::as_str)
    }

    /// The parameter as a number in `range`, if given.
    pub fn number<T>(&self, name: &str, range: std::ops::RangeInclusive<T>) -> Result<Option<T>, QueryError>
    where
        T: FromStr + PartialOrd + std::fmt::Display + Copy,
    {
        let Some(text) = self.get(name) else { return Ok(None) };
        // Spaces around are forgiven, as `+` is by `from_str`.
        let trimmed = text.trim();
        let n: T = trimmed.parse().map_err(|_| {
            let digits = trimmed.strip_prefix(['+', '-']).unwrap_or(trimmed);
            let whole = !digits.is_empty() && digits.len() <= 100 && digits.bytes().all(|b| b.is_ascii_digit());
            // A whole number its type cannot hold is out of range, not misspelt.
            let why = match whole {
                true => format!("{trimmed} is not in {} to {}", range.start(), range.end()),
                false => format!("`{}` is not a number", games::echo::excerpt(text)),
            };
            QueryError::parameter(name, why)
        })?;
        if !range.contains(&n) {
            return Err(QueryError::parameter(name, format!("{n} is not in {} to {}", range.start(), range.end())));
        }
        Ok(Some(n))
    }

    /// The position's text, if given.
    pub fn position(&self) -> Option<&str> {
        self.get("position")
    }

    /// Longest principal line asked for, in moves (default [`DEFAULT_MAX_LINE`], at most
    /// 1000).
    pub fn max_line(&self) -> Result<usize, QueryError> {
        Ok(self.number("max_line", 0..=1000)?.unwrap_or(DEFAULT_MAX_LINE))
    }
}

/// A cell of a drawn board.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Cell {
    /// What the cell shows: a count of stones, or a THI` stack bottom to top (`wb`).
    pub text: String,
    /// Whose it is, where the game says: `south`/`north`, `white`/`black`; `mover` and
    /// `opponent` where the position does not say which player moves (Awari's, Oware's).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub owner: Option<String>,
    /// Where the player to move may start a move here: the name his moves from this cell
    /// begin with (a pit's `3`, which names the move `3` and Kalah's turn `3-6`; a
    /// square's `b1`, which begins `b1:NE`). The page plays a move by its cell with it.
    #[serde(rename = "move", skip_serializing_if = "Option::is_none")]
    pub moves_from: Option<String>,
}

impl Cell {
    /// A cell showing a count.
    pub fn count(n: impl std::fmt::Display) -> Cell {
        Cell { text: n.to_string(), owner: None, moves_from: None }
    }
}

/// The board to draw, as the player at the bottom sees it (`docs/api.md`, Boards).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Board {
    /// How to lay the rows out: `grid` (THI`: squares holding stacks), `pits` (two rows of
    /// pits, stores at the ends: Kalah, Awari, Oware), `rows` (Trias: three rows of
    /// holes), `ring` (Njaka: one row, the holes round the circle from hole 1).
    pub layout: &'static str,
    /// The rows, top first, each cell left to right.
    pub rows: Vec<Vec<Cell>>,
    /// Each row's label, in the same order.
    pub labels: Vec<String>,
    /// Counts beside the rows (Kalah's stores, Oware's captures): left, right.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub stores: Vec<Cell>,
}

/// What a query answers: the position report of `docs/json.md`, the board to draw, and
/// the positions of the principal line.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Answer {
    /// The report.
    #[serde(flatten)]
    pub report: PositionReport,
    /// The board.
    pub board: Board,
    /// The positions of the principal line, the position asked about first, in notation
    /// (empty where the line is not kept position by position).
    pub line_positions: Vec<String>,
    /// What the position is, in a line: the game, its board, the start or a position.
    pub title: String,
    /// The parameters that select the board and rules: with `position` added, a request
    /// for any position of the game (a move's, the line's).
    pub board_and_rules: serde_json::Value,
}

/// A start a database answers: its title and the parameters of a request for it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Start {
    /// What it is, as [`Answer::title`] says it.
    pub title: String,
    /// The request's parameters.
    pub parameters: serde_json::Value,
}

/// What a database holds, as `GET /api/games` lists it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Holding {
    /// The game's registry name (the API's path: `/api/{game}`).
    pub game: &'static str,
    /// The tables' key: game, board and rules.
    pub key: String,
    /// The rules' name.
    pub rules: String,
    /// The parameters that select these tables in a request (a start adds its own).
    pub parameters: serde_json::Value,
    /// Starts these tables answer, each with the parameters of a request for it.
    pub starts: Vec<Start>,
    /// The tables.
    pub tables: TablesReport,
}

/// Ranks of one tier with their values and, where asked, their positions: what
/// [`Database::chunk`] reads.
#[derive(Debug, Clone, PartialEq)]
pub struct Chunk {
    /// The first rank.
    pub first: u64,
    /// Each rank's value for its player to move, from `first` on.
    pub values: Vec<ValueReport>,
    /// Each rank's position in the notation of the tables' positions, where asked (else
    /// empty).
    pub positions: Vec<String>,
}

/// One table directory, open for queries, shared by every request.
pub trait Database: Send + Sync {
    /// What it holds.
    fn holding(&self) -> &Holding;
    /// The answer to `request`, or [`QueryError::NotHere`] if it asks of another board
    /// or other rules.
    fn query(&self, request: &Request) -> Result<Answer, QueryError>;
    /// The value of the position `request` asks of, for its player to move, as
    /// [`Database::query`]'s report gives it; the default reads it from that report.
    fn value(&self, request: &Request) -> Result<ValueReport, QueryError> {
        Ok(self.query(request)?.report.value)
    }
    /// Whether `request` asks of this board and these rules a position whose tier is not
    /// built here: one [`Database::search`] answers.
    fn above(&self, request: &Request) -> bool;
    /// The answer to `request` by a search above these tables within `budget`, its value
    /// exact where the search proves it, else bounded; [`QueryError::NotHere`], at once,
    /// where it is not [`Database::above`] them.
    fn search(&self, request: &Request, budget: Budget<'_>) -> Result<Answer, QueryError>;
    /// The tiers held, each by the name its table file has, with its positions, lowest
    /// first.
    fn tiers(&self) -> Vec<(String, u64)>;
    /// Ranks `ranks` (cut at the tier's end) of tier `tier`, named as [`Database::tiers`]
    /// names it, with their values, and their positions if `positions`: every position of
    /// a tier, read a chunk at a time.
    fn chunk(&self, tier: &str, ranks: std::ops::Range<u64>, positions: bool) -> Result<Chunk, QueryError>;
}

/// A probe or line error, as the answer's error.
pub fn tables_error(e: impl std::fmt::Display) -> QueryError {
    QueryError::Tables(e.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn requests_refuse_repeats_unknowns_and_huge_values() {
        assert!(matches!(Request::new([("a", "1"), ("a", "2")]), Err(QueryError::Parameter { .. })));
        let long = "x".repeat(MAX_PARAMETER_BYTES + 1);
        assert!(matches!(Request::new([("position", long.as_str())]), Err(QueryError::Parameter { .. })));
        let r = Request::new([("pits", "4"), ("colour", "red")]).unwrap();
        assert!(r.only(&["pits"]).is_err());
        assert_eq!(r.number::<usize>("pits", 1..=6).unwrap(), Some(4));
        assert!(r.number::<usize>("pits", 5..=6).is_err());
        let why = |text: &str| match Request::new([("pits", text)]).unwrap().number::<usize>("pits", 1..=6) {
            Err(QueryError::Parameter { why, .. }) => why,
            other => panic!("{text}: {other:?}"),
        };
        // Numbers out of range are named as such, even past what the type holds.
        assert_eq!(why("99999999999999999999999"), "99999999999999999999999 is not in 1 to 6");
        assert_eq!(why("-1"), "-1 is not in 1 to 6");
        assert_eq!(why("7"), "7 is not in 1 to 6");
        assert_eq!(why("3.0"), "`3.0` is not a number");
        assert_eq!(Request::new([("pits", " 3 ")]).unwrap().number::<usize>("pits", 1..=6).unwrap(), Some(3));
    }
}
