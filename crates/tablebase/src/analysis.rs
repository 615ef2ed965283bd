//! What the tables say about one position, for every game whose values are all in its
//! tables: its value, every move's worth, the best move and the principal line, as the
//! parts of a [`PositionReport`](crate::report::PositionReport).

use crate::report::{LineEnd, LineEndKind, MoveReport, ValueReport};
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
    pub value: ValueReport,
    pub over: bool,
    pub moves: Vec<MoveReport>,
    pub best: Option<String>,
    pub line: Vec<String>,
    pub line_end: LineEnd,
}

/// Reads the analysis of `position` out of `tables`. `named` are the position's moves
/// with their names, in the game's order (a game may list one move per name even where
/// `Game::moves` lists several paths to one position); `name_between` names the move from
/// one position of the principal line to the next.
pub fn analyse<G: Game>(
    game: &G,
    tables: &Tables<G>,
    position: &G::Position,
    named: &[(String, Move<G::Position>)],
    name_between: impl Fn(&G::Position, &G::Position) -> String,
    max_line: usize,
) -> Result<Analysis, LineError>
where
    G::Value: Reported,
{
    let value = tables.value(game, position)?;
    let over = game.end(position);
    let values = move_values(game, tables, named.iter().map(|(_, m)| m))?;
    let best = best_move(&values).map(|i| named[i].0.clone());
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
    let line = principal_line(game, tables, position, max_line)?;
    let names = line.positions.windows(2).map(|w| name_between(&w[0], &w[1])).collect();
    let last = line.positions.last().expect("a line starts with its position").to_string();
    let line_end = match line.end {
        RetroLineEnd::Over(_) => LineEnd { kind: LineEndKind::Over, position: last, repeats_ply: None },
        RetroLineEnd::Cycle(i) => LineEnd { kind: LineEndKind::Repetition, position: last, repeats_ply: Some(i) },
        RetroLineEnd::Cut => LineEnd { kind: LineEndKind::Cut, position: last, repeats_ply: None },
    };
    Ok(Analysis { value: value.report(), over: over.is_some(), moves, best, line: names, line_end })
}
