//! Awari positions: the report of `solve awari` and the server's answers.
//!
//! Request parameters: `pits` (6 by default), then `seeds` (the start) or `position`.

use super::{open_loaded, tables_error, Answer, Board, Cell, Database, Described, Loaded, Opened, QueryError, Request};
use crate::analysis::{position_report, Header};
use crate::registry::{self, Build, RegistryError};
use crate::report::{PositionReport, TablesReport};
use games::awari::{Awari, Board as AwariBoard, BoardError, MAX_PITS, START_STONES};
use retro::{Move, Tables, Turn};
use serde_json::json;
use std::path::Path;

/// The report of `board` (the start of `seeds` a pit, or any position) from the tables
/// that answer it, with the positions of its principal line.
pub fn report(
    game: &Awari,
    tables: &Tables<Awari>,
    board: &AwariBoard,
    seeds: Option<u32>,
    tables_report: TablesReport,
    max_line: usize,
) -> Result<(PositionReport, Vec<String>), retro::line::LineError> {
    let named = |b: &AwariBoard| {
        b.moves()
            .iter()
            .map(|&(pit, s)| {
                ((pit + 1).to_string(), Move { position: s.board, gain: s.captured as i16, turn: Turn::Passes })
            })
            .collect()
    };
    let header = Header {
        game: "awari".to_owned(),
        parameters: json!({"pits": game.pits_per_row(), "seeds": seeds, "stones": board.stones()}),
        rules: "awari".to_owned(),
        start: seeds.is_some(),
        to_move: if seeds.is_some() { "south" } else { "mover" }.to_owned(),
        details: None,
    };
    let (mut report, line) = position_report(game, tables, board, header, named, max_line, tables_report, None)?;
    for (m, &(_, s)) in report.moves.iter_mut().flatten().zip(board.moves().iter()) {
        m.captures = Some(s.captured as u32);
    }
    Ok((report, line))
}

/// A board of two rows of pits from the mover's chair: the opponent's row right to left
/// on top, the mover's below; `stores` beside them (captures: the opponent's, the mover's).
pub fn two_rows(cells: &[u8], stores: Vec<Cell>, start: bool) -> Board {
    let m = cells.len() / 2;
    let (top, bottom) = if start { ("North", "South") } else { ("opponent", "mover") };
    let row = |cells: &mut dyn Iterator<Item = &u8>, owner: &str| -> Vec<Cell> {
        cells.map(|&n| Cell { text: n.to_string(), owner: Some(owner.to_owned()) }).collect()
    };
    Board {
        layout: "pits",
        rows: vec![row(&mut cells[m..].iter().rev(), "north"), row(&mut cells[..m].iter(), "south")],
        labels: vec![top.to_owned(), bottom.to_owned()],
        stores,
    }
}

/// A position's text that does not read: well written but not a board here (its size,
/// or more stones than a board holds), or not written in the notation.
pub(super) fn read_error(e: BoardError) -> QueryError {
    match e {
        BoardError::TooManyStones(_) | BoardError::Pits(_) => QueryError::Impossible(e.to_string()),
        BoardError::WrongCount(_) | BoardError::BadCount(_) | BoardError::MissingCount | BoardError::Captures(_) => {
            QueryError::Malformed(e.to_string())
        }
    }
}

/// What a request asks about: its pits, the seeds a pit of a start, the board.
fn asked(request: &Request) -> Result<(usize, Option<u32>, AwariBoard), QueryError> {
    request.only(&["pits", "seeds", "position"])?;
    let pits = request.number::<usize>("pits", 1..=MAX_PITS)?;
    let seeds = request.number::<u32>("seeds", 1..=START_STONES)?;
    let board = match (request.position(), seeds) {
        (Some(_), Some(_)) => {
            return Err(QueryError::parameter("seeds", "give seeds (the start) or a position, not both"))
        }
        (Some(text), None) => text.parse::<AwariBoard>().map_err(read_error)?,
        (None, Some(n)) => {
            AwariBoard::start(pits.unwrap_or(MAX_PITS), n).map_err(|e| QueryError::Impossible(e.to_string()))?
        }
        (None, None) => return Err(QueryError::parameter("position", "give seeds (the start) or a position")),
    };
    if let Some(m) = pits.filter(|&m| m != board.pits_per_row()) {
        return Err(QueryError::Impossible(format!(
            "the position has {} pits a row, the request {m}",
            board.pits_per_row()
        )));
    }
    // A start given as a position is the start all the same.
    Ok((board.pits_per_row(), seeds.or_else(|| board.start_seeds()), board))
}

/// The command that builds tables answering `request`.
pub fn command(request: &Request, root: &Path) -> Result<Build, QueryError> {
    let (m, _, board) = asked(request)?;
    let pits = if m == MAX_PITS { String::new() } else { format!(" --pits {m}") };
    Ok(Build {
        command: format!("solve awari{pits} --stones {}", board.stones()),
        dir: registry::awari_dir(root, m),
        note: None,
    })
}

/// Opens Awari's tables of `tiers` in `dir` under the key `awari pits=M rules=awari`.
pub(crate) fn open(key: &str, dir: &Path, tiers: &[String]) -> Result<Box<dyn Database>, RegistryError> {
    let (game, tiers) = registry::awari_game(key, tiers)?;
    let stones = tiers.iter().copied().max().unwrap_or(0) as u32;
    let describe = |game: &Awari, _: &Tables<Awari>| {
        let m = game.pits_per_row();
        Described {
            rules: "awari".to_owned(),
            parameters: json!({ "pits": m }),
            starts: (1..=stones / (2 * m as u32)).map(|n| json!({ "pits": m, "seeds": n })).collect(),
        }
    };
    open_loaded("awari", key, game, dir, &tiers, describe, answer)
}

fn answer(db: &Opened<Loaded<Awari>>, request: &Request) -> Result<Answer, QueryError> {
    let (m, seeds, board) = asked(request)?;
    if m != db.state.game.pits_per_row() || db.state.tables.table(board.stones() as u8).is_none() {
        return Err(QueryError::NotHere);
    }
    let (report, line) =
        report(&db.state.game, &db.state.tables, &board, seeds, db.holding.tables.clone(), request.max_line()?)
            .map_err(tables_error)?;
    Ok(Answer { report, board: two_rows(board.cells(), Vec::new(), seeds.is_some()), line_positions: line })
}
