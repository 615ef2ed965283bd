//! Counting the positions reachable from a start position, by value.
//!
//! Positions are told apart by tier, rank and orientation, so positions folded onto one
//! table entry by a symmetry are still counted one by one. A game may fold a symmetry
//! without an orientation (THI`'s mirror): then a rank stands for [`Game::images`]
//! positions, all reachable when one is, provided the start is its own image (the census
//! refuses another start). Each (rank, orientation) of
//! each tier has two bits: *claimed* (reached) and *expanded* (its moves claimed). The
//! search sweeps the tiers from the start's down, parents before children (material
//! never comes back, so a tier is complete once its own sweeps find nothing new), and
//! sweeps each tier in rank order, in parallel blocks, until every claimed position in
//! it is expanded. A claim is one atomic `fetch_or`, so each position is expanded once.
//!
//! Why sweeps and not a breadth-first frontier: with two orientations (a game that folds
//! a position and its image under a symmetry onto one rank), the image's moves are the
//! images of the position's moves (invariant 7 of [`crate::game`]). A rank whose two
//! orientations are both claimed by the time the sweep reaches it is expanded once, its
//! children claimed in both orientations: that spares a third of the move generation in
//! THI` TRIAS. Every rank is expanded from orientation 0, stepped to from the rank before
//! where it follows one ([`Game::next_position`]) rather than unranked. No frontier is
//! kept either: the bits are all the memory.
//! Each position is counted, with its value read from its table, as it is expanded.

use crate::game::{Game, Location};
use crate::order::tier_order;
use crate::store::{ProbeError, Tables};
use crate::table::Table;
use crate::value::TableValue;
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

/// The slots in [`Marks::tiers`] of the tiers claimed last, replaced in turn.
#[derive(Default)]
struct Recent {
    slots: [usize; 4],
    next: usize,
}

/// One tier's bits: claimed, and expanded (written only by the sweep's block that owns
/// the word, so plain `u64`s behind the block's exclusive borrow).
struct TierMarks<T> {
    tier: T,
    claimed: Vec<AtomicU64>,
    expanded: Vec<u64>,
}

/// The bits of every tier that has a table, tiers sorted.
struct Marks<T> {
    orientations: u64,
    tiers: Vec<TierMarks<T>>,
}

impl<T: Ord + Copy + std::fmt::Display> Marks<T> {
    /// Sets the claimed bit of `loc`. `recent` holds the slots of the tiers claimed last:
    /// a position's children fall into a few tiers, and testing those first spares most
    /// binary searches.
    #[inline]
    fn claim(&self, loc: Location<T>, recent: &mut Recent) -> Result<(), ProbeError> {
        let i = match recent.slots.iter().find(|&&i| self.tiers.get(i).is_some_and(|m| m.tier == loc.tier)) {
            Some(&i) => i,
            None => {
                let i = self
                    .tiers
                    .binary_search_by(|m| m.tier.cmp(&loc.tier))
                    .map_err(|_| ProbeError::MissingTier(loc.tier.to_string()))?;
                recent.slots[recent.next] = i;
                recent.next = (recent.next + 1) % recent.slots.len();
                i
            }
        };
        let bit = loc.rank * self.orientations + loc.orientation as u64;
        let word = self.tiers[i]
            .claimed
            .get((bit / 64) as usize)
            .ok_or_else(|| ProbeError::BadRank { tier: loc.tier.to_string(), rank: loc.rank })?;
        let mask = 1u64 << (bit % 64);
        // Most children were seen already: a plain load spares the locked instruction.
        if word.load(Relaxed) & mask == 0 {
            word.fetch_or(mask, Relaxed);
        }
        Ok(())
    }
}

/// Claimed-bit words a sweep hands to one rayon task: 2^14 ranks of two orientations.
const SWEEP_WORDS: usize = 1 << 9;

/// How far a census has gone, told before each sweep of a tier.
#[derive(Debug, Clone, Copy)]
pub struct Progress<'a> {
    /// The tier being swept.
    pub tier: &'a str,
    /// Tiers swept to the end before it (parents first).
    pub swept: usize,
    /// Tiers in all.
    pub tiers: usize,
    /// Positions counted so far.
    pub positions: u64,
}

/// Every position reachable from `start` (the start and finished games included);
/// `progress` is told before each sweep (a census of billions of positions takes as long
/// as their build).
pub fn reachable_census<G: Game>(
    game: &G,
    tables: &Tables<G>,
    start: &G::Position,
    progress: &dyn Fn(Progress),
) -> Result<Census, ProbeError> {
    let orientations = game.orientations() as u64;
    // A rank's bits must sit in one word, and two orientations flip into each other.
    if !(1..=2).contains(&orientations) {
        return Err(ProbeError::Orientations(game.orientations()));
    }
    if game.images(start) != 1 {
        return Err(ProbeError::AsymmetricStart(start.to_string()));
    }
    let mut marks = Marks {
        orientations,
        tiers: tables
            .tables()
            .map(|(&tier, _)| {
                let words = (game.tier_size(tier) * orientations).div_ceil(64) as usize;
                TierMarks { tier, claimed: (0..words).map(|_| AtomicU64::new(0)).collect(), expanded: vec![0; words] }
            })
            .collect(),
    };
    let first = game.locate(start);
    marks.claim(first, &mut Recent::default())?;
    // Parents before children: the reverse of the order the tiers were built in.
    let order = tier_order(game, &[first.tier])?;
    let mut census = Census::default();
    for (swept, &tier) in order.iter().rev().enumerate() {
        let name = tier.to_string();
        let slot = marks
            .tiers
            .binary_search_by(|m| m.tier.cmp(&tier))
            .map_err(|_| ProbeError::MissingTier(tier.to_string()))?;
        let table = tables.table(tier).ok_or_else(|| ProbeError::MissingTier(tier.to_string()))?;
        // The tier's expanded bits leave `marks` while it is swept, so that the blocks
        // can own theirs while every block claims through `marks`.
        let mut expanded = std::mem::take(&mut marks.tiers[slot].expanded);
        loop {
            progress(Progress { tier: &name, swept, tiers: order.len(), positions: census.positions });
            let (any, counted) = sweep(game, table, &marks, slot, &mut expanded)?;
            census = census.add(counted);
            if !any {
                break;
            }
        }
        marks.tiers[slot].expanded = expanded;
    }
    Ok(census)
}

/// Expands and counts, in rank order, every position of the tier at `slot` claimed and
/// not yet expanded; true if there was any (its moves may have claimed more in the same
/// tier).
fn sweep<G: Game>(
    game: &G,
    table: &Table,
    marks: &Marks<G::Tier>,
    slot: usize,
    expanded: &mut [u64],
) -> Result<(bool, Census), ProbeError> {
    let tier = marks.tiers[slot].tier;
    let claimed = &marks.tiers[slot].claimed;
    let orientations = marks.orientations;
    let found: Vec<(bool, Census)> = expanded
        .par_chunks_mut(SWEEP_WORDS)
        .enumerate()
        .map(|(block, expanded)| {
            let mut recent = Recent::default();
            let mut moves = Vec::new();
            let mut any = false;
            let mut census = Census::default();
            // The last position expanded, to step from when the next rank follows it.
            let mut last: Option<(u64, G::Position)> = None;
            for (i, done) in expanded.iter_mut().enumerate() {
                let w = block * SWEEP_WORDS + i;
                let pending = claimed[w].load(Relaxed) & !*done;
                if pending == 0 {
                    continue;
                }
                *done |= pending;
                any = true;
                let mut bits = pending;
                while bits != 0 {
                    let bit = (w * 64) as u64 + bits.trailing_zeros() as u64;
                    let rank = bit / orientations;
                    // The pending orientations of this rank, as a mask from orientation 0.
                    let shift = (rank * orientations - w as u64 * 64) as u32;
                    let of_rank = (pending >> shift) & ((1u64 << orientations) - 1);
                    bits &= !(((1u64 << orientations) - 1) << shift);
                    // Orientation 0's moves serve orientation 1 too, flipped (invariant 7).
                    let flips: &[u8] = match of_rank {
                        0b01 => &[0],
                        0b10 => &[1],
                        _ => &[0, 1],
                    };
                    let position = match &last {
                        Some((previous, p)) if previous + 1 == rank => game.next_position(tier, rank, p),
                        _ => game.position(Location::at(tier, rank)),
                    };
                    let code = table.code(rank)?.ok_or_else(|| ProbeError::BadRank { tier: tier.to_string(), rank })?;
                    let positions = flips.len() as u64 * game.images(&position);
                    census.positions += positions;
                    match G::Value::from_code(code).sign() {
                        Ordering::Greater => census.win += positions,
                        Ordering::Equal => census.draw += positions,
                        Ordering::Less => census.loss += positions,
                    }
                    expand(game, marks, &position, flips, &mut moves, &mut recent)?;
                    last = Some((rank, position));
                }
            }
            Ok((any, census))
        })
        .collect::<Result<_, ProbeError>>()?;
    Ok(found.into_iter().fold((false, Census::default()), |(any, total), (a, c)| (any || a, total.add(c))))
}

/// Claims the children of `position`, with their orientation flipped by each of `flips`
/// (the children of the position's images, invariant 7 of [`crate::game`]).
fn expand<G: Game>(
    game: &G,
    marks: &Marks<G::Tier>,
    position: &G::Position,
    flips: &[u8],
    moves: &mut Vec<crate::game::Move<Location<G::Tier>>>,
    recent: &mut Recent,
) -> Result<(), ProbeError> {
    if game.end(position).is_some() {
        return Ok(());
    }
    moves.clear();
    game.move_locations(position, moves);
    for m in moves.iter() {
        for &flip in flips {
            let child = Location { orientation: m.position.orientation ^ flip, ..m.position };
            marks.claim(child, recent)?;
        }
    }
    Ok(())
}

/// A census and, if it was counted but could not be kept for the next run, why.
#[derive(Debug)]
pub struct CachedCensus {
    /// The census.
    pub census: Census,
    /// Why the count was not saved in the cache file (a full or read-only disk): the next
    /// run counts again.
    pub not_saved: Option<std::io::Error>,
}

/// What a census counts, numbered: raised whenever the positions a game reaches change
/// while its tables stay byte for byte the same, so that no count cached before is
/// reused. 2: THI` under `--bonus any` shows a game ended by bearing off the opponent's
/// last counter with the opponent to move, not the mover.
const CENSUS_VERSION: u32 = 2;

/// The census of `start`, read from `cache` if that file was written for the same start,
/// the same tables (by the tables' checksums) and `CENSUS_VERSION`, and its own checksum holds; otherwise
/// computed and written there. A cache that does not match, or was edited, is
/// recomputed, never trusted.
pub fn cached_census<G: Game>(
    game: &G,
    tables: &Tables<G>,
    start: &G::Position,
    cache: &std::path::Path,
    progress: &dyn Fn(Progress),
) -> Result<CachedCensus, ProbeError> {
    let fingerprint = format!("{:016x}", tables.fingerprint());
    let header = format!("census={CENSUS_VERSION}\nstart={start}\ntables={fingerprint}\n");
    // Only a regular file is read: a FIFO under the cache's name would block for ever.
    let cached = std::fs::metadata(cache).is_ok_and(|m| m.is_file());
    if let Some(text) = cached.then(|| std::fs::read_to_string(cache).ok()).flatten() {
        if let Some(census) = read_cache(&text, &header) {
            return Ok(CachedCensus { census, not_saved: None });
        }
    }
    let census = reachable_census(game, tables, start, progress)?;
    let body = format!(
        "{header}positions={}\nwin={}\ndraw={}\nloss={}\n",
        census.positions, census.win, census.draw, census.loss
    );
    let text = format!("{body}checksum={:016x}\n", xxhash_rust::xxh3::xxh3_64(body.as_bytes()));
    // A cache that cannot be written only costs time on the next run; no half-written
    // file is left behind.
    // Named as a temporary file ([`crate::store::is_temporary`]) where the cache's name
    // begins `census-`, so that a build there clears one a killed run left.
    let name = cache.file_name().unwrap_or_default().to_string_lossy();
    let temp = cache.with_file_name(format!(".{name}.{}.tmp", std::process::id()));
    let saved = std::fs::write(&temp, text).and_then(|()| std::fs::rename(&temp, cache));
    if saved.is_err() {
        let _ = std::fs::remove_file(&temp);
    }
    Ok(CachedCensus { census, not_saved: saved.err() })
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
