//! Awari tables against an independent solver, and the table verifier.

use games::awari::{Awari, Board};
use retro::solve::Observer;
use retro::store::{self, BuildOptions};
use retro::verify::verify_tier;
use retro::{forward, kit, Game, Location};
use std::collections::HashMap;

struct Quiet;
impl Observer for Quiet {}

/// Every board of up to `stones` stones, with its values by value iteration on the
/// explicit move graph ([`forward::score_reachable`]).
fn value_iteration(m: usize, stones: u32) -> HashMap<Board, i16> {
    let game = Awari::new(m, stones).unwrap();
    let boards = (0..=stones as u8).flat_map(|tier| (0..game.tier_size(tier)).map(move |r| (tier, r)));
    let every = boards.map(|(tier, r)| game.position(Location::at(tier, r))).collect::<Vec<_>>();
    forward::score_reachable(&game, every).unwrap()
}

#[test]
fn tables_equal_value_iteration_up_to_eight_stones() {
    let dir = tempfile::tempdir().unwrap();
    let game = Awari::new(6, 8).unwrap();
    let (tables, report) =
        store::build(&game, dir.path(), &game.tiers_up_to(8), &Quiet, &BuildOptions::default()).unwrap();
    assert_eq!(report.tiers_built, 9);
    let expected = value_iteration(6, 8);
    assert_eq!(expected.len() as u64, report.positions);
    for (board, v) in &expected {
        assert_eq!(tables.value(&game, board).unwrap(), *v, "{board}");
    }
    // The comparison means something only if both signs occur.
    assert!(expected.values().any(|&v| v > 0) && expected.values().any(|&v| v < 0));
    // A known cycle: one stone each, every move sows into the opponent's empty row and
    // back; neither side can ever capture, so the stones are split: 0.
    assert_eq!(tables.value(&game, &"0,0,0,0,0,1,0,0,0,0,0,1".parse().unwrap()).unwrap(), 0);
}

#[test]
fn small_boards_equal_value_iteration() {
    // Every board size below the real one, each to about as many stones as a start of
    // 2 to 12 seeds a pit: 1x12 … 5x1 (the starts of those are solved in the results).
    for (m, stones) in [(1, 24), (2, 16), (3, 12), (4, 9), (5, 7)] {
        let dir = tempfile::tempdir().unwrap();
        let game = Awari::new(m, stones).unwrap();
        let (tables, report) =
            store::build(&game, dir.path(), &game.tiers_up_to(stones), &Quiet, &BuildOptions::default()).unwrap();
        let expected = value_iteration(m, stones);
        assert_eq!(expected.len() as u64, report.positions, "m = {m}");
        for (board, v) in &expected {
            assert_eq!(tables.value(&game, board).unwrap(), *v, "m = {m}: {board}");
        }
        assert!(expected.values().any(|&v| v > 0) && expected.values().any(|&v| v < 0), "m = {m}");
        for tier in game.tiers_up_to(stones) {
            verify_tier(&game, &tables, tier).unwrap();
        }
        let every: Vec<Board> = expected.into_keys().collect();
        assert_eq!(kit::check_lines(&game, &tables, &every, 1000), every.len(), "m = {m}");
    }
}

#[test]
fn verifier_passes_every_tier_up_to_ten_stones() {
    let dir = tempfile::tempdir().unwrap();
    let game = Awari::new(6, 10).unwrap();
    let (tables, _) = store::build(&game, dir.path(), &game.tiers_up_to(10), &Quiet, &BuildOptions::default()).unwrap();
    let mut checked = 0;
    for tier in game.tiers_up_to(10) {
        checked += verify_tier(&game, &tables, tier).unwrap();
    }
    assert_eq!(checked, (0..=10).map(|n| games::awari::tier_entries(6, n)).sum::<u64>());
    // A rebuild reuses every tier.
    let (_, report) = store::build(&game, dir.path(), &game.tiers_up_to(10), &Quiet, &BuildOptions::default()).unwrap();
    assert_eq!((report.tiers_built, report.tiers_reused), (0, 11));
}

#[test]
fn the_verifier_catches_a_wrong_value() {
    let dir = tempfile::tempdir().unwrap();
    let game = Awari::new(6, 4).unwrap();
    store::build(&game, dir.path(), &[4], &Quiet, &BuildOptions::default()).unwrap();
    // Rewrite tier 4 with every value shifted by one.
    let tables = store::open(&game, dir.path(), &[4]).unwrap();
    let codes: Vec<u16> =
        (0..game.tier_size(4)).map(|r| retro::value::score_code(tables.probe(4, r).unwrap() + 1)).collect();
    drop(tables);
    let path = retro::store::tier_file(dir.path(), 4);
    std::fs::remove_file(&path).unwrap();
    let identity = retro::table::TableIdentity {
        key: game.table_key(),
        tier: "4".to_owned(),
        encoding: retro::table::ValueEncoding::Score,
    };
    retro::table::write_table(&path, &identity, &codes, retro::table::Layout::Compact).unwrap();
    let tables = store::open(&game, dir.path(), &[4]).unwrap();
    assert!(verify_tier(&game, &tables, 4).is_err());
}

/// Every table up to 16 stones (a release build; too long for the suite):
/// `cargo test --release -p mancala-games --test awari_tables -- --ignored`.
#[test]
#[ignore]
fn tables_up_to_sixteen_stones_build_and_count() {
    let dir = tempfile::tempdir().unwrap();
    let game = Awari::new(6, 16).unwrap();
    let (_, report) = store::build(&game, dir.path(), &game.tiers_up_to(16), &Quiet, &BuildOptions::default()).unwrap();
    assert_eq!(report.positions, (0..=16).map(|n| games::awari::tier_entries(6, n)).sum::<u64>());
    assert_eq!(report.positions, 30_421_755);
}
