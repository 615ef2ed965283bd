//! Njaka against the invariant kit, value iteration on the explicit move graph and the
//! table verifier, standard and advanced, on boards small enough for the suite.

use games::njaka::{Direction, Njaka, Position, Variant};
use retro::kit;
use retro::solve::Observer;
use retro::store::{self, BuildOptions};
use retro::{Game, Location};

struct Quiet;
impl Observer for Quiet {}

/// Boards and the counters they are solved to here.
const BOARDS: [(usize, Variant, u32); 6] = [
    (2, Variant::Standard, 12),
    (4, Variant::Standard, 12),
    (6, Variant::Standard, 9),
    (2, Variant::Advanced, 12),
    (4, Variant::Advanced, 10),
    (6, Variant::Advanced, 6),
];

fn every_position(game: &Njaka, tiers: &[u8]) -> Vec<Position> {
    tiers
        .iter()
        .flat_map(|&t| (0..game.tier_size(t)).map(move |r| (t, r)))
        .flat_map(|(t, r)| [0, 1].map(|o| Location { tier: t, rank: r, orientation: o }))
        .map(|l| game.position(l))
        .collect()
}

#[test]
fn positions_keep_the_invariants() {
    for (h, variant, counters) in BOARDS {
        for direction in [Direction::Counterclockwise, Direction::Clockwise] {
            let game = Njaka::new(h, variant, direction, counters).unwrap();
            let tiers: Vec<u8> = (0..=counters as u8).collect();
            let locations = kit::sample_locations(&game, &tiers, 300, h as u64);
            let positions = kit::check_locations(&game, &locations);
            kit::check_tier_graph(&game, &tiers, &positions);
            kit::check_ends(&game, &positions);
            for p in &positions {
                game.check(p).unwrap_or_else(|e| panic!("{p}: {e}"));
            }
        }
    }
}

#[test]
fn tables_equal_value_iteration_and_pass_the_verifier() {
    let mut nonzero = 0;
    for (h, variant, counters) in BOARDS {
        for direction in [Direction::Counterclockwise, Direction::Clockwise] {
            let dir = tempfile::tempdir().unwrap();
            let game = Njaka::new(h, variant, direction, counters).unwrap();
            let tiers: Vec<u8> = (0..=counters as u8).collect();
            let (tables, report) = store::build(&game, dir.path(), &tiers, &Quiet, &BuildOptions::default()).unwrap();
            assert_eq!(report.tiers_built, tiers.len());
            let every = every_position(&game, &tiers);
            let oracle = kit::score_oracle(&game, &every);
            assert_eq!(kit::check_against_oracle(&game, &tables, &oracle), oracle.len());
            assert!(oracle.len() >= every.len(), "{h} {variant:?}");
            nonzero += oracle.values().filter(|&&v| v != 0).count();
            assert_eq!(kit::check_tables(&game, &tables, &tiers), report.positions);
            assert_eq!(kit::check_lines(&game, &tables, &every, 1000), every.len(), "{h} {variant:?}");
        }
    }
    assert!(nonzero > 1000, "only {nonzero} positions with a nonzero value");
}

#[test]
fn clockwise_is_the_mirror_image() {
    // Sowing clockwise on a board is sowing counterclockwise on its mirror image (hole i
    // and hole h + 1 − i swapped, standard halves swapped back by the turn): the starts
    // have the same value.
    for (h, variant, counters) in [(4, Variant::Standard, 12), (4, Variant::Advanced, 8), (6, Variant::Standard, 6)] {
        let dir = tempfile::tempdir().unwrap();
        let ccw = Njaka::new(h, variant, Direction::Counterclockwise, counters).unwrap();
        let cw = Njaka::new(h, variant, Direction::Clockwise, counters).unwrap();
        let tiers: Vec<u8> = (0..=counters as u8).collect();
        let (a, _) = store::build(&ccw, &dir.path().join("ccw"), &tiers, &Quiet, &BuildOptions::default()).unwrap();
        let (b, _) = store::build(&cw, &dir.path().join("cw"), &tiers, &Quiet, &BuildOptions::default()).unwrap();
        for s in 1..=counters / h as u32 {
            let start = ccw.start(s).unwrap();
            assert_eq!(a.value(&ccw, &start).unwrap(), b.value(&cw, &start).unwrap(), "{h} {variant:?} {s}");
        }
    }
}
