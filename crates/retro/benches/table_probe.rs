//! Probing one table at random ranks: plain, and in entropy-coded blocks, each held in
//! memory and read by position (warm: every chunk read and checked once before timing).
//! The codes are skewed as Awari's and Kalah's are (each code about half as common as the
//! one before), 2^22 of them, so the table stays in the cache and the decoding is what is
//! measured.

use criterion::{black_box, criterion_group, criterion_main, Criterion};
use retro::table::{compact_table, write_table, Layout, Reading, Saving, Table, TableIdentity, ValueEncoding};

/// A pseudo-random stream (xorshift), the same on every run.
fn next(x: &mut u64) -> u64 {
    *x ^= *x << 13;
    *x ^= *x >> 7;
    *x ^= *x << 17;
    *x
}

fn bench(c: &mut Criterion) {
    let mut x = 0x9E37_79B9_7F4A_7C15u64;
    let codes: Vec<u16> = (0..1u32 << 22).map(|_| (next(&mut x) | 1 << 20).trailing_zeros() as u16).collect();
    let dir = tempfile::tempdir().unwrap();
    let identity = TableIdentity { key: "bench".into(), tier: "0".into(), encoding: ValueEncoding::Score };
    let plain = dir.path().join("plain.tbl");
    write_table(&plain, &identity, &codes, Layout::Plain).unwrap();
    let coded = dir.path().join("coded.tbl");
    write_table(&coded, &identity, &codes, Layout::Plain).unwrap();
    compact_table(&Table::open(&coded, None).unwrap(), Saving::percent(20).unwrap()).unwrap().expect("blocks pay");
    for (name, path) in [("plain", &plain), ("coded blocks", &coded)] {
        for (reading, how) in [(Reading::Held, "held"), (Reading::Positioned, "read by position, warm")] {
            // SAFETY: neither reading maps the file.
            let table = unsafe { Table::open_as(path, None, reading) }.unwrap();
            table.codes().unwrap();
            let entries = table.entries();
            c.bench_function(&format!("table probe, random rank ({name}, {how})"), |b| {
                let mut x = 1u64;
                b.iter(|| table.code(black_box(next(&mut x) % entries)))
            });
        }
    }
}

criterion_group!(benches, bench);
criterion_main!(benches);
