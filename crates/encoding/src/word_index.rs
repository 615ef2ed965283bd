//! Dense ranking of fixed-length words whose letters carry a two-counter weight.
//!
//! A board of `C` cells, each cell holding one letter of its own alphabet, is a word
//! `w[0] w[1] … w[C-1]`. Every letter weighs a pair `(x, y)` (for a stacking game: the
//! counters of each colour in a stack; for a sowing game: the seeds in a pit, `y = 0`).
//! The words of total weight exactly `(X, Y)` are numbered `0 .. size(X, Y)` in
//! lexicographic order, cell 0 most significant:
//!
//! ```text
//!   cell:      0        1        2     …    C-1
//!   letter:   w[0]     w[1]     w[2]   …   w[C-1]
//!   rank  = Σ_c  below[c][remaining weight before c][w[c]]
//!   below[c][r][s] = Σ_{s' < s} ways(c+1, r − weight(s'))
//! ```
//!
//! `ways(c, r)` counts the fillings of cells `c..C` that weigh exactly `r`. Both tables
//! are computed once, so ranking costs one table look-up per cell and unranking one
//! short scan per cell. The numbering is dense: every rank below `size` is a word.
//!
//! This is the combinatorial number system generalised to per-cell alphabets: with
//! alphabets `{0, 1, 2, …}` of weight `(k, 0)` it numbers the compositions of `X`
//! into `C` parts, as a sowing game needs.

use thiserror::Error;

/// What can go wrong when a word index is built or used.
#[derive(Debug, Error, PartialEq, Eq)]
pub enum IndexError {
    /// Some weight up to the largest has more words than a `u64` counts.
    #[error("the index would number more than 2^64 words (weight up to {0:?})")]
    TooLarge([u32; 2]),
    /// A word holds a letter its cell's alphabet does not have.
    #[error("cell {cell} has no letter {letter} in its alphabet")]
    UnknownLetter {
        /// The cell, from 0.
        cell: usize,
        /// The letter found there.
        letter: usize,
    },
    /// A word of another length than the index's cells.
    #[error("a word of {got} cells was given to an index of {want} cells")]
    WrongLength {
        /// The word's length.
        got: usize,
        /// The index's cells.
        want: usize,
    },
    /// A weight above the largest the index was built for.
    #[error("weight {0:?} is outside this index")]
    WeightOutOfRange([u32; 2]),
    /// A rank at or beyond the number of words of its weight.
    #[error("rank {rank} is not below the {size} words of weight {weight:?}")]
    RankOutOfRange {
        /// The rank asked for.
        rank: u64,
        /// The words of that weight.
        size: u64,
        /// The weight.
        weight: [u32; 2],
    },
}

/// Where a table of terms by cell (or unit), letter and weight keeps an entry.
///
/// Few letters fill most words (an empty square, a single counter), so a table is laid
/// out letter by letter (`[cell][letter][weight]`) when a letter's terms for every weight
/// fit in a few cache lines: the terms most ranks read then share those lines. With more
/// weights than that (a 3×3 board with nine counters a side has 100), the rows of a cell
/// for the weights a rank reads are fewer than its letters' rows, and a table is laid out
/// weight by weight (`[cell][weight][letter]`), as it was first.
#[derive(Debug, Clone, Copy)]
pub(crate) struct TermLayout {
    /// Entries of a cell (or unit).
    pub(crate) per_cell: usize,
    /// How far apart a cell's letters are.
    pub(crate) letter: usize,
    /// How far apart a letter's weights are.
    pub(crate) weight: usize,
}

impl TermLayout {
    /// Most weights whose terms a letter keeps together: eight cache lines of `u64`.
    const LETTER_BY_LETTER_UP_TO: usize = 64;

    /// The layout of `letters` letters by `weights` weights a cell.
    pub(crate) fn new(letters: usize, weights: usize) -> TermLayout {
        let per_cell = letters * weights;
        if weights <= Self::LETTER_BY_LETTER_UP_TO {
            TermLayout { per_cell, letter: weights, weight: 1 }
        } else {
            TermLayout { per_cell, letter: 1, weight: letters }
        }
    }

    /// The place of letter `letter`'s term for the weight numbered `weight` in `cell`.
    #[inline]
    pub(crate) fn at(&self, cell: usize, letter: usize, weight: usize) -> usize {
        cell * self.per_cell + letter * self.letter + weight * self.weight
    }
}

/// The alphabet of one cell: the weight of each letter, letters numbered from 0.
pub type Alphabet = Vec<[u32; 2]>;

/// Dense ranks for words over per-cell alphabets, split by total weight.
#[derive(Debug, Clone)]
pub struct WordIndex {
    cells: usize,
    /// Largest total weight the index serves, inclusive.
    max: [u32; 2],
    alphabets: Vec<Alphabet>,
    /// `ways[c][x][y]`, flattened; `c` runs to `cells` inclusive.
    ways: Vec<u64>,
    /// `below[c][x][y][s]`, with the alphabet of cell `c` padded to `letters`, flattened
    /// as `layout` says.
    below: Vec<u64>,
    /// Where `below` keeps a cell's letter's term for a weight.
    layout: TermLayout,
    /// Longest alphabet: the letters of a cell in `below`.
    letters: usize,
    /// `weights[c · letters + s]`: the weight of letter `s` of cell `c` (padding zero).
    weights: Vec<[u32; 2]>,
    /// `steps[c][s]`, for letter `s` of cell `c`: where its terms start in `below` (each
    /// weight's a stride of the layout further on), and how far it moves a word's weight
    /// there (its own weight `(x, y)` as `x · (max[1] + 1) + y`, times the stride), so
    /// that ranking steps one offset instead of recomputing it from the rest. A row per
    /// cell of 256, one per byte, needs no bounds check for a letter.
    steps: Vec<[[u32; 2]; 256]>,
    /// Whether every cell's alphabet is `0..=max[0]`, letter `k` weighing `(k, 0)` (pits
    /// of seeds): then [`WordIndex::locate_counts`] serves.
    counts: bool,
    /// With counts and `max[0]` at most 255 (else empty), `terms[c][r]` for `r` up to
    /// `max[0]` (the rest of a row unused): a rank as one look-up a cell by the seeds from
    /// that cell on alone (see [`WordIndex::locate_counts`]). A row of 256 needs no bounds
    /// check for a `u8` index.
    terms: Vec<[u64; 256]>,
    /// `successor[c][r][s]`, `r` a weight index and `s` up to `letters`: the first letter
    /// from `s` on that cell `c` can hold when cells `c..` weigh `r` (the cells after it
    /// able to weigh the rest), or [`NO_LETTER`]. Stepping a word to the next is then
    /// one look-up a cell. Empty for an index with letters past a byte's or weight
    /// indices past 16 bits, whose words are not stepped.
    successor: Vec<u8>,
    /// `letter_index[c · letters + s]`: the weight index of letter `s` of cell `c`.
    letter_index: Vec<u16>,
}

/// No letter, in [`WordIndex`]'s `successor` table.
const NO_LETTER: u8 = u8::MAX;

impl WordIndex {
    /// An index over `alphabets.len()` cells for every total weight up to `max`.
    pub fn new(alphabets: Vec<Alphabet>, max: [u32; 2]) -> Result<Self, IndexError> {
        let cells = alphabets.len();
        let letters = alphabets.iter().map(Vec::len).max().unwrap_or(0);
        let (wx, wy) = (max[0] as usize + 1, max[1] as usize + 1);
        let slot = |c: usize, x: usize, y: usize| (c * wx + x) * wy + y;
        let mut ways = vec![0u64; (cells + 1) * wx * wy];
        ways[slot(cells, 0, 0)] = 1;
        let layout = TermLayout::new(letters, wx * wy);
        let term = |c: usize, s: usize, x: usize, y: usize| layout.at(c, s, x * wy + y);
        let mut below = vec![0u64; cells * wx * wy * letters];
        for c in (0..cells).rev() {
            for x in 0..wx {
                for y in 0..wy {
                    let mut sum: u64 = 0;
                    for (s, w) in alphabets[c].iter().enumerate() {
                        below[term(c, s, x, y)] = sum;
                        let (lx, ly) = (w[0] as usize, w[1] as usize);
                        if lx <= x && ly <= y {
                            sum =
                                sum.checked_add(ways[slot(c + 1, x - lx, y - ly)]).ok_or(IndexError::TooLarge(max))?;
                        }
                    }
                    for s in alphabets[c].len()..letters {
                        below[term(c, s, x, y)] = sum;
                    }
                    ways[slot(c, x, y)] = sum;
                }
            }
        }
        let mut weights = vec![[0, 0]; cells * letters];
        for (c, alphabet) in alphabets.iter().enumerate() {
            weights[c * letters..c * letters + alphabet.len()].copy_from_slice(alphabet);
        }
        if below.len() > u32::MAX as usize {
            return Err(IndexError::TooLarge(max));
        }
        let steps = (0..cells)
            .map(|c| {
                let mut row = [[0u32; 2]; 256];
                // Letters past a byte's are never in a word.
                for (s, w) in weights[c * letters..(c + 1) * letters].iter().enumerate().take(256) {
                    row[s] = [layout.at(c, s, 0) as u32, ((w[0] as usize * wy + w[1] as usize) * layout.weight) as u32];
                }
                row
            })
            .collect();
        let counts = max[1] == 0
            && alphabets.iter().all(|a| a.len() == wx && a.iter().enumerate().all(|(k, w)| *w == [k as u32, 0]));
        let terms = if counts && max[0] <= u8::MAX as u32 { count_terms(cells, wx, &ways) } else { Vec::new() };
        // Letters are bytes, and one value means none; weight indices fit 16 bits.
        let steps_words = letters < NO_LETTER as usize && wx * wy <= 1 << 16;
        let mut successor = vec![NO_LETTER; if steps_words { cells * wx * wy * (letters + 1) } else { 0 }];
        for (c, alphabet) in alphabets.iter().enumerate().filter(|_| steps_words) {
            for r in 0..wx * wy {
                let (x, y) = (r / wy, r % wy);
                let row = &mut successor[(c * wx * wy + r) * (letters + 1)..][..letters + 1];
                let mut next = NO_LETTER;
                for s in (0..alphabet.len()).rev() {
                    let [lx, ly] = alphabet[s].map(|w| w as usize);
                    if lx <= x && ly <= y && ways[slot(c + 1, x - lx, y - ly)] > 0 {
                        next = s as u8;
                    }
                    row[s] = next;
                }
            }
        }
        // Only read where words are stepped, whose weight indices fit.
        let letter_index = weights.iter().map(|w| (w[0] as usize * wy + w[1] as usize) as u16).collect();
        Ok(WordIndex {
            cells,
            max,
            alphabets,
            ways,
            below,
            layout,
            letters,
            weights,
            steps,
            counts,
            terms,
            successor,
            letter_index,
        })
    }

    /// The index of counts: `cells` cells, each holding 0 to `max` (letter `k` weighing
    /// `(k, 0)`, the seeds of a pit), for every total up to `max`.
    pub fn of_counts(cells: usize, max: u32) -> Result<Self, IndexError> {
        let cell: Alphabet = (0..=max).map(|k| [k, 0]).collect();
        WordIndex::new(vec![cell; cells], [max, 0])
    }

    /// Cells of a word.
    pub fn cells(&self) -> usize {
        self.cells
    }

    fn slot(&self, c: usize, x: u32, y: u32) -> usize {
        (c * (self.max[0] as usize + 1) + x as usize) * (self.max[1] as usize + 1) + y as usize
    }

    fn check_weight(&self, weight: [u32; 2]) -> Result<(), IndexError> {
        if weight[0] > self.max[0] || weight[1] > self.max[1] {
            return Err(IndexError::WeightOutOfRange(weight));
        }
        Ok(())
    }

    /// Number of words of total weight exactly `weight`.
    pub fn size(&self, weight: [u32; 2]) -> Result<u64, IndexError> {
        self.check_weight(weight)?;
        Ok(self.ways[self.slot(0, weight[0], weight[1])])
    }

    /// Total weight of a word, or an error naming a letter outside its cell's alphabet.
    pub fn weight(&self, word: &[u8]) -> Result<[u32; 2], IndexError> {
        if word.len() != self.cells {
            return Err(IndexError::WrongLength { got: word.len(), want: self.cells });
        }
        let mut total = [0u32; 2];
        for (cell, &letter) in word.iter().enumerate() {
            let w = self.alphabets[cell]
                .get(letter as usize)
                .ok_or(IndexError::UnknownLetter { cell, letter: letter as usize })?;
            total[0] += w[0];
            total[1] += w[1];
        }
        Ok(total)
    }

    /// Rank of `word` among the words of its own weight, with that weight.
    pub fn rank(&self, word: &[u8]) -> Result<([u32; 2], u64), IndexError> {
        let weight = self.weight(word)?;
        self.check_weight(weight)?;
        Ok((weight, self.rank_unchecked(word, weight)))
    }

    /// Rank of a word already known to be valid and to weigh `weight`.
    fn rank_unchecked(&self, word: &[u8], weight: [u32; 2]) -> u64 {
        self.rank_from(0, weight, word)
    }

    /// The part of a rank owed to cells `first..` holding `tail`, which weigh `rest`
    /// together (hot path; unchecked).
    #[inline]
    pub(crate) fn rank_from(&self, first: usize, rest: [u32; 2], tail: &[u8]) -> u64 {
        self.rank_after(first, self.weight_index(rest), tail)
    }

    /// [`WordIndex::rank_from`], the rest given as its weight index
    /// `rest[0] · (max[1] + 1) + rest[1]`.
    #[inline]
    pub(crate) fn rank_after(&self, first: usize, rest: usize, tail: &[u8]) -> u64 {
        // `at` is the rest's place among a letter's terms, which each letter's step moves.
        let mut at = rest * self.layout.weight;
        let mut rank = 0u64;
        for (row, &letter) in self.steps[first..].iter().zip(tail) {
            let [terms, step] = row[letter as usize];
            rank += self.below[terms as usize + at];
            at -= step as usize;
        }
        rank
    }

    /// Fillings of cells `c..` that weigh exactly `rest` (0 for a weight outside the index).
    #[inline]
    pub(crate) fn ways_from(&self, c: usize, rest: [u32; 2]) -> u64 {
        if rest[0] > self.max[0] || rest[1] > self.max[1] {
            return 0;
        }
        self.ways[self.slot(c, rest[0], rest[1])]
    }

    /// The weight of letter `s` of cell `c`.
    #[inline]
    pub(crate) fn letter_weight(&self, c: usize, s: u8) -> [u32; 2] {
        self.weights[c * self.letters + s as usize]
    }

    /// The alphabet of cell `c`.
    pub(crate) fn alphabet(&self, c: usize) -> &Alphabet {
        &self.alphabets[c]
    }

    /// Largest total weight the index serves.
    pub(crate) fn max(&self) -> [u32; 2] {
        self.max
    }

    /// For an index of counts (every cell's alphabet `0..=max`, letter `k` weighing
    /// `(k, 0)`: the seeds of a pit): the word's total and its rank, in one pass from the
    /// last cell back, which adds up each cell's `rest` (the count from it on) as it goes
    /// and looks up one term by cell and `rest` alone (`count_terms` says why that is the
    /// rank). Every sowing game ranks each move's child with this: it spares
    /// [`WordIndex::rank`]'s total computed beforehand and its look-ups of each letter's
    /// weights (a Kalah table build: a quarter of its instructions).
    ///
    /// Hot path, unchecked: the word's total must be at most the index's `max`.
    #[inline]
    pub fn locate_counts(&self, word: &[u8]) -> (u32, u64) {
        debug_assert!(self.counts, "locate_counts on an index whose letters do not weigh themselves");
        debug_assert_eq!(word.len(), self.cells, "a word of another length");
        if self.terms.is_empty() {
            // Totals past 255: ranked the general way.
            let total: u32 = word.iter().map(|&c| c as u32).sum();
            return (total, self.rank_from(0, [total, 0], word));
        }
        // Slices of one length, so that the loop's indexing needs no checks.
        let terms = &self.terms[..word.len().min(self.terms.len())];
        let word = &word[..terms.len()];
        let (mut rest, mut rank) = (0u8, 0u64);
        for c in (0..terms.len()).rev() {
            // A total past 255 is outside the index (its `max` is at most 255 here): a
            // wrong rank, not a panic, as the contract says.
            rest = rest.wrapping_add(word[c]);
            rank = rank.wrapping_add(terms[c][rest as usize]);
        }
        debug_assert!(rest as u32 <= self.max[0], "a word of {rest} outside the index");
        (rest as u32, rank)
    }

    /// The share of `letter` in cell `cell` of a word's rank, when the cells from `cell`
    /// on weigh `rest` together: a rank is the sum of its cells' terms, which can be
    /// added up from the last cell back while accumulating `rest` (hot path; unchecked).
    #[inline]
    pub fn term(&self, cell: usize, rest: [u32; 2], letter: u8) -> u64 {
        self.below[self.layout.at(cell, letter as usize, self.weight_index(rest))]
    }

    /// The place of a weight among a letter's terms (before `layout`'s stride).
    #[inline]
    pub(crate) fn weight_index(&self, weight: [u32; 2]) -> usize {
        weight[0] as usize * (self.max[1] as usize + 1) + weight[1] as usize
    }

    /// The flattened `below` table and `steps`: what a rank summed from the last cell
    /// back reads (letter `s` of cell `c`, for the weight at offset `at`, has its term at
    /// `steps[c][s][0] + at`).
    pub(crate) fn terms_and_steps(&self) -> (&[u64], &[[[u32; 2]; 256]]) {
        (&self.below, &self.steps)
    }

    /// Steps `word` to the word of the same weight with the next rank, and gives the
    /// first cell it changed; `None`, the word unchanged, if it was the last, or if the
    /// index does not step words (a cell of more than 254 letters). Cheaper than
    /// unranking the next rank where most steps change only the last cells, as when a
    /// tier is walked in rank order.
    ///
    /// The word must be valid and within the index (as [`WordIndex::unrank`] writes it).
    pub fn next_word(&self, word: &mut [u8]) -> Option<usize> {
        if self.successor.is_empty() {
            return None;
        }
        let row = self.letters + 1;
        let per_cell = (self.max[0] as usize + 1) * (self.max[1] as usize + 1) * row;
        let mut rest = 0usize;
        for c in (0..word.len().min(self.cells)).rev() {
            rest += self.letter_index[c * self.letters + word[c] as usize] as usize;
            // The next letter of this cell after which the cells behind can still weigh
            // what is left; then the cells behind take their first word of that weight.
            let s = self.successor[c * per_cell + rest * row + word[c] as usize + 1];
            if s == NO_LETTER {
                continue;
            }
            word[c] = s;
            rest -= self.letter_index[c * self.letters + s as usize] as usize;
            for (d, letter) in word.iter_mut().enumerate().skip(c + 1) {
                *letter = self.successor[d * per_cell + rest * row];
                rest -= self.letter_index[d * self.letters + *letter as usize] as usize;
            }
            return Some(c);
        }
        None
    }

    /// The word of weight `weight` with rank `rank`, written into `word`.
    pub fn unrank(&self, weight: [u32; 2], rank: u64, word: &mut [u8]) -> Result<(), IndexError> {
        let size = self.size(weight)?;
        if rank >= size {
            return Err(IndexError::RankOutOfRange { rank, size, weight });
        }
        if word.len() != self.cells {
            return Err(IndexError::WrongLength { got: word.len(), want: self.cells });
        }
        self.unrank_from(0, weight, rank, word);
        Ok(())
    }

    /// Writes into `tail` the fillings of cells `first..` weighing `rest` whose share of
    /// the rank (as [`WordIndex::rank_from`] counts it) is `rank`; both must be in range.
    pub(crate) fn unrank_from(&self, first: usize, rest: [u32; 2], rank: u64, tail: &mut [u8]) {
        let mut rest = rest;
        let mut rank = rank;
        for (c, letter) in (first..).zip(tail.iter_mut()) {
            let (base, stride) = (self.layout.at(c, 0, self.weight_index(rest)), self.layout.letter);
            let alphabet = &self.alphabets[c];
            // The letter is the last one whose `below` does not exceed the rank and that
            // still fits the remaining weight.
            let mut chosen = 0;
            for (s, w) in alphabet.iter().enumerate() {
                if self.below[base + s * stride] > rank {
                    break;
                }
                if w[0] <= rest[0] && w[1] <= rest[1] {
                    chosen = s;
                }
            }
            rank -= self.below[base + chosen * stride];
            *letter = chosen as u8;
            let w = alphabet[chosen];
            rest[0] -= w[0];
            rest[1] -= w[1];
        }
    }
}

/// The terms of [`WordIndex::locate_counts`], from `ways[c][x]` (flattened, `c` to
/// `cells` inclusive, `x` below `wx`) of an index of counts.
///
/// A cell's share of a rank, `below[c][S_c][w_c]`, counts the fillings of the cells after
/// it weighing more than `S_c − w_c` and at most `S_c`, where `S_c` is what cells `c..`
/// weigh: `G(c, S_c) − G(c, S_{c+1})`, with `G(c, r)` the fillings of cells `c+1..`
/// weighing at most `r`. Summed over the cells, the terms of neighbouring cells meet at
/// the same `S`, so the rank is `Σ_c H(c, S_c) − 1`, with `H(0, r) = G(0, r)`,
/// `H(c, r) = G(c, r) − G(c − 1, r)`, and the `− 1` the last cell's `G(C − 1, 0)` (the
/// empty filling), folded into its terms. Terms may be negative, so they are added with
/// wrapping; the sum, a rank, is exact.
fn count_terms(cells: usize, wx: usize, ways: &[u64]) -> Vec<[u64; 256]> {
    // G(c, r), one row per cell.
    let at_most: Vec<u64> = (0..cells)
        .flat_map(|c| {
            ways[(c + 1) * wx..(c + 2) * wx].iter().scan(0u64, |sum, &w| {
                *sum = sum.wrapping_add(w);
                Some(*sum)
            })
        })
        .collect();
    let mut terms = at_most.clone();
    for c in 1..cells {
        for r in 0..wx {
            terms[c * wx + r] = at_most[c * wx + r].wrapping_sub(at_most[(c - 1) * wx + r]);
        }
    }
    if let Some(last) = terms.get_mut((cells.max(1) - 1) * wx..) {
        last.iter_mut().for_each(|t| *t = t.wrapping_sub(1));
    }
    terms
        .chunks(wx)
        .map(|row| {
            let mut padded = [0u64; 256];
            padded[..row.len()].copy_from_slice(row);
            padded
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// Alphabet of a pit holding 0..=n seeds.
    fn pit(n: u32) -> Alphabet {
        (0..=n).map(|k| [k, 0]).collect()
    }

    #[test]
    fn compositions_are_counted_by_binomials() {
        // Compositions of 6 into 4 parts: C(9, 3) = 84.
        let index = WordIndex::new(vec![pit(6); 4], [6, 0]).unwrap();
        assert_eq!(index.size([6, 0]).unwrap(), 84);
        assert_eq!(index.size([0, 0]).unwrap(), 1);
    }

    #[test]
    fn counts_are_located_with_their_total_and_rank() {
        let index = WordIndex::of_counts(5, 9).unwrap();
        assert!(index.counts);
        let mut word = [0u8; 5];
        for total in 0..=9 {
            for r in 0..index.size([total, 0]).unwrap() {
                index.unrank([total, 0], r, &mut word).unwrap();
                assert_eq!(index.locate_counts(&word), (total, r), "{word:?}");
            }
        }
        // Totals past 255, ranked without the terms.
        let wide = WordIndex::of_counts(3, 300).unwrap();
        assert!(wide.terms.is_empty());
        for word in [[0u8, 0, 0], [255, 45, 0], [100, 100, 100], [1, 0, 255]] {
            let total = word.iter().map(|&c| c as u32).sum();
            assert_eq!(wide.locate_counts(&word), (total, wide.rank(&word).unwrap().1), "{word:?}");
        }
        // Cells of more letters than a byte holds: words are unranked, not stepped.
        assert_eq!(wide.next_word(&mut [0, 0, 1]), None);
        // Letters that do not weigh themselves, or a second weight: not an index of counts.
        assert!(!WordIndex::new(vec![vec![[0, 0], [2, 0]]; 3], [4, 0]).unwrap().counts);
        assert!(!WordIndex::new(vec![pit(3); 3], [3, 1]).unwrap().counts);
    }

    #[test]
    fn every_rank_unranks_to_a_word_of_that_rank() {
        let alphabet: Alphabet = vec![[0, 0], [1, 0], [0, 1], [2, 0], [1, 1], [0, 2]];
        let index = WordIndex::new(vec![alphabet; 5], [4, 3]).unwrap();
        let mut word = [0u8; 5];
        for x in 0..=4 {
            for y in 0..=3 {
                let size = index.size([x, y]).unwrap();
                for r in 0..size {
                    index.unrank([x, y], r, &mut word).unwrap();
                    assert_eq!(index.rank(&word).unwrap(), ([x, y], r));
                }
            }
        }
    }

    #[test]
    fn both_layouts_rank_alike() {
        // Ranks of a weight do not depend on the largest weight served, so an index laid
        // out weight by weight (100 weights) must rank as one laid out letter by letter.
        let alphabet: Alphabet = vec![[0, 0], [1, 0], [0, 1], [2, 0], [1, 1], [0, 2]];
        let small = WordIndex::new(vec![alphabet.clone(); 5], [4, 3]).unwrap();
        let large = WordIndex::new(vec![alphabet; 5], [9, 9]).unwrap();
        assert_eq!((small.layout.weight, large.layout.letter), (1, 1), "one layout each");
        let mut word = [0u8; 5];
        for (x, y) in (0..=4).flat_map(|x| (0..=3).map(move |y| (x, y))) {
            for r in 0..small.size([x, y]).unwrap() {
                large.unrank([x, y], r, &mut word).unwrap();
                assert_eq!(small.rank(&word).unwrap(), ([x, y], r));
                assert_eq!(large.rank(&word).unwrap(), ([x, y], r));
            }
        }
    }

    #[test]
    fn terms_summed_from_the_end_give_the_rank() {
        let alphabet: Alphabet = vec![[0, 0], [1, 0], [0, 1], [2, 1]];
        let index = WordIndex::new(vec![alphabet.clone(); 4], [8, 4]).unwrap();
        let mut word = [0u8; 4];
        for r in 0..index.size([3, 2]).unwrap() {
            index.unrank([3, 2], r, &mut word).unwrap();
            let mut rest = [0, 0];
            let mut rank = 0;
            for c in (0..4).rev() {
                let w = alphabet[word[c] as usize];
                rest = [rest[0] + w[0], rest[1] + w[1]];
                rank += index.term(c, rest, word[c]);
            }
            assert_eq!(rank, r);
        }
    }

    #[test]
    fn the_next_word_is_the_next_rank() {
        // Two weights and letters that do not fit some cells: as THI` ranks its boards.
        let alphabet: Alphabet = vec![[0, 0], [1, 0], [0, 1], [2, 1], [0, 2], [1, 1]];
        let index = WordIndex::new(vec![alphabet; 5], [4, 3]).unwrap();
        for x in 0..=4 {
            for y in 0..=3 {
                let size = index.size([x, y]).unwrap();
                let mut word = [0u8; 5];
                let mut expected = [0u8; 5];
                index.unrank([x, y], 0, &mut word).unwrap();
                for r in 1..size {
                    assert!(index.next_word(&mut word).is_some(), "weight {x},{y}: no word after rank {}", r - 1);
                    index.unrank([x, y], r, &mut expected).unwrap();
                    assert_eq!(word, expected, "weight {x},{y}, rank {r}");
                }
                assert!(index.next_word(&mut word).is_none(), "weight {x},{y}: a word after the last");
            }
        }
    }

    #[test]
    fn numbering_is_lexicographic() {
        let index = WordIndex::new(vec![pit(3); 3], [3, 0]).unwrap();
        let mut previous = None;
        let mut word = [0u8; 3];
        for r in 0..index.size([3, 0]).unwrap() {
            index.unrank([3, 0], r, &mut word).unwrap();
            if let Some(p) = previous {
                assert!(p < word, "{p:?} then {word:?}");
            }
            previous = Some(word);
        }
    }

    #[test]
    fn bad_input_is_an_error() {
        let index = WordIndex::new(vec![pit(2); 2], [2, 0]).unwrap();
        assert_eq!(index.rank(&[3, 0]), Err(IndexError::UnknownLetter { cell: 0, letter: 3 }));
        assert_eq!(index.rank(&[1]), Err(IndexError::WrongLength { got: 1, want: 2 }));
        assert!(matches!(index.rank(&[2, 2]), Err(IndexError::WeightOutOfRange(_))));
        let mut word = [0u8; 2];
        assert!(matches!(index.unrank([2, 0], 3, &mut word), Err(IndexError::RankOutOfRange { .. })));
    }

    #[test]
    fn overflow_is_reported() {
        assert!(matches!(WordIndex::new(vec![pit(200); 40], [200, 0]), Err(IndexError::TooLarge(_))));
    }

    proptest! {
        #[test]
        fn rank_unrank_round_trip(word in proptest::collection::vec(0u8..6, 7)) {
            let alphabet: Alphabet = vec![[0, 0], [1, 0], [0, 1], [2, 0], [1, 1], [0, 2]];
            let index = WordIndex::new(vec![alphabet; 7], [14, 14]).unwrap();
            let (weight, rank) = index.rank(&word).unwrap();
            let mut back = [0u8; 7];
            index.unrank(weight, rank, &mut back).unwrap();
            prop_assert_eq!(&back[..], &word[..]);
        }
    }
}
