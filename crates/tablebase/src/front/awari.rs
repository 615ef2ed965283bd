//! Awari's front end: `solve awari`, `/api/awari`.
//!
//! Parameters: `pits` (6 by default), then `seeds` (the start) or `position`.

use super::key::Key;
use super::{counted, Asked, Described, FrontEnd};
use crate::analysis::{Header, NamedMoves};
use crate::query::{Board, Cell, QueryError, Request};
use crate::registry;
use crate::report::PositionReport;
use games::awari::{Awari, Board as AwariBoard, BoardError, MAX_PITS, START_STONES};
use retro::{Move, Tables, Turn};
use serde_json::json;
use std::path::{Path, PathBuf};

impl FrontEnd for Awari {
    type Shown = AwariBoard;
    type Start = u32;
    const NAME: &'static str = "awari";
    const SUMMARY: &'static str = "Awari: Oware under the computer-science rules";
    const PARAMETERS: &'static [&'static str] = &["pits", "seeds", "position"];

    fn tier_named(name: &str) -> Option<u8> {
        name.parse().ok()
    }

    fn from_key(key: &Key, tiers: &[u8]) -> Result<Awari, String> {
        let m = key.number("pits")?;
        let max_stones = tiers.iter().copied().max().unwrap_or(0) as u32;
        if max_stones > START_STONES {
            return Err(format!("a tier of {max_stones} stones: boards here hold at most {START_STONES}"));
        }
        Awari::new(m, max_stones).map_err(|e| e.to_string())
    }

    fn directory(&self, root: &Path) -> PathBuf {
        registry::awari_dir(root, self.pits_per_row())
    }

    fn asked(request: &Request) -> Result<Asked<Awari>, QueryError> {
        asked(request)
    }

    fn command(asked: &Asked<Awari>) -> Result<(String, Option<String>), QueryError> {
        let m = asked.game.pits_per_row();
        let pits = if m == MAX_PITS { String::new() } else { format!(" --pits {m}") };
        Ok((format!("solve awari{pits} --stones {}", asked.position.stones()), None))
    }

    fn played(shown: &AwariBoard) -> AwariBoard {
        *shown
    }

    fn answering(asked: &Asked<Awari>) -> Result<(Awari, Vec<u8>), QueryError> {
        let n = asked.position.stones();
        let game = Awari::new(asked.game.pits_per_row(), n).map_err(|e| QueryError::Impossible(e.to_string()))?;
        // A start's directory is whole, as `--stones` builds it: every tier up to its
        // stones, those no capture reaches from it too.
        let tiers = match asked.start {
            Some(_) => game.tiers_up_to(n),
            None => vec![n as u8],
        };
        Ok((game, tiers))
    }

    fn title(asked: &Asked<Awari>) -> String {
        let m = asked.game.pits_per_row();
        match asked.start {
            Some(seeds) => format!(
                "Awari {m}x{seeds}: {m} pits a row, {} in each ({}), South to move",
                counted(seeds, "stone", "stones"),
                counted(2 * m as u32 * seeds, "stone", "stones")
            ),
            None => format!(
                "Awari, {m} pits a row: a position with {}",
                counted(asked.position.stones(), "stone", "stones")
            ),
        }
    }

    fn board(asked: &Asked<Awari>) -> Board {
        two_rows(asked.position.cells(), Vec::new(), asked.start.is_some())
    }

    fn header(&self, asked: &Asked<Awari>, _: &Tables<Awari>) -> Result<Header, retro::line::LineError> {
        let seeds = asked.start;
        Ok(Header {
            game: Self::NAME.to_owned(),
            parameters: json!({"pits": self.pits_per_row(), "seeds": seeds, "stones": asked.position.stones()}),
            rules: "awari".to_owned(),
            start: seeds.is_some(),
            to_move: if seeds.is_some() { "south" } else { "mover" }.to_owned(),
            details: None,
        })
    }

    fn named_moves(&self, board: &AwariBoard) -> NamedMoves<AwariBoard> {
        board
            .moves()
            .iter()
            .map(|&(pit, s)| {
                ((pit + 1).to_string(), Move { position: s.board, gain: s.captured as i16, turn: Turn::Passes })
            })
            .collect()
    }

    fn annotate(&self, board: &AwariBoard, report: &mut PositionReport) {
        for (m, &(_, s)) in report.moves.iter_mut().flatten().zip(board.moves().iter()) {
            m.captures = Some(s.captured as u32);
        }
    }

    fn described(&self, tables: &Tables<Awari>) -> Described {
        let m = self.pits_per_row();
        let stones = tables.tiers().copied().max().unwrap_or(0) as u32;
        Described {
            rules: "awari".to_owned(),
            parameters: json!({ "pits": m }),
            starts: (1..=stones / (2 * m as u32)).map(|n| json!({ "pits": m, "seeds": n })).collect(),
        }
    }
}

/// A board of two rows of pits from the mover's chair: the opponent's row right to left
/// on top, the mover's below, each of his pits named as the move that sows it;
/// `stores` beside them (captures: the opponent's, the mover's). At the start the mover
/// is South; elsewhere the position does not say who he is, and the rows are the
/// mover's and the opponent's.
pub fn two_rows(cells: &[u8], stores: Vec<Cell>, start: bool) -> Board {
    let m = cells.len() / 2;
    let (top, bottom) = if start { ("North", "South") } else { ("opponent", "mover") };
    let cell = |n: u8, owner: &str, moves_from: Option<String>| Cell {
        text: n.to_string(),
        owner: Some(owner.to_lowercase()),
        moves_from,
    };
    Board {
        layout: "pits",
        rows: vec![
            cells[m..].iter().rev().map(|&n| cell(n, top, None)).collect(),
            cells[..m].iter().enumerate().map(|(pit, &n)| cell(n, bottom, Some((pit + 1).to_string()))).collect(),
        ],
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

/// What a request asks about: the board of its pits, the position, and the seeds a pit
/// of a start.
fn asked(request: &Request) -> Result<Asked<Awari>, QueryError> {
    request.only(Awari::PARAMETERS)?;
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
    // Indexed for no stones: the request's board, not its tables.
    let game = Awari::new(board.pits_per_row(), 0).map_err(|e| QueryError::Impossible(e.to_string()))?;
    // A start given as a position is the start all the same.
    Ok(Asked { game, start: seeds.or_else(|| board.start_seeds()), tables: None, position: board })
}
