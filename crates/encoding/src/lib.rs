#![warn(missing_docs)]
//! Compact position encoding, independent of any game.
//!
//! - [`word_index`]: dense ranks for boards seen as words over per-cell alphabets, split
//!   by the material they hold (the tiers of a retrograde solver).
//! - [`folded_index`]: the same for boards with a mirror, a board and its image sharing
//!   one rank.
//! - [`packed`]: fixed-width values packed end to end, for table bodies.

pub mod folded_index;
pub mod packed;
pub mod word_index;

pub use folded_index::{Fold, FoldedIndex, Unit, WordTerms, MAX_NEAR_CELLS};
pub use packed::{bits_for, pack, packed_get, packed_len, PackedSlice};
pub use word_index::{Alphabet, IndexError, WordIndex};
