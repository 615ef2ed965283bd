//! What the table errors say: the failure once, and removal only for a damaged file.

use retro::store::BuildError;
use retro::table::TableError;
use std::error::Error;
use std::path::PathBuf;

/// The message as `{:#}` of `anyhow` prints it: each error of the chain in turn.
fn chain(error: &dyn Error) -> String {
    let mut text = error.to_string();
    let mut source = error.source();
    while let Some(e) = source {
        text.push_str(&format!(": {e}"));
        source = e.source();
    }
    text
}

#[test]
fn a_failed_write_says_so_once_and_suggests_no_removal() {
    let full = std::io::Error::from_raw_os_error(28);
    let os = full.to_string();
    let error = BuildError::from(TableError::Write { path: PathBuf::from("t/tier-6-5.tbl"), error: full });
    let text = chain(&error);
    assert_eq!(text.matches(&os).count(), 1, "{text}");
    assert!(text.contains("cannot write") && !text.contains("remove the file"), "{text}");
}

#[test]
fn a_damaged_file_may_be_removed() {
    let error = BuildError::from(TableError::BodyChecksum { path: PathBuf::from("t/tier-6-5.tbl") });
    let text = chain(&error);
    assert!(text.contains("remove the file") && text.matches("checksum").count() == 1, "{text}");
}

/// What a build says of the table at `path`, whose key is `found` where `expected` was asked.
fn key_mismatch(path: &str, found: &str, expected: &str) -> String {
    chain(&BuildError::from(TableError::Mismatch {
        path: PathBuf::from(path),
        field: "game and rules",
        found: found.into(),
        expected: expected.into(),
    }))
}

#[test]
fn tables_of_another_game_key_name_their_directory() {
    let text = key_mismatch(
        "data/thi/3x3-original/tier-6-5.tbl",
        "thi size=3 rules=original bonus=no",
        "thi size=3 rules=original bonus=no mirror=folded",
    );
    assert!(text.contains("remove the directory data/thi/3x3-original"), "{text}");
    // Another game's table is no older version of these: moving it out is enough.
    let text =
        key_mismatch("data/trias/3x3/tier-2.tbl", "njaka holes=4 variant=standard direction=ccw", "trias holes=3");
    assert!(text.contains("a table of another game was put here") && !text.contains("remove the directory"), "{text}");
}

/// Records what a build says of tables it could not store compact, and makes the rewrite
/// of tier 0 fail once the tier is written: a directory where the rewrite's temporary
/// file goes, as a full disk would fail it.
struct BlockedCompaction {
    dir: PathBuf,
    said: std::sync::Mutex<Vec<String>>,
}

impl retro::solve::Observer for BlockedCompaction {
    fn tier_finished(&self, _tier: &str) {
        let temp = self.dir.join(format!(".tier-0.tbl.{}.tmp", std::process::id()));
        std::fs::create_dir_all(temp).unwrap();
    }
    fn not_compacted(&self, why: &str) {
        self.said.lock().unwrap().push(why.to_owned());
    }
}

/// Compacting only saves room: a table that cannot be rewritten stays plain, the build
/// goes on and says why.
#[test]
fn a_table_that_cannot_be_stored_compact_stays_plain() {
    use retro::store::{build_tiers, BuildOptions, TierFile};
    use retro::table::{TableIdentity, ValueEncoding};
    let dir = tempfile::tempdir().unwrap();
    let identity = TableIdentity { key: "zeros".into(), tier: "0".into(), encoding: ValueEncoding::Score };
    let file = |_| TierFile { identity: identity.clone(), entries: 1 << 16, reading: retro::table::Reading::Mapped };
    let observer = BlockedCompaction { dir: dir.path().to_owned(), said: Default::default() };
    let solve = |_, _: &_, _: &retro::checkpoint::Checkpoints<'_>| Ok(retro::solve::Codes::Memory(vec![0; 1 << 16]));
    let (tables, report) =
        build_tiers(dir.path(), vec![0], file, solve, &observer, &BuildOptions::default()).expect("the build goes on");
    assert_eq!(report.tiers_built, 1);
    assert!(!tables[&0].is_blocked(), "stored compact after all");
    assert!(tables[&0].codes().unwrap().iter().all(|&c| c == 0));
    let said = observer.said.lock().unwrap();
    assert!(said.len() == 1 && said[0].contains("tier-0.tbl: cannot write the table"), "{said:?}");
    // The step is marked unfinished, and the next run, with nothing to solve, finishes it
    // once the way is clear.
    assert_eq!(retro::store::pending_compaction(dir.path()), ["0".to_owned()].into());
    drop(tables);
    std::fs::remove_dir(dir.path().join(format!(".tier-0.tbl.{}.tmp", std::process::id()))).unwrap();
    let silent = &retro::solve::Silent;
    let (tables, report) = build_tiers(dir.path(), vec![0], file, solve, silent, &BuildOptions::default()).unwrap();
    assert_eq!((report.tiers_built, report.tiers_reused), (0, 1));
    assert!(tables[&0].is_blocked());
    assert!(retro::store::pending_compaction(dir.path()).is_empty());
}
