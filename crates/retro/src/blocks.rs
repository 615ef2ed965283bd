//! The blocked body of a table file (format version 2): the codes cut into blocks of
//! [`BLOCK`] ranks, each stored in whichever of four forms is the smallest, behind an
//! index of where each block starts. A probe reads one index word and one block.
//!
//! Tables whose positions are mostly one value (THI` under `original`: nearly every
//! position a draw) shrink many times over; tables of many values with skewed counts
//! (Awari, Kalah) by about a third, in the entropy-coded form ([`crate::coded`]). The
//! writer keeps the plain packed body (version 1) for a table the blocks would not shrink
//! enough (`crate::table::write_table`).
//!
//! # Layout, all integers little-endian
//!
//! ```text
//! body    = index | blocks
//! index   = (B + 1) offsets, u64 each, B = ceil(entries / BLOCK): where each block starts,
//!           counted from the end of the index; the last one is the length of all blocks
//! block   = form byte, then by form:
//!   0 constant   code u16                        every rank of the block has this code
//!   1 palette    w u8 (1..=12)
//!                palette: 2^w codes u16
//!                n palette indices packed at w bits (`encoding::packed`)
//!   2 sparse     default u16                     the code of every rank not listed
//!                k u16 (1..=n)                   ranks listed
//!                w u8 (0..=12)
//!                palette: 2^w codes u16
//!                k positions in the block packed at 12 bits, strictly increasing, < n
//!                k palette indices packed at w bits (nothing when w = 0)
//!   3 coded      a canonical Huffman code of the block's codes, and the ranks'
//!                codewords (layout in `crate::coded`)
//! ```
//!
//! `n` is [`BLOCK`] except in the last block, which holds the ranks left. A palette holds
//! the block's distinct codes in increasing order, padded to `2^w` entries by repeating
//! the last, so that every packed index names a code: once the opening check
//! ([`check`]) has passed, a probe needs no check of its own.

use crate::coded::{self, Code};
use encoding::{pack, packed_len, PackedSlice};
use rayon::prelude::*;

/// Ranks a block holds (the last block of a table may hold fewer).
pub const BLOCK: u64 = 1 << POSITION_BITS;
/// Bits of a position inside a block.
const POSITION_BITS: u32 = 12;
/// Blocks encoded at a time by one task of [`write`].
const BLOCKS_PER_PIECE: usize = 1 << 12;

const CONSTANT: u8 = 0;
const PALETTE: u8 = 1;
const SPARSE: u8 = 2;
pub(crate) const CODED: u8 = 3;

/// How one block is stored.
enum Form {
    Constant(u16),
    /// Distinct codes in increasing order, padded to a power of two.
    Palette(Vec<u16>),
    /// The default code, and the other codes in increasing order, padded.
    Sparse(u16, Vec<u16>),
    /// A prefix code for the block's codes, and the block's bytes in it.
    Coded(Code, u64),
}

/// Counts a block's codes: one histogram slot per code value, cleared after each block.
struct Census {
    counts: Vec<u32>,
    distinct: Vec<u16>,
}

impl Census {
    fn new(max_code: u16) -> Census {
        Census { counts: vec![0; max_code as usize + 1], distinct: Vec::new() }
    }

    /// The smallest form of `block`.
    fn form(&mut self, block: &[u16]) -> Form {
        for &c in block {
            let slot = &mut self.counts[c as usize];
            if *slot == 0 {
                self.distinct.push(c);
            }
            *slot += 1;
        }
        self.distinct.sort_unstable();
        // The most frequent code, the smallest of equals, so that the bytes depend on the
        // codes alone.
        let default = self.distinct.iter().copied().max_by_key(|&c| (self.counts[c as usize], std::cmp::Reverse(c)));
        let form = match (self.distinct.len(), default) {
            (_, None) | (1, _) => Form::Constant(self.distinct.first().copied().unwrap_or(0)),
            (_, Some(default)) => {
                let palette = padded(self.distinct.clone());
                let others = padded(self.distinct.iter().copied().filter(|&c| c != default).collect());
                let listed = block.len() as u64 - self.counts[default as usize] as u64;
                let palette_len = palette_bytes(palette.len()) + packed_len(block.len() as u64, width(palette.len()));
                let sparse_len = sparse_bytes(listed, others.len());
                let counts: Vec<(u16, u32)> = self.distinct.iter().map(|&c| (c, self.counts[c as usize])).collect();
                let coded = Code::new(&counts).map(|code| {
                    let bits = code.stream_bits(&counts);
                    (code.block_bytes(block.len() as u64, bits), code)
                });
                match coded {
                    Some((coded_len, code)) if coded_len < sparse_len.min(palette_len) => Form::Coded(code, coded_len),
                    _ if sparse_len < palette_len => Form::Sparse(default, others),
                    _ => Form::Palette(palette),
                }
            }
        };
        for &c in &self.distinct {
            self.counts[c as usize] = 0;
        }
        self.distinct.clear();
        form
    }
}

/// `codes` padded with its last to a power of two.
fn padded(mut codes: Vec<u16>) -> Vec<u16> {
    let last = codes.last().copied().unwrap_or(0);
    codes.resize(codes.len().next_power_of_two(), last);
    codes
}

/// The index width of a palette of `len` (a power of two) codes.
fn width(len: usize) -> u32 {
    len.trailing_zeros()
}

/// Form byte, width byte and palette.
fn palette_bytes(len: usize) -> u64 {
    2 + 2 * len as u64
}

/// Bytes of a sparse block listing `listed` ranks with a palette of `len` codes.
fn sparse_bytes(listed: u64, len: usize) -> u64 {
    let w = width(len);
    6 + 2 * len as u64 + packed_len(listed, POSITION_BITS) + if w == 0 { 0 } else { packed_len(listed, w) }
}

fn form_bytes(form: &Form, block: &[u16]) -> u64 {
    match form {
        Form::Constant(_) => 3,
        Form::Palette(palette) => palette_bytes(palette.len()) + packed_len(block.len() as u64, width(palette.len())),
        Form::Sparse(default, others) => {
            sparse_bytes(block.iter().filter(|&&c| c != *default).count() as u64, others.len())
        }
        Form::Coded(_, bytes) => *bytes,
    }
}

fn encode(form: &Form, block: &[u16], out: &mut Vec<u8>) {
    let index_in = |palette: &[u16], c: u16| palette.partition_point(|&p| p < c) as u32;
    match form {
        Form::Constant(code) => {
            out.push(CONSTANT);
            out.extend_from_slice(&code.to_le_bytes());
        }
        Form::Palette(palette) => {
            out.push(PALETTE);
            out.push(width(palette.len()) as u8);
            out.extend(palette.iter().flat_map(|c| c.to_le_bytes()));
            out.extend(pack(block.iter().map(|&c| index_in(palette, c)), width(palette.len())));
        }
        Form::Sparse(default, others) => {
            let listed: Vec<(u32, u16)> =
                block.iter().enumerate().filter(|(_, &c)| c != *default).map(|(i, &c)| (i as u32, c)).collect();
            out.push(SPARSE);
            out.extend_from_slice(&default.to_le_bytes());
            out.extend_from_slice(&(listed.len() as u16).to_le_bytes());
            let w = width(others.len());
            out.push(w as u8);
            out.extend(others.iter().flat_map(|c| c.to_le_bytes()));
            out.extend(pack(listed.iter().map(|&(i, _)| i), POSITION_BITS));
            if w > 0 {
                out.extend(pack(listed.iter().map(|&(_, c)| index_in(others, c)), w));
            }
        }
        Form::Coded(code, _) => code.encode(block, out),
    }
}

/// Where the codes to store come from: `read(b, out)` appends the codes of block `b`
/// (ranks `b·BLOCK ..`, at most [`BLOCK`] of them) to `out`; shared by the threads.
pub trait Codes: Fn(u64, &mut Vec<u16>) + Sync {}
impl<F: Fn(u64, &mut Vec<u16>) + Sync> Codes for F {}

/// The codes of block `b` of a slice, for [`Plan`].
pub fn slice_block<C: Copy + Into<u16>>(codes: &[C], b: u64, out: &mut Vec<u16>) {
    let start = (b * BLOCK) as usize;
    out.extend(codes[start..codes.len().min(start + BLOCK as usize)].iter().map(|&c| c.into()));
}

/// The forms chosen for a table's blocks, by their lengths: known before anything is
/// written, so the writer can choose the plain body instead, and the index can come first.
pub struct Plan {
    /// Bytes of each block, in order.
    lengths: Vec<u64>,
    max_code: u16,
}

impl Plan {
    /// Chooses the form of every block of `entries` codes, none above `max_code`.
    pub fn new(entries: u64, max_code: u16, read: &impl Codes) -> Plan {
        let lengths = (0..block_count(entries))
            .into_par_iter()
            .map_init(
                || (Census::new(max_code), Vec::with_capacity(BLOCK as usize)),
                |(census, block), b| {
                    block.clear();
                    read(b, block);
                    form_bytes(&census.form(block), block)
                },
            )
            .collect();
        Plan { lengths, max_code }
    }

    /// Bytes of the whole blocked body, index included.
    pub fn len(&self) -> u64 {
        8 * (self.lengths.len() as u64 + 1) + self.lengths.iter().sum::<u64>()
    }

    /// Writes the blocked body of the codes the plan was made for piece by piece to `out`,
    /// in order.
    pub fn write(&self, read: &impl Codes, mut out: impl FnMut(&[u8]) -> std::io::Result<()>) -> std::io::Result<()> {
        let mut offset = 0u64;
        let mut index = Vec::with_capacity(8 * (self.lengths.len() + 1));
        for length in self.lengths.iter().copied().chain([0]) {
            index.extend_from_slice(&offset.to_le_bytes());
            offset += length;
        }
        out(&index)?;
        drop(index);
        let blocks = self.lengths.len() as u64;
        for first in (0..blocks).step_by(BLOCKS_PER_PIECE) {
            let encoded: Vec<Vec<u8>> = (first..blocks.min(first + BLOCKS_PER_PIECE as u64))
                .into_par_iter()
                .map_init(
                    || (Census::new(self.max_code), Vec::with_capacity(BLOCK as usize)),
                    |(census, block), b| {
                        block.clear();
                        read(b, block);
                        let mut bytes = Vec::new();
                        encode(&census.form(block), block, &mut bytes);
                        bytes
                    },
                )
                .collect();
            for bytes in &encoded {
                out(bytes)?;
            }
        }
        Ok(())
    }
}

fn u16_at(bytes: &[u8], at: usize) -> Option<u16> {
    Some(u16::from_le_bytes(bytes.get(at..at + 2)?.try_into().ok()?))
}

fn u64_at(bytes: &[u8], at: usize) -> Option<u64> {
    Some(u64::from_le_bytes(bytes.get(at..at + 8)?.try_into().ok()?))
}

/// Blocks of a table of `entries` ranks.
pub fn block_count(entries: u64) -> u64 {
    entries.div_ceil(BLOCK)
}

/// Where in a blocked body the index entry of `rank`'s block (the offset its data start
/// at) lies: the first bytes a probe of `rank` reads.
#[inline(always)]
pub fn index_entry(rank: u64) -> usize {
    8 * (rank / BLOCK) as usize
}

/// The code at `rank` of a blocked `body` of `entries` ranks that passed [`check`];
/// `None` past the end.
#[inline]
pub fn get(body: &[u8], entries: u64, rank: u64) -> Option<u16> {
    if rank >= entries {
        return None;
    }
    let (start, end) = block_span(body.get(index_entry(rank)..)?, entries)?;
    let block = body.get(start..)?;
    let i = rank % BLOCK;
    let n = block_ranks(entries, rank);
    // A block's data follow a short header rank by rank, so the byte as far into the
    // block as the rank is into its ranks is about where the probe will read: loaded now,
    // its cache miss overlaps the header's instead of following it.
    let guess = (end.saturating_sub(start) as u64 * i / n) as usize;
    std::hint::black_box(block.get(guess).copied());
    get_in_block(block, n, i)
}

/// Where a block lies in a blocked body of `entries` ranks, given the body's bytes from
/// its index entry on ([`index_entry`]; 16 of them, this block's entry and the next one's,
/// are read): its first byte and the byte after it, counted from the start of the body.
#[inline(always)]
pub fn block_span(entry: &[u8], entries: u64) -> Option<(usize, usize)> {
    let index_len = index_bytes(entries) as usize;
    let start = u64_at(entry, 0)? as usize;
    let end = u64_at(entry, 8)? as usize;
    Some((index_len.checked_add(start)?, index_len.checked_add(end)?))
}

/// Bytes of the index of a blocked body of `entries` ranks.
pub fn index_bytes(entries: u64) -> u64 {
    8 * (block_count(entries) + 1)
}

/// Ranks in the block of `rank`, of a table of `entries` ranks.
#[inline(always)]
pub fn block_ranks(entries: u64, rank: u64) -> u64 {
    (entries - rank + rank % BLOCK).min(BLOCK)
}

/// The code of the `i`th of the `n` ranks of `block` (a block that passed [`check`]).
#[inline]
pub fn get_in_block(block: &[u8], n: u64, i: u64) -> Option<u16> {
    match *block.first()? {
        CONSTANT => u16_at(block, 1),
        PALETTE => {
            let w = *block.get(1)? as u32;
            let palette = 2 + 2 * (1usize << w);
            let at = PackedSlice::new(block.get(palette..palette + packed_len(n, w) as usize)?, w, n)?.get(i)?;
            u16_at(block, 2 + 2 * at as usize)
        }
        SPARSE => {
            let k = u16_at(block, 3)? as u64;
            let w = *block.get(5)? as u32;
            let positions_at = 6 + 2 * (1usize << w);
            let positions_end = positions_at + packed_len(k, POSITION_BITS) as usize;
            let positions = PackedSlice::new(block.get(positions_at..positions_end)?, POSITION_BITS, k)?;
            let (mut low, mut high) = (0u64, k);
            while low < high {
                let middle = (low + high) / 2;
                if (positions.get(middle)? as u64) < i {
                    low = middle + 1;
                } else {
                    high = middle;
                }
            }
            if low == k || positions.get(low)? as u64 != i {
                return u16_at(block, 1);
            }
            let at = if w == 0 {
                0
            } else {
                let indices = block.get(positions_end..positions_end + packed_len(k, w) as usize)?;
                PackedSlice::new(indices, w, k)?.get(low)?
            };
            u16_at(block, 6 + 2 * at as usize)
        }
        CODED => coded::get(block, n, i),
        _ => None,
    }
}

/// Every code of a blocked `body` of `entries` ranks that passed [`check`], in rank order.
pub fn decode(body: &[u8], entries: u64) -> Vec<u16> {
    let mut codes = Vec::with_capacity(entries as usize);
    for b in 0..block_count(entries) {
        decode_block(body, entries, b, &mut codes);
    }
    codes
}

/// Appends the codes of block `b` of a body of `entries` codes to `out`, in rank order.
pub fn decode_block(body: &[u8], entries: u64, b: u64, out: &mut Vec<u16>) {
    let first = b * BLOCK;
    let n = entries.saturating_sub(first).min(BLOCK);
    let span = body.get(index_entry(first)..).and_then(|entry| block_span(entry, entries));
    match span.and_then(|(start, end)| body.get(start..end)) {
        Some(block) => decode_in_block(block, n, out),
        None => out.extend((0..n).map(|_| 0)),
    }
}

/// Appends the `n` codes of `block` (a block that passed [`check`]) to `out`, in rank order.
pub fn decode_in_block(block: &[u8], n: u64, out: &mut Vec<u16>) {
    // A coded block decodes front to back once; the others are read rank by rank.
    if block.first() == Some(&CODED) {
        coded::decode(block, n, out)
    } else {
        out.extend((0..n).map(|i| get_in_block(block, n, i).unwrap_or(0)))
    }
}

/// What is wrong with a blocked body, in words.
pub type Fault = String;

/// Checks that a blocked `body` of `entries` ranks is well formed, so that every probe
/// finds its block and reads inside it, and that every code fits in `bits`.
pub fn check(body: &[u8], entries: u64, bits: u32) -> Result<(), Fault> {
    let index_len = index_bytes(entries).min(body.len() as u64) as usize;
    check_with(&body[..index_len], body.len() as u64, entries, bits, |start, end| {
        Ok(std::borrow::Cow::Borrowed(&body[start as usize..end as usize]))
    })
}

/// [`check`] of a body of `body_len` bytes whose index is `index` (the body's first
/// bytes, as many as it has up to the index's length), its blocks read in order by
/// `block` (from its first byte to the byte after it, counted from the body's start; a
/// range inside the body) where the body is not in memory whole.
pub fn check_with<'a>(
    index: &[u8],
    body_len: u64,
    entries: u64,
    bits: u32,
    mut block: impl FnMut(u64, u64) -> Result<std::borrow::Cow<'a, [u8]>, Fault>,
) -> Result<(), Fault> {
    let blocks = block_count(entries);
    let index_len = index_bytes(entries);
    if index_len > body_len || index.len() as u64 != index_len {
        return Err(format!("the index of {blocks} blocks does not fit in a body of {body_len} bytes"));
    }
    let area_len = body_len - index_len;
    let offset = |b: u64| u64_at(index, 8 * b as usize).unwrap_or(u64::MAX);
    if offset(0) != 0 || offset(blocks) != area_len {
        return Err("the index does not span the blocks".into());
    }
    let widest = if bits >= 16 { u16::MAX } else { (1u16 << bits) - 1 };
    for b in 0..blocks {
        let (start, end) = (offset(b), offset(b + 1));
        if start > end || end > area_len {
            return Err(format!("block {b}: its index entries are out of order"));
        }
        let n = (entries - b * BLOCK).min(BLOCK);
        let bytes = block(index_len + start, index_len + end)?;
        check_block(&bytes, n, widest).map_err(|what| format!("block {b}: {what}"))?;
    }
    Ok(())
}

fn check_block(block: &[u8], n: u64, widest: u16) -> Result<(), Fault> {
    let codes_fit = |at: usize, len: usize| -> Result<(), Fault> {
        match (0..len).map(|j| u16_at(block, at + 2 * j)).try_fold(0u16, |m, c| c.map(|c| m.max(c))) {
            Some(max) if max <= widest => Ok(()),
            Some(max) => Err(format!("code {max} is wider than the table's entries")),
            None => Err("shorter than its palette".into()),
        }
    };
    let expect = |len: u64| {
        if block.len() as u64 == len {
            Ok(())
        } else {
            Err(format!("{} bytes where its form takes {len}", block.len()))
        }
    };
    match block.first().copied() {
        Some(CONSTANT) => {
            expect(3)?;
            codes_fit(1, 1)
        }
        Some(PALETTE) => {
            let w = block.get(1).copied().ok_or("no palette width")? as u32;
            if !(1..=POSITION_BITS).contains(&w) {
                return Err(format!("palette width {w}"));
            }
            expect(palette_bytes(1 << w) + packed_len(n, w))?;
            codes_fit(2, 1 << w)
        }
        Some(SPARSE) => {
            let k = u16_at(block, 3).ok_or("no count of listed ranks")? as u64;
            let w = block.get(5).copied().ok_or("no palette width")? as u32;
            if w > POSITION_BITS || !(1..=n).contains(&k) {
                return Err(format!("{k} ranks listed with a palette width {w}"));
            }
            expect(sparse_bytes(k, 1 << w))?;
            codes_fit(1, 1)?;
            codes_fit(6, 1 << w)?;
            let at = 6 + 2 * (1usize << w);
            let positions = PackedSlice::new(&block[at..at + packed_len(k, POSITION_BITS) as usize], POSITION_BITS, k)
                .ok_or("positions cut short")?;
            let listed: Vec<u32> = positions.iter().collect();
            if listed.windows(2).any(|p| p[0] >= p[1]) || listed.last().is_some_and(|&last| last as u64 >= n) {
                return Err("listed ranks out of order or past the block".into());
            }
            Ok(())
        }
        Some(CODED) => coded::check(block, n, widest),
        Some(form) => Err(format!("unknown form {form}")),
        None => Err("empty".into()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn blocked(codes: &[u16]) -> Vec<u8> {
        let read = |b, out: &mut Vec<u16>| slice_block(codes, b, out);
        let plan = Plan::new(codes.len() as u64, codes.iter().copied().max().unwrap_or(0), &read);
        let mut body = Vec::new();
        plan.write(&read, |piece| {
            body.extend_from_slice(piece);
            Ok(())
        })
        .unwrap();
        assert_eq!(plan.len(), body.len() as u64);
        body
    }

    fn forms(body: &[u8], entries: u64) -> Vec<u8> {
        let area = 8 * (block_count(entries) as usize + 1);
        (0..block_count(entries)).map(|b| body[area + u64_at(body, 8 * b as usize).unwrap() as usize]).collect()
    }

    #[test]
    fn each_form_reads_back() {
        // A constant block, a mostly-draw block, a varied block, one of skewed counts
        // (one code in two, one in four, ...), and a short last one.
        let n = BLOCK as usize;
        let mut codes = vec![0u16; n];
        codes.extend((0..n).map(|i| if i % 97 == 3 { 5 + (i % 3) as u16 } else { 0 }));
        codes.extend((0..n).map(|i| (i * 7 % 8) as u16));
        codes.extend((0..n).map(|i| ((i * 5) | 0x8000).trailing_zeros() as u16 % 10));
        codes.extend([9u16, 9, 4]);
        let body = blocked(&codes);
        assert_eq!(forms(&body, codes.len() as u64), [CONSTANT, SPARSE, PALETTE, CODED, PALETTE]);
        check(&body, codes.len() as u64, 4).unwrap();
        assert_eq!(decode(&body, codes.len() as u64), codes);
        assert_eq!(get(&body, codes.len() as u64, codes.len() as u64), None);
        // Code 9 does not fit in three bits.
        assert!(check(&body, codes.len() as u64, 3).is_err());
    }

    #[test]
    fn a_damaged_block_is_refused() {
        let entries = 3 * BLOCK - 100;
        let codes: Vec<u16> = (0..entries).map(|i| if i % 50 == 0 { 3 } else { 0 }).collect();
        let body = blocked(&codes);
        let area = 8 * (block_count(entries) as usize + 1);
        let mut unknown = body.clone();
        unknown[area] = 7;
        assert!(check(&unknown, entries, 2).unwrap_err().contains("unknown form"));
        let mut reordered = body.clone();
        reordered[8] ^= 1;
        assert!(check(&reordered, entries, 2).is_err());
        assert!(check(&body[..body.len() - 1], entries, 2).is_err());
        assert!(check(&body, entries + BLOCK, 2).is_err());
    }

    proptest! {
        #[test]
        fn every_rank_reads_back(
            runs in proptest::collection::vec((0u16..40, 1usize..3000), 0..12),
            noise in proptest::collection::vec((any::<prop::sample::Index>(), 0u16..300), 0..40),
        ) {
            let mut codes: Vec<u16> = runs.iter().flat_map(|&(c, n)| std::iter::repeat_n(c, n)).collect();
            if !codes.is_empty() {
                for (at, c) in noise {
                    let i = at.index(codes.len());
                    codes[i] = c;
                }
            }
            let body = blocked(&codes);
            prop_assert!(check(&body, codes.len() as u64, 9).is_ok());
            for (rank, &c) in codes.iter().enumerate() {
                prop_assert_eq!(get(&body, codes.len() as u64, rank as u64), Some(c));
            }
        }
    }
}
