//! Table directories and files a user or a hostile tester hands `solve`: read-only tables,
//! files of the wrong size, FIFOs and directories where files belong, an edited census.

use crate::common::{json, solve, stderr};
use retro::table::{write_table, Layout, Table, TableIdentity};
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

/// A table named by its bare file name, from inside its directory, is reported in `.`.
#[test]
fn a_bare_file_name_is_reported_in_the_working_directory() {
    let out = tempfile::tempdir().unwrap();
    let dir = primus(out.path());
    let verified = Command::new(env!("CARGO_BIN_EXE_solve"))
        .args(["verify-table", "tier-2-2.tbl"])
        .current_dir(&dir)
        .output()
        .unwrap();
    assert!(verified.status.success(), "{}", stderr(&verified));
    assert!(
        String::from_utf8_lossy(&verified.stdout).starts_with(".: verified"),
        "{}",
        String::from_utf8_lossy(&verified.stdout)
    );
}

/// Builds PRIMUS (original rules) under `out`; returns its table directory.
fn primus(out: &Path) -> PathBuf {
    json(&solve(out, &["thi", "--board", "primus", "--json"]));
    out.join("thi").join("3x3-original")
}

/// Runs `solve ARGS`, killed after 60 s so that a blocked open fails the test instead of
/// hanging it.
fn solve_in_time(args: &[&str]) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_solve"))
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run solve");
    let started = Instant::now();
    while child.try_wait().unwrap().is_none() {
        if started.elapsed() > Duration::from_secs(60) {
            child.kill().unwrap();
            panic!("solve {args:?} blocked");
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    child.wait_with_output().unwrap()
}

fn listing(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> =
        std::fs::read_dir(dir).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).collect();
    names.sort();
    names
}

#[cfg(unix)]
fn set_mode(path: &Path, mode: u32) {
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode)).unwrap();
}

#[cfg(unix)]
#[test]
fn finished_tables_are_queried_without_writing() {
    let out = tempfile::tempdir().unwrap();
    let dir = primus(out.path());
    std::fs::remove_file(dir.join(".lock")).unwrap();
    let before = listing(&dir);
    let files: Vec<PathBuf> = std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().path()).collect();
    for file in &files {
        set_mode(file, 0o444);
    }
    set_mode(&dir, 0o555);
    let start = solve(out.path(), &["thi", "--board", "primus", "--json"]);
    let position = solve(out.path(), &["thi", "--board", "primus", "--position", "-,b,b/b,-,-/w,w,w w", "--json"]);
    let after = listing(&dir);
    set_mode(&dir, 0o755);
    // Tests may run as root, where the modes stop no write: the listing shows any.
    assert_eq!(after, before, "a query wrote in the table directory");
    assert_eq!(json(&start)["tables"]["tiers_built"], 0);
    json(&position);
}

/// Rewrites `file` with `extra` more entries (or `-extra` fewer), checksums valid.
fn resize(file: &Path, extra: i64) {
    let table = Table::open(file, None).unwrap();
    let mut codes = table.codes().unwrap();
    let identity = table.header().identity.clone();
    drop(table);
    codes.resize((codes.len() as i64 + extra) as usize, 0);
    write_table(file, &identity, &codes, Layout::Compact).unwrap();
}

#[test]
fn a_table_of_the_wrong_size_is_refused_on_open() {
    for extra in [1000, -10] {
        let out = tempfile::tempdir().unwrap();
        let dir = primus(out.path());
        let file = dir.join("tier-3-3.tbl");
        resize(&file, extra);
        for args in
            [vec!["thi", "--board", "primus"], vec!["thi", "--board", "primus", "--position", "-,b,b/b,-,-/w,w,w w"]]
        {
            let output = solve(out.path(), &args);
            assert!(!output.status.success(), "{args:?} accepted a table with {extra} entries too many");
            let err = stderr(&output);
            assert!(err.contains("tier-3-3.tbl") && err.contains("entries") && err.contains("tier 3-3"), "{err}");
            // Every tier is there: nothing was being built.
            assert!(err.contains("error: opening the tables in"), "{err}");
        }
        let output = solve_in_time(&["verify-table", dir.to_str().unwrap()]);
        assert!(!output.status.success(), "verify-table accepted a table with {extra} entries too many");
        assert!(stderr(&output).contains("entries"), "{}", stderr(&output));
    }
}

#[cfg(unix)]
fn mkfifo(path: &Path) {
    assert!(Command::new("mkfifo").arg(path).status().unwrap().success());
}

#[cfg(unix)]
#[test]
fn fifos_are_refused_not_waited_on() {
    let out = tempfile::tempdir().unwrap();
    let dir = out.path().join("thi").join("3x3-original");
    std::fs::create_dir_all(&dir).unwrap();
    mkfifo(&dir.join(".lock"));
    let out_dir = out.path().to_str().unwrap();
    let build = solve_in_time(&["thi", "--board", "primus", "--out", out_dir]);
    assert!(!build.status.success());
    assert!(stderr(&build).contains(".lock: the build's lock file is a FIFO"), "{}", stderr(&build));
    // With a reader at its other end the FIFO opens at once, and is refused all the same
    // (Linux opens a FIFO for reading and writing without waiting).
    let reader = std::fs::OpenOptions::new().read(true).write(true).open(dir.join(".lock")).unwrap();
    let build = solve_in_time(&["thi", "--board", "primus", "--out", out_dir]);
    assert!(stderr(&build).contains(".lock: the build's lock file is a FIFO"), "{}", stderr(&build));
    drop(reader);
    // Nor is a link followed out of the directory.
    std::fs::remove_file(dir.join(".lock")).unwrap();
    let elsewhere = out.path().join("elsewhere");
    std::os::unix::fs::symlink(&elsewhere, dir.join(".lock")).unwrap();
    let build = solve_in_time(&["thi", "--board", "primus", "--out", out_dir]);
    assert!(stderr(&build).contains(".lock: the build's lock file is a symbolic link"), "{}", stderr(&build));
    assert!(!elsewhere.exists());

    std::fs::remove_file(dir.join(".lock")).unwrap();
    mkfifo(&dir.join("tier-0-0.tbl"));
    let build = solve_in_time(&["thi", "--board", "primus", "--out", out_dir]);
    assert!(!build.status.success());
    assert!(stderr(&build).contains("tier-0-0.tbl: is a FIFO"), "{}", stderr(&build));

    let info = solve_in_time(&["info", dir.join("tier-0-0.tbl").to_str().unwrap()]);
    assert!(!info.status.success());
    assert!(stderr(&info).contains("tier-0-0.tbl: is a FIFO"), "{}", stderr(&info));
}

#[test]
fn a_directory_without_tables_is_named_as_such() {
    let out = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(out.path().join("thi/empty")).unwrap();
    for command in ["info", "verify-table"] {
        let run = solve_in_time(&[command, out.path().to_str().unwrap()]);
        assert!(!run.status.success(), "{command}");
        let err = stderr(&run);
        assert!(err.contains("no table files (tier-*.tbl) here or in the directories below"), "{command}: {err}");
    }
}

/// The directory given to `--out` holds a directory per game below it: `info` and
/// `verify-table` find every table directory there.
#[test]
fn the_out_root_is_checked_whole() {
    let out = tempfile::tempdir().unwrap();
    primus(out.path());
    let kalah = solve(out.path(), &["kalah", "--pits", "2", "--seeds", "2", "--table", "--json"]);
    assert!(kalah.status.success(), "{}", stderr(&kalah));
    let root = out.path().to_str().unwrap();

    let verify = solve_in_time(&["verify-table", root]);
    assert!(verify.status.success(), "{}", stderr(&verify));
    let text = String::from_utf8_lossy(&verify.stdout);
    assert!(text.contains("thi/3x3-original: verified 5,698 positions"), "{text}");
    assert!(text.contains("kalah/m2-empty-capture: verified"), "{text}");

    let info = solve_in_time(&["info", root]);
    assert!(info.status.success(), "{}", stderr(&info));
    let text = String::from_utf8_lossy(&info.stdout);
    assert!(text.contains("thi/3x3-original: `thi size=3 rules=original bonus=no mirror=folded`"), "{text}");
    assert!(text.lines().count() == 2, "one line per table directory: {text}");

    // A fault in one directory fails the whole check, naming the directory.
    let tier = out.path().join("thi/3x3-original/tier-0-0.tbl");
    std::fs::write(&tier, b"not a table").unwrap();
    let verify = solve_in_time(&["verify-table", root]);
    assert!(!verify.status.success());
    let err = stderr(&verify);
    assert!(err.contains("3x3-original") && err.contains("1 of 2 table directories failed"), "{err}");
}

#[test]
fn a_file_one_byte_too_long_is_not_called_truncated() {
    let out = tempfile::tempdir().unwrap();
    let file = primus(out.path()).join("tier-3-3.tbl");
    let mut bytes = std::fs::read(&file).unwrap();
    let expected = bytes.len();
    bytes.push(0);
    std::fs::write(&file, &bytes).unwrap();
    let info = solve_in_time(&["info", file.to_str().unwrap()]);
    assert!(!info.status.success());
    let err = stderr(&info);
    assert!(err.contains("too long") && err.contains(&format!("{} bytes", expected + 1)), "{err}");
    assert!(err.contains(&expected.to_string()) && !err.contains("truncated"), "{err}");
}

/// PRIMUS's report, its census counted (or read from the cache), and the cache's path.
fn primus_census(out: &Path) -> (serde_json::Value, PathBuf) {
    let report = json(&solve(out, &["thi", "--board", "primus", "--json"]));
    (report, out.join("thi").join("3x3-original").join("census-primus.txt"))
}

#[test]
fn an_edited_census_count_is_never_printed() {
    let out = tempfile::tempdir().unwrap();
    let (first, cache) = primus_census(out.path());
    let text = std::fs::read_to_string(&cache).unwrap();
    let win = first["reachable"]["win"].as_u64().unwrap();
    let loss = first["reachable"]["loss"].as_u64().unwrap();
    // Swap wins and losses: the sum still adds up, only the checksum tells.
    let edited = text
        .replace(&format!("win={win}\n"), "win=WIN\n")
        .replace(&format!("loss={loss}\n"), &format!("loss={win}\n"))
        .replace("win=WIN\n", &format!("win={loss}\n"));
    assert_ne!(edited, text);
    std::fs::write(&cache, edited).unwrap();
    let (second, _) = primus_census(out.path());
    assert_eq!(second["reachable"], first["reachable"]);
}

/// A count cached by a census that counted other positions (its version line older),
/// however well its checksum holds, is counted again.
#[test]
fn a_census_cached_under_another_version_is_counted_again() {
    let out = tempfile::tempdir().unwrap();
    let (first, cache) = primus_census(out.path());
    let text = std::fs::read_to_string(&cache).unwrap();
    let (body, _) = text.strip_suffix('\n').unwrap().rsplit_once('\n').unwrap();
    let positions = first["reachable"]["positions"].as_u64().unwrap();
    let win = first["reachable"]["win"].as_u64().unwrap();
    let old = body
        .lines()
        .filter(|l| !l.starts_with("census="))
        .map(|l| match l.split_once('=') {
            Some(("positions", _)) => format!("positions={}", positions + 1),
            Some(("win", _)) => format!("win={}", win + 1),
            _ => l.to_owned(),
        })
        .fold(String::new(), |text, l| text + &l + "\n");
    let checksum = xxhash_rust::xxh3::xxh3_64(old.as_bytes());
    std::fs::write(&cache, format!("{old}checksum={checksum:016x}\n")).unwrap();
    let (second, _) = primus_census(out.path());
    assert_eq!(second["reachable"], first["reachable"]);
}

/// A count that cannot be saved (here a directory holds the cache's name) is printed,
/// with a warning, and leaves no temporary file behind.
#[test]
fn a_census_that_cannot_be_saved_is_said_and_leaves_nothing() {
    let out = tempfile::tempdir().unwrap();
    let dir = primus(out.path());
    let cache = dir.join("census-primus.txt");
    std::fs::remove_file(&cache).unwrap();
    std::fs::create_dir(&cache).unwrap();
    let run = solve(out.path(), &["thi", "--board", "primus", "--json"]);
    assert!(stderr(&run).contains("could not be kept"), "{}", stderr(&run));
    assert!(json(&run)["reachable"]["positions"].as_u64().is_some_and(|n| n > 0));
    let left: Vec<_> =
        std::fs::read_dir(&dir).unwrap().flatten().filter(|e| e.path().to_string_lossy().ends_with(".tmp")).collect();
    assert!(left.is_empty(), "{left:?}");
}

#[test]
fn a_redirected_build_reports_each_tier() {
    let out = tempfile::tempdir().unwrap();
    let build = solve(out.path(), &["thi", "--board", "primus"]);
    assert!(build.status.success(), "{}", stderr(&build));
    let err = stderr(&build);
    assert!(err.lines().any(|l| l.starts_with("tier 3-3 solved: ") && l.contains(" positions in ")), "{err}");
}

/// Tables written plain (by an older version, or left by an interrupted build) are stored
/// compact by `solve compact`, their values unchanged; queries read them as before.
#[test]
fn compact_rewrites_plain_tables_in_blocks_with_the_same_values() {
    let out = tempfile::tempdir().unwrap();
    let dir = primus(out.path());
    let before = json(&solve(out.path(), &["thi", "--board", "primus", "--position", "-,b,b/b,-,-/w,w,w w", "--json"]));
    // The largest PRIMUS tier, with a few thousand draws more appended: blocks pay for it.
    let file = dir.join("tier-3-3.tbl");
    let table = Table::open(&file, None).unwrap();
    let (codes, identity) = (table.codes().unwrap(), table.header().identity.clone());
    drop(table);
    write_table(&file, &identity, &codes, Layout::Plain).unwrap();
    let (extra, drawn) = drawn_tier(&identity, &dir, "9-9");
    // As a build killed while compacting would have left them listed.
    std::fs::write(dir.join(".compaction-pending"), "3-3\n9-9\n").unwrap();

    let output = solve_in_time(&["compact", out.path().to_str().unwrap()]);
    assert!(output.status.success(), "{}", stderr(&output));
    assert!(!dir.join(".compaction-pending").exists(), "the list of tables left plain goes with them");
    // What is no list is left alone, and is no failure.
    std::fs::create_dir(dir.join(".compaction-pending")).unwrap();
    let output = solve_in_time(&["compact", dir.to_str().unwrap()]);
    assert!(output.status.success(), "{}", stderr(&output));
    std::fs::remove_dir(dir.join(".compaction-pending")).unwrap();
    let said = String::from_utf8_lossy(&output.stdout).into_owned();
    assert!(said.contains("rewritten in blocks"), "{said}");
    let compacted = Table::open(&extra, None).unwrap();
    assert!(compacted.is_blocked());
    assert_eq!(compacted.codes().unwrap(), drawn);
    assert_eq!(Table::open(&file, None).unwrap().codes().unwrap(), codes);
    std::fs::remove_file(&extra).unwrap();
    let after = json(&solve(out.path(), &["thi", "--board", "primus", "--position", "-,b,b/b,-,-/w,w,w w", "--json"]));
    assert_eq!(before["moves"], after["moves"]);

    let output = solve_in_time(&["compact", out.path().join("nothing").to_str().unwrap()]);
    assert!(!output.status.success());
    assert!(stderr(&output).contains("nothing: no such directory"), "{}", stderr(&output));
}

/// Writes a plain table of `tier` of `like`'s key into `dir`, of as many positions as the
/// tier has, every one drawn: one that blocks store in a fraction of its bytes. Returns
/// its file and its codes.
fn drawn_tier(like: &TableIdentity, dir: &Path, tier: &str) -> (PathBuf, Vec<u16>) {
    let game = tablebase::registry::game_of_key(&like.key).unwrap();
    let positions = game.tier_sizes(&like.key, &[tier.to_owned()]).unwrap()[0];
    let drawn = vec![0; positions as usize];
    let file = dir.join(format!("tier-{tier}.tbl"));
    write_table(&file, &TableIdentity { tier: tier.to_owned(), ..like.clone() }, &drawn, Layout::Plain).unwrap();
    (file, drawn)
}

/// `solve compact` on a directory it may not write (a read-only mount, another owner's)
/// with no table that would be rewritten says so and succeeds; with one that would, it
/// fails naming why; and a lock file in the way is a failure naming it, not "not
/// writable".
#[cfg(unix)]
#[test]
fn compact_on_a_directory_it_cannot_write_fails_only_where_it_had_work() {
    let out = tempfile::tempdir().unwrap();
    let dir = primus(out.path());
    assert!(solve_in_time(&["compact", dir.to_str().unwrap()]).status.success());
    std::fs::remove_file(dir.join(".lock")).unwrap();
    std::fs::create_dir(dir.join(".lock")).unwrap();
    let output = solve_in_time(&["compact", dir.to_str().unwrap()]);
    assert!(!output.status.success());
    assert!(stderr(&output).contains("is a directory"), "{}", stderr(&output));
    std::fs::remove_dir(dir.join(".lock")).unwrap();
    set_mode(&dir, 0o555);
    // Root writes whatever the modes say: there the refusal cannot be staged.
    let refused = std::fs::write(dir.join("probe"), "").is_err();
    let output = solve_in_time(&["compact", dir.to_str().unwrap()]);
    set_mode(&dir, 0o755);
    let _ = std::fs::remove_file(dir.join("probe"));
    if refused {
        assert!(output.status.success(), "{}", stderr(&output));
        let said = String::from_utf8_lossy(&output.stdout).into_owned();
        assert!(said.contains("0 of 10 tables rewritten, none would be"), "{said}");
        // A table written plain that blocks would halve: work it cannot do.
        let identity = Table::open(&dir.join("tier-3-3.tbl"), None).unwrap().header().identity.clone();
        drawn_tier(&identity, &dir, "9-9");
        set_mode(&dir, 0o555);
        let output = solve_in_time(&["compact", dir.to_str().unwrap()]);
        set_mode(&dir, 0o755);
        assert!(!output.status.success());
        assert!(stderr(&output).contains(".lock"), "{}", stderr(&output));
    }
}

/// A directory whose files disagree (another game's or rules' table, a table under
/// another tier's name) is named by `info` and refused by `compact`, as by a build;
/// the sound directories beside it are still listed.
#[test]
fn info_and_compact_refuse_a_directory_whose_tables_disagree() {
    let out = tempfile::tempdir().unwrap();
    let dir = primus(out.path());
    assert!(solve(out.path(), &["thi", "--board", "primus", "--rules", "fixed1"]).status.success());
    let fixed1 = out.path().join("thi/3x3-fixed1");
    let info = |path: &Path| solve_in_time(&["info", path.to_str().unwrap()]);
    let compact = |path: &Path| solve_in_time(&["compact", path.to_str().unwrap()]);
    assert!(info(out.path()).status.success());
    let original = std::fs::read(dir.join("tier-3-2.tbl")).unwrap();
    for (from, why) in
        // The odd file is named, with its key.
        [
            (fixed1.join("tier-3-2.tbl"), "tier-3-2.tbl: its key is `thi size=3 rules=fixed1"),
            (dir.join("tier-3-3.tbl"), "is not named"),
        ]
    {
        std::fs::copy(&from, dir.join("tier-3-2.tbl")).unwrap();
        let listed = info(out.path());
        assert!(!listed.status.success());
        assert!(stderr(&listed).contains(why), "{}", stderr(&listed));
        assert!(String::from_utf8_lossy(&listed.stdout).contains("3x3-fixed1"), "the sound one is still listed");
        let compacted = compact(&dir);
        assert!(!compacted.status.success());
        assert!(stderr(&compacted).contains(why), "{}", stderr(&compacted));
        // Over the root, the sound directory is still compacted.
        let all = compact(out.path());
        assert!(!all.status.success());
        assert!(stderr(&all).contains("1 of 2 table directories could not be compacted"), "{}", stderr(&all));
        assert!(String::from_utf8_lossy(&all.stdout).contains("3x3-fixed1: "), "{}", stderr(&all));
    }
    std::fs::write(dir.join("tier-3-2.tbl"), original).unwrap();
    assert!(info(out.path()).status.success());
    // A directory a build holds is named and passed over, not waited on.
    let held = retro::store::lock_directory(&dir).unwrap();
    let all = compact(out.path());
    assert!(!all.status.success());
    assert!(stderr(&all).contains("another build is writing tables in"), "{}", stderr(&all));
    assert!(String::from_utf8_lossy(&all.stdout).contains("3x3-fixed1: "), "{}", stderr(&all));
    drop(held);
    assert!(compact(out.path()).status.success());
}

/// Another game's table put in under a tier's name is named as another game's, not as a
/// file to rename; `info` of one file under another tier's name warns of it; tables sound
/// but in another key's directory are verified with the same warning `info` gives.
#[test]
fn a_foreign_misnamed_or_misplaced_table_is_called_what_it_is() {
    let out = tempfile::tempdir().unwrap();
    let dir = primus(out.path());
    json(&solve(out.path(), &["kalah", "--pits", "3", "--seeds", "1", "--rules", "standard", "--table", "--json"]));
    let kalah = out.path().join("kalah/m3-standard");

    let original = std::fs::read(dir.join("tier-0-0.tbl")).unwrap();
    std::fs::copy(kalah.join("tier-3.tbl"), dir.join("tier-0-0.tbl")).unwrap();
    for args in [["info", dir.to_str().unwrap()], ["verify-table", dir.to_str().unwrap()]] {
        let output = solve_in_time(&args);
        assert!(!output.status.success(), "{args:?}");
        let said = stderr(&output);
        assert!(said.contains("holds `kalah pits=3") && said.contains("tables of different games or rules"), "{said}");
        assert!(!said.contains("is not named"), "{said}");
    }
    std::fs::write(dir.join("tier-0-0.tbl"), original).unwrap();

    let file = dir.join("tier-3-3.tbl");
    std::fs::copy(dir.join("tier-3-2.tbl"), &file).unwrap();
    let output = solve_in_time(&["info", file.to_str().unwrap()]);
    assert!(output.status.success(), "{}", stderr(&output));
    assert!(String::from_utf8_lossy(&output.stdout).contains("tier:            3-2"));
    assert!(stderr(&output).contains("holds tier 3-2 of `thi size=3"), "{}", stderr(&output));
    assert!(stderr(&output).contains("is not named"), "{}", stderr(&output));

    let moved = out.path().join("kalah/m3-empty-capture");
    std::fs::rename(&kalah, &moved).unwrap();
    for args in [["info", moved.to_str().unwrap()], ["verify-table", moved.to_str().unwrap()]] {
        let output = solve_in_time(&args);
        assert!(output.status.success(), "{args:?}: {}", stderr(&output));
        assert!(stderr(&output).contains("these tables belong in"), "{args:?}: {}", stderr(&output));
    }
}

/// Tables of many values with skewed counts (Kalah's) do not halve, so a plain `solve
/// compact` leaves them as they are; `--min-saving 20` stores them in blocks, most of
/// them entropy-coded, every value and answer unchanged and the tables still verified.
#[test]
fn a_lower_min_saving_stores_many_valued_tables_in_blocks() {
    let out = tempfile::tempdir().unwrap();
    let query = ["kalah", "--position", "2,2,2,2/2,2,2,2 0-0 S", "--endgame-seeds", "16", "--json"];
    let before = json(&solve(out.path(), &query));
    let file = out.path().join("kalah").join("m4-empty-capture").join("tier-16.tbl");
    let codes = Table::open(&file, None).unwrap().codes().unwrap();

    let output = solve_in_time(&["compact", out.path().to_str().unwrap()]);
    assert!(output.status.success(), "{}", stderr(&output));
    assert!(!Table::open(&file, None).unwrap().is_blocked());
    let output = solve_in_time(&["compact", "--min-saving", "20", out.path().to_str().unwrap()]);
    assert!(output.status.success(), "{}", stderr(&output));
    let table = Table::open(&file, None).unwrap();
    assert!(table.is_blocked());
    let plain_bytes = (codes.len() as u64 * table.header().bits as u64).div_ceil(8);
    assert!(table.header().body_len * 100 <= plain_bytes * 80, "{} of {plain_bytes} bytes", table.header().body_len);
    assert_eq!(table.codes().unwrap(), codes);
    assert!((0..codes.len()).step_by(61).all(|r| table.code(r as u64).unwrap() == Some(codes[r])));
    let after = json(&solve(out.path(), &query));
    for key in ["value", "moves", "best", "line"] {
        assert_eq!(after[key], before[key], "{key}");
    }
    let verified = solve_in_time(&["verify-table", out.path().to_str().unwrap()]);
    assert!(verified.status.success(), "{}", stderr(&verified));

    for bad in ["0", "100", "half"] {
        let output = solve_in_time(&["compact", "--min-saving", bad, out.path().to_str().unwrap()]);
        assert!(!output.status.success() && stderr(&output).contains("--min-saving"), "{bad}: {}", stderr(&output));
    }
}

/// A new relative `--out` has its free disk measured (from the working directory), so the
/// disk check applies to it as to any other: a relative path's ancestors end at "".
#[test]
fn a_relative_out_directory_has_its_disk_measured() {
    let cwd = tempfile::tempdir().unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_solve"))
        .args(["thi", "--board", "primus", "--out", "fresh/tables"])
        .current_dir(cwd.path())
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    let said = stderr(&out);
    assert!(said.contains(" of disk)") && !said.contains("unknown of disk"), "{said}");
}

/// A wrong value, its file's checksums made valid, is reported in its own tier: tiers are
/// checked children first, not in file-name order (tier-10 before tier-6), where a parent
/// above it would be blamed.
#[test]
fn verify_table_names_the_tier_of_a_wrong_value() {
    let out = tempfile::tempdir().unwrap();
    json(&solve(out.path(), &["kalah", "--pits", "3", "--seeds", "2", "--table", "--json"]));
    let dir = out.path().join("kalah").join("m3-empty-capture");
    let file = dir.join("tier-6.tbl");
    let table = Table::open(&file, None).unwrap();
    let mut codes = table.codes().unwrap();
    let identity = table.header().identity.clone();
    drop(table);
    // A score two better, for every position of the tier: wrong wherever checked.
    for code in &mut codes {
        *code += 4;
    }
    write_table(&file, &identity, &codes, Layout::Compact).unwrap();
    let output = solve_in_time(&["verify-table", dir.to_str().unwrap()]);
    assert!(!output.status.success(), "verify-table accepted a wrong tier 6");
    assert!(stderr(&output).contains("tier 6,"), "{}", stderr(&output));
}

/// A file where the tables' directory goes is named, whichever level of the path it is.
#[test]
fn a_file_in_the_way_of_the_table_directory_is_named() {
    for blocking in ["thi", "thi/3x3-original"] {
        let out = tempfile::tempdir().unwrap();
        let path = out.path().join(blocking);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, b"").unwrap();
        let output = solve(out.path(), &["thi", "--board", "primus"]);
        assert!(!output.status.success());
        let expected = format!("{}: not a directory, where the tables' directory goes", path.display());
        assert!(stderr(&output).contains(&expected), "{}", stderr(&output));
    }
}

/// A tier's table linked from elsewhere, its target gone (a disk not mounted), is named
/// and left alone: neither solved again over the link nor reported as a missing tier.
#[test]
fn a_dangling_link_to_a_table_is_named_not_replaced() {
    let out = tempfile::tempdir().unwrap();
    let dir = primus(out.path());
    let file = dir.join("tier-3-3.tbl");
    let gone = out.path().join("elsewhere").join("tier-3-3.tbl");
    std::fs::remove_file(&file).unwrap();
    std::os::unix::fs::symlink(&gone, &file).unwrap();
    let build = solve(out.path(), &["thi", "--board", "primus"]);
    let verify = solve_in_time(&["verify-table", dir.to_str().unwrap()]);
    for (args, output) in [("thi", build), ("verify-table", verify)] {
        assert!(!output.status.success(), "{args:?} went on");
        let expected = format!("{}: a symbolic link to {}, which is not there", file.display(), gone.display());
        assert!(stderr(&output).contains(&expected), "{args:?}: {}", stderr(&output));
        assert!(std::fs::symlink_metadata(&file).unwrap().file_type().is_symlink(), "{args:?} replaced the link");
    }
}

/// A root no directory can be made in shows no free space; what is said is that the
/// directory cannot be made, not that the disk is full.
#[cfg(target_os = "linux")]
#[test]
fn a_root_where_no_directory_can_be_made_is_named_as_such() {
    let output = solve_in_time(&["thi", "--board", "primus", "--out", "/proc/mancala-nowhere"]);
    assert!(!output.status.success());
    assert!(
        stderr(&output).contains("cannot make the tables' directory /proc/mancala-nowhere/thi/3x3-original"),
        "{}",
        stderr(&output)
    );
}

/// A temporary file a killed build left beside the tables is no table, but `info` says
/// it is there.
#[test]
fn info_notes_the_temporary_files_of_an_interrupted_build() {
    let out = tempfile::tempdir().unwrap();
    let dir = primus(out.path());
    std::fs::write(dir.join(".tier-3-3.tbl.4242.tmp"), b"half a table").unwrap();
    let info = solve_in_time(&["info", dir.to_str().unwrap()]);
    assert!(info.status.success(), "{}", stderr(&info));
    assert!(stderr(&info).contains("1 temporary file of an interrupted build"), "{}", stderr(&info));
    std::fs::remove_file(dir.join(".tier-3-3.tbl.4242.tmp")).unwrap();
    let info = solve_in_time(&["info", dir.to_str().unwrap()]);
    assert!(!stderr(&info).contains("temporary"), "{}", stderr(&info));
}

/// What killed builds and censuses leave in a table directory (temporary files of any
/// process, scratch and spill files, a census being saved, a list of tables to store
/// compact naming none there, an empty directory under a temporary file's name) is cleared
/// by the next build, which then succeeds and leaves nothing behind; a directory under a
/// temporary name that holds something is no build's, and stops builds and `compact`
/// naming it, left as it is.
#[test]
fn a_build_clears_what_killed_builds_left() {
    let out = tempfile::tempdir().unwrap();
    let dir = primus(out.path());
    let stale_files = [
        ".tier-3-3.tbl.4242.tmp",
        ".tier-3-2.tbl.99999.tmp",
        ".tier-3-3.slots.tmp",
        ".tier-3-3.slots.part-1.tmp",
        ".tier-compaction-pending.4242.tmp",
        ".census-primus.txt.4242.tmp",
    ];
    let temporary_dir = dir.join(".tier-3-3.tbl.88888.tmp");
    let clean = listing(&dir);
    for tier_missing in [true, false] {
        if tier_missing {
            std::fs::remove_file(dir.join("tier-3-3.tbl")).unwrap();
        }
        for name in stale_files {
            std::fs::write(dir.join(name), b"left by a killed run").unwrap();
        }
        std::fs::write(dir.join(".compaction-pending"), "9-9\n").unwrap();
        std::fs::create_dir(&temporary_dir).unwrap();
        let build = solve(out.path(), &["thi", "--board", "primus"]);
        assert!(build.status.success(), "{}", stderr(&build));
        assert_eq!(listing(&dir), clean, "tier missing: {tier_missing}");
    }
    std::fs::remove_file(dir.join("tier-3-3.tbl")).unwrap();
    std::fs::create_dir(&temporary_dir).unwrap();
    std::fs::write(temporary_dir.join("notes"), b"someone's").unwrap();
    let expected = format!("{}: a directory under the name of a build's temporary file", temporary_dir.display());
    let build = solve(out.path(), &["thi", "--board", "primus"]);
    let compact = solve_in_time(&["compact", dir.to_str().unwrap()]);
    for (args, output) in [("thi", build), ("compact", compact)] {
        assert!(!output.status.success(), "{args:?}");
        assert!(stderr(&output).contains(&expected) && stderr(&output).contains("remove it"), "{}", stderr(&output));
        assert!(temporary_dir.join("notes").exists(), "{args:?}");
    }
}

/// How to run `solve` as a user whom the modes of a directory stop: this one, unless it is
/// root (whom no mode stops), else `nobody` through `setpriv` or `runuser`, where one of
/// them works and `nobody` can run the binary; `Err` of why neither does.
#[cfg(unix)]
fn as_user_the_modes_stop() -> Result<Vec<String>, String> {
    use std::os::unix::fs::MetadataExt;
    let mine = tempfile::NamedTempFile::new().unwrap();
    if mine.as_file().metadata().unwrap().uid() != 0 {
        return Ok(Vec::new());
    }
    let candidates = [
        ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"].map(String::from).to_vec(),
        ["runuser", "-u", "nobody", "--"].map(String::from).to_vec(),
    ];
    for prefix in candidates {
        let ran = Command::new(&prefix[0]).args(&prefix[1..]).arg(env!("CARGO_BIN_EXE_solve")).arg("--help").output();
        if ran.is_ok_and(|r| r.status.success()) {
            return Ok(prefix);
        }
    }
    Err("running as root, and neither setpriv nor runuser runs the binary as nobody".to_owned())
}

/// A table directory the user cannot read, or cannot write where a tier is still to build
/// (or make, where it is not there), is named as such before the build is announced, with
/// what to do; a directory only readable that holds every table is answered from.
#[cfg(unix)]
#[test]
fn a_table_directory_the_user_cannot_use_is_named_before_the_build() {
    let prefix = match as_user_the_modes_stop() {
        Ok(prefix) => prefix,
        Err(why) => {
            eprintln!("skipped: {why}");
            return;
        }
    };
    let run = |args: &[&str], out: &Path| {
        let mut command = Command::new(prefix.first().map_or(env!("CARGO_BIN_EXE_solve"), String::as_str));
        if !prefix.is_empty() {
            command.args(&prefix[1..]).arg(env!("CARGO_BIN_EXE_solve"));
        }
        command.args(args).arg("--out").arg(out).stdin(Stdio::null()).output().unwrap()
    };
    let out = tempfile::tempdir().unwrap();
    set_mode(out.path(), 0o755);
    let dir = primus(out.path());
    let table = std::fs::read(dir.join("tier-3-3.tbl")).unwrap();
    let refused = |output: &Output, expected: &str| {
        let said = stderr(output);
        assert!(!output.status.success(), "{said}");
        assert!(said.contains(expected) && said.contains("--out"), "{said}");
        assert!(!said.contains("to build:"), "announced: {said}");
    };
    let primus = ["thi", "--board", "primus"];

    set_mode(&dir, 0o000);
    let output = run(&primus, out.path());
    set_mode(&dir, 0o755);
    refused(&output, &format!("cannot read the tables' directory {}: permission denied", dir.display()));

    std::fs::remove_file(dir.join("tier-3-3.tbl")).unwrap();
    set_mode(&dir, 0o555);
    let output = run(&primus, out.path());
    set_mode(&dir, 0o755);
    refused(&output, &format!("cannot write in the tables' directory {}", dir.display()));
    assert!(stderr(&output).contains("permission denied"), "{}", stderr(&output));

    std::fs::write(dir.join("tier-3-3.tbl"), table).unwrap();
    set_mode(&dir, 0o555);
    let output = run(&primus, out.path());
    set_mode(&dir, 0o755);
    assert!(output.status.success(), "{}", stderr(&output));

    // A position answered only from tables already built: not called a missing tier.
    assert!(solve(out.path(), &["trias", "--holes", "2", "--stones", "1"]).status.success());
    let trias = out.path().join("trias/3x2");
    set_mode(&trias, 0o000);
    let output = run(&["trias", "--position", "1,0/0,0/0,1 S"], out.path());
    set_mode(&trias, 0o755);
    refused(&output, &format!("cannot read the tables' directory {}: permission denied", trias.display()));

    let games = out.path().join("thi");
    set_mode(&games, 0o555);
    let output = run(&["thi", "--board", "primus", "--rules", "fixed1"], out.path());
    set_mode(&games, 0o755);
    let expected = format!(
        "cannot make the tables' directory {}: permission denied in {}",
        games.join("3x3-fixed1").display(),
        games.display()
    );
    refused(&output, &expected);
}

/// Rewrites the table `from` as tier `tier`'s, into that tier's file beside it, checksums
/// valid: a forged tier label, the file named after it.
fn relabel(from: &Path, tier: &str) -> PathBuf {
    let table = Table::open(from, None).unwrap();
    let codes = table.codes().unwrap();
    let identity = TableIdentity { tier: tier.to_owned(), ..table.header().identity.clone() };
    drop(table);
    let to = from.with_file_name(format!("tier-{tier}.tbl"));
    write_table(&to, &identity, &codes, Layout::Compact).unwrap();
    to
}

/// `compact`, `info` and `verify-table` on `dir`, and `info` and `verify-table` on the
/// file `forged` alone, each fail with the same message, which begins with `expected`
/// (the file, and what is wrong) and speaks of its tier.
fn refused_alike(dir: &Path, forged: &Path, expected: &str) {
    let mut messages = Vec::new();
    for (command, path) in
        [("compact", dir), ("info", dir), ("verify-table", dir), ("info", forged), ("verify-table", forged)]
    {
        let output = solve_in_time(&[command, path.to_str().unwrap()]);
        let said = stderr(&output);
        assert!(!output.status.success(), "{command} {} took it: {said}", path.display());
        let at = said.find(expected).unwrap_or_else(|| panic!("{command} {}: {said}", path.display()));
        let message = said[at..].lines().next().unwrap().to_owned();
        assert!(message.contains("tier"), "{command} {}: {message}", path.display());
        messages.push(message);
    }
    assert!(messages.iter().all(|m| *m == messages[0]), "{messages:#?}");
}

/// A table that queries refuse (an entry count or a tier label forged, its checksums made
/// valid) is refused by `compact`, `info` and `verify-table` alike, on its directory or on
/// the file alone, each naming the file and what is wrong in the same words, in THI`,
/// Trias and Awari directories; so is one labelled with a tier its game does not have.
#[test]
fn a_forged_table_is_refused_by_every_command_the_same_way() {
    // A directory, its command, a tier to forge, another tier of another size, and a
    // name that is no tier of the game.
    let games: [(&[&str], &str, &str, &str, &str); 3] = [
        (&["thi", "--board", "primus"], "thi/3x3-original", "3-3", "3-2", "3-x"),
        (&["trias", "--holes", "2", "--stones", "1"], "trias/3x2", "6", "5", "256"),
        (&["awari", "--pits", "3", "--seeds", "2"], "awari/awari-m3", "12", "11", "49"),
    ];
    for (build, dir, tier, other, not_a_tier) in games {
        let out = tempfile::tempdir().unwrap();
        assert!(solve(out.path(), build).status.success(), "{build:?}");
        let dir = out.path().join(dir);
        let file = dir.join(format!("tier-{tier}.tbl"));
        let other_file = dir.join(format!("tier-{other}.tbl"));
        let originals = [std::fs::read(&file).unwrap(), std::fs::read(&other_file).unwrap()];
        let [entries, other_entries] = [&file, &other_file].map(|f| Table::open(f, None).unwrap().entries());
        let restore = || {
            std::fs::write(&file, &originals[0]).unwrap();
            std::fs::write(&other_file, &originals[1]).unwrap();
        };

        resize(&file, 1000);
        assert!(!solve(out.path(), build).status.success(), "{build:?}: a query took a forged entry count");
        let expected =
            format!("{}: holds {} entries, but tier {tier} has {entries} positions", file.display(), entries + 1000);
        refused_alike(&dir, &file, &expected);
        restore();

        relabel(&file, other);
        assert!(!solve(out.path(), build).status.success(), "{build:?}: a query took a forged tier label");
        let expected = format!(
            "{}: holds {entries} entries, but tier {other} has {other_entries} positions",
            other_file.display()
        );
        refused_alike(&dir, &other_file, &expected);
        restore();

        let stray = relabel(&file, not_a_tier);
        refused_alike(&dir, &stray, &format!("{}: ", stray.display()));
        std::fs::remove_file(&stray).unwrap();
    }
}
