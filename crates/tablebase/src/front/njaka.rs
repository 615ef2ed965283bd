//! Njaka's game's front end: `solve njaka`, `/api/njaka`.
//!
//! Parameters: `holes`, `variant` (`standard` by default, or `advanced`), `direction`
//! (`ccw` by default, or `cw`), then `counters` (a hole, at the start) or `position`.

use super::key::Key;
use super::{counted, Asked, Described, FrontEnd};
use crate::analysis::{Header, NamedMoves};
use crate::query::{Board, Cell, QueryError, Request};
use crate::registry;
use crate::report::PositionReport;
use games::njaka::{Direction, Njaka, NjakaError, NotationError, Position, Variant, MAX_HOLES};
use games::side::Side;
use retro::Tables;
use serde_json::json;
use std::path::{Path, PathBuf};

impl FrontEnd for Njaka {
    type Shown = Position;
    type Start = u32;
    const NAME: &'static str = "njaka";
    const SUMMARY: &'static str = "Njaka's Mancala Game, two players, standard or advanced";
    const PARAMETERS: &'static [&'static str] = &["holes", "variant", "direction", "counters", "position"];

    fn tier_named(name: &str) -> Option<u8> {
        name.parse().ok()
    }

    fn from_key(key: &Key, tiers: &[u8]) -> Result<Njaka, String> {
        let holes = key.number("holes")?;
        let variant = key.named("variant", Variant::from_name, "standard or advanced")?;
        let direction = key.named("direction", Direction::from_name, "ccw or cw")?;
        let max = tiers.iter().copied().max().unwrap_or(0) as u32;
        Njaka::new(holes, variant, direction, max).map_err(|e| e.to_string())
    }

    fn directory(&self, root: &Path) -> PathBuf {
        registry::njaka_dir(root, self)
    }

    fn asked(request: &Request) -> Result<Asked<Njaka>, QueryError> {
        asked(request)
    }

    fn command(asked: &Asked<Njaka>) -> Result<(String, Option<String>), QueryError> {
        let game = &asked.game;
        let rules = format!("--variant {} --direction {}", game.variant().name(), game.direction().name());
        let command = match asked.start {
            Some(s) => format!("solve njaka --holes {} --counters {s} {rules}", game.holes()),
            None => format!("solve njaka --position \"{}\" --build {rules}", asked.position),
        };
        Ok((command, None))
    }

    fn played(shown: &Position) -> Position {
        *shown
    }

    fn answering(asked: &Asked<Njaka>) -> Result<(Njaka, Vec<u8>), QueryError> {
        let (game, position) = (&asked.game, &asked.position);
        let n = position.counters();
        match Njaka::new(game.holes(), game.variant(), game.direction(), n) {
            Ok(game) => Ok((game, vec![n as u8])),
            Err(NjakaError::Index(_)) => Err(QueryError::BeyondIndex(format!(
                "{} holes with {}: more positions than a 64-bit index numbers",
                game.holes(),
                counted(n, "counter", "counters")
            ))),
            Err(e) => Err(QueryError::Impossible(e.to_string())),
        }
    }

    fn title(asked: &Asked<Njaka>) -> String {
        let game = &asked.game;
        match asked.start {
            Some(s) => format!(
                "Njaka's game ({}{}), {} holes with {} each, South moves first",
                game.variant().name(),
                if game.direction() == Direction::Clockwise { ", clockwise" } else { "" },
                game.holes(),
                counted(s, "counter", "counters")
            ),
            None => format!(
                "Njaka's game ({}), a position with {}",
                game.variant().name(),
                counted(asked.position.counters(), "counter", "counters")
            ),
        }
    }

    fn board(asked: &Asked<Njaka>) -> Board {
        board(&asked.position)
    }

    fn header(&self, asked: &Asked<Njaka>, _: &Tables<Njaka>) -> Result<Header, retro::line::LineError> {
        Ok(Header {
            game: Self::NAME.to_owned(),
            parameters: json!({
                "holes": self.holes(),
                "counters": asked.start,
                "variant": self.variant().name(),
                "direction": self.direction().name(),
            }),
            rules: self.variant().name().to_owned(),
            start: asked.start.is_some(),
            to_move: asked.position.to_move().name().to_lowercase(),
            details: None,
        })
    }

    fn named_moves(&self, position: &Position) -> NamedMoves<Position> {
        Njaka::named_moves(self, position).into_iter().map(|(n, m, _)| (n, m)).collect()
    }

    fn annotate(&self, position: &Position, report: &mut PositionReport) {
        for (m, (_, _, sowing)) in report.moves.iter_mut().flatten().zip(Njaka::named_moves(self, position)) {
            m.captures = sowing.map(|s| s.mover_sets as u32 * 4);
        }
    }

    fn described(&self, tables: &Tables<Njaka>) -> Described {
        let h = self.holes();
        let parameters = json!({ "holes": h, "variant": self.variant().name(), "direction": self.direction().name() });
        let starts = (1..=255u32)
            .take_while(|&s| s * h as u32 <= 255)
            .filter(|&s| tables.table((s * h as u32) as u8).is_some())
            .map(|s| {
                let mut start = parameters.clone();
                start["counters"] = json!(s);
                start
            })
            .collect();
        Described { rules: self.variant().name().to_owned(), parameters, starts }
    }
}

/// The circle as a ring: one row of the holes counterclockwise from hole 1, each with its
/// owner, the mover's named as his moves (the hole's number).
pub fn board(position: &Position) -> Board {
    let h = position.holes();
    let to_move = position.to_move();
    let cell = |i: usize| Cell {
        text: position.cells()[i].to_string(),
        owner: Some(if position.owner(i) == Side::South { "south" } else { "north" }.to_owned()),
        moves_from: (position.owner(i) == to_move).then(|| (i + 1).to_string()),
    };
    Board {
        layout: "ring",
        rows: vec![(0..h).map(cell).collect()],
        labels: vec![format!("holes 1 to {h}, counterclockwise")],
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
fn asked(request: &Request) -> Result<Asked<Njaka>, QueryError> {
    request.only(Njaka::PARAMETERS)?;
    let variant = Variant::from_name(request.get("variant").unwrap_or("standard"))
        .ok_or_else(|| QueryError::parameter("variant", "unknown (known: standard, advanced)"))?;
    let direction = Direction::from_name(request.get("direction").unwrap_or("ccw"))
        .ok_or_else(|| QueryError::parameter("direction", "unknown (known: ccw, cw)"))?;
    let holes = request.number::<usize>("holes", 2..=MAX_HOLES)?;
    let counters = request.number::<u32>("counters", 1..=255)?;
    let position = match (request.position(), holes, counters) {
        (Some(_), _, Some(_)) => {
            return Err(QueryError::parameter("counters", "give counters (the start) or a position, not both"))
        }
        (Some(text), _, None) => text.parse::<Position>().map_err(read_error)?,
        (None, Some(h), Some(s)) => {
            let game = Njaka::new(h, variant, direction, 0).map_err(|e| QueryError::Impossible(e.to_string()))?;
            game.start(s).map_err(|e| QueryError::Impossible(e.to_string()))?
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
        Njaka::new(position.holes(), variant, direction, 0).map_err(|e| QueryError::Impossible(e.to_string()))?;
    match game.check(&position) {
        Ok(()) | Err(NjakaError::TooManyCounters(_)) => {}
        Err(e) => return Err(QueryError::Impossible(e.to_string())),
    }
    // A start given as a position is the start all the same.
    Ok(Asked { start: game.start_counters(&position), tables: None, game, position })
}
