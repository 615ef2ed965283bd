//! Kalah, the sowing game, in the family of presets of `shared/rules/kalah.md`. Rules as
//! implemented: `docs/rules/kalah.md`.
//!
//! The tables are keyed by the pits alone, seen from the player to move ([`Board`]), and
//! hold the store difference still to be gained by him ([`retro::acyclic`]). A tier is the
//! number of seeds in the pits; within a tier the pits are ranked by
//! [`encoding::WordIndex`] as a word of `2m` letters, each letter a pit's seed count
//! weighing `[seeds, 0]`. Every rank is a board (density 1), and the rank of a board does
//! not depend on how many seeds the index was built for, so tables for fewer seeds are
//! shared by every larger instance with the same `m` and rules.

pub mod board;
pub mod notation;
pub mod rules;

pub use board::{turn_name, Board, MoveList, Position, PositionError, Side, Sown, MAX_PITS, MAX_SEEDS};
pub use rules::{Capture, End, Leftovers, Rules, RulesError};

use encoding::{IndexError, WordIndex};
use retro::{Footprint, Game, Location, Move};
use std::collections::{BTreeMap, HashSet};

/// Kalah with `m` pits a row under one set of rules, indexed up to `max_seeds` seeds in
/// the pits.
#[derive(Debug, Clone)]
pub struct Kalah {
    m: usize,
    rules: Rules,
    max_seeds: u32,
    index: WordIndex,
}

impl Kalah {
    /// The game on `m` pits a row (1 to 8) under `rules`, with tables of up to `max_seeds` seeds in the pits.
    pub fn new(m: usize, max_seeds: u32, rules: Rules) -> Result<Kalah, IndexError> {
        assert!((1..=MAX_PITS).contains(&m) && max_seeds <= MAX_SEEDS, "checked by Position");
        let index = WordIndex::of_counts(2 * m, max_seeds)?;
        Ok(Kalah { m, rules, max_seeds, index })
    }

    /// Pits a row.
    pub fn pits(&self) -> usize {
        self.m
    }

    /// The rule switches the tables are built under.
    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    /// Every tier up to `seeds` seeds in the pits, fewest first.
    pub fn tiers_up_to(&self, seeds: u32) -> Vec<u16> {
        (0..=seeds.min(self.max_seeds) as u16).collect()
    }

    /// Positions (pits, stores and side to move) reachable from `start`, itself and
    /// finished games included: the game-graph size of Irving, Donkers & Uiterwijk.
    ///
    /// Seeds never return to the pits, so the positions are visited tier by tier, most
    /// seeds first, and only one tier's set (plus the lower tiers' discovered positions)
    /// is held at a time. A position is keyed by the rank of its pits seen from South,
    /// South's store and the side to move; the index must cover the start's seeds.
    pub fn reachable(&self, start: &Position) -> u64 {
        let stores = start.stores()[0] as u64 + start.stores()[1] as u64 + start.seeds_in_pits() as u64 + 1;
        let key = |p: &Position| {
            let south = Board::new(p.south(), p.north());
            let rank = self.locate(&south).rank;
            (rank * stores + p.stores()[0] as u64) * 2 + (p.to_move() == Side::North) as u64
        };
        let mut pending: BTreeMap<u32, (HashSet<u64>, Vec<Position>)> = BTreeMap::new();
        let first = pending.entry(start.seeds_in_pits()).or_default();
        first.0.insert(key(start));
        first.1.push(*start);
        let mut count = 0;
        while let Some((tier, (mut seen, mut work))) = pending.pop_last() {
            while let Some(p) = work.pop() {
                for (_, sown) in p.board().moves(&self.rules) {
                    let child = p.after(sown);
                    let seeds = child.seeds_in_pits();
                    if seeds == tier {
                        if seen.insert(key(&child)) {
                            work.push(child);
                        }
                    } else {
                        let (set, list) = pending.entry(seeds).or_default();
                        if set.insert(key(&child)) {
                            list.push(child);
                        }
                    }
                }
            }
            count += seen.len() as u64;
        }
        count
    }

    /// Positions in the tables of every tier up to `seeds`.
    pub fn positions_up_to(&self, seeds: u32) -> u64 {
        self.tiers_up_to(seeds).into_iter().map(|t| self.tier_size(t)).sum()
    }
}

impl Game for Kalah {
    type Position = Board;
    type Tier = u16;
    type Value = i16;

    fn table_key(&self) -> String {
        // Not the seeds per pit: a tier's table is the same for every Kalah(m, n).
        format!("kalah pits={} {}", self.m, self.rules.switches())
    }

    fn tier_size(&self, tier: u16) -> u64 {
        self.index.size([tier as u32, 0]).unwrap_or(0)
    }

    fn child_tiers(&self, tier: u16) -> Vec<u16> {
        (0..tier).collect()
    }

    #[inline]
    fn locate(&self, board: &Board) -> Location<u16> {
        let (seeds, rank) = self.index.locate_counts(board.cells());
        Location::at(seeds as u16, rank)
    }

    /// Seeds in the pits.
    fn material_tier(&self, board: &Board) -> u16 {
        u16::try_from(board.seeds()).unwrap_or(u16::MAX)
    }

    /// A move banks its gain from the pits into the mover's store: where the game goes on,
    /// the pits hold that many seeds fewer (the board's leftovers are swept only where it
    /// ends).
    #[inline]
    fn material_tier_after(&self, seeds: u16, step: &Move<Board>) -> u16 {
        seeds.wrapping_sub(step.gain as u16)
    }

    fn position(&self, location: Location<u16>) -> Board {
        let mut cells = [0u8; 2 * MAX_PITS];
        let cells = &mut cells[..2 * self.m];
        self.index.unrank([location.tier as u32, 0], location.rank, cells).expect("rank inside its tier");
        Board::from_cells(cells)
    }

    /// The next word of the same weight in the index's order (lexicographic, pit counts
    /// ascending): the last cell that can grow takes one seed from the cells after it,
    /// which are reset to their least arrangement (everything in the last cell).
    #[inline]
    fn next_position(&self, tier: u16, rank: u64, previous: &Board) -> Board {
        let n = 2 * self.m;
        let (m, mut cells) = previous.raw();
        // The last non-empty cell before the end, or the last cell itself.
        let last = cells[n - 1];
        if last > 0 {
            // Most steps: one seed from the last cell to the one before, as one addition to
            // the cells' word (single bytes stored and the board then loaded whole stall
            // the load until the stores retire).
            let shift = 8 * (n as u32 - 2);
            let word = u128::from_le_bytes(cells).wrapping_add(1 << shift).wrapping_sub(1 << (shift + 8));
            return Board::from_raw(m, word.to_le_bytes());
        }
        match (0..n - 1).rev().find(|&k| cells[k] > 0) {
            Some(k) if k > 0 => {
                let mass = cells[k];
                cells[k - 1] += 1;
                cells[k] = 0;
                cells[n - 1] = mass - 1;
                Board::from_raw(m, cells)
            }
            // The last word of the tier has no successor: unrank (and fail) as usual.
            _ => self.position(Location::at(tier, rank)),
        }
    }

    fn end(&self, board: &Board) -> Option<i16> {
        board.outcome(&self.rules)
    }

    fn moves(&self, board: &Board, out: &mut Vec<Move<Board>>) {
        board.for_each_move(&self.rules, |_, s| out.push(Move { position: s.board, gain: s.gain, turn: s.turn }));
    }

    fn moves_into(&self, board: &Board, out: &mut [Move<Board>]) -> usize {
        let mut n = 0;
        board.for_each_move(&self.rules, |_, s| {
            if let Some(slot) = out.get_mut(n) {
                *slot = Move { position: s.board, gain: s.gain, turn: s.turn };
            }
            n += 1;
        });
        n
    }

    /// The tier is the seeds in the pits: the value lies within ± them.
    fn tier_value_bounds(&self, tier: u16) -> Option<(i16, i16)> {
        let seeds = i16::try_from(tier).ok()?;
        Some((-seeds, seeds))
    }

    /// Up to six pits a row, the board's cells themselves, 8 bits each (12 cells, 96
    /// bits); seven or eight, `packed_wide`: the cells in 6 bits each, where every pit
    /// holds fewer than 64 seeds (on such a board of at least 64 seeds, `None`).
    #[inline]
    fn packed(&self, board: &Board) -> Option<u128> {
        if self.m <= 6 {
            Some(board.word())
        } else {
            packed_wide(board.word())
        }
    }

    /// Every seed in the pits ends in one of the two stores: the difference still to be
    /// gained lies within ± the seeds in the pits.
    fn value_bounds(&self, board: &Board) -> Option<(i16, i16)> {
        let seeds = i16::try_from(board.seeds()).ok()?;
        Some((-seeds, seeds))
    }

    /// The acyclic engine's memory; its rate measured on Kalah: the 6-pit tables to 20
    /// seeds, 225.8 million boards in 33 to 35 s on one thread, the 5-pit ones 30.0 million
    /// in 3.2 to 3.6 s (docs/performance.md, "Build speed against Irving's generator").
    fn footprint(&self, tier: u16) -> Footprint {
        Footprint { rate: 6.0e6, ..Footprint::of_tier(self, tier) }
    }

    /// Every seed of the pits ends in one of the two stores, so the difference still to
    /// be gained lies within ± the seeds in the pits, the tier.
    fn largest_code(&self, tier: u16) -> Option<u16> {
        let seeds = i16::try_from(tier).ok()?;
        Some(retro::TableValue::code(seeds).max(retro::TableValue::code(-seeds)))
    }
}

/// The cells of a board of seven or eight pits a row, 8 bits each in `word` from the
/// mover's pit 1, packed in 6 bits each (96 bits for 16 cells); `None` if a cell holds 64
/// seeds or more.
///
/// ```text
///   word:    cell 15 (8) | … | cell 1 (8) | cell 0 (8)        two 64-bit halves
///   packed:  cell 15 (6) | … | cell 1 (6) | cell 0 (6)        96 bits
/// ```
#[inline]
fn packed_wide(word: u128) -> Option<u128> {
    const HIGH_BITS: u64 = 0xc0c0_c0c0_c0c0_c0c0;
    let (lo, hi) = (word as u64, (word >> 64) as u64);
    if (lo | hi) & HIGH_BITS != 0 {
        return None;
    }
    // Eight cells below 64 each into 48 bits: pairs, then fours, then the eight.
    let pack = |x: u64| {
        let x = (x & 0x00ff_00ff_00ff_00ff) | (x & 0xff00_ff00_ff00_ff00) >> 2;
        let x = (x & 0x0000_ffff_0000_ffff) | (x & 0xffff_0000_ffff_0000) >> 4;
        (x & 0x0000_0000_ffff_ffff) | (x & 0xffff_ffff_0000_0000) >> 8
    };
    Some(pack(lo) as u128 | (pack(hi) as u128) << 48)
}
