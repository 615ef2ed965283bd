//! The Oware board seen from the player to move: sowing, captures, Awari's legal moves,
//! un-moves.
//!
//! `2m` pits counterclockwise (`m` = 1..=6 pits a row), the mover's `m` first (`0..m`),
//! then the opponent's (`m..2m`). The counts live in a fixed `[u8; 12]` (unused pits stay
//! 0) so that a board is `Copy` and no move allocates; every loop runs over at most `2m`
//! pits, which keeps the 6-pit board (the hot loop of a large Awari build) as fast as a
//! board of fixed size. Captured stones are not part of the board: Awari's tables hold
//! the difference of the stones still on it; the target rule sets (`crate::oware`) keep
//! the captured counts beside it.

use std::fmt;
use thiserror::Error;

/// Most pits per row (the real board).
pub const MAX_PITS: usize = 6;
/// Pit slots in a board: two rows of [`MAX_PITS`].
pub const CELLS: usize = 2 * MAX_PITS;
/// Stones on the real board at the start (4 in each of 12 pits), and the most any board
/// here may hold: pit counts are bytes and the cyclic score engine's values must fit a byte.
pub const START_STONES: u32 = 48;

/// The pit counts of a board of `m` pits a row, the player to move's first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Board {
    pits: [u8; CELLS],
    m: u8,
}

/// One sowing from a pit of the mover: the board afterwards, seen from the next mover
/// (the opponent), and the stones captured.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Sown {
    /// The board after the sowing and any capture, turned to the opponent, who moves next.
    pub board: Board,
    /// Stones the mover captured with this sowing (0 if none).
    pub captured: u8,
}

/// The legal moves of a board: the mover's pit (0..m, counterclockwise) and the sowing.
#[derive(Debug, Clone, Default)]
pub struct MoveList {
    moves: [Option<(usize, Sown)>; MAX_PITS],
    len: usize,
}

impl MoveList {
    /// The moves, each the mover's pit (0..m) and its sowing, in pit order.
    pub fn iter(&self) -> impl Iterator<Item = &(usize, Sown)> {
        self.moves[..self.len].iter().flatten()
    }

    /// How many legal moves there are.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether the mover has no legal move (no stone on his side).
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    fn push(&mut self, pit: usize, sown: Sown) {
        self.moves[self.len] = Some((pit, sown));
        self.len += 1;
    }
}

/// Why pit counts are not a board here.
#[derive(Debug, Error, PartialEq, Eq)]
pub enum BoardError {
    /// Not an even number of counts from 2 to 12: a board is two equal rows of 1 to 6 pits.
    #[error("a board has an even number of pit counts, 2 to 12 (the mover's row first, counterclockwise), not {0}")]
    WrongCount(usize),
    /// A pit count that is not a whole number of stones.
    #[error("`{0}` is not a pit count (a whole number of stones)")]
    BadCount(String),
    /// Two commas with no count between them (or one at an end).
    #[error("a pit count is missing between commas (an empty pit is 0)")]
    MissingCount,
    /// Captured counts (`0-0`) after the pits, which an Awari position does not have.
    #[error(
        "`{0}` looks like captured counts: an Awari position is its pit counts alone (captured counts \
         follow the pits only under the trysse and wari rules)"
    )]
    Captures(String),
    /// More stones than the 48 a board here holds.
    #[error("{0} stones on the board; a board here holds at most {START_STONES}")]
    TooManyStones(u64),
    /// Pits a row outside 1 to `MAX_PITS`.
    #[error("{0} pits a row: boards have 1 to {MAX_PITS}")]
    Pits(usize),
}

impl Board {
    /// The start of a board of `m` pits a row with `seeds` stones in each.
    pub fn start(m: usize, seeds: u32) -> Result<Board, BoardError> {
        if !(1..=MAX_PITS).contains(&m) {
            return Err(BoardError::Pits(m));
        }
        let total = 2 * m as u64 * u64::from(seeds);
        if total > u64::from(START_STONES) {
            return Err(BoardError::TooManyStones(total));
        }
        let mut pits = [0; CELLS];
        pits[..2 * m].fill(seeds as u8);
        Ok(Board { pits, m: m as u8 })
    }

    /// The stones a pit if this is the start of its board (every pit alike), however it
    /// was asked for.
    pub fn start_seeds(&self) -> Option<u32> {
        let m = self.pits_per_row();
        let n = self.stones() / (2 * m as u32);
        (n > 0 && Board::start(m, n).ok()? == *self).then_some(n)
    }

    /// A board from `2m` counts (the mover's row first) of at most 48 stones in all.
    pub fn new(cells: &[u8]) -> Result<Board, BoardError> {
        pits_per_row(cells.len())?;
        let total: u64 = cells.iter().map(|&p| u64::from(p)).sum();
        if total > u64::from(START_STONES) {
            return Err(BoardError::TooManyStones(total));
        }
        Ok(Board::from_cells(cells))
    }

    /// A board from cells already known to be valid (the index's words): `2m` counts.
    pub(crate) fn from_cells(cells: &[u8]) -> Board {
        let mut pits = [0; CELLS];
        pits[..cells.len()].copy_from_slice(cells);
        Board { pits, m: (cells.len() / 2) as u8 }
    }

    /// Pits per row.
    #[inline]
    pub fn pits_per_row(&self) -> usize {
        self.m as usize
    }

    /// The `2m` pit counts, the mover's row first.
    #[inline]
    pub fn cells(&self) -> &[u8] {
        &self.pits[..2 * self.m as usize]
    }

    /// Stones on the board, both sides: the position's tier.
    pub fn stones(&self) -> u32 {
        self.cells().iter().map(|&p| p as u32).sum()
    }

    /// Stones on the mover's side.
    #[inline]
    pub fn mover_stones(&self) -> u32 {
        self.pits[..self.m as usize].iter().map(|&p| p as u32).sum()
    }

    /// Stones on the opponent's side.
    #[inline]
    pub fn opponent_stones(&self) -> u32 {
        self.pits[self.m as usize..2 * self.m as usize].iter().map(|&p| p as u32).sum()
    }

    /// The same stones seen from the other player.
    #[inline]
    pub fn flipped(&self) -> Board {
        let m = self.m as usize;
        let mut pits = [0; CELLS];
        pits[..m].copy_from_slice(&self.pits[m..2 * m]);
        pits[m..2 * m].copy_from_slice(&self.pits[..m]);
        Board { pits, m: self.m }
    }

    /// Sows the mover's pit `pit` (which must hold stones), legal or not: one stone a pit
    /// counterclockwise, the emptied pit skipped on laps of `2m` or more; then the capture
    /// of the last pit and those before it on the opponent's side holding 2 or 3.
    #[inline]
    pub fn sow(&self, pit: usize) -> Sown {
        let n = 2 * self.m as usize;
        let mut pits = self.pits;
        let stones = pits[pit] as usize;
        pits[pit] = 0;
        // The stones go round the other `n − 1` pits: whole laps, then `rest` more.
        let others = n - 1;
        let (laps, rest) = if stones < others { (0, stones) } else { (stones / others, stones % others) };
        let mut at = pit;
        if laps == 0 {
            for _ in 0..rest {
                at = if at + 1 == n { 0 } else { at + 1 };
                pits[at] += 1;
            }
        } else {
            let mut last = pit;
            for step in 1..n {
                at = if at + 1 == n { 0 } else { at + 1 };
                pits[at] += (laps + usize::from(step <= rest)) as u8;
                if step == rest || (rest == 0 && step == others) {
                    last = at;
                }
            }
            at = last;
        }
        let m = self.m as usize;
        let mut captured = 0;
        while at >= m && (pits[at] == 2 || pits[at] == 3) {
            captured += pits[at];
            pits[at] = 0;
            at -= 1;
        }
        Sown { board: Board { pits, m: self.m }.flipped(), captured }
    }

    /// Whether sowing the mover's pit `pit` puts a stone on the opponent's side (it holds
    /// enough stones to get past the mover's last pit).
    #[inline]
    pub fn reaches_opponent(&self, pit: usize) -> bool {
        self.pits[pit] as usize >= self.m as usize - pit
    }

    /// Whether some move of the mover puts a stone on the opponent's side.
    pub fn can_reach_opponent(&self) -> bool {
        (0..self.m as usize).any(|pit| self.reaches_opponent(pit))
    }

    /// Awari's legal moves: every non-empty pit of the mover, except that a move leaving
    /// the opponent no stone (by not feeding him or by capturing all he has) is allowed
    /// only when every move does so.
    pub fn moves(&self) -> MoveList {
        let mut all = MoveList::default();
        let mut feeding = MoveList::default();
        for pit in 0..self.m as usize {
            if self.pits[pit] == 0 {
                continue;
            }
            let sown = self.sow(pit);
            all.push(pit, sown);
            // After the flip the opponent's stones are the next mover's: pits 0..m.
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

    /// Whether some Awari move leaves the opponent a stone.
    fn some_move_feeds(&self) -> bool {
        (0..self.m as usize).any(|pit| self.pits[pit] != 0 && self.sow(pit).board.mover_stones() > 0)
    }

    /// Awari's value for the player to move if he has no move: the opponent takes every
    /// stone left, so the mover ends `stones` behind. `None` while he has a move.
    pub fn outcome(&self) -> Option<i16> {
        (self.mover_stones() == 0).then(|| -(self.stones() as i16))
    }

    /// The boards with a legal Awari move to this one that captures nothing (so the same
    /// stones), each once: the sowings of [`Board::for_each_unsowing`] that Awari allows.
    /// Such a sowing leaves the opponent (this board's mover) a stone unless this board's
    /// mover has none; only then must no other move of the parent feed him.
    pub fn for_each_unmove(&self, mut f: impl FnMut(Board)) {
        let fed = self.mover_stones() > 0;
        self.for_each_unsowing(|_, parent| {
            if fed || !parent.some_move_feeds() {
                f(parent);
            }
        });
    }

    /// Calls `f(pit, parent)` for every board `parent` and pit of its mover whose sowing
    /// (legal or not) captures nothing and gives this board, each once. The previous
    /// mover is this board's opponent; his sown pit is empty here (a lap skips it), and
    /// the `s` stones he sowed gave each other pit `⌊s/(2m−1)⌋` or one more; the sowing
    /// captured nothing unless its last stone made 2 or 3 on his opponent's side.
    #[inline]
    pub fn for_each_unsowing(&self, mut f: impl FnMut(usize, Board)) {
        let m = self.m as usize;
        let n = 2 * m;
        let others = (n - 1) as u32;
        let seen_from_parent = self.flipped();
        let total = self.stones();
        for pit in 0..m {
            if seen_from_parent.pits[pit] != 0 {
                continue;
            }
            'sizes: for s in 1..=total {
                let mut pits = seen_from_parent.pits;
                let (laps, rest) = (s / others, s % others);
                let mut at = pit;
                for step in 1..n as u32 {
                    at = if at + 1 == n { 0 } else { at + 1 };
                    let got = laps + u32::from(step <= rest);
                    match (pits[at] as u32).checked_sub(got) {
                        Some(v) => pits[at] = v as u8,
                        // More stones only take more from every pit: no larger s fits.
                        None => break 'sizes,
                    }
                }
                // The last stone's pit, in the sowing's (the parent's) view.
                let last_step = if rest == 0 { others as usize } else { rest as usize };
                let last = if pit + last_step >= n { pit + last_step - n } else { pit + last_step };
                let after = seen_from_parent.pits[last];
                if last >= m && (after == 2 || after == 3) {
                    continue;
                }
                pits[pit] = s as u8;
                f(pit, Board { pits, m: self.m });
            }
        }
    }
}

/// The pits a row of a board of `count` pits: half of it, if that is 1 to 6.
fn pits_per_row(count: usize) -> Result<usize, BoardError> {
    let m = count / 2;
    if 2 * m == count && (1..=MAX_PITS).contains(&m) {
        Ok(m)
    } else {
        Err(BoardError::WrongCount(count))
    }
}

/// `2m` counts separated by commas or spaces, the mover's row first.
impl std::str::FromStr for Board {
    type Err = BoardError;

    fn from_str(text: &str) -> Result<Board, BoardError> {
        // Commas, or spaces, or both (`0, 1`); but a comma with nothing before it (`0,,1`)
        // is a pit left out, not a separator run.
        let fields: Vec<&str> = text.split(',').collect();
        if fields.len() > 1 && fields.iter().any(|f| f.trim().is_empty()) {
            return Err(BoardError::MissingCount);
        }
        let words: Vec<&str> = fields.iter().flat_map(|f| f.split_whitespace()).collect();
        if let Some(word) = words.iter().find(|w| w.chars().skip(1).any(|c| c == '-')) {
            return Err(BoardError::Captures(crate::echo::excerpt(word)));
        }
        pits_per_row(words.len())?;
        let counts = words
            .iter()
            .map(|word| word.parse::<u32>().map_err(|_| BoardError::BadCount(crate::echo::excerpt(word))))
            .collect::<Result<Vec<u32>, BoardError>>()?;
        // Every pit counted before the limit is judged, so that the error says how many
        // the board holds.
        let total: u64 = counts.iter().map(|&c| u64::from(c)).sum();
        if total > u64::from(START_STONES) {
            return Err(BoardError::TooManyStones(total));
        }
        Board::new(&counts.iter().map(|&c| c as u8).collect::<Vec<u8>>())
    }
}

impl fmt::Display for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let text: Vec<String> = self.cells().iter().map(|p| p.to_string()).collect();
        write!(f, "{}", text.join(","))
    }
}
