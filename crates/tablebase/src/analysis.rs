//! What the tables say about one position, for every game whose values are all in its
//! tables: its value, every move's worth, the best move and the principal line, as the
//! parts of a [`PositionReport`].

use crate::report::{
    LineEnd, LineEndKind, MoveReport, PositionReport, ReachableReport, TablesReport, ValueReport, SCHEMA,
};
use retro::line::{best_move, move_values, principal_line, LineEnd as RetroLineEnd, LineError};
use retro::store::Tables;
use retro::{Game, Move};
use search::tree::{Scale, Searched, Stop};

/// A value of either kind, as the reports show it.
pub trait Reported: Copy {
    /// The value in the schema of `docs/json.md`.
    fn report(self) -> ValueReport;
}

impl Reported for retro::Value {
    fn report(self) -> ValueReport {
        ValueReport::from(self)
    }
}

impl Reported for i16 {
    fn report(self) -> ValueReport {
        ValueReport::score(self as i32)
    }
}

/// The position's part of a report: value, moves, best move, principal line.
#[derive(Debug, Clone, PartialEq)]
pub struct Analysis {
    /// The position's value for its player to move.
    pub value: ValueReport,
    /// Whether the game is over at the position.
    pub over: bool,
    /// Every legal move, in the game's order.
    pub moves: Vec<MoveReport>,
    /// The best move's name: the principal line's first move, one of the best (in a tier
    /// with cycles not always the first of them in order).
    pub best: Option<String>,
    /// The names of the principal line's moves.
    pub line: Vec<String>,
    /// How the principal line stops.
    pub line_end: LineEnd,
    /// The positions of the principal line in notation, `position` first.
    pub line_positions: Vec<String>,
}

/// A position's moves with their names, in the game's order (a game may list one move per
/// name even where `Game::moves` lists several paths to one position).
pub type NamedMoves<P> = Vec<(String, Move<P>)>;

/// Reads the analysis of `position` out of `tables`; `named_moves` gives a position's
/// moves with their names, for the position and each one of its principal line.
pub fn analyse<G: Game>(
    game: &G,
    tables: &Tables<G>,
    position: &G::Position,
    named_moves: impl Fn(&G::Position) -> NamedMoves<G::Position>,
    max_line: usize,
) -> Result<Analysis, LineError>
where
    G::Value: Reported,
{
    let named = named_moves(position);
    let value = tables.value(game, position)?;
    let over = game.end(position);
    let values = move_values(game, tables, named.iter().map(|(_, m)| m))?;
    let moves = named
        .iter()
        .zip(&values)
        .map(|((name, m), v)| MoveReport {
            name: name.clone(),
            value: v.report(),
            position: m.position.to_string(),
            captures: None,
        })
        .collect();
    // The best move is the one the line plays (read with one move at least): in a tier
    // with cycles the first best move in order may go round a cycle that does not make
    // the value, and the line's does.
    let mut line = principal_line(game, tables, position, max_line.max(1))?;
    // The move itself, gain and turn with the position, names it: two moves of one
    // position may reach the same next one.
    let mut names: Vec<String> = line
        .positions
        .iter()
        .zip(&line.moves)
        .map(|(from, played)| {
            named_moves(from).into_iter().find(|(_, m)| m == played).map_or_else(|| "?".to_owned(), |(name, _)| name)
        })
        .collect();
    let best = names.first().cloned().or_else(|| best_move(&values).map(|i| named[i].0.clone()));
    if max_line == 0 && !line.moves.is_empty() {
        line.positions.truncate(1);
        line.moves.clear();
        names.clear();
        line.end = RetroLineEnd::Cut;
    }
    let last = line.positions.last().expect("a line starts with its position").to_string();
    let line_end = match line.end {
        RetroLineEnd::Over(_) => LineEnd { kind: LineEndKind::Over, position: last, repeats_ply: None },
        RetroLineEnd::Cycle(i) => LineEnd { kind: LineEndKind::Repetition, position: last, repeats_ply: Some(i) },
        RetroLineEnd::Cut => LineEnd { kind: LineEndKind::Cut, position: last, repeats_ply: None },
    };
    let line_positions = line.positions.iter().map(ToString::to_string).collect();
    Ok(Analysis { value: value.report(), over: over.is_some(), moves, best, line: names, line_end, line_positions })
}

/// What a position report says about the game rather than the position's value: which
/// game, board and rules, whether it is the start, who moves, and the game's own details.
#[derive(Debug, Clone)]
pub struct Header {
    /// The game's name (`docs/json.md`: `game`).
    pub game: String,
    /// The board and setup, by name (`parameters`).
    pub parameters: serde_json::Value,
    /// The rule set's name (`rules`).
    pub rules: String,
    /// Whether the position is the start of the game for `parameters`.
    pub start: bool,
    /// The player to move, by name (`to_move`).
    pub to_move: String,
    /// What only this game reports (`details`).
    pub details: Option<serde_json::Value>,
}

/// The whole report of `position` ([`analyse`] with `header` and the tables' report),
/// and the positions of its principal line.
#[allow(clippy::too_many_arguments)]
pub fn position_report<G: Game>(
    game: &G,
    tables: &Tables<G>,
    position: &G::Position,
    header: Header,
    named_moves: impl Fn(&G::Position) -> NamedMoves<G::Position>,
    max_line: usize,
    tables_report: TablesReport,
    reachable: Option<ReachableReport>,
) -> Result<(PositionReport, Vec<String>), LineError>
where
    G::Value: Reported,
{
    let analysis = analyse(game, tables, position, named_moves, max_line)?;
    Ok(assemble(header, position.to_string(), analysis, tables_report, reachable))
}

/// A position report of `analysis` under `header`, and the positions of its line.
fn assemble(
    header: Header,
    position: String,
    analysis: Analysis,
    tables_report: TablesReport,
    reachable: Option<ReachableReport>,
) -> (PositionReport, Vec<String>) {
    let report = PositionReport {
        schema: SCHEMA,
        game: header.game,
        parameters: header.parameters,
        rules: header.rules,
        position,
        start: header.start,
        to_move: header.to_move,
        over: analysis.over,
        value: analysis.value,
        moves: Some(analysis.moves),
        best: analysis.best,
        line: analysis.line,
        line_end: analysis.line_end,
        tables: tables_report,
        reachable,
        details: header.details,
    };
    (report, analysis.line_positions)
}

/// The analysis of `position` that a search answered ([`search::tree::search`]): its
/// value, or its bounds where not proven, each move's, the move the search prefers, and
/// the line as far as proven values lead; `named_moves` as for [`analyse`].
pub fn searched_analysis<G: Game>(
    game: &G,
    position: &G::Position,
    found: &Searched<G::Position, G::Value>,
    named_moves: impl Fn(&G::Position) -> NamedMoves<G::Position>,
    max_line: usize,
) -> Analysis
where
    G::Value: Reported + Scale,
{
    let named = named_moves(position);
    let bounds = |step: &Move<G::Position>| {
        let searched = found.moves.iter().find(|b| b.step == *step);
        let (lower, upper) = searched.map_or((G::Value::LEAST, G::Value::MOST), |b| (b.lower, b.upper));
        ValueReport::between(lower.report(), upper.report())
    };
    let name_of = |from: &G::Position, played: &Move<G::Position>| {
        named_moves(from).into_iter().find(|(_, m)| m == played).map_or_else(|| "?".to_owned(), |(name, _)| name)
    };
    let moves = named
        .iter()
        .map(|(name, m)| MoveReport {
            name: name.clone(),
            value: bounds(m),
            position: m.position.to_string(),
            captures: None,
        })
        .collect();
    let best = found.best.map(|i| name_of(position, &found.moves[i].step));
    let shown = &found.line[..found.line.len().min(max_line)];
    let mut positions = vec![position.clone()];
    let mut line = Vec::with_capacity(shown.len());
    for played in shown {
        line.push(name_of(positions.last().expect("a line starts with its position"), played));
        positions.push(played.position.clone());
    }
    let last = positions.last().expect("a line starts with its position");
    let kind = if game.end_decided(last).is_some() {
        LineEndKind::Over
    } else if positions[..positions.len() - 1].contains(last) {
        LineEndKind::Repetition
    } else {
        LineEndKind::Cut
    };
    let repeats_ply = (kind == LineEndKind::Repetition).then(|| positions.iter().position(|p| p == last)).flatten();
    Analysis {
        value: ValueReport::between(found.lower.report(), found.upper.report()),
        over: game.end(position).is_some(),
        moves,
        best,
        line,
        line_end: LineEnd { kind, position: last.to_string(), repeats_ply },
        line_positions: positions.iter().map(ToString::to_string).collect(),
    }
}

/// Why a search stopped, as `details.search.stopped` names it.
pub fn stop_name(stop: Stop) -> &'static str {
    match stop {
        Stop::Nodes => "nodes",
        Stop::Time => "time",
        Stop::Asked => "asked",
    }
}

/// What a report says of the search that answered it (`docs/json.md`, Details:
/// `search`): nodes, tables probed, seconds, the last horizon, and why it stopped.
pub fn search_details<P, V>(found: &Searched<P, V>) -> serde_json::Value {
    let stopped = found.stop.map(stop_name);
    serde_json::json!({
        "nodes": found.nodes,
        "probes": found.probes,
        "seconds": found.seconds,
        "horizon": found.horizon,
        "stopped": stopped,
    })
}

/// The whole report of `position` that a search answered ([`searched_analysis`] under
/// `header`, with the search's details added to the game's), and the positions of its
/// line.
pub fn searched_report<G: Game>(
    game: &G,
    position: &G::Position,
    found: &Searched<G::Position, G::Value>,
    mut header: Header,
    named_moves: impl Fn(&G::Position) -> NamedMoves<G::Position>,
    max_line: usize,
    tables_report: TablesReport,
) -> (PositionReport, Vec<String>)
where
    G::Value: Reported + Scale,
{
    let analysis = searched_analysis(game, position, found, named_moves, max_line);
    let mut details = match header.details.take() {
        Some(serde_json::Value::Object(fields)) => fields,
        _ => serde_json::Map::new(),
    };
    details.insert("search".to_owned(), search_details(found));
    header.details = Some(serde_json::Value::Object(details));
    assemble(header, position.to_string(), analysis, tables_report, None)
}

#[cfg(test)]
mod tests {
    use super::*;
    use games::trias::Trias;
    use search::tree::{search, Budget};

    fn report_of(budget: Budget<'_>) -> (PositionReport, retro::Value) {
        let game = Trias::new(3, 0).unwrap();
        let tables = retro::store::open(&game, std::path::Path::new("no-tables"), &[]).unwrap();
        let start = game.start(1).unwrap();
        let value = retro::forward::solve_reachable(&game, &start)[&start];
        let found = search(&game, &tables, &start, budget, &mut |_| {}).unwrap();
        let header = Header {
            game: "trias".to_owned(),
            parameters: serde_json::json!({}),
            rules: "standard".to_owned(),
            start: true,
            to_move: "south".to_owned(),
            details: None,
        };
        let named = |p: &games::trias::Position| game.named_moves(p);
        let tables_report = TablesReport::new(&tables, &Default::default(), 0.0, None);
        (searched_report(&game, &start, &found, header, named, 100, tables_report).0, value)
    }

    /// A search to the end reports the value exactly, as the tables' reports do, with its
    /// line to the end of the game and its nodes in the details.
    #[test]
    fn an_exact_search_reports_the_value_and_its_line() {
        let (report, value) = report_of(Budget::default());
        assert_eq!(report.value, value.report());
        assert!(report.moves.as_ref().unwrap().iter().all(|m| m.value.is_exact()));
        assert_eq!(report.line.first(), report.best.as_ref());
        assert_eq!(report.line.len(), usize::from(value.plies().unwrap()));
        assert_eq!(report.line_end.kind, LineEndKind::Over);
        assert!(report.details.unwrap()["search"]["nodes"].as_u64().unwrap() > 0);
    }

    /// A search of one node reports bounds, of kind `bounds` in the JSON, no line, and
    /// says it stopped on its nodes.
    #[test]
    fn a_stopped_search_reports_bounds() {
        let (report, _) = report_of(Budget { nodes: Some(1), ..Budget::default() });
        assert!(!report.value.is_exact(), "{:?} is exact", report.value);
        let json = serde_json::to_value(&report).unwrap();
        assert_eq!(json["value"]["kind"], "bounds");
        assert_eq!(json["details"]["search"]["stopped"], "nodes");
        assert!(report.line.is_empty());
    }
}
