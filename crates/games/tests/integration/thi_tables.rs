//! THI` table files: interrupted builds resume to identical files, a directory has one
//! writer at a time, and the small tables match their golden checksums.

use games::thi::{Bonus, RuleSet, Rules, Setup, Thi};
use retro::solve::Silent;
use retro::store::{build, lock_directory, tier_file, BuildError, BuildOptions};
use retro::table::Table;
use retro::Game;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

fn game(board: &str, set: RuleSet, bonus: bool) -> (Thi, <Thi as Game>::Tier) {
    let setup = Setup::named(board).unwrap();
    let bonus = if bonus { Bonus::Own } else { Bonus::No };
    let game = Thi::for_setup(setup, Rules { set, bonus }).unwrap();
    let root = game.locate(&setup.start()).tier;
    (game, root)
}

/// A directory holding the tables of `root` and below, built in one run.
fn built(game: &Thi, root: <Thi as Game>::Tier) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    build(game, dir.path(), &[root], &Silent, &BuildOptions::default()).unwrap();
    dir
}

/// Each tier's entries, and the checksums of its file's body and of its values, by tier
/// name.
fn checksums(game: &Thi, dir: &Path) -> Vec<(String, u64, u64, u64)> {
    game.all_tiers()
        .into_iter()
        .map(|t| {
            let table = Table::open(&tier_file(dir, t), None).unwrap();
            (t.to_string(), table.entries(), table.header().body_checksum, table.codes_checksum().unwrap())
        })
        .collect()
}

#[test]
fn an_interrupted_build_resumes_to_identical_tables() {
    let (game, root) = game("duo", RuleSet::Original, false);
    let whole = built(&game, root);

    let resumed = tempfile::tempdir().unwrap();
    for stop in [3, 11] {
        let stopped = build(
            &game,
            resumed.path(),
            &[root],
            &Silent,
            &BuildOptions { stop_after: Some(stop), ..BuildOptions::default() },
        );
        assert!(matches!(stopped, Err(BuildError::Stopped(_))));
    }
    let finished = std::fs::read_dir(resumed.path())
        .unwrap()
        .filter(|e| e.as_ref().unwrap().file_name().to_string_lossy().ends_with(".tbl"));
    assert_eq!(finished.count(), 14, "two interrupted runs of 3 and 11 new tiers");
    // A temporary file from a build killed mid-write is cleared away, not mistaken for a table.
    std::fs::write(resumed.path().join(".tier-6-6.tbl.4242.tmp"), b"half a table").unwrap();
    let (_, report) = build(&game, resumed.path(), &[root], &Silent, &BuildOptions::default()).unwrap();
    assert_eq!((report.tiers_reused, report.tiers_built), (14, 14));
    assert!(!resumed.path().join(".tier-6-6.tbl.4242.tmp").exists());
    assert_eq!(checksums(&game, resumed.path()), checksums(&game, whole.path()));
    // With every table there, a run that builds nothing still clears what a killed build
    // left, and reuses every tier.
    std::fs::write(resumed.path().join(".tier-6-6.slots.tmp"), b"a spill file").unwrap();
    let (_, report) = build(&game, resumed.path(), &[root], &Silent, &BuildOptions::default()).unwrap();
    assert_eq!((report.tiers_reused, report.tiers_built), (28, 0));
    assert!(!resumed.path().join(".tier-6-6.slots.tmp").exists());
}

#[test]
fn one_build_at_a_time_per_directory() {
    let (game, root) = game("primus", RuleSet::Original, false);
    let dir = tempfile::tempdir().unwrap();
    let held = lock_directory(dir.path()).unwrap();
    let second = build(&game, dir.path(), &[root], &Silent, &BuildOptions::default());
    assert!(matches!(second, Err(BuildError::Busy(_))));
    drop(held);
    build(&game, dir.path(), &[root], &Silent, &BuildOptions::default()).unwrap();
}

/// A tier solved from a scratch file, in one part or several, comes out as it does in
/// memory: the parts split the pushes, not the values. Under `fixed1` with bonus moves
/// nearly every position is pushed, some to parents that keep the turn.
#[test]
fn tiers_solved_in_parts_equal_tiers_solved_whole() {
    for (board, set, bonus) in [("duo", RuleSet::Original, false), ("duo", RuleSet::Fixed1, true)] {
        let (game, root) = game(board, set, bonus);
        let whole = built(&game, root);
        for parts in [1, 3, 7] {
            let split = tempfile::tempdir().unwrap();
            let options = BuildOptions { parts: Some(parts), ..BuildOptions::default() };
            build(&game, split.path(), &[root], &Silent, &options).unwrap();
            assert_eq!(checksums(&game, split.path()), checksums(&game, whole.path()), "{board} {set:?} {parts} parts");
            let left: Vec<_> = std::fs::read_dir(split.path())
                .unwrap()
                .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
                .filter(|name| name.ends_with(".tmp"))
                .collect();
            assert!(left.is_empty(), "scratch files left behind: {left:?}");
        }
    }
}

fn golden_path() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../data/golden/thi-tables.tsv")
}

/// The golden file: `rules  bonus  tier  entries  codes-xxh3`, PRIMUS tiers under every
/// rule combination and DUO's under `original`. Regenerate with `UPDATE_GOLDEN=1`
/// only after a deliberate change of the index or the format, and say so in the commit.
#[test]
fn small_tables_match_their_golden_checksums() {
    let mut text = String::from("# THI` 3x3 tables: checksums of the value codes (XXH3-64 of each code as two little-endian bytes, in rank order). Regenerate: UPDATE_GOLDEN=1 cargo test -p mancala-games --test thi_tables\nrules\tbonus\ttier\tentries\tcodes_xxh3\n");
    let mut cases: Vec<(&str, RuleSet, bool)> =
        RuleSet::ALL.into_iter().flat_map(|s| [("primus", s, false), ("primus", s, true)]).collect();
    cases.push(("duo", RuleSet::Original, false));
    for (board, set, bonus) in cases {
        let (game, root) = game(board, set, bonus);
        let dir = tempfile::tempdir().unwrap();
        build(&game, dir.path(), &[root], &Silent, &BuildOptions::default()).unwrap();
        for (tier, entries, _, sum) in checksums(&game, dir.path()) {
            let bonus = if bonus { "yes" } else { "no" };
            writeln!(text, "{}\t{bonus}\t{tier}\t{entries}\t{sum:016x}", set.name()).unwrap();
        }
    }
    let path = golden_path();
    if std::env::var_os("UPDATE_GOLDEN").is_some() {
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, &text).unwrap();
    }
    let golden = std::fs::read_to_string(&path).expect("data/golden/thi-tables.tsv");
    assert!(golden == text, "tables differ from {}; diff the file against a fresh UPDATE_GOLDEN=1 run", path.display());
}

/// The census counts a rank as a board and its mirror image together, which is exact only
/// from a start that is its own image: another start is refused, not miscounted.
#[test]
fn the_census_refuses_a_start_that_is_not_its_own_mirror_image() {
    let (game, root) = game("primus", RuleSet::Original, false);
    let dir = tempfile::tempdir().unwrap();
    let (tables, _) = build(&game, dir.path(), &[root], &Silent, &BuildOptions::default()).unwrap();
    let start = Setup::named("primus").unwrap().start();
    assert_eq!(game.images(&start), 1);
    assert!(retro::census::reachable_census(&game, &tables, &start, &|_| {}).is_ok());
    let lopsided = games::thi::notation::parse("b,b,b/w,-,-/-,w,w b").unwrap();
    assert_eq!(game.images(&lopsided), 2);
    let refused = retro::census::reachable_census(&game, &tables, &lopsided, &|_| {});
    assert!(matches!(refused, Err(retro::store::ProbeError::AsymmetricStart(_))), "{refused:?}");
}

/// A tier's table does not depend on the most counters the index holds: one directory
/// serves every setup of its board, and a position whose setup is too large to number is
/// answered from an index up to its own counters. PRIMUS's tiers built alone equal DUO's,
/// and 4×4 tiers up to two counters a side equal those of the index up to four.
#[test]
fn a_tier_is_the_same_whatever_the_index_holds_above_it() {
    let rules = Rules { set: RuleSet::Fixed1, bonus: Bonus::Own };
    for (size, small, large) in [(3, 3, 6), (4, 2, 4)] {
        let (small, large) = (Thi::new(size, small, rules).unwrap(), Thi::new(size, large, rules).unwrap());
        let tiers = small.all_tiers();
        let (small_dir, large_dir) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
        build(&small, small_dir.path(), &tiers, &Silent, &BuildOptions::default()).unwrap();
        build(&large, large_dir.path(), &tiers, &Silent, &BuildOptions::default()).unwrap();
        for tier in tiers {
            let [a, b] = [&small_dir, &large_dir].map(|d| std::fs::read(tier_file(d.path(), tier)).unwrap());
            assert!(a == b, "{size}×{size} tier {tier} differs");
        }
    }
}

/// A build killed while storing its tables compact leaves them plain and listed; the
/// next runs, with nothing to solve, finish the step for the tables they need, and the
/// list goes once it is empty.
#[test]
fn a_compaction_cut_short_is_finished_by_the_next_run() {
    let (game, root) = game("duo", RuleSet::Original, false);
    let whole = built(&game, root);
    let cut = tempfile::tempdir().unwrap();
    let options = BuildOptions { stop_after: Some(game.all_tiers().len()), ..BuildOptions::default() };
    let stopped = build(&game, cut.path(), &[root], &Silent, &options);
    assert!(matches!(stopped, Err(BuildError::Stopped(28))), "{:?}", stopped.err());
    assert_eq!(retro::store::pending_compaction(cut.path()).len(), 28);
    // Names of no table there are no tables to finish.
    let list = cut.path().join(retro::store::COMPACTION_PENDING);
    let text = std::fs::read_to_string(&list).unwrap();
    std::fs::write(&list, format!("garbage\n9-9\n\n  \n{text}")).unwrap();
    assert_eq!(retro::store::pending_compaction(cut.path()).len(), 28);
    let blocked = |dir: &Path| {
        game.all_tiers().into_iter().filter(|&t| Table::open(&tier_file(dir, t), None).unwrap().is_blocked()).count()
    };
    assert_eq!(blocked(cut.path()), 0);
    assert!(blocked(whole.path()) > 0, "some DUO tables pay to store compact");
    // A run that needs only some of the tables (PRIMUS's) finishes those and leaves the
    // others listed.
    let (primus, primus_root) = self::game("primus", RuleSet::Original, false);
    let (_, report) = build(&primus, cut.path(), &[primus_root], &Silent, &BuildOptions::default()).unwrap();
    assert_eq!((report.tiers_reused, report.tiers_built), (10, 0));
    let left = retro::store::pending_compaction(cut.path());
    assert_eq!(left.len(), 18);
    assert!(primus.all_tiers().iter().all(|t| !left.contains(&t.to_string())), "{left:?}");
    let (_, report) = build(&game, cut.path(), &[root], &Silent, &BuildOptions::default()).unwrap();
    assert_eq!((report.tiers_reused, report.tiers_built), (28, 0));
    assert!(retro::store::pending_compaction(cut.path()).is_empty());
    assert_eq!(blocked(cut.path()), blocked(whole.path()));
    assert_eq!(checksums(&game, cut.path()), checksums(&game, whole.path()));
}
