//! THI` tables against an independent forward search, and the table verifier.

use games::thi::{Bonus, RuleSet, Rules, Setup, Thi};
use retro::solve::Silent;
use retro::store::{build, BuildOptions};
use retro::{forward, verify, Game};

fn all_rules() -> Vec<Rules> {
    RuleSet::ALL
        .into_iter()
        .flat_map(|set| [Bonus::No, Bonus::Own, Bonus::Any].map(|bonus| Rules { set, bonus }))
        .collect()
}

#[test]
fn primus_tables_equal_forward_search_under_every_rule_set() {
    let setup = Setup::named("primus").unwrap();
    for rules in all_rules() {
        let game = Thi::for_setup(setup, rules).unwrap();
        let dir = tempfile::tempdir().unwrap();
        let start = setup.start();
        let (tables, _) =
            build(&game, dir.path(), &[game.locate(&start).tier], &Silent, &BuildOptions::default()).unwrap();
        let oracle = forward::solve_reachable(&game, &start);
        assert!(oracle.len() > 100, "{rules}: only {} positions reachable", oracle.len());
        for (position, expected) in &oracle {
            let stored = tables.value(&game, position).unwrap();
            assert_eq!(stored, *expected, "{rules}: {position}");
        }
        println!("{rules}: start {} ({} reachable)", oracle[&start], oracle.len());
    }
}

#[test]
fn primus_and_duo_tables_pass_the_verifier() {
    for name in ["primus", "duo"] {
        let setup = Setup::named(name).unwrap();
        for rules in all_rules() {
            if name == "duo" && rules.bonus != Bonus::No {
                continue;
            }
            let game = Thi::for_setup(setup, rules).unwrap();
            let dir = tempfile::tempdir().unwrap();
            let root = game.locate(&setup.start()).tier;
            let (tables, _) = build(&game, dir.path(), &[root], &Silent, &BuildOptions::default()).unwrap();
            for tier in game.all_tiers() {
                verify::verify_tier(&game, &tables, tier).unwrap_or_else(|e| panic!("{name} {rules}: {e}"));
            }
        }
    }
}
