//! The Trias board seen from the player to move, and the sowing of one move.
//!
//! A board of `3 × k` holes is one array in the mover's circuit order:
//!
//! ```text
//!   files (mover's left to right):   1        2      …      k
//!   opponent's row:               [2k]    [2k+1]   …   [3k−1]     never sown by the mover
//!   middle row:                   [2k−1]  [2k−2]   …   [k]        sown right to left
//!   mover's row:                  [0]     [1]      …   [k−1]      sown left to right
//! ```
//!
//! The mover's circuit is `0, 1, …, 2k − 1` and round again, so a sowing step is
//! `+1 mod 2k` and the file of a middle hole `c` is `2k − c`. Turning the board round
//! (the other player's view, the half-turn that maps one player's circuit onto the
//! other's) reverses the whole array: the opponent's row becomes the mover's row, both
//! read from the new mover's left, and the middle row is read the other way.

pub use crate::side::Side;
use retro::Value;
use std::fmt;

/// Most holes a row (the source's board).
pub const MAX_HOLES: usize = 12;
/// Hole slots in a board: three rows of [`MAX_HOLES`].
pub const MAX_CELLS: usize = 3 * MAX_HOLES;
/// Most stones a board may hold (counts and tiers are bytes); the source's board holds 144.
pub const MAX_STONES: u32 = 255;

/// A Trias position: the board in the mover's circuit order (module comment) and who
/// that mover is. Unused slots stay 0, so equal positions are equal arrays.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Position {
    cells: [u8; MAX_CELLS],
    holes: u8,
    to_move: Side,
}

/// Why a hole of the mover's row is not a legal move.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Illegal {
    /// The hole is empty.
    Empty,
    /// Its first lap ends the move: a move needs at least two laps.
    OneLap,
    /// The sowing never ends: its state at the start of a lap repeats.
    Endless,
}

impl fmt::Display for Illegal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Illegal::Empty => "the hole is empty",
            Illegal::OneLap => "its first lap would end the move (a move needs two laps)",
            Illegal::Endless => "its sowing would never end",
        })
    }
}

/// How a lap ends: where its last stone fell decides.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LapEnd {
    /// Into an occupied hole: its whole content is sown on from there.
    Relay,
    /// Into an empty middle hole whose file the opponent has empty and the mover not:
    /// the stone moves onto the mover's hole (a cell) and that hole is sown on.
    Transfer(usize),
    /// Into an empty middle hole whose file the opponent holds: his hole (a cell) is
    /// emptied off the board, with this many stones. The move ends.
    Capture(usize, u8),
    /// Into an empty hole otherwise: the stone leaves the board. The move ends.
    Removed,
}

/// One lap: the hole it was lifted from (a cell), the stones sown, the hole the last one
/// fell into (a cell), and what happened there.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Lap {
    /// The cell lifted (the move's hole for the first lap).
    pub from: usize,
    /// Stones sown.
    pub stones: u8,
    /// The cell the last stone fell into.
    pub last: usize,
    /// What happened there.
    pub end: LapEnd,
}

/// Laps a search's sowing may take before the move is left undecided
/// ([`Position::moves_decided`]): about 10 ms. Sowings that end take a few laps, and
/// on the source's board nearly every endless one is proven within a few thousand; a
/// few run on for billions of laps, neither ending nor proven endless.
pub const LAP_LIMIT: u64 = 1 << 20;

/// Why a sowing within a lap limit gives no move.
enum Unsown {
    /// The move is not legal.
    Illegal(Illegal),
    /// The limit came first.
    Undecided,
}

impl From<Illegal> for Unsown {
    fn from(illegal: Illegal) -> Unsown {
        Unsown::Illegal(illegal)
    }
}

/// What a legal move does: the board afterwards (still in the mover's order, before it
/// is turned round for the next mover) and the stones it took off the board.
struct Sown {
    cells: [u8; MAX_CELLS],
    removed: u8,
}

impl Position {
    /// The start of a board of `holes` holes a row (1..=[`MAX_HOLES`]) with `stones`
    /// in every hole, South to move; `None` beyond the limits.
    pub fn start(holes: usize, stones: u32) -> Option<Position> {
        if !(1..=MAX_HOLES).contains(&holes) || 3 * holes as u64 * u64::from(stones) > MAX_STONES.into() {
            return None;
        }
        let mut cells = [0; MAX_CELLS];
        cells[..3 * holes].fill(stones as u8);
        Some(Position { cells, holes: holes as u8, to_move: Side::South })
    }

    /// The stones a hole if this is a start (every hole alike and not empty, South to
    /// move), however it was asked for.
    pub fn start_stones(&self) -> Option<u32> {
        let first = u32::from(*self.cells().first()?);
        (first > 0 && Position::start(self.holes(), first).as_ref() == Some(self)).then_some(first)
    }

    /// A position from its cells in the mover's order (`3 × holes` of them) and its mover.
    /// The caller keeps the limits (holes 1..=[`MAX_HOLES`], at most [`MAX_STONES`]).
    pub fn from_cells(cells: &[u8], to_move: Side) -> Position {
        let mut all = [0; MAX_CELLS];
        all[..cells.len()].copy_from_slice(cells);
        Position { cells: all, holes: (cells.len() / 3) as u8, to_move }
    }

    /// The cells in the mover's circuit order.
    pub fn cells(&self) -> &[u8] {
        &self.cells[..3 * self.holes as usize]
    }

    /// Holes a row.
    pub fn holes(&self) -> usize {
        self.holes as usize
    }

    /// The player to move.
    pub fn to_move(&self) -> Side {
        self.to_move
    }

    /// Stones on the board.
    pub fn stones(&self) -> u32 {
        self.cells().iter().map(|&c| c as u32).sum()
    }

    /// The same board with the other player to move (the array turned round).
    pub fn turned(&self) -> Position {
        let n = 3 * self.holes as usize;
        let mut cells = [0; MAX_CELLS];
        for (i, &c) in self.cells[..n].iter().enumerate() {
            cells[n - 1 - i] = c;
        }
        Position { cells, holes: self.holes, to_move: self.to_move.other() }
    }

    /// The stones of the hole at `row` (0 South's, 1 middle, 2 North's) and `file`
    /// (1..=k from South's left), whoever moves.
    pub fn hole(&self, row: usize, file: usize) -> u8 {
        self.cells[self.cell_of(row, file)]
    }

    /// The cell (in this position's order) of the hole at `row` and `file`, as in
    /// [`Position::hole`].
    pub fn cell_of(&self, row: usize, file: usize) -> usize {
        let k = self.holes as usize;
        let (row, file) = match self.to_move {
            Side::South => (row, file),
            Side::North => (2 - row, k + 1 - file),
        };
        match row {
            0 => file - 1,
            1 => 2 * k - file,
            _ => 2 * k + file - 1,
        }
    }

    /// The name of a cell: its row (`S`, `M`, `N`) and file from South's left.
    pub fn cell_name(&self, cell: usize) -> String {
        let k = self.holes as usize;
        let (row, file) = if cell < k {
            (0, cell + 1)
        } else if cell < 2 * k {
            (1, 2 * k - cell)
        } else {
            (2, cell - 2 * k + 1)
        };
        let (row, file) = match self.to_move {
            Side::South => (row, file),
            Side::North => (2 - row, k + 1 - file),
        };
        format!("{}{file}", ['S', 'M', 'N'][row])
    }

    /// The board of the next rank of its tier (the composition after this one, cell 0
    /// most significant, as `encoding::WordIndex` ranks them), same player to move; `None`
    /// for the last. The last non-empty cell after the first gives one stone to the cell
    /// before it and the rest of its stones to the last cell.
    pub fn next_board(&self) -> Option<Position> {
        let n = 3 * self.holes as usize;
        let last = (1..n).rev().find(|&c| self.cells[c] > 0)?;
        let mut next = *self;
        let rest = next.cells[last] - 1;
        next.cells[last] = 0;
        next.cells[last - 1] += 1;
        next.cells[n - 1] += rest;
        Some(next)
    }

    /// The value of a position where the mover has no legal move (he loses), `None` where
    /// he has one.
    pub fn end(&self) -> Option<Value> {
        let legal = (0..self.holes as usize).any(|hole| self.sow(hole, None).is_ok());
        (!legal).then_some(Value::Loss(0))
    }

    /// The legal moves: the file (1..=k from the mover's left) and the position after it,
    /// the other player to move.
    pub fn moves(&self) -> impl Iterator<Item = (usize, Position)> + '_ {
        (0..self.holes as usize).filter_map(|hole| {
            let sown = self.sow(hole, None).ok()?;
            Some((hole + 1, self.after(sown)))
        })
    }

    /// [`Position::moves`] for a search that must spend bounded work on a position: the
    /// moves whose sowing ended within [`LAP_LIMIT`] laps, and whether every hole was
    /// decided (its sowing ended, or was proven endless, or the hole is empty or ends
    /// in one lap).
    pub fn moves_decided(&self) -> (Vec<(usize, Position)>, bool) {
        let mut decided = true;
        let moves = (0..self.holes as usize)
            .filter_map(|hole| match self.sow_within(hole, None, LAP_LIMIT) {
                Ok(sown) => Some((hole + 1, self.after(sown))),
                Err(Unsown::Undecided) => {
                    decided = false;
                    None
                }
                Err(Unsown::Illegal(_)) => None,
            })
            .collect();
        (moves, decided)
    }

    /// [`Position::end`] within [`LAP_LIMIT`] laps a hole: `None` also where no hole's
    /// sowing ended but some was not decided.
    pub fn end_decided(&self) -> Option<Value> {
        let mut decided = true;
        for hole in 0..self.holes as usize {
            match self.sow_within(hole, None, LAP_LIMIT) {
                Ok(_) => return None,
                Err(Unsown::Undecided) => decided = false,
                Err(Unsown::Illegal(_)) => {}
            }
        }
        decided.then_some(Value::Loss(0))
    }

    /// The position after a sowing, the other player to move.
    fn after(&self, sown: Sown) -> Position {
        Position { cells: sown.cells, holes: self.holes, to_move: self.to_move }.turned()
    }

    /// The laps of the move from `file` (1..=k from the mover's left), or why it is not
    /// legal (a file off the board has no stones: [`Illegal::Empty`]); also the stones it
    /// takes off the board.
    pub fn laps(&self, file: usize) -> Result<(Vec<Lap>, u8), Illegal> {
        if !(1..=self.holes as usize).contains(&file) {
            return Err(Illegal::Empty);
        }
        let mut laps = Vec::new();
        let sown = self.sow(file - 1, Some(&mut laps))?;
        Ok((laps, sown.removed))
    }

    /// Sows the mover's hole `hole` (a cell of his row), noting each lap in `trace`.
    ///
    /// The sowing is a deterministic walk over states "board, hole about to be lifted"
    /// taken at the start of each lap; stones only move inside the circuit until the move
    /// ends, so there are finitely many, and a sowing that does not end repeats one.
    /// Brent's method finds the repetition exactly with one saved state: the state at
    /// lap 2^i is kept and compared with every later lap up to 2^(i+1).
    ///
    /// States are compared as seen from the hole about to be lifted (the circuit read
    /// from there round), because endless sowings on many stones are nearly always laps
    /// that each end in an occupied hole, and such a relay depends on nothing but which
    /// holes are occupied: it looks the same from anywhere on the circuit. So if a state
    /// comes back turned round the circuit and every lap in between was a relay, the
    /// laps that follow repeat those laps turned round, relays again, for ever. That
    /// proves the sowing endless in a window 2k times shorter than the state's own
    /// return, which on the source's board is billions of laps. A state that comes back
    /// unturned proves it whatever the laps were; a turned one after a transfer proves
    /// nothing (a transfer depends on the rows) and the walk goes on.
    fn sow(&self, hole: usize, trace: Option<&mut Vec<Lap>>) -> Result<Sown, Illegal> {
        // No sowing runs 2^64 laps (centuries at a lap a nanosecond): without a limit the
        // walk ends only as a move or proven endless.
        self.sow_within(hole, trace, u64::MAX).map_err(|unsown| match unsown {
            Unsown::Illegal(illegal) => illegal,
            Unsown::Undecided => Illegal::Endless,
        })
    }

    /// [`Position::sow`], giving up after `limit` laps.
    fn sow_within(&self, hole: usize, mut trace: Option<&mut Vec<Lap>>, limit: u64) -> Result<Sown, Unsown> {
        let k = self.holes as usize;
        let circuit = 2 * k;
        let mut cells = self.cells;
        if cells[hole] == 0 {
            return Err(Illegal::Empty.into());
        }
        let mut from = hole;
        let mut laps = 0u64;
        let mut transfers = 0u64;
        let mut saved = SavedLap::NONE;
        // Most moves end within a few laps: the first state is saved at lap 8, which
        // finds the same cycles (Brent's windows only start later).
        let mut next_save = 8u64;
        loop {
            if laps == limit {
                return Err(Unsown::Undecided);
            }
            if laps == next_save {
                saved = SavedLap::of(&cells[..circuit], from, transfers);
                next_save *= 2;
            } else if saved.returns(&cells[..circuit], from, transfers) {
                return Err(Illegal::Endless.into());
            }
            laps += 1;
            let stones = cells[from];
            cells[from] = 0;
            // Whole rounds of the circuit first, one stone a hole, then the rest.
            let rounds = stones as usize / circuit;
            if rounds > 0 {
                for c in &mut cells[..circuit] {
                    *c += rounds as u8;
                }
            }
            let mut at = from;
            for _ in 0..stones as usize % circuit {
                at += 1;
                if at == circuit {
                    at = 0;
                }
                cells[at] += 1;
            }
            let end = if cells[at] > 1 {
                LapEnd::Relay
            } else if at < k {
                LapEnd::Removed
            } else {
                let own = circuit - 1 - at;
                let opponent = circuit + own;
                if cells[opponent] > 0 {
                    LapEnd::Capture(opponent, cells[opponent])
                } else if cells[own] > 0 {
                    LapEnd::Transfer(own)
                } else {
                    LapEnd::Removed
                }
            };
            if let Some(trace) = trace.as_deref_mut() {
                trace.push(Lap { from, stones, last: at, end });
            }
            match end {
                LapEnd::Relay => from = at,
                LapEnd::Transfer(own) => {
                    cells[at] = 0;
                    cells[own] += 1;
                    from = own;
                    transfers += 1;
                }
                LapEnd::Capture(..) | LapEnd::Removed if laps == 1 => return Err(Illegal::OneLap.into()),
                LapEnd::Capture(opponent, removed) => {
                    cells[opponent] = 0;
                    return Ok(Sown { cells, removed });
                }
                LapEnd::Removed => {
                    cells[at] = 0;
                    return Ok(Sown { cells, removed: 1 });
                }
            }
        }
    }
}

/// The state of a sowing at the start of a saved lap, read round the circuit from the
/// hole about to be lifted ([`Position::sow`] says why), and the transfers made so far.
struct SavedLap {
    seen_from_lifted: [u8; 2 * MAX_HOLES],
    from: usize,
    transfers: u64,
}

impl SavedLap {
    /// Nothing saved yet: no state returns to it (no lap lifts this hole).
    const NONE: SavedLap = SavedLap { seen_from_lifted: [0; 2 * MAX_HOLES], from: usize::MAX, transfers: 0 };

    fn of(circuit: &[u8], from: usize, transfers: u64) -> SavedLap {
        let mut seen_from_lifted = [0; 2 * MAX_HOLES];
        let (before, after) = circuit.split_at(from);
        seen_from_lifted[..after.len()].copy_from_slice(after);
        seen_from_lifted[after.len()..circuit.len()].copy_from_slice(before);
        SavedLap { seen_from_lifted, from, transfers }
    }

    /// Whether the sowing, now at this state, is proven endless by the saved one.
    fn returns(&self, circuit: &[u8], from: usize, transfers: u64) -> bool {
        if self.from == usize::MAX || circuit[from] != self.seen_from_lifted[0] {
            return false;
        }
        let (before, after) = circuit.split_at(from);
        let seen = &self.seen_from_lifted[..circuit.len()];
        let turned = seen[..after.len()] == *after && seen[after.len()..] == *before;
        turned && (from == self.from || transfers == self.transfers)
    }
}
