//! Trias positions: the report of `solve trias` and the server's answers.
//!
//! Request parameters: `holes`, then `stones` (a hole, at the start) or `position`.

use super::{open_loaded, tables_error, Answer, Board, Cell, Database, Described, Loaded, Opened, QueryError, Request};
use crate::analysis::{position_report, Header};
use crate::registry::{self, Build, RegistryError};
use crate::report::{PositionReport, ReachableReport, TablesReport};
use games::trias::{Lap, LapEnd, NotationError, Position, Trias, MAX_HOLES, MAX_STONES};
use retro::Tables;
use serde_json::json;
use std::path::Path;

/// The report of `position` (the start of `stones` a hole, or any position), with the
/// laps of every move in its details if `explain`, and the positions of its principal
/// line.
#[allow(clippy::too_many_arguments)]
pub fn report(
    game: &Trias,
    tables: &Tables<Trias>,
    position: &Position,
    stones: Option<u32>,
    explain: bool,
    max_line: usize,
    tables_report: TablesReport,
    reachable: Option<ReachableReport>,
) -> Result<(PositionReport, Vec<String>), retro::line::LineError> {
    let details = explain.then(|| {
        let moves: Vec<_> = laps(position)
            .iter()
            .map(|(name, laps, removed)| json!({ "move": name, "removed": removed, "laps": laps_json(position, laps) }))
            .collect();
        json!({ "laps": moves })
    });
    let header = Header {
        game: "trias".to_owned(),
        parameters: json!({ "holes": game.holes(), "stones": stones }),
        rules: "standard".to_owned(),
        start: stones.is_some(),
        to_move: position.to_move().name().to_lowercase(),
        details,
    };
    let named = |p: &Position| game.named_moves(p);
    position_report(game, tables, position, header, named, max_line, tables_report, reachable)
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
/// South's left.
pub fn board(position: &Position) -> Board {
    let k = position.holes();
    let rows = [(2, "north"), (1, "middle"), (0, "south")]
        .iter()
        .map(|&(row, owner)| {
            (1..=k)
                .map(|file| Cell { text: position.hole(row, file).to_string(), owner: Some(owner.to_owned()) })
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
fn asked(request: &Request) -> Result<(Position, Option<u32>), QueryError> {
    request.only(&["holes", "stones", "position"])?;
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
    Ok((position, position.start_stones()))
}

/// The command that builds tables answering `request`: those of the smallest start
/// holding the position, else, past what a 64-bit index numbers, the position's own
/// (`--position … --build`), as `solve trias` builds them. Past that too it is
/// impossible: no command builds them.
pub fn command(request: &Request, root: &Path) -> Result<Build, QueryError> {
    let (position, _) = asked(request)?;
    let (k, n) = (position.holes(), position.stones());
    let per_hole = games::trias::stones_a_hole_holding(k, n);
    let command = if Trias::new(k, 3 * k as u32 * per_hole).is_ok() {
        format!("solve trias --holes {k} --stones {per_hole}")
    } else if Trias::new(k, n).is_ok() {
        format!("solve trias --position \"{position}\" --build")
    } else {
        return Err(QueryError::Impossible(format!(
            "the Trias tables of 3x{k} up to {n} stones have more positions than a 64-bit index can number: no \
             command builds them"
        )));
    };
    Ok(Build { command, dir: registry::trias_dir(root, k), note: None })
}

/// Opens Trias's tables of `tiers` in `dir` under the key `trias holes=K`.
pub(crate) fn open(key: &str, dir: &Path, tiers: &[String]) -> Result<Box<dyn Database>, RegistryError> {
    let (game, tiers) = registry::trias_game(key, tiers)?;
    let most = tiers.iter().copied().max().unwrap_or(0) as u32;
    let describe = |game: &Trias, _: &Tables<Trias>| {
        let k = game.holes();
        Described {
            rules: "standard".to_owned(),
            parameters: json!({ "holes": k }),
            starts: (1..=most / (3 * k as u32)).map(|s| json!({ "holes": k, "stones": s })).collect(),
        }
    };
    open_loaded("trias", key, game, dir, &tiers, describe, answer)
}

fn answer(db: &Opened<Loaded<Trias>>, request: &Request) -> Result<Answer, QueryError> {
    let (position, stones) = asked(request)?;
    let tier = u8::try_from(position.stones()).ok();
    if position.holes() != db.state.game.holes() || tier.and_then(|t| db.state.tables.table(t)).is_none() {
        return Err(QueryError::NotHere);
    }
    let tables_report = db.holding.tables.clone();
    let (report, line) =
        report(&db.state.game, &db.state.tables, &position, stones, false, request.max_line()?, tables_report, None)
            .map_err(tables_error)?;
    Ok(Answer { report, board: board(&position), line_positions: line })
}
