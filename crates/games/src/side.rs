//! The two players of the sowing games: South owns the bottom row and moves first.

/// A player of a two-row (or three-row) sowing game, as the board is drawn: South at the
/// bottom, North at the top.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub enum Side {
    /// Owns the bottom row; moves first.
    South,
    /// Owns the top row.
    North,
}

impl Side {
    /// The other player.
    pub fn other(self) -> Side {
        match self {
            Side::South => Side::North,
            Side::North => Side::South,
        }
    }

    /// `South` or `North`.
    pub fn name(self) -> &'static str {
        match self {
            Side::South => "South",
            Side::North => "North",
        }
    }

    /// The player's letter in notation: `S` or `N`.
    pub fn letter(self) -> char {
        match self {
            Side::South => 'S',
            Side::North => 'N',
        }
    }

    /// 0 for South, 1 for North.
    pub fn index(self) -> usize {
        self as usize
    }
}
