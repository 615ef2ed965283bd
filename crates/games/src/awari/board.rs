//! The Awari board seen from the player to move: sowing, captures, legal moves, un-moves.
//!
//! Twelve pits counterclockwise, the mover's six first (`0..6`), then the opponent's
//! (`6..12`). Captured stones are not part of the board: the tables hold the difference of
//! the stones still on it, and no rule depends on the captured counts.

use std::fmt;
use thiserror::Error;

/// Pits per row.
pub const PITS: usize = 6;
/// Pits on the board.
pub const CELLS: usize = 2 * PITS;
/// Stones at the start (4 in each pit).
pub const START_STONES: u32 = 48;

/// Twelve pit counts, the player to move's first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Board {
    pits: [u8; CELLS],
}

/// One sowing from a pit of the mover: the board afterwards, seen from the next mover
/// (the opponent), and the stones captured.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Sown {
    pub board: Board,
    pub captured: u8,
}

/// The legal moves of a board: the mover's pit (0..6, counterclockwise) and the sowing.
#[derive(Debug, Clone, Default)]
pub struct MoveList {
    moves: [Option<(usize, Sown)>; PITS],
    len: usize,
}

impl MoveList {
    pub fn iter(&self) -> impl Iterator<Item = &(usize, Sown)> {
        self.moves[..self.len].iter().flatten()
    }

    pub fn len(&self) -> usize {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    fn push(&mut self, pit: usize, sown: Sown) {
        self.moves[self.len] = Some((pit, sown));
        self.len += 1;
    }
}

#[derive(Debug, Error, PartialEq, Eq)]
pub enum BoardError {
    #[error("a board has 12 pit counts (the mover's six first, counterclockwise), not {0}")]
    WrongCount(usize),
    #[error("`{0}` is not a pit count (a whole number of stones)")]
    BadCount(String),
    #[error("{0} stones on the board; Awari has 48")]
    TooManyStones(u32),
}

impl Board {
    pub const START: Board = Board { pits: [4; CELLS] };

    /// A board from twelve counts of at most 48 stones in all.
    pub fn new(pits: [u8; CELLS]) -> Result<Board, BoardError> {
        let total: u32 = pits.iter().map(|&p| p as u32).sum();
        if total > START_STONES {
            return Err(BoardError::TooManyStones(total));
        }
        Ok(Board { pits })
    }

    /// A board from cells already known to be valid (the index's words).
    pub(crate) fn from_cells(cells: &[u8]) -> Board {
        let mut pits = [0; CELLS];
        pits.copy_from_slice(cells);
        Board { pits }
    }

    pub fn cells(&self) -> &[u8] {
        &self.pits
    }

    pub fn stones(&self) -> u32 {
        self.pits.iter().map(|&p| p as u32).sum()
    }

    /// Stones on the mover's side.
    pub fn mover_stones(&self) -> u32 {
        self.pits[..PITS].iter().map(|&p| p as u32).sum()
    }

    /// The same stones seen from the other player.
    pub fn flipped(&self) -> Board {
        let mut pits = [0; CELLS];
        pits[..PITS].copy_from_slice(&self.pits[PITS..]);
        pits[PITS..].copy_from_slice(&self.pits[..PITS]);
        Board { pits }
    }

    /// Sows the mover's pit `pit` (which must hold stones), legal or not: one stone a pit
    /// counterclockwise, the emptied pit skipped on laps of 12 or more; then the capture
    /// of the last pit and those before it on the opponent's side holding 2 or 3.
    pub fn sow(&self, pit: usize) -> Sown {
        let mut pits = self.pits;
        let mut left = pits[pit];
        pits[pit] = 0;
        let mut at = pit;
        while left > 0 {
            at = (at + 1) % CELLS;
            if at == pit {
                continue;
            }
            pits[at] += 1;
            left -= 1;
        }
        let mut captured = 0;
        while at >= PITS && (pits[at] == 2 || pits[at] == 3) {
            captured += pits[at];
            pits[at] = 0;
            at -= 1;
        }
        Sown { board: Board { pits }.flipped(), captured }
    }

    /// The legal moves: every non-empty pit of the mover, except that a move leaving the
    /// opponent no stone (by not feeding him or by capturing all he has) is allowed only
    /// when every move does so.
    pub fn moves(&self) -> MoveList {
        let mut all = MoveList::default();
        let mut feeding = MoveList::default();
        for pit in 0..PITS {
            if self.pits[pit] == 0 {
                continue;
            }
            let sown = self.sow(pit);
            all.push(pit, sown);
            // After the flip the opponent's stones are the next mover's: pits 0..6.
            if sown.board.mover_stones() > 0 {
                feeding.push(pit, sown);
            }
        }
        if feeding.is_empty() {
            all
        } else {
            feeding
        }
    }

    /// The value for the player to move if he has no move: the opponent takes every stone
    /// left, so the mover ends `stones` behind. `None` while he has a move.
    pub fn outcome(&self) -> Option<i16> {
        (self.mover_stones() == 0).then(|| -(self.stones() as i16))
    }

    /// The boards with a legal move to this one that captures nothing (so the same
    /// stones), each once. The previous mover is this board's opponent; his sown pit is
    /// empty here (a lap skips it), and the stones `s` he sowed gave each other pit
    /// `⌊s/11⌋` or one more. Every candidate is checked by playing it forwards.
    pub fn unmoves(&self, out: &mut Vec<Board>) {
        let seen_from_parent = self.flipped();
        let total = self.stones();
        for pit in 0..PITS {
            if seen_from_parent.pits[pit] != 0 {
                continue;
            }
            'sizes: for s in 1..=total {
                let mut pits = seen_from_parent.pits;
                let (laps, rest) = (s / (CELLS as u32 - 1), s % (CELLS as u32 - 1));
                for step in 1..CELLS as u32 {
                    let at = (pit + step as usize) % CELLS;
                    let got = laps + u32::from(step <= rest);
                    match (pits[at] as u32).checked_sub(got) {
                        Some(v) => pits[at] = v as u8,
                        // More stones only take more from every pit: no larger s fits.
                        None => break 'sizes,
                    }
                }
                pits[pit] = s as u8;
                let parent = Board { pits };
                if parent.moves().iter().any(|&(p, sown)| p == pit && sown.captured == 0 && sown.board == *self) {
                    out.push(parent);
                }
            }
        }
    }
}

/// Twelve counts separated by commas or spaces, the mover's six first.
impl std::str::FromStr for Board {
    type Err = BoardError;

    fn from_str(text: &str) -> Result<Board, BoardError> {
        let words: Vec<&str> = text.split(|c: char| c == ',' || c.is_whitespace()).filter(|w| !w.is_empty()).collect();
        if words.len() != CELLS {
            return Err(BoardError::WrongCount(words.len()));
        }
        let mut pits = [0u8; CELLS];
        for (pit, word) in pits.iter_mut().zip(&words) {
            let count: u32 = word.parse().map_err(|_| BoardError::BadCount(word.to_string()))?;
            if count > START_STONES {
                return Err(BoardError::TooManyStones(count));
            }
            *pit = count as u8;
        }
        Board::new(pits)
    }
}

impl fmt::Display for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let text: Vec<String> = self.pits.iter().map(|p| p.to_string()).collect();
        write!(f, "{}", text.join(","))
    }
}
