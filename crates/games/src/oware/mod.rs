//! Trysse and Wari: Oware where the first to capture a target wins. Rules as implemented:
//! `docs/rules/awari.md` (from `shared/rules/oware.md` and its source text).
//!
//! Unlike Awari, the value of a position depends on the stones already captured, so the
//! state is the board seen from the player to move ([`Board`], shared with Awari) and the
//! stones he has captured; his opponent's follow (every stone is on the board or
//! captured). Values are win, draw or loss with the plies to the end, solved by the
//! outcome engine ([`retro::Game`], [`retro::store::build`]); endless play is a draw.
//!
//! A tier is the number of stones on the board (a capture only lowers it, by at least 2);
//! inside it, the rank is the board's rank ([`encoding::WordIndex`], as Awari's) times
//! the number of possible captured counts of the mover plus his count. A mover who holds
//! the target already is never to move (the game ended when he reached it), so his count
//! runs over `0..=min(stones captured, target − 1)`: positions where his opponent holds
//! the target are kept (they are over, lost for the mover) and probed as children.

pub mod position;

pub use position::{NotationError, Position};

use crate::awari::{Board, Sown, CELLS, MAX_PITS, START_STONES};
use encoding::{IndexError, WordIndex};
use retro::{Game, Location, Move, Turn, Value};
use thiserror::Error;

/// The two rule sets with a target.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum TargetRules {
    /// D. Elson's Trysse: a player who begins his turn with no stone on his side draws;
    /// first to 21 (of 48) wins.
    Trysse,
    /// Michael Keller's Wari: as Trysse, but a player who cannot feed his starving
    /// opponent ends the game, each player taking the stones on his own side; first to
    /// 25 (of 48) wins.
    Wari,
}

impl TargetRules {
    /// Both rule sets, Trysse first.
    pub const ALL: [TargetRules; 2] = [TargetRules::Trysse, TargetRules::Wari];

    /// The rule set's name on the command line and in table keys: `trysse` or `wari`.
    pub fn name(self) -> &'static str {
        match self {
            TargetRules::Trysse => "trysse",
            TargetRules::Wari => "wari",
        }
    }

    /// The rule set a `--rules` name stands for, if any.
    pub fn from_name(name: &str) -> Option<TargetRules> {
        TargetRules::ALL.into_iter().find(|r| r.name() == name)
    }

    /// The target on a board of `total` stones. On the real board the source's: 21 for
    /// Trysse, 25 for Wari. Elsewhere ours: Wari's is "one more than half", as Keller
    /// words it; Trysse's keeps the source's share, `⌈21·total/48⌉`.
    pub fn default_target(self, total: u32) -> u32 {
        match self {
            TargetRules::Trysse => (21 * total).div_ceil(48),
            TargetRules::Wari => total / 2 + 1,
        }
    }
}

/// Why a Trysse or Wari game cannot be set up or indexed.
#[derive(Debug, Error, PartialEq, Eq)]
pub enum OwareError {
    /// Pits a row outside 1 to `MAX_PITS`.
    #[error("{0} pits a row: boards here have 1 to {MAX_PITS}")]
    Pits(usize),
    /// No stones a pit, or more stones in all than the 48 a board here holds.
    #[error("{seeds} seeds a pit on {m} pits a row: give 1 to {most} (at most {START_STONES} stones in all)", most = START_STONES / (2 * *m as u32))]
    Seeds {
        /// Pits a row.
        m: usize,
        /// Stones a pit at the start.
        seeds: u32,
    },
    /// A target of no stones, or more than there are.
    #[error("target {target}: it must be between 1 and the {total} stones in play")]
    Target {
        /// The target asked for.
        target: u32,
        /// Stones in play.
        total: u32,
    },
    /// The boards cannot be indexed.
    #[error(transparent)]
    Index(#[from] IndexError),
}

/// Why the tables of a game cannot answer for a position.
#[derive(Debug, Error, PartialEq, Eq)]
pub enum PositionError {
    /// The position is on another board than the game's.
    #[error("the position has {found} pits a row; this game has {expected}")]
    Pits {
        /// Pits a row of the position.
        found: usize,
        /// Pits a row of the game.
        expected: usize,
    },
    /// The position's stones, on the board and captured, are not the game's.
    #[error("the position holds {found} stones (board and captures); this game has {expected}")]
    Stones {
        /// Stones of the position.
        found: u32,
        /// Stones in play in the game.
        expected: u32,
    },
    /// The player to move already holds the target: the game ended before his turn.
    #[error("the player to move has captured {mine}, the target is {target}: the game ended before his turn")]
    MoverAtTarget {
        /// Stones the player to move has captured.
        mine: u8,
        /// The game's target.
        target: u32,
    },
}

/// Trysse or Wari on `m` pits a row with `seeds` stones in each at the start.
#[derive(Debug, Clone)]
pub struct Oware {
    rules: TargetRules,
    m: usize,
    seeds: u32,
    total: u32,
    target: u32,
    index: WordIndex,
}

impl Oware {
    /// The game; `target` defaults to [`TargetRules::default_target`].
    pub fn new(rules: TargetRules, m: usize, seeds: u32, target: Option<u32>) -> Result<Oware, OwareError> {
        if !(1..=MAX_PITS).contains(&m) {
            return Err(OwareError::Pits(m));
        }
        let total = (2 * m as u32).saturating_mul(seeds);
        if seeds == 0 || total > START_STONES {
            return Err(OwareError::Seeds { m, seeds });
        }
        let target = target.unwrap_or_else(|| rules.default_target(total));
        if !(1..=total).contains(&target) {
            return Err(OwareError::Target { target, total });
        }
        let index = WordIndex::of_counts(2 * m, total)?;
        Ok(Oware { rules, m, seeds, total, target, index })
    }

    /// The rule set: Trysse or Wari.
    pub fn rules(&self) -> TargetRules {
        self.rules
    }

    /// Pits a row.
    pub fn pits_per_row(&self) -> usize {
        self.m
    }

    /// Stones a pit at the start.
    pub fn seeds(&self) -> u32 {
        self.seeds
    }

    /// Stones in play: on the board at the start.
    pub fn total(&self) -> u32 {
        self.total
    }

    /// Stones a player must capture to win at once.
    pub fn target(&self) -> u32 {
        self.target
    }

    /// The start: `seeds` in every pit, nothing captured, South (the first player) to move.
    pub fn start(&self) -> Position {
        let board = Board::start(self.m, self.seeds).expect("checked in Oware::new");
        Position { board, mine: 0, theirs: 0 }
    }

    /// Every tier, fewest stones first.
    pub fn all_tiers(&self) -> Vec<u8> {
        (0..=self.total as u8).collect()
    }

    /// Whether the tables of this game can answer for `position`.
    pub fn check(&self, position: &Position) -> Result<(), PositionError> {
        if position.board.pits_per_row() != self.m {
            return Err(PositionError::Pits { found: position.board.pits_per_row(), expected: self.m });
        }
        if position.total() != self.total {
            return Err(PositionError::Stones { found: position.total(), expected: self.total });
        }
        if position.mine as u32 >= self.target {
            return Err(PositionError::MoverAtTarget { mine: position.mine, target: self.target });
        }
        Ok(())
    }

    /// The legal moves of a position that is not over: the mover's pit (0..m) and the
    /// sowing. When his opponent has no stone and some move gives him one, only those
    /// moves; a move that then captures every stone of the opponent is allowed.
    pub fn sowings(&self, position: &Position) -> Vec<(usize, Sown)> {
        let mut out = Vec::new();
        self.for_each_move(&position.board, |pit, sown| out.push((pit, sown)));
        out
    }

    #[inline]
    fn for_each_move(&self, board: &Board, mut f: impl FnMut(usize, Sown)) {
        let must_feed = board.opponent_stones() == 0 && board.can_reach_opponent();
        for pit in 0..self.m {
            if board.cells()[pit] != 0 && (!must_feed || board.reaches_opponent(pit)) {
                f(pit, board.sow(pit));
            }
        }
    }

    /// The position after a sowing: the opponent to move, the mover's captures added.
    pub fn after(&self, position: &Position, sown: Sown) -> Position {
        Position { board: sown.board, mine: position.theirs, theirs: position.mine + sown.captured }
    }

    /// The mover's captured counts a tier holds: `0..range`.
    #[inline]
    fn range(&self, stones: u32) -> u64 {
        (self.total.saturating_sub(stones).min(self.target - 1) + 1) as u64
    }

    /// The value when the game ends with each player taking the stones on his side: more
    /// stones wins if he holds the target; otherwise (nobody there, or equal) a draw.
    fn split(&self, mine: u32, theirs: u32) -> Value {
        if mine >= self.target && mine > theirs {
            Value::Win(0)
        } else if theirs >= self.target && theirs > mine {
            Value::Loss(0)
        } else {
            Value::Draw
        }
    }
}

impl Game for Oware {
    type Position = Position;
    type Tier = u8;
    type Value = Value;

    fn table_key(&self) -> String {
        format!("oware pits={} stones={} rules={} target={}", self.m, self.total, self.rules.name(), self.target)
    }

    fn tier_size(&self, tier: u8) -> u64 {
        let stones = tier as u32;
        if stones > self.total {
            return 0;
        }
        self.index.size([stones, 0]).unwrap_or(0) * self.range(stones)
    }

    fn child_tiers(&self, tier: u8) -> Vec<u8> {
        // A capture takes at least 2 stones.
        (0..tier.saturating_sub(1)).collect()
    }

    #[inline]
    fn locate(&self, position: &Position) -> Location<u8> {
        let (stones, board) = self.index.locate_counts(position.board.cells());
        Location { tier: stones as u8, rank: board * self.range(stones) + position.mine as u64, orientation: 0 }
    }

    /// Stones on the board (not the captured ones).
    fn material_tier(&self, position: &Position) -> u8 {
        u8::try_from(position.board.stones()).unwrap_or(u8::MAX)
    }

    fn position(&self, location: Location<u8>) -> Position {
        let stones = location.tier as u32;
        let range = self.range(stones);
        let mut cells = [0u8; CELLS];
        let cells = &mut cells[..2 * self.m];
        self.index.unrank([stones, 0], location.rank / range, cells).expect("rank inside its tier");
        let mine = (location.rank % range) as u8;
        Position { board: Board::from_cells(cells), mine, theirs: (self.total - stones) as u8 - mine }
    }

    fn end(&self, p: &Position) -> Option<Value> {
        if p.theirs as u32 >= self.target {
            return Some(Value::Loss(0));
        }
        if p.mine as u32 >= self.target {
            return Some(Value::Win(0));
        }
        let own = p.board.mover_stones();
        // Both rule sets (the source's Trysse rule, which Keller's changes keep).
        if own == 0 {
            return Some(Value::Draw);
        }
        if self.rules == TargetRules::Wari && p.board.opponent_stones() == 0 && !p.board.can_reach_opponent() {
            return Some(self.split(p.mine as u32 + own, p.theirs as u32));
        }
        None
    }

    fn moves(&self, position: &Position, out: &mut Vec<Move<Position>>) {
        self.for_each_move(&position.board, |_, sown| {
            out.push(Move { position: self.after(position, sown), gain: 0, turn: Turn::Passes })
        });
    }

    /// The capture-free sowings into `position` that the rules allow from a position that
    /// is not over. The parent's mover is `position`'s opponent: his captures are
    /// `theirs`, so a child whose opponent holds the target has no parent. A parent whose
    /// opponent had no stone must have fed him, unless (Trysse) no move could.
    fn lists_unmoves(&self) -> bool {
        true
    }

    fn unmoves(&self, position: &Position, out: &mut Vec<Move<Position>>) {
        if position.theirs as u32 >= self.target || position.mine as u32 >= self.target {
            return;
        }
        position.board.for_each_unsowing(|pit, board| {
            if board.opponent_stones() == 0
                && !board.reaches_opponent(pit)
                && (self.rules == TargetRules::Wari || board.can_reach_opponent())
            {
                return;
            }
            let parent = Position { board, mine: position.theirs, theirs: position.mine };
            out.push(Move { position: parent, gain: 0, turn: Turn::Passes });
        });
    }
}
