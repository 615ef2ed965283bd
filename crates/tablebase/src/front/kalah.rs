//! Kalah's front end: `solve kalah`, `/api/kalah`. The server answers Kalah from tables
//! alone: every position whose pits hold no more seeds than the largest table is one
//! probe (the store difference still to be gained), and so is each of its turns.
//! Positions above the tables are answered by the search every game's are
//! ([`super::search_above`]), move by move (a sowing that ends in the store is a move of
//! its own), not by `solve kalah`'s.
//!
//! Parameters: `pits`, `rules` (a preset: `empty-capture` by default, `standard`,
//! `bassett`), then `seeds` (the start) or `position`.

use super::key::Key;
use super::{counted, holding, Asked, Described, FrontEnd};
use crate::analysis::{Header, NamedMoves};
use crate::query::{tables_error, Answer, Board, Cell, Chunk, Database, Holding, QueryError, Request};
use crate::registry::{self, RegistryError};
use crate::report::{Bound, LineEnd, LineEndKind, MoveReport, PositionReport, ValueReport, SCHEMA};
use games::kalah::board::{Board as KalahBoard, PositionError, MAX_PITS, MAX_SEEDS};
use games::kalah::notation::{self, NotationError};
use games::kalah::Side;
use games::kalah::{Kalah, Position, Rules};
use retro::{store, Game, Tables};
use search::kalah::solver::{LARGE_AUTO_POSITIONS, TABLE_BYTES_PER_POSITION};
use search::kalah::Solver;
use search::tree::Budget;
use serde_json::json;
use std::path::{Path, PathBuf};
use std::time::Instant;

impl FrontEnd for Kalah {
    type Shown = Position;
    type Start = u32;
    const NAME: &'static str = "kalah";
    const SUMMARY: &'static str = "Kalah(m, n) under its rule switches";
    const PARAMETERS: &'static [&'static str] = &["pits", "rules", "seeds", "position"];

    fn tier_named(name: &str) -> Option<u16> {
        name.parse().ok()
    }

    fn from_key(key: &Key, tiers: &[u16]) -> Result<Kalah, String> {
        let pits: usize = key.number("pits")?;
        let max_seeds = tiers.iter().copied().max().unwrap_or(0) as u32;
        if !(1..=MAX_PITS).contains(&pits) || max_seeds > MAX_SEEDS {
            return Err("a board this version cannot index".to_owned());
        }
        let rules = Rules {
            capture: Rules::parse_capture(key.text("capture")?).map_err(|e| e.to_string())?,
            skip_origin: key.yes_no("skip-origin")?,
            end: Rules::parse_end(key.text("end")?).map_err(|e| e.to_string())?,
            leftovers: Rules::parse_leftovers(key.text("leftovers")?).map_err(|e| e.to_string())?,
            must_leave_move: key.yes_no("must-leave-move")?,
        };
        Kalah::new(pits, max_seeds, rules).map_err(|e| e.to_string())
    }

    fn directory(&self, root: &Path) -> PathBuf {
        registry::kalah_dir(root, self.pits(), self.rules())
    }

    fn asked(request: &Request) -> Result<Asked<Kalah>, QueryError> {
        asked(request)
    }

    fn command(asked: &Asked<Kalah>) -> Result<(String, Option<String>), QueryError> {
        command(asked)
    }

    fn played(shown: &Position) -> KalahBoard {
        shown.board()
    }

    fn answering(asked: &Asked<Kalah>) -> Result<(Kalah, Vec<u16>), QueryError> {
        let (m, rules, n) = (asked.game.pits(), *asked.game.rules(), asked.position.seeds_in_pits());
        let game = Kalah::new(m, n, rules).map_err(|e| QueryError::Impossible(e.to_string()))?;
        Ok((game, vec![n as u16]))
    }

    fn title(asked: &Asked<Kalah>) -> String {
        let (m, rules) = (asked.game.pits(), asked.game.rules());
        // Kalah(m, n) names a start; a position has only its pits and its seeds.
        match asked.start {
            Some(n) => format!("Kalah({m},{n}), rules: {rules}"),
            None => format!(
                "Kalah, {m} pits a row, {} in the pits, rules: {rules}",
                counted(asked.position.seeds_in_pits(), "seed", "seeds")
            ),
        }
    }

    fn board(asked: &Asked<Kalah>) -> Board {
        board(&asked.position)
    }

    fn header(&self, asked: &Asked<Kalah>, _: &Tables<Kalah>) -> Result<Header, retro::line::LineError> {
        Ok(Header {
            game: Self::NAME.to_owned(),
            parameters: json!({ "pits": self.pits(), "seeds": asked.start }),
            rules: self.rules().name(),
            start: asked.start.is_some(),
            to_move: asked.position.to_move().name().to_lowercase(),
            details: Some(json!({ "switches": self.rules().switches() })),
        })
    }

    fn named_moves(&self, board: &KalahBoard) -> NamedMoves<KalahBoard> {
        let mut moves = Vec::new();
        self.moves(board, &mut moves);
        let pits = board.moves(self.rules()).into_iter().map(|(pit, _)| (pit + 1).to_string());
        pits.zip(moves).collect()
    }

    fn described(&self, tables: &Tables<Kalah>) -> Described {
        let (m, rules) = (self.pits(), *self.rules());
        let seeds = tables.tiers().copied().max().unwrap_or(0) as u32;
        Described {
            rules: rules.name(),
            parameters: json!({ "pits": m, "rules": rules.name() }),
            starts: (1..=seeds / (2 * m as u32))
                .map(|n| json!({ "pits": m, "rules": rules.name(), "seeds": n }))
                .collect(),
        }
    }

    /// Kalah's tables are opened under its solver, which answers a position and each of
    /// its turns (a turn may be several sowings) from them.
    fn open(self, key: &str, dir: &Path, tiers: &[u16]) -> Result<Box<dyn Database>, RegistryError> {
        let opened = Instant::now();
        let tables = store::open(&self, dir, tiers)?;
        let holding = holding(&self, &tables, key, opened.elapsed().as_secs_f64());
        Ok(Box::new(Searched { solver: Solver::from_tables(self, tables), holding }))
    }
}

/// Kalah's tables open under its solver.
struct Searched {
    solver: Solver,
    holding: Holding,
}

impl Database for Searched {
    fn holding(&self) -> &Holding {
        &self.holding
    }

    fn query(&self, request: &Request) -> Result<Answer, QueryError> {
        answer(self, request)
    }

    fn above(&self, request: &Request) -> bool {
        super::above(self.solver.game(), self.solver.tables(), request)
    }

    /// The search above the tables every game's is: its positions are boards, so the
    /// answer is given the stores of the position asked about ([`with_stores`]).
    fn search(&self, request: &Request, budget: Budget<'_>) -> Result<Answer, QueryError> {
        let answer = super::search_above(self.solver.game(), self.solver.tables(), &self.holding, request, budget)?;
        let asked = Kalah::asked(request)?;
        Ok(with_stores(&asked.position, self.solver.game().rules(), answer))
    }

    fn tiers(&self) -> Vec<(String, u64)> {
        super::tiers(self.solver.tables())
    }

    /// The boards of a tier as the tables hold them: the stores left out, the mover's row
    /// first, each valued by the margin still to be gained.
    fn chunk(&self, tier: &str, ranks: std::ops::Range<u64>, positions: bool) -> Result<Chunk, QueryError> {
        super::chunk(self.solver.game(), self.solver.tables(), tier, ranks, positions)
    }
}

/// An answer whose positions are Kalah's boards (the stores left out, the mover's row
/// first) and its values what is still to be gained, as Kalah's game plays, made one of
/// `position` as the notation writes it: each value the final margin (the stores'
/// difference added), each position with its stores and its player to move.
fn with_stores(position: &Position, rules: &Rules, mut answer: Answer) -> Answer {
    let stores = position.store_difference();
    let report = &mut answer.report;
    report.position = position.to_string();
    report.value = plus(report.value, stores);
    let after = |name: &str| name.parse().ok().and_then(|pit| position.play(rules, pit));
    for m in report.moves.iter_mut().flatten() {
        m.value = plus(m.value, stores);
        if let Some(next) = after(&m.name) {
            m.position = next.to_string();
        }
    }
    let mut here = *position;
    let mut line = vec![here.to_string()];
    for name in &report.line {
        match name.parse().ok().and_then(|pit| here.play(rules, pit)) {
            Some(next) => here = next,
            None => break,
        }
        line.push(here.to_string());
    }
    report.line_end.position = here.to_string();
    answer.line_positions = line;
    answer
}

/// A margin still to be gained, or bounds on it, with `stores` already gained added.
fn plus(value: ValueReport, stores: i32) -> ValueReport {
    let bound = |b: Bound| match b {
        Bound::Score(s) => Bound::Score(s + stores),
        outcome => outcome,
    };
    match value {
        ValueReport::Score { score, .. } => ValueReport::score(score + stores),
        ValueReport::Bounds { lower, upper } => ValueReport::Bounds { lower: bound(lower), upper: bound(upper) },
        outcome => outcome,
    }
}

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

/// What a request asks about: its board and rules, the position, the seeds a pit of a
/// start.
fn asked(request: &Request) -> Result<Asked<Kalah>, QueryError> {
    request.only(Kalah::PARAMETERS)?;
    // The rules first: a misspelt preset is named before what it leaves unread.
    let rules = rules(request)?;
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
    // Indexed for no seeds: the request's board and rules, not its tables.
    let game = Kalah::new(position.pits(), 0, rules).map_err(|e| QueryError::Impossible(e.to_string()))?;
    // A start given as a position is the start all the same.
    Ok(Asked { game, start: seeds.or_else(|| position.start_seeds()), tables: None, position })
}

/// The command that builds tables answering `asked`, and what it costs where it is far
/// from small.
fn command(asked: &Asked<Kalah>) -> Result<(String, Option<String>), QueryError> {
    let (m, rules, position) = (asked.game.pits(), *asked.game.rules(), &asked.position);
    let flags = rules_flags(&rules);
    let asked = match asked.start {
        Some(n) => format!("solve kalah --pits {m} --seeds {n} {flags}"),
        None => format!("solve kalah --position \"{position}\" {flags}"),
    };
    let total = position.seeds_in_pits();
    let searched = format!("`{asked}` answers it on the command line, searching above smaller tables");
    // Every board up to the position's seeds: past an index, or past what `solve kalah`
    // builds for its own search, the command is named with its size, and the search beside it.
    let Ok(game) = Kalah::new(m, total, rules) else {
        return Err(QueryError::BeyondIndex(format!(
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
    Ok((format!("{asked} --table"), note))
}

fn answer(db: &Searched, request: &Request) -> Result<Answer, QueryError> {
    let asked = Kalah::asked(request)?;
    let title = Kalah::title(&asked);
    let Asked { game, position, start: seeds, .. } = asked;
    let solver = &db.solver;
    let rules = *solver.game().rules();
    let m = game.pits();
    // A finished game needs no table: its stores and rows give its value.
    let above = position.seeds_in_pits() > solver.endgame_seeds() && position.final_difference(&rules).is_none();
    if game.table_key() != solver.game().table_key() || above {
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
    Ok(Answer {
        report,
        board: board(&position),
        line_positions: positions,
        title,
        board_and_rules: db.holding.parameters.clone(),
    })
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
