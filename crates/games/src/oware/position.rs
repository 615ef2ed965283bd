//! A position of the target rule sets: the board seen from the player to move and the
//! stones each player has captured, with its text notation.

use crate::awari::{Board, BoardError};
use std::fmt;
use thiserror::Error;

/// The board from the mover's side, the stones he has captured (`mine`) and those his
/// opponent has (`theirs`). Within one game `theirs` follows from the others (every stone
/// is on the board or captured); it is kept to print and check positions without the game.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Position {
    /// The pits, the player to move's row first.
    pub board: Board,
    /// Stones the player to move has captured.
    pub mine: u8,
    /// Stones his opponent has captured.
    pub theirs: u8,
}

/// Why a text is not a Trysse or Wari position in the notation.
#[derive(Debug, Error, PartialEq, Eq)]
pub enum NotationError {
    /// Not pit counts and captured counts `<mover's>-<opponent's>` separated by white space.
    #[error("a position is `<pit counts> <mover's captures>-<opponent's captures>`, e.g. `3,3,3,3,3,3 0-0`")]
    Shape,
    /// The pit counts are not a board here.
    #[error(transparent)]
    Board(#[from] BoardError),
    /// Captured counts that are not two whole numbers of stones.
    #[error("`{0}` is not the captured counts `<mover's>-<opponent's>`, two whole numbers of stones (e.g. `0-0`)")]
    BadCount(String),
    /// More stones on the board and captured than the 48 a game here has.
    #[error("{0} stones in all; a game here has at most 48")]
    TooManyStones(u64),
}

impl Position {
    /// Stones on the board and captured.
    pub fn total(&self) -> u32 {
        self.board.stones() + self.mine as u32 + self.theirs as u32
    }
}

/// `2m` pit counts (commas or spaces, the mover's row first, counterclockwise), a space,
/// then the captured counts, the mover's first: `3,3,3,3,3,3 0-0`.
impl std::str::FromStr for Position {
    type Err = NotationError;

    fn from_str(text: &str) -> Result<Position, NotationError> {
        let (pits, captured) = text.trim().rsplit_once(char::is_whitespace).ok_or(NotationError::Shape)?;
        let (mine, theirs) = captured.split_once('-').ok_or(NotationError::Shape)?;
        let count = |word: &str| -> Result<u32, NotationError> {
            word.parse().map_err(|_| NotationError::BadCount(crate::echo::excerpt(captured)))
        };
        let board: Board = pits.parse()?;
        let (mine, theirs) = (count(mine)?, count(theirs)?);
        // The board and both captured counts, each counted in full before the limit is
        // judged, so that the error says how many the position holds.
        let total = u64::from(board.stones()) + u64::from(mine) + u64::from(theirs);
        if total > u64::from(crate::awari::START_STONES) {
            return Err(NotationError::TooManyStones(total));
        }
        Ok(Position { board, mine: mine as u8, theirs: theirs as u8 })
    }
}

impl fmt::Display for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {}-{}", self.board, self.mine, self.theirs)
    }
}
