//! Kalah's front end: `solve kalah`, `/api/kalah`. Every position whose pits hold no
//! more seeds than the largest table is one probe (the store difference still to be
//! gained), and so is each of its turns. Positions above the tables are answered by
//! Kalah's own search ([`search::kalah`]) within the request's budget, by complete turns
//! as the tables' answers are, exact or bounded: the search `solve kalah` runs. One
//! report is assembled for both ([`solved_report`]).
//!
//! Parameters: `pits`, `rules` (a preset: `empty-capture` by default, `standard`,
//! `bassett`), then `seeds` (the start) or `position`.

use super::key::Key;
use super::{counted, holding, Asked, Described, FrontEnd};
use crate::analysis::stop_name;
use crate::analysis::{Header, NamedMoves};
use crate::query::{tables_error, Answer, Board, Cell, Chunk, Database, Holding, QueryError, Request};
use crate::registry::{self, RegistryError};
use crate::report::{
    LineEnd, LineEndKind, MoveReport, PositionReport, ReachableReport, TablesReport, ValueReport, SCHEMA,
};
use games::kalah::board::{Board as KalahBoard, PositionError, MAX_PITS, MAX_SEEDS};
use games::kalah::notation::{self, NotationError};
use games::kalah::Side;
use games::kalah::{Kalah, Position, Rules};
use retro::{store, Game, Tables};
use search::kalah::solver::{LARGE_AUTO_POSITIONS, TABLE_BYTES_PER_POSITION};
use search::kalah::{Margin, Search, Solver, SolverError, Turn};
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

    /// Kalah's own search, as `solve kalah`'s: by complete turns, as the tables' answers
    /// are, on one thread with a transposition table of `budget.table_entries`.
    fn search(&self, request: &Request, budget: Budget<'_>) -> Result<Answer, QueryError> {
        if !self.above(request) {
            return Err(QueryError::NotHere);
        }
        let asked = Kalah::asked(request)?;
        let solver = &self.solver;
        let bits = budget.table_entries.max(2).ilog2();
        let search = Search::new(solver.game(), solver.tables(), solver.endgame_seeds(), bits)
            .map_err(tables_error)?
            .with_budget(budget);
        let started = Instant::now();
        let solved =
            solve(solver, Some(&search), &asked.position, true, request.max_line()?, &|_| {}).map_err(tables_error)?;
        let details = search_details(&search, started.elapsed().as_secs_f64());
        let solving = Solving { endgame_seeds: solver.endgame_seeds(), search: Some(details), seconds: None };
        let rules = *solver.game().rules();
        let tables = self.holding.tables.clone();
        let report = solved_report(&asked.position, asked.start, &rules, &solved, &solving, tables, None);
        Ok(Answer {
            line_positions: solved.positions.iter().map(ToString::to_string).collect(),
            report,
            board: board(&asked.position),
            title: Kalah::title(&asked),
            board_and_rules: self.holding.parameters.clone(),
        })
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

/// `position` solved from `solver`'s tables, by `search` above them where it needs one,
/// within its budget: the margin, then every turn's where `turns` asks (`heard` hears of each
/// turn as it is solved exactly), exact or bounded, and the principal line of at most
/// `max_line` turns where the margin is exact (as far as the budget leaves it proven).
pub fn solve(
    solver: &Solver,
    search: Option<&Search>,
    position: &Position,
    turns: bool,
    max_line: usize,
    heard: &(dyn Fn(&Turn) + Sync),
) -> Result<Solved, SolverError> {
    // The margin first: within a budget it is what matters most, and once it is proven
    // the turns' searches start from what it left in the transposition table.
    let margin = solver.margin_bounds(search, position)?;
    let (margin, turns) = if turns {
        let (margin, turns) = solver.turns_and_margin(search, position, margin, heard)?;
        (margin, Some(turns))
    } else {
        (margin, None)
    };
    let (line, positions) = match margin.value() {
        Some(v) => solver.principal_line(search, position, v, max_line)?,
        None => (Vec::new(), vec![*position]),
    };
    Ok(Solved { margin, turns, line, positions })
}

/// What a report says of Kalah's search (`docs/json.md`, Details: `search`): its nodes,
/// tables probed, `seconds`, and why it stopped; no horizon (MTD(f) searches to the end).
pub fn search_details(search: &Search, seconds: f64) -> serde_json::Value {
    json!({
        "nodes": search.nodes(),
        "probes": search.probes(),
        "seconds": seconds,
        "horizon": null,
        "stopped": search.spent().map(stop_name),
    })
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
    let Asked { game, position, start, .. } = asked;
    let solver = &db.solver;
    let rules = *solver.game().rules();
    // A finished game needs no table: its stores and rows give its value.
    let above = position.seeds_in_pits() > solver.endgame_seeds() && position.final_difference(&rules).is_none();
    if game.table_key() != solver.game().table_key() || above {
        return Err(QueryError::NotHere);
    }
    let solved = solve(solver, None, &position, true, request.max_line()?, &|_| {}).map_err(tables_error)?;
    // One probe a position: no search, and no time of its own to report.
    let solving = Solving { endgame_seeds: solver.endgame_seeds(), search: None, seconds: None };
    let report = solved_report(&position, start, &rules, &solved, &solving, db.holding.tables.clone(), None);
    Ok(Answer {
        line_positions: solved.positions.iter().map(ToString::to_string).collect(),
        report,
        board: board(&position),
        title,
        board_and_rules: db.holding.parameters.clone(),
    })
}

/// What Kalah's solver found for a position: its margin (exact, or proven bounds), every
/// turn's, and the principal line as far as proven.
pub struct Solved {
    /// The margin for the player to move.
    pub margin: Margin,
    /// Every turn with the margin it leaves its mover, in pit order; `None` where not
    /// valued (`--value-only`).
    pub turns: Option<Vec<Turn>>,
    /// The principal line's turns, by name.
    pub line: Vec<String>,
    /// The positions along the line, the position first.
    pub positions: Vec<Position>,
}

/// How a position was solved, as its report's `details` say.
pub struct Solving {
    /// Seeds of the largest boards in the endgame tables.
    pub endgame_seeds: u32,
    /// What the search above them did (`details.search`), where one ran.
    pub search: Option<serde_json::Value>,
    /// Seconds the whole answer took, where it is a command's.
    pub seconds: Option<f64>,
}

/// The report of `position` (a start of `start` seeds a pit, or not) under `rules`, as
/// `solved`, `solving` saying how: the one place a Kalah report is assembled, for the
/// command line and the server alike.
pub fn solved_report(
    position: &Position,
    start: Option<u32>,
    rules: &Rules,
    solved: &Solved,
    solving: &Solving,
    tables: TablesReport,
    reachable: Option<ReachableReport>,
) -> PositionReport {
    let last = solved.positions.last().expect("a line starts with its position");
    let over = position.final_difference(rules).is_some();
    let exact = solved.margin.value();
    let how = if over || solving.endgame_seeds >= position.seeds_in_pits() {
        Some("strongly")
    } else {
        exact.map(|_| "weakly")
    };
    PositionReport {
        schema: SCHEMA,
        game: Kalah::NAME.to_owned(),
        parameters: json!({ "pits": position.pits(), "seeds": start }),
        rules: rules.name(),
        position: position.to_string(),
        start: start.is_some(),
        to_move: position.to_move().name().to_lowercase(),
        over,
        value: margin_report(solved.margin),
        moves: solved.turns.as_ref().map(|turns| {
            let report = |t: &Turn| MoveReport {
                name: t.name.clone(),
                value: margin_report(t.margin),
                position: t.next.to_string(),
                captures: None,
            };
            turns.iter().map(report).collect()
        }),
        best: solved.turns.as_ref().and_then(|turns| best_turn(turns, exact)).map(|t| t.name.clone()),
        line: solved.line.clone(),
        line_end: LineEnd {
            kind: if last.final_difference(rules).is_some() { LineEndKind::Over } else { LineEndKind::Cut },
            position: last.to_string(),
            repeats_ply: None,
        },
        tables,
        reachable,
        details: Some(json!({
            "switches": rules.switches(),
            "endgame_seeds": solving.endgame_seeds,
            "solved": how,
            "seconds": solving.seconds,
            "search": solving.search,
        })),
    }
}

/// A margin's report: a score where proven, else its bounds.
fn margin_report(margin: Margin) -> ValueReport {
    ValueReport::between(ValueReport::score(margin.lower), ValueReport::score(margin.upper))
}

/// The best turn: with the margin proven (`exact`), the first that makes it; else the
/// first of the greatest lower bound, the one the search prefers.
fn best_turn(turns: &[Turn], exact: Option<i32>) -> Option<&Turn> {
    match exact {
        Some(v) => turns.iter().find(|t| t.margin.value() == Some(v)),
        None => {
            let most = turns.iter().map(|t| t.margin.lower).max()?;
            turns.iter().find(|t| t.margin.lower == most)
        }
    }
}

/// The board from South's chair: North's row on top, his pit 1 at the right; North's
/// store on the left, South's on the right. The mover's pits are named as his moves
/// from them begin.
pub fn board(position: &Position) -> Board {
    let to_move = position.to_move();
    let row = |side: Side, cells: &[u8]| -> Vec<Cell> {
        let cell = |(pit, &n): (usize, &u8)| Cell {
            text: n.to_string(),
            owner: Some(side.name().to_lowercase()),
            moves_from: (side == to_move).then(|| (pit + 1).to_string()),
        };
        cells.iter().enumerate().map(cell).collect()
    };
    let mut north = row(Side::North, position.north());
    north.reverse();
    let stores = position.stores();
    let store = |n: u16, side: &str| Cell { owner: Some(side.to_owned()), ..Cell::count(n) };
    Board {
        layout: "pits",
        rows: vec![north, row(Side::South, position.south())],
        labels: vec!["North".to_owned(), "South".to_owned()],
        stores: vec![store(stores[1], "north"), store(stores[0], "south")],
    }
}
