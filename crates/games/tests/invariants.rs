//! The invariants every game must keep (listed in `crates/retro/src/game.rs`), as generic
//! checks over any `retro::Game` and a list of sample positions, instantiated for THI`
//! and for Trysse and Wari (`games::oware`).
//!
//! The engine trusts these without checking them: a wrong `locate` stores a value under
//! another position's rank, a successor outside the child tiers is probed in a table that
//! is not built yet, and a missing or extra predecessor makes the retrograde pass give a
//! wrong value silently. Symmetric positions must agree, or the tables (which store one
//! orientation per rank) answer differently for positions the rules say are the same.

use games::oware::{Oware, TargetRules};
use games::thi::{Position, RuleSet, Rules, Thi, ThiTier};
use rayon::prelude::*;
use retro::{Game, Location, Move, Turn};
use std::collections::{HashMap, HashSet};
use std::fmt::Debug;

// ---------------------------------------------------------------------------------------
// Generic checks
// ---------------------------------------------------------------------------------------

/// A symmetry of a game's rules: its name and the map on positions.
type Symmetry<'a, P> = (&'a str, &'a (dyn Fn(&P) -> P + Sync));

/// A small deterministic generator (SplitMix64): the samples are the same on every run,
/// so a failure can be reproduced.
struct SplitMix(u64);

impl SplitMix {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// A number in `0..n` (`n > 0`); the modulo bias is irrelevant here.
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

/// Locations to test: every rank of a tier with at most `per_tier` ranks, otherwise the
/// first, the last and `per_tier - 2` random ones (the ends of the rank range are where
/// off-by-one errors show); each in every orientation.
fn sample_locations<G: Game>(game: &G, tiers: &[G::Tier], per_tier: u64, seed: u64) -> Vec<Location<G::Tier>> {
    let mut rng = SplitMix(seed);
    let mut out = Vec::new();
    for &tier in tiers {
        let size = game.tier_size(tier);
        let ranks: Vec<u64> = if size <= per_tier {
            (0..size).collect()
        } else {
            [0, size - 1].into_iter().chain((2..per_tier).map(|_| rng.below(size))).collect()
        };
        for rank in ranks {
            for orientation in 0..game.orientations() {
                out.push(Location { tier, rank, orientation });
            }
        }
    }
    out
}

fn moves_of<G: Game>(game: &G, position: &G::Position) -> Vec<Move<G::Position>> {
    let mut out = Vec::new();
    game.moves(position, &mut out);
    out
}

fn unmoves_of<G: Game>(game: &G, position: &G::Position) -> Vec<Move<G::Position>> {
    let mut out = Vec::new();
    game.unmoves(position, &mut out);
    out
}

/// Successors (or predecessors) as a set of (position, turn), for comparing lists whose
/// order a symmetry changes.
fn as_set<P: Clone + Eq + std::hash::Hash>(list: &[Move<P>], map: impl Fn(&P) -> P) -> HashSet<(P, Turn)> {
    list.iter().map(|s| (map(&s.position), s.turn)).collect()
}

/// (a) `locate(position(loc)) == loc`, and `position(locate(p)) == p`. Returns the
/// positions, for the other checks.
fn check_locations<G: Game>(game: &G, locations: &[Location<G::Tier>]) -> Vec<G::Position> {
    locations
        .par_iter()
        .map(|&location| {
            let position = game.position(location);
            let found = game.locate(&position);
            assert_eq!(found, location, "locate({position}) is not where it came from");
            assert_eq!(game.position(found), position, "position(locate(p)) is not p");
            position
        })
        .collect()
}

/// (b) Every successor lies in the position's tier or in one of `child_tiers(tier)`, and
/// the tier graph below `tiers` has no cycle other than each tier's own loops; and
/// `move_locations` is `moves` located one by one.
fn check_tier_graph<G: Game>(game: &G, tiers: &[G::Tier], positions: &[G::Position]) {
    retro::order::tier_order(game, tiers).unwrap_or_else(|e| panic!("tier graph has a cycle: {e:?}"));
    let children: HashMap<G::Tier, HashSet<G::Tier>> =
        tiers.iter().map(|&t| (t, game.child_tiers(t).into_iter().collect())).collect();
    positions.par_iter().for_each(|p| {
        if game.end(p).is_some() {
            return;
        }
        let tier = game.locate(p).tier;
        let allowed = &children[&tier];
        let successors = moves_of(game, p);
        for s in &successors {
            let t = game.locate(&s.position).tier;
            assert!(t == tier || allowed.contains(&t), "{p} (tier {tier}) → {} in tier {t}, not a child", s.position);
        }
        // The engine's fast path must agree with locating the successors one by one.
        let mut fast = Vec::new();
        game.move_locations(p, &mut fast);
        let slow: Vec<_> = successors
            .iter()
            .map(|s| Move { position: game.locate(&s.position), gain: s.gain, turn: s.turn })
            .collect();
        assert_eq!(fast, slow, "{p}: move_locations disagrees with moves");
    });
}

/// (c) Successors and predecessors agree: each same-tier successor `s` of `p` lists `p`
/// among its predecessors with the same turn; each predecessor `q` of `p` is in `p`'s
/// tier, not over, and has `p` among its successors with that turn. Returns how many
/// successor and predecessor links were followed, so a caller can see the check bit.
fn check_moves_and_unmoves<G: Game>(game: &G, positions: &[G::Position]) -> (usize, usize) {
    let links = positions.par_iter().map(|p| {
        let tier = game.locate(p).tier;
        let (mut forward_links, mut backward_links) = (0, 0);
        if game.end(p).is_none() {
            for s in moves_of(game, p) {
                if game.locate(&s.position).tier != tier {
                    continue;
                }
                forward_links += 1;
                let back = unmoves_of(game, &s.position);
                assert!(
                    back.iter().any(|q| q.position == *p && q.turn == s.turn),
                    "{p} → {} ({:?}), but the un-moves of {} are {:?}",
                    s.position,
                    s.turn,
                    s.position,
                    back
                );
            }
        }
        for q in unmoves_of(game, p) {
            backward_links += 1;
            assert_eq!(game.locate(&q.position).tier, tier, "predecessor {} of {p} in another tier", q.position);
            assert!(game.end(&q.position).is_none(), "predecessor {} of {p} is over", q.position);
            let forward = moves_of(game, &q.position);
            assert!(
                forward.iter().any(|s| s.position == *p && s.turn == q.turn),
                "{} is listed as a predecessor of {p} ({:?}), but its successors are {:?}",
                q.position,
                q.turn,
                forward
            );
        }
        (forward_links, backward_links)
    });
    links.reduce(|| (0, 0), |a, b| (a.0 + b.0, a.1 + b.1))
}

/// (d) Each symmetry maps a position's successors onto its image's successors (as sets,
/// turns included), and likewise its predecessors, and keeps the outcome.
fn check_symmetries<G: Game>(game: &G, positions: &[G::Position], symmetries: &[Symmetry<G::Position>]) {
    positions.par_iter().for_each(|p| {
        let outcome = game.end(p);
        let successors = if outcome.is_none() { moves_of(game, p) } else { Vec::new() };
        let predecessors = unmoves_of(game, p);
        for &(name, image) in symmetries {
            let q = image(p);
            assert_eq!(game.end(&q), outcome, "{name} of {p} is {q}: outcomes differ");
            if outcome.is_none() {
                assert_eq!(
                    as_set(&successors, image),
                    as_set(&moves_of(game, &q), |x| x.clone()),
                    "{name} of {p} is {q}: successors are not the images"
                );
            }
            assert_eq!(
                as_set(&predecessors, image),
                as_set(&unmoves_of(game, &q), |x| x.clone()),
                "{name} of {p} is {q}: predecessors are not the images"
            );
        }
    });
}

/// (e) Images under each symmetry have the same table value.
fn check_symmetric_values<G: Game>(
    game: &G,
    tables: &retro::Tables<G>,
    positions: &[G::Position],
    symmetries: &[Symmetry<G::Position>],
) where
    G::Tier: Debug,
{
    positions.par_iter().for_each(|p| {
        let value = tables.value(game, p).unwrap_or_else(|e| panic!("{p}: {e}"));
        for &(name, image) in symmetries {
            let q = image(p);
            let other = tables.value(game, &q).unwrap_or_else(|e| panic!("{q}: {e}"));
            assert_eq!(other, value, "{name} of {p} is {q}: values differ ({} {})", game.table_key(), value);
        }
    });
}

// ---------------------------------------------------------------------------------------
// THI`
// ---------------------------------------------------------------------------------------

/// Every rule set, without and with bonus moves.
fn all_rules() -> Vec<Rules> {
    RuleSet::ALL.into_iter().flat_map(|set| [false, true].map(|bonus| Rules { set, bonus })).collect()
}

fn mirrored(p: &Position) -> Position {
    p.mirrored()
}

fn turned(p: &Position) -> Position {
    p.turned()
}

/// THI`'s symmetries (spec, "Symmetry"): the left–right mirror, and the half turn with
/// colours swapped; and their product, which is a symmetry too and costs nothing.
fn mirrored_turned(p: &Position) -> Position {
    p.mirrored().turned()
}

const THI_SYMMETRIES: [Symmetry<Position>; 3] =
    [("mirror", &mirrored), ("turn", &turned), ("mirror+turn", &mirrored_turned)];

/// Ranks sampled per tier (and orientation).
const PER_TIER: u64 = 300;

/// Checks (a)–(d) for THI` on a `size × size` board with up to `max` counters a side,
/// under every rule set with and without bonus moves.
fn check_thi(size: usize, max: u8, seed: u64) {
    for rules in all_rules() {
        let game = Thi::new(size, max, rules).unwrap();
        // Two orientations: White to move as stored, and Black to move (turned).
        assert_eq!(game.orientations(), 2);
        let tiers = game.all_tiers();
        // The same seed for every rule set: the same positions, seen under each.
        let positions = check_locations(&game, &sample_locations(&game, &tiers, PER_TIER, seed));
        check_tier_graph(&game, &tiers, &positions);
        let (forward, backward) = check_moves_and_unmoves(&game, &positions);
        // The samples must exercise both directions, or (c) proves nothing.
        assert!(forward > positions.len() && backward > positions.len(), "{rules}: {forward} / {backward} links");
        check_symmetries(&game, &positions, &THI_SYMMETRIES);
    }
}

#[test]
fn thi_3x3_up_to_3_counters() {
    check_thi(3, 3, 0x3303);
}

#[test]
fn thi_3x3_up_to_6_counters() {
    check_thi(3, 6, 0x3306);
}

#[test]
fn thi_4x4_up_to_4_counters() {
    check_thi(4, 4, 0x4404);
}

#[test]
fn primus_values_are_the_same_for_mirrored_and_turned_positions() {
    // PRIMUS (3×3, 3 counters a side): small enough to check every position of every
    // tier, both orientations, under every rule set.
    for rules in all_rules() {
        let game = Thi::new(3, 3, rules).unwrap();
        let tiers = game.all_tiers();
        let dir = tempfile::tempdir().unwrap();
        // The tier with the most counters: every other tier lies below it.
        let root = *tiers.iter().max().unwrap();
        let (tables, _) =
            retro::store::build(&game, dir.path(), &[root], &retro::solve::Silent, &Default::default()).unwrap();
        let all: Vec<Location<_>> = tiers
            .iter()
            .flat_map(|&tier| {
                (0..game.tier_size(tier))
                    .flat_map(move |rank| (0..2).map(move |orientation| Location { tier, rank, orientation }))
            })
            .collect();
        let positions = check_locations(&game, &all);
        // A turned image shares its rank by construction (orientation 1), so "turn" mostly
        // checks the probing; "mirror" lands on another rank and checks the solving.
        check_symmetric_values(&game, &tables, &positions, &THI_SYMMETRIES);
    }
}

// ---------------------------------------------------------------------------------------
// Trysse and Wari
// ---------------------------------------------------------------------------------------

/// Checks (a)–(c) for Trysse and Wari on `m` pits a row with `seeds` a pit, on every
/// position when a tier has at most `per_tier` (else a sample), under both rule sets and
/// a few targets: the default, the smallest (first capture wins) and the largest.
fn check_oware(m: usize, seeds: u32, per_tier: u64) {
    for rules in TargetRules::ALL {
        let total = 2 * m as u32 * seeds;
        for target in [None, Some(1), Some(total)] {
            let game = Oware::new(rules, m, seeds, target).unwrap();
            let tiers = game.all_tiers();
            let positions = check_locations(&game, &sample_locations(&game, &tiers, per_tier, m as u64));
            check_tier_graph(&game, &tiers, &positions);
            let (forward, backward) = check_moves_and_unmoves(&game, &positions);
            let name = game.table_key();
            assert!(forward > 0 && backward > 0, "{name}: {forward} / {backward} links");
        }
    }
}

#[test]
fn oware_every_position_of_small_boards() {
    // Exhaustive: every tier of every position of these boards.
    for (m, seeds) in [(1, 4), (2, 2), (2, 3), (3, 2), (3, 3), (4, 1)] {
        check_oware(m, seeds, u64::MAX);
    }
}

#[test]
fn oware_larger_boards_sampled() {
    for (m, seeds) in [(3, 4), (4, 3), (5, 2), (6, 2)] {
        check_oware(m, seeds, 400);
    }
}

/// THI` with the first predecessor of every list dropped: a game that breaks invariant 4.
struct DropsAPredecessor(Thi);

impl Game for DropsAPredecessor {
    type Position = Position;
    type Tier = ThiTier;
    type Value = retro::Value;

    fn table_key(&self) -> String {
        self.0.table_key()
    }
    fn tier_size(&self, tier: ThiTier) -> u64 {
        self.0.tier_size(tier)
    }
    fn child_tiers(&self, tier: ThiTier) -> Vec<ThiTier> {
        self.0.child_tiers(tier)
    }
    fn orientations(&self) -> u8 {
        self.0.orientations()
    }
    fn locate(&self, position: &Position) -> Location<ThiTier> {
        self.0.locate(position)
    }
    fn position(&self, location: Location<ThiTier>) -> Position {
        self.0.position(location)
    }
    fn end(&self, position: &Position) -> Option<retro::Value> {
        self.0.end(position)
    }
    fn moves(&self, position: &Position, out: &mut Vec<Move<Position>>) {
        self.0.moves(position, out)
    }
    fn unmoves(&self, position: &Position, out: &mut Vec<Move<Position>>) {
        let start = out.len();
        self.0.unmoves(position, out);
        if out.len() > start {
            out.remove(start);
        }
    }
}

#[test]
#[should_panic(expected = "but the un-moves of")]
fn the_move_check_catches_a_missing_predecessor() {
    // The generic check must not be vacuous: on a game that loses predecessors it fails.
    let game = DropsAPredecessor(Thi::new(3, 3, Rules { set: RuleSet::Original, bonus: false }).unwrap());
    let tiers = game.0.all_tiers();
    let positions = check_locations(&game, &sample_locations(&game, &tiers, PER_TIER, 1));
    check_moves_and_unmoves(&game, &positions);
}
