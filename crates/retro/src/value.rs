//! The value of a position for the player to move: a win or loss with the number of plies
//! to the end under perfect play (the winner hurries, the loser delays), or a draw.

use crate::game::Engine;
use crate::table::ValueEncoding;
use std::cmp::Ordering;
use std::fmt;

/// A kind of value the tables can hold, for the player to move: an outcome with distance
/// ([`Value`]) or a score (`i16`: the difference still to be gained by the mover). Its
/// order is the mover's preference: he takes the greatest.
pub trait TableValue: Copy + Ord + fmt::Debug + fmt::Display + Send + Sync + 'static {
    /// How the value is coded in table files.
    const ENCODING: ValueEncoding;
    /// The engine that solves a tier of this kind unless the game chooses another.
    const ENGINE: Engine;
    /// What play that never ends is worth: a draw, or a score of 0.
    const ENDLESS: Self;
    /// Table code.
    fn code(self) -> u16;
    /// Inverse of [`TableValue::code`].
    fn from_code(code: u16) -> Self;
    /// A move's worth to its mover, given `child`, the value of the position it leads
    /// to, the score it banks at once and who moves next.
    fn worth(child: Self, gain: i16, turn: Turn) -> Self;
    /// Whether the value is a win (`Greater`), a draw (`Equal`) or a loss (`Less`) for
    /// the player to move.
    fn sign(self) -> Ordering;
}

impl TableValue for Value {
    const ENCODING: ValueEncoding = ValueEncoding::OutcomeDistance;
    const ENGINE: Engine = Engine::Outcome;
    const ENDLESS: Self = Value::Draw;
    #[inline]
    fn code(self) -> u16 {
        Value::code(self)
    }
    #[inline]
    fn from_code(code: u16) -> Self {
        Value::from_code(code)
    }
    /// Outcome games bank nothing: the child's value seen from the mover, one ply on.
    #[inline]
    fn worth(child: Self, _gain: i16, turn: Turn) -> Self {
        child.before(turn)
    }
    #[inline]
    fn sign(self) -> Ordering {
        match self {
            Value::Win(_) => Ordering::Greater,
            Value::Draw => Ordering::Equal,
            Value::Loss(_) => Ordering::Less,
        }
    }
}

impl TableValue for i16 {
    const ENCODING: ValueEncoding = ValueEncoding::Score;
    const ENGINE: Engine = Engine::Acyclic;
    const ENDLESS: Self = 0;
    #[inline]
    fn code(self) -> u16 {
        score_code(self)
    }
    #[inline]
    fn from_code(code: u16) -> Self {
        code_score(code)
    }
    /// The gain plus the child's value seen from the mover: itself when he moves again,
    /// its negation when the turn passes. Saturates, so that a damaged table's extreme
    /// codes give a wrong value to report, not an overflow.
    #[inline]
    fn worth(child: Self, gain: i16, turn: Turn) -> Self {
        match turn {
            Turn::Keeps => gain.saturating_add(child),
            Turn::Passes => gain.saturating_sub(child),
        }
    }
    #[inline]
    fn sign(self) -> Ordering {
        self.cmp(&0)
    }
}

/// Game-theoretic value for the player to move.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Value {
    /// The player to move wins; the game ends after this many plies.
    Win(u16),
    /// The player to move loses; the game ends after this many plies.
    Loss(u16),
    /// Neither side can force a win: the game ends drawn or goes on for ever.
    Draw,
}

/// Whether the player who moved is to move again after a move.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Turn {
    /// The opponent moves next (the usual case, and a pass).
    Passes,
    /// The same player moves again (a bonus move, an extra turn).
    Keeps,
}

/// Largest distance a table can hold: codes are `u16`, two per distance.
pub const MAX_DISTANCE: u16 = 32766;

impl Value {
    /// The outcome word used in reports: `win`, `draw` or `loss`.
    pub fn outcome(self) -> &'static str {
        match self {
            Value::Win(_) => "win",
            Value::Loss(_) => "loss",
            Value::Draw => "draw",
        }
    }

    /// Plies to the end, `None` for a draw.
    pub fn plies(self) -> Option<u16> {
        match self {
            Value::Win(d) | Value::Loss(d) => Some(d),
            Value::Draw => None,
        }
    }

    /// The value for the other player.
    pub fn negate(self) -> Value {
        match self {
            Value::Win(d) => Value::Loss(d),
            Value::Loss(d) => Value::Win(d),
            Value::Draw => Value::Draw,
        }
    }

    /// The value a successor of this value gives the player who moved into it: seen from
    /// his side (negated when the turn passed) and one ply further from the end.
    pub fn before(self, turn: Turn) -> Value {
        let mine = match turn {
            Turn::Passes => self.negate(),
            Turn::Keeps => self,
        };
        match mine {
            Value::Win(d) => Value::Win(d.saturating_add(1)),
            Value::Loss(d) => Value::Loss(d.saturating_add(1)),
            Value::Draw => Value::Draw,
        }
    }

    /// Table code: 0 is a draw, `2d+1` a win in `d`, `2d+2` a loss in `d`.
    pub fn code(self) -> u16 {
        match self {
            Value::Draw => 0,
            Value::Win(d) => 2 * d + 1,
            Value::Loss(d) => 2 * d + 2,
        }
    }

    /// Inverse of [`Value::code`].
    pub fn from_code(code: u16) -> Value {
        match code {
            0 => Value::Draw,
            c if c % 2 == 1 => Value::Win((c - 1) / 2),
            c => Value::Loss((c - 2) / 2),
        }
    }

    /// The better of two values for the player choosing between them.
    pub fn best(self, other: Value) -> Value {
        if other > self {
            other
        } else {
            self
        }
    }
}

/// Preference order of the player to move: a quick win is best, a slow loss beats a
/// quick one, a draw lies between.
impl Ord for Value {
    fn cmp(&self, other: &Self) -> Ordering {
        fn key(v: &Value) -> (i8, i32) {
            match *v {
                Value::Win(d) => (2, -(d as i32)),
                Value::Draw => (1, 0),
                Value::Loss(d) => (0, d as i32),
            }
        }
        key(self).cmp(&key(other))
    }
}

impl PartialOrd for Value {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Value::Win(d) => write!(f, "win in {d} plies"),
            Value::Loss(d) => write!(f, "loss in {d} plies"),
            Value::Draw => write!(f, "draw"),
        }
    }
}

/// Zigzag code of a signed score, for tables: 0, -1, 1, -2, 2, … become 0, 1, 2, 3, 4, …
pub fn score_code(score: i16) -> u16 {
    ((score << 1) ^ (score >> 15)) as u16
}

/// Inverse of [`score_code`].
pub fn code_score(code: u16) -> i16 {
    ((code >> 1) as i16) ^ -((code & 1) as i16)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_round_trip() {
        for v in [Value::Draw, Value::Win(0), Value::Win(7), Value::Loss(0), Value::Loss(MAX_DISTANCE)] {
            assert_eq!(Value::from_code(v.code()), v);
        }
    }

    #[test]
    fn score_codes_round_trip() {
        for score in [-300i16, -2, -1, 0, 1, 2, 300, i16::MIN, i16::MAX] {
            assert_eq!(code_score(score_code(score)), score);
        }
        assert_eq!([-1, 1, -2].map(score_code), [1, 2, 3]);
    }

    #[test]
    fn preference_order() {
        assert!(Value::Win(1) > Value::Win(3));
        assert!(Value::Win(99) > Value::Draw);
        assert!(Value::Draw > Value::Loss(99));
        assert!(Value::Loss(9) > Value::Loss(2));
    }

    #[test]
    fn seen_from_the_mover() {
        assert_eq!(Value::Loss(4).before(Turn::Passes), Value::Win(5));
        assert_eq!(Value::Loss(4).before(Turn::Keeps), Value::Loss(5));
        assert_eq!(Value::Draw.before(Turn::Passes), Value::Draw);
    }
}
