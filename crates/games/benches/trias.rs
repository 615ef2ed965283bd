//! Trias hot paths: a position's moves (the sowing), ranking, and the next rank's board.

use criterion::{black_box, criterion_group, criterion_main, Criterion};
use games::trias::{Position, Trias};
use retro::{Game, Location};

/// Positions spread over the tiers of the 3×4 board up to 24 stones (2 a hole).
fn sample(game: &Trias) -> Vec<Position> {
    let mut out = Vec::new();
    for tier in game.tiers_up_to(24) {
        let size = game.tier_size(tier);
        for k in 0..16u64 {
            out.push(game.position(Location { tier, rank: (size * k) / 16, orientation: 0 }));
        }
    }
    out
}

fn bench(c: &mut Criterion) {
    let game = Trias::new(4, 24).unwrap();
    let positions = sample(&game);
    c.bench_function("trias moves (per position, 3x4)", |b| {
        let mut out = Vec::new();
        let mut i = 0;
        b.iter(|| {
            out.clear();
            game.moves(black_box(&positions[i % positions.len()]), &mut out);
            i += 1;
            out.len()
        })
    });
    c.bench_function("trias end (per position, 3x4)", |b| {
        let mut i = 0;
        b.iter(|| {
            i += 1;
            game.end(black_box(&positions[i % positions.len()]))
        })
    });
    c.bench_function("trias locate (per position, 3x4)", |b| {
        let mut i = 0;
        b.iter(|| {
            i += 1;
            game.locate(black_box(&positions[i % positions.len()]))
        })
    });
    c.bench_function("trias next board (per position, 3x4)", |b| {
        let mut i = 0;
        b.iter(|| {
            i += 1;
            black_box(&positions[i % positions.len()]).next_board()
        })
    });
}

criterion_group!(benches, bench);
criterion_main!(benches);
