//! Kalah positions and sowing.
//!
//! Two views of the pits:
//! - [`Board`]: seen from the player to move. `cells[0..m]` is his row, pit 1 (his
//!   leftmost) first; `cells[m..2m]` is the opponent's row, from the opponent's pit 1.
//!   The tables and the search work on boards: no rule depends on the stores or on which
//!   player is which.
//! - [`Position`]: what players see: South's and North's rows, both stores, the side to
//!   move. South moves first.
//!
//! Sowing goes counterclockwise. From the mover's chair the holes are, in order: his
//! pits 1..m (left to right), his store, the opponent's pits 1..m (right to left as the
//! mover sees them), and round again; the opponent's store is never sown. So the mover's
//! pit `i` (0-based) faces the opponent's pit `m−1−i`.

use super::rules::{Capture, End, Leftovers, Rules};
use retro::Turn;
use std::fmt;
use thiserror::Error;

/// Most pits per row this implementation handles.
pub const MAX_PITS: usize = 8;
/// Most seeds in a game: a pit is one byte.
pub const MAX_SEEDS: u32 = 255;

/// The pits seen from the player to move (see the module comment).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Board {
    m: u8,
    cells: [u8; 2 * MAX_PITS],
}

/// The result of one sowing.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Sown {
    /// The board afterwards, seen from whoever moves next (the same player after an
    /// extra turn, else the opponent).
    pub board: Board,
    /// Seeds the mover put into his store: sown and captured.
    pub gain: i16,
    /// `Keeps` when the last seed fell in the mover's store (he moves again), else `Passes`.
    pub turn: Turn,
    /// The move left the opponent's row empty (what `must_leave_move` forbids).
    pub starves: bool,
}

impl Board {
    /// A board from the mover's row and the opponent's row, each from its owner's pit 1.
    /// Both rows must have the same length, 1..=`MAX_PITS`.
    pub fn new(mine: &[u8], theirs: &[u8]) -> Board {
        let m = mine.len();
        assert!(m == theirs.len() && (1..=MAX_PITS).contains(&m), "rows of {m} and {} pits", theirs.len());
        let mut cells = [0u8; 2 * MAX_PITS];
        cells[..m].copy_from_slice(mine);
        cells[m..2 * m].copy_from_slice(theirs);
        Board { m: m as u8, cells }
    }

    /// A board from its `2m` cells (mover's row, then the opponent's).
    pub fn from_cells(cells: &[u8]) -> Board {
        let m = cells.len() / 2;
        Board::new(&cells[..m], &cells[m..])
    }

    /// All the cells and the row length, for stepping through boards without copying
    /// rows of a length known only at run time (each copy a `memcpy` call).
    pub(crate) fn raw(&self) -> (u8, [u8; 2 * MAX_PITS]) {
        (self.m, self.cells)
    }

    /// The board of [`Board::raw`]'s parts; the cells past `2m` must be empty.
    pub(crate) fn from_raw(m: u8, cells: [u8; 2 * MAX_PITS]) -> Board {
        debug_assert!(cells[2 * m as usize..].iter().all(|&s| s == 0));
        Board { m, cells }
    }

    /// Pits per row.
    pub fn pits(&self) -> usize {
        self.m as usize
    }

    /// Both rows, mover's first: the word the tables rank.
    pub fn cells(&self) -> &[u8] {
        &self.cells[..2 * self.m as usize]
    }

    /// The mover's row, from his pit 1 (his leftmost).
    pub fn mine(&self) -> &[u8] {
        &self.cells[..self.m as usize]
    }

    /// The opponent's row, from the opponent's pit 1 (his leftmost).
    pub fn theirs(&self) -> &[u8] {
        &self.cells[self.m as usize..2 * self.m as usize]
    }

    /// Seeds in all pits.
    pub fn seeds(&self) -> u32 {
        self.cells().iter().map(|&s| s as u32).sum()
    }

    /// The same pits seen from the other player.
    ///
    /// The rows are swapped as the two halves of one 128-bit word (little-endian: cell 0
    /// lowest): copying rows of a length known only at run time called `memcpy` twice, in
    /// the inner loop of every table build and search.
    pub fn swapped(&self) -> Board {
        let bits = 8 * self.m as u32;
        let word = u128::from_le_bytes(self.cells);
        let row = (1u128 << bits) - 1;
        let swapped = (word >> bits) & row | (word & row) << bits;
        Board { m: self.m, cells: swapped.to_le_bytes() }
    }

    /// The score still to be gained by the player to move if the game is over here.
    pub fn outcome(&self, rules: &Rules) -> Option<i16> {
        let mine: i16 = self.mine().iter().map(|&s| s as i16).sum();
        let theirs: i16 = self.theirs().iter().map(|&s| s as i16).sum();
        let over = match rules.end {
            End::SideEmpty => mine == 0 || theirs == 0,
            End::NoMove => mine == 0,
        };
        over.then(|| match rules.leftovers {
            Leftovers::Owner => mine - theirs,
            Leftovers::None => 0,
        })
    }

    /// Sows the mover's pit `pit` (0-based from his left), or `None` if it is empty.
    /// Legality beyond that (`must_leave_move`) is [`Board::moves`]'s business.
    pub fn sow(&self, rules: &Rules, pit: usize) -> Option<Sown> {
        let m = self.m as usize;
        let mut seeds = *self.cells.get(pit).filter(|_| pit < m)?;
        if seeds == 0 {
            return None;
        }
        let mut cells = self.cells;
        cells[pit] = 0;
        // Hole h of the cycle: 0..m the mover's pits, m his store, m+1..=2m the
        // opponent's pits (cell h−1).
        let holes = 2 * m + 1;
        let mut hole = pit;
        let mut gain: i16 = 0;
        while seeds > 0 {
            hole = if hole + 1 == holes { 0 } else { hole + 1 };
            // The origin is only reached again on a lap; the switch says to skip it.
            if rules.skip_origin && hole == pit {
                continue;
            }
            match hole.cmp(&m) {
                std::cmp::Ordering::Less => cells[hole] += 1,
                std::cmp::Ordering::Equal => gain += 1,
                std::cmp::Ordering::Greater => cells[hole - 1] += 1,
            }
            seeds -= 1;
        }
        let mut turn = Turn::Passes;
        if hole == m {
            turn = Turn::Keeps;
        } else if hole < m && cells[hole] == 1 {
            // The last seed fell into a pit of the mover's row that was empty.
            let opposite = m + (m - 1 - hole);
            let facing = cells[opposite];
            match rules.capture {
                Capture::Empty => {
                    gain += facing as i16 + 1;
                    cells[opposite] = 0;
                    cells[hole] = 0;
                }
                Capture::Standard if facing > 0 => {
                    gain += facing as i16 + 1;
                    cells[opposite] = 0;
                    cells[hole] = 0;
                }
                Capture::OppositeOnly if facing > 0 => {
                    gain += facing as i16;
                    cells[opposite] = 0;
                }
                Capture::Standard | Capture::OppositeOnly => {}
            }
        }
        let starves = cells[m..2 * m].iter().all(|&s| s == 0);
        let after = Board { m: self.m, cells };
        let board = match turn {
            Turn::Keeps => after,
            Turn::Passes => after.swapped(),
        };
        Some(Sown { board, gain, turn, starves })
    }

    /// The legal moves, as (pit 0-based from the mover's left, result), pit order.
    /// Empty if the game is over here.
    pub fn moves(&self, rules: &Rules) -> Vec<(usize, Sown)> {
        let mut list = MoveList::default();
        self.moves_into(rules, &mut list);
        list.iter().collect()
    }

    /// [`Board::moves`] without allocating, for the solvers' inner loops.
    pub fn moves_into(&self, rules: &Rules, list: &mut MoveList) {
        list.len = 0;
        if self.outcome(rules).is_some() {
            return;
        }
        let mut feeds = false;
        for pit in 0..self.pits() {
            if let Some(sown) = self.sow(rules, pit) {
                feeds |= !sown.starves;
                list.items[list.len] = Some((pit as u8, sown));
                list.len += 1;
            }
        }
        if rules.must_leave_move && feeds {
            let mut kept = 0;
            for i in 0..list.len {
                if list.items[i].is_some_and(|(_, s)| !s.starves) {
                    list.items[kept] = list.items[i];
                    kept += 1;
                }
            }
            list.len = kept;
        }
    }
}

/// At most one move per pit, kept on the stack.
#[derive(Clone, Copy, Default, Debug)]
pub struct MoveList {
    len: usize,
    items: [Option<(u8, Sown)>; MAX_PITS],
}

impl MoveList {
    /// The moves as (pit 0-based, result).
    pub fn iter(&self) -> impl Iterator<Item = (usize, Sown)> + '_ {
        self.items[..self.len].iter().flatten().map(|&(p, s)| (p as usize, s))
    }

    /// How many legal moves there are.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether the mover has no legal move.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
}

pub use crate::side::Side;

/// Why pits, seeds or rows do not make a Kalah position here.
#[derive(Debug, Error, PartialEq, Eq)]
pub enum PositionError {
    /// Pits a row outside 1 to `MAX_PITS`.
    #[error("{0} pits per row: this solver handles 1 to {MAX_PITS}")]
    Pits(usize),
    /// The two rows have different numbers of pits.
    #[error("South's row has {south} pits and North's {north}: both rows must be equally long")]
    RowLengths {
        /// Pits in South's row.
        south: usize,
        /// Pits in North's row.
        north: usize,
    },
    /// More seeds in the pits than the 255 a board here holds.
    #[error("{0} seeds in the pits: a pit holds at most {MAX_SEEDS}, and so does the whole board here")]
    Seeds(u32),
    /// A start with no seeds in the pits.
    #[error("{0} seeds per pit: the game needs at least 1")]
    NoSeeds(u32),
}

/// A full position: pits, stores and the side to move.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Position {
    /// South's row from South's pit 1, then North's row from North's pit 1, as a board
    /// seen from South.
    rows: Board,
    /// Seeds in South's and North's stores.
    stores: [u16; 2],
    to_move: Side,
}

impl Position {
    /// A position from South's and North's rows (each from its owner's pit 1).
    pub fn new(south: &[u8], north: &[u8], stores: [u16; 2], to_move: Side) -> Result<Position, PositionError> {
        if south.len() != north.len() {
            return Err(PositionError::RowLengths { south: south.len(), north: north.len() });
        }
        if !(1..=MAX_PITS).contains(&south.len()) {
            return Err(PositionError::Pits(south.len()));
        }
        let seeds: u32 = south.iter().chain(north).map(|&s| s as u32).sum();
        if seeds > MAX_SEEDS {
            return Err(PositionError::Seeds(seeds));
        }
        Ok(Position { rows: Board::new(south, north), stores, to_move })
    }

    /// The start of Kalah(m, n): `n` seeds in each of the `2m` pits, South to move.
    pub fn start(m: usize, n: u32) -> Result<Position, PositionError> {
        if n == 0 {
            return Err(PositionError::NoSeeds(n));
        }
        if !(1..=MAX_PITS).contains(&m) {
            return Err(PositionError::Pits(m));
        }
        if 2 * m as u32 * n > MAX_SEEDS {
            return Err(PositionError::Seeds(2 * m as u32 * n));
        }
        let row = vec![n as u8; m];
        Position::new(&row, &row, [0, 0], Side::South)
    }

    /// Pits a row.
    pub fn pits(&self) -> usize {
        self.rows.pits()
    }

    /// South's row, from South's pit 1 (his leftmost).
    pub fn south(&self) -> &[u8] {
        self.rows.mine()
    }

    /// North's row, from North's pit 1 (his leftmost).
    pub fn north(&self) -> &[u8] {
        self.rows.theirs()
    }

    /// Seeds in South's and North's stores, in that order.
    pub fn stores(&self) -> [u16; 2] {
        self.stores
    }

    /// The player whose turn it is.
    pub fn to_move(&self) -> Side {
        self.to_move
    }

    /// Seeds in the pits and in the stores.
    pub fn seeds_in_pits(&self) -> u32 {
        self.rows.seeds()
    }

    /// The pits seen from the player to move.
    pub fn board(&self) -> Board {
        match self.to_move {
            Side::South => self.rows,
            Side::North => self.rows.swapped(),
        }
    }

    /// The mover's store minus the other's.
    pub fn store_difference(&self) -> i32 {
        let me = self.to_move.index();
        self.stores[me] as i32 - self.stores[1 - me] as i32
    }

    /// The position where `side` is to move with these pits (seen from `side`).
    fn from_board(board: Board, stores: [u16; 2], side: Side) -> Position {
        let rows = match side {
            Side::South => board,
            Side::North => board.swapped(),
        };
        Position { rows, stores, to_move: side }
    }

    /// The final store difference for the player to move if the game is over here.
    pub fn final_difference(&self, rules: &Rules) -> Option<i32> {
        Some(self.store_difference() + self.board().outcome(rules)? as i32)
    }

    /// Plays the mover's pit `pit` (1-based from his left, as moves are named), if legal.
    pub fn play(&self, rules: &Rules, pit: usize) -> Option<Position> {
        let (_, sown) = self.board().moves(rules).into_iter().find(|(p, _)| p + 1 == pit)?;
        Some(self.after(sown))
    }

    /// The position a sowing from this one leads to.
    pub fn after(&self, sown: Sown) -> Position {
        let mut stores = self.stores;
        stores[self.to_move.index()] += sown.gain as u16;
        let next = match sown.turn {
            Turn::Keeps => self.to_move,
            Turn::Passes => self.to_move.other(),
        };
        Position::from_board(sown.board, stores, next)
    }

    /// Every complete turn of the player to move: the pits he sows (1-based), extra
    /// turns included, until the turn passes or the game ends; and the position then.
    /// In pit order, depth first (`3-6` after `3-2`… before `4`).
    pub fn turns(&self, rules: &Rules) -> Vec<(Vec<u8>, Position)> {
        fn walk(rules: &Rules, from: &Position, path: &mut Vec<u8>, out: &mut Vec<(Vec<u8>, Position)>) {
            for (pit, sown) in from.board().moves(rules) {
                let next = from.after(sown);
                path.push(pit as u8 + 1);
                if sown.turn == Turn::Keeps && next.board().outcome(rules).is_none() {
                    walk(rules, &next, path, out);
                } else {
                    out.push((path.clone(), next));
                }
                path.pop();
            }
        }
        let mut out = Vec::new();
        walk(rules, self, &mut Vec::new(), &mut out);
        out
    }
}

/// A turn's name: its pits joined by `-`, e.g. `3-6`.
pub fn turn_name(pits: &[u8]) -> String {
    pits.iter().map(|p| p.to_string()).collect::<Vec<_>>().join("-")
}

impl fmt::Display for Board {
    /// The mover's row, then the opponent's, each from its owner's pit 1: `4,4,4/4,4,4`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let row = |r: &[u8]| r.iter().map(|s| s.to_string()).collect::<Vec<_>>().join(",");
        let (mine, theirs) = self.cells().split_at(self.m as usize);
        write!(f, "{}/{}", row(mine), row(theirs))
    }
}

impl fmt::Display for Position {
    /// The notation read by [`super::notation::parse`].
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let row = |r: &[u8]| r.iter().map(|s| s.to_string()).collect::<Vec<_>>().join(",");
        let side = match self.to_move {
            Side::South => "S",
            Side::North => "N",
        };
        write!(f, "{}/{} {}-{} {side}", row(self.south()), row(self.north()), self.stores[0], self.stores[1])
    }
}
