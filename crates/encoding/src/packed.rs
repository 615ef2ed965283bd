//! Arrays of fixed-width unsigned values packed end to end, little-endian bit order.
//!
//! Entry `i` of width `b` occupies bits `i·b .. (i+1)·b` of the byte string, bit 0 being
//! the least significant bit of byte 0:
//!
//! ```text
//!   b = 3:   byte 0 = [e2₁ e2₀ e1₂ e1₁ e1₀ e0₂ e0₁ e0₀]   byte 1 = [… e5₀ e4₂ e4₁ e4₀ e3₂ e2₂ …]
//! ```
//!
//! A reader loads the (at most 8) bytes holding an entry and shifts, so any width from
//! 1 to 32 bits costs one unaligned load. The byte string is padded to whole bytes; the
//! padding bits are zero.

/// Number of bytes that hold `len` entries of `bits` bits.
pub fn packed_len(len: u64, bits: u32) -> u64 {
    (len * bits as u64).div_ceil(8)
}

/// Bits needed to store every value up to `max` inclusive (at least 1).
pub fn bits_for(max: u64) -> u32 {
    (64 - max.leading_zeros()).max(1)
}

/// Packs `values` at `bits` bits each. Every value must fit in `bits`.
pub fn pack(values: impl ExactSizeIterator<Item = u32>, bits: u32) -> Vec<u8> {
    assert!((1..=32).contains(&bits), "packed width must be 1..=32 bits, not {bits}");
    let len = values.len() as u64;
    let mut out = vec![0u8; packed_len(len, bits) as usize];
    let mut acc: u64 = 0;
    let mut filled = 0u32;
    let mut pos = 0usize;
    for v in values {
        debug_assert!(bits == 32 || v < (1u32 << bits), "{v} does not fit in {bits} bits");
        acc |= (v as u64) << filled;
        filled += bits;
        while filled >= 8 {
            out[pos] = acc as u8;
            pos += 1;
            acc >>= 8;
            filled -= 8;
        }
    }
    if filled > 0 {
        out[pos] = acc as u8;
    }
    out
}

/// Entry `i` of `len` entries of `bits` bits (1..=32) packed in `bytes`, or `None` past
/// the end: [`PackedSlice::get`] for callers that checked the layout once (a table's
/// header) and probe it millions of times; short or surplus bytes give wrong values or
/// `None`, never a panic.
#[inline]
pub fn packed_get(bytes: &[u8], bits: u32, len: u64, i: u64) -> Option<u32> {
    if i >= len {
        return None;
    }
    let bit = i * bits as u64;
    let start = (bit / 8) as usize;
    let shift = (bit % 8) as u32;
    let raw = match bytes.get(start..start + 8) {
        // The common case: eight whole bytes to load at once.
        Some(eight) => u64::from_le_bytes(eight.try_into().unwrap_or([0; 8])),
        None => {
            let mut word = [0u8; 8];
            let tail = bytes.get(start..)?;
            word[..tail.len()].copy_from_slice(tail);
            u64::from_le_bytes(word)
        }
    };
    Some(((raw >> shift) & ((1u64 << bits) - 1)) as u32)
}

/// A read-only view of packed entries over borrowed bytes (for example a memory map).
#[derive(Clone, Copy)]
pub struct PackedSlice<'a> {
    bytes: &'a [u8],
    bits: u32,
    len: u64,
}

impl<'a> PackedSlice<'a> {
    /// A view of no entries.
    pub const EMPTY: PackedSlice<'static> = PackedSlice { bytes: &[], bits: 1, len: 0 };

    /// A view of `len` entries of `bits` bits, or `None` if `bytes` is not exactly the
    /// packed length or the width is not 1..=32.
    pub fn new(bytes: &'a [u8], bits: u32, len: u64) -> Option<Self> {
        if !(1..=32).contains(&bits) || bytes.len() as u64 != packed_len(len, bits) {
            return None;
        }
        Some(PackedSlice { bytes, bits, len })
    }

    /// Values in the slice.
    pub fn len(&self) -> u64 {
        self.len
    }

    /// Whether the slice holds no value.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Entry `i`, or `None` past the end.
    #[inline]
    pub fn get(&self, i: u64) -> Option<u32> {
        packed_get(self.bytes, self.bits, self.len, i)
    }

    /// The values in order.
    pub fn iter(&self) -> impl Iterator<Item = u32> + '_ {
        (0..self.len).map(|i| self.get(i).unwrap_or(0))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn widths() {
        assert_eq!(bits_for(0), 1);
        assert_eq!(bits_for(1), 1);
        assert_eq!(bits_for(2), 2);
        assert_eq!(bits_for(255), 8);
        assert_eq!(bits_for(256), 9);
    }

    #[test]
    fn wrong_length_is_refused() {
        assert!(PackedSlice::new(&[0u8; 3], 3, 9).is_none());
        assert!(PackedSlice::new(&[0u8; 4], 3, 9).is_some());
        assert!(PackedSlice::new(&[0u8; 4], 33, 1).is_none());
        assert_eq!(PackedSlice::new(&[0u8; 4], 3, 9).unwrap().get(9), None);
    }

    proptest! {
        #[test]
        fn pack_then_read_back(bits in 1u32..=32, raw in proptest::collection::vec(any::<u32>(), 0..200)) {
            let mask = if bits == 32 { u32::MAX } else { (1u32 << bits) - 1 };
            let values: Vec<u32> = raw.iter().map(|v| v & mask).collect();
            let bytes = pack(values.iter().copied(), bits);
            let view = PackedSlice::new(&bytes, bits, values.len() as u64).unwrap();
            let back: Vec<u32> = view.iter().collect();
            prop_assert_eq!(back, values);
        }
    }
}
