//! THI` hot paths: move generation, ranking, and a warm position query on DUO tables.

use criterion::{black_box, criterion_group, criterion_main, Criterion};
use games::thi::{Bonus, RuleSet, Rules, Setup, Thi};
use retro::line::{best_move, move_values, principal_line};
use retro::solve::Silent;
use retro::store::{build, BuildOptions};
use retro::{Game, Location};

fn rules() -> Rules {
    Rules { set: RuleSet::Original, bonus: Bonus::No }
}

/// Positions spread over the DUO tiers.
fn sample(game: &Thi) -> Vec<games::thi::Position> {
    let mut out = Vec::new();
    for tier in game.all_tiers() {
        let size = game.tier_size(tier);
        for k in 0..8u64 {
            let rank = (size * k) / 8;
            out.push(game.position(Location { tier, rank, orientation: (k % 2) as u8 }));
        }
    }
    out
}

/// Positions spread over tier 4-4 of a 5×5 board, as a push meets them.
fn pushed(game: &Thi) -> Vec<games::thi::Position> {
    let tier = game.all_tiers().into_iter().find(|t| t.to_string() == "4-4").unwrap();
    let size = game.tier_size(tier);
    (0..256u64).map(|k| game.position(Location { tier, rank: size / 256 * k + k, orientation: 0 })).collect()
}

fn bench(c: &mut Criterion) {
    let game = Thi::for_setup(Setup::named("duo").unwrap(), rules()).unwrap();
    let positions = sample(&game);

    c.bench_function("thi move_locations (per position)", |b| {
        let mut out = Vec::new();
        let mut i = 0;
        b.iter(|| {
            out.clear();
            game.move_locations(black_box(&positions[i % positions.len()]), &mut out);
            i += 1;
            out.len()
        })
    });
    c.bench_function("thi locate (per position)", |b| {
        let mut i = 0;
        b.iter(|| {
            i += 1;
            game.locate(black_box(&positions[i % positions.len()]))
        })
    });
    // On 5×5 a push ranks each parent of a decided position: most of a `fixed1` build.
    let game5 = Thi::new(5, 5, Rules { set: RuleSet::Fixed1, bonus: Bonus::No }).unwrap();
    let pushed5 = pushed(&game5);
    let parents5: Vec<_> = pushed5
        .iter()
        .flat_map(|p| {
            let mut unmoves = Vec::new();
            game5.unmoves(p, &mut unmoves);
            unmoves.into_iter().map(|m| m.position)
        })
        .collect();
    c.bench_function("thi 5x5 locate of a parent (per position)", |b| {
        let mut i = 0;
        b.iter(|| {
            i += 1;
            game5.locate(black_box(&parents5[i % parents5.len()]))
        })
    });
    c.bench_function("thi 5x5 parents located (per pushed position)", |b| {
        let (mut scratch, mut out) = (Vec::new(), Vec::new());
        let mut i = 0;
        b.iter(|| {
            i += 1;
            out.clear();
            game5.unmove_locations(black_box(&pushed5[i % pushed5.len()]), &mut scratch, &mut out);
            out.len()
        })
    });
    c.bench_function("thi position from rank (per position)", |b| {
        let locations: Vec<_> = positions.iter().map(|p| game.locate(p)).collect();
        let mut i = 0;
        b.iter(|| {
            i += 1;
            game.position(black_box(locations[i % locations.len()]))
        })
    });

    let dir = tempfile::tempdir().unwrap();
    let root = game.locate(&Setup::named("duo").unwrap().start()).tier;
    let (tables, _) = build(&game, dir.path(), &[root], &Silent, &BuildOptions::default()).unwrap();
    c.bench_function("thi probe (value of one position)", |b| {
        let mut i = 0;
        b.iter(|| {
            i += 1;
            tables.value(&game, black_box(&positions[i % positions.len()])).unwrap()
        })
    });
    let start = Setup::named("duo").unwrap().start();
    c.bench_function("thi warm query (moves, values, best, principal line)", |b| {
        b.iter(|| {
            let moves = game.named_moves(black_box(&start));
            let values = move_values(&game, &tables, moves.iter().map(|(_, s)| s)).unwrap();
            let best = best_move(&values);
            let line = principal_line(&game, &tables, &start, 200).unwrap();
            (best, line.positions.len())
        })
    });
}

criterion_group!(benches, bench);
criterion_main!(benches);
