//! The text notation of a Trias position, and its picture.
//!
//! Three rows as South sees the board, top first: North's row, the middle row, South's
//! row, separated by `/`; each row the stones of its holes from South's left (file 1) to
//! his right, separated by `,`; then a space and the player to move, `S` or `N`. The
//! start of the 3×4 board with 2 stones a hole, South to move:
//!
//! ```text
//!   2,2,2,2/2,2,2,2/2,2,2,2 S
//! ```

use super::board::{Position, Side, MAX_HOLES, MAX_STONES};
use std::fmt;
use std::str::FromStr;
use thiserror::Error;

/// Why a text is not a Trias position.
#[derive(Debug, Error, PartialEq, Eq)]
pub enum NotationError {
    /// Not three rows and a player to move.
    #[error("expected `<north>/<middle>/<south> <S|N>`, e.g. `2,2,2/2,2,2/2,2,2 S`; got {0:?}")]
    Shape(String),
    /// A player to move that is neither `S` nor `N`.
    #[error("the player to move is `S` (South) or `N` (North), not {0:?}")]
    Side(String),
    /// Not three rows.
    #[error("a Trias board has three rows (North's, the middle, South's), not {0}")]
    Rows(usize),
    /// Rows of different lengths.
    #[error("the {row} row has {found} holes, the first row {expected}: every row has the same")]
    RowLength {
        /// The row.
        row: &'static str,
        /// Holes of this row.
        found: usize,
        /// Holes of the first row.
        expected: usize,
    },
    /// Holes a row this version does not build.
    #[error("{0} holes a row: boards here have 1 to {MAX_HOLES}")]
    Holes(usize),
    /// A hole that is not a number of stones.
    #[error("the {row} row, file {file}: {text:?} is not a number of stones")]
    Count {
        /// The row.
        row: &'static str,
        /// The file, from South's left.
        file: usize,
        /// The text found there.
        text: String,
    },
    /// More stones than a board here holds.
    #[error("{0} stones on the board; a board here holds at most {MAX_STONES}")]
    TooManyStones(u128),
}

const ROW_NAMES: [&str; 3] = ["North's", "middle", "South's"];

impl FromStr for Position {
    type Err = NotationError;

    fn from_str(text: &str) -> Result<Position, NotationError> {
        let mut parts = text.split_whitespace();
        let (Some(rows), Some(side), None) = (parts.next(), parts.next(), parts.next()) else {
            return Err(NotationError::Shape(crate::echo::excerpt(text)));
        };
        let to_move = match side {
            "S" | "s" => Side::South,
            "N" | "n" => Side::North,
            _ => return Err(NotationError::Side(crate::echo::excerpt(side))),
        };
        let rows: Vec<&str> = rows.split('/').collect();
        if rows.len() != 3 {
            return Err(NotationError::Rows(rows.len()));
        }
        let k = rows[0].split(',').count();
        if !(1..=MAX_HOLES).contains(&k) {
            return Err(NotationError::Holes(k));
        }
        // Rows top to bottom: North's (row 2), middle (1), South's (0).
        let mut counts = [[0u64; MAX_HOLES]; 3];
        for (i, text) in rows.iter().enumerate() {
            let row = ROW_NAMES[i];
            let holes: Vec<&str> = text.split(',').collect();
            if holes.len() != k {
                return Err(NotationError::RowLength { row, found: holes.len(), expected: k });
            }
            for (f, hole) in holes.iter().enumerate() {
                counts[2 - i][f] = hole.parse().map_err(|_| NotationError::Count {
                    row,
                    file: f + 1,
                    text: crate::echo::excerpt(hole),
                })?;
            }
        }
        // Every hole counted before the limit is judged, so that the error says how many
        // the board holds; 36 counts of 64 bits cannot overflow 128.
        let total: u128 = counts.iter().flatten().map(|&c| u128::from(c)).sum();
        if total > u128::from(MAX_STONES) {
            return Err(NotationError::TooManyStones(total));
        }
        let counts = counts.map(|row| row.map(|c| c as u8));
        // Laid out for South, then turned round if North moves.
        let mut cells = vec![0u8; 3 * k];
        for f in 0..k {
            cells[f] = counts[0][f];
            cells[2 * k - 1 - f] = counts[1][f];
            cells[2 * k + f] = counts[2][f];
        }
        let south = Position::from_cells(&cells, Side::South);
        Ok(if to_move == Side::South { south } else { south.turned() })
    }
}

impl fmt::Display for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let k = self.holes();
        for row in (0..3).rev() {
            for file in 1..=k {
                if file > 1 {
                    f.write_str(",")?;
                }
                write!(f, "{}", self.hole(row, file))?;
            }
            if row > 0 {
                f.write_str("/")?;
            }
        }
        write!(f, " {}", self.to_move().letter())
    }
}

impl Position {
    /// The board as South sees it, rows labelled, files numbered, the player to move
    /// marked.
    pub fn picture(&self) -> String {
        let k = self.holes();
        let width = (1..=k).flat_map(|f| (0..3).map(move |r| (r, f))).map(|(r, f)| self.hole(r, f)).max().unwrap_or(0);
        let width = width.to_string().len().max(k.to_string().len()) + 1;
        let mut out = String::from("  ");
        for file in 1..=k {
            out.push_str(&format!("{file:>width$}"));
        }
        for (row, label) in [(2, 'N'), (1, 'M'), (0, 'S')] {
            out.push_str(&format!("\n{label} "));
            for file in 1..=k {
                out.push_str(&format!("{:>width$}", self.hole(row, file)));
            }
            let side = if row == 2 { super::board::Side::North } else { super::board::Side::South };
            if row != 1 && self.to_move() == side {
                out.push_str(&format!("   <- {} to move", side.name()));
            }
        }
        out
    }
}
