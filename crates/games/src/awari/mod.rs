//! Awari: Oware under the computer-science rules of Romein & Bal's solution, on the real
//! board (6 pits a row) and on smaller ones (1 to 5). Rules as implemented:
//! `docs/rules/awari.md` (from `shared/rules/oware.md`).
//!
//! The tables are keyed by the `2m` pits seen from the player to move ([`Board`]) and
//! hold the final difference, mover minus opponent, of the stones still on the board
//! under perfect play ([`retro::cyclic`]); a repeated position splits the remaining
//! stones equally (0). A tier is the number of stones on the board, ranked by
//! [`encoding::WordIndex`] as a word of `2m` letters, each a pit's count weighing
//! `[stones, 0]`: every rank is a board (density 1), and a board's rank does not depend
//! on the index's largest tier, so tables of fewer stones serve every larger build.

pub mod board;

pub use board::{Board, BoardError, MoveList, Sown, CELLS, MAX_PITS, START_STONES};

use encoding::{IndexError, WordIndex};
use retro::{Engine, Footprint, Game, Location, Move, Turn};
use thiserror::Error;

/// Why an Awari board cannot be set up or indexed.
#[derive(Debug, Error, PartialEq, Eq)]
pub enum AwariError {
    /// Pits a row this version does not build.
    #[error("{0} pits a row: Awari boards here have 1 to {MAX_PITS}")]
    Pits(usize),
    /// The boards cannot be indexed.
    #[error(transparent)]
    Index(#[from] IndexError),
}

/// Awari on a board of `m` pits a row, indexed up to `max_stones` stones on the board.
#[derive(Debug, Clone)]
pub struct Awari {
    m: usize,
    max_stones: u32,
    index: WordIndex,
}

impl Awari {
    /// The game on `m` pits a row with tables of up to `max_stones` (at most 48) stones.
    pub fn new(m: usize, max_stones: u32) -> Result<Awari, AwariError> {
        if !(1..=MAX_PITS).contains(&m) {
            return Err(AwariError::Pits(m));
        }
        let max_stones = max_stones.min(START_STONES);
        let index = WordIndex::of_counts(2 * m, max_stones)?;
        Ok(Awari { m, max_stones, index })
    }

    /// Pits per row.
    pub fn pits_per_row(&self) -> usize {
        self.m
    }

    /// Every tier up to `stones`, fewest first.
    pub fn tiers_up_to(&self, stones: u32) -> Vec<u8> {
        (0..=stones.min(self.max_stones) as u8).collect()
    }
}

/// `n` choose `k`, exactly (the counts here stay far below `u64::MAX`).
fn choose(n: u64, k: u64) -> u64 {
    if k > n {
        return 0;
    }
    let k = k.min(n - k);
    (0..k).fold(1, |acc, i| acc * (n - i) / (i + 1))
}

/// Table entries of the tier with `n` stones on a board of `m` pits a row: the ways to
/// put `n` stones in `2m` pits.
pub fn tier_entries(m: usize, n: u32) -> u64 {
    choose(n as u64 + 2 * m as u64 - 1, 2 * m as u64 - 1)
}

/// Positions with `n` stones on the real board (6 pits a row) counted under the
/// published rule (Romein & Bal): boards in which the player who just moved (the
/// non-mover, pits 7..12 here) has at least one empty pit, plus the start for `n = 48`;
/// none for `n = 47` (a capture takes at least 2 stones). Those with every non-mover pit
/// full number as boards of `n − 6` stones.
pub fn published_count(n: u32) -> u64 {
    let entries = |n| tier_entries(MAX_PITS, n);
    match n {
        47 => 0,
        48 => entries(48) - entries(42) + 1,
        _ if n < 6 => entries(n),
        _ => entries(n) - entries(n - 6),
    }
}

impl Game for Awari {
    type Position = Board;
    type Tier = u8;
    type Value = i16;

    fn table_key(&self) -> String {
        // Not the largest tier: a tier's table is the same in every build. The real
        // board's key is `awari pits=6 rules=awari`, as before smaller boards existed.
        format!("awari pits={} rules=awari", self.m)
    }

    fn tier_size(&self, tier: u8) -> u64 {
        self.index.size([tier as u32, 0]).unwrap_or(0)
    }

    fn child_tiers(&self, tier: u8) -> Vec<u8> {
        // A capture takes at least 2 stones.
        (0..tier.saturating_sub(1)).collect()
    }

    #[inline]
    fn locate(&self, board: &Board) -> Location<u8> {
        let (stones, rank) = self.index.locate_counts(board.cells());
        Location::at(stones as u8, rank)
    }

    /// Stones on the board.
    fn material_tier(&self, board: &Board) -> u8 {
        u8::try_from(board.stones()).unwrap_or(u8::MAX)
    }

    fn position(&self, location: Location<u8>) -> Board {
        let mut cells = [0u8; CELLS];
        let cells = &mut cells[..2 * self.m];
        self.index.unrank([location.tier as u32, 0], location.rank, cells).expect("rank inside its tier");
        Board::from_cells(cells)
    }

    fn end(&self, board: &Board) -> Option<i16> {
        board.outcome()
    }

    fn moves(&self, board: &Board, out: &mut Vec<Move<Board>>) {
        out.extend(board.moves().iter().map(|(_, s)| Move {
            position: s.board,
            gain: s.captured as i16,
            turn: Turn::Passes,
        }));
    }

    /// The difference still to be made is of the stones on the board: within ± them.
    fn value_bounds(&self, board: &Board) -> Option<(i16, i16)> {
        let stones = i16::try_from(board.stones()).ok()?;
        Some((-stones, stones))
    }

    fn lists_unmoves(&self) -> bool {
        true
    }

    fn unmoves(&self, board: &Board, out: &mut Vec<Move<Board>>) {
        board.for_each_unmove(|parent| out.push(Move { position: parent, gain: 0, turn: Turn::Passes }));
    }

    /// Moves inside a tier (sowings that capture nothing) form cycles.
    fn engine(&self, _tier: u8) -> Engine {
        Engine::CyclicScore
    }

    /// The cyclic engine's; the finished tables are not counted in memory (they are on
    /// disk): a capture reaches lower tiers sparsely, and their mapped pages are evicted as
    /// needed (tables to 24 stones, 4.6 GB, were built beside a 6 GB working set of the
    /// 24-stone tier).
    fn footprint(&self, tier: u8) -> Footprint {
        Footprint { mapped: 0.0, ..Footprint::of_tier(self, tier) }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn published_counts_match_inclusion_exclusion() {
        // Boards of n stones where some non-mover pit is empty: inclusion–exclusion over
        // which of the six pits are empty (j fixed empty pits leave 12 − j pits).
        for n in 0..=46u64 {
            let mut sum: i128 = 0;
            for j in 1..=6u64 {
                let term = (choose(6, j) * choose(n + 11 - j, 11 - j)) as i128;
                sum += if j % 2 == 1 { term } else { -term };
            }
            assert_eq!(published_count(n as u32) as i128, sum, "n = {n}");
        }
    }

    #[test]
    fn published_counts_match_enumeration_for_few_stones() {
        for n in 0..=7u32 {
            let game = Awari::new(MAX_PITS, n).unwrap();
            let count = (0..game.tier_size(n as u8))
                .filter(|&r| game.position(Location::at(n as u8, r)).cells()[MAX_PITS..].contains(&0))
                .count() as u64;
            assert_eq!(count, published_count(n), "n = {n}");
            assert_eq!(game.tier_size(n as u8), tier_entries(MAX_PITS, n));
        }
    }

    #[test]
    fn a_build_announces_its_tables_on_disk_but_not_in_memory() {
        let game = Awari::new(MAX_PITS, 10).unwrap();
        let tiers: Vec<u8> = (0..=10).collect();
        let positions: f64 = tiers.iter().map(|&t| game.tier_size(t) as f64).sum();
        let need = retro::memory::Need::of(&game, &tiers, None, None);
        // The tables, and the largest tier's checkpoint twice (the last one and the one being
        // written), two bytes a position.
        let checkpoints = 2.0 * 2.0 * game.tier_size(10) as f64;
        assert_eq!(need.disk, positions * game.footprint(10).table + checkpoints);
        assert!(need.disk > 0.0);
        assert_eq!(need.memory, game.tier_size(10) as f64 * game.footprint(10).work);
    }

    #[test]
    fn small_boards_have_their_own_keys_and_sizes() {
        assert_eq!(Awari::new(6, 4).unwrap().table_key(), "awari pits=6 rules=awari");
        assert_eq!(Awari::new(3, 4).unwrap().table_key(), "awari pits=3 rules=awari");
        for m in 1..=5 {
            let game = Awari::new(m, 5).unwrap();
            for n in 0..=5u32 {
                assert_eq!(game.tier_size(n as u8), tier_entries(m, n), "m = {m}, n = {n}");
            }
        }
        assert_eq!(Awari::new(0, 4).unwrap_err(), AwariError::Pits(0));
        assert_eq!(Awari::new(7, 4).unwrap_err(), AwariError::Pits(7));
    }

    #[test]
    fn published_total_is_romein_and_bals() {
        // The figure as data/published/awari.tsv transcribes it, with its source.
        let published = include_str!("../../../../data/published/awari.tsv");
        let row = published
            .lines()
            .find_map(|line| line.strip_prefix("positions\t"))
            .expect("a positions row in data/published/awari.tsv");
        let (value, source) = row.split_once('\t').expect("a value and a source");
        assert!(source.contains("Romein"), "{row}");
        let total: u64 = (0..=48).map(published_count).sum();
        assert_eq!(total, value.parse::<u64>().unwrap());
    }
}
