//! The toy game's front end, the worked example of `docs/adding-a-game.md`: what makes
//! `retro::toy`'s scoring variants (`Toy::score`, a line; `Toy::cyclic_score`, a ring)
//! answer requests and be served, with no code of their own elsewhere. Compiled with the
//! `toy` feature, for tests.
//!
//! Parameters: `cells` (2 to 16), `ring` (`yes` or `no`, by default `yes`), then `stones`
//! (the start: a pile of that many, the marker on cell 0) or `position`
//! (`3 stones, marker on 1`).

use super::key::Key;
use super::{counted, Asked, Described, FrontEnd};
use crate::analysis::{Header, NamedMoves};
use crate::query::{Board, Cell, QueryError, Request};
use retro::toy::{Pile, Toy};
use retro::{Game, Tables};
use serde_json::json;
use std::path::{Path, PathBuf};

/// Most cells a request may ask for.
const MAX_CELLS: u8 = 16;

impl FrontEnd for Toy<i16> {
    type Shown = Pile;
    type Start = u8;
    const NAME: &'static str = "toy";
    const SUMMARY: &'static str = "The toy game of docs/adding-a-game.md: a pile of stones and a marker";
    const PARAMETERS: &'static [&'static str] = &["cells", "ring", "stones", "position"];

    fn tier_named(name: &str) -> Option<u8> {
        name.parse().ok()
    }

    fn from_key(key: &Key, _tiers: &[u8]) -> Result<Toy<i16>, String> {
        let cells = key.number("cells")?;
        Ok(if key.yes_no("ring")? { Toy::cyclic_score(cells) } else { Toy::score(cells) })
    }

    fn directory(&self, root: &Path) -> PathBuf {
        let shape = if self.ring() { "ring" } else { "line" };
        root.join(Self::NAME).join(format!("{shape}-{}", self.cells()))
    }

    fn asked(request: &Request) -> Result<Asked<Toy<i16>>, QueryError> {
        request.only(Self::PARAMETERS)?;
        let cells = request.number("cells", 2..=MAX_CELLS)?.ok_or_else(|| QueryError::parameter("cells", "give it"))?;
        let game = match request.get("ring").unwrap_or("yes") {
            "yes" => Toy::cyclic_score(cells),
            "no" => Toy::score(cells),
            _ => return Err(QueryError::parameter("ring", "yes or no")),
        };
        let stones = request.number::<u8>("stones", 1..=u8::MAX)?;
        let position = match (request.position(), stones) {
            (Some(text), None) => read(text, cells)?,
            (None, Some(stones)) => Pile { stones, marker: 0 },
            _ => return Err(QueryError::parameter("position", "give stones (the start) or a position")),
        };
        let start = (position.marker == 0).then_some(position.stones);
        Ok(Asked { game, position, start, tables: None })
    }

    fn command(_: &Asked<Toy<i16>>) -> Result<(String, Option<String>), QueryError> {
        Err(QueryError::Impossible("no command builds the toy game's tables: its tests do".to_owned()))
    }

    fn played(shown: &Pile) -> Pile {
        *shown
    }

    fn answering(asked: &Asked<Toy<i16>>) -> Result<(Toy<i16>, Vec<u8>), QueryError> {
        Ok((asked.game, vec![asked.position.stones]))
    }

    fn title(asked: &Asked<Toy<i16>>) -> String {
        let shape = if asked.game.ring() { "ring" } else { "line" };
        let board = format!("Toy, {} cells in a {shape}", asked.game.cells());
        match asked.start {
            Some(stones) => format!("{board}, a pile of {}", counted(stones, "stone", "stones")),
            None => format!("{board}: a position"),
        }
    }

    fn board(asked: &Asked<Toy<i16>>) -> Board {
        let marker = asked.position.marker;
        let cells = (0..asked.game.cells()).map(|c| Cell::count(if c == marker { "*" } else { "" })).collect();
        Board {
            layout: "rows",
            rows: vec![cells],
            labels: vec![format!("pile of {}", asked.position.stones)],
            stores: Vec::new(),
        }
    }

    fn header(&self, asked: &Asked<Toy<i16>>, _: &Tables<Toy<i16>>) -> Result<Header, retro::line::LineError> {
        Ok(Header {
            game: Self::NAME.to_owned(),
            parameters: json!({ "cells": self.cells(), "ring": yes_no(self.ring()), "stones": asked.start }),
            rules: "score".to_owned(),
            start: asked.start.is_some(),
            to_move: "mover".to_owned(),
            details: None,
        })
    }

    fn named_moves(&self, position: &Pile) -> NamedMoves<Pile> {
        let mut moves = Vec::new();
        self.moves(position, &mut moves);
        moves
            .into_iter()
            .map(|m| match position.stones - m.position.stones {
                0 => ("shift".to_owned(), m),
                taken => (format!("take{taken}"), m),
            })
            .collect()
    }

    fn described(&self, tables: &Tables<Toy<i16>>) -> Described {
        let parameters = json!({ "cells": self.cells(), "ring": yes_no(self.ring()) });
        let most = tables.tiers().copied().max().unwrap_or(0);
        let starts = (1..=most)
            .map(|stones| {
                let mut start = parameters.clone();
                start["stones"] = json!(stones);
                start
            })
            .collect();
        Described { rules: "score".to_owned(), parameters, starts }
    }
}

fn yes_no(yes: bool) -> &'static str {
    if yes {
        "yes"
    } else {
        "no"
    }
}

/// A position as `Pile` writes it: `3 stones, marker on 1`.
fn read(text: &str, cells: u8) -> Result<Pile, QueryError> {
    let malformed =
        || QueryError::Malformed(format!("`{}` is not `N stones, marker on C`", games::echo::excerpt(text)));
    let (stones, marker) = text.split_once(" stones, marker on ").ok_or_else(malformed)?;
    let (stones, marker) =
        (stones.trim().parse().map_err(|_| malformed())?, marker.trim().parse().map_err(|_| malformed())?);
    if marker >= cells {
        return Err(QueryError::Impossible(format!("marker on cell {marker} of {cells} cells (0 to {})", cells - 1)));
    }
    Ok(Pile { stones, marker })
}
