//! Trysse and Wari positions: the report of `solve awari --rules trysse|wari` and the
//! server's answers.
//!
//! Request parameters: `rules` (`trysse` or `wari`), `pits` (6 by default), `seeds`
//! (stones a pit at the start; or read off the position's stones), `target` (the rules'
//! default by default), then `position` (or the start).

use super::awari::two_rows;
use super::{open_loaded, tables_error, Answer, Cell, Database, Described, Loaded, Opened, QueryError, Request};
use crate::analysis::{position_report, Header};
use crate::registry::{self, Build, RegistryError};
use crate::report::{PositionReport, TablesReport};
use games::awari::{MAX_PITS, START_STONES};
use games::oware::{NotationError, Oware, Position, TargetRules};
use retro::{Game, Move, Tables, Turn};
use serde_json::json;
use std::path::Path;

/// The report of `position` from the tables that answer it, with the positions of its
/// principal line.
pub fn report(
    game: &Oware,
    tables: &Tables<Oware>,
    position: &Position,
    tables_report: TablesReport,
    max_line: usize,
) -> Result<(PositionReport, Vec<String>), retro::line::LineError> {
    let sowings = |p: &Position| if game.end(p).is_some() { Vec::new() } else { game.sowings(p) };
    let named = |p: &Position| {
        sowings(p)
            .into_iter()
            .map(|(pit, sown)| {
                ((pit + 1).to_string(), Move { position: game.after(p, sown), gain: 0, turn: Turn::Passes })
            })
            .collect()
    };
    let start = *position == game.start();
    let rules = game.rules().name().to_owned();
    let header = Header {
        game: rules.clone(),
        parameters: json!({"pits": game.pits_per_row(), "seeds": game.seeds(), "target": game.target()}),
        rules,
        start,
        // An Oware position is written from the mover's side and does not say who he is.
        to_move: if start { "south" } else { "mover" }.to_owned(),
        details: None,
    };
    let (mut report, line) = position_report(game, tables, position, header, named, max_line, tables_report, None)?;
    for (m, (_, sown)) in report.moves.iter_mut().flatten().zip(sowings(position)) {
        m.captures = Some(sown.captured as u32);
    }
    Ok((report, line))
}

/// A position's text that does not read: well written but not a board here (its size,
/// or more stones than a board holds), or not written in the notation.
fn read_error(e: NotationError) -> QueryError {
    match e {
        NotationError::Board(board) => super::awari::read_error(board),
        NotationError::TooManyStones(_) => QueryError::Impossible(e.to_string()),
        NotationError::Shape | NotationError::BadCount(_) => QueryError::Malformed(e.to_string()),
    }
}

/// What a request asks about: the game (rules, board, stones, target) and the position.
fn asked(request: &Request) -> Result<(Oware, Position), QueryError> {
    request.only(&["rules", "pits", "seeds", "target", "position"])?;
    let rules = match request.get("rules") {
        Some(name) => TargetRules::from_name(name)
            .ok_or_else(|| QueryError::parameter("rules", "unknown Oware rules (known: trysse, wari)"))?,
        None => return Err(QueryError::parameter("rules", "give the rules: trysse or wari")),
    };
    let pits = request.number::<usize>("pits", 1..=MAX_PITS)?;
    let seeds = request.number::<u32>("seeds", 1..=START_STONES)?;
    let target = request.number::<u32>("target", 1..=START_STONES)?;
    let position = match request.position() {
        Some(text) => Some(text.parse::<Position>().map_err(read_error)?),
        None => None,
    };
    let m = match (pits, position.map(|p| p.board.pits_per_row())) {
        (Some(m), Some(p)) if m != p => {
            return Err(QueryError::parameter("pits", format!("the position has {p} pits a row, but pits says {m}")))
        }
        (m, p) => m.or(p).unwrap_or(MAX_PITS),
    };
    let seeds = match (seeds, position) {
        (Some(s), _) => s,
        (None, Some(p)) if p.total() % (2 * m as u32) == 0 && p.total() > 0 => p.total() / (2 * m as u32),
        (None, Some(p)) => {
            return Err(QueryError::Impossible(format!(
                "the position holds {} stones (board and captures): not a start of {m} pits a row",
                p.total()
            )))
        }
        (None, None) => return Err(QueryError::parameter("seeds", "give seeds (the start) or a position")),
    };
    let game = Oware::new(rules, m, seeds, target).map_err(|e| QueryError::Impossible(e.to_string()))?;
    let position = match position {
        Some(p) => {
            game.check(&p).map_err(|e| QueryError::Impossible(e.to_string()))?;
            p
        }
        None => game.start(),
    };
    Ok((game, position))
}

/// The command that builds tables answering `request`.
pub fn command(request: &Request, root: &Path) -> Result<Build, QueryError> {
    let (game, position) = asked(request)?;
    // A position's tier may be one the start never reaches (captures take two or three):
    // the command for a position builds what that position reaches.
    let asked_for = match request.position() {
        Some(_) => format!("--position \"{position}\""),
        None => format!("--seeds {}", game.seeds()),
    };
    let command = format!(
        "solve awari --rules {} --pits {} {asked_for} --target {}",
        game.rules().name(),
        game.pits_per_row(),
        game.target()
    );
    Ok(Build { command, dir: registry::oware_dir(root, &game), note: None })
}

/// Opens the Trysse or Wari tables of `tiers` in `dir` under their key.
pub(crate) fn open(key: &str, dir: &Path, tiers: &[String]) -> Result<Box<dyn Database>, RegistryError> {
    let (game, tiers) = registry::oware_game(key, tiers)?;
    let describe = |game: &Oware, tables: &Tables<Oware>| {
        let parameters = json!({
            "rules": game.rules().name(), "pits": game.pits_per_row(), "seeds": game.seeds(), "target": game.target()
        });
        let built = tables.table(game.total() as u8).is_some();
        Described {
            rules: game.rules().name().to_owned(),
            starts: if built { vec![parameters.clone()] } else { Vec::new() },
            parameters,
        }
    };
    open_loaded("oware", key, game, dir, &tiers, describe, answer)
}

fn answer(db: &Opened<Loaded<Oware>>, request: &Request) -> Result<Answer, QueryError> {
    let (game, position) = asked(request)?;
    if game.table_key() != db.state.game.table_key() || db.state.tables.table(position.board.stones() as u8).is_none() {
        return Err(QueryError::NotHere);
    }
    let (report, line) =
        report(&db.state.game, &db.state.tables, &position, db.holding.tables.clone(), request.max_line()?)
            .map_err(tables_error)?;
    let start = report.start;
    let stores = vec![Cell::count(position.theirs), Cell::count(position.mine)];
    Ok(Answer { report, board: two_rows(position.board.cells(), stores, start), line_positions: line })
}
