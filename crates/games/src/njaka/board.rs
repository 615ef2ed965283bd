//! Njaka's board: holes in a circle, who owns each, and the sowing of one move.
//!
//! The `h` holes are numbered 1..=h counterclockwise from a fixed hole; `cells[i]` is hole
//! `i + 1`. Ownership is a bit mask over the holes (bit `i` set: hole `i + 1` is South's).
//! In the standard game South owns holes 1..=h/2 and North the rest; in the advanced game
//! the holes alternate (South's first) at the start, and a hole changes hands when its
//! opponent's last counter captures a four in it.

use crate::side::Side;

/// Most holes on the board (the source's).
pub const MAX_HOLES: usize = 12;
/// Most counters on the board: counts are bytes.
pub const MAX_COUNTERS: u32 = 255;

/// A position: counters per hole, who owns which, who moves.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Position {
    pub(crate) cells: [u8; MAX_HOLES],
    pub(crate) holes: u8,
    /// Bit `i`: hole `i + 1` is South's.
    pub(crate) south: u16,
    pub(crate) to_move: Side,
}

/// Why a hole is not a legal move.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Illegal {
    /// Not a hole of the player to move, or an empty one.
    NotHis,
    /// The sowing never ends: its state at the start of a lap repeats.
    Endless,
}

/// What a legal move does: the position afterwards (the other player to move) and the
/// sets of four each player captured with it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Sowing {
    /// The position afterwards, the other player to move.
    pub after: Position,
    /// Sets captured by the mover.
    pub mover_sets: u8,
    /// Sets captured by his opponent (fours made in the opponent's holes on the way).
    pub opponent_sets: u8,
}

impl Position {
    /// A position from counts (hole 1 first), South's holes as a mask, and the mover.
    /// The caller keeps the limits (2..=[`MAX_HOLES`] holes, at most [`MAX_COUNTERS`]).
    pub fn new(cells: &[u8], south: u16, to_move: Side) -> Position {
        let mut all = [0; MAX_HOLES];
        all[..cells.len()].copy_from_slice(cells);
        let mask = (1u16 << cells.len()) - 1;
        Position { cells: all, holes: cells.len() as u8, south: south & mask, to_move }
    }

    /// Holes on the board.
    pub fn holes(&self) -> usize {
        self.holes as usize
    }

    /// Counters per hole, hole 1 first.
    pub fn cells(&self) -> &[u8] {
        &self.cells[..self.holes as usize]
    }

    /// Counters on the board.
    pub fn counters(&self) -> u32 {
        self.cells().iter().map(|&c| c as u32).sum()
    }

    /// The player to move.
    pub fn to_move(&self) -> Side {
        self.to_move
    }

    /// The owner of hole `i` (0-based).
    pub fn owner(&self, i: usize) -> Side {
        if self.south >> i & 1 == 1 {
            Side::South
        } else {
            Side::North
        }
    }

    /// The holes of `side`, as a mask.
    pub fn holes_of(&self, side: Side) -> u16 {
        let all = (1u16 << self.holes) - 1;
        match side {
            Side::South => self.south,
            Side::North => all & !self.south,
        }
    }

    /// The same position with the other player to move.
    pub fn passed(&self) -> Position {
        Position { to_move: self.to_move.other(), ..*self }
    }

    /// Sows hole `i` (0-based) of the player to move: one counter a hole, `clockwise` or
    /// not; a hole reaching four on the way is captured by its owner; the last counter
    /// making four is captured by the mover (who then owns the hole, in the `advanced`
    /// game), landing in an occupied hole lifts it for another lap, in an empty one ends
    /// the move.
    ///
    /// A sowing that never ends repeats its state at the start of a lap (the board and
    /// the hole lifted: captures only lower the counters, so a repeat has none between);
    /// Brent's method finds it exactly with one saved state.
    pub fn sow(&self, i: usize, clockwise: bool, advanced: bool) -> Result<Sowing, Illegal> {
        let h = self.holes as usize;
        let mover = self.to_move;
        if i >= h || self.cells[i] == 0 || self.owner(i) != mover {
            return Err(Illegal::NotHis);
        }
        let mut cells = self.cells;
        let mut south = self.south;
        let (mut mover_sets, mut opponent_sets) = (0u8, 0u8);
        let owner = |south: u16, x: usize| if south >> x & 1 == 1 { Side::South } else { Side::North };
        let step = |x: usize| if clockwise { (x + h - 1) % h } else { (x + 1) % h };
        let mut from = i;
        let mut laps = 0u64;
        let mut saved = ([0u8; MAX_HOLES], usize::MAX);
        let mut next_save = 8u64;
        loop {
            if laps == next_save {
                saved = (cells, from);
                next_save *= 2;
            } else if from == saved.1 && cells == saved.0 {
                return Err(Illegal::Endless);
            }
            laps += 1;
            let mut hand = cells[from];
            cells[from] = 0;
            let mut at = from;
            while hand > 0 {
                at = step(at);
                cells[at] += 1;
                hand -= 1;
                if cells[at] == 4 {
                    cells[at] = 0;
                    if hand == 0 {
                        // The last counter makes four: the mover's, and in the advanced
                        // game so is the hole.
                        mover_sets += 1;
                        if advanced {
                            match mover {
                                Side::South => south |= 1 << at,
                                Side::North => south &= !(1 << at),
                            }
                        }
                        let after = Position { cells, holes: self.holes, south, to_move: mover.other() };
                        return Ok(Sowing { after, mover_sets, opponent_sets });
                    }
                    if owner(south, at) == mover {
                        mover_sets += 1;
                    } else {
                        opponent_sets += 1;
                    }
                }
            }
            if cells[at] == 1 {
                let after = Position { cells, holes: self.holes, south, to_move: mover.other() };
                return Ok(Sowing { after, mover_sets, opponent_sets });
            }
            from = at;
        }
    }

    /// The legal moves: the hole (0-based) and its sowing.
    pub fn sowings(&self, clockwise: bool, advanced: bool) -> impl Iterator<Item = (usize, Sowing)> + '_ {
        (0..self.holes as usize).filter_map(move |i| self.sow(i, clockwise, advanced).ok().map(|s| (i, s)))
    }
}
