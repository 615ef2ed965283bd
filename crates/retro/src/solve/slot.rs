//! A position's two bytes while its tier is solved: its value once decided, and until
//! then what the scan of its moves learnt and how many of its same-tier moves are still
//! undecided, so that no other array is needed.
//!
//! ```text
//!   bit 15 14 13 12 … 0
//!        0  code            decided: the table's code (0 draw, 2d+1 win in d, 2d+2 loss in d)
//!        1  0  0  n         undecided, can still lose: every lower-tier move loses, and n
//!                           same-tier moves are not yet known to be bad for the mover
//!        1  0  1  w:7 n:6   the same, and its longest lower-tier loss is w plies (0: it
//!                           has no lower-tier move)
//!        1  1  d            undecided, a lower-tier move wins in d plies: it cannot lose,
//!                           and is a win in d unless a same-tier move wins sooner
//!        1  1  1 … 1        undecided, a lower-tier move draws: it cannot lose
//! ```
//!
//! A position that can still lose is lost once its last same-tier move turns out bad for
//! it, and its distance is the longest of its moves' losses. The same-tier ones are known
//! then (levels are pushed in order, so the last is the longest); the lower-tier one is
//! kept in the slot where it fits beside the count, and read from the moves again where
//! it does not.
//!
//! A decided code stays below `0x8000`, so distances are at most [`MAX_SLOT_DISTANCE`]
//! (16,382 plies), and a position counts at most [`MAX_SLOT_COUNT`] same-tier moves; a
//! tier that needs more is refused, never cut short.

use crate::value::Value;

/// The longest distance a slot holds.
pub const MAX_SLOT_DISTANCE: u16 = 0x3FFE;
/// The most same-tier moves a slot counts.
pub const MAX_SLOT_COUNT: u16 = 0x1FFF;

const UNDECIDED: u16 = 0x8000;
/// In a slot that can still lose: the longest lower-tier loss is kept beside the count.
const WORST_KEPT: u16 = 0x2000;
/// Bits of the count, and the most it holds, when the longest lower-tier loss is kept.
const SHORT_COUNT_BITS: u32 = 6;
const SHORT_COUNT_MAX: u16 = (1 << SHORT_COUNT_BITS) - 1;
/// The longest lower-tier loss a slot keeps beside its count.
const WORST_MAX: u16 = 0x7F;
const CANNOT_LOSE: u16 = 0xC000;
const DRAWS_LOWER: u16 = 0xFFFF;

/// What a slot says.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Slot {
    /// The value is known: its table code.
    Decided(u16),
    /// Undecided; every lower-tier move loses, and `count` same-tier moves (at least
    /// one) are not yet known to be bad for the mover. `worst` is the longest loss among
    /// its lower-tier moves (0 if it has none), where the slot has room for it.
    CanLose {
        /// Same-tier moves still undecided.
        count: u16,
        /// The longest lower-tier loss in plies, if kept.
        worst: Option<u16>,
    },
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
            Slot::CanLose { count, worst: Some(w) } if count <= SHORT_COUNT_MAX && w <= WORST_MAX => {
                UNDECIDED | WORST_KEPT | w << SHORT_COUNT_BITS | count
            }
            Slot::CanLose { count, .. } => UNDECIDED | count,
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
            b if b & (UNDECIDED | WORST_KEPT) == UNDECIDED | WORST_KEPT => Slot::CanLose {
                count: b & SHORT_COUNT_MAX,
                worst: Some((b & !(UNDECIDED | WORST_KEPT)) >> SHORT_COUNT_BITS),
            },
            b if b & UNDECIDED != 0 => Slot::CanLose { count: b & !UNDECIDED, worst: None },
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
            Slot::CanLose { .. } | Slot::DrawsLower => None,
        }
    }

    /// [`Slot::level`] read straight from the two bytes, `u16::MAX` for none: each level
    /// reads every slot of a block with work at that level, so this is one of the
    /// engine's hot loops, and it decides without a branch.
    #[inline]
    pub fn level_of(bits: u16) -> u16 {
        // A decided win or loss is coded 1..0x8000, its distance (code − 1) / 2; a
        // lower-tier win is 0xC000 | d; everything else waits for pushes.
        let decided = bits.wrapping_sub(1) < UNDECIDED - 1;
        let lower_win = bits & CANNOT_LOSE == CANNOT_LOSE && bits != DRAWS_LOWER;
        let distance = if decided { bits.wrapping_sub(1) >> 1 } else { bits & !CANNOT_LOSE };
        if decided || lower_win {
            distance
        } else {
            u16::MAX
        }
    }

    /// The two bytes of a slot that can still lose, with `by` fewer same-tier moves
    /// undecided (the count is the slot's low bits; it must hold at least `by`).
    #[inline]
    pub fn counted_down(bits: u16, by: u16) -> u16 {
        bits - by
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
            Slot::CanLose { count: 1, worst: None },
            Slot::CanLose { count: MAX_SLOT_COUNT, worst: None },
            Slot::CanLose { count: 1, worst: Some(0) },
            Slot::CanLose { count: SHORT_COUNT_MAX, worst: Some(WORST_MAX) },
            Slot::LowerWin(0),
            Slot::LowerWin(MAX_SLOT_DISTANCE),
            Slot::DrawsLower,
        ];
        for slot in slots {
            assert_eq!(Slot::decode(slot.encode()), slot, "{slot:?}");
        }
    }

    #[test]
    fn the_level_read_from_the_bytes_is_the_slots() {
        for bits in 0..=u16::MAX {
            assert_eq!(Slot::level_of(bits), Slot::decode(bits).level().unwrap_or(u16::MAX), "{bits:#06x}");
        }
    }

    #[test]
    fn levels_and_finished_codes() {
        assert_eq!(Slot::decided(Value::Loss(7)).level(), Some(7));
        assert_eq!(Slot::LowerWin(3).level(), Some(3));
        assert_eq!(Slot::decided(Value::Draw).level(), None);
        assert_eq!(Slot::CanLose { count: 4, worst: None }.level(), None);
        assert_eq!(Slot::finished_code(Slot::CanLose { count: 4, worst: Some(3) }.encode()), Value::Draw.code());
        assert_eq!(Slot::finished_code(Slot::DrawsLower.encode()), Value::Draw.code());
        assert_eq!(Slot::finished_code(Slot::decided(Value::Win(9)).encode()), Value::Win(9).code());
        let counted = |slot: Slot, by| Slot::decode(Slot::counted_down(slot.encode(), by));
        assert_eq!(counted(Slot::CanLose { count: 300, worst: None }, 1), Slot::CanLose { count: 299, worst: None });
        assert_eq!(counted(Slot::CanLose { count: 5, worst: Some(9) }, 1), Slot::CanLose { count: 4, worst: Some(9) });
        assert_eq!(counted(Slot::CanLose { count: 5, worst: Some(9) }, 2), Slot::CanLose { count: 3, worst: Some(9) });
        assert_eq!(counted(Slot::CanLose { count: 2, worst: None }, 2), Slot::CanLose { count: 0, worst: None });
    }

    #[test]
    fn a_worst_loss_that_does_not_fit_is_dropped_not_cut() {
        let too_long = Slot::CanLose { count: 2, worst: Some(WORST_MAX + 1) };
        assert_eq!(Slot::decode(too_long.encode()), Slot::CanLose { count: 2, worst: None });
        let too_many = Slot::CanLose { count: SHORT_COUNT_MAX + 1, worst: Some(1) };
        assert_eq!(Slot::decode(too_many.encode()), Slot::CanLose { count: SHORT_COUNT_MAX + 1, worst: None });
    }
}
