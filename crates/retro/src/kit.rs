//! The invariant kit: the checks every game must pass, whatever its engine, written once
//! over [`Game`] (the invariants are listed in [`crate::game`]). Each check panics with
//! the position that breaks it, so a game's tests call them directly; the toy game's
//! tests (`tests/integration/toy.rs`) run all of them on every engine kind, and every
//! game in `games` runs them in its own tests.
//!
//! The engines trust these without checking them: a wrong `locate` stores a value under
//! another position's rank, a move outside the child tiers is probed in a table that is
//! not built yet, a missing or extra un-move makes a retrograde pass give a wrong value
//! silently, and symmetric positions that disagree make the tables (which store one
//! orientation per rank) answer differently for positions the rules say are the same.
//!
//! The checks on positions ([`check_locations`], [`check_tier_graph`],
//! [`check_moves_and_unmoves`], [`check_ends`], [`check_symmetries`]) take sample
//! positions ([`sample_locations`]); the checks on tables ([`check_tables`],
//! [`check_symmetric_values`], [`check_against_oracle`], [`check_lines`]) take built tables.

use crate::forward::{score_reachable, solve_reachable};
use crate::game::{Engine, Game, Location, Move};
use crate::line::{principal_line, LineEnd};
use crate::store::Tables;
use crate::value::{TableValue, Turn, Value};
use crate::verify::verify_tier;
use rayon::prelude::*;
use std::collections::{HashMap, HashSet};
use std::fmt::Debug;

/// A symmetry of a game's rules: its name and the map on positions.
pub type Symmetry<'a, P> = (&'a str, &'a (dyn Fn(&P) -> P + Sync));

/// A small deterministic generator (SplitMix64): the samples are the same on every run,
/// so a failure can be reproduced.
struct SplitMix(u64);

impl SplitMix {
    fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// A number in `0..n` (`n > 0`); the modulo bias is irrelevant here.
    fn below(&mut self, n: u64) -> u64 {
        self.next_u64() % n
    }
}

/// Locations to test: every rank of a tier with at most `per_tier` ranks, otherwise the
/// first, the last and `per_tier - 2` random ones (the ends of the rank range are where
/// off-by-one errors show); each in every orientation.
pub fn sample_locations<G: Game>(game: &G, tiers: &[G::Tier], per_tier: u64, seed: u64) -> Vec<Location<G::Tier>> {
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

/// The moves of `position`, as a list.
pub fn moves_of<G: Game>(game: &G, position: &G::Position) -> Vec<Move<G::Position>> {
    let mut out = Vec::new();
    game.moves(position, &mut out);
    out
}

/// The un-moves of `position`, as a list.
pub fn unmoves_of<G: Game>(game: &G, position: &G::Position) -> Vec<Move<G::Position>> {
    let mut out = Vec::new();
    game.unmoves(position, &mut out);
    out
}

/// Successors (or predecessors) as a set of (position, turn), for comparing lists whose
/// order a symmetry changes.
fn as_set<P: Clone + Eq + std::hash::Hash>(list: &[Move<P>], map: impl Fn(&P) -> P) -> HashSet<(P, Turn)> {
    list.iter().map(|s| (map(&s.position), s.turn)).collect()
}

/// (a) `locate(position(loc)) == loc`, `position(locate(p)) == p`, and `material_tier(p)` is
/// the tier `locate` gives; with two
/// orientations, the moves of orientation 1 are those of orientation 0 with the
/// orientation flipped (invariant 7). Returns the positions, for the other checks.
pub fn check_locations<G: Game>(game: &G, locations: &[Location<G::Tier>]) -> Vec<G::Position> {
    locations
        .par_iter()
        .map(|&location| {
            let position = game.position(location);
            let found = game.locate(&position);
            assert_eq!(found, location, "locate({position}) is not where it came from");
            assert_eq!(game.material_tier(&position), location.tier, "material_tier({position}) is not its tier");
            assert_eq!(game.position(found), position, "position(locate(p)) is not p");
            if game.orientations() == 2 && location.orientation == 1 {
                check_flipped_moves(game, location, &position);
            }
            position
        })
        .collect()
}

/// Invariant 7 at one location of orientation 1 (`position`).
fn check_flipped_moves<G: Game>(game: &G, location: Location<G::Tier>, position: &G::Position) {
    let image = game.position(Location { orientation: 0, ..location });
    let (over, image_over) = (game.end(position), game.end(&image));
    assert_eq!(over.is_some(), image_over.is_some(), "{position} and {image} share a rank but not the game's end");
    if over.is_some() {
        return;
    }
    let located = |p: &G::Position, flip: u8| {
        let mut moves = Vec::new();
        game.move_locations(p, &mut moves);
        let mut moves: Vec<_> = moves
            .into_iter()
            .map(|m| {
                let to = m.position;
                (to.tier, to.rank, to.orientation ^ flip, m.gain, m.turn == Turn::Keeps)
            })
            .collect();
        moves.sort();
        moves
    };
    assert_eq!(
        located(position, 0),
        located(&image, 1),
        "the moves of {position} are not those of {image}, the position of orientation 0 at its rank, flipped"
    );
}

/// `moves_into` writes `moves` in order into an array as wide, and into one a move too
/// narrow it writes what fits and counts them all.
fn check_moves_into<G: Game>(game: &G, p: &G::Position, moves: &[Move<G::Position>]) {
    let mut into = moves.to_vec();
    assert_eq!(game.moves_into(p, &mut into), moves.len(), "{p}: moves_into counts other moves");
    assert_eq!(into, moves, "{p}: moves_into disagrees with moves");
    if let Some(narrower) = moves.len().checked_sub(1) {
        let mut into = moves[..narrower].to_vec();
        into.reverse();
        assert_eq!(game.moves_into(p, &mut into), moves.len(), "{p}: moves_into past its array");
        assert_eq!(into, moves[..narrower], "{p}: moves_into disagrees with moves past its array");
    }
}

/// (b) Every successor lies in the position's tier or in one of `child_tiers(tier)`, and
/// the tier graph below `tiers` has no cycle other than each tier's own loops;
/// `move_locations` is `moves` located one by one, `moves_into` is `moves`; and
/// `scan_moves` gives the moves that leave the tier and counts the distinct same-tier
/// children as located moves do.
pub fn check_tier_graph<G: Game>(game: &G, tiers: &[G::Tier], positions: &[G::Position]) {
    crate::order::tier_order(game, tiers).unwrap_or_else(|e| panic!("tier graph has a cycle: {e:?}"));
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
        check_moves_into(game, p, &successors);
        // The scan's view: the moves leaving the tier, and the same-tier moves counted
        // (every one with un-moves, the distinct children without).
        let leaving: Vec<_> = slow.iter().filter(|m| m.position.tier != tier).cloned().collect();
        let mut same_tier: Vec<(u64, Turn)> =
            slow.iter().filter(|m| m.position.tier == tier).map(|m| (m.position.rank, m.turn)).collect();
        let every = same_tier.len();
        same_tier.sort_unstable();
        same_tier.dedup();
        let (mut scanned, mut pairs) = (Vec::new(), Vec::new());
        let count = game.scan_moves(tier, p, &mut scanned, &mut pairs);
        assert_eq!(scanned, leaving, "{p}: scan_moves disagrees with moves on the moves leaving the tier");
        if game.lists_unmoves() {
            assert_eq!(count, every, "{p}: scan_moves counts {count} same-tier moves, not {every}");
        } else {
            assert_eq!(
                count,
                same_tier.len(),
                "{p}: scan_moves counts {count} distinct same-tier children, not {}",
                same_tier.len()
            );
            assert_eq!(pairs, same_tier, "{p}: scan_moves gives other same-tier children (read without un-moves)");
        }
    });
}

/// (c) Successors and predecessors agree: each same-tier successor `s` of `p` lists `p`
/// among its predecessors with the same turn; each predecessor `q` of `p` is in `p`'s
/// tier, not over, and has `p` among its successors with that turn; `unmove_locations`
/// is `unmoves` located one by one; and the un-moves account for the moves the engine
/// counts: for the orientation-0 position at `p`'s rank and each same-tier rank and turn
/// its moves reach, the weights of the un-moves from that rank's orientation-0 position
/// back to `p`'s rank add up to those moves ([`Game::unmove_locations`]). Returns how many
/// successor and predecessor links were followed, so a caller can see the check bit.
/// Positions of tiers whose engine needs no un-moves ([`Engine::Acyclic`]) are skipped,
/// and so is a game that does not list un-moves ([`Game::lists_unmoves`]).
pub fn check_moves_and_unmoves<G: Game>(game: &G, positions: &[G::Position]) -> (usize, usize) {
    let links = positions.par_iter().map(|p| {
        let tier = game.locate(p).tier;
        let (mut forward_links, mut backward_links) = (0, 0);
        if game.engine(tier) == Engine::Acyclic || !game.lists_unmoves() {
            return (0, 0);
        }
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
        check_unmove_weights(game, p);
        let predecessors = unmoves_of(game, p);
        let mut located = Vec::new();
        game.unmove_locations(p, &mut Vec::new(), &mut located);
        let located: Vec<_> = located.iter().map(|q| (q.location, q.turn)).collect();
        let by_locate: Vec<_> = predecessors.iter().map(|q| (game.locate(&q.position), q.turn)).collect();
        assert_eq!(located, by_locate, "{p}: unmove_locations disagrees with unmoves located one by one");
        for q in predecessors {
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

/// The un-moves' weights against the moves, as a push counts a parent down (see
/// [`check_moves_and_unmoves`]).
fn check_unmove_weights<G: Game>(game: &G, p: &G::Position) {
    let here = game.locate(p);
    let solved = game.position(Location::at(here.tier, here.rank));
    if game.end(&solved).is_some() {
        return;
    }
    let mut moves: HashMap<(u64, Turn), usize> = HashMap::new();
    for s in moves_of(game, &solved) {
        let child = game.locate(&s.position);
        if child.tier == here.tier {
            *moves.entry((child.rank, s.turn)).or_default() += 1;
        }
    }
    for (&(child, turn), &count) in &moves {
        let pushed = game.position(Location::at(here.tier, child));
        let mut parents = Vec::new();
        game.unmove_locations(&pushed, &mut Vec::new(), &mut parents);
        let weights: usize = parents
            .iter()
            .filter(|q| q.location.tier == here.tier && q.location.rank == here.rank && q.turn == turn)
            .map(|q| q.weight as usize)
            .sum();
        assert_eq!(
            weights, count,
            "{solved} has {count} moves to {pushed} ({turn:?}), but the un-moves from there weigh {weights}"
        );
    }
}

/// (d) Each symmetry maps a position's successors onto its image's successors (as sets,
/// turns included), and likewise its predecessors, and keeps the outcome.
pub fn check_symmetries<G: Game>(game: &G, positions: &[G::Position], symmetries: &[Symmetry<G::Position>]) {
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
pub fn check_symmetric_values<G: Game>(
    game: &G,
    tables: &Tables<G>,
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

/// (f) A position where the game goes on has a move (the engines never ask for the moves
/// of a finished game); where a tier's engine is [`Engine::CyclicScore`], a move inside
/// the tier gains nothing and passes the turn. Returns how many positions were over, so
/// a caller can see the check bit.
pub fn check_ends<G: Game>(game: &G, positions: &[G::Position]) -> usize {
    positions
        .par_iter()
        .map(|p| {
            if game.end(p).is_some() {
                return 1;
            }
            let moves = moves_of(game, p);
            assert!(!moves.is_empty(), "{p} goes on, yet has no move");
            let tier = game.locate(p).tier;
            if game.engine(tier) == Engine::CyclicScore {
                for m in moves.iter().filter(|m| game.locate(&m.position).tier == tier) {
                    assert!(
                        m.gain == 0 && m.turn == Turn::Passes,
                        "{p} → {}: a move inside a cyclic score tier must gain nothing and pass",
                        m.position
                    );
                }
            }
            0
        })
        .sum()
}

/// (g) Every stored value of `tiers` equals the best over its moves ([`verify_tier`]).
/// Returns the positions checked.
pub fn check_tables<G: Game>(game: &G, tables: &Tables<G>, tiers: &[G::Tier]) -> u64 {
    tiers
        .iter()
        .map(|&tier| verify_tier(game, tables, tier).unwrap_or_else(|e| panic!("{}: {e}", game.table_key())))
        .sum()
}

/// The value of every position reachable from `starts` in an outcome game, found without
/// tiers, ranks, un-moves or tables ([`solve_reachable`]).
pub fn outcome_oracle<G: Game<Value = Value>>(game: &G, starts: &[G::Position]) -> HashMap<G::Position, Value> {
    let mut values = HashMap::new();
    for start in starts {
        values.extend(solve_reachable(game, start));
    }
    values
}

/// The value of every position reachable from `starts` in a score game, by value
/// iteration on the explicit graph ([`score_reachable`]; endless play scores 0).
pub fn score_oracle<G: Game<Value = i16>>(game: &G, starts: &[G::Position]) -> HashMap<G::Position, i16> {
    score_reachable(game, starts.iter().cloned()).unwrap_or_else(|e| panic!("{}: {e}", game.table_key()))
}

/// (h) The tables equal an oracle's values on every position it valued. Returns how many
/// positions were compared.
pub fn check_against_oracle<G: Game>(game: &G, tables: &Tables<G>, oracle: &HashMap<G::Position, G::Value>) -> usize {
    for (p, &expected) in oracle {
        let stored = tables.value(game, p).unwrap_or_else(|e| panic!("{p}: {e}"));
        assert_eq!(stored, expected, "{p}: the tables say {stored}, the oracle {expected}");
    }
    oracle.len()
}

/// (i) Every principal line makes the value it is read for: its moves are legal, and its
/// gains and its end (the game over, or endless play where a position repeats), folded
/// back move by move, give each position's stored value, distances included. A line in
/// a tier with cycles that went round one instead of making a value other than endless
/// play's fails here, though every move of it is a best move. Returns the lines checked
/// (those not cut at `max_plies`).
pub fn check_lines<G: Game>(game: &G, tables: &Tables<G>, positions: &[G::Position], max_plies: usize) -> usize {
    positions
        .par_iter()
        .filter(|p| {
            let line = principal_line(game, tables, p, max_plies).unwrap_or_else(|e| panic!("{p}: {e}"));
            for (i, played) in line.moves.iter().enumerate() {
                assert!(moves_of(game, &line.positions[i]).contains(played), "{p}: move {i} of its line is not legal");
                assert_eq!(played.position, line.positions[i + 1], "{p}: move {i} of its line");
            }
            let mut made = match line.end {
                LineEnd::Over(v) => v,
                LineEnd::Cycle(_) => G::Value::ENDLESS,
                LineEnd::Cut => return false,
            };
            for (i, played) in line.moves.iter().enumerate().rev() {
                made = G::Value::worth(made, played.gain, played.turn);
                let stored = tables.value(game, &line.positions[i]).unwrap_or_else(|e| panic!("{p}: {e}"));
                assert_eq!(
                    made, stored,
                    "{p}: its line from ply {i} on makes {made}, but {} is worth {stored}",
                    line.positions[i]
                );
            }
            true
        })
        .count()
}

/// A game as it is, but without its un-moves: the engines then find parents from the
/// moves ([`crate::parents`]). Its tables must equal the game's own, which tests that way
/// of finding parents on every game that has un-moves to compare with.
pub struct WithoutUnmoves<G>(pub G);

impl<G: Game> Game for WithoutUnmoves<G> {
    type Position = G::Position;
    type Tier = G::Tier;
    type Value = G::Value;

    fn table_key(&self) -> String {
        self.0.table_key()
    }
    fn tier_size(&self, tier: G::Tier) -> u64 {
        self.0.tier_size(tier)
    }
    fn child_tiers(&self, tier: G::Tier) -> Vec<G::Tier> {
        self.0.child_tiers(tier)
    }
    fn orientations(&self) -> u8 {
        self.0.orientations()
    }
    fn locate(&self, position: &G::Position) -> Location<G::Tier> {
        self.0.locate(position)
    }
    fn material_tier(&self, position: &G::Position) -> G::Tier {
        self.0.material_tier(position)
    }
    fn position(&self, location: Location<G::Tier>) -> G::Position {
        self.0.position(location)
    }
    fn next_position(&self, tier: G::Tier, rank: u64, previous: &G::Position) -> G::Position {
        self.0.next_position(tier, rank, previous)
    }
    fn end(&self, position: &G::Position) -> Option<G::Value> {
        self.0.end(position)
    }
    fn moves(&self, position: &G::Position, out: &mut Vec<Move<G::Position>>) {
        self.0.moves(position, out)
    }
    fn move_locations(&self, position: &G::Position, out: &mut Vec<Move<Location<G::Tier>>>) {
        self.0.move_locations(position, out)
    }
    fn engine(&self, tier: G::Tier) -> Engine {
        self.0.engine(tier)
    }
}
