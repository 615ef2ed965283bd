//! Kalah's text notation and board picture.
//!
//! `<South's pits>/<North's pits> <South's store>-<North's store> <side to move>`, each
//! row from its owner's pit 1 (his leftmost as he faces the board), pits separated by
//! commas; the side is `S` or `N`. The start of Kalah(6,4) is
//! `4,4,4,4,4,4/4,4,4,4,4,4 0-0 S`. `Position`'s `Display` writes this notation.

use super::board::{Position, PositionError, Side};
use thiserror::Error;

/// Why a text is not a Kalah position in the notation.
#[derive(Debug, Error, PartialEq, Eq)]
pub enum NotationError {
    /// Not pits, stores and side to move separated by white space.
    #[error(
        "expected `<South pits>/<North pits> <South store>-<North store> <S|N>`, \
         e.g. `4,4,4,4,4,4/4,4,4,4,4,4 0-0 S`; got {0:?}"
    )]
    Shape(String),
    /// The side to move is neither `S` nor `N`.
    #[error("side to move must be `S` (South) or `N` (North), not {0:?}")]
    Side(String),
    /// A pit's text is not a seed count of 0 to 255.
    #[error("{row}'s pit {pit}: {text:?} is not a number of seeds (0 to 255)")]
    Pit {
        /// Whose row: `South` or `North`.
        row: &'static str,
        /// The pit, 1 to `m` from its owner's left.
        pit: usize,
        /// What was written there.
        text: String,
    },
    /// The stores are not two numbers written `<South>-<North>`.
    #[error("stores must be written `<South>-<North>` with two numbers, e.g. `0-0`; got {0:?}")]
    Stores(String),
    /// The text reads, but the board it gives is not one this version plays.
    #[error(transparent)]
    Position(#[from] PositionError),
}

fn row(text: &str, name: &'static str) -> Result<Vec<u8>, NotationError> {
    text.split(',')
        .enumerate()
        .map(|(i, t)| {
            t.trim().parse::<u8>().map_err(|_| NotationError::Pit {
                row: name,
                pit: i + 1,
                text: crate::echo::excerpt(t),
            })
        })
        .collect()
}

/// A store's count: digits after an optional `+`, as `u16::from_str` reads them, but
/// as many as written (a count past `u32::MAX` reads as that).
fn store(text: &str) -> Option<u32> {
    let text = text.strip_prefix('+').unwrap_or(text);
    let digits = !text.is_empty() && text.bytes().all(|b| b.is_ascii_digit());
    digits.then(|| text.parse().unwrap_or(u32::MAX))
}

/// Reads a position in the notation above.
pub fn parse(text: &str) -> Result<Position, NotationError> {
    let parts: Vec<&str> = text.split_whitespace().collect();
    let [rows, stores, side] = parts[..] else {
        return Err(NotationError::Shape(crate::echo::excerpt(text)));
    };
    let (south, north) = rows.split_once('/').ok_or_else(|| NotationError::Shape(crate::echo::excerpt(text)))?;
    let (south, north) = (row(south, "South")?, row(north, "North")?);
    let stores_err = || NotationError::Stores(crate::echo::excerpt(stores));
    let (s, n) = stores.split_once('-').ok_or_else(stores_err)?;
    let [s, n] = [store(s).ok_or_else(stores_err)?, store(n).ok_or_else(stores_err)?];
    let (Ok(s16), Ok(n16)) = (u16::try_from(s), u16::try_from(n)) else {
        // A number, but beyond any game: named as such, not as a misspelling.
        let pits = south.iter().chain(&north).map(|&c| c as u32).sum();
        return Err(PositionError::GameSeeds { pits, stores: s.saturating_add(n) }.into());
    };
    let stores = [s16, n16];
    let side = match side {
        "S" | "s" => Side::South,
        "N" | "n" => Side::North,
        _ => return Err(NotationError::Side(crate::echo::excerpt(side))),
    };
    Ok(Position::new(&south, &north, stores, side)?)
}

/// The board as players see it from South's chair: North's row on top (North's pit 1 at
/// the right), North's store on the left, South's on the right, pit numbers outside.
pub fn picture(position: &Position) -> String {
    let m = position.pits();
    let cell = |s: u8| format!("{s:>3}");
    let mut out = String::new();
    let numbers: String = (1..=m).rev().map(|i| format!("{i:>3}")).collect();
    out.push_str(&format!("North  {numbers}\n"));
    let north: String = position.north().iter().rev().map(|&s| cell(s)).collect();
    out.push_str(&format!("[{:>3}]  {north}\n", position.stores()[1]));
    let south: String = position.south().iter().map(|&s| cell(s)).collect();
    out.push_str(&format!("       {south}  [{:>3}]\n", position.stores()[0]));
    let numbers: String = (1..=m).map(|i| format!("{i:>3}")).collect();
    out.push_str(&format!("South  {numbers}\n"));
    out.push_str(&format!("{} to move", position.to_move().name()));
    out
}
