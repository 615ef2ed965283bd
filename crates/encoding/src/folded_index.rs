//! Dense ranks for words up to a mirror: a word and its image share one rank.
//!
//! Some cells come in pairs that a symmetry of the board swaps (a square and its mirror
//! image); the others it leaves in place. The cells are laid out unit by unit, a pair
//! taking two neighbouring cells, a single cell one:
//!
//! ```text
//!   units:   pair 0      pair 1    single   pair 2    …
//!   cells:   w0  w1      w2  w3    w4       w5  w6    …
//!   mirror:  w1  w0      w3  w2    w4       w6  w5    …
//! ```
//!
//! Of a word and its mirror image the index keeps the lexicographically smaller one, the
//! *canonical* word: the one whose first pair that differs has its smaller letter first
//! (a symmetric word is its own image). The canonical words of a weight are numbered
//! densely in lexicographic order, as a [`WordIndex`] over the same cells numbers all of
//! them, by counting with two states:
//!
//! - *symmetric so far*: every pair before this unit holds two equal letters. A single
//!   cell takes any letter and stays in this state; a pair takes `(a, a)` and stays, or
//!   `(a, b)` with `a < b` and leaves it (a pair `(a, b)` with `a > b` is not canonical);
//! - *free*: the word is already smaller than its image, so the cells left take anything,
//!   counted by the plain [`WordIndex`].
//!
//! ```text
//!   rank = Σ over units while symmetric:   before[u][rest][a]      (smaller left letters)
//!        + at the first unequal pair (a, b):  ways_symmetric(u+1, rest − 2·w(a))
//!                                          + Σ_{a < b' < b} ways(cell+2, rest − w(a) − w(b'))
//!        + the plain rank of the cells after it
//! ```
//!
//! The index holds `(N + S) / 2` words of a weight where the plain one holds `N`, `S` of
//! them symmetric.

use crate::word_index::{Alphabet, IndexError, TermLayout, WordIndex};

mod near;
pub use near::{WordTerms, MAX_NEAR_CELLS};

/// One unit of a folded word's cells.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Unit {
    /// A cell the mirror leaves in place.
    Single,
    /// Two neighbouring cells the mirror swaps; their alphabets must be equal.
    Pair,
}

/// How a word stands to its mirror image, as [`FoldedIndex::locate_folded`] finds it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Fold {
    /// The word is its own mirror image.
    Symmetric,
    /// The word is the canonical one of the two: it is ranked as it stands.
    Canonical,
    /// The word's mirror image is the canonical one: that is ranked.
    Mirrored,
}

impl Fold {
    /// How a word with this first unequal pair (`None`: none) stands to its image.
    #[inline]
    fn of(pair: Option<UnequalPair>) -> Fold {
        match pair {
            None => Fold::Symmetric,
            Some(UnequalPair { mirrored: false, .. }) => Fold::Canonical,
            Some(UnequalPair { mirrored: true, .. }) => Fold::Mirrored,
        }
    }
}

/// A word's first unequal pair, as [`FoldedIndex::folded_head`] finds it.
#[derive(Debug, Clone, Copy)]
struct UnequalPair {
    /// Its unit.
    unit: usize,
    /// Its left cell.
    cell: usize,
    /// Whether its larger letter stands left: the mirror image is canonical.
    mirrored: bool,
    /// The weight index of the cells from its right one on.
    rest: usize,
}

/// Dense ranks of the canonical words (each the smaller of itself and its mirror image),
/// split by total weight.
#[derive(Debug, Clone)]
pub struct FoldedIndex {
    /// Every word, canonical or not, in the same cell order.
    plain: WordIndex,
    /// Each unit and its first cell.
    units: Vec<(Unit, usize)>,
    /// Most letters of any cell, plus one: the stride of `before`.
    stride: usize,
    /// `ways[u][x][y]`: canonical fillings of units `u..` weighing `(x, y)`, every pair
    /// before `u` symmetric.
    ways: Vec<u64>,
    /// `before[u][x][y][a]`: the same fillings whose unit `u` starts with a letter below
    /// `a`; entry `a = letters` is all of them. Flattened as `layout` says.
    before: Vec<u64>,
    layout: TermLayout,
    /// The cell each cell's letter moves to in the mirror image.
    image_cell: Vec<usize>,
    /// The first and the last cell of each cell's unit.
    unit_first: Vec<usize>,
    unit_last: Vec<usize>,
    /// `unit_steps[u][a]`, for letter `a` of unit `u`'s first cell: where its terms start
    /// in `before` and `unequal`, and its weight `(x, y)` as the weight index
    /// `x · (max[1] + 1) + y`, so that ranking steps one index down a letter. A row per
    /// unit of 256, one per byte, needs no bounds check for a letter.
    unit_steps: Vec<[[u32; 2]; 256]>,
    /// `unequal[u][x][y][a]`, laid out as `before`, for a pair unit `u` whose letters
    /// `(a, b)`, `a < b`, are the word's first unequal pair and whose units weigh `(x, y)`:
    /// everything that pair adds to the rank except the plain term of `b`, which the cells
    /// after `a` add as the plain index does (`before[u][x][y][a]`, the symmetric fillings
    /// `(a, a)`, minus the plain fillings `(a, b')` with `b' ≤ a`; wrapping, as the sum
    /// with `b`'s term is a count).
    unequal: Vec<u64>,
}

impl FoldedIndex {
    /// The index of words over `alphabets` (in cell order) laid out as `units`, for every
    /// total weight up to `max`.
    ///
    /// # Panics
    /// If the units do not cover the cells exactly, or a pair's two alphabets differ.
    pub fn new(alphabets: Vec<Alphabet>, units: &[Unit], max: [u32; 2]) -> Result<FoldedIndex, IndexError> {
        let mut placed = Vec::with_capacity(units.len());
        let mut cell = 0;
        for &unit in units {
            placed.push((unit, cell));
            cell += match unit {
                Unit::Single => 1,
                Unit::Pair => {
                    assert_eq!(alphabets[cell], alphabets[cell + 1], "the cells of a pair need one alphabet");
                    2
                }
            };
        }
        assert_eq!(cell, alphabets.len(), "the units must cover the cells");
        let plain = WordIndex::new(alphabets, max)?;
        let stride = (0..plain.cells()).map(|c| plain.alphabet(c).len()).max().unwrap_or(0) + 1;
        let (wx, wy) = (max[0] as usize + 1, max[1] as usize + 1);
        let slot = |u: usize, x: usize, y: usize| (u * wx + x) * wy + y;
        let mut ways = vec![0u64; (placed.len() + 1) * wx * wy];
        ways[slot(placed.len(), 0, 0)] = 1;
        let layout = TermLayout::new(stride, wx * wy);
        let at = |u: usize, a: usize, x: usize, y: usize| layout.at(u, a, x * wy + y);
        let mut before = vec![0u64; placed.len() * wx * wy * stride];
        let fits = |w: [u32; 2], x: usize, y: usize| w[0] as usize <= x && w[1] as usize <= y;
        for (u, &(unit, c)) in placed.iter().enumerate().rev() {
            let alphabet = plain.alphabet(c).clone();
            for x in 0..wx {
                for y in 0..wy {
                    let mut sum = 0u64;
                    for (a, wa) in alphabet.iter().enumerate() {
                        before[at(u, a, x, y)] = sum;
                        if !fits(*wa, x, y) {
                            continue;
                        }
                        let (x1, y1) = (x - wa[0] as usize, y - wa[1] as usize);
                        let add = match unit {
                            Unit::Single => ways[slot(u + 1, x1, y1)],
                            Unit::Pair => {
                                let same = if fits(*wa, x1, y1) {
                                    ways[slot(u + 1, x1 - wa[0] as usize, y1 - wa[1] as usize)]
                                } else {
                                    0
                                };
                                let larger: u64 = alphabet[a + 1..]
                                    .iter()
                                    .filter(|wb| fits(**wb, x1, y1))
                                    .map(|wb| plain.ways_from(c + 2, [x1 as u32 - wb[0], y1 as u32 - wb[1]]))
                                    .sum();
                                same + larger
                            }
                        };
                        sum = sum.checked_add(add).ok_or(IndexError::TooLarge(max))?;
                    }
                    for a in alphabet.len()..stride {
                        before[at(u, a, x, y)] = sum;
                    }
                    ways[slot(u, x, y)] = sum;
                }
            }
        }
        let mut unequal = vec![0u64; before.len()];
        for (u, &(_, c)) in placed.iter().enumerate().filter(|(_, (unit, _))| *unit == Unit::Pair) {
            let alphabet = plain.alphabet(c);
            // A last letter has no larger one to pair with.
            for (a, wa) in alphabet.iter().enumerate().take(alphabet.len() - 1) {
                for x in wa[0] as usize..wx {
                    for y in wa[1] as usize..wy {
                        let (x1, y1) = (x - wa[0] as usize, y - wa[1] as usize);
                        let same = if fits(*wa, x1, y1) {
                            ways[slot(u + 1, x1 - wa[0] as usize, y1 - wa[1] as usize)]
                        } else {
                            0
                        };
                        let smaller = plain.term(c + 1, [x1 as u32, y1 as u32], a as u8 + 1);
                        unequal[at(u, a, x, y)] = before[at(u, a, x, y)].wrapping_add(same).wrapping_sub(smaller);
                    }
                }
            }
        }
        let mut unit_steps = vec![[[0u32; 2]; 256]; placed.len()];
        for (u, (&(_, c), row)) in placed.iter().zip(&mut unit_steps).enumerate() {
            // Letters past a byte's are never in a word.
            for (a, step) in row.iter_mut().enumerate().take(stride) {
                let weight = plain.alphabet(c).get(a).map_or(0, |w| w[0] as usize * wy + w[1] as usize);
                let start = layout.at(u, a, 0);
                if start > u32::MAX as usize {
                    return Err(IndexError::TooLarge(max));
                }
                *step = [start as u32, weight as u32];
            }
        }
        let (mut image_cell, mut unit_first, mut unit_last) = (Vec::new(), Vec::new(), Vec::new());
        for &(unit, c) in &placed {
            let cells: &[usize] = if unit == Unit::Pair { &[c + 1, c] } else { &[c] };
            image_cell.extend(cells);
            unit_first.extend(cells.iter().map(|_| c));
            unit_last.extend(cells.iter().map(|_| c + cells.len() - 1));
        }
        Ok(FoldedIndex {
            plain,
            units: placed,
            stride,
            ways,
            before,
            layout,
            image_cell,
            unit_first,
            unit_last,
            unit_steps,
            unequal,
        })
    }

    /// The index over every word, canonical or not, in the same cell order.
    pub fn plain(&self) -> &WordIndex {
        &self.plain
    }

    /// Cells of a word.
    pub fn cells(&self) -> usize {
        self.plain.cells()
    }

    fn slot(&self, u: usize, rest: [u32; 2]) -> usize {
        let max = self.plain.max();
        (u * (max[0] as usize + 1) + rest[0] as usize) * (max[1] as usize + 1) + rest[1] as usize
    }

    /// `before[u][rest][a]`: the canonical fillings of units `u..` weighing `rest`, every
    /// pair before `u` symmetric, whose unit `u` starts with a letter below `a`.
    #[inline]
    fn before(&self, u: usize, rest: [u32; 2], a: u8) -> u64 {
        let wy = self.plain.max()[1] as usize + 1;
        self.before[self.layout.at(u, a as usize, rest[0] as usize * wy + rest[1] as usize)]
    }

    /// Canonical fillings of units `u..` weighing `rest`, every pair before `u` symmetric.
    fn ways_from(&self, u: usize, rest: [u32; 2]) -> u64 {
        let max = self.plain.max();
        if rest[0] > max[0] || rest[1] > max[1] {
            return 0;
        }
        self.ways[self.slot(u, rest)]
    }

    /// Number of canonical words of total weight exactly `weight`.
    pub fn size(&self, weight: [u32; 2]) -> Result<u64, IndexError> {
        let max = self.plain.max();
        if weight[0] > max[0] || weight[1] > max[1] {
            return Err(IndexError::WeightOutOfRange(weight));
        }
        Ok(self.ways_from(0, weight))
    }

    /// The weight index of `weight`: `weight[0] · (max[1] + 1) + weight[1]`. Weight
    /// indices add up as weights do, so a word's is the sum of its letters'.
    #[inline]
    pub fn weight_index(&self, weight: [u32; 2]) -> usize {
        self.plain.weight_index(weight)
    }

    /// Rank of `word`, whose weight has the weight index `weight`
    /// ([`FoldedIndex::weight_index`]), after replacing it by its mirror image if that is
    /// the canonical one (hot path; unchecked: the word must be valid and weigh that, as
    /// [`WordIndex::rank`] would find).
    ///
    /// One look-up a unit while the word is symmetric and one at its first unequal pair
    /// (`folded_head`), then the plain rank of the cells from that pair's
    /// right one.
    #[inline]
    pub fn locate(&self, word: &mut [u8], weight: usize) -> u64 {
        self.locate_folded(word, weight).0
    }

    /// How `word` stands to its mirror image, without ranking it.
    #[inline]
    pub fn fold(&self, word: &[u8]) -> Fold {
        self.units
            .iter()
            .filter(|&&(unit, _)| unit == Unit::Pair)
            .find(|&&(_, c)| word[c] != word[c + 1])
            .map_or(Fold::Symmetric, |&(_, c)| if word[c] < word[c + 1] { Fold::Canonical } else { Fold::Mirrored })
    }

    /// [`FoldedIndex::locate`], with how the word stands to its mirror image.
    #[inline]
    pub fn locate_folded(&self, word: &mut [u8], weight: usize) -> (u64, Fold) {
        let (rank, pair) = self.folded_head(word, weight);
        let fold = Fold::of(pair);
        let Some(pair) = pair else { return (rank, fold) };
        // The image is canonical when its smaller letter stands right: swapping the pairs
        // from here on makes it (the pairs before are symmetric).
        if pair.mirrored {
            for &(unit, c) in &self.units[pair.unit..] {
                if unit == Unit::Pair {
                    word.swap(c, c + 1);
                }
            }
        }
        let right = pair.cell + 1;
        (rank.wrapping_add(self.plain.rank_after(right, pair.rest, &word[right..])), fold)
    }

    /// The folded part of the rank of `word` (whose weight has the weight index
    /// `weight`): its symmetric units, and its first unequal pair but the plain term of
    /// the pair's larger letter, which the plain part from the pair's right cell adds;
    /// with that pair, unless the word is its own mirror image. Wrapping: only the sum
    /// with the plain part is a count.
    #[inline(always)]
    fn folded_head(&self, word: &[u8], weight: usize) -> (u64, Option<UnequalPair>) {
        let per_weight = self.layout.weight;
        // The weight of the units still to come, as a weight index.
        let mut rest = weight;
        let mut rank = 0u64;
        for (u, (&(unit, c), steps)) in self.units.iter().zip(&self.unit_steps).enumerate() {
            let left = word[c];
            let right = if unit == Unit::Pair { word[c + 1] } else { left };
            let [start, step] = steps[left.min(right) as usize];
            let at = start as usize + rest * per_weight;
            if left == right {
                rank += self.before[at];
                rest -= step as usize * if unit == Unit::Pair { 2 } else { 1 };
                continue;
            }
            let pair = UnequalPair { unit: u, cell: c, mirrored: left > right, rest: rest - step as usize };
            return (rank.wrapping_add(self.unequal[at]), Some(pair));
        }
        (rank, None)
    }

    /// The canonical word of weight `weight` with rank `rank`, written into `word`.
    pub fn unrank(&self, weight: [u32; 2], rank: u64, word: &mut [u8]) -> Result<(), IndexError> {
        let size = self.size(weight)?;
        if rank >= size {
            return Err(IndexError::RankOutOfRange { rank, size, weight });
        }
        if word.len() != self.cells() {
            return Err(IndexError::WrongLength { got: word.len(), want: self.cells() });
        }
        self.unrank_from(0, weight, rank, word);
        Ok(())
    }

    /// Writes units `first..` of the canonical word whose share of the rank is `rank`,
    /// every pair before `first` being symmetric and the units weighing `rest`.
    fn unrank_from(&self, first: usize, rest: [u32; 2], rank: u64, word: &mut [u8]) {
        let mut rest = rest;
        let mut rank = rank;
        let minus = |r: [u32; 2], w: [u32; 2]| [r[0] - w[0], r[1] - w[1]];
        for (u, &(unit, c)) in self.units.iter().enumerate().skip(first) {
            // The letter whose share of the fillings holds the rank.
            let a = (0..self.stride - 1)
                .find(|&a| self.before(u, rest, a as u8) <= rank && rank < self.before(u, rest, a as u8 + 1))
                .expect("a rank in range");
            rank -= self.before(u, rest, a as u8);
            let wa = self.plain.letter_weight(c, a as u8);
            word[c] = a as u8;
            rest = minus(rest, wa);
            if unit == Unit::Single {
                continue;
            }
            let same = if wa[0] <= rest[0] && wa[1] <= rest[1] { self.ways_from(u + 1, minus(rest, wa)) } else { 0 };
            if rank < same {
                word[c + 1] = a as u8;
                rest = minus(rest, wa);
                continue;
            }
            // The rest is plain, from the right cell on, its letter above `a`.
            let rank = rank - same + self.plain.term(c + 1, rest, a as u8 + 1);
            self.plain.unrank_from(c + 1, rest, rank, &mut word[c + 1..]);
            return;
        }
    }

    /// Steps a canonical `word` to the canonical word of the same weight with the next
    /// rank, and gives the first cell it changed; `None`, the word unspecified, if that
    /// needs more than a step (the last word of its weight, or a run of words that are
    /// not canonical to skip): then unrank.
    pub fn next_word(&self, word: &mut [u8]) -> Option<usize> {
        // Skipping words that are not canonical changes cells from the first unequal
        // pair's right one on, and the plain step changed that pair or one before it.
        let first = self.plain.next_word(word)?;
        // The first unequal pair decides; with its larger letter first, every word up to
        // the same prefix with a right letter of at least the left one is not canonical.
        let Some(u) = self.units.iter().position(|&(unit, c)| unit == Unit::Pair && word[c] != word[c + 1]) else {
            return Some(first);
        };
        let c = self.units[u].1;
        if word[c] < word[c + 1] {
            return Some(first);
        }
        let a = word[c];
        let mut rest = [0u32; 2];
        for (d, &letter) in word.iter().enumerate().skip(c + 1) {
            let w = self.plain.letter_weight(d, letter);
            rest = [rest[0] + w[0], rest[1] + w[1]];
        }
        let alphabet = self.plain.alphabet(c + 1);
        for (b, &wb) in alphabet.iter().enumerate().skip(a as usize) {
            if wb[0] > rest[0] || wb[1] > rest[1] {
                continue;
            }
            let left = [rest[0] - wb[0], rest[1] - wb[1]];
            if b == a as usize {
                if self.ways_from(u + 1, left) > 0 {
                    word[c + 1] = a;
                    self.unrank_from(u + 1, left, 0, word);
                    return Some(first);
                }
            } else if self.plain.ways_from(c + 2, left) > 0 {
                word[c + 1] = b as u8;
                self.plain.unrank_from(c + 2, left, 0, &mut word[c + 2..]);
                return Some(first);
            }
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A THI`-like layout: two pairs and a single, letters of two weights.
    pub(super) fn index() -> FoldedIndex {
        let alphabet: Alphabet = vec![[0, 0], [1, 0], [0, 1], [2, 1], [0, 2], [1, 1]];
        let units = [Unit::Pair, Unit::Single, Unit::Pair, Unit::Single];
        FoldedIndex::new(vec![alphabet; 6], &units, [4, 3]).unwrap()
    }

    /// The mirror image of `word`.
    fn image(index: &FoldedIndex, word: &[u8]) -> Vec<u8> {
        (0..word.len()).map(|c| word[index.image_cell[c]]).collect()
    }

    /// Every word of a weight, in plain rank order.
    pub(super) fn words(index: &FoldedIndex, weight: [u32; 2]) -> Vec<Vec<u8>> {
        let plain = index.plain();
        (0..plain.size(weight).unwrap())
            .map(|r| {
                let mut word = vec![0u8; plain.cells()];
                plain.unrank(weight, r, &mut word).unwrap();
                word
            })
            .collect()
    }

    #[test]
    fn canonical_words_are_ranked_densely_in_order() {
        let index = index();
        for x in 0..=4 {
            for y in 0..=3 {
                let canonical: Vec<_> = words(&index, [x, y]).into_iter().filter(|w| *w <= image(&index, w)).collect();
                assert_eq!(index.size([x, y]).unwrap(), canonical.len() as u64, "weight {x},{y}");
                let mut word = vec![0u8; index.cells()];
                for (r, expected) in canonical.iter().enumerate() {
                    index.unrank([x, y], r as u64, &mut word).unwrap();
                    assert_eq!(&word, expected, "weight {x},{y}, rank {r}");
                    assert_eq!(index.locate(&mut word, index.weight_index([x, y])), r as u64);
                }
            }
        }
    }

    #[test]
    fn both_layouts_rank_alike() {
        // As for the plain index: 100 weights lay `before` out weight by weight.
        let alphabet: Alphabet = vec![[0, 0], [1, 0], [0, 1], [2, 1], [0, 2], [1, 1]];
        let units = [Unit::Pair, Unit::Single, Unit::Pair, Unit::Single];
        let large = FoldedIndex::new(vec![alphabet; 6], &units, [9, 9]).unwrap();
        let small = index();
        assert_eq!((small.layout.weight, large.layout.letter), (1, 1), "one layout each");
        let mut word = vec![0u8; small.cells()];
        for (x, y) in (0..=4).flat_map(|x| (0..=3).map(move |y| (x, y))) {
            for r in 0..small.size([x, y]).unwrap() {
                large.unrank([x, y], r, &mut word).unwrap();
                assert_eq!(small.locate(&mut word.clone(), small.weight_index([x, y])), r);
                assert_eq!(large.locate(&mut word.clone(), large.weight_index([x, y])), r);
            }
        }
    }

    #[test]
    fn a_word_and_its_image_share_a_rank() {
        let index = index();
        for word in words(&index, [3, 2]) {
            let mut mirrored = image(&index, &word);
            let mut first = word.clone();
            assert_eq!(
                index.locate(&mut first, index.weight_index([3, 2])),
                index.locate(&mut mirrored, index.weight_index([3, 2])),
                "{word:?}"
            );
            assert_eq!(first, mirrored, "both become the canonical word");
        }
    }

    #[test]
    fn the_fold_says_which_of_a_word_and_its_image_is_ranked() {
        let index = index();
        for word in words(&index, [3, 2]) {
            let image = image(&index, &word);
            let (_, fold) = index.locate_folded(&mut word.clone(), index.weight_index([3, 2]));
            let expected = match word.cmp(&image) {
                std::cmp::Ordering::Equal => Fold::Symmetric,
                std::cmp::Ordering::Less => Fold::Canonical,
                std::cmp::Ordering::Greater => Fold::Mirrored,
            };
            assert_eq!(fold, expected, "{word:?}");
            assert_eq!(index.fold(&word), expected, "{word:?}");
        }
    }

    #[test]
    fn the_next_word_is_the_next_rank() {
        let index = index();
        let (mut stepped, mut unranked) = (0, 0);
        for x in 0..=4 {
            for y in 0..=3 {
                let size = index.size([x, y]).unwrap();
                let mut word = vec![0u8; index.cells()];
                let mut expected = vec![0u8; index.cells()];
                index.unrank([x, y], 0, &mut word).unwrap();
                for r in 1..size {
                    index.unrank([x, y], r, &mut expected).unwrap();
                    if index.next_word(&mut word).is_some() {
                        stepped += 1;
                    } else {
                        unranked += 1;
                        word.clone_from(&expected);
                    }
                    assert_eq!(word, expected, "weight {x},{y}, rank {r}");
                }
                assert!(index.next_word(&mut word).is_none(), "weight {x},{y}: a word after the last");
            }
        }
        // The step is the rule, unranking the exception.
        assert!(stepped > 20 * unranked, "{stepped} steps, {unranked} unrankings");
    }

    #[test]
    fn bad_input_is_an_error() {
        let index = index();
        let mut word = vec![0u8; index.cells()];
        assert!(matches!(index.unrank([5, 0], 0, &mut word), Err(IndexError::WeightOutOfRange(_))));
        let size = index.size([2, 2]).unwrap();
        assert!(matches!(index.unrank([2, 2], size, &mut word), Err(IndexError::RankOutOfRange { .. })));
        assert!(matches!(index.unrank([2, 2], 0, &mut word[..3]), Err(IndexError::WrongLength { .. })));
    }
}
