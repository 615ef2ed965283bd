//! Tiers and dense ranks of THI` positions.
//!
//! Positions are stored from the mover's chair: a position with Black to move is turned
//! half round with its colours swapped (`Position::turned`), which gives White to move
//! and the same value. Counters never come back onto the board, so the material — the
//! mover's counters `m` and the opponent's `o` — never grows. A move that bears nothing
//! off swaps the chairs, `(m, o) → (o, m)`, so a tier holds both:
//!
//! ```text
//!   tier "h-l" (h ≥ l):  ranks [0, size(h,l))            White (mover) h, Black l
//!                        ranks [size(h,l), +size(l,h))   White (mover) l, Black h  (if h ≠ l)
//! ```
//!
//! Inside a block a board is a word of stacks, one letter per square in square order,
//! ranked densely by [`encoding::WordIndex`] with the counters of each colour as the
//! weight. A White counter never stands on row n and a Black one never on row 1, so those
//! rows draw from the 4 one-colour stacks (empty, 1, 2, 3) and the others from all 29
//! legal stacks. Every rank is a legal arrangement: the index density is 1.

use super::board::{Colour, Position, Stack};
use encoding::{IndexError, WordIndex};
use std::fmt;

/// The material of a tier: the larger and the smaller of the two players' counts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct ThiTier {
    /// The larger of the two players' counter counts.
    pub high: u8,
    /// The smaller of the two players' counter counts.
    pub low: u8,
}

impl ThiTier {
    /// The tier of a position whose players have `a` and `b` counters, in either order.
    pub fn new(a: u8, b: u8) -> ThiTier {
        ThiTier { high: a.max(b), low: a.min(b) }
    }
}

impl Ord for ThiTier {
    /// Fewer counters first.
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        (self.high + self.low, self.high).cmp(&(other.high + other.low, other.high))
    }
}

impl PartialOrd for ThiTier {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl fmt::Display for ThiTier {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}-{}", self.high, self.low)
    }
}

/// Which alphabet a row draws from.
#[derive(Clone, Copy)]
enum RowKind {
    /// White's first row: no Black counter.
    WhiteHome,
    Middle,
    /// Black's first row: no White counter.
    BlackHome,
}

/// Ranks of White-to-move boards of one size, up to `max` counters per colour.
#[derive(Debug, Clone)]
pub struct BoardIndex {
    size: usize,
    max: u8,
    words: WordIndex,
    /// Per row kind and stack byte: the letter, then White's and Black's counters, one
    /// byte each (`letter | white << 8 | black << 16`), for a fused look-up when ranking.
    code: [[u32; 256]; 3],
    /// The same for the stack with its colours swapped (ranking a turned board).
    code_turned: [[u32; 256]; 3],
    /// Row kind of each square.
    kinds: Vec<u8>,
    /// Per row kind: stack of each letter.
    stack: [Vec<Stack>; 3],
}

impl BoardIndex {
    /// The index of `size × size` boards with up to `max` counters per colour.
    pub fn new(size: usize, max: u8) -> Result<BoardIndex, IndexError> {
        let all = Stack::all();
        let kinds = [RowKind::WhiteHome, RowKind::Middle, RowKind::BlackHome];
        let stack: [Vec<Stack>; 3] = kinds.map(|kind| {
            all.iter()
                .copied()
                .filter(|s| match kind {
                    RowKind::WhiteHome => s.count(Colour::Black) == 0,
                    RowKind::Middle => true,
                    RowKind::BlackHome => s.count(Colour::White) == 0,
                })
                .collect()
        });
        let mut code = [[u32::MAX; 256]; 3];
        let mut code_turned = [[u32::MAX; 256]; 3];
        for k in 0..3 {
            for (i, s) in stack[k].iter().enumerate() {
                let packed = i as u32 | (s.count(Colour::White) as u32) << 8 | (s.count(Colour::Black) as u32) << 16;
                code[k][s.byte() as usize] = packed;
                code_turned[k][s.swapped().byte() as usize] = packed;
            }
        }
        let alphabets = (0..size * size)
            .map(|sq| {
                let k = Self::kind(size, sq / size) as usize;
                stack[k].iter().map(|s| [s.count(Colour::White) as u32, s.count(Colour::Black) as u32]).collect()
            })
            .collect();
        let words = WordIndex::new(alphabets, [max as u32, max as u32])?;
        let kinds = (0..size * size).map(|sq| Self::kind(size, sq / size) as u8).collect();
        Ok(BoardIndex { size, max, words, code, code_turned, kinds, stack })
    }

    fn kind(size: usize, row: usize) -> RowKind {
        if row == 0 {
            RowKind::WhiteHome
        } else if row == size - 1 {
            RowKind::BlackHome
        } else {
            RowKind::Middle
        }
    }

    /// Most counters per colour the index ranks.
    pub fn max(&self) -> u8 {
        self.max
    }

    /// Boards with White (to move) `white` counters and Black `black`.
    pub fn block_size(&self, white: u8, black: u8) -> u64 {
        self.words.size([white as u32, black as u32]).unwrap_or(0)
    }

    /// Positions in a tier: both blocks, the mover holding the larger count or the smaller.
    pub fn tier_size(&self, tier: ThiTier) -> u64 {
        let first = self.block_size(tier.high, tier.low);
        if tier.high == tier.low {
            first
        } else {
            first + self.block_size(tier.low, tier.high)
        }
    }

    /// Tier, rank and orientation of `board` with `to_move` to move (the board's own side
    /// to move is ignored); its material must be within the index. A board with Black to
    /// move is ranked as `Position::turned` would show it, without building that.
    pub fn locate(&self, board: &Position, to_move: Colour) -> (ThiTier, u64, u8) {
        let n2 = self.size * self.size;
        let squares = board.squares();
        // One pass from the last square back: the rank's terms need the weight of the
        // squares from each one on, which accumulates in that direction.
        let (mut white, mut black, mut rank) = (0u32, 0u32, 0u64);
        let mut add = |sq: usize, code: u32| {
            white += (code >> 8) & 0xff;
            black += code >> 16;
            rank += self.words.term(sq, [white, black], code as u8);
        };
        let orientation = match to_move {
            Colour::White => {
                for sq in (0..n2).rev() {
                    add(sq, self.code[self.kinds[sq] as usize][squares[sq].byte() as usize]);
                }
                0
            }
            Colour::Black => {
                for sq in (0..n2).rev() {
                    add(sq, self.code_turned[self.kinds[sq] as usize][squares[n2 - 1 - sq].byte() as usize]);
                }
                1
            }
        };
        let tier = ThiTier::new(white as u8, black as u8);
        let offset = if (white as u8) < tier.high { self.block_size(tier.high, tier.low) } else { 0 };
        (tier, offset + rank, orientation)
    }

    /// The White-to-move board at `rank` of `tier`.
    pub fn board(&self, tier: ThiTier, rank: u64) -> Position {
        let n = self.size;
        let first = self.block_size(tier.high, tier.low);
        let (white, black, rank) =
            if rank < first { (tier.high, tier.low, rank) } else { (tier.low, tier.high, rank - first) };
        let mut word = [0u8; super::board::MAX_SQUARES];
        self.words.unrank([white as u32, black as u32], rank, &mut word[..n * n]).expect("rank inside its tier");
        self.board_of(&word[..n * n])
    }

    /// The White-to-move board at `rank` of `tier`, given the one at `rank − 1`: most
    /// steps change only the last squares, so this is cheaper than [`BoardIndex::board`].
    pub fn next_board(&self, tier: ThiTier, rank: u64, previous: &Position) -> Position {
        let n2 = self.size * self.size;
        let mut word = [0u8; super::board::MAX_SQUARES];
        for (sq, letter) in word[..n2].iter_mut().enumerate() {
            *letter = self.code[self.kinds[sq] as usize][previous.stack(sq).byte() as usize] as u8;
        }
        // The last board of the first block is followed by the first of the second.
        if !self.words.next_word(&mut word[..n2]) {
            return self.board(tier, rank);
        }
        self.board_of(&word[..n2])
    }

    fn board_of(&self, word: &[u8]) -> Position {
        let mut board = Position::empty(self.size, Colour::White);
        for (sq, &letter) in word.iter().enumerate() {
            board.set(sq, self.stack[self.kinds[sq] as usize][letter as usize]);
        }
        board
    }
}

/// Approximate number of White-to-move boards of side `size` with at most `max`
/// counters per colour, for boards too large to index (where [`BoardIndex::new`] fails).
pub fn estimated_positions(size: usize, max: u8) -> f64 {
    let m = max as usize + 1;
    // ways[x][y]: fillings of the squares so far holding x White and y Black counters.
    let mut ways = vec![0f64; m * m];
    ways[0] = 1.0;
    for sq in 0..size * size {
        let row = sq / size;
        let mut next = vec![0f64; m * m];
        for s in Stack::all() {
            let (w, b) = (s.count(Colour::White) as usize, s.count(Colour::Black) as usize);
            if (row == 0 && b > 0) || (row == size - 1 && w > 0) {
                continue;
            }
            for x in 0..m.saturating_sub(w) {
                for y in 0..m.saturating_sub(b) {
                    next[(x + w) * m + y + b] += ways[x * m + y];
                }
            }
        }
        ways = next;
    }
    ways.iter().sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_rank_of_small_tiers_round_trips() {
        let index = BoardIndex::new(3, 3).unwrap();
        for high in 0..=3u8 {
            for low in 0..=high {
                let tier = ThiTier::new(high, low);
                for rank in 0..index.tier_size(tier) {
                    let board = index.board(tier, rank);
                    assert!(board.misplaced_counter().is_none());
                    assert_eq!(index.locate(&board, Colour::White), (tier, rank, 0), "{board}");
                }
            }
        }
    }

    #[test]
    fn the_next_board_is_the_next_rank() {
        for (size, max) in [(3, 4), (4, 2)] {
            let index = BoardIndex::new(size, max).unwrap();
            for high in 0..=max {
                for low in 0..=high {
                    let tier = ThiTier::new(high, low);
                    let mut board = index.board(tier, 0);
                    for rank in 1..index.tier_size(tier) {
                        board = index.next_board(tier, rank, &board);
                        assert_eq!(board, index.board(tier, rank), "{size}×{size}, tier {tier}, rank {rank}");
                    }
                }
            }
        }
    }

    #[test]
    fn sizes_of_the_3x3_setups() {
        // All boards with at most k counters of each colour (White to move).
        let total = |k: u8| {
            let index = BoardIndex::new(3, k).unwrap();
            (0..=k).flat_map(|a| (0..=k).map(move |b| (a, b))).map(|(a, b)| index.block_size(a, b)).sum::<u64>()
        };
        assert_eq!(total(3), 11_020);
        assert_eq!(total(6), 1_822_244);
        assert_eq!(total(9), 28_433_692);
        assert_eq!(estimated_positions(3, 9), 28_433_692.0);
    }
}
