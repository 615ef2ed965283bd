//! Table files: what is written reads back, and every damage is refused with an error.

use proptest::prelude::*;
use retro::table::{
    compact_table, write_table, Layout, Reading, Saving, Table, TableError, TableIdentity, ValueEncoding,
};
use retro::Value;
use std::fs;

fn identity() -> TableIdentity {
    TableIdentity {
        key: "test size=3 rules=original bonus=no".into(),
        tier: "2-1".into(),
        encoding: ValueEncoding::OutcomeDistance,
    }
}

fn codes() -> Vec<u16> {
    (0..1000u16).map(|i| [Value::Draw, Value::Win(i % 37), Value::Loss(i % 11)][(i % 3) as usize].code()).collect()
}

fn written() -> (tempfile::TempDir, std::path::PathBuf) {
    written_with(&codes())
}

/// Mostly draws, a few wins and losses in clusters and alone: a table the writer stores in
/// blocks (format version 2), as it does THI`'s.
fn mostly_drawn() -> Vec<u16> {
    (0..20_000u32)
        .map(|i| match i {
            _ if i % 401 == 7 => Value::Win(i as u16 % 9).code(),
            9000..=9040 => Value::Loss(3).code(),
            _ => Value::Draw.code(),
        })
        .collect()
}

fn written_with(codes: &[u16]) -> (tempfile::TempDir, std::path::PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("tier-2-1.tbl");
    write_table(&path, &identity(), codes, Layout::Compact).unwrap();
    (dir, path)
}

/// The table at `path` through every opener: in memory, held, mapped and by position.
fn every_opening(path: &std::path::Path) -> Vec<Table> {
    [Reading::Positioned, Reading::Held, Reading::Mapped]
        .into_iter()
        // SAFETY: the file is private to this test and not modified while mapped.
        .map(|reading| unsafe { Table::open_as(path, Some(&identity()), reading) }.unwrap())
        .chain([Table::open(path, Some(&identity())).unwrap()])
        .collect()
}

#[test]
fn values_read_back_through_every_opener() {
    let (_dir, path) = written();
    for table in every_opening(&path) {
        assert_eq!(table.codes().unwrap(), codes());
        assert_eq!(table.code(1).unwrap().map(Value::from_code), Some(Value::Win(1)));
        assert_eq!(table.code(1000).unwrap(), None);
        assert_eq!(table.header().max_distance, 36);
    }
    // No temporary file is left behind.
    assert_eq!(fs::read_dir(path.parent().unwrap()).unwrap().count(), 1);
}

/// A body written in several pieces (more than a million entries, at a width that does
/// not fill whole bytes: 7 bits) reads back whole, its checksum that of the whole body.
#[test]
fn a_body_written_in_pieces_reads_back() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("tier-2-1.tbl");
    let codes: Vec<u16> = (0..(1u32 << 21) + 13).map(|i| (i.wrapping_mul(2_654_435_761) >> 25) as u16).collect();
    let header = write_table(&path, &identity(), &codes, Layout::Plain).unwrap();
    assert_eq!(header.bits, 7);
    let table = Table::open(&path, Some(&identity())).unwrap();
    assert_eq!(table.codes().unwrap(), codes);
    let bytes = fs::read(&path).unwrap();
    let body = &bytes[header.body_offset as usize..];
    assert_eq!(body.len() as u64, header.body_len);
    assert_eq!(xxhash_rust::xxh3::xxh3_64(body), header.body_checksum);
}

#[test]
fn a_mostly_drawn_table_is_stored_in_blocks_and_reads_back() {
    let codes = mostly_drawn();
    let (_dir, path) = written_with(&codes);
    let owned = Table::open(&path, Some(&identity())).unwrap();
    for table in &every_opening(&path) {
        assert!(table.is_blocked());
        assert_eq!(table.header().version, 2);
        assert_eq!(table.codes().unwrap(), codes);
        assert!(codes.iter().enumerate().all(|(rank, &c)| table.code(rank as u64).unwrap() == Some(c)));
        assert_eq!(table.code(codes.len() as u64).unwrap(), None);
    }
    let plain_bytes = (codes.len() as u64 * owned.header().bits as u64).div_ceil(8);
    assert!(owned.header().body_len * 2 <= plain_bytes, "{} bytes in blocks", owned.header().body_len);
    // The same values stored plain (the writer's other choice) check the same.
    let (_other, plain_path) = written();
    assert!(!Table::open(&plain_path, None).unwrap().is_blocked());
}

/// A blocked body with a valid checksum but a malformed block (a file this program did not
/// write) is refused when opened, not when probed.
#[test]
fn a_malformed_block_is_refused_on_opening() {
    let (_dir, path) = written_with(&mostly_drawn());
    let mut bytes = fs::read(&path).unwrap();
    let header = Table::open(&path, None).unwrap().header().clone();
    let body = header.body_offset as usize;
    let blocks = 8 * (header.entries.div_ceil(4096) as usize + 1);
    bytes[body + blocks] = 9;
    // Re-seal the body and header checksums, as a hostile writer would.
    let sum = xxhash_rust::xxh3::xxh3_64(&bytes[body..]);
    bytes[40..48].copy_from_slice(&sum.to_le_bytes());
    let descriptor = u32::from_le_bytes(bytes[12..16].try_into().unwrap()) as usize;
    let mut sealed = bytes[..56].to_vec();
    sealed.extend_from_slice(&bytes[64..64 + descriptor]);
    let sum = xxhash_rust::xxh3::xxh3_64(&sealed);
    bytes[56..64].copy_from_slice(&sum.to_le_bytes());
    fs::write(&path, &bytes).unwrap();
    let err = Table::open(&path, None).err().unwrap();
    assert!(matches!(err, TableError::BadBody { .. }), "{err}");
    assert!(err.to_string().contains("block 0: unknown form 9"), "{err}");
}

/// A table in blocks written before blocks could be entropy-coded (its one block a
/// palette, as an older version wrote it) is re-coded by `compact_table` when that saves
/// bytes, every value kept; a table already in its smallest blocks is left as it is.
#[test]
fn a_table_in_older_blocks_is_re_coded_when_that_saves_bytes() {
    // Seven in eight ranks one code, the rest three others: a prefix code beats a palette.
    let palette = [0u16, 1, 3, 5];
    let codes: Vec<u16> =
        (0..4096u32).map(|i| palette[[1, 2, 3, 1, 0, 0, 0, 0][i as usize % 8] * (i % 3 != 0) as usize]).collect();
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("tier-2-1.tbl");
    let header = write_table(&path, &identity(), &codes, Layout::Plain).unwrap();
    // The body in blocks, in the palette form: the index (where the block starts, where
    // all blocks end), then form 1, width 2, the palette and the packed indices.
    let indices = codes.iter().map(|c| palette.iter().position(|p| p == c).unwrap() as u32);
    let mut block = vec![1u8, 2];
    block.extend(palette.iter().flat_map(|p| p.to_le_bytes()));
    block.extend(encoding::pack(indices, 2));
    let mut body = 0u64.to_le_bytes().to_vec();
    body.extend((block.len() as u64).to_le_bytes());
    body.extend(&block);
    let mut bytes = fs::read(&path).unwrap()[..header.body_offset as usize].to_vec();
    bytes[8..10].copy_from_slice(&2u16.to_le_bytes());
    bytes[32..40].copy_from_slice(&(body.len() as u64).to_le_bytes());
    bytes[40..48].copy_from_slice(&xxhash_rust::xxh3::xxh3_64(&body).to_le_bytes());
    let descriptor = u32::from_le_bytes(bytes[12..16].try_into().unwrap()) as usize;
    let mut sealed = bytes[..56].to_vec();
    sealed.extend_from_slice(&bytes[64..64 + descriptor]);
    bytes[56..64].copy_from_slice(&xxhash_rust::xxh3::xxh3_64(&sealed).to_le_bytes());
    bytes.extend(&body);
    fs::write(&path, &bytes).unwrap();

    let older = Table::open(&path, Some(&identity())).unwrap();
    assert!(older.is_blocked());
    assert_eq!(older.codes().unwrap(), codes);
    let saving = Saving::percent(1).unwrap();
    let recoded = compact_table(&older, saving).unwrap().expect("the coded form is smaller than the palette");
    assert!(recoded.body_len < body.len() as u64, "{} bytes against {}", recoded.body_len, body.len());
    drop(older);
    let table = Table::open(&path, Some(&identity())).unwrap();
    assert_eq!(table.codes().unwrap(), codes);
    assert!(compact_table(&table, saving).unwrap().is_none(), "rewritten although nothing is smaller");
}

#[test]
fn another_game_or_tier_is_refused() {
    let (_dir, path) = written();
    let other = TableIdentity { key: "test size=3 rules=fixed1 bonus=no".into(), ..identity() };
    let err = Table::open(&path, Some(&other)).err().unwrap();
    assert!(matches!(err, TableError::Mismatch { field: "game and rules", .. }), "{err}");
    assert!(err.to_string().contains("tier-2-1.tbl"), "{err}");
    let other = TableIdentity { tier: "3-1".into(), ..identity() };
    assert!(matches!(Table::open(&path, Some(&other)), Err(TableError::Mismatch { field: "tier", .. })));
    let other = TableIdentity { encoding: ValueEncoding::Score, ..identity() };
    assert!(matches!(Table::open(&path, Some(&other)), Err(TableError::Mismatch { field: "value encoding", .. })));
}

#[test]
fn truncation_and_foreign_files_are_refused() {
    let (_dir, path) = written();
    let bytes = fs::read(&path).unwrap();
    for len in [0, 7, 8, 63, 64, 100, bytes.len() - 1] {
        fs::write(&path, &bytes[..len]).unwrap();
        assert!(Table::open(&path, None).is_err(), "accepted a file cut to {len} bytes");
        assert!(Table::open_positioned(&path, None).is_err(), "read by position: accepted a file cut to {len} bytes");
    }
    fs::write(&path, b"").unwrap();
    let empty = Table::open(&path, None).err().expect("an empty file is no table");
    assert!(matches!(empty, TableError::Empty { .. }) && empty.to_string().contains("an empty file"), "{empty}");
    fs::write(&path, b"#!/bin/sh\necho this is not a table\n").unwrap();
    assert!(matches!(Table::open(&path, None), Err(TableError::BadMagic { .. })));
    let mut longer = bytes.clone();
    longer.push(0);
    fs::write(&path, &longer).unwrap();
    assert!(matches!(Table::open(&path, None), Err(TableError::WrongLength { .. })));
}

#[test]
fn another_format_version_is_refused() {
    let (_dir, path) = written();
    let mut bytes = fs::read(&path).unwrap();
    bytes[8] = 3;
    fs::write(&path, &bytes).unwrap();
    assert!(matches!(Table::open(&path, None), Err(TableError::UnsupportedVersion { found: 3, .. })));
}

#[test]
fn a_missing_file_names_itself() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("nothing-here.tbl");
    let err = Table::open(&path, None).err().unwrap();
    assert!(err.to_string().contains("nothing-here.tbl"), "{err}");
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]
    /// Any single flipped bit anywhere in the file is caught when the table is opened.
    #[test]
    fn every_flipped_bit_is_refused(offset in any::<prop::sample::Index>(), bit in 0u8..8) {
        let (_dir, path) = written();
        let mut bytes = fs::read(&path).unwrap();
        let i = offset.index(bytes.len());
        bytes[i] ^= 1 << bit;
        fs::write(&path, &bytes).unwrap();
        prop_assert!(Table::open(&path, Some(&identity())).is_err(), "flip at byte {} bit {} accepted", i, bit);
        prop_assert!(Table::open_positioned(&path, Some(&identity())).is_err(), "read by position: flip at byte {} bit {} accepted", i, bit);
    }

    /// The same for a table stored in blocks.
    #[test]
    fn every_flipped_bit_of_a_blocked_table_is_refused(offset in any::<prop::sample::Index>(), bit in 0u8..8) {
        let (_dir, path) = written_with(&mostly_drawn());
        let mut bytes = fs::read(&path).unwrap();
        let i = offset.index(bytes.len());
        bytes[i] ^= 1 << bit;
        fs::write(&path, &bytes).unwrap();
        prop_assert!(Table::open(&path, Some(&identity())).is_err(), "flip at byte {} bit {} accepted", i, bit);
        prop_assert!(Table::open_positioned(&path, Some(&identity())).is_err(), "read by position: flip at byte {} bit {} accepted", i, bit);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]
    /// The header parser never panics, whatever the bytes: short, long, or a real header
    /// with random bytes written over part of it.
    #[test]
    fn header_parser_never_panics(noise in proptest::collection::vec(any::<u8>(), 0..400), at in 0usize..200) {
        let path = std::path::Path::new("fuzz.tbl");
        let _ = retro::table::Header::decode(path, &noise, noise.len() as u64);
        let (_dir, real) = written();
        let mut bytes = fs::read(&real).unwrap();
        for (i, b) in noise.iter().enumerate() {
            if let Some(slot) = bytes.get_mut(at + i) {
                *slot = *b;
            }
        }
        let _ = retro::table::Header::decode(path, &bytes, bytes.len() as u64);
    }
}

/// Codes of many chunks of a table read by position: 2^20 ranks at 7 bits, about 900 KiB
/// (56 chunks) packed plain.
fn many_chunks() -> Vec<u16> {
    (0..1u32 << 20).map(|i| (i.wrapping_mul(2_654_435_761) >> 25) as u16).collect()
}

/// Codes that blocks store in about a quarter of the plain bytes, still several chunks:
/// 2^20 ranks, one in 7 not a draw.
fn sparse_many_chunks() -> Vec<u16> {
    (0..1u32 << 20).map(|i| if i % 7 == 0 { (i.wrapping_mul(2_654_435_761) >> 25) as u16 } else { 0 }).collect()
}

/// Overwrites `len` bytes of `path` at `at` with their complement, in place (the file's
/// length and inode kept), as an operator copying another table over it would.
fn overwrite_in_place(path: &std::path::Path, at: u64, len: usize) {
    use std::io::{Read, Seek, SeekFrom, Write};
    let mut file = fs::OpenOptions::new().read(true).write(true).open(path).unwrap();
    let mut bytes = vec![0u8; len];
    file.seek(SeekFrom::Start(at)).unwrap();
    file.read_exact(&mut bytes).unwrap();
    bytes.iter_mut().for_each(|b| *b = !*b);
    file.seek(SeekFrom::Start(at)).unwrap();
    file.write_all(&bytes).unwrap();
    file.sync_all().unwrap();
}

#[test]
fn a_table_read_by_position_gives_no_value_from_bytes_changed_since_it_was_opened() {
    for (layout, codes) in [(Layout::Plain, many_chunks()), (Layout::Compact, sparse_many_chunks())] {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("tier-2-1.tbl");
        let header = write_table(&path, &identity(), &codes, layout).unwrap();
        let table = Table::open_positioned(&path, Some(&identity())).unwrap();
        assert_eq!(table.is_blocked(), layout == Layout::Compact);
        assert!(header.body_len > 4 * 16384, "{layout:?}: {} bytes, too few chunks", header.body_len);
        let read_whole = Table::open_positioned(&path, Some(&identity())).unwrap();
        assert_eq!(read_whole.codes().unwrap(), codes, "{layout:?}");
        assert_eq!(table.code(0).unwrap(), Some(codes[0]), "{layout:?}");
        // The second half of the body rewritten: what was read before still answers (it
        // was checked), what was not is refused, naming the file.
        let half = header.body_offset + header.body_len / 2;
        overwrite_in_place(&path, half, (header.body_len / 2) as usize);
        assert_eq!(table.code(0).unwrap(), Some(codes[0]), "{layout:?}");
        let last = codes.len() as u64 - 1;
        let err = table.code(last).expect_err("a value from a changed file");
        assert!(matches!(*err, TableError::Changed { .. }), "{layout:?}: {err}");
        assert!(
            err.to_string().contains("tier-2-1.tbl") && err.to_string().contains("changed since it was opened"),
            "{err}"
        );
        assert!(table.codes().is_err(), "{layout:?}: every code read from a changed file");
        // A table whose every chunk was read and checked before the change answers
        // from those checked bytes: the values it was opened with.
        assert_eq!(read_whole.code(last).unwrap(), Some(codes[last as usize]), "{layout:?}");
        assert!(Table::open_positioned(&path, None).is_err(), "{layout:?}: a changed file opened again");
    }
}

#[test]
fn a_table_read_by_position_that_is_truncated_under_it_is_an_error_not_a_crash() {
    let codes = many_chunks();
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("tier-2-1.tbl");
    let header = write_table(&path, &identity(), &codes, Layout::Plain).unwrap();
    let table = Table::open_positioned(&path, Some(&identity())).unwrap();
    let first = table.code(0).unwrap();
    fs::OpenOptions::new().write(true).open(&path).unwrap().set_len(header.body_offset + 100).unwrap();
    assert_eq!(table.code(0).unwrap(), first, "a checked chunk still answers");
    let err = table.code(codes.len() as u64 - 1).expect_err("a value past the file's end");
    assert!(err.to_string().contains("shorter than the"), "{err}");
}
