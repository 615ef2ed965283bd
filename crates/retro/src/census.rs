//! Counting the positions reachable from a start position, by value.
//!
//! Positions are told apart by tier, rank and orientation, so positions folded onto one
//! table entry by a symmetry are still counted one by one. The search goes breadth first,
//! a level at a time; threads expand the level's positions in parallel and claim each new
//! position with one atomic `fetch_or` in a bit set per tier, so each is expanded once.
//! The values are counted at the end, from the set bits.

use crate::game::{Game, Location};
use crate::store::{ProbeError, Tables};
use crate::value::TableValue;
use bitvec::prelude::*;
use rayon::prelude::*;
use std::cmp::Ordering;
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

/// Reachable positions, by their value for the player to move: a win, draw or loss (for
/// a score, its sign).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Census {
    /// Positions reachable.
    pub positions: u64,
    /// Of those, won for their player to move.
    pub win: u64,
    /// Drawn.
    pub draw: u64,
    /// Lost.
    pub loss: u64,
}

impl Census {
    fn add(mut self, other: Census) -> Census {
        self.positions += other.positions;
        self.win += other.win;
        self.draw += other.draw;
        self.loss += other.loss;
        self
    }
}

/// One bit per (rank, orientation) of each tier that has a table, tiers sorted.
struct Marks<T> {
    orientations: u64,
    tiers: Vec<(T, Vec<AtomicU64>)>,
}

impl<T: Ord + Copy + std::fmt::Display> Marks<T> {
    /// Sets the bit of `loc`; true if it was not set before.
    fn claim(&self, loc: Location<T>) -> Result<bool, ProbeError> {
        let i = self
            .tiers
            .binary_search_by(|(t, _)| t.cmp(&loc.tier))
            .map_err(|_| ProbeError::MissingTier(loc.tier.to_string()))?;
        let bit = loc.rank * self.orientations + loc.orientation as u64;
        let word = self.tiers[i]
            .1
            .get((bit / 64) as usize)
            .ok_or_else(|| ProbeError::BadRank { tier: loc.tier.to_string(), rank: loc.rank })?;
        let mask = 1u64 << (bit % 64);
        // Most children were seen already: a plain load spares the locked instruction.
        Ok(word.load(Relaxed) & mask == 0 && word.fetch_or(mask, Relaxed) & mask == 0)
    }
}

/// Every position reachable from `start` (the start and finished games included).
pub fn reachable_census<G: Game>(game: &G, tables: &Tables<G>, start: &G::Position) -> Result<Census, ProbeError> {
    let orientations = game.orientations() as u64;
    let marks = Marks {
        orientations,
        tiers: tables
            .tables()
            .map(|(&t, _)| {
                (t, (0..(game.tier_size(t) * orientations).div_ceil(64)).map(|_| AtomicU64::new(0)).collect())
            })
            .collect(),
    };
    let first = game.locate(start);
    marks.claim(first)?;
    let mut frontier = vec![first];
    while !frontier.is_empty() {
        let next: Result<Vec<Vec<Location<G::Tier>>>, ProbeError> = frontier
            .par_chunks(256)
            .map(|chunk| {
                let mut successors = Vec::new();
                let mut fresh = Vec::new();
                for &loc in chunk {
                    let position = game.position(loc);
                    if game.end(&position).is_some() {
                        continue;
                    }
                    successors.clear();
                    game.move_locations(&position, &mut successors);
                    for m in &successors {
                        if marks.claim(m.position)? {
                            fresh.push(m.position);
                        }
                    }
                }
                Ok(fresh)
            })
            .collect();
        frontier = next?.into_iter().flatten().collect();
    }
    marks
        .tiers
        .into_par_iter()
        .map(|(tier, words)| {
            let table = tables.table(tier).ok_or_else(|| ProbeError::MissingTier(tier.to_string()))?;
            let bits: BitVec<u64, Lsb0> = BitVec::from_vec(words.into_iter().map(AtomicU64::into_inner).collect());
            let mut census = Census::default();
            for bit in bits.iter_ones() {
                let rank = bit as u64 / orientations;
                let code = table.code(rank).ok_or_else(|| ProbeError::BadRank { tier: tier.to_string(), rank })?;
                census.positions += 1;
                match G::Value::from_code(code).sign() {
                    Ordering::Greater => census.win += 1,
                    Ordering::Equal => census.draw += 1,
                    Ordering::Less => census.loss += 1,
                }
            }
            Ok(census)
        })
        .try_reduce(Census::default, |a, b| Ok(a.add(b)))
}

/// The census of `start`, read from `cache` if that file was written for the same start
/// and the same tables (by the tables' checksums) and its own checksum holds; otherwise
/// computed and written there. A cache that does not match, or was edited, is
/// recomputed, never trusted.
pub fn cached_census<G: Game>(
    game: &G,
    tables: &Tables<G>,
    start: &G::Position,
    cache: &std::path::Path,
) -> Result<Census, ProbeError> {
    let fingerprint = format!("{:016x}", tables.fingerprint());
    let header = format!("start={start}\ntables={fingerprint}\n");
    // Only a regular file is read: a FIFO under the cache's name would block for ever.
    let cached = std::fs::metadata(cache).is_ok_and(|m| m.is_file());
    if let Some(text) = cached.then(|| std::fs::read_to_string(cache).ok()).flatten() {
        if let Some(census) = read_cache(&text, &header) {
            return Ok(census);
        }
    }
    let census = reachable_census(game, tables, start)?;
    let body = format!(
        "{header}positions={}\nwin={}\ndraw={}\nloss={}\n",
        census.positions, census.win, census.draw, census.loss
    );
    let text = format!("{body}checksum={:016x}\n", xxhash_rust::xxh3::xxh3_64(body.as_bytes()));
    // A cache that cannot be written only costs time on the next run.
    let temp = cache.with_extension(format!("{}.tmp", std::process::id()));
    if std::fs::write(&temp, text).is_ok() {
        let _ = std::fs::rename(&temp, cache);
    }
    Ok(census)
}

/// The census a cache file holds, if it was written for `header` and its last line, an
/// XXH3-64 checksum of everything before it, holds.
fn read_cache(text: &str, header: &str) -> Option<Census> {
    let (body, checksum) = text.strip_suffix('\n')?.rsplit_once('\n')?;
    let body = format!("{body}\n");
    let checksum = u64::from_str_radix(checksum.strip_prefix("checksum=")?, 16).ok()?;
    if checksum != xxhash_rust::xxh3::xxh3_64(body.as_bytes()) {
        return None;
    }
    let fields = body.strip_prefix(header)?;
    let field =
        |name: &str| fields.lines().find_map(|l| l.strip_prefix(name).and_then(|r| r.strip_prefix('='))?.parse().ok());
    let census =
        Census { positions: field("positions")?, win: field("win")?, draw: field("draw")?, loss: field("loss")? };
    (census.win + census.draw + census.loss == census.positions).then_some(census)
}
