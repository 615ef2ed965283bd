//! Positions of Njaka's game: the report of `solve njaka` and the server's answers.
//!
//! Request parameters: `holes`, `variant` (`standard` by default, or `advanced`),
//! `direction` (`ccw` by default, or `cw`), then `counters` (a hole, at the start) or
//! `position`.

use super::{open_loaded, tables_error, Answer, Board, Cell, Database, Described, Loaded, Opened, QueryError, Request};
use crate::analysis::{position_report, Header};
use crate::registry::{self, Build, RegistryError};
use crate::report::{PositionReport, TablesReport};
use games::njaka::{Njaka, NjakaError, NotationError, Position, Variant, MAX_HOLES};
use games::side::Side;
use retro::{Game, Tables};
use serde_json::json;
use std::path::Path;

/// The report of `position` (the start of `counters` a hole, or any position), with the
/// positions of its principal line.
pub fn report(
    game: &Njaka,
    tables: &Tables<Njaka>,
    position: &Position,
    counters: Option<u32>,
    max_line: usize,
    tables_report: TablesReport,
) -> Result<(PositionReport, Vec<String>), retro::line::LineError> {
    let moves = game.named_moves(position);
    let header = Header {
        game: "njaka".to_owned(),
        parameters: json!({
            "holes": game.holes(),
            "counters": counters,
            "variant": game.variant().name(),
            "clockwise": game.clockwise(),
        }),
        rules: game.variant().name().to_owned(),
        start: counters.is_some(),
        to_move: position.to_move().name().to_lowercase(),
        details: None,
    };
    let named = |p: &Position| game.named_moves(p).into_iter().map(|(n, m, _)| (n, m)).collect();
    let (mut report, line) = position_report(game, tables, position, header, named, max_line, tables_report, None)?;
    for (m, (_, _, sowing)) in report.moves.iter_mut().flatten().zip(&moves) {
        m.captures = sowing.map(|s| s.mover_sets as u32 * 4);
    }
    Ok((report, line))
}

/// The circle as two rows, as the text picture draws it: holes h/2 + 1 to h along the top
/// right to left, 1 to h/2 along the bottom left to right, each with its owner.
pub fn board(position: &Position) -> Board {
    let h = position.holes();
    let cell = |i: usize| Cell {
        text: position.cells()[i].to_string(),
        owner: Some(if position.owner(i) == Side::South { "south" } else { "north" }.to_owned()),
    };
    Board {
        layout: "pits",
        rows: vec![(h / 2..h).rev().map(cell).collect(), (0..h / 2).map(cell).collect()],
        labels: vec![format!("holes {h}–{}", h / 2 + 1), format!("holes 1–{}", h / 2)],
        stores: Vec::new(),
    }
}

/// A position's text that does not read: well written but not a board here (its size,
/// or more counters than a board holds), or not written in the notation.
fn read_error(e: NotationError) -> QueryError {
    match e {
        NotationError::Holes(_) | NotationError::TooManyCounters(_) => QueryError::Impossible(e.to_string()),
        NotationError::Shape(_) | NotationError::Side(_) | NotationError::Hole { .. } => {
            QueryError::Malformed(e.to_string())
        }
    }
}

/// The game (board, variant, direction) and position a request asks about, and for a
/// start its counters a hole.
fn asked(request: &Request) -> Result<(Njaka, Position, Option<u32>), QueryError> {
    request.only(&["holes", "variant", "direction", "counters", "position"])?;
    let variant = match request.get("variant").unwrap_or("standard") {
        "standard" => Variant::Standard,
        "advanced" => Variant::Advanced,
        _ => return Err(QueryError::parameter("variant", "unknown (known: standard, advanced)")),
    };
    let clockwise = match request.get("direction").unwrap_or("ccw") {
        "ccw" => false,
        "cw" => true,
        _ => return Err(QueryError::parameter("direction", "unknown (known: ccw, cw)")),
    };
    let holes = request.number::<usize>("holes", 2..=MAX_HOLES)?;
    let counters = request.number::<u32>("counters", 1..=255)?;
    let (position, start) = match (request.position(), holes, counters) {
        (Some(_), _, Some(_)) => {
            return Err(QueryError::parameter("counters", "give counters (the start) or a position, not both"))
        }
        (Some(text), _, None) => (text.parse::<Position>().map_err(read_error)?, None),
        (None, Some(h), Some(s)) => {
            let game = Njaka::new(h, variant, clockwise, 0).map_err(|e| QueryError::Impossible(e.to_string()))?;
            (game.start(s).map_err(|e| QueryError::Impossible(e.to_string()))?, Some(s))
        }
        (None, _, _) => {
            return Err(QueryError::parameter("position", "give holes and counters (the start) or a position"))
        }
    };
    if let Some(h) = holes.filter(|&h| h != position.holes()) {
        return Err(QueryError::Impossible(format!("the position has {} holes, the request {h}", position.holes())));
    }
    // Indexed for no counters: the request's board and rules, not its tables.
    let game =
        Njaka::new(position.holes(), variant, clockwise, 0).map_err(|e| QueryError::Impossible(e.to_string()))?;
    // A start given as a position is the start all the same.
    let start = start.or_else(|| game.start_counters(&position));
    Ok((game, position, start))
}

/// The command that builds tables answering `request`.
pub fn command(request: &Request, root: &Path) -> Result<Build, QueryError> {
    let (game, position, start) = asked(request)?;
    let variant = if game.variant() == Variant::Advanced { " --advanced" } else { "" };
    let direction = if game.clockwise() { " --clockwise" } else { "" };
    let command = match start {
        Some(s) => format!("solve njaka --holes {} --counters {s}{variant}{direction}", game.holes()),
        None => format!("solve njaka --position \"{position}\" --build{variant}{direction}"),
    };
    Ok(Build { command, dir: registry::njaka_dir(root, &game), note: None })
}

/// Opens the tables of `tiers` in `dir` under the key `njaka holes=H variant=V direction=D`.
pub(crate) fn open(key: &str, dir: &Path, tiers: &[String]) -> Result<Box<dyn Database>, RegistryError> {
    let (game, tiers) = registry::njaka_game(key, tiers)?;
    let describe = |game: &Njaka, tables: &Tables<Njaka>| {
        let h = game.holes();
        let direction = if game.clockwise() { "cw" } else { "ccw" };
        let variant = game.variant().name();
        Described {
            rules: variant.to_owned(),
            parameters: json!({ "holes": h, "variant": variant, "direction": direction }),
            starts: (1..=255u32)
                .take_while(|&s| s * h as u32 <= 255)
                .filter(|&s| tables.table((s * h as u32) as u8).is_some())
                .map(|s| json!({ "holes": h, "variant": variant, "direction": direction, "counters": s }))
                .collect(),
        }
    };
    open_loaded("njaka", key, game, dir, &tiers, describe, answer)
}

fn answer(db: &Opened<Loaded<Njaka>>, request: &Request) -> Result<Answer, QueryError> {
    let (game, position, start) = asked(request)?;
    if game.table_key() != db.state.game.table_key() {
        return Err(QueryError::NotHere);
    }
    match db.state.game.check(&position) {
        Err(NjakaError::TooManyCounters(_)) => return Err(QueryError::NotHere),
        Err(e) => return Err(QueryError::Impossible(e.to_string())),
        Ok(()) => {}
    }
    let tier = u8::try_from(position.counters()).ok();
    if tier.and_then(|t| db.state.tables.table(t)).is_none() {
        return Err(QueryError::NotHere);
    }
    let (report, line) =
        report(&db.state.game, &db.state.tables, &position, start, request.max_line()?, db.holding.tables.clone())
            .map_err(tables_error)?;
    Ok(Answer { report, board: board(&position), line_positions: line })
}
