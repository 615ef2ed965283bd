//! Njaka's Mancala Game (Dim Njaka, US patent 5,184,829), two players: holes in a
//! circle, multi-lap sowing, every four made on the way captured by its hole's owner, a
//! four made by the last counter captured by the mover. Rules as implemented:
//! `docs/rules/njaka.md` (from `shared/rules/njaka.md`).
//!
//! The tables hold the difference in sets of four still to be captured, mover minus
//! opponent, under perfect play; endless play scores 0 for what is left. A tier is the
//! counters on the board (a capture takes four); moves inside a tier capture nothing and
//! pass the turn, so the cyclic score engine solves it, finding parents from the moves
//! (multi-lap sowing has no simple un-move: `retro::parents`). A position is seen from the
//! player to move: in the standard game the board turned so that his half comes first
//! (the rank is the counts' composition rank); in the advanced game the counts as they
//! are and the holes he owns (rank = counts' rank × 2^h + his holes as a mask).

pub mod board;
pub mod notation;

pub use board::{Illegal, Position, Sowing, MAX_COUNTERS, MAX_HOLES};
pub use notation::NotationError;

use crate::side::Side;
use encoding::{IndexError, WordIndex};
use retro::{Engine, Footprint, Game, Location, Move, Turn};
use thiserror::Error;

/// Who owns the holes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Variant {
    /// Each player owns a contiguous half, for the whole game.
    Standard,
    /// The holes alternate at the start; a four captured by the last counter in an
    /// opponent's hole makes it the mover's.
    Advanced,
}

impl Variant {
    /// `standard` or `advanced`.
    pub fn name(self) -> &'static str {
        match self {
            Variant::Standard => "standard",
            Variant::Advanced => "advanced",
        }
    }

    /// The variant named `standard` or `advanced`.
    pub fn from_name(name: &str) -> Option<Variant> {
        [Variant::Standard, Variant::Advanced].into_iter().find(|v| v.name() == name)
    }
}

/// Which way sowing goes round the circle of holes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Direction {
    /// Counterclockwise: hole 1, 2, … (the source's way).
    Counterclockwise,
    /// Clockwise: hole 1, h, h − 1, …
    Clockwise,
}

impl Direction {
    /// `ccw` or `cw`.
    pub fn name(self) -> &'static str {
        match self {
            Direction::Counterclockwise => "ccw",
            Direction::Clockwise => "cw",
        }
    }

    /// The direction named `ccw` or `cw`.
    pub fn from_name(name: &str) -> Option<Direction> {
        [Direction::Counterclockwise, Direction::Clockwise].into_iter().find(|d| d.name() == name)
    }

    fn clockwise(self) -> bool {
        self == Direction::Clockwise
    }
}

/// Why a Njaka board cannot be set up, indexed or a position used.
#[derive(Debug, Error, PartialEq, Eq)]
pub enum NjakaError {
    /// Holes this version does not build.
    #[error("{0} holes: boards here have an even number from 2 to {MAX_HOLES}")]
    Holes(usize),
    /// More counters than a board here holds.
    #[error("{0} counters on the board: boards here hold at most {MAX_COUNTERS}")]
    TooManyCounters(u64),
    /// A position of another board than the game's.
    #[error("a position of {found} holes on a board of {holes}")]
    WrongBoard {
        /// What the position has.
        found: usize,
        /// What the board has.
        holes: usize,
    },
    /// A standard-game position whose owners are not the two halves.
    #[error("in the standard game South owns holes 1 to {half} and North the rest")]
    NotStandard {
        /// Holes a player owns.
        half: usize,
    },
    /// The boards cannot be indexed.
    #[error(transparent)]
    Index(#[from] IndexError),
}

/// Njaka's game on `h` holes, indexed up to `max_counters` counters on the board.
#[derive(Debug, Clone)]
pub struct Njaka {
    h: usize,
    variant: Variant,
    direction: Direction,
    max_counters: u32,
    index: WordIndex,
}

impl Njaka {
    /// The game on `h` holes (even, 2..=12) with tables up to `max_counters` counters.
    pub fn new(h: usize, variant: Variant, direction: Direction, max_counters: u32) -> Result<Njaka, NjakaError> {
        if !(2..=MAX_HOLES).contains(&h) || !h.is_multiple_of(2) {
            return Err(NjakaError::Holes(h));
        }
        if max_counters > MAX_COUNTERS {
            return Err(NjakaError::TooManyCounters(max_counters as u64));
        }
        let index = WordIndex::of_counts(h, max_counters)?;
        Ok(Njaka { h, variant, direction, max_counters, index })
    }

    /// Holes on the board.
    pub fn holes(&self) -> usize {
        self.h
    }

    /// Who owns the holes.
    pub fn variant(&self) -> Variant {
        self.variant
    }

    /// Which way sowing goes.
    pub fn direction(&self) -> Direction {
        self.direction
    }

    /// South's holes at the start.
    fn start_mask(&self) -> u16 {
        match self.variant {
            Variant::Standard => (1 << (self.h / 2)) - 1,
            Variant::Advanced => (0..self.h).step_by(2).map(|i| 1u16 << i).sum(),
        }
    }

    /// The start: `counters` in every hole, South to move.
    pub fn start(&self, counters: u32) -> Result<Position, NjakaError> {
        let total = self.h as u64 * counters as u64;
        if total > MAX_COUNTERS as u64 {
            return Err(NjakaError::TooManyCounters(total));
        }
        Ok(Position::new(&vec![counters as u8; self.h], self.start_mask(), Side::South))
    }

    /// The counters a hole if `position` is this game's start, however it was asked for.
    pub fn start_counters(&self, position: &Position) -> Option<u32> {
        let counters = position.counters() / self.h as u32;
        (counters > 0 && self.start(counters).ok()? == *position).then_some(counters)
    }

    /// Whether `position` is one of this game's (its board, and in the standard game its
    /// owners) and inside the index.
    pub fn check(&self, position: &Position) -> Result<(), NjakaError> {
        if position.holes() != self.h {
            return Err(NjakaError::WrongBoard { found: position.holes(), holes: self.h });
        }
        if self.variant == Variant::Standard && position.holes_of(Side::South) != self.start_mask() {
            return Err(NjakaError::NotStandard { half: self.h / 2 });
        }
        if position.counters() > self.max_counters {
            return Err(NjakaError::TooManyCounters(position.counters() as u64));
        }
        Ok(())
    }

    /// Every tier up to `counters` that a capture can reach from it, fewest first.
    pub fn tiers_below(&self, counters: u32) -> Vec<u8> {
        let top = counters.min(self.max_counters);
        (0..=top).filter(|t| (top - t).is_multiple_of(4)).map(|t| t as u8).collect()
    }

    /// The legal moves with their names (the hole, 1..=h) and sowings; a pass where the
    /// mover has none and the game goes on; none where it is over.
    pub fn named_moves(&self, position: &Position) -> Vec<(String, Move<Position>, Option<Sowing>)> {
        if self.end_value(position).is_some() {
            return Vec::new();
        }
        let moves: Vec<_> = position
            .sowings(self.direction.clockwise(), self.variant == Variant::Advanced)
            .map(|(i, s)| ((i + 1).to_string(), self.as_move(&s), Some(s)))
            .collect();
        if moves.is_empty() {
            return vec![("pass".to_owned(), Move { position: position.passed(), gain: 0, turn: Turn::Passes }, None)];
        }
        moves
    }

    fn as_move(&self, s: &Sowing) -> Move<Position> {
        Move { position: s.after, gain: s.mover_sets as i16 - s.opponent_sets as i16, turn: Turn::Passes }
    }

    fn has_move(&self, position: &Position) -> bool {
        position.sowings(self.direction.clockwise(), self.variant == Variant::Advanced).next().is_some()
    }

    /// 0 where the game is over: one set or less on the board, or neither player able to
    /// move; the counters left are not counted.
    fn end_value(&self, position: &Position) -> Option<i16> {
        let over = position.counters() <= 4 || (!self.has_move(position) && !self.has_move(&position.passed()));
        over.then_some(0)
    }

    /// The counts seen from the mover: in the standard game turned so his half is first.
    fn view(&self, position: &Position) -> [u8; MAX_HOLES] {
        let mut view = [0u8; MAX_HOLES];
        let shift = match (self.variant, position.to_move()) {
            (Variant::Standard, Side::North) => self.h / 2,
            _ => 0,
        };
        for (j, v) in view[..self.h].iter_mut().enumerate() {
            *v = position.cells()[(j + shift) % self.h];
        }
        view
    }
}

impl Game for Njaka {
    type Position = Position;
    type Tier = u8;
    type Value = i16;

    fn table_key(&self) -> String {
        format!("njaka holes={} variant={} direction={}", self.h, self.variant.name(), self.direction.name())
    }

    fn tier_size(&self, tier: u8) -> u64 {
        let words = self.index.size([tier as u32, 0]).unwrap_or(0);
        match self.variant {
            Variant::Standard => words,
            Variant::Advanced => words << self.h,
        }
    }

    fn child_tiers(&self, tier: u8) -> Vec<u8> {
        (1..=tier / 4).map(|k| tier - 4 * k).collect()
    }

    fn orientations(&self) -> u8 {
        2
    }

    fn locate(&self, position: &Position) -> Location<u8> {
        let view = self.view(position);
        let (n, word) = self.index.locate_counts(&view[..self.h]);
        let rank = match self.variant {
            Variant::Standard => word,
            Variant::Advanced => word << self.h | position.holes_of(position.to_move()) as u64,
        };
        Location { tier: n as u8, rank, orientation: (position.to_move() == Side::North) as u8 }
    }

    /// Counters on the board.
    fn material_tier(&self, position: &Position) -> u8 {
        u8::try_from(position.counters()).unwrap_or(u8::MAX)
    }

    fn position(&self, location: Location<u8>) -> Position {
        let side = if location.orientation == 0 { Side::South } else { Side::North };
        let (word, mine) = match self.variant {
            Variant::Standard => (location.rank, 0),
            Variant::Advanced => (location.rank >> self.h, (location.rank & ((1 << self.h) - 1)) as u16),
        };
        let mut view = [0u8; MAX_HOLES];
        self.index.unrank([location.tier as u32, 0], word, &mut view[..self.h]).expect("rank inside its tier");
        let all = (1u16 << self.h) - 1;
        match self.variant {
            Variant::Standard => {
                let shift = if side == Side::North { self.h / 2 } else { 0 };
                let mut cells = [0u8; MAX_HOLES];
                for j in 0..self.h {
                    cells[(j + shift) % self.h] = view[j];
                }
                Position::new(&cells[..self.h], self.start_mask(), side)
            }
            Variant::Advanced => {
                let south = if side == Side::South { mine } else { all & !mine };
                Position::new(&view[..self.h], south, side)
            }
        }
    }

    fn end(&self, position: &Position) -> Option<i16> {
        self.end_value(position)
    }

    fn moves(&self, position: &Position, out: &mut Vec<Move<Position>>) {
        out.extend(self.named_moves(position).into_iter().map(|(_, m, _)| m));
    }

    /// Sets of four still to be captured: no more than the fours the counters on the
    /// board make, by either side.
    fn value_bounds(&self, position: &Position) -> Option<(i16, i16)> {
        let sets = i16::try_from(position.counters() / 4).ok()?;
        Some((-sets, sets))
    }

    /// Moves inside a tier (no capture, or a pass) can come back: scores with cycles.
    fn engine(&self, _tier: u8) -> Engine {
        Engine::CyclicScore
    }

    /// The cyclic engine finding parents from the moves: three one-byte arrays, the
    /// two-byte codes and the parents' rows (8 bytes), and per same-tier move 8 bytes in
    /// the rows and 16 in the scan's lists, a move from each of the mover's holes at most.
    /// Measured: 38 bytes on 8 holes with 4 counters, 45 on 10 with 3; 12 holes with 2
    /// counters went past 56 (23 GiB for 417 million positions) and did not fit. About
    /// 0.75 million positions a second a thread (10 holes with 3 counters).
    fn footprint(&self, _tier: u8) -> Footprint {
        Footprint { work: 15.0 + 6.0 * self.h as f64, table: 1.0, mapped: 1.0, rate: 0.75e6 }
    }
}
