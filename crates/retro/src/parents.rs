//! The same-tier parents of a tier's positions, for games that do not list un-moves
//! ([`crate::Game::lists_unmoves`]).
//!
//! The retrograde engines ([`crate::solve`], [`crate::cyclic`]) push a decided position's
//! value to its parents. Un-moves give them directly; without un-moves (a multi-lap
//! sowing is hard to undo exactly) the parents are the reverse of the moves, which the
//! engines' scan generates for every position anyway. The scan hands each same-tier edge
//! here, and the edges are kept as compressed rows: `starts[c]..starts[c + 1]` indexes the
//! parents of rank `c` in `parents`, each a parent's rank with the move's turn in its low
//! bit. Memory: 8 bytes a same-tier edge and 8 a rank, besides the 16 a edge the scan's
//! lists take until the rows are built.

use crate::value::Turn;

/// One same-tier move found by a scan: `(child rank, parent rank, turn)`, packed as
/// `(child, parent << 1 | keeps)`.
pub type Edge = (u64, u64);

/// The edge of a move from `parent` to `child` with `turn`.
#[inline]
pub fn edge(child: u64, parent: u64, turn: Turn) -> Edge {
    (child, parent << 1 | (turn == Turn::Keeps) as u64)
}

/// For each rank of a tier, its same-tier parents with the turn of their move.
pub struct Parents {
    starts: Vec<u64>,
    parents: Vec<u64>,
}

impl Parents {
    /// The rows of a tier of `size` ranks from the edges its scan found (in any order; a
    /// parent lists each of its distinct `(child, turn)` once, so no row repeats one).
    pub fn new(size: usize, scanned: Vec<Vec<Edge>>) -> Parents {
        let mut starts = vec![0u64; size + 1];
        for &(child, _) in scanned.iter().flatten() {
            starts[child as usize + 1] += 1;
        }
        for i in 0..size {
            starts[i + 1] += starts[i];
        }
        let mut next = starts.clone();
        let mut parents = vec![0u64; starts[size] as usize];
        for (child, parent) in scanned.into_iter().flatten() {
            let slot = &mut next[child as usize];
            parents[*slot as usize] = parent;
            *slot += 1;
        }
        Parents { starts, parents }
    }

    /// The parents of `rank` and the turn of each one's move there.
    pub fn of(&self, rank: u64) -> impl Iterator<Item = (u64, Turn)> + '_ {
        let (from, to) = (self.starts[rank as usize] as usize, self.starts[rank as usize + 1] as usize);
        self.parents[from..to].iter().map(|&p| (p >> 1, if p & 1 == 1 { Turn::Keeps } else { Turn::Passes }))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_hold_each_ranks_parents() {
        let scanned = vec![
            vec![edge(2, 0, Turn::Passes), edge(1, 0, Turn::Keeps)],
            vec![edge(2, 1, Turn::Passes), edge(0, 2, Turn::Passes)],
        ];
        let parents = Parents::new(4, scanned);
        assert_eq!(parents.of(0).collect::<Vec<_>>(), [(2, Turn::Passes)]);
        assert_eq!(parents.of(1).collect::<Vec<_>>(), [(0, Turn::Keeps)]);
        assert_eq!(parents.of(2).collect::<Vec<_>>(), [(0, Turn::Passes), (1, Turn::Passes)]);
        assert_eq!(parents.of(3).count(), 0);
    }
}
