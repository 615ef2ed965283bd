//! The values of both kinds on one integer scale, for the search's windows.
//!
//! A window is a pair of scale points (α, β), exclusive, that may lie past every value
//! ([`BELOW`], [`ABOVE`]); the bounds the search proves are always values of the kind.
//! A move's worth is monotone in its child's value (rising when the mover moves again,
//! falling when the turn passes), so a window on the worth is a window on the child:
//! [`child_window`].

use retro::{TableValue, Turn, Value};

/// A scale point below every value.
pub const BELOW: i32 = -(1 << 30);
/// A scale point above every value.
pub const ABOVE: i32 = 1 << 30;

/// A kind of value the search handles: its order as integers, and the widest bounds of
/// a position not over.
pub trait Scale: TableValue {
    /// The least value a position not over can have.
    const LEAST: Self;
    /// The greatest value a position not over can have.
    const MOST: Self;
    /// Whether the root is searched by null windows (MTD(f)), else by the full window.
    const NULL_WINDOWS: bool;
    /// The value's place on the scale: order-preserving.
    fn scale(self) -> i32;
    /// The least scale point `c` with `shift(c, gain) >= s`, where `shift` is what a move
    /// does to a value seen from one side, the mover's after a move that keeps the turn
    /// ([`TableValue::worth`] of [`Turn::Keeps`]): the inverse of that shift on values.
    fn unshift(s: i32, gain: i16) -> i32;
}

/// Wins on the scale lie in `WIN - MAX_DISTANCE ..= WIN`, losses opposite, a draw at 0.
const WIN: i32 = 1 << 16;

impl Scale for Value {
    const LEAST: Value = Value::Loss(1);
    const MOST: Value = Value::Win(1);
    /// Distances make values so many that a null window finds one at a time.
    const NULL_WINDOWS: bool = false;

    #[inline]
    fn scale(self) -> i32 {
        match self {
            Value::Win(d) => WIN - i32::from(d),
            Value::Draw => 0,
            Value::Loss(d) => i32::from(d) - WIN,
        }
    }

    /// One ply further from the end: a win or a loss one ply longer, a draw a draw.
    #[inline]
    fn unshift(s: i32, _gain: i16) -> i32 {
        s + s.signum()
    }
}

impl Scale for i16 {
    const LEAST: i16 = -i16::MAX;
    const MOST: i16 = i16::MAX;
    const NULL_WINDOWS: bool = true;

    #[inline]
    fn scale(self) -> i32 {
        i32::from(self)
    }

    #[inline]
    fn unshift(s: i32, gain: i16) -> i32 {
        s - i32::from(gain)
    }
}

/// The window on a child's value that answers the window (α, β) on the worth of the move
/// to it: a child value at most the first end makes the move's worth at most α, one at
/// least the second makes it at least β.
#[inline]
pub fn child_window<V: Scale>((alpha, beta): (i32, i32), gain: i16, turn: Turn) -> (i32, i32) {
    let clamp = |s: i32| s.clamp(BELOW, ABOVE);
    match turn {
        Turn::Keeps => (clamp(V::unshift(alpha, gain)), clamp(V::unshift(beta, gain))),
        Turn::Passes => (clamp(-V::unshift(beta, gain)), clamp(-V::unshift(alpha, gain))),
    }
}

/// The bounds on a move's worth that bounds on its child's value give.
#[inline]
pub fn worth_bounds<V: TableValue>((lower, upper): (V, V), gain: i16, turn: Turn) -> (V, V) {
    match turn {
        Turn::Keeps => (V::worth(lower, gain, turn), V::worth(upper, gain, turn)),
        Turn::Passes => (V::worth(upper, gain, turn), V::worth(lower, gain, turn)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn values() -> Vec<Value> {
        let mut out = vec![Value::Draw];
        for d in [1, 2, 3, 7, 100, 32000] {
            out.extend([Value::Win(d), Value::Loss(d)]);
        }
        out
    }

    #[test]
    fn the_scale_keeps_the_order() {
        let vs = values();
        for &a in &vs {
            for &b in &vs {
                assert_eq!(a.cmp(&b), a.scale().cmp(&b.scale()), "{a} against {b}");
            }
        }
    }

    /// The child window decides the worth exactly as promised, for every child value and
    /// every window end met.
    #[test]
    fn child_windows_answer_the_parent_window() {
        let vs = values();
        let ends: Vec<i32> = vs.iter().map(|v| v.scale()).chain([BELOW, ABOVE, 1, -1]).collect();
        for turn in [Turn::Keeps, Turn::Passes] {
            for &alpha in &ends {
                for &beta in ends.iter().filter(|&&b| b > alpha) {
                    let (ca, cb) = child_window::<Value>((alpha, beta), 0, turn);
                    for &c in &vs {
                        let w = Value::worth(c, 0, turn).scale();
                        if c.scale() <= ca && turn == Turn::Keeps || c.scale() >= cb && turn == Turn::Passes {
                            assert!(w <= alpha, "{turn:?} ({alpha}, {beta}) child {c}");
                        }
                        if c.scale() >= cb && turn == Turn::Keeps || c.scale() <= ca && turn == Turn::Passes {
                            assert!(w >= beta, "{turn:?} ({alpha}, {beta}) child {c}");
                        }
                    }
                }
            }
        }
        for turn in [Turn::Keeps, Turn::Passes] {
            for gain in [-2i16, 0, 3] {
                for alpha in -6..6 {
                    for beta in alpha + 1..7 {
                        let (ca, cb) = child_window::<i16>((alpha, beta), gain, turn);
                        for c in -9i16..=9 {
                            let w = i16::worth(c, gain, turn).scale();
                            let (low, high) = match turn {
                                Turn::Keeps => (c.scale() <= ca, c.scale() >= cb),
                                Turn::Passes => (c.scale() >= cb, c.scale() <= ca),
                            };
                            assert!(!low || w <= alpha, "{turn:?} {gain} ({alpha}, {beta}) child {c}");
                            assert!(!high || w >= beta, "{turn:?} {gain} ({alpha}, {beta}) child {c}");
                        }
                    }
                }
            }
        }
    }
}
