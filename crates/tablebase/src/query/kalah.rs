//! Kalah positions answered from tables alone: every position whose pits hold no more
//! seeds than the largest table is one probe (the store difference still to be gained),
//! and so is each of its turns. Positions above the tables need `solve kalah`'s search.
//!
//! Request parameters: `pits`, `rules` (a preset: `empty-capture` by default, `standard`,
//! `bassett`), then `seeds` (the start) or `position`.

use super::{open_tables, tables_error, Answer, Board, Cell, Database, Described, Opened, QueryError, Request};
use crate::registry::{self, Build, RegistryError};
use crate::report::{LineEnd, LineEndKind, MoveReport, PositionReport, ValueReport, SCHEMA};
use games::kalah::board::{PositionError, MAX_PITS};
use games::kalah::notation::{self, NotationError};
use games::kalah::Side;
use games::kalah::{Kalah, Position, Rules};
use retro::{Game, Tables};
use search::kalah::solver::{LARGE_AUTO_POSITIONS, TABLE_BYTES_PER_POSITION};
use search::kalah::Solver;
use serde_json::json;
use std::path::Path;

/// The rules a request names by preset.
fn rules(request: &Request) -> Result<Rules, QueryError> {
    Rules::from_name(request.get("rules").unwrap_or("empty-capture")).map_err(|e| QueryError::parameter("rules", e))
}

/// The `solve kalah` flags that set `rules`: the preset, or the published rules with
/// every switch given.
fn rules_flags(rules: &Rules) -> String {
    match rules.preset_name() {
        Some(name) => format!("--rules {name}"),
        None => {
            let yes_no = |b: bool| if b { "yes" } else { "no" };
            format!(
                "--capture {} --skip-origin {} --end {} --leftovers {} --must-leave-move {}",
                rules.capture.name(),
                yes_no(rules.skip_origin),
                rules.end.name(),
                rules.leftovers.name(),
                yes_no(rules.must_leave_move)
            )
        }
    }
}

/// A position's text that does not read: well written but not a board here, or not
/// written in the notation.
fn read_error(e: NotationError) -> QueryError {
    match e {
        // Rows of different lengths are not written as the notation asks, as Trias's are.
        NotationError::Position(PositionError::RowLengths { .. }) => QueryError::Malformed(e.to_string()),
        NotationError::Position(_) => QueryError::Impossible(e.to_string()),
        _ => QueryError::Malformed(e.to_string()),
    }
}

/// What a request asks about: its pits, the seeds a pit of a start, the position.
fn asked(request: &Request) -> Result<(usize, Option<u32>, Position), QueryError> {
    request.only(&["pits", "rules", "seeds", "position"])?;
    let pits = request.number::<usize>("pits", 1..=MAX_PITS)?;
    // The start itself says whether its seeds fit its pits (a Kalah game holds at most 255).
    let seeds = request.number::<u32>("seeds", 1..=255)?;
    let position = match (request.position(), seeds) {
        (Some(_), Some(_)) => {
            return Err(QueryError::parameter("seeds", "give seeds (the start) or a position, not both"))
        }
        (Some(text), None) => notation::parse(text).map_err(read_error)?,
        (None, Some(n)) => Position::start(pits.unwrap_or(6), n).map_err(|e| QueryError::Impossible(e.to_string()))?,
        (None, None) => return Err(QueryError::parameter("position", "give seeds (the start) or a position")),
    };
    if let Some(m) = pits.filter(|&m| m != position.pits()) {
        return Err(QueryError::Impossible(format!(
            "the position has {} pits a row, the request {m}",
            position.pits()
        )));
    }
    // A start given as a position is the start all the same.
    Ok((position.pits(), seeds.or_else(|| position.start_seeds()), position))
}

/// The command that builds tables answering `request`.
pub fn command(request: &Request, root: &Path) -> Result<Build, QueryError> {
    let rules = rules(request)?;
    let (m, seeds, position) = asked(request)?;
    let flags = rules_flags(&rules);
    let asked = match seeds {
        Some(n) => format!("solve kalah --pits {m} --seeds {n} {flags}"),
        None => format!("solve kalah --position \"{position}\" {flags}"),
    };
    let total = position.seeds_in_pits();
    let searched = format!("`{asked}` answers it on the command line, searching above smaller tables");
    // Every board up to the position's seeds: past an index, or past what `solve kalah`
    // builds for its own search, the command is named with its size, and the search beside it.
    let Ok(game) = Kalah::new(m, total, rules) else {
        return Err(QueryError::Impossible(format!(
            "the boards of up to {total} seeds in {m} pits a row are more than a 64-bit index can number: no \
             command builds their tables ({searched})"
        )));
    };
    let boards: f64 = game.tiers_up_to(total).into_iter().map(|t| game.tier_size(t) as f64).sum();
    let note = (boards > LARGE_AUTO_POSITIONS as f64).then(|| {
        format!(
            "every board of up to {total} seeds: {boards:.2e} boards, about {} on disk; the server answers \
             from such tables alone, and {searched}",
            retro::memory::human(boards * TABLE_BYTES_PER_POSITION)
        )
    });
    Ok(Build { command: format!("{asked} --table"), dir: registry::kalah_dir(root, m, &rules), note })
}

/// Opens Kalah's tables of `tiers` in `dir` under its key.
pub(crate) fn open(key: &str, dir: &Path, tiers: &[String]) -> Result<Box<dyn Database>, RegistryError> {
    let (game, tiers) = registry::kalah_game(key, tiers)?;
    let describe = |game: &Kalah, tables: &Tables<Kalah>| {
        let (m, rules) = (game.pits(), *game.rules());
        let seeds = tables.tiers().copied().max().unwrap_or(0) as u32;
        Described {
            rules: rules.name(),
            parameters: json!({ "pits": m, "rules": rules.name() }),
            starts: (1..=seeds / (2 * m as u32))
                .map(|n| json!({ "pits": m, "rules": rules.name(), "seeds": n }))
                .collect(),
        }
    };
    open_tables("kalah", key, game, dir, &tiers, describe, Solver::from_tables, answer)
}

fn answer(db: &Opened<Solver>, request: &Request) -> Result<Answer, QueryError> {
    // The rules first: a misspelt preset is named before what it leaves unread.
    let asked_rules = rules(request)?;
    let (m, seeds, position) = asked(request)?;
    let solver = &db.state;
    let rules = *solver.game().rules();
    // A finished game needs no table: its stores and rows give its value.
    let above = position.seeds_in_pits() > solver.endgame_seeds() && position.final_difference(&rules).is_none();
    if m != solver.game().pits() || asked_rules != rules || above {
        return Err(QueryError::NotHere);
    }
    let (margin, turns) = solver.margin_and_turns(None, &position, &|_| {}).map_err(tables_error)?;
    let moves: Vec<MoveReport> = turns
        .iter()
        .map(|(name, next, value)| MoveReport {
            name: name.clone(),
            value: ValueReport::score(*value),
            position: next.to_string(),
            captures: None,
        })
        .collect();
    let best = turns.iter().find(|t| t.2 == margin).map(|t| t.0.clone());
    let (names, line) = solver.principal_line(None, &position, margin, request.max_line()?).map_err(tables_error)?;
    let here = *line.last().expect("a line starts with its position");
    let positions = line.iter().map(ToString::to_string).collect();
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
            "endgame_seeds": solver.endgame_seeds(),
            "solved": "strongly",
            // One probe a position: no search, and no time of its own to report.
            "search_nodes": null,
            "seconds": null,
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
