//! THI`'s front end: `solve thi`, `/api/thi`.
//!
//! Parameters: `size` (3 by default), `rules` (`original` by default), `bonus` (no by
//! default), then `board` (a named setup: its start), `position`, or both (the position
//! answered from the board's tables).

use super::key::Key;
use super::{Asked, Described, FrontEnd};
use crate::analysis::{Header, NamedMoves};
use crate::query::{Board, Cell, QueryError, Request};
use crate::registry;
use games::thi::{notation, Bonus, Colour, Position, RuleSet, Rules, Setup, Thi, ThiTier, TABLE_BYTES_PER_RANK};
use retro::{Game, Tables, Value};
use serde_json::json;
use std::path::{Path, PathBuf};

/// A start of THI`: its setup, and whether the request named it (`board`, no position
/// beside it) rather than wrote its position, which is how a command refusing its tables
/// names them. As [`Asked::tables`], the board a position is answered from (named).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Start {
    /// The setup.
    pub setup: Setup,
    /// Whether it was asked for by name.
    pub named: bool,
}

impl FrontEnd for Thi {
    type Shown = Position;
    type Start = Start;
    const NAME: &'static str = "thi";
    const SUMMARY: &'static str = "THI` (Transporter), every board and rule set";
    const PARAMETERS: &'static [&'static str] = &["size", "rules", "bonus", "board", "position"];

    fn tier_named(name: &str) -> Option<ThiTier> {
        let (high, low) = name.split_once('-')?;
        Some(ThiTier::new(high.parse().ok()?, low.parse().ok()?))
    }

    fn from_key(key: &Key, tiers: &[ThiTier]) -> Result<Thi, String> {
        let size: usize = key.number("size")?;
        // A key is read from disk: a side the index cannot hold is refused here, before a
        // board of it is ever laid out.
        if !(3..=games::thi::board::MAX_SIZE).contains(&size) {
            return Err(format!("board side {size}: this version indexes 3 to {}", games::thi::board::MAX_SIZE));
        }
        let set = key.named("rules", RuleSet::from_name, "a THI` rule set")?;
        let bonus = key.named("bonus", Bonus::from_name, "yes, no or any")?;
        let max = tiers.iter().map(|t| t.high).max().unwrap_or(0);
        Thi::new(size, max, Rules { set, bonus }).map_err(|e| e.to_string())
    }

    fn directory(&self, root: &Path) -> PathBuf {
        registry::thi_dir(root, self.size(), self.rules())
    }

    fn asked(request: &Request) -> Result<Asked<Thi>, QueryError> {
        asked(request)
    }

    fn command(asked: &Asked<Thi>) -> Result<(String, Option<String>), QueryError> {
        Ok((command(asked)?, None))
    }

    fn played(shown: &Position) -> Position {
        shown.clone()
    }

    fn answering(asked: &Asked<Thi>) -> Result<(Thi, Vec<ThiTier>), QueryError> {
        let (rules, position) = (asked.game.rules(), &asked.position);
        let answering = match asked.tables.or(asked.start) {
            Some(Start { setup, .. }) => Thi::for_setup(setup, rules),
            None => Thi::answering(holding(position)?, position, rules).map(|(game, _)| game),
        };
        let game = answering.map_err(|_| beyond_index(asked))?;
        let tier = game.locate(position).tier;
        Ok((game, vec![tier]))
    }

    fn title(asked: &Asked<Thi>) -> String {
        let (size, rules) = (asked.game.size(), asked.game.rules());
        match asked.start {
            Some(Start { setup, .. }) => {
                format!("THI` {} ({size}×{size}, {} counters each), rules: {rules}", shown(setup), setup.counters())
            }
            None => format!("THI` a position of {size}×{size}, rules: {rules}"),
        }
    }

    fn board(asked: &Asked<Thi>) -> Board {
        board(&asked.position)
    }

    /// A start's report says whether the article's claim holds for it
    /// (`details.claim_perfect_play_draws`): that perfect play draws. Where the start's
    /// tier is not built (a search above the tables answers it) the claim is left to
    /// the value the search proves.
    fn header(&self, asked: &Asked<Thi>, tables: &Tables<Thi>) -> Result<Header, retro::line::LineError> {
        let (rules, setup, position) = (self.rules(), asked.start.map(|s| s.setup), &asked.position);
        let start = setup.is_some_and(|s| *position == s.start());
        let tabled = tables.table(self.material_tier(position)).is_some();
        let details = match start && tabled {
            true => Some(json!({ "claim_perfect_play_draws": tables.value(self, position)? == Value::Draw })),
            false => None,
        };
        Ok(Header {
            game: Self::NAME.to_owned(),
            parameters: json!({
                "board": setup.map(|s| s.name()),
                "size": self.size(),
                "counters": setup.map(|s| s.counters()),
                "bonus": rules.bonus.name(),
            }),
            rules: rules.set.name().to_owned(),
            start,
            to_move: if position.to_move() == Colour::White { "white" } else { "black" }.to_owned(),
            details,
        })
    }

    fn named_moves(&self, position: &Position) -> NamedMoves<Position> {
        Thi::named_moves(self, position).into_iter().map(|(m, s)| (m.name(position), s)).collect()
    }

    fn described(&self, tables: &Tables<Thi>) -> Described {
        let rules = self.rules();
        let parameters = json!({ "size": self.size(), "rules": rules.set.name(), "bonus": rules.bonus.name() });
        let starts = Setup::of_board(self.size())
            // Only a start whose material the index holds may be located.
            .filter(|s| self.check(&s.start()).is_ok() && tables.table(self.locate(&s.start()).tier).is_some())
            .map(|s| {
                let mut start = parameters.clone();
                start["board"] = json!(s.name());
                start
            })
            .collect();
        Described { rules: rules.set.name().to_owned(), parameters, starts }
    }
}

/// A setup's name in a title: the article's boards in capitals, as it writes them; a
/// custom setup by its description (`4x4-height1`).
pub fn shown(setup: Setup) -> String {
    match setup.article_name() {
        Some(name) => name.to_uppercase(),
        None => setup.name(),
    }
}

/// The board: rows from Black's first row down, each square's stack bottom to top, owned
/// by its top counter; a stack the mover owns named as the square his moves from it
/// begin with (`b1`).
pub fn board(position: &Position) -> Board {
    let n = position.size();
    let to_move = position.to_move();
    let rows = (0..n)
        .rev()
        .map(|row| {
            (0..n)
                .map(|file| {
                    let stack = position.stack(row * n + file);
                    Cell {
                        text: (0..stack.height()).map(|i| stack.counter(i).letter()).collect(),
                        owner: stack.top().map(|c| c.name().to_lowercase()),
                        moves_from: (stack.top() == Some(to_move))
                            .then(|| format!("{}{}", char::from(b'a' + file as u8), row + 1)),
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

/// What a request asks about: the board and rules, the position, the setup whose start
/// it is, if it is one, and the board whose tables answer it, if one is named beside it.
fn asked(request: &Request) -> Result<Asked<Thi>, QueryError> {
    request.only(Thi::PARAMETERS)?;
    // The rules first: a misspelt rule set is named before what it leaves unread.
    let rules = rules(request)?;
    let size = request.number::<usize>("size", 3..=games::thi::board::MAX_SIZE)?;
    let board = match request.get("board") {
        Some(name) => Some(Setup::named(name).map_err(|e| QueryError::parameter("board", e))?),
        None => None,
    };
    // A start asked for by its board (TRIAS's by default), or a position written.
    let (named, position) = match (request.position(), board) {
        (Some(text), _) => (None, notation::parse(text).map_err(|e| QueryError::Malformed(e.to_string()))?),
        (None, Some(setup)) => (Some(setup), setup.start()),
        (None, None) => match size {
            Some(size) if size != 3 => {
                return Err(QueryError::parameter(
                    "position",
                    format!("give a position of size {size}, or a board (the default board, trias, is 3×3)"),
                ))
            }
            _ => {
                let trias = Setup::named("trias").expect("a named setup");
                (Some(trias), trias.start())
            }
        },
    };
    // A board beside a position: the tables it is answered from, which must hold it.
    let tables = board.filter(|_| request.position().is_some());
    if let Some(board) = tables {
        board.check(&position).map_err(|e| QueryError::Impossible(e.to_string()))?;
    }
    let size = size.unwrap_or(position.size());
    if size != position.size() {
        let what = board.map_or("the position".to_owned(), |s| format!("board {}", s.name()));
        return Err(QueryError::Impossible(format!("{what} is {0}×{0}, the request's size {size}", position.size())));
    }
    // Indexed for no counters: the request's board and rules, not its tables.
    let game = Thi::new(size, 0, rules).map_err(|e| QueryError::Impossible(e.to_string()))?;
    let start = match named {
        Some(setup) => Some(Start { setup, named: true }),
        // A start given as a position is that setup's start, to the command and the
        // server alike.
        None => Setup::of_start(&position).map(|setup| Start { setup, named: false }),
    };
    let tables = tables.map(|setup| Start { setup, named: true });
    Ok(Asked { game, start, position, tables })
}

/// The smallest setup of `position`'s board that holds its counters.
fn holding(position: &Position) -> Result<Setup, QueryError> {
    let counters = position.count(Colour::White).max(position.count(Colour::Black));
    Setup::holding(position.size(), counters).map_err(|e| QueryError::Impossible(e.to_string()))
}

/// The command that builds tables answering `asked`: the board named beside its
/// position, the setup of its start, else the smallest one holding the position's
/// counters. Tables no 64-bit index can number are refused ([`QueryError::BeyondIndex`]),
/// since no command builds them.
pub fn command(asked: &Asked<Thi>) -> Result<String, QueryError> {
    let (rules, size, position) = (asked.game.rules(), asked.game.size(), &asked.position);
    let bonus = match rules.bonus {
        Bonus::No => "",
        Bonus::Own => " --bonus",
        Bonus::Any => " --bonus any",
    };
    let answering = match asked.tables.or(asked.start) {
        Some(Start { setup, .. }) => Thi::for_setup(setup, rules).map(|_| Some(setup)),
        None => Thi::answering(holding(position)?, position, rules).map(|(_, setup)| setup),
    };
    let setup = match answering {
        Ok(Some(setup)) => setup,
        // Tables up to the position's own counters, as `solve thi --position` builds them
        // without a board.
        Ok(None) => return Ok(format!("solve thi --position \"{position}\" --rules {}{bonus}", rules.set.name())),
        Err(_) => return Err(beyond_index(asked)),
    };
    let board = match setup {
        named if named.article_name().is_some() => format!("--board {}", named.name()),
        Setup::Height { height, .. } => format!("--size {size} --height {height}"),
        Setup::Rows { rows, .. } => format!("--size {size} --rows {rows}"),
    };
    Ok(format!("solve thi {board} --rules {}{bonus}", rules.set.name()))
}

/// Why no command builds the tables that answer `asked`: more positions than a 64-bit
/// index numbers, how many, and the disk they would fill. Named as the command names
/// them: the board asked for, or the position's own tables (a start's too).
fn beyond_index(asked: &Asked<Thi>) -> QueryError {
    let (size, position) = (asked.game.size(), &asked.position);
    let (which, whose, counters) = match asked.tables.or(asked.start.filter(|s| s.named)) {
        Some(Start { setup, .. }) => (
            format!("board {} ({size}×{size}, {} counters a side) has", setup.name(), setup.counters()),
            "its",
            setup.counters(),
        ),
        None => {
            let counters = position.count(Colour::White).max(position.count(Colour::Black));
            let counters = u8::try_from(counters).unwrap_or(u8::MAX);
            (format!("this position's tables ({size}×{size}, up to {counters} counters a side) have"), "the", counters)
        }
    };
    let total = games::thi::index::estimated_positions(size, counters);
    let without = match asked.tables {
        Some(_) => "; without a board, a position is answered from tables up to its own counters",
        None => "",
    };
    QueryError::BeyondIndex(format!(
        "{which} about {total:.3e} positions: more than a 64-bit index can number; {whose} tables would need \
         about {} of disk and far more memory: no command builds them{without}",
        retro::memory::human(total * TABLE_BYTES_PER_RANK)
    ))
}
