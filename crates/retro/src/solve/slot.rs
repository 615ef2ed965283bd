//! A position's two bytes while its tier is solved: its value once decided, and until
//! then what the scan of its moves learnt and how many of its same-tier moves are still
//! undecided, so that no other array is needed.
//!
//! ```text
//!   bit 15 14 13 … 0
//!        0  code         decided: the table's code (0 draw, 2d+1 win in d, 2d+2 loss in d)
//!        1  0  n         undecided, can still lose: every lower-tier move loses, and n
//!                        same-tier moves are not yet known to be bad for the mover
//!        1  1  d         undecided, a lower-tier move wins in d plies: it cannot lose,
//!                        and is a win in d unless a same-tier move wins sooner
//!        1  1  1 … 1     undecided, a lower-tier move draws: it cannot lose
//! ```
//!
//! A decided code stays below `0x8000`, so distances are at most [`MAX_SLOT_DISTANCE`]
//! (16,382 plies), and a position counts at most [`MAX_SLOT_COUNT`] same-tier moves; a
//! tier that needs more is refused, never cut short.

use crate::value::Value;

/// The longest distance a slot holds.
pub const MAX_SLOT_DISTANCE: u16 = 0x3FFE;
/// The most same-tier moves a slot counts.
pub const MAX_SLOT_COUNT: u16 = 0x3FFF;

const UNDECIDED: u16 = 0x8000;
const CANNOT_LOSE: u16 = 0xC000;
const DRAWS_LOWER: u16 = 0xFFFF;

/// What a slot says.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Slot {
    /// The value is known: its table code.
    Decided(u16),
    /// Undecided; every lower-tier move loses, and this many same-tier moves (at least
    /// one) are not yet known to be bad for the mover.
    CanLose(u16),
    /// Undecided; a lower-tier move wins in this many plies.
    LowerWin(u16),
    /// Undecided; a lower-tier move draws.
    DrawsLower,
}

impl Slot {
    /// The slot's two bytes. Distances must be at most [`MAX_SLOT_DISTANCE`], counts at
    /// most [`MAX_SLOT_COUNT`].
    #[inline]
    pub fn encode(self) -> u16 {
        match self {
            Slot::Decided(code) => code,
            Slot::CanLose(w) => UNDECIDED | w,
            Slot::LowerWin(d) => CANNOT_LOSE | d,
            Slot::DrawsLower => DRAWS_LOWER,
        }
    }

    /// The slot its two bytes say.
    #[inline]
    pub fn decode(bits: u16) -> Slot {
        match bits {
            DRAWS_LOWER => Slot::DrawsLower,
            b if b & CANNOT_LOSE == CANNOT_LOSE => Slot::LowerWin(b & !CANNOT_LOSE),
            b if b & UNDECIDED != 0 => Slot::CanLose(b & !UNDECIDED),
            code => Slot::Decided(code),
        }
    }

    /// A decided value's slot.
    #[inline]
    pub fn decided(value: Value) -> Slot {
        Slot::Decided(value.code())
    }

    /// The level at which the slot's position is pushed to its parents: a decided win or
    /// loss at its distance, a lower-tier win at its own (where it becomes that win if no
    /// same-tier move has won sooner); `None` for the rest, which wait for pushes.
    #[inline]
    pub fn level(self) -> Option<u16> {
        match self {
            Slot::Decided(0) => None,
            Slot::Decided(code) => Value::from_code(code).plies(),
            Slot::LowerWin(d) => Some(d),
            Slot::CanLose(_) | Slot::DrawsLower => None,
        }
    }

    /// The two bytes of a slot that can still lose, with one fewer same-tier move
    /// undecided (the count is the slot's low bits).
    #[inline]
    pub fn counted_down(bits: u16) -> u16 {
        bits - 1
    }

    /// The value of a position when no more can be learnt: undecided is a draw.
    #[inline]
    pub fn finished_code(bits: u16) -> u16 {
        match Slot::decode(bits) {
            Slot::Decided(code) => code,
            _ => Value::Draw.code(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_kind_round_trips_at_its_extremes() {
        let slots = [
            Slot::decided(Value::Draw),
            Slot::decided(Value::Win(0)),
            Slot::decided(Value::Loss(MAX_SLOT_DISTANCE)),
            Slot::decided(Value::Win(MAX_SLOT_DISTANCE)),
            Slot::CanLose(1),
            Slot::CanLose(MAX_SLOT_COUNT),
            Slot::LowerWin(0),
            Slot::LowerWin(MAX_SLOT_DISTANCE),
            Slot::DrawsLower,
        ];
        for slot in slots {
            assert_eq!(Slot::decode(slot.encode()), slot, "{slot:?}");
        }
    }

    #[test]
    fn levels_and_finished_codes() {
        assert_eq!(Slot::decided(Value::Loss(7)).level(), Some(7));
        assert_eq!(Slot::LowerWin(3).level(), Some(3));
        assert_eq!(Slot::decided(Value::Draw).level(), None);
        assert_eq!(Slot::CanLose(4).level(), None);
        assert_eq!(Slot::finished_code(Slot::CanLose(4).encode()), Value::Draw.code());
        assert_eq!(Slot::finished_code(Slot::DrawsLower.encode()), Value::Draw.code());
        assert_eq!(Slot::finished_code(Slot::decided(Value::Win(9)).encode()), Value::Win(9).code());
        assert_eq!(Slot::decode(Slot::counted_down(Slot::CanLose(300).encode())), Slot::CanLose(299));
    }
}
