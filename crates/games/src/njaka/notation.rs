//! The text notation of a Njaka position, and its picture.
//!
//! The holes counterclockwise from hole 1, separated by `,`, each its counters and its
//! owner, `s` (South) or `n` (North); then a space and the player to move, `S` or `N`.
//! The standard start on 4 holes with 2 counters each, and the advanced one:
//!
//! ```text
//!   2s,2s,2n,2n S
//!   2s,2n,2s,2n S
//! ```

use super::board::{Position, MAX_COUNTERS, MAX_HOLES};
use crate::side::Side;
use std::fmt;
use std::str::FromStr;
use thiserror::Error;

/// Why a text is not a Njaka position.
#[derive(Debug, Error, PartialEq, Eq)]
pub enum NotationError {
    /// Not holes and a player to move.
    #[error("expected `<holes> <S|N>`, each hole its counters and owner, e.g. `2s,2s,2n,2n S`; got {0:?}")]
    Shape(String),
    /// A player to move that is neither `S` nor `N`.
    #[error("the player to move is `S` (South) or `N` (North), not {0:?}")]
    Side(String),
    /// Holes this version does not build.
    #[error("{0} holes: boards here have an even number from 2 to {MAX_HOLES}")]
    Holes(usize),
    /// A hole that is not counters and an owner.
    #[error("hole {hole}: {text:?} is not counters and an owner (`3s`, `0n`)")]
    Hole {
        /// The hole, from 1.
        hole: usize,
        /// The text found there.
        text: String,
    },
    /// More counters than a board here holds.
    #[error("{0} counters on the board; a board here holds at most {MAX_COUNTERS}")]
    TooManyCounters(u128),
}

impl FromStr for Position {
    type Err = NotationError;

    fn from_str(text: &str) -> Result<Position, NotationError> {
        let mut parts = text.split_whitespace();
        let (Some(holes), Some(side), None) = (parts.next(), parts.next(), parts.next()) else {
            return Err(NotationError::Shape(crate::echo::excerpt(text)));
        };
        let to_move = match side {
            "S" | "s" => Side::South,
            "N" | "n" => Side::North,
            _ => return Err(NotationError::Side(crate::echo::excerpt(side))),
        };
        let holes: Vec<&str> = holes.split(',').collect();
        if !(2..=MAX_HOLES).contains(&holes.len()) || !holes.len().is_multiple_of(2) {
            return Err(NotationError::Holes(holes.len()));
        }
        let mut counts = Vec::with_capacity(holes.len());
        let mut south = 0u16;
        for (i, hole) in holes.iter().enumerate() {
            let bad = || NotationError::Hole { hole: i + 1, text: crate::echo::excerpt(hole) };
            let owner = hole.chars().last().ok_or_else(bad)?;
            let count: u64 = hole[..hole.len() - owner.len_utf8()].parse().map_err(|_| bad())?;
            // Either case, as the player to move is read.
            match owner {
                's' | 'S' => south |= 1 << i,
                'n' | 'N' => {}
                _ => return Err(bad()),
            }
            counts.push(count);
        }
        // Every hole counted before the limit is judged, so that the error says how many
        // the board holds; 12 counts of 64 bits cannot overflow 128.
        let total: u128 = counts.iter().map(|&c| u128::from(c)).sum();
        if total > u128::from(MAX_COUNTERS) {
            return Err(NotationError::TooManyCounters(total));
        }
        let cells: Vec<u8> = counts.iter().map(|&c| c as u8).collect();
        Ok(Position::new(&cells, south, to_move))
    }
}

impl fmt::Display for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, &c) in self.cells().iter().enumerate() {
            if i > 0 {
                f.write_str(",")?;
            }
            let owner = if self.owner(i) == Side::South { 's' } else { 'n' };
            write!(f, "{c}{owner}")?;
        }
        write!(f, " {}", self.to_move().letter())
    }
}

impl Position {
    /// The circle as a ring of two rows: holes 1 to h/2 along the bottom, left to right,
    /// then h/2 + 1 to h along the top, right to left (counterclockwise all round), each
    /// with its owner's letter, and the way counters are sown round it.
    pub fn picture(&self, direction: super::Direction) -> String {
        let h = self.holes();
        let cell = |i: usize| {
            let owner = if self.owner(i) == Side::South { 'S' } else { 'N' };
            format!("{:>3}{owner}", self.cells()[i])
        };
        let numbers = |range: Vec<usize>| range.iter().map(|i| format!("{:>4}", i + 1)).collect::<String>();
        let top: Vec<usize> = (h / 2..h).rev().collect();
        let bottom: Vec<usize> = (0..h / 2).collect();
        format!(
            "hole {}\n     {}\n     {}\nhole {}\n(counters and owner; sowing {})\n{} to move",
            numbers(top.clone()),
            top.iter().map(|&i| cell(i)).collect::<String>(),
            bottom.iter().map(|&i| cell(i)).collect::<String>(),
            numbers(bottom),
            if direction.clockwise() {
                "clockwise: bottom row right to left, top row left to right"
            } else {
                "counterclockwise: bottom row left to right, top row right to left"
            },
            self.to_move().name()
        )
    }
}
