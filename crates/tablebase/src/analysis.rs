//! What the tables say about one position, for every game whose values are all in its
//! tables: its value, every move's worth, the best move and the principal line, as the
//! parts of a [`PositionReport`].

use crate::report::{
    LineEnd, LineEndKind, MoveReport, PositionReport, ReachableReport, TablesReport, ValueReport, SCHEMA,
};
use retro::line::{best_move, move_values, principal_line, LineEnd as RetroLineEnd, LineError};
use retro::store::Tables;
use retro::{Game, Move};

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
    let report = PositionReport {
        schema: SCHEMA,
        game: header.game,
        parameters: header.parameters,
        rules: header.rules,
        position: position.to_string(),
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
    Ok((report, analysis.line_positions))
}
