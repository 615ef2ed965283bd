//! The invariant kit (`retro::kit`, the invariants listed in `crates/retro/src/game.rs`)
//! run for every game of this crate: THI`, Trysse and Wari (outcome engine), Kalah
//! (scores, acyclic tiers) and Awari (scores with cycles).

use games::awari::Awari;
use games::kalah::{Kalah, Rules as KalahRules};
use games::oware::{Oware, TargetRules};
use games::thi::{Bonus, Position, RuleSet, Rules, Thi, ThiTier};
use retro::kit::{
    check_ends, check_locations, check_moves_and_unmoves, check_symmetric_values, check_symmetries, check_tier_graph,
    sample_locations, Symmetry,
};
use retro::{Game, Location, Move};

// ---------------------------------------------------------------------------------------
// THI`
// ---------------------------------------------------------------------------------------

/// Every rule set, without and with bonus moves (under both readings of whose counters
/// earn them).
fn all_rules() -> Vec<Rules> {
    RuleSet::ALL
        .into_iter()
        .flat_map(|set| [Bonus::No, Bonus::Own, Bonus::Any].map(|bonus| Rules { set, bonus }))
        .collect()
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
        check_ends(&game, &positions);
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

/// From 5×5 on, parents are ranked from the position's word (`Game::unmove_locations`),
/// which (c) checks against un-moves located one by one; 6×6 has no middle file.
#[test]
fn thi_5x5_up_to_5_counters_and_6x6_up_to_3() {
    check_thi(5, 5, 0x5505);
    check_thi(6, 3, 0x6603);
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
        assert_eq!(retro::kit::check_lines(&game, &tables, &positions, 1000), positions.len(), "{rules:?}");
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
            check_ends(&game, &positions);
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

// ---------------------------------------------------------------------------------------
// Kalah and Awari (score engines)
// ---------------------------------------------------------------------------------------

#[test]
fn kalah_every_position_of_small_boards_under_every_preset() {
    for rules in [KalahRules::EMPTY_CAPTURE, KalahRules::STANDARD, KalahRules::BASSETT] {
        for (m, seeds) in [(2, 6), (3, 6), (4, 4)] {
            let game = Kalah::new(m, seeds, rules).unwrap();
            let tiers = game.tiers_up_to(seeds);
            let positions = check_locations(&game, &sample_locations(&game, &tiers, 2000, m as u64));
            check_tier_graph(&game, &tiers, &positions);
            assert!(check_ends(&game, &positions) > 0, "{}: no finished position sampled", game.table_key());
            // Kalah's tiers are solved forward (Engine::Acyclic): no un-moves to check.
            assert_eq!(check_moves_and_unmoves(&game, &positions), (0, 0));
        }
    }
}

#[test]
fn awari_every_position_of_small_boards() {
    for (m, stones) in [(2, 8), (3, 6), (6, 4)] {
        let game = Awari::new(m, stones).unwrap();
        let tiers = game.tiers_up_to(stones);
        let positions = check_locations(&game, &sample_locations(&game, &tiers, 2000, m as u64));
        check_tier_graph(&game, &tiers, &positions);
        check_ends(&game, &positions);
        let (forward, backward) = check_moves_and_unmoves(&game, &positions);
        assert!(forward > 0 && backward > 0, "Awari m={m}: {forward} / {backward} links");
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
    fn lists_unmoves(&self) -> bool {
        true
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
    let game = DropsAPredecessor(Thi::new(3, 3, Rules { set: RuleSet::Original, bonus: Bonus::No }).unwrap());
    let tiers = game.0.all_tiers();
    let positions = check_locations(&game, &sample_locations(&game, &tiers, PER_TIER, 1));
    check_moves_and_unmoves(&game, &positions);
}
