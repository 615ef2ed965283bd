//! Ranks of words that differ from one prepared word in a few cells.
//!
//! A retrograde push ranks every parent of a position, and a parent differs from the
//! position (read the parent's way round) only in the few cells a move taken back went
//! over. The plain terms of the position's word, `below[c][rest from c on][w[c]]`, are
//! summed from the last cell back once per orientation (the word, or its mirror image),
//! the first time a parent is read that way round; a parent's rank then needs new terms
//! only from the first unit it changes to the last, since before that span the weight
//! still to come is the same, and after it the cells are:
//!
//! ```text
//!   cells:   0 …  k … lo ……… hi … end       k: second cell of the parent's first
//!   terms:   folded  │ kept  │ new │ kept         unequal pair (its plain part starts there)
//!   plain part = sum[k] − sum[lo] + sum[hi+1] + Σ_{lo ≤ c ≤ hi} new terms
//! ```
//!
//! The folded part before `k` (the symmetric units and the first unequal pair's left
//! cell) is ranked as [`FoldedIndex::locate`] ranks it; it is short, as few words are
//! symmetric far in.

use super::{Fold, FoldedIndex, UnequalPair};

/// Most cells a prepared word may have.
pub const MAX_NEAR_CELLS: usize = 96;

/// A word and the plain terms of its rank, summed from the last cell back, in each
/// orientation (the word as given and its mirror image) once a word near it has been
/// ranked that way round, for [`FoldedIndex::locate_near`].
#[derive(Debug, Clone)]
pub struct WordTerms {
    /// The prepared word.
    word: [u8; MAX_NEAR_CELLS],
    /// Per orientation, whether `at` and `sum` hold its terms: most parents read the way
    /// round their position is, so the other way is often never needed.
    summed: [bool; 2],
    /// The word's folded head ([`FoldedIndex::folded_head`]), once a word near it has
    /// been ranked.
    head: Option<(u64, Option<UnequalPair>)>,
    /// Per orientation, `at[c]`: the weight of cells `c..` as an offset into a cell's terms.
    at: [[u32; MAX_NEAR_CELLS + 1]; 2],
    /// Per orientation, `sum[c]`: the terms of cells `c..` summed.
    sum: [[u64; MAX_NEAR_CELLS + 1]; 2],
}

impl Default for WordTerms {
    fn default() -> Self {
        WordTerms {
            word: [0; MAX_NEAR_CELLS],
            summed: [false; 2],
            head: None,
            at: [[0; MAX_NEAR_CELLS + 1]; 2],
            sum: [[0; MAX_NEAR_CELLS + 1]; 2],
        }
    }
}

impl FoldedIndex {
    /// Whether [`FoldedIndex::prepare`] takes words of this index (at most
    /// [`MAX_NEAR_CELLS`] cells).
    pub fn prepares(&self) -> bool {
        self.cells() <= MAX_NEAR_CELLS
    }

    /// Prepares `terms` for ranking words near `word` (valid, within the index) with
    /// [`FoldedIndex::locate_near`].
    ///
    /// # Panics
    /// If the index has more than [`MAX_NEAR_CELLS`] cells.
    pub fn prepare(&self, word: &[u8], terms: &mut WordTerms) {
        let cells = self.cells();
        assert!(cells <= MAX_NEAR_CELLS, "a word of {cells} cells is too long to prepare");
        terms.word[..cells].copy_from_slice(&word[..cells]);
        terms.summed = [false; 2];
        terms.head = None;
    }

    /// Sums the plain terms of the prepared word read in `orientation`.
    #[cold]
    fn sum_terms(&self, terms: &mut WordTerms, orientation: usize) {
        let (below, steps) = self.plain.terms_and_steps();
        let cells = self.cells();
        let (word, at, sum) = (&terms.word, &mut terms.at[orientation], &mut terms.sum[orientation]);
        at[cells] = 0;
        sum[cells] = 0;
        for c in (0..cells).rev() {
            let letter = word[if orientation == 1 { self.image_cell[c] } else { c }] as usize;
            let [terms, step] = steps[c][letter];
            at[c] = at[c + 1] + step;
            sum[c] = sum[c + 1] + below[(terms + at[c]) as usize];
        }
        terms.summed[orientation] = true;
    }

    /// Rank of `word`, whose weight has the weight index `weight`
    /// ([`FoldedIndex::weight_index`]) and which equals the word `terms` was prepared from
    /// outside cells `changed` (an inclusive range of cells, `None` if it equals it
    /// throughout), and how it stands to its mirror image, as
    /// [`FoldedIndex::locate_folded`] would give them: the rank of the canonical one of the
    /// word and its mirror image. Hot path, unchecked: the word must be valid and weigh
    /// what the prepared one weighs.
    #[inline]
    pub fn locate_near(
        &self,
        terms: &mut WordTerms,
        word: &[u8],
        weight: usize,
        changed: Option<(usize, usize)>,
    ) -> (u64, Fold) {
        // Most words change only after the prepared word's first unequal pair, and share
        // its folded part then.
        let head = match terms.head {
            Some(head) => head,
            None => *terms.head.insert(self.folded_head(&terms.word[..self.cells()], weight)),
        };
        let head = match head {
            (_, Some(pair)) if changed.is_none_or(|(first, _)| first > pair.cell + 1) => head,
            _ => self.folded_head(word, weight),
        };
        match head {
            (rank, Some(pair)) => (
                rank.wrapping_add(self.plain_after(terms, pair.mirrored as usize, word, pair.cell + 1, changed)),
                Fold::of(Some(pair)),
            ),
            (rank, None) => (rank, Fold::Symmetric),
        }
    }

    /// The plain terms of cells `k..` (a unit's first, or a pair's second) of `word` read
    /// in `orientation`, from the prepared sums and new terms for the units `changed`
    /// spans.
    #[inline]
    fn plain_after(
        &self,
        terms: &mut WordTerms,
        orientation: usize,
        word: &[u8],
        k: usize,
        changed: Option<(usize, usize)>,
    ) -> u64 {
        if !terms.summed[orientation] {
            self.sum_terms(terms, orientation);
        }
        let (at, sum) = (&terms.at[orientation], &terms.sum[orientation]);
        let Some((first, last)) = changed else { return sum[k] };
        let (lo, hi) = (self.unit_first[first], self.unit_last[last]);
        if hi < k {
            return sum[k];
        }
        let lo = lo.max(k);
        let (below, steps) = self.plain.terms_and_steps();
        let mut offset = at[hi + 1] as usize;
        let mut new = 0u64;
        for c in (lo..hi + 1).rev() {
            let letter = word[if orientation == 1 { self.image_cell[c] } else { c }] as usize;
            let [terms, step] = steps[c][letter];
            offset += step as usize;
            new += below[terms as usize + offset];
        }
        sum[k] - sum[lo] + sum[hi + 1] + new
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::{index, words};
    use super::*;

    #[test]
    fn words_near_a_prepared_one_rank_as_located() {
        let index = index();
        let mut terms = WordTerms::default();
        let all = words(&index, [3, 2]);
        for (i, base) in all.iter().enumerate().step_by(7) {
            index.prepare(base, &mut terms);
            assert_eq!(
                index.locate_near(&mut terms, base, index.weight_index([3, 2]), None),
                index.locate_folded(&mut base.clone(), index.weight_index([3, 2]))
            );
            for other in all.iter().skip(i % 5).step_by(3) {
                let differ: Vec<usize> = (0..base.len()).filter(|&c| base[c] != other[c]).collect();
                let changed = differ.first().map(|&f| (f, *differ.last().unwrap()));
                let expected = index.locate_folded(&mut other.clone(), index.weight_index([3, 2]));
                assert_eq!(
                    index.locate_near(&mut terms, other, index.weight_index([3, 2]), changed),
                    expected,
                    "{base:?} → {other:?}"
                );
            }
        }
    }
}
