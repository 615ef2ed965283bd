//! THI` positions: the report of `solve thi` and the server's answers.
//!
//! Request parameters: `size` (3 by default), `rules` (`original` by default), `bonus`
//! (no by default), then `board` (a named setup: its start) or `position`.

use super::{open_loaded, tables_error, Answer, Board, Cell, Database, Described, Loaded, Opened, QueryError, Request};
use crate::analysis::{self, Header};
use crate::registry::{self, Build, RegistryError};
use crate::report::{PositionReport, ReachableReport, TablesReport};
use games::thi::{notation, Bonus, Colour, Position, RuleSet, Rules, Setup, Thi, ThiTier};
use retro::{Game, Tables, Value};
use serde_json::json;
use std::path::Path;

/// The report of `position` (`setup`'s start or any position of its board), with the
/// positions of its principal line. A start's report says whether the article's claim
/// holds for it (`details.claim_perfect_play_draws`): that perfect play draws.
pub fn report(
    game: &Thi,
    tables: &Tables<Thi>,
    setup: Option<Setup>,
    position: &Position,
    max_line: usize,
    tables_report: TablesReport,
    reachable: Option<ReachableReport>,
) -> Result<(PositionReport, Vec<String>), retro::line::LineError> {
    let rules = game.rules();
    let start = setup.is_some_and(|s| *position == s.start());
    let details = match start {
        true => Some(json!({ "claim_perfect_play_draws": tables.value(game, position)? == Value::Draw })),
        false => None,
    };
    let header = Header {
        game: "thi".to_owned(),
        parameters: json!({
            "board": setup.map(|s| s.name()),
            "size": game.size(),
            "counters": setup.map(|s| s.counters()),
            "bonus": rules.bonus.name(),
        }),
        rules: rules.set.name().to_owned(),
        start,
        to_move: if position.to_move() == Colour::White { "white" } else { "black" }.to_owned(),
        details,
    };
    let named = |p: &Position| game.named_moves(p).into_iter().map(|(m, s)| (m.name(p), s)).collect();
    analysis::position_report(game, tables, position, header, named, max_line, tables_report, reachable)
}

/// The board: rows from Black's first row down, each square's stack bottom to top, owned
/// by its top counter.
pub fn board(position: &Position) -> Board {
    let n = position.size();
    let rows = (0..n)
        .rev()
        .map(|row| {
            (0..n)
                .map(|file| {
                    let stack = position.stack(row * n + file);
                    Cell {
                        text: (0..stack.height()).map(|i| stack.counter(i).letter()).collect(),
                        owner: stack.top().map(|c| c.name().to_lowercase()),
                    }
                })
                .collect()
        })
        .collect();
    Board { layout: "grid", rows, labels: (1..=n).rev().map(|r| r.to_string()).collect(), stores: Vec::new() }
}

/// The rules named by a request (`rules`, `bonus`).
fn rules(request: &Request) -> Result<Rules, QueryError> {
    let name = request.get("rules").unwrap_or("original");
    let set = RuleSet::from_name(name).ok_or_else(|| {
        let known: Vec<&str> = RuleSet::ALL.iter().map(|r| r.name()).collect();
        QueryError::parameter("rules", format!("unknown THI` rules (known: {})", known.join(", ")))
    })?;
    // As on the command line, in any case; `yes` (or `true`, `1`): the mover's own counters.
    let bonus = match request.get("bonus").map(str::to_ascii_lowercase).as_deref() {
        None | Some("no" | "false" | "0") => Bonus::No,
        Some("yes" | "true" | "1") => Bonus::Own,
        Some("any") => Bonus::Any,
        Some(_) => {
            let given = games::echo::excerpt(request.get("bonus").unwrap_or_default());
            return Err(QueryError::parameter(
                "bonus",
                format!("`{given}`: no, yes (the mover's own counters) or any"),
            ));
        }
    };
    Ok(Rules { set, bonus })
}

/// What a request asks about: the board size, the setup named, the position.
fn asked(request: &Request) -> Result<(usize, Option<Setup>, Position), QueryError> {
    request.only(&["size", "rules", "bonus", "board", "position"])?;
    let size = request.number::<usize>("size", 3..=games::thi::board::MAX_SIZE)?;
    let setup = match request.get("board") {
        Some(name) => Some(Setup::named(name).map_err(|e| QueryError::parameter("board", e))?),
        None => None,
    };
    let position = match (request.position(), setup) {
        (Some(_), Some(_)) => {
            return Err(QueryError::parameter("board", "give a board (its start) or a position, not both"))
        }
        (Some(text), None) => notation::parse(text).map_err(|e| QueryError::Malformed(e.to_string()))?,
        (None, Some(s)) => s.start(),
        (None, None) => match size {
            Some(size) if size != 3 => {
                return Err(QueryError::parameter(
                    "position",
                    format!("give a position of size {size}, or a board (the default board, trias, is 3×3)"),
                ))
            }
            _ => Setup::named("trias").expect("a named setup").start(),
        },
    };
    let size = size.unwrap_or(position.size());
    if size != position.size() {
        let what = setup.map_or("the position".to_owned(), |s| format!("board {}", s.name()));
        return Err(QueryError::Impossible(format!("{what} is {0}×{0}, the request's size {size}", position.size())));
    }
    // A start given as a position is that setup's start, to the command and the server
    // alike.
    Ok((size, setup.or_else(|| Setup::of_start(&position)), position))
}

/// The command that builds tables answering `request`: the setup asked for, else the
/// smallest one holding the position's counters. Tables no 64-bit index can number are
/// refused as impossible, since no command builds them.
pub fn command(request: &Request, root: &Path) -> Result<Build, QueryError> {
    let rules = rules(request)?;
    let (size, asked_setup, position) = asked(request)?;
    let counters = position.count(Colour::White).max(position.count(Colour::Black));
    let holding = Setup::holding(size, counters).map_err(|e| QueryError::Impossible(e.to_string()))?;
    let bonus = match rules.bonus {
        Bonus::No => "",
        Bonus::Own => " --bonus",
        Bonus::Any => " --bonus any",
    };
    let dir = registry::thi_dir(root, size, rules);
    let answering = match asked_setup {
        Some(setup) => Thi::for_setup(setup, rules).map(|_| Some(setup)),
        None => Thi::answering(holding, &position, rules).map(|(_, setup)| setup),
    };
    let setup = match answering {
        Ok(Some(setup)) => setup,
        // Tables up to the position's own counters, as `solve thi --position` builds them
        // without a board.
        Ok(None) => {
            let command = format!("solve thi --position \"{position}\" --rules {}{bonus}", rules.set.name());
            return Ok(Build { command, dir, note: None });
        }
        // Named as the command names it: the board asked for (`board=`), or the position's
        // own tables, a start's too.
        Err(_) => {
            return Err(QueryError::Impossible(match asked_setup.filter(|_| request.get("board").is_some()) {
                Some(setup) => format!(
                    "board {} ({size}×{size}, {} counters a side) has more positions than a 64-bit index can \
                     number: no command builds its tables",
                    setup.name(),
                    setup.counters()
                ),
                None => format!(
                    "this position's tables ({size}×{size}, up to {counters} counters a side) have more \
                     positions than a 64-bit index can number: no command builds them"
                ),
            }))
        }
    };
    let board = match setup {
        named if named.article_name().is_some() => format!("--board {}", named.name()),
        Setup::Height { height, .. } => format!("--size {size} --height {height}"),
        Setup::Rows { rows, .. } => format!("--size {size} --rows {rows}"),
    };
    let command = format!("solve thi {board} --rules {}{bonus}", rules.set.name());
    Ok(Build { command, dir, note: None })
}

/// Opens THI`'s tables of `tiers` in `dir` under the key `thi size=N rules=R bonus=B`.
pub(crate) fn open(key: &str, dir: &Path, tiers: &[String]) -> Result<Box<dyn Database>, RegistryError> {
    let (game, tiers) = registry::thi_game(key, tiers)?;
    let describe = |game: &Thi, tables: &Tables<Thi>| {
        let rules = game.rules();
        let parameters = json!({ "size": game.size(), "rules": rules.set.name(), "bonus": rules.bonus.name() });
        let starts = Setup::of_board(game.size())
            // Only a start whose material the index holds may be located.
            .filter(|s| game.check(&s.start()).is_ok() && tables.table(game.locate(&s.start()).tier).is_some())
            .map(|s| {
                let mut start = parameters.clone();
                start["board"] = json!(s.name());
                start
            })
            .collect();
        Described { rules: rules.set.name().to_owned(), parameters, starts }
    };
    open_loaded("thi", key, game, dir, &tiers, describe, answer)
}

fn answer(db: &Opened<Loaded<Thi>>, request: &Request) -> Result<Answer, QueryError> {
    // The rules first: a misspelt rule set is named before what it leaves unread.
    let asked_rules = rules(request)?;
    let (size, setup, position) = asked(request)?;
    if size != db.state.game.size() || asked_rules != db.state.game.rules() {
        return Err(QueryError::NotHere);
    }
    let tier = ThiTier::new(position.count(Colour::White) as u8, position.count(Colour::Black) as u8);
    if db.state.tables.table(tier).is_none() {
        return Err(QueryError::NotHere);
    }
    let tables_report = db.holding.tables.clone();
    let (report, line) =
        report(&db.state.game, &db.state.tables, setup, &position, request.max_line()?, tables_report, None)
            .map_err(tables_error)?;
    Ok(Answer { report, board: board(&position), line_positions: line })
}
