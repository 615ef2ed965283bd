//! Trysse's and Wari's front end: `solve awari --rules trysse|wari`, `/api/oware`.
//!
//! Parameters: `rules` (`trysse` or `wari`), `pits` (6 by default), `seeds` (stones a
//! pit at the start; or read off the position's stones), `target` (the rules' default by
//! default), then `position` (or the start).

use super::awari::two_rows;
use super::key::Key;
use super::{Asked, Described, FrontEnd};
use crate::analysis::{Header, NamedMoves};
use crate::query::{Board, Cell, QueryError, Request};
use crate::registry;
use crate::report::PositionReport;
use games::awari::{MAX_PITS, START_STONES};
use games::oware::{NotationError, Oware, Position, TargetRules};
use retro::{Game, Move, Tables, Turn};
use serde_json::json;
use std::path::{Path, PathBuf};

impl FrontEnd for Oware {
    type Shown = Position;
    type Start = u32;
    const NAME: &'static str = "oware";
    const SUMMARY: &'static str = "Trysse and Wari: Oware, first to a target";
    const PARAMETERS: &'static [&'static str] = &["rules", "pits", "seeds", "target", "position"];

    fn tier_named(name: &str) -> Option<u8> {
        name.parse().ok()
    }

    fn from_key(key: &Key, tiers: &[u8]) -> Result<Oware, String> {
        let rules = key.named("rules", TargetRules::from_name, "trysse or wari")?;
        let m: usize = key.number("pits")?;
        let stones: u32 = key.number("stones")?;
        if !(1..=MAX_PITS).contains(&m) || !stones.is_multiple_of(2 * m as u32) {
            return Err(format!("{stones} stones do not fill {m} pits a row evenly"));
        }
        let game =
            Oware::new(rules, m, stones / (2 * m as u32), Some(key.number("target")?)).map_err(|e| e.to_string())?;
        match tiers.iter().find(|&&t| t as u32 > game.total()) {
            Some(t) => Err(format!("a tier of {t} stones in a game of {}", game.total())),
            None => Ok(game),
        }
    }

    fn directory(&self, root: &Path) -> PathBuf {
        registry::oware_dir(root, self)
    }

    fn asked(request: &Request) -> Result<Asked<Oware>, QueryError> {
        asked(request)
    }

    /// A position's tier may be one the start never reaches (captures take two or three):
    /// the command for a position builds what that position reaches.
    fn command(asked: &Asked<Oware>) -> Result<(String, Option<String>), QueryError> {
        let game = &asked.game;
        let asked_for = match asked.start {
            Some(seeds) => format!("--seeds {seeds}"),
            None => format!("--position \"{}\"", asked.position),
        };
        let command = format!(
            "solve awari --rules {} --pits {} {asked_for} --target {}",
            game.rules().name(),
            game.pits_per_row(),
            game.target()
        );
        Ok((command, None))
    }

    fn played(shown: &Position) -> Position {
        *shown
    }

    fn answering(asked: &Asked<Oware>) -> Result<(Oware, Vec<u8>), QueryError> {
        Ok((asked.game.clone(), vec![asked.game.locate(&asked.position).tier]))
    }

    fn title(asked: &Asked<Oware>) -> String {
        let game = &asked.game;
        format!(
            "{} {}x{}: {} pits a row, {} stones in each ({} stones), first to capture {} wins",
            game.rules().name(),
            game.pits_per_row(),
            game.seeds(),
            game.pits_per_row(),
            game.seeds(),
            game.total(),
            game.target()
        )
    }

    fn board(asked: &Asked<Oware>) -> Board {
        let position = &asked.position;
        let stores = vec![Cell::count(position.theirs), Cell::count(position.mine)];
        two_rows(position.board.cells(), stores, asked.start.is_some())
    }

    fn header(&self, asked: &Asked<Oware>, _: &Tables<Oware>) -> Result<Header, retro::line::LineError> {
        let start = asked.start.is_some();
        Ok(Header {
            game: Self::NAME.to_owned(),
            parameters: json!({"pits": self.pits_per_row(), "seeds": self.seeds(), "target": self.target()}),
            rules: self.rules().name().to_owned(),
            start,
            // An Oware position is written from the mover's side and does not say who he is.
            to_move: if start { "south" } else { "mover" }.to_owned(),
            details: None,
        })
    }

    fn named_moves(&self, position: &Position) -> NamedMoves<Position> {
        sowings(self, position)
            .into_iter()
            .map(|(pit, sown)| {
                ((pit + 1).to_string(), Move { position: self.after(position, sown), gain: 0, turn: Turn::Passes })
            })
            .collect()
    }

    fn annotate(&self, position: &Position, report: &mut PositionReport) {
        for (m, (_, sown)) in report.moves.iter_mut().flatten().zip(sowings(self, position)) {
            m.captures = Some(sown.captured as u32);
        }
    }

    fn described(&self, tables: &Tables<Oware>) -> Described {
        let parameters = json!({
            "rules": self.rules().name(), "pits": self.pits_per_row(), "seeds": self.seeds(), "target": self.target()
        });
        let built = tables.table(self.total() as u8).is_some();
        Described {
            rules: self.rules().name().to_owned(),
            starts: if built { vec![parameters.clone()] } else { Vec::new() },
            parameters,
        }
    }
}

/// The sowings of `position`'s legal moves: none where the game is over.
fn sowings(game: &Oware, position: &Position) -> Vec<(usize, games::awari::Sown)> {
    if game.end(position).is_some() {
        Vec::new()
    } else {
        game.sowings(position)
    }
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
fn asked(request: &Request) -> Result<Asked<Oware>, QueryError> {
    request.only(Oware::PARAMETERS)?;
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
    Ok(Asked { start: (position == game.start()).then_some(game.seeds()), tables: None, game, position })
}
