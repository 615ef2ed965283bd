//! The entropy-coded block form (form 3 of [`crate::blocks`]): each rank's code as a
//! canonical Huffman codeword, the code built for the block's own counts.
//!
//! Where most positions are won or lost (Awari, Kalah, THI` under `fixed1`) a block holds
//! a dozen or more codes with skewed counts: a palette spends the same bits on each, a
//! prefix code about the block's order-0 entropy (Awari: 3.5 bits an entry against 5.7
//! packed plain).
//!
//! # Layout
//!
//! ```text
//! coded   = form byte 3
//!           offsets: (s − 1) u16       bit where each sub-block after the first starts,
//!                                      s = ceil(n / SUB)
//!           L u8 (1..=15)              the longest codeword
//!           counts: L u8               codewords of each length 1..=L
//!           codes: p u16               p = Σ counts (2..=255), in canonical order:
//!                                      shorter codewords first, then by code
//!           stream                     the n codewords, first bit in bit 7 of byte 0
//! ```
//!
//! The offsets come first, at a place known without reading the code, so that a probe's
//! loads of its offset and of the code can miss the cache at the same time.
//!
//! The code is canonical: the codewords of one length are consecutive numbers, the first
//! of length `l + 1` being twice the one after the last of length `l`. So the counts
//! alone define it: a codeword's length is read off a 16-bit window of the stream, from a
//! table of the lengths of the codewords of up to 8 bits by the window's first byte
//! (filled from the counts on each probe: a few hundred bytes), or for a longer one by
//! comparing the window with one limit per length. A probe decodes from its sub-block's
//! start: at most `SUB − 1` codewords are skipped.
//! The code must be complete (Kraft's sum exactly 1), so every window decodes to some code
//! and reading past the stream's end (as zero bits) cannot go wrong.

/// Ranks of a sub-block: a probe skips at most `SUB − 1` codewords.
pub const SUB: u64 = 64;
/// The longest codeword: a 16-bit window always holds one.
const MAX_LENGTH: usize = 15;
/// The most codes a block in this form holds (its counts are one byte a length).
const MAX_CODES: usize = 255;

/// A canonical prefix code for one block: the codes in canonical order, and how many
/// codewords each length has.
pub struct Code {
    /// `counts[l]`: codewords of length `l` (index 0 unused).
    counts: [u8; MAX_LENGTH + 1],
    longest: usize,
    /// The codes in canonical order.
    codes: Vec<u16>,
    /// Each code's codeword and its length, indexed by code (only the block's codes set).
    words: Vec<(u16, u8)>,
}

impl Code {
    /// The Huffman code of `counts` (`(code, how often)`, codes distinct, at least two);
    /// `None` if it would need more than [`MAX_CODES`] codes or a codeword longer than 15
    /// bits.
    pub fn new(counts: &[(u16, u32)]) -> Option<Code> {
        if !(2..=MAX_CODES).contains(&counts.len()) {
            return None;
        }
        let lengths = huffman_lengths(counts);
        let longest = *lengths.iter().max()?;
        if longest > MAX_LENGTH {
            return None;
        }
        let mut order: Vec<(usize, u16)> = lengths.iter().zip(counts).map(|(&l, &(c, _))| (l, c)).collect();
        order.sort_unstable();
        let mut per_length = [0u8; MAX_LENGTH + 1];
        for &(l, _) in &order {
            per_length[l] += 1;
        }
        let max_code = counts.iter().map(|&(c, _)| c).max()? as usize;
        let mut words = vec![(0u16, 0u8); max_code + 1];
        let (mut word, mut length) = (0u32, order[0].0);
        for (i, &(l, c)) in order.iter().enumerate() {
            if i > 0 {
                word = (word + 1) << (l - length);
                length = l;
            }
            words[c as usize] = (word as u16, l as u8);
        }
        Some(Code { counts: per_length, longest, codes: order.iter().map(|&(_, c)| c).collect(), words })
    }

    /// Bytes of a block of these `n` codes whose codewords take `bits` bits.
    pub fn block_bytes(&self, n: u64, bits: u64) -> u64 {
        2 + self.longest as u64 + 2 * self.codes.len() as u64 + 2 * (sub_blocks(n) - 1) + bits.div_ceil(8)
    }

    /// Bits of the codewords of `counts` (the counts the code was made for).
    pub fn stream_bits(&self, counts: &[(u16, u32)]) -> u64 {
        counts.iter().map(|&(c, k)| k as u64 * self.words[c as usize].1 as u64).sum()
    }

    /// Appends the block of `block`'s codes (each one of this code's) to `out`.
    pub fn encode(&self, block: &[u16], out: &mut Vec<u8>) {
        out.push(crate::blocks::CODED);
        let offsets_at = out.len();
        out.resize(offsets_at + 2 * (sub_blocks(block.len() as u64) - 1) as usize, 0);
        out.push(self.longest as u8);
        out.extend_from_slice(&self.counts[1..=self.longest]);
        out.extend(self.codes.iter().flat_map(|c| c.to_le_bytes()));
        let stream_at = out.len();
        let (mut acc, mut held, mut bits) = (0u64, 0u32, 0u64);
        for (i, &c) in block.iter().enumerate() {
            if i > 0 && (i as u64).is_multiple_of(SUB) {
                let at = offsets_at + 2 * (i as u64 / SUB - 1) as usize;
                out[at..at + 2].copy_from_slice(&(bits as u16).to_le_bytes());
            }
            let (word, length) = self.words[c as usize];
            acc = acc << length | word as u64;
            held += length as u32;
            bits += length as u64;
            while held >= 8 {
                held -= 8;
                out.push((acc >> held) as u8);
            }
        }
        if held > 0 {
            out.push((acc << (8 - held)) as u8);
        }
        debug_assert_eq!((out.len() - stream_at) as u64, bits.div_ceil(8));
    }
}

/// Sub-blocks of a block of `n` ranks.
fn sub_blocks(n: u64) -> u64 {
    n.div_ceil(SUB).max(1)
}

/// Huffman's codeword lengths for `counts`, in their order: the two rarest merged until
/// one tree is left (ties broken by the order of creation, so the lengths, and the bytes
/// written, depend on the counts alone).
fn huffman_lengths(counts: &[(u16, u32)]) -> Vec<usize> {
    use std::cmp::Reverse;
    use std::collections::BinaryHeap;
    let n = counts.len();
    let mut parent = vec![usize::MAX; 2 * n - 1];
    let mut heap: BinaryHeap<Reverse<(u64, usize)>> =
        counts.iter().enumerate().map(|(i, &(_, k))| Reverse((k as u64, i))).collect();
    let mut next = n;
    while let (Some(Reverse((a, i))), Some(Reverse((b, j)))) = (heap.pop(), heap.pop()) {
        parent[i] = next;
        parent[j] = next;
        heap.push(Reverse((a + b, next)));
        next += 1;
    }
    // Parents are created after their children: lengths from the root down.
    let mut depth = vec![0usize; 2 * n - 1];
    for node in (0..2 * n - 2).rev() {
        depth[node] = depth[parent[node]] + 1;
    }
    depth.truncate(n);
    depth
}

/// The decoding limits of a block's code, read from its counts: `limit[l − 1]` is the
/// first 16-bit window above every codeword of length `l` or less (2^16 from the longest
/// on, for a complete code), `first[l]` the first codeword of length `l` left-aligned in
/// 16 bits, `start[l]` the canonical index of that codeword, and `short[b]` the length of
/// the codeword a window whose first [`SHORT_BITS`] bits are `b` starts with, if it is
/// no longer (else 0).
/// (`first` and `start` have a slot past the longest length, so that a window no length
/// takes, which a complete code never gives, still indexes inside them.)
struct Limits {
    limit: [u32; MAX_LENGTH],
    first: [u32; MAX_LENGTH + 2],
    start: [u32; MAX_LENGTH + 2],
    short: [u8; 1 << SHORT_BITS],
}

/// Codewords up to this long are told by one look-up; longer ones, rare, by comparing
/// the window with every limit. (A 10-bit look-up, four times the table to fill on each
/// probe, was no faster.)
const SHORT_BITS: usize = 8;

impl Limits {
    #[inline(always)]
    fn new(counts: &[u8]) -> Limits {
        let mut l = Limits {
            limit: [0; MAX_LENGTH],
            first: [0; MAX_LENGTH + 2],
            start: [0; MAX_LENGTH + 2],
            short: [0; 1 << SHORT_BITS],
        };
        let (mut word, mut index) = (0u32, 0u32);
        for length in 1..=MAX_LENGTH {
            let count = counts.get(length - 1).copied().unwrap_or(0) as u32;
            l.first[length] = word << (16 - length);
            l.start[length] = index;
            word += count;
            index += count;
            l.limit[length - 1] = word << (16 - length);
            word <<= 1;
            if length <= SHORT_BITS {
                // Short codewords fill whole runs of windows' first bits.
                let shift = 16 - SHORT_BITS;
                let (from, to) = ((l.first[length] >> shift) as usize, (l.limit[length - 1] >> shift) as usize);
                let end = 1 << SHORT_BITS;
                l.short[from.min(end)..to.min(end)].fill(length as u8);
            }
        }
        l
    }

    /// The length of the codeword at the front of `window`: a look-up by its first bits,
    /// or for a longer codeword one more than the limits it reaches.
    #[inline(always)]
    fn length(&self, window: u32) -> u32 {
        match self.short[(window >> (16 - SHORT_BITS)) as usize] {
            0 => 1 + self.limit.iter().map(|&lim| (window >= lim) as u32).sum::<u32>(),
            short => short as u32,
        }
    }

    /// The canonical index of the codeword of `length` at the front of `window`.
    #[inline(always)]
    fn index(&self, window: u32, length: u32) -> usize {
        let length = length as usize;
        (self.start[length].wrapping_add(window.wrapping_sub(self.first[length]) >> (16 - length))) as usize
    }
}

/// Reads a stream's bits front to back, 64 at a time (bits past its end read as zero).
struct Bits<'a> {
    stream: &'a [u8],
    /// The byte `buffer` was loaded from.
    byte: usize,
    /// The bits not yet consumed, at the top.
    buffer: u64,
    /// How many bits of `buffer` are the stream's.
    held: u32,
}

impl<'a> Bits<'a> {
    fn at(stream: &'a [u8], bit: u64) -> Bits<'a> {
        let byte = (bit / 8) as usize;
        let skip = (bit % 8) as u32;
        Bits { stream, byte, buffer: load(stream, byte) << skip, held: 64 - skip }
    }

    /// The next 16 bits, not consumed.
    #[inline(always)]
    fn window(&self) -> u32 {
        (self.buffer >> 48) as u32
    }

    /// Consumes `n` (at most 16) bits.
    #[inline(always)]
    fn consume(&mut self, n: u32) {
        self.buffer <<= n;
        self.held -= n;
        if self.held < 16 {
            let used = 64 - self.held;
            self.byte += (used / 8) as usize;
            self.buffer = load(self.stream, self.byte) << (used % 8);
            self.held = 64 - used % 8;
        }
    }
}

/// The 8 bytes of `stream` from `byte`, big-endian, zeros past its end.
#[inline(always)]
fn load(stream: &[u8], byte: usize) -> u64 {
    match stream.get(byte..byte + 8) {
        Some(b) => u64::from_be_bytes(b.try_into().expect("eight bytes")),
        None => (0..8).fold(0u64, |w, k| w << 8 | *stream.get(byte + k).unwrap_or(&0) as u64),
    }
}

/// Where a coded block's parts start: its counts, codes and stream (its offsets start
/// at byte 1).
struct Parts<'a> {
    counts: &'a [u8],
    codes_at: usize,
    stream: &'a [u8],
}

fn parts(block: &[u8], n: u64) -> Option<Parts<'_>> {
    let longest_at = 1 + 2 * (sub_blocks(n) - 1) as usize;
    let longest = *block.get(longest_at)? as usize;
    let counts = block.get(longest_at + 1..longest_at + 1 + longest)?;
    let codes_at = longest_at + 1 + longest;
    let p: usize = counts.iter().map(|&c| c as usize).sum();
    Some(Parts { counts, codes_at, stream: block.get(codes_at + 2 * p..)? })
}

fn u16_at(bytes: &[u8], at: usize) -> Option<u16> {
    Some(u16::from_le_bytes(bytes.get(at..at + 2)?.try_into().ok()?))
}

/// The code of rank `i` of a coded `block` of `n` ranks that passed [`check`].
#[inline]
pub fn get(block: &[u8], n: u64, i: u64) -> Option<u16> {
    let sub = i / SUB;
    let start = if sub == 0 { 0 } else { u16_at(block, 1 + 2 * (sub as usize - 1))? as u64 };
    let parts = parts(block, n)?;
    let limits = Limits::new(parts.counts);
    let mut bits = Bits::at(parts.stream, start);
    for _ in 0..i % SUB {
        bits.consume(limits.length(bits.window()));
    }
    let w = bits.window();
    u16_at(block, parts.codes_at + 2 * limits.index(w, limits.length(w)))
}

/// Appends every code of a coded `block` of `n` ranks that passed [`check`] to `out`, in
/// rank order.
pub fn decode(block: &[u8], n: u64, out: &mut Vec<u16>) {
    let Some(parts) = parts(block, n) else { return };
    let limits = Limits::new(parts.counts);
    let mut bits = Bits::at(parts.stream, 0);
    for _ in 0..n {
        let w = bits.window();
        let length = limits.length(w);
        out.push(u16_at(block, parts.codes_at + 2 * limits.index(w, length)).unwrap_or(0));
        bits.consume(length);
    }
}

/// Checks a coded `block` of `n` ranks: a complete code of 2 to 255 codes within
/// `widest`, sub-block offsets in order inside the stream, and the block's length what
/// its stream's last offset allows. That every rank decodes from the stream is what the
/// code's completeness guarantees; that the stream holds the right codewords is what the
/// body's checksum covers.
pub fn check(block: &[u8], n: u64, widest: u16) -> Result<(), String> {
    let longest_at = 1 + 2 * (sub_blocks(n) - 1) as usize;
    let longest = *block.get(longest_at).ok_or("no longest codeword")? as usize;
    if !(1..=MAX_LENGTH).contains(&longest) {
        return Err(format!("longest codeword {longest} bits"));
    }
    let parts = parts(block, n).ok_or("shorter than its code")?;
    let p: usize = parts.counts.iter().map(|&c| c as usize).sum();
    if !(2..=MAX_CODES).contains(&p) {
        return Err(format!("a code of {p} codewords"));
    }
    // Kraft's sum, scaled by 2^15: exactly one for a complete code.
    let kraft: u64 = parts.counts.iter().enumerate().map(|(i, &c)| (c as u64) << (MAX_LENGTH - 1 - i)).sum();
    if kraft != 1 << MAX_LENGTH {
        return Err("its code is not complete".into());
    }
    let codes: Vec<u16> = (0..p).filter_map(|k| u16_at(block, parts.codes_at + 2 * k)).collect();
    if codes.iter().any(|&c| c > widest) {
        return Err("a code is wider than the table's entries".into());
    }
    let stream_bits = 8 * parts.stream.len() as u64;
    let mut previous = 0u64;
    for s in 1..sub_blocks(n) {
        let at = u16_at(block, 1 + 2 * (s as usize - 1)).ok_or("offsets cut short")? as u64;
        // Each codeword is 1 to 15 bits long.
        if at < previous + SUB || at > previous + SUB * MAX_LENGTH as u64 || at > stream_bits {
            return Err(format!("sub-block {s} starts at bit {at}"));
        }
        previous = at;
    }
    let last = n - (sub_blocks(n) - 1) * SUB;
    let (least, most) = (previous + last, previous + last * MAX_LENGTH as u64);
    if stream_bits < least || stream_bits > most.div_ceil(8) * 8 {
        return Err(format!("a stream of {} bytes", parts.stream.len()));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn counts_of(block: &[u16]) -> Vec<(u16, u32)> {
        let mut counts = std::collections::BTreeMap::new();
        for &c in block {
            *counts.entry(c).or_insert(0u32) += 1;
        }
        counts.into_iter().collect()
    }

    #[test]
    fn a_skewed_block_takes_its_entropy_and_reads_back() {
        // One code in two, one in four, ... : entropy just under 2 bits a rank.
        let block: Vec<u16> = (0..4096u32).map(|i| (i | 0x8000).trailing_zeros() as u16 * 3).collect();
        let counts = counts_of(&block);
        let code = Code::new(&counts).unwrap();
        let bits = code.stream_bits(&counts);
        assert!(bits < 2 * 4096, "{bits} bits");
        let mut out = Vec::new();
        code.encode(&block, &mut out);
        assert_eq!(out.len() as u64, code.block_bytes(4096, bits));
        check(&out, 4096, 45).unwrap();
        for (i, &c) in block.iter().enumerate() {
            assert_eq!(get(&out, 4096, i as u64), Some(c), "rank {i}");
        }
        let mut all = Vec::new();
        decode(&out, 4096, &mut all);
        assert_eq!(all, block);
    }

    #[test]
    fn a_bad_code_is_refused() {
        let block: Vec<u16> = (0..100u16).map(|i| i % 5).collect();
        let code = Code::new(&counts_of(&block)).unwrap();
        let mut out = Vec::new();
        code.encode(&block, &mut out);
        check(&out, 100, 4).unwrap();
        assert!(check(&out, 100, 3).unwrap_err().contains("wider"));
        // Two sub-blocks: one offset, then the longest codeword's length at byte 3.
        let mut incomplete = out.clone();
        incomplete[4] += 1;
        assert!(check(&incomplete, 100, 4).unwrap_err().contains("not complete"));
        let mut shifted = out.clone();
        shifted[1] = 0;
        assert!(check(&shifted, 100, 4).unwrap_err().contains("sub-block"));
        let stream_at = 4 + out[3] as usize + 2 * 5;
        assert!(check(&out[..stream_at - 1], 100, 4).is_err());
        assert!(check(&out[..3], 100, 4).is_err());
    }

    proptest::proptest! {
        /// Blocks of skewed codes (each code `c` about twice as rare as `c − 1`), of any
        /// length up to a block: every rank reads back, one at a time and all at once.
        #[test]
        fn every_rank_reads_back(ranks in proptest::collection::vec(0u32..(1 << 12), 2..=4096)) {
            let block: Vec<u16> = ranks.iter().map(|&r| (r | 1 << 12).trailing_zeros() as u16 * 2).collect();
            let counts = counts_of(&block);
            proptest::prop_assume!(counts.len() >= 2);
            let code = Code::new(&counts).unwrap();
            let mut out = Vec::new();
            code.encode(&block, &mut out);
            let n = block.len() as u64;
            proptest::prop_assert_eq!(out.len() as u64, code.block_bytes(n, code.stream_bits(&counts)));
            proptest::prop_assert!(check(&out, n, 24).is_ok());
            for (i, &c) in block.iter().enumerate() {
                proptest::prop_assert_eq!(get(&out, n, i as u64), Some(c));
            }
            let mut all = Vec::new();
            decode(&out, n, &mut all);
            proptest::prop_assert_eq!(all, block);
        }

        /// Whatever bytes a coded block holds, checking it and, if the check passes,
        /// reading every rank never panics.
        #[test]
        fn damaged_blocks_never_panic(
            ranks in proptest::collection::vec(0u32..(1 << 12), 2..300),
            damage in proptest::collection::vec((proptest::prelude::any::<proptest::sample::Index>(), 0u8..=255), 1..4),
        ) {
            let block: Vec<u16> = ranks.iter().map(|&r| (r | 1 << 12).trailing_zeros() as u16).collect();
            let counts = counts_of(&block);
            proptest::prop_assume!(counts.len() >= 2);
            let mut out = Vec::new();
            Code::new(&counts).unwrap().encode(&block, &mut out);
            for (at, byte) in damage {
                let i = at.index(out.len());
                out[i] = byte;
            }
            let n = block.len() as u64;
            if check(&out, n, 12).is_ok() {
                for i in 0..n {
                    let _ = get(&out, n, i);
                }
                decode(&out, n, &mut Vec::new());
            }
        }
    }

    #[test]
    fn no_code_for_one_symbol_or_too_many() {
        assert!(Code::new(&[(3, 10)]).is_none());
        let many: Vec<(u16, u32)> = (0..256).map(|c| (c, 1)).collect();
        assert!(Code::new(&many).is_none());
        // Counts doubling at each code need codewords longer than 15 bits.
        let steep: Vec<(u16, u32)> = (0..20).map(|c| (c, 1 << c)).collect();
        assert!(Code::new(&steep).is_none());
    }
}
