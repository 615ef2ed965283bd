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

/// `ROW_MASKS[k]`: the low `k` bytes of a 64-bit word set (a row of `k` cells).
const ROW_MASKS: [u64; MAX_PITS + 1] = {
    let mut masks = [0u64; MAX_PITS + 1];
    let mut k = 1;
    while k <= MAX_PITS {
        masks[k] = u64::MAX >> (64 - 8 * k);
        k += 1;
    }
    masks
};

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

    /// Every cell as one number, cell 0 lowest, the cells past `2m` zero: a key for
    /// hashing read in one load (copying the `2m` cells of a length known only at run
    /// time called `memcpy` in the search's inner loop).
    pub fn word(&self) -> u128 {
        u128::from_le_bytes(self.cells)
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
    ///
    /// The board's word summed a byte lane at a time (the cells past `2m` are zero): the
    /// search asks every child's seeds for its tier and its bounds, and a loop over a row
    /// of a length known only at run time was a tenth of its instructions.
    #[inline]
    pub fn seeds(&self) -> u32 {
        const EVEN_BYTES: u64 = 0x00ff_00ff_00ff_00ff;
        let word = self.word();
        let (lo, hi) = (word as u64, (word >> 64) as u64);
        // Four 16-bit lanes, each the sum of four cells (at most 1,020), then the lanes.
        let lanes = (lo & EVEN_BYTES) + (lo >> 8 & EVEN_BYTES) + (hi & EVEN_BYTES) + (hi >> 8 & EVEN_BYTES);
        (lanes.wrapping_mul(0x0001_0001_0001_0001) >> 48) as u32
    }

    /// The same pits seen from the other player.
    ///
    /// The rows are swapped as two 64-bit words (little-endian: cell 0 lowest): copying
    /// rows of a length known only at run time called `memcpy` twice, in the inner loop
    /// of every table build and search.
    pub fn swapped(&self) -> Board {
        Board { m: self.m, cells: join_rows(self.row(self.m as usize), self.row(0), self.m as usize) }
    }

    /// The row of `m` cells from cell `from` (0 or `m`) as a word, cell `from` lowest.
    #[inline(always)]
    fn row(&self, from: usize) -> u64 {
        self.row_of(from, self.m as usize)
    }

    /// [`Board::row`] for rows of `m` cells, the board's own `m`: sowing is compiled for
    /// each common `m`, which then folds into the shifts and masks.
    #[inline(always)]
    fn row_of(&self, from: usize, m: usize) -> u64 {
        let bytes = self.cells[from..from + MAX_PITS].try_into().unwrap_or([0; 8]);
        u64::from_le_bytes(bytes) & ROW_MASKS[m]
    }

    /// The score still to be gained by the player to move if the game is over here.
    pub fn outcome(&self, rules: &Rules) -> Option<i16> {
        // Asked of every board a build or search meets: a row is tested empty as one word,
        // and the rows are counted only where the game is over.
        let (mine, theirs) = (self.row(0), self.row(self.m as usize));
        let over = match rules.end {
            End::SideEmpty => mine == 0 || theirs == 0,
            End::NoMove => mine == 0,
        };
        let seeds = |row: &[u8]| row.iter().map(|&s| s as i16).sum::<i16>();
        over.then(|| match rules.leftovers {
            Leftovers::Owner => seeds(self.mine()) - seeds(self.theirs()),
            Leftovers::None => 0,
        })
    }

    /// Sows the mover's pit `pit` (0-based from his left), or `None` if it is empty.
    /// Legality beyond that (`must_leave_move`) is [`Board::moves`]'s business.
    #[inline]
    pub fn sow(&self, rules: &Rules, pit: usize) -> Option<Sown> {
        let seeds = *self.cells.get(pit).filter(|_| pit < self.m as usize)?;
        (seeds > 0).then(|| self.sow_pile(rules, pit, seeds))
    }

    /// [`Board::sow`] of the mover's pit `pit`, which holds `seeds` > 0.
    ///
    /// Every table build and search sows billions of times, so the seeds are not dropped
    /// one by one: each row is a 64-bit word (cell 0 lowest), and the holes after the pit,
    /// in sowing order, get whole laps and then one run of one seed a hole:
    ///
    /// ```text
    ///   hole:  0 .. m−1 | m     | m+1 .. 2m        (then 0 again)
    ///          his pits | store | opponent's pits, his cells 0 .. m−1
    /// ```
    ///
    /// No byte is stored and read back as a word, which would stall the read.
    #[inline(always)]
    fn sow_pile(&self, rules: &Rules, pit: usize, seeds: u8) -> Sown {
        self.sow_pile_of(self.m as usize, rules, pit, seeds)
    }

    /// [`Board::sow_pile`] on rows of `m` cells, the board's own `m`.
    #[inline(always)]
    fn sow_pile_of(&self, m: usize, rules: &Rules, pit: usize, seeds: u8) -> Sown {
        let seeds = seeds as usize;
        let cycle = 2 * m + 1;
        // A lap that skips the emptied pit has one hole fewer.
        let skips = rules.skip_origin && seeds >= cycle;
        let lap = if skips { cycle - 1 } else { cycle };
        // Divisions are slow, and laps rare.
        let (laps, rest) = if seeds < lap { (0, seeds) } else { (seeds / lap, seeds % lap) };
        let origin = 0xFFu64 << (8 * pit);
        let each = laps as u64 * ONES[m];
        let mut mine = (self.row_of(0, m) & !origin) + if skips { each & !origin } else { each };
        let mut theirs = self.row_of(m, m) + each;
        let mut gain = laps as i16;
        // The rest, one a hole from the pit's right ([`RUNS`]).
        let before_store = m - 1 - pit;
        let (to_mine, to_theirs) = RUNS[m][pit][rest];
        mine += to_mine;
        theirs += to_theirs;
        if rest > before_store {
            gain += 1;
        }
        // At most one cycle past the pit.
        let last = pit + if rest > 0 { rest } else { lap };
        let last = if last >= cycle { last - cycle } else { last };
        let turn = if last == m { Turn::Keeps } else { Turn::Passes };
        if last < m && cell(mine, last) == 1 {
            // The last seed fell into a pit of the mover's row that was empty; the pit
            // facing it is the opponent's pit m−1−last.
            let opposite = m - 1 - last;
            let facing = cell(theirs, opposite) as i16;
            let (take_last, take_facing) = match rules.capture {
                Capture::Empty => (true, true),
                Capture::Standard => (facing > 0, facing > 0),
                Capture::OppositeOnly => (false, facing > 0),
            };
            if take_last {
                gain += 1;
                mine &= !(0xFF << (8 * last));
            }
            if take_facing {
                gain += facing;
                theirs &= !(0xFF << (8 * opposite));
            }
        }
        let (first, second) = match turn {
            Turn::Keeps => (mine, theirs),
            Turn::Passes => (theirs, mine),
        };
        Sown { board: Board { m: self.m, cells: join_rows(first, second, m) }, gain, turn, starves: theirs == 0 }
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
        if self.outcome(rules).is_none() {
            self.live_moves_into(rules, list);
        } else {
            list.len = 0;
        }
    }

    /// [`Board::moves_into`] for a board where the game goes on, which the caller knows
    /// (the search enters no other): the check is left out.
    pub fn live_moves_into(&self, rules: &Rules, list: &mut MoveList) {
        debug_assert!(self.outcome(rules).is_none(), "the game is over at {self}");
        list.len = 0;
        self.for_each_move(rules, |pit, sown| {
            list.items[list.len] = (pit as u8, sown);
            list.len += 1;
        });
    }

    /// Calls `f` with each legal move (pit 0-based, result), in pit order, of a board
    /// where the game goes on (the tables' engines ask only those; [`Board::moves_into`]
    /// checks).
    #[inline]
    pub fn for_each_move(&self, rules: &Rules, mut f: impl FnMut(usize, Sown)) {
        if !rules.must_leave_move {
            // Rows of 6 pits (Kalah's usual board) and of 4 and 5 compiled apart.
            match self.m {
                6 => self.each_move_of(6, rules, f),
                5 => self.each_move_of(5, rules, f),
                4 => self.each_move_of(4, rules, f),
                m => self.each_move_of(m as usize, rules, f),
            }
            return;
        }
        // A move that empties the opponent's row is legal only if every move does.
        let mut sown: [Option<Sown>; MAX_PITS] = [None; MAX_PITS];
        let mut feeds = false;
        for (pit, slot) in sown.iter_mut().enumerate().take(self.pits()) {
            *slot = self.sow(rules, pit);
            feeds |= slot.is_some_and(|s| !s.starves);
        }
        for (pit, s) in sown.into_iter().enumerate() {
            if let Some(s) = s.filter(|s| !(feeds && s.starves)) {
                f(pit, s);
            }
        }
    }

    /// [`Board::for_each_move`] without `must_leave_move`, on rows of `m` cells, the
    /// board's own `m`.
    #[inline(always)]
    fn each_move_of(&self, m: usize, rules: &Rules, mut f: impl FnMut(usize, Sown)) {
        for pit in 0..m {
            let seeds = self.cells[pit];
            if seeds > 0 {
                f(pit, self.sow_pile_of(m, rules, pit, seeds));
            }
        }
    }
}

/// The cells of two rows of `m` pits each given as a word (cell 0 lowest, bytes past `m`
/// empty): the second row starts at byte `m`, its low bytes joining the first word and
/// the rest making the second. Two shifts where one would do, as a shift by 64 bits
/// (`m` = 8) overflows; 64-bit shifts, as 128-bit ones by a count known only at run time
/// cost several instructions each, in the inner loop of the table builds.
#[inline(always)]
fn join_rows(first: u64, second: u64, m: usize) -> [u8; 2 * MAX_PITS] {
    let bits = 8 * m as u32;
    let low = first | (second << (bits - 1)) << 1;
    let high = second >> (64 - bits);
    (low as u128 | (high as u128) << 64).to_le_bytes()
}

/// `ONES[k]`: a seed in each of the low `k` cells of a row's word.
const ONES: [u64; MAX_PITS + 1] = {
    let mut ones = [0u64; MAX_PITS + 1];
    let mut k = 1;
    while k <= MAX_PITS {
        ones[k] = ones[k - 1] << 8 | 1;
        k += 1;
    }
    ones
};

/// One seed in each of `len` cells of a row's word from cell `from` (none if `len` is 0,
/// whatever `from`).
const fn run(from: usize, len: usize) -> u64 {
    ONES[len].wrapping_shl(8 * from as u32)
}

/// `RUNS[m][pit][rest]`: what `rest` seeds (fewer than a lap, `2m + 1` holes) sown one a
/// hole from the mover's pit `pit` add to his row's word and to the opponent's: along his
/// row, into his store (not in either word), along the opponent's row, and round into his
/// own row again, never as far as the pit. Looked up, as the three runs computed for each
/// move cost the search 2 % of its instructions.
static RUNS: [[[(u64, u64); 2 * MAX_PITS + 1]; MAX_PITS]; MAX_PITS + 1] = {
    let mut runs = [[[(0u64, 0u64); 2 * MAX_PITS + 1]; MAX_PITS]; MAX_PITS + 1];
    let mut m = 1;
    while m <= MAX_PITS {
        let mut pit = 0;
        while pit < m {
            let before_store = m - 1 - pit;
            let mut rest = 0;
            while rest <= 2 * m {
                let mut mine = run(pit + 1, if rest < before_store { rest } else { before_store });
                let mut theirs = 0;
                if rest > before_store + 1 {
                    let len = rest - before_store - 1;
                    theirs = run(0, if len < m { len } else { m });
                }
                if rest > before_store + 1 + m {
                    mine += run(0, rest - before_store - 1 - m);
                }
                runs[m][pit][rest] = (mine, theirs);
                rest += 1;
            }
            pit += 1;
        }
        m += 1;
    }
    runs
};

/// The seeds in cell `at` of a row's word.
#[inline(always)]
fn cell(row: u64, at: usize) -> u8 {
    (row >> (8 * at)) as u8
}

/// At most one move per pit, kept on the stack. The first `len` items are the moves; the
/// rest are stale or blank, never read (items are not `Option`s: the search walks this
/// list several times a node, and unwrapping each item cost it 13 % of its instructions).
#[derive(Clone, Copy, Debug)]
pub struct MoveList {
    len: usize,
    items: [(u8, Sown); MAX_PITS],
}

impl Default for MoveList {
    fn default() -> MoveList {
        let blank =
            Sown { board: Board { m: 0, cells: [0; 2 * MAX_PITS] }, gain: 0, turn: Turn::Passes, starves: false };
        MoveList { len: 0, items: [(0, blank); MAX_PITS] }
    }
}

impl MoveList {
    /// The moves as (pit 0-based, result).
    pub fn iter(&self) -> impl Iterator<Item = (usize, Sown)> + '_ {
        self.items().iter().map(|&(p, s)| (p as usize, s))
    }

    /// The moves as (pit 0-based, result), for loops that index them.
    pub fn items(&self) -> &[(u8, Sown)] {
        &self.items[..self.len]
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
    Seeds(u64),
    /// A start with no seeds in the pits.
    #[error("{0} seeds per pit: the game needs at least 1")]
    NoSeeds(u32),
    /// More seeds in the pits and stores together than the 255 a game here has: the
    /// stores only gain seeds from the pits, so a game is bounded by its total.
    #[error("{pits} seeds in the pits and {} in the stores: a game here has at most {MAX_SEEDS} in all", at_least(*.stores))]
    GameSeeds {
        /// Seeds in the pits.
        pits: u32,
        /// Seeds in both stores (`u32::MAX`: that many or more, as a count past it reads).
        stores: u32,
    },
}

/// A count that reads as `u32::MAX` when written larger, said so.
fn at_least(count: u32) -> String {
    if count == u32::MAX {
        format!("{count} or more")
    } else {
        count.to_string()
    }
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
            return Err(PositionError::Seeds(seeds.into()));
        }
        // Bounded so that a store, which only grows by seeds from the pits, never
        // overflows, and every margin fits the values the tables and search hold.
        let in_stores = stores[0] as u32 + stores[1] as u32;
        if seeds + in_stores > MAX_SEEDS {
            return Err(PositionError::GameSeeds { pits: seeds, stores: in_stores });
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
        // In 64 bits: any `n` the command line takes, times 16 pits, fits, so a huge
        // count is refused rather than wrapped to a small one.
        let seeds = 2 * m as u64 * u64::from(n);
        if seeds > MAX_SEEDS.into() {
            return Err(PositionError::Seeds(seeds));
        }
        let row = vec![n as u8; m];
        Position::new(&row, &row, [0, 0], Side::South)
    }

    /// The seeds a pit if this is the start of Kalah(m, n) (every pit alike, the stores
    /// empty, South to move), however it was asked for.
    pub fn start_seeds(&self) -> Option<u32> {
        let n = u32::from(*self.south().first()?);
        (Position::start(self.pits(), n).ok()? == *self).then_some(n)
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
