//! Trias (Ralf Gering, 2008): three rows of `k` holes, the middle one neutral, multi-lap
//! sowing that removes at least one stone a move; the player who cannot move loses.
//! Rules as implemented: `docs/rules/trias.md` (from `shared/rules/trias.md`).
//!
//! The tables hold win or loss with the plies to the end for the player to move. A tier
//! is the number of stones on the board; every move takes at least one off, so no move
//! stays in its tier and each tier is solved in one pass by the acyclic engine
//! ([`retro::acyclic`]). A tier's positions are the boards seen from the player to move
//! ([`board`]), ranked by [`encoding::WordIndex`] as a word of `3k` letters, each a
//! hole's count weighing `[stones, 0]`: every rank is a board, and a board's rank does
//! not depend on the index's largest tier, so one board size's tables serve every
//! number of stones a hole. The two players' positions with the same board seen from the
//! mover share a rank (the half-turn maps one player's circuit onto the other's); the
//! orientation says who moves.

pub mod board;
pub mod notation;

pub use board::{Illegal, Lap, LapEnd, Position, Side, LAP_LIMIT, MAX_CELLS, MAX_HOLES, MAX_STONES};
pub use notation::NotationError;

use encoding::{IndexError, WordIndex};
use retro::{Engine, Footprint, Game, Location, Move, Turn, Value};
use thiserror::Error;

/// Why a Trias board cannot be set up or indexed.
#[derive(Debug, Error, PartialEq, Eq)]
pub enum TriasError {
    /// Holes a row this version does not build.
    #[error("{0} holes a row: Trias boards here have 1 to {MAX_HOLES}")]
    Holes(usize),
    /// More stones than a board here holds.
    #[error("{stones} stones on the board: boards here hold at most {MAX_STONES}")]
    TooManyStones {
        /// Stones on the board.
        stones: u64,
    },
    /// The boards cannot be indexed.
    #[error(transparent)]
    Index(#[from] IndexError),
}

/// Trias on a board of `k` holes a row, indexed up to `max_stones` stones on the board.
#[derive(Debug, Clone)]
pub struct Trias {
    k: usize,
    max_stones: u32,
    index: WordIndex,
}

impl Trias {
    /// The game on `k` holes a row with tables of up to `max_stones` stones on the board.
    pub fn new(k: usize, max_stones: u32) -> Result<Trias, TriasError> {
        if !(1..=MAX_HOLES).contains(&k) {
            return Err(TriasError::Holes(k));
        }
        if max_stones > MAX_STONES {
            return Err(TriasError::TooManyStones { stones: max_stones as u64 });
        }
        let index = WordIndex::of_counts(3 * k, max_stones)?;
        Ok(Trias { k, max_stones, index })
    }

    /// Holes a row.
    pub fn holes(&self) -> usize {
        self.k
    }

    /// The start with `stones` in every hole, South to move.
    pub fn start(&self, stones: u32) -> Result<Position, TriasError> {
        Position::start(self.k, stones).ok_or(TriasError::TooManyStones { stones: 3 * self.k as u64 * stones as u64 })
    }

    /// Every tier up to `stones`, fewest first.
    pub fn tiers_up_to(&self, stones: u32) -> Vec<u8> {
        (0..=stones.min(self.max_stones) as u8).collect()
    }

    /// The legal moves with their names: the file of the hole, from the mover's left.
    pub fn named_moves(&self, position: &Position) -> Vec<(String, Move<Position>)> {
        position
            .moves()
            .map(|(file, after)| (file.to_string(), Move { position: after, gain: 0, turn: Turn::Passes }))
            .collect()
    }
}

/// Stones a hole of the smallest start of a board of `k` holes a row whose tables hold a
/// position of `stones` stones (a start has at least one a hole).
pub fn stones_a_hole_holding(k: usize, stones: u32) -> u32 {
    stones.div_ceil(3 * k as u32).max(1)
}

/// Positions of a board of `k` holes a row with exactly `n` stones (for one player to
/// move): the ways to put `n` stones in `3k` holes.
pub fn tier_positions(k: usize, n: u32) -> u64 {
    let (n, cells) = (n as u128, 3 * k as u128);
    // C(n + cells − 1, cells − 1), exactly: each partial product is a binomial.
    let count = (0..n).try_fold(1u128, |acc, i| Some(acc.checked_mul(cells + i)? / (i + 1)));
    count.and_then(|c| u64::try_from(c).ok()).unwrap_or(u64::MAX)
}

/// How many times slower than a board of few stones a hole the fullest boards solve, at
/// most ([`Game::footprint`]'s rate).
const SLOWEST_LAPS: f64 = 12.0;

impl Game for Trias {
    type Position = Position;
    type Tier = u8;
    type Value = Value;

    fn table_key(&self) -> String {
        // Not the largest tier: a tier's table is the same for every number of stones a
        // hole at the start.
        format!("trias holes={}", self.k)
    }

    fn tier_size(&self, tier: u8) -> u64 {
        self.index.size([tier as u32, 0]).unwrap_or(0)
    }

    fn child_tiers(&self, tier: u8) -> Vec<u8> {
        (0..tier).collect()
    }

    fn orientations(&self) -> u8 {
        2
    }

    #[inline]
    fn locate(&self, position: &Position) -> Location<u8> {
        let (stones, rank) = self.index.locate_counts(position.cells());
        Location { tier: stones as u8, rank, orientation: (position.to_move() == Side::North) as u8 }
    }

    /// Stones on the board.
    fn material_tier(&self, position: &Position) -> u8 {
        u8::try_from(position.stones()).unwrap_or(u8::MAX)
    }

    fn position(&self, location: Location<u8>) -> Position {
        let mut cells = [0u8; MAX_CELLS];
        let cells = &mut cells[..3 * self.k];
        self.index.unrank([location.tier as u32, 0], location.rank, cells).expect("rank inside its tier");
        let side = if location.orientation == 0 { Side::South } else { Side::North };
        Position::from_cells(cells, side)
    }

    #[inline]
    fn next_position(&self, tier: u8, rank: u64, previous: &Position) -> Position {
        previous.next_board().unwrap_or_else(|| self.position(Location::at(tier, rank)))
    }

    fn end(&self, position: &Position) -> Option<Value> {
        position.end()
    }

    fn moves(&self, position: &Position, out: &mut Vec<Move<Position>>) {
        out.extend(position.moves().map(|(_, after)| Move { position: after, gain: 0, turn: Turn::Passes }));
    }

    fn end_decided(&self, position: &Position) -> Option<Value> {
        position.end_decided()
    }

    fn moves_decided(&self, position: &Position, out: &mut Vec<Move<Position>>) -> bool {
        let (moves, decided) = position.moves_decided();
        out.extend(moves.into_iter().map(|(_, after)| Move { position: after, gain: 0, turn: Turn::Passes }));
        decided
    }

    /// Every move takes a stone off the board: no move stays in its tier.
    fn engine(&self, _tier: u8) -> Engine {
        Engine::Acyclic
    }

    /// Every move takes a stone off the board, so the game ends within as many plies as
    /// the tier has stones.
    fn largest_code(&self, tier: u8) -> Option<u16> {
        let plies = u16::from(tier);
        Some(Value::Win(plies).code().max(Value::Loss(plies).code()))
    }

    /// The acyclic engine's memory, at a rate that falls as the holes fill: a sowing
    /// laps again whenever it ends in an occupied hole, and fuller holes make longer
    /// chains. Measured a tier at a time on 3×3 with 5 stones a hole (docs/performance.md,
    /// Trias): about 2.5 million positions a second a thread up to 2.3 stones a hole,
    /// then half as fast for each half stone more (3.9 a hole: a tenth). Against the
    /// builds of docs/results.md this gives 36 s for 3×3 with 3 stones (33.5 s measured),
    /// about 4 min for 3×4 with 2 (5.2), 30 min for 3×6 with 1 (33). The fall stops
    /// near a twelfth: 3×3's fullest tiers (4.4 to 5 stones a hole) ran at 0.2 to 0.5
    /// million a second, 3×2 with 10 stones a hole at about 0.3, and boards of one or two
    /// holes a row with dozens of stones a hole faster still (the halving, left to run,
    /// announced hours for builds of seconds).
    fn footprint(&self, tier: u8) -> Footprint {
        let per_hole = f64::from(tier) / (3 * self.holes()) as f64;
        let slowdown = 2f64.powf(((per_hole - 2.3) / 0.5).max(0.0)).min(SLOWEST_LAPS);
        Footprint { rate: 2.5e6 / slowdown, ..Footprint::of_tier(self, tier) }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tier_sizes_are_compositions() {
        let game = Trias::new(4, 24).unwrap();
        for n in 0..=24u8 {
            assert_eq!(game.tier_size(n), tier_positions(4, n as u32), "n = {n}");
        }
        // The figure: the 3×4 board with 2 stones a hole has about 1.25·10⁹ boards.
        let total: u64 = (0..=24).map(|n| tier_positions(4, n)).sum();
        assert_eq!(total, 1_251_677_700);
    }

    /// The time a build announces stays near what it takes: the rate's fall with full
    /// holes stops, or one hole a row with 85 stones (2.8 million boards, about 2 s) was
    /// announced as 10^44 hours.
    #[test]
    fn full_holes_slow_the_announced_rate_boundedly() {
        let seconds = |k: usize, stones: u32| {
            let game = Trias::new(k, stones).unwrap();
            (0..=stones as u8).map(|t| game.tier_size(t) as f64 / game.footprint(t).rate).sum::<f64>()
        };
        assert!(seconds(1, 255) < 60.0, "{}", seconds(1, 255));
        assert!(seconds(2, 60) < 3600.0, "{}", seconds(2, 60));
        // Where it was fitted, unchanged: 3×3 with 3 stones a hole, about a minute of one thread.
        assert!((40.0..120.0).contains(&seconds(3, 27)), "{}", seconds(3, 27));
    }

    #[test]
    fn bad_boards_are_refused() {
        assert_eq!(Trias::new(0, 3).unwrap_err(), TriasError::Holes(0));
        assert_eq!(Trias::new(13, 3).unwrap_err(), TriasError::Holes(13));
        assert!(matches!(Trias::new(12, 144), Err(TriasError::Index(IndexError::TooLarge(_)))));
    }
}
