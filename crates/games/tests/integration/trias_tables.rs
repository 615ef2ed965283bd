//! Trias against the invariant kit, an independent forward search and the table
//! verifier, on every board small enough for the suite.

use games::trias::{Position, Trias};
use retro::kit::{self, Symmetry};
use retro::solve::Observer;
use retro::store::{self, BuildOptions};
use retro::{Game, Location, Value};

struct Quiet;
impl Observer for Quiet {}

/// The half-turn: the same board seen from the mover, the other player moving.
fn half_turn(p: &Position) -> Position {
    Position::from_cells(p.cells(), p.to_move().other())
}

/// Boards and the stones they are solved to here: every tier of each, so every start of
/// up to that many stones a hole (1×1 to 4 stones a hole, 3×3 and 3×4 to one).
const BOARDS: [(usize, u32); 5] = [(1, 12), (2, 10), (3, 9), (4, 6), (5, 4)];

#[test]
fn positions_keep_the_invariants() {
    let symmetries: [Symmetry<Position>; 1] = [("half-turn", &half_turn)];
    for (k, stones) in BOARDS {
        let game = Trias::new(k, stones).unwrap();
        let tiers = game.tiers_up_to(stones);
        let locations = kit::sample_locations(&game, &tiers, 400, k as u64);
        let positions = kit::check_locations(&game, &locations);
        kit::check_tier_graph(&game, &tiers, &positions);
        let over = kit::check_ends(&game, &positions);
        assert!(over > 0 && over < positions.len(), "k = {k}: the check must see both kinds");
        kit::check_symmetries(&game, &positions, &symmetries);
        // Every move takes at least one stone off.
        for p in &positions {
            for m in kit::moves_of(&game, p) {
                assert!(m.position.stones() < p.stones(), "{p} → {}", m.position);
            }
        }
    }
}

#[test]
fn the_next_rank_is_the_next_board() {
    for (k, stones) in [(1, 6), (2, 5), (3, 4)] {
        let game = Trias::new(k, stones).unwrap();
        for tier in game.tiers_up_to(stones) {
            let mut previous = game.position(Location::at(tier, 0));
            for rank in 1..game.tier_size(tier) {
                let next = game.next_position(tier, rank, &previous);
                assert_eq!(next, game.position(Location::at(tier, rank)), "3×{k}, tier {tier}, rank {rank}");
                previous = next;
            }
            assert_eq!(previous.next_board(), None, "3×{k}, tier {tier}: the last board has no next");
        }
    }
}

#[test]
fn tables_equal_a_forward_search_and_pass_the_verifier() {
    let mut longest = 0;
    for (k, stones) in BOARDS {
        let dir = tempfile::tempdir().unwrap();
        let game = Trias::new(k, stones).unwrap();
        let tiers = game.tiers_up_to(stones);
        let (tables, report) = store::build(&game, dir.path(), &tiers, &Quiet, &BuildOptions::default()).unwrap();
        assert_eq!(report.tiers_built, tiers.len());
        let every: Vec<Position> = tiers
            .iter()
            .flat_map(|&t| (0..game.tier_size(t)).map(move |r| (t, r)))
            .flat_map(|(t, r)| [0, 1].map(|o| Location { tier: t, rank: r, orientation: o }))
            .map(|l| game.position(l))
            .collect();
        let oracle = kit::outcome_oracle(&game, &every);
        assert_eq!(kit::check_against_oracle(&game, &tables, &oracle), every.len(), "k = {k}");
        assert!(oracle.values().any(|v| matches!(v, Value::Win(d) if *d > 0)), "k = {k}: some win");
        assert!(oracle.values().any(|v| matches!(v, Value::Loss(d) if *d > 0)), "k = {k}: some loss in play");
        longest = longest.max(oracle.values().filter_map(|v| v.plies()).max().unwrap_or(0));
        assert!(oracle.values().all(|&v| v != Value::Draw), "k = {k}: Trias has no draws");
        assert_eq!(kit::check_tables(&game, &tables, &tiers), report.positions);
        let symmetries: [Symmetry<Position>; 1] = [("half-turn", &half_turn)];
        kit::check_symmetric_values(&game, &tables, &every, &symmetries);
        assert_eq!(kit::check_lines(&game, &tables, &every, 1000), every.len(), "k = {k}");
    }
    // The comparison means something only if games run long.
    assert!(longest >= 6, "the longest game is {longest} plies");
}

#[test]
fn tables_of_fewer_stones_serve_a_larger_build() {
    // A tier's table is the same whatever the stones a hole at the start: building the
    // 3×3 board to 9 stones after 6 reuses the first seven tiers.
    let dir = tempfile::tempdir().unwrap();
    let small = Trias::new(3, 6).unwrap();
    store::build(&small, dir.path(), &[6], &Quiet, &BuildOptions::default()).unwrap();
    let large = Trias::new(3, 9).unwrap();
    let (tables, report) = store::build(&large, dir.path(), &[9], &Quiet, &BuildOptions::default()).unwrap();
    assert_eq!((report.tiers_reused, report.tiers_built), (7, 3));
    let start = large.start(1).unwrap();
    let oracle = kit::outcome_oracle(&large, &[start]);
    assert_eq!(tables.value(&large, &start).unwrap(), oracle[&start]);
}

/// Every start of `docs/results.md` (`data/golden/trias-starts.tsv`, written from the
/// tables) equals a forward search from the start, with no tables: value, plies and the
/// positions reachable. The search is small because Trias games are short.
#[test]
fn the_published_starts_equal_a_forward_search() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../data/golden/trias-starts.tsv");
    let text = std::fs::read_to_string(path).unwrap();
    let mut checked = 0;
    for line in text.lines().filter(|l| !l.starts_with('#')).skip(1) {
        let f: Vec<&str> = line.split('\t').collect();
        let (k, s): (usize, u32) = (f[0].parse().unwrap(), f[1].parse().unwrap());
        let game = Trias::new(k, 3 * k as u32 * s).unwrap();
        let start = game.start(s).unwrap();
        let values = kit::outcome_oracle(&game, &[start]);
        let plies: u16 = f[3].parse().unwrap();
        let expected = if f[2] == "win" { Value::Win(plies) } else { Value::Loss(plies) };
        assert_eq!(values[&start], expected, "3×{k} with {s}");
        let won = values.values().filter(|v| matches!(v, Value::Win(_))).count();
        let counts = [values.len(), won, values.len() - won].map(|n| n.to_string());
        assert_eq!(counts, [f[4], f[5], f[6]], "3×{k} with {s}: reachable, won, lost");
        checked += 1;
    }
    assert_eq!(checked, 25);
}
