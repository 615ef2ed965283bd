//! THI` positions: stacks of counters on an `n × n` board, and the side to move.
//!
//! A stack is one byte: its height in the high nibble and, in the low nibble, one bit per
//! counter from the bottom up, set for a Black counter:
//!
//! ```text
//!   bit  7 6 5 4 | 3 2 1 0
//!        0 height| c3 c2 c1 c0      c0 = bottom counter, 1 = Black
//!   "wwb" (White, White, Black from the bottom) = 0b0011_0100
//! ```
//!
//! Squares are numbered row by row from White's side: square `row · n + file`, row 0 being
//! White's first row (row 1 in the notation) and file 0 the a-file.

use std::fmt;

/// Largest board side the position type holds (9×9, the largest board the article names).
pub const MAX_SIZE: usize = 9;
/// Squares of the largest board: the slots of a position's square array.
pub const MAX_SQUARES: usize = MAX_SIZE * MAX_SIZE;

/// Tallest mixed stack; a one-colour stack holds at most `MAX_SINGLE`.
pub const MAX_MIXED: u8 = 4;
/// Tallest one-colour stack.
pub const MAX_SINGLE: u8 = 3;

/// A player, and the colour of his counters.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Colour {
    /// The player whose first row is row 1; he moves first.
    White,
    /// The player whose first row is row `n`, facing White.
    Black,
}

impl Colour {
    /// The opponent.
    pub fn other(self) -> Colour {
        match self {
            Colour::White => Colour::Black,
            Colour::Black => Colour::White,
        }
    }

    /// 0 for White, 1 for Black: the player's slot in per-player arrays.
    pub fn index(self) -> usize {
        self as usize
    }

    /// `White` or `Black`, as messages write it.
    pub fn name(self) -> &'static str {
        match self {
            Colour::White => "White",
            Colour::Black => "Black",
        }
    }

    /// The letter of a counter of this colour in the notation.
    pub fn letter(self) -> char {
        match self {
            Colour::White => 'w',
            Colour::Black => 'b',
        }
    }
}

/// A stack of counters, bottom to top (see the module documentation for the byte).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct Stack(u8);

impl Stack {
    /// An empty square: no counter.
    pub const EMPTY: Stack = Stack(0);

    /// Counters in the stack, of both colours.
    pub fn height(self) -> u8 {
        self.0 >> 4
    }

    /// Whether the square holds no counter.
    pub fn is_empty(self) -> bool {
        self.0 == 0
    }

    fn colour_bits(self) -> u8 {
        self.0 & 0x0f
    }

    /// The `i`-th counter from the bottom.
    pub fn counter(self, i: u8) -> Colour {
        if self.colour_bits() >> i & 1 == 1 {
            Colour::Black
        } else {
            Colour::White
        }
    }

    /// The owner of the stack: the colour of its top counter.
    pub fn top(self) -> Option<Colour> {
        (!self.is_empty()).then(|| self.counter(self.height() - 1))
    }

    /// Counters of `colour` in the stack.
    pub fn count(self, colour: Colour) -> u8 {
        let black = (self.colour_bits() & ((1u8 << self.height()) - 1)).count_ones() as u8;
        match colour {
            Colour::Black => black,
            Colour::White => self.height() - black,
        }
    }

    /// Whether the stack obeys the height limits (3 of one colour, 4 mixed).
    pub fn is_legal(self) -> bool {
        let h = self.height();
        h <= MAX_MIXED && (h <= MAX_SINGLE || (self.count(Colour::White) > 0 && self.count(Colour::Black) > 0))
    }

    /// The stack with `colour` added on top, if the limits allow it.
    #[inline]
    pub fn push(self, colour: Colour) -> Option<Stack> {
        // Looked up: move generation pushes a counter at every step of every walk.
        match PUSHED[self.0 as usize][colour as usize] {
            0 => None,
            byte => Some(Stack(byte)),
        }
    }

    /// The stack without its top counter, and that counter.
    pub fn pop(self) -> Option<(Stack, Colour)> {
        let top = self.top()?;
        let h = self.height() - 1;
        Some((Stack((h << 4) | (self.colour_bits() & ((1 << h) - 1))), top))
    }

    /// The same stack with every counter's colour swapped.
    pub fn swapped(self) -> Stack {
        let h = self.height();
        Stack((h << 4) | (!self.colour_bits() & ((1 << h) - 1)))
    }

    /// A stack from its counters, bottom first, if it obeys the limits.
    pub fn from_counters(counters: &[Colour]) -> Option<Stack> {
        counters.iter().try_fold(Stack::EMPTY, |s, &c| s.push(c))
    }

    /// Every legal stack, the empty one first.
    pub fn all() -> Vec<Stack> {
        let mut out = vec![Stack::EMPTY];
        for h in 1..=MAX_MIXED {
            for bits in 0..(1u8 << h) {
                let s = Stack((h << 4) | bits);
                if s.is_legal() {
                    out.push(s);
                }
            }
        }
        out
    }

    /// The stack's byte (height and colours, see the module comment): a key for look-up tables.
    pub fn byte(self) -> u8 {
        self.0
    }
}

impl fmt::Display for Stack {
    /// Counters bottom to top as `w`/`b` letters; `-` for an empty square.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_empty() {
            return f.write_str("-");
        }
        for i in 0..self.height() {
            write!(f, "{}", self.counter(i).letter())?;
        }
        Ok(())
    }
}

/// Per stack byte and colour (White, Black): the byte of the stack with a counter of that
/// colour pushed on top, or 0 where the limits forbid it (no push gives the empty stack).
static PUSHED: [[u8; 2]; 256] = pushed();

const fn pushed() -> [[u8; 2]; 256] {
    let mut table = [[0u8; 2]; 256];
    let mut byte = 0;
    while byte < 256 {
        let (h, bits) = ((byte >> 4) as u8, (byte & 0x0f) as u8);
        let mut black = 0;
        while h < MAX_MIXED && black < 2 {
            let next_bits = bits | ((black as u8) << h);
            let blacks = (next_bits & ((1u8 << (h + 1)) - 1)).count_ones() as u8;
            let whites = h + 1 - blacks;
            // At most three of one colour alone; four only when both colours are there.
            let legal = h < MAX_SINGLE || (blacks > 0 && whites > 0);
            if legal {
                table[byte][black] = ((h + 1) << 4) | next_bits;
            }
            black += 1;
        }
        byte += 1;
    }
    table
}

/// Per stack byte: its White counters, and its Black ones times 2^16 (a board's sum
/// keeps them apart).
static COUNTED: [u32; 256] = counted();

const fn counted() -> [u32; 256] {
    let mut table = [0u32; 256];
    let mut byte = 0;
    while byte < 256 {
        let (h, bits) = ((byte >> 4) as u32, (byte & 0x0f) as u32);
        let blacks = (bits & ((1u32 << h) - 1)).count_ones();
        table[byte] = (h - blacks) | blacks << 16;
        byte += 1;
    }
    table
}

/// A board and the side to move.
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Position {
    size: u8,
    squares: [Stack; MAX_SQUARES],
    to_move: Colour,
}

impl Position {
    /// An empty board of side `size` (3..=9) with `to_move` to move.
    pub fn empty(size: usize, to_move: Colour) -> Position {
        assert!((3..=MAX_SIZE).contains(&size), "board side {size} outside 3..={MAX_SIZE}");
        Position { size: size as u8, squares: [Stack::EMPTY; MAX_SQUARES], to_move }
    }

    /// Squares a side of the board: `n` of `n × n`.
    pub fn size(&self) -> usize {
        self.size as usize
    }

    /// The player whose turn it is.
    pub fn to_move(&self) -> Colour {
        self.to_move
    }

    /// Hands the turn to `colour`, the board unchanged.
    pub fn set_to_move(&mut self, colour: Colour) {
        self.to_move = colour;
    }

    /// The squares in use, `row · n + file`.
    pub fn squares(&self) -> &[Stack] {
        &self.squares[..self.size() * self.size()]
    }

    /// The stack on `square` (`row · n + file`); empty if no counter stands there.
    pub fn stack(&self, square: usize) -> Stack {
        self.squares[square]
    }

    /// Puts `stack` on `square`, replacing what stood there.
    pub fn set(&mut self, square: usize, stack: Stack) {
        self.squares[square] = stack;
    }

    /// Counters of `colour` on the board.
    pub fn count(&self, colour: Colour) -> u32 {
        self.squares().iter().map(|s| s.count(colour) as u32).sum()
    }

    /// Counters of each colour on the board (White's, Black's), in one pass.
    pub fn counts(&self) -> [u32; 2] {
        let counted: u32 = self.squares().iter().map(|s| COUNTED[s.0 as usize]).sum();
        [counted & 0xffff, counted >> 16]
    }

    /// The row on which counters of `colour` are borne off: the opponent's first row.
    pub fn bear_off_row(&self, colour: Colour) -> usize {
        match colour {
            Colour::White => self.size() - 1,
            Colour::Black => 0,
        }
    }

    /// The first square (in square order) holding a counter on its bear-off row, if any:
    /// such a position cannot arise in play.
    pub fn misplaced_counter(&self) -> Option<usize> {
        let n = self.size();
        (0..n * n).find(|&sq| self.misplaced(sq, self.squares[sq]))
    }

    /// Whether `stack` on `square` would hold a counter on the row where its colour is
    /// borne off.
    pub fn misplaced(&self, square: usize, stack: Stack) -> bool {
        let row = square / self.size();
        (row == self.bear_off_row(Colour::White) && stack.count(Colour::White) > 0)
            || (row == self.bear_off_row(Colour::Black) && stack.count(Colour::Black) > 0)
    }

    /// The board turned half round with every colour swapped, and the other side to
    /// move: the same game seen from the other player's chair.
    pub fn turned(&self) -> Position {
        let cells = self.size() * self.size();
        let mut out = Position::empty(self.size(), self.to_move.other());
        for sq in 0..cells {
            out.squares[cells - 1 - sq] = self.squares[sq].swapped();
        }
        out
    }

    /// The board mirrored left to right.
    pub fn mirrored(&self) -> Position {
        let n = self.size();
        let mut out = Position::empty(n, self.to_move);
        for row in 0..n {
            for file in 0..n {
                out.squares[row * n + n - 1 - file] = self.squares[row * n + file];
            }
        }
        out
    }

    /// Name of a square: file letter and row number, e.g. `b1`.
    pub fn square_name(&self, square: usize) -> String {
        let n = self.size();
        format!("{}{}", (b'a' + (square % n) as u8) as char, square / n + 1)
    }

    /// A picture of the board for a terminal, Black's side at the top.
    pub fn picture(&self) -> String {
        let n = self.size();
        let mut out = String::from("   ");
        for file in 0..n {
            out.push_str(&format!("   {}  ", (b'a' + file as u8) as char));
        }
        out.push('\n');
        for row in (0..n).rev() {
            out.push_str(&format!("{:>2} ", row + 1));
            for file in 0..n {
                let s = self.squares[row * n + file];
                let text = if s.is_empty() { String::from(".") } else { s.to_string() };
                out.push_str(&format!("[{text:<4}]"));
            }
            out.push('\n');
        }
        out.push_str("   stacks read bottom to top; the last letter owns the stack\n");
        out.push_str(&format!("   {} to move", self.to_move.name()));
        out
    }
}

impl fmt::Display for Position {
    /// The notation: rows from the top (Black's first row) down, separated by `/`; the
    /// squares of a row from the a-file, separated by `,`; each square `-` or its
    /// counters bottom to top as `w`/`b`; then a space and the side to move, `w` or `b`.
    /// The TRIAS start is `bbb,bbb,bbb/-,-,-/www,www,www w`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let n = self.size();
        for row in (0..n).rev() {
            for file in 0..n {
                write!(f, "{}", self.squares[row * n + file])?;
                if file + 1 < n {
                    f.write_str(",")?;
                }
            }
            if row > 0 {
                f.write_str("/")?;
            }
        }
        write!(f, " {}", self.to_move.letter())
    }
}

impl fmt::Debug for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn there_are_29_legal_stacks() {
        assert_eq!(Stack::all().len(), 29);
    }

    #[test]
    fn limits() {
        use Colour::*;
        assert!(Stack::from_counters(&[White, White, White]).is_some());
        assert!(Stack::from_counters(&[White, White, White, White]).is_none());
        assert!(Stack::from_counters(&[White, White, White, Black]).is_some());
        assert!(Stack::from_counters(&[Black, White, White, Black, White]).is_none());
    }

    #[test]
    fn pushing_keeps_the_limits() {
        for s in Stack::all() {
            for colour in [Colour::White, Colour::Black] {
                let h = s.height();
                let expected = (h < MAX_MIXED)
                    .then(|| Stack(((h + 1) << 4) | s.colour_bits() | if colour == Colour::Black { 1 << h } else { 0 }))
                    .filter(|next| next.is_legal());
                assert_eq!(s.push(colour), expected, "{s} + {colour:?}");
            }
        }
    }

    #[test]
    fn push_pop_swap() {
        use Colour::*;
        let s = Stack::from_counters(&[White, Black, White]).unwrap();
        assert_eq!(s.to_string(), "wbw");
        assert_eq!(s.top(), Some(White));
        assert_eq!(s.count(White), 2);
        let (rest, top) = s.pop().unwrap();
        assert_eq!((rest.to_string(), top), ("wb".to_string(), White));
        assert_eq!(s.swapped().to_string(), "bwb");
        assert_eq!(Stack::EMPTY.pop(), None);
    }
}
