//! The retrograde engines without un-moves find parents from the moves
//! (`retro::parents`): on games that have un-moves to compare with, the tables must be
//! the same, value for value.

use games::awari::Awari;
use games::oware::{Oware, TargetRules};
use games::thi::{Bonus, RuleSet, Rules, Setup, Thi};
use retro::kit::WithoutUnmoves;
use retro::solve::Silent;
use retro::store::{build, BuildOptions, Tables};
use retro::{Game, Location};

/// Every value of `tiers` in both sets of tables.
fn same_values<G: Game + Clone>(game: &G, with: &Tables<G>, without: &Tables<WithoutUnmoves<G>>, tiers: &[G::Tier]) {
    let mut compared = 0;
    for &tier in tiers {
        for rank in 0..game.tier_size(tier) {
            let p = game.position(Location::at(tier, rank));
            assert_eq!(with.value(game, &p).unwrap(), without.value(&WithoutUnmoves(game.clone()), &p).unwrap(), "{p}");
            compared += 1;
        }
    }
    assert!(compared > 1000, "{compared} positions compared");
}

fn both<G: Game + Clone>(game: G, roots: &[G::Tier]) {
    let dir = tempfile::tempdir().unwrap();
    let (with, _) = build(&game, &dir.path().join("with"), roots, &Silent, &BuildOptions::default()).unwrap();
    let plain = WithoutUnmoves(game.clone());
    let (without, _) = build(&plain, &dir.path().join("without"), roots, &Silent, &BuildOptions::default()).unwrap();
    let tiers = retro::order::tier_order(&game, roots).unwrap();
    same_values(&game, &with, &without, &tiers);
}

#[test]
fn thi_outcomes_are_the_same_without_unmoves() {
    // PRIMUS: cycles inside tiers (the outcome engine), and with bonus moves, moves that
    // keep the turn.
    for bonus in [Bonus::No, Bonus::Own, Bonus::Any] {
        let setup = Setup::named("primus").unwrap();
        let game = Thi::for_setup(setup, Rules { set: RuleSet::Original, bonus }).unwrap();
        let root = game.locate(&setup.start()).tier;
        both(game, &[root]);
    }
}

#[test]
fn awari_scores_are_the_same_without_unmoves() {
    // Cycles inside tiers with scores (the cyclic engine).
    let game = Awari::new(3, 8).unwrap();
    both(game.clone(), &game.tiers_up_to(8));
}

#[test]
fn wari_outcomes_are_the_same_without_unmoves() {
    let game = Oware::new(TargetRules::Wari, 2, 3, None).unwrap();
    let root = game.locate(&game.start()).tier;
    both(game, &[root]);
}
