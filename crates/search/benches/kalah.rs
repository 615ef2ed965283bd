//! Kalah hot paths: sowing every move of a board, ranking a board in its tier, and the
//! weak solver's search (MTD(f) over endgame tables) on a small instance, beside the
//! search above the tables every game has (`search::tree`) on the same instance, run once
//! for a minute at most and printed.
//!
//! `cargo bench -p mancala-search --bench kalah`. The search figures are for one thread
//! and a transposition table small enough to stay out of the way (2^20 entries for
//! Kalah's, the default 2^22 positions for the other); divide the nodes Kalah's prints by
//! its time per iteration for nodes per second.

use criterion::{black_box, criterion_group, criterion_main, Criterion};
use games::kalah::{Board, Kalah, MoveList, Position, Rules};
use retro::solve::Silent;
use retro::store::{self, BuildOptions};
use retro::{Game, Location};
use search::kalah::Search;
use search::tree::{self, Budget};

/// Boards spread over the tiers of six pits up to `seeds` seeds.
fn sample(game: &Kalah, seeds: u32) -> Vec<Board> {
    let mut out = Vec::new();
    for tier in game.tiers_up_to(seeds) {
        let size = game.tier_size(tier);
        for k in 0..16u64 {
            out.push(game.position(Location::at(tier, size * k / 16)));
        }
    }
    out
}

fn bench(c: &mut Criterion) {
    let rules = Rules::EMPTY_CAPTURE;
    let game = Kalah::new(6, 24, rules).unwrap();
    let boards = sample(&game, 24);

    c.bench_function("kalah moves_into (every move of one board)", |b| {
        let mut list = MoveList::default();
        let mut i = 0;
        b.iter(|| {
            i += 1;
            boards[i % boards.len()].moves_into(&rules, black_box(&mut list));
            list.len()
        })
    });
    c.bench_function("kalah locate (rank of one board)", |b| {
        let mut i = 0;
        b.iter(|| {
            i += 1;
            game.locate(black_box(&boards[i % boards.len()]))
        })
    });

    // Kalah(6,3): 36 seeds, searched above tables of up to 12 seeds.
    let endgame = 12;
    let small = Kalah::new(6, endgame, rules).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let (tables, _) = store::build(&small, dir.path(), &[endgame as u16], &Silent, &BuildOptions::default()).unwrap();
    let start = Position::start(6, 3).unwrap().board();
    let nodes = {
        let search = Search::new(&small, &tables, endgame, 20).unwrap();
        search.value(&start).unwrap();
        search.nodes()
    };
    println!("kalah search of Kalah(6,3) over 12-seed tables: {nodes} nodes per value");
    // The search of every game proves every move's value after the position's: far longer
    // than Kalah's value alone, so it is measured once, within a minute, by its rate.
    let minute = Budget { threads: 1, time: Some(std::time::Duration::from_secs(60)), ..Budget::default() };
    let general = tree::search(&small, &tables, &start, minute, &mut |_| {}).unwrap();
    println!(
        "the search of every game on Kalah(6,3) over 12-seed tables, one thread: {}..={} after {} nodes, {} probes \
         in {:.1} s ({:.2} M nodes/s, stopped: {:?})",
        general.lower,
        general.upper,
        general.nodes,
        general.probes,
        general.seconds,
        general.nodes as f64 / general.seconds / 1e6,
        general.stop
    );
    let mut group = c.benchmark_group("kalah search");
    group.sample_size(10);
    group.bench_function("value of Kalah(6,3), one thread, fresh 2^20-entry table", |b| {
        b.iter(|| {
            let search = Search::new(&small, &tables, endgame, 20).unwrap();
            search.value(black_box(&start)).unwrap()
        })
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
