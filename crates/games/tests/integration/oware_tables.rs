//! Trysse and Wari tables against an independent forward search, and the table verifier.

use games::oware::{Oware, TargetRules};
use retro::solve::Silent;
use retro::store::{build, BuildOptions};
use retro::{forward, kit, verify, Game, Value};

/// Builds the tables of the start's tier and everything below it.
fn tables(game: &Oware, dir: &std::path::Path) -> retro::Tables<Oware> {
    let root = game.locate(&game.start()).tier;
    build(game, dir, &[root], &Silent, &BuildOptions::default()).unwrap().0
}

#[test]
fn tables_equal_forward_search_on_small_boards() {
    for rules in TargetRules::ALL {
        let mut decided = Vec::new();
        for (m, seeds, target) in
            [(2, 2, None), (2, 2, Some(8)), (2, 3, None), (3, 2, None), (3, 2, Some(3)), (4, 1, None)]
        {
            let game = Oware::new(rules, m, seeds, target).unwrap();
            let dir = tempfile::tempdir().unwrap();
            let tables = tables(&game, dir.path());
            let start = game.start();
            let oracle = forward::solve_reachable(&game, &start);
            for (position, expected) in &oracle {
                assert_eq!(tables.value(&game, position).unwrap(), *expected, "{}: {position}", game.table_key());
            }
            let reachable: Vec<_> = oracle.keys().cloned().collect();
            assert_eq!(kit::check_lines(&game, &tables, &reachable, 1000), reachable.len(), "{}", game.table_key());
            decided.push((oracle.values().filter(|v| **v != Value::Draw).count(), oracle.len()));
        }
        // The comparison means something only if most games are decided somewhere.
        let decisive = decided.iter().filter(|(d, n)| *d > n / 10).count();
        assert!(decisive + 1 >= decided.len(), "{}: decided / reachable {decided:?}", rules.name());
    }
}

#[test]
fn verifier_passes_every_tier() {
    for rules in TargetRules::ALL {
        for (m, seeds) in [(2, 3), (3, 2), (4, 1)] {
            let game = Oware::new(rules, m, seeds, None).unwrap();
            let dir = tempfile::tempdir().unwrap();
            let tables = tables(&game, dir.path());
            let mut checked = 0;
            for (&tier, _) in tables.tables() {
                checked += verify::verify_tier(&game, &tables, tier).unwrap_or_else(|e| panic!("{e}"));
            }
            assert_eq!(checked, tables.size().0);
        }
    }
}

#[test]
fn the_two_rule_sets_differ_where_the_source_says() {
    // 2x2, 8 stones: Trysse (target 4) and Wari (target 5) disagree on some positions,
    // for instance where the mover cannot feed (Wari ends the game, Trysse plays on).
    let trysse = Oware::new(TargetRules::Trysse, 2, 2, Some(5)).unwrap();
    let wari = Oware::new(TargetRules::Wari, 2, 2, None).unwrap();
    let (dt, dw) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let (tt, tw) = (tables(&trysse, dt.path()), tables(&wari, dw.path()));
    let p = "1,0,0,0 4-3".parse().unwrap();
    assert_eq!(tt.value(&trysse, &p).unwrap(), Value::Draw);
    assert_eq!(tw.value(&wari, &p).unwrap(), Value::Win(0));
}
