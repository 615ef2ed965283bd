//! Kalah positions answered from tables alone: every position whose pits hold no more
//! seeds than the largest table is one probe (the store difference still to be gained),
//! and so is each of its turns. Positions above the tables need `solve kalah`'s search.
//!
//! Request parameters: `pits`, `rules` (a preset: `empty-capture` by default, `standard`,
//! `bassett`), then `seeds` (the start) or `position`.

use super::{open_tables, tables_error, Answer, Board, Cell, Database, Described, Opened, QueryError, Request};
use crate::registry::{self, RegistryError};
use crate::report::{LineEnd, LineEndKind, MoveReport, PositionReport, ValueReport, SCHEMA};
use games::kalah::board::MAX_PITS;
use games::kalah::notation;
use games::kalah::Side;
use games::kalah::{turn_name, Kalah, Position, Rules};
use retro::Tables;
use serde_json::json;
use std::path::Path;

/// The rules a request names by preset.
fn rules(request: &Request) -> Result<Rules, QueryError> {
    let name = request.get("rules").unwrap_or("empty-capture");
    Rules::PRESETS.iter().find(|(n, _)| *n == name).map(|&(_, r)| r).ok_or_else(|| {
        let known: Vec<&str> = Rules::PRESETS.iter().map(|(n, _)| *n).collect();
        QueryError::parameter("rules", format!("unknown Kalah preset (known: {})", known.join(", ")))
    })
}

/// The preset's name of `rules`, if they are one.
fn preset(rules: &Rules) -> Option<&'static str> {
    Rules::PRESETS.iter().find(|(_, r)| r == rules).map(|&(n, _)| n)
}

/// What a request asks about: its pits, the seeds a pit of a start, the position.
fn asked(request: &Request) -> Result<(usize, Option<u32>, Position), QueryError> {
    request.only(&["pits", "rules", "seeds", "position"])?;
    let pits = request.number::<usize>("pits", 1..=MAX_PITS)?;
    let seeds = request.number::<u32>("seeds", 1..=64)?;
    let position = match (request.position(), seeds) {
        (Some(_), Some(_)) => {
            return Err(QueryError::parameter("seeds", "give seeds (the start) or a position, not both"))
        }
        (Some(text), None) => notation::parse(text).map_err(|e| QueryError::Malformed(e.to_string()))?,
        (None, Some(n)) => Position::start(pits.unwrap_or(6), n).map_err(|e| QueryError::Impossible(e.to_string()))?,
        (None, None) => return Err(QueryError::parameter("position", "give seeds (the start) or a position")),
    };
    if let Some(m) = pits.filter(|&m| m != position.pits()) {
        return Err(QueryError::Impossible(format!(
            "the position has {} pits a row, the request {m}",
            position.pits()
        )));
    }
    Ok((position.pits(), seeds, position))
}

/// The command that builds tables answering `request`.
pub fn command(request: &Request) -> Result<String, QueryError> {
    let rules = rules(request)?;
    let (m, seeds, position) = asked(request)?;
    let rules = preset(&rules).unwrap_or("empty-capture");
    Ok(match seeds {
        Some(n) => format!("solve kalah --pits {m} --seeds {n} --rules {rules} --table"),
        None => format!("solve kalah --position \"{position}\" --rules {rules} --table"),
    })
}

/// Opens Kalah's tables of `tiers` in `dir` under its key.
pub(crate) fn open(key: &str, dir: &Path, tiers: &[String]) -> Result<Box<dyn Database>, RegistryError> {
    let (game, tiers) = registry::kalah_game(key, tiers)?;
    let describe = |game: &Kalah, tables: &Tables<Kalah>| {
        let (m, rules) = (game.pits(), *game.rules());
        let seeds = most_seeds(tables);
        Described {
            rules: rules.name(),
            parameters: json!({ "pits": m, "rules": preset(&rules) }),
            starts: (1..=seeds / (2 * m as u32))
                .map(|n| json!({ "pits": m, "rules": preset(&rules), "seeds": n }))
                .collect(),
        }
    };
    open_tables("kalah", key, game, dir, &tiers, describe, answer)
}

/// The most seeds in the pits the tables answer.
fn most_seeds(tables: &Tables<Kalah>) -> u32 {
    tables.tiers().copied().max().unwrap_or(0) as u32
}

/// The final store difference for the player to move at `p`, under perfect play.
fn margin(db: &Opened<Kalah>, p: &Position) -> Result<i32, QueryError> {
    if let Some(d) = p.final_difference(db.game.rules()) {
        return Ok(d);
    }
    let rest = db.tables.value(&db.game, &p.board()).map_err(tables_error)?;
    Ok(p.store_difference() + rest as i32)
}

/// `next`'s margin seen by the player who moved from `from`.
fn margin_after(db: &Opened<Kalah>, from: &Position, next: &Position) -> Result<i32, QueryError> {
    let m = margin(db, next)?;
    Ok(if next.to_move() == from.to_move() { m } else { -m })
}

fn answer(db: &Opened<Kalah>, request: &Request) -> Result<Answer, QueryError> {
    let (m, seeds, position) = asked(request)?;
    let rules = *db.game.rules();
    if m != db.game.pits()
        || super::kalah::rules(request)? != rules
        || position.seeds_in_pits() > most_seeds(&db.tables)
    {
        return Err(QueryError::NotHere);
    }
    let margin = margin(db, &position)?;
    let turns = position.turns(&rules);
    let mut moves = Vec::with_capacity(turns.len());
    for (pits, next) in &turns {
        let value = margin_after(db, &position, next)?;
        moves.push(MoveReport {
            name: turn_name(pits),
            value: ValueReport::score(value),
            position: next.to_string(),
            captures: None,
        });
    }
    let best = moves.iter().find(|t| t.value == ValueReport::score(margin)).map(|t| t.name.clone());
    // Each turn the first in pit order that keeps the margin.
    let (mut names, mut positions) = (Vec::new(), vec![position.to_string()]);
    let (mut here, mut keep) = (position, margin);
    let max = request.max_line()?;
    while names.len() < max && here.final_difference(&rules).is_none() {
        let mut chosen = None;
        for (pits, next) in here.turns(&rules) {
            if margin_after(db, &here, &next)? == keep {
                chosen = Some((pits, next));
                break;
            }
        }
        let Some((pits, next)) = chosen else {
            return Err(QueryError::Tables(format!("no turn at {here} keeps its margin {keep:+}")));
        };
        if next.to_move() != here.to_move() {
            keep = -keep;
        }
        names.push(turn_name(&pits));
        positions.push(next.to_string());
        here = next;
    }
    let over = here.final_difference(&rules).is_some();
    let report = PositionReport {
        schema: SCHEMA,
        game: "kalah".to_owned(),
        parameters: json!({ "pits": m, "seeds": seeds }),
        rules: rules.name(),
        position: position.to_string(),
        start: seeds.is_some(),
        to_move: position.to_move().name().to_lowercase(),
        over: position.final_difference(&rules).is_some(),
        value: ValueReport::score(margin),
        moves: Some(moves),
        best,
        line: names,
        line_end: LineEnd {
            kind: if over { LineEndKind::Over } else { LineEndKind::Cut },
            position: here.to_string(),
            repeats_ply: None,
        },
        tables: db.holding.tables.clone(),
        reachable: None,
        details: Some(json!({
            "switches": rules.switches(),
            "endgame_seeds": most_seeds(&db.tables),
            "solved": "strongly",
        })),
    };
    Ok(Answer { report, board: board(&position), line_positions: positions })
}

/// The board from South's chair: North's row on top, his pit 1 at the right; North's
/// store on the left, South's on the right.
pub fn board(position: &Position) -> Board {
    let row = |cells: &mut dyn Iterator<Item = &u8>, side: Side| -> Vec<Cell> {
        cells.map(|&n| Cell { text: n.to_string(), owner: Some(side.name().to_lowercase()) }).collect()
    };
    let stores = position.stores();
    Board {
        layout: "pits",
        rows: vec![
            row(&mut position.north().iter().rev(), Side::North),
            row(&mut position.south().iter(), Side::South),
        ],
        labels: vec!["North".to_owned(), "South".to_owned()],
        stores: vec![
            Cell { text: stores[1].to_string(), owner: Some("north".to_owned()) },
            Cell { text: stores[0].to_string(), owner: Some("south".to_owned()) },
        ],
    }
}
