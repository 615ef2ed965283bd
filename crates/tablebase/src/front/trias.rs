//! Trias's front end: `solve trias`, `/api/trias`.
//!
//! Parameters: `holes`, then `stones` (a hole, at the start) or `position`.

use super::key::Key;
use super::{counted, Asked, Described, FrontEnd};
use crate::analysis::{Header, NamedMoves};
use crate::query::{Board, Cell, QueryError, Request};
use crate::registry;
use games::side::Side;
use games::trias::{Lap, LapEnd, NotationError, Position, Trias, MAX_HOLES, MAX_STONES};
use retro::Tables;
use serde_json::json;
use std::path::{Path, PathBuf};

impl FrontEnd for Trias {
    type Shown = Position;
    type Start = u32;
    const NAME: &'static str = "trias";
    const SUMMARY: &'static str = "Trias on three rows of k holes";
    const PARAMETERS: &'static [&'static str] = &["holes", "stones", "position"];

    fn tier_named(name: &str) -> Option<u8> {
        name.parse().ok()
    }

    fn from_key(key: &Key, tiers: &[u8]) -> Result<Trias, String> {
        let k = key.number("holes")?;
        let max_stones = tiers.iter().copied().max().unwrap_or(0) as u32;
        Trias::new(k, max_stones).map_err(|e| e.to_string())
    }

    fn directory(&self, root: &Path) -> PathBuf {
        registry::trias_dir(root, self.holes())
    }

    fn asked(request: &Request) -> Result<Asked<Trias>, QueryError> {
        asked(request)
    }

    fn command(asked: &Asked<Trias>) -> Result<(String, Option<String>), QueryError> {
        command(&asked.position)
    }

    fn answering(asked: &Asked<Trias>) -> Result<(Trias, Vec<u8>), QueryError> {
        let (k, n) = (asked.position.holes(), asked.position.stones());
        let game = Trias::new(k, n).map_err(|_| beyond_index(k, n))?;
        Ok((game, vec![n as u8]))
    }

    fn played(shown: &Position) -> Position {
        *shown
    }

    fn title(asked: &Asked<Trias>) -> String {
        let (k, position) = (asked.game.holes(), &asked.position);
        match asked.start {
            Some(s) => format!(
                "Trias 3x{k} with {} a hole ({} stones), South moves first",
                counted(s, "stone", "stones"),
                3 * k as u32 * s
            ),
            None => format!("Trias 3x{k}, a position with {}", counted(position.stones(), "stone", "stones")),
        }
    }

    fn board(asked: &Asked<Trias>) -> Board {
        board(&asked.position)
    }

    fn header(&self, asked: &Asked<Trias>, _: &Tables<Trias>) -> Result<Header, retro::line::LineError> {
        Ok(Header {
            game: Self::NAME.to_owned(),
            parameters: json!({ "holes": self.holes(), "stones": asked.start }),
            rules: "standard".to_owned(),
            start: asked.start.is_some(),
            to_move: asked.position.to_move().name().to_lowercase(),
            details: None,
        })
    }

    fn named_moves(&self, position: &Position) -> NamedMoves<Position> {
        Trias::named_moves(self, position)
    }

    fn described(&self, tables: &Tables<Trias>) -> Described {
        let k = self.holes();
        let most = tables.tiers().copied().max().unwrap_or(0) as u32;
        Described {
            rules: "standard".to_owned(),
            parameters: json!({ "holes": k }),
            starts: (1..=most / (3 * k as u32)).map(|s| json!({ "holes": k, "stones": s })).collect(),
        }
    }
}

/// The laps of every legal move of `position`, as a report's details (`docs/json.md`,
/// Details): what `solve trias --explain` adds.
pub fn laps_details(position: &Position) -> serde_json::Value {
    let moves: Vec<_> = laps(position)
        .iter()
        .map(|(name, laps, removed)| json!({ "move": name, "removed": removed, "laps": laps_json(position, laps) }))
        .collect();
    json!({ "laps": moves })
}

/// Every legal move's name, laps, and stones taken off the board.
pub fn laps(position: &Position) -> Vec<(String, Vec<Lap>, u8)> {
    position
        .moves()
        .map(|(file, _)| {
            let (laps, removed) = position.laps(file).expect("a legal move has laps");
            (file.to_string(), laps, removed)
        })
        .collect()
}

/// The laps of a move as JSON (`docs/json.md`, Details).
fn laps_json(position: &Position, laps: &[Lap]) -> serde_json::Value {
    let name = |cell| position.cell_name(cell);
    laps.iter()
        .map(|lap| {
            let (end, to, captured) = match lap.end {
                LapEnd::Relay => ("relay", None, None),
                LapEnd::Transfer(own) => ("transfer", Some(name(own)), None),
                LapEnd::Capture(hole, n) => ("capture", Some(name(hole)), Some(n)),
                LapEnd::Removed => ("removed", None, None),
            };
            json!({ "from": name(lap.from), "stones": lap.stones, "last": name(lap.last), "end": end, "to": to, "captured": captured })
        })
        .collect()
}

/// The board as South sees it: North's row, the middle row, South's row, each from
/// South's left; the mover's holes named as his moves (files from his left).
pub fn board(position: &Position) -> Board {
    let k = position.holes();
    let mover = if position.to_move() == Side::South { 0 } else { 2 };
    let move_name =
        |row: usize, file: usize| (row == mover).then(|| if row == 0 { file } else { k + 1 - file }.to_string());
    let rows = [(2, "north"), (1, "middle"), (0, "south")]
        .iter()
        .map(|&(row, owner)| {
            (1..=k)
                .map(|file| Cell {
                    text: position.hole(row, file).to_string(),
                    owner: Some(owner.to_owned()),
                    moves_from: move_name(row, file),
                })
                .collect()
        })
        .collect();
    Board { layout: "rows", rows, labels: vec!["N".into(), "M".into(), "S".into()], stores: Vec::new() }
}

/// A position's text that does not read: well written but not a board here (its size,
/// or more stones than a board holds), or not written in the notation.
fn read_error(e: NotationError) -> QueryError {
    match e {
        NotationError::Holes(_) | NotationError::TooManyStones(_) => QueryError::Impossible(e.to_string()),
        NotationError::Shape(_)
        | NotationError::Side(_)
        | NotationError::Rows(_)
        | NotationError::RowLength { .. }
        | NotationError::Count { .. } => QueryError::Malformed(e.to_string()),
    }
}

/// What a request asks about: the position and, for a start, its stones a hole.
fn asked(request: &Request) -> Result<Asked<Trias>, QueryError> {
    request.only(Trias::PARAMETERS)?;
    let holes = request.number::<usize>("holes", 1..=MAX_HOLES)?;
    let stones = request.number::<u32>("stones", 1..=MAX_STONES)?;
    let position = match (request.position(), holes, stones) {
        (Some(_), _, Some(_)) => {
            return Err(QueryError::parameter("stones", "give stones (the start) or a position, not both"))
        }
        (Some(text), _, None) => text.parse::<Position>().map_err(read_error)?,
        (None, Some(k), Some(s)) => Position::start(k, s).ok_or_else(|| {
            QueryError::Impossible(format!("3x{k} with {s} stones a hole: more than {MAX_STONES} stones"))
        })?,
        (None, _, _) => {
            return Err(QueryError::parameter("position", "give holes and stones (the start) or a position"))
        }
    };
    if let Some(k) = holes.filter(|&k| k != position.holes()) {
        return Err(QueryError::Impossible(format!(
            "the position has {} holes a row, the request {k}",
            position.holes()
        )));
    }
    // Indexed for no stones: the request's board, not its tables.
    let game = Trias::new(position.holes(), 0).map_err(|e| QueryError::Impossible(e.to_string()))?;
    Ok(Asked { game, start: position.start_stones(), tables: None, position })
}

/// The command that builds tables answering `position`: those of the smallest start
/// holding it, else, past what a 64-bit index numbers, the position's own (`--position
/// … --build`), as `solve trias` builds them. Past that too it is impossible: no command
/// builds them.
pub fn command(position: &Position) -> Result<(String, Option<String>), QueryError> {
    let (k, n) = (position.holes(), position.stones());
    let per_hole = games::trias::stones_a_hole_holding(k, n);
    let every = 3 * k as u32 * per_hole;
    if Trias::new(k, every).is_ok() {
        let note = (every != n).then(|| {
            format!("every tier up to {every} stones; `solve trias --position … --build` builds just this position's")
        });
        Ok((format!("solve trias --holes {k} --stones {per_hole}"), note))
    } else if Trias::new(k, n).is_ok() {
        let note = format!("the start of {per_hole} a hole is past what a 64-bit index numbers");
        Ok((format!("solve trias --position \"{position}\" --build"), Some(note)))
    } else {
        Err(beyond_index(k, n))
    }
}

/// Why the tables of 3×`k` up to `n` stones are built by no command.
fn beyond_index(k: usize, n: u32) -> QueryError {
    let positions: f64 = (0..=n).map(|t| games::trias::tier_positions(k, t) as f64).sum();
    QueryError::BeyondIndex(format!(
        "the Trias tables of 3x{k} for every number of stones from 0 to {n} (about {positions:.3e} positions) have \
         more positions than a 64-bit index can number: no command builds them"
    ))
}
