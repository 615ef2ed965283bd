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
//! Inside a block a board is a word of stacks, one letter per square, ranked densely by
//! [`encoding::FoldedIndex`] with the counters of each colour as the weight. A White
//! counter never stands on row n and a Black one never on row 1, so those rows draw from
//! the 4 one-colour stacks (empty, 1, 2, 3) and the others from all 29 legal stacks.
//!
//! The rules do not tell left from right, so a board and its mirror image share a rank:
//! the squares are laid out row by row, each row as the pairs of squares the mirror
//! swaps, from the edges in, then its middle square if the side is odd. Of a board and
//! its image the index keeps the one whose first unequal pair has the smaller letter on
//! the left. On 3×3:
//!
//! ```text
//!   square:  a1 c1 b1  a2 c2 b2  a3 c3 b3        cells 0 1 | 2 | 3 4 | 5 | 6 7 | 8
//!   unit:    pair  .   pair  .   pair  .
//! ```
//!
//! Every rank is a legal arrangement (the index density is 1), and a tier holds about half
//! the boards it would hold unfolded: `(N + S) / 2` of `N`, `S` of them their own image.

use super::board::{Colour, Position, Stack, MAX_SQUARES};
use encoding::{Fold, FoldedIndex, IndexError, Unit, WordTerms};
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
    words: FoldedIndex,
    /// The square of each cell of the ranked word (rows in turn, each row's mirror pairs
    /// from the edges in, then its middle square).
    squares: Vec<u8>,
    /// The square of the board turned half round that each cell reads (ranking a turned
    /// board without building it).
    squares_turned: Vec<u8>,
    /// Per way of reading (as the board stands, or turned half round with its colours
    /// swapped), cell and stack byte: the letter, then the weight index of White's and
    /// Black's counters as read (`letter | (white · (max + 1) + black) << 16`). Weight
    /// indices add up, so a board's cells' codes summed give its weight index in the
    /// high half: one look-up and one addition a square when ranking.
    code: [Vec<[u32; 256]>; 2],
    /// Per weight index: the tier of boards of that weight, and where their block
    /// starts in it.
    blocks: Vec<(ThiTier, u64)>,
    /// The cell each square is read into: as the board stands (White to move), and turned.
    cells: [Vec<u8>; 2],
    /// Per cell and letter: the stack it stands for.
    stacks: Vec<[Stack; 32]>,
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
        let mut squares = Vec::with_capacity(size * size);
        let mut units = Vec::new();
        for row in 0..size {
            for column in 0..size / 2 {
                squares.extend([row * size + column, row * size + size - 1 - column].map(|sq| sq as u8));
                units.push(Unit::Pair);
            }
            if size % 2 == 1 {
                squares.push((row * size + size / 2) as u8);
                units.push(Unit::Single);
            }
        }
        let kinds: Vec<u8> = squares.iter().map(|&sq| Self::kind(size, sq as usize / size) as u8).collect();
        let alphabets = kinds
            .iter()
            .map(|&k| {
                stack[k as usize]
                    .iter()
                    .map(|s| [s.count(Colour::White) as u32, s.count(Colour::Black) as u32])
                    .collect()
            })
            .collect();
        let words = FoldedIndex::new(alphabets, &units, [max as u32, max as u32])?;
        let squares_turned: Vec<u8> = squares.iter().map(|&sq| (size * size - 1) as u8 - sq).collect();
        // Letters below 2^5 over at most 81 cells sum below 2^16; a weight index is below
        // 2^16 with at most 254 counters a colour (as a table could hold).
        let weights = max as u32 + 1;
        let code = [false, true].map(|turned| {
            let mut code = vec![[u32::MAX; 256]; kinds.len()];
            for (cell, &kind) in kinds.iter().enumerate() {
                for (letter, s) in stack[kind as usize].iter().enumerate() {
                    let weight = words.weight_index([s.count(Colour::White) as u32, s.count(Colour::Black) as u32]);
                    let byte = if turned { s.swapped().byte() } else { s.byte() };
                    code[cell][byte as usize] = letter as u32 | (weight as u32) << 16;
                }
            }
            code
        });
        // Weight indices run over every (white, black), White's counters the major one.
        let blocks = (0..weights * weights)
            .map(|w| {
                let (white, black) = ((w / weights) as u8, (w % weights) as u8);
                let tier = ThiTier::new(white, black);
                let first = words.size([tier.high as u32, tier.low as u32]).unwrap_or(0);
                (tier, if white < tier.high { first } else { 0 })
            })
            .collect();
        let cells = [&squares, &squares_turned].map(|read| {
            let mut cells = vec![0u8; size * size];
            for (cell, &sq) in read.iter().enumerate() {
                cells[sq as usize] = cell as u8;
            }
            cells
        });
        let mut stacks = vec![[Stack::EMPTY; 32]; kinds.len()];
        for (cell, &kind) in kinds.iter().enumerate() {
            stacks[cell][..stack[kind as usize].len()].copy_from_slice(&stack[kind as usize]);
        }
        Ok(BoardIndex { size, max, words, squares, squares_turned, code, blocks, cells, stacks })
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
    /// move is ranked as `Position::turned` would show it, without building that; a board
    /// and its mirror image get the same rank.
    pub fn locate(&self, board: &Position, to_move: Colour) -> (ThiTier, u64, u8) {
        let (tier, rank, orientation, _) = self.locate_folded(board, to_move);
        (tier, rank, orientation)
    }

    /// [`BoardIndex::locate`], with how the board stands to its mirror image.
    #[inline]
    pub fn locate_folded(&self, board: &Position, to_move: Colour) -> (ThiTier, u64, u8, Fold) {
        debug_assert!(board.counts().iter().all(|&c| c <= self.max as u32), "{board}: material past the index");
        let mut word = [0u8; MAX_SQUARES];
        let word = &mut word[..self.squares.len()];
        let weight = self.read(board, to_move, word);
        let (rank, fold) = self.words.locate_folded(word, weight);
        let (tier, rank) = self.in_tier(weight, rank);
        (tier, rank, (to_move == Colour::Black) as u8, fold)
    }

    /// Reads `board` with `to_move` to move into `word` (turned half round, colours
    /// swapped, for Black), and gives the weight index of its counters as read.
    #[inline]
    fn read(&self, board: &Position, to_move: Colour, word: &mut [u8]) -> usize {
        let squares = board.squares();
        let read = match to_move {
            Colour::White => &self.squares,
            Colour::Black => &self.squares_turned,
        };
        let mut sum = 0u32;
        for ((letter, &sq), code) in word.iter_mut().zip(read).zip(&self.code[to_move.index()]) {
            let packed = code[squares[sq as usize].byte() as usize];
            *letter = packed as u8;
            sum += packed;
        }
        (sum >> 16) as usize
    }

    /// The tier of a board with the weight index `weight` as read, and its rank there
    /// given its rank among the boards of that weight (the tier's second block follows
    /// its first).
    #[inline]
    fn in_tier(&self, weight: usize, rank: u64) -> (ThiTier, u64) {
        let (tier, offset) = self.blocks[weight];
        (tier, offset + rank)
    }

    /// Prepares `near` for ranking boards that differ from `board`, with `to_move` to
    /// move, in a few squares and have its counters ([`BoardIndex::locate_near`]): a
    /// position's parents, read the parents' way round. False, `near` unchanged, if the
    /// index's words are too long to prepare.
    pub fn prepare_near(&self, board: &Position, to_move: Colour, near: &mut NearBoards) -> bool {
        if !self.words.prepares() {
            return false;
        }
        let word = &mut near.letters[..self.squares.len()];
        near.weight = self.read(board, to_move, word);
        near.turned = to_move == Colour::Black;
        near.symmetric = self.words.fold(word) == Fold::Symmetric;
        self.words.prepare(word, &mut near.terms);
        true
    }

    /// Tier and rank of `board`, which differs from the board `near` was prepared from
    /// only on the squares `changed`, has its counters and its side to move, and how it
    /// stands to its mirror image, as [`BoardIndex::locate_folded`] gives them.
    #[inline]
    pub fn locate_near(&self, near: &mut NearBoards, board: &Position, changed: &[usize]) -> (ThiTier, u64, Fold) {
        let cells = &self.cells[near.turned as usize];
        let code = &self.code[near.turned as usize];
        let mut span: Option<(usize, usize)> = None;
        for &square in changed {
            let cell = cells[square] as usize;
            near.patched[near.patches] = (cell as u8, near.letters[cell]);
            near.patches += 1;
            near.letters[cell] = code[cell][board.stack(square).byte() as usize] as u8;
            span = Some(span.map_or((cell, cell), |(lo, hi)| (lo.min(cell), hi.max(cell))));
        }
        let word = &near.letters[..self.squares.len()];
        let (rank, fold) = self.words.locate_near(&mut near.terms, word, near.weight, span);
        // Put the prepared board's letters back, the last patched first.
        while near.patches > 0 {
            near.patches -= 1;
            let (cell, letter) = near.patched[near.patches];
            near.letters[cell as usize] = letter;
        }
        let (tier, rank) = self.in_tier(near.weight, rank);
        (tier, rank, fold)
    }

    /// How many boards the rank of `board` stands for: 1 if it is its own mirror image,
    /// else 2.
    pub fn images(&self, board: &Position) -> u64 {
        if board.mirrored() == *board {
            1
        } else {
            2
        }
    }

    /// The White-to-move board at `rank` of `tier`.
    pub fn board(&self, tier: ThiTier, rank: u64) -> Position {
        let first = self.block_size(tier.high, tier.low);
        let (white, black, rank) =
            if rank < first { (tier.high, tier.low, rank) } else { (tier.low, tier.high, rank - first) };
        let mut word = [0u8; super::board::MAX_SQUARES];
        let word = &mut word[..self.squares.len()];
        self.words.unrank([white as u32, black as u32], rank, word).expect("rank inside its tier");
        self.board_of(word)
    }

    /// The White-to-move board at `rank` of `tier`, given the one at `rank − 1`: most
    /// steps change only the last cells, so this is cheaper than [`BoardIndex::board`].
    pub fn next_board(&self, tier: ThiTier, rank: u64, previous: &Position) -> Position {
        let mut word = [0u8; super::board::MAX_SQUARES];
        let word = &mut word[..self.squares.len()];
        for (cell, (letter, &sq)) in word.iter_mut().zip(&self.squares).enumerate() {
            *letter = self.code[0][cell][previous.stack(sq as usize).byte() as usize] as u8;
        }
        // The last board of the first block is followed by the first of the second, and
        // a run of boards whose mirror image ranks instead is skipped by unranking.
        debug_assert_eq!(previous.to_move(), Colour::White, "a board as ranked");
        let Some(first) = self.words.next_word(word) else {
            return self.board(tier, rank);
        };
        let mut board = previous.clone();
        for ((&letter, &sq), stacks) in word.iter().zip(&self.squares).zip(&self.stacks).skip(first) {
            board.set(sq as usize, stacks[letter as usize]);
        }
        board
    }

    fn board_of(&self, word: &[u8]) -> Position {
        let mut board = Position::empty(self.size, Colour::White);
        for (cell, (&letter, &sq)) in word.iter().zip(&self.squares).enumerate() {
            board.set(sq as usize, self.stacks[cell][letter as usize]);
        }
        board
    }
}

/// A board read as a word, with the terms that rank boards a few squares from it
/// ([`BoardIndex::prepare_near`]): the parents of a position differ from it in the few
/// squares a walk taken back changes.
#[derive(Debug, Clone)]
pub struct NearBoards {
    letters: [u8; MAX_SQUARES],
    /// The weight index of White's and Black's counters as read (swapped for a turned
    /// board).
    weight: usize,
    /// Read turned half round, colours swapped: Black to move.
    turned: bool,
    /// The board is its own mirror image.
    symmetric: bool,
    terms: WordTerms,
    /// The cells a board being ranked changed, with their letters before.
    patched: [(u8, u8); MAX_SQUARES],
    patches: usize,
}

impl Default for NearBoards {
    fn default() -> Self {
        NearBoards {
            letters: [0; MAX_SQUARES],
            weight: 0,
            turned: false,
            symmetric: false,
            terms: WordTerms::default(),
            patched: [(0, 0); MAX_SQUARES],
            patches: 0,
        }
    }
}

impl NearBoards {
    /// Whether the board is read turned half round (Black to move).
    pub fn turned(&self) -> bool {
        self.turned
    }

    /// Whether the board is its own mirror image.
    pub fn symmetric(&self) -> bool {
        self.symmetric
    }
}

/// Approximate number of ranks of White-to-move boards of side `size` with at most `max`
/// counters per colour (a board and its mirror image one rank), for boards too large to
/// index (where [`BoardIndex::new`] fails).
pub fn estimated_positions(size: usize, max: u8) -> f64 {
    let m = max as usize + 1;
    // ways[x][y]: fillings of the squares so far holding x White and y Black counters;
    // each square's stacks are placed `copies` times (a mirror pair of one stack twice).
    let fill = |ways: &[f64], row: usize, copies: usize| {
        let mut next = vec![0f64; m * m];
        for s in Stack::all() {
            let (w, b) = (copies * s.count(Colour::White) as usize, copies * s.count(Colour::Black) as usize);
            if (row == 0 && b > 0) || (row == size - 1 && w > 0) {
                continue;
            }
            for x in 0..m.saturating_sub(w) {
                for y in 0..m.saturating_sub(b) {
                    next[(x + w) * m + y + b] += ways[x * m + y];
                }
            }
        }
        next
    };
    let mut all = vec![0f64; m * m];
    let mut symmetric = vec![0f64; m * m];
    all[0] = 1.0;
    symmetric[0] = 1.0;
    for row in 0..size {
        for _ in 0..size {
            all = fill(&all, row, 1);
        }
        for _ in 0..size / 2 {
            symmetric = fill(&symmetric, row, 2);
        }
        if size % 2 == 1 {
            symmetric = fill(&symmetric, row, 1);
        }
    }
    (all.iter().sum::<f64>() + symmetric.iter().sum::<f64>()) / 2.0
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
    fn a_board_and_its_mirror_image_share_a_rank() {
        let index = BoardIndex::new(3, 3).unwrap();
        let mut images = 0;
        for high in 0..=3u8 {
            for low in 0..=high {
                let tier = ThiTier::new(high, low);
                for rank in 0..index.tier_size(tier) {
                    let board = index.board(tier, rank);
                    let mirrored = board.mirrored();
                    assert_eq!(index.locate(&mirrored, Colour::White), (tier, rank, 0), "{board}");
                    assert_eq!(index.locate(&mirrored.turned(), Colour::Black), (tier, rank, 1), "{board}");
                    assert_eq!(index.images(&board), if mirrored == board { 1 } else { 2 });
                    images += index.images(&board);
                }
            }
        }
        // Every board with at most 3 counters of each colour, White to move, once.
        assert_eq!(images, 11_020);
    }

    #[test]
    fn sizes_of_the_3x3_setups() {
        // All ranks with at most k counters of each colour (White to move), and the
        // boards they stand for.
        let census = |k: u8| {
            let index = BoardIndex::new(3, k).unwrap();
            let tiers = (0..=k).flat_map(|a| (0..=a).map(move |b| ThiTier::new(a, b)));
            let ranks: u64 = tiers.clone().map(|t| index.tier_size(t)).sum();
            let boards: u64 =
                tiers.map(|t| (0..index.tier_size(t)).map(|r| index.images(&index.board(t, r))).sum::<u64>()).sum();
            (ranks, boards)
        };
        assert_eq!(census(3), (5_698, 11_020));
        assert_eq!(census(6), (915_488, 1_822_244));
        assert_eq!(estimated_positions(3, 3), 5_698.0);
        assert_eq!(estimated_positions(3, 6), 915_488.0);
        let index = BoardIndex::new(3, 9).unwrap();
        let ranks: u64 =
            (0..=9).flat_map(|a| (0..=a).map(move |b| ThiTier::new(a, b))).map(|t| index.tier_size(t)).sum();
        assert_eq!(estimated_positions(3, 9), ranks as f64);
    }
}
