//! How `solve` takes arguments a user may well type: positions starting with `-`,
//! combinations that cannot both hold, and input far too long to echo.

use crate::common::{json, solve, stderr};

#[test]
fn a_thi_position_may_start_with_an_empty_square() {
    let dir = tempfile::tempdir().unwrap();
    let report = json(&solve(dir.path(), &["thi", "--board", "primus", "--position", "-,b,b/b,-,-/w,w,w w", "--json"]));
    assert_eq!(report["position"], "-,b,b/b,-,-/w,w,w w");
}

#[test]
fn kalah_and_awari_positions_starting_with_a_hyphen_reach_their_parser() {
    let dir = tempfile::tempdir().unwrap();
    for args in [["kalah", "--position", "-1,0/0,0 0-0 S"], ["awari", "--position", "-1,0,0,0"]] {
        let out = solve(dir.path(), &args);
        // Exit 2 with "unexpected argument" would be the argument parser taking the
        // position for a flag; the position's own reader must refuse it (exit 1).
        assert_eq!(out.status.code(), Some(1), "{args:?}: {}", stderr(&out));
        let err = stderr(&out);
        assert!(err.contains("reading") || err.contains("malformed position"), "{args:?}: {err}");
    }
}

#[test]
fn kalah_seeds_with_a_position_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let out = solve(dir.path(), &["kalah", "--seeds", "3", "--position", "0,3,1,0/2,0,0,4 10-9 N"]);
    assert!(!out.status.success());
    let err = stderr(&out);
    assert!(err.contains("--seeds") && err.contains("--position"), "{err}");
}

/// A board past the limit is refused with every stone counted, not the count at which
/// the limit was crossed.
#[test]
fn too_many_stones_are_counted_in_full() {
    let dir = tempfile::tempdir().unwrap();
    let out = solve(dir.path(), &["trias", "--position", "255,0,0/0,0,1/1,2,0 S"]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert!(stderr(&out).contains("259 stones on the board; a board here holds at most 255"), "{}", stderr(&out));
}

#[test]
fn kalah_help_names_the_default_board() {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_solve")).args(["kalah", "--help"]).output().unwrap();
    let help = String::from_utf8_lossy(&out.stdout);
    assert!(help.contains("else 6"), "{help}");
}
/// A thread count of none, or of more than four a core, is refused before anything is
/// built: past that, threads only slow a build (1024 on two cores took a minute and a half
/// for a build of two seconds), their idle searches for work growing with their number.
#[test]
fn a_thread_count_outside_1_to_four_a_core_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let most = 4 * cores;
    let above = (most + 1).to_string();
    for (threads, why) in [
        ("0", "at least one thread"),
        (&above, &format!("at most {most} threads")),
        ("100000", "four a core"),
        ("many", "not a number of threads"),
    ] {
        let out = solve(dir.path(), &["--threads", threads, "thi", "--board", "primus"]);
        assert_eq!(out.status.code(), Some(2), "{threads}: {}", stderr(&out));
        assert!(stderr(&out).contains(why), "{threads}: {}", stderr(&out));
    }
    assert!(!dir.path().join("thi").exists(), "nothing is built");
    let out = solve(dir.path(), &["--threads", &most.to_string(), "thi", "--board", "primus"]);
    assert!(out.status.success(), "{most} threads: {}", stderr(&out));
}

/// Given before the command and after it, the later count would win unseen.
#[test]
fn a_thread_count_given_at_both_levels_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let twice: [&[&str]; 2] = [
        &["--threads", "1", "thi", "--board", "primus", "--threads", "2"],
        &["--threads=1", "thi", "--board", "primus", "--threads=2", "--json"],
    ];
    for args in twice {
        let out = solve(dir.path(), args);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {}", stderr(&out));
        assert!(stderr(&out).contains("--threads is given twice"), "{args:?}: {}", stderr(&out));
    }
    // Once, at either level, is fine.
    for args in [["--threads", "1", "thi", "--board", "primus"], ["thi", "--board", "primus", "--threads", "1"]] {
        assert!(solve(dir.path(), &args).status.success(), "{args:?}");
    }
}

#[test]
fn a_huge_bad_input_is_not_echoed_whole() {
    let dir = tempfile::tempdir().unwrap();
    let huge = "x".repeat(100_000);
    for args in [["thi", "--position"], ["kalah", "--position"], ["awari", "--position"], ["thi", "--board"]] {
        let game = args.join(" ");
        let out = solve(dir.path(), &[args[0], args[1], &huge]);
        assert!(!out.status.success());
        let err = stderr(&out);
        assert!(err.len() < 1_000, "{game}: {} bytes of error", err.len());
        // Named by its length: cut to an excerpt, or refused whole as past what a request
        // takes (the server's limit, for a game whose flags are read as a request).
        assert!(err.contains("100000 characters") || err.contains("longer than 1024 bytes"), "{game}: {err}");
    }
}

#[test]
fn build_flags_before_a_command_they_do_not_apply_to_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let table = dir.path().join("tier-0.tbl");
    let table = table.to_str().unwrap();
    for (args, flag) in [
        (&["--parts", "2", "kalah", "--pits", "2", "--seeds", "1", "--out", table][..], "--parts"),
        (&["--parts", "2", "njaka", "--holes", "2", "--counters", "1", "--out", table][..], "--parts"),
        // Trias's tiers are solved by the acyclic engine, which has no parts.
        (&["--parts", "2", "trias", "--holes", "2", "--stones", "1", "--out", table][..], "--parts"),
        (&["--force", "info", table][..], "--force"),
    ] {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_solve")).args(args).output().unwrap();
        // Exit 2: a usage error, before anything is built or read.
        assert_eq!(out.status.code(), Some(2), "{args:?}: {}", stderr(&out));
        let err = stderr(&out);
        assert!(err.contains(flag) && err.contains("does not apply"), "{args:?}: {err}");
    }
    let out = solve(dir.path(), &["--force", "kalah", "--pits", "2", "--seeds", "1"]);
    assert!(out.status.success(), "{}", stderr(&out));
}

/// `--parts` splits only the outcome engine's tiers: under Awari's own rules (cyclic
/// scores) it is refused before anything is built, before or after the command; under
/// Trysse it applies.
#[test]
fn parts_are_refused_where_no_tier_is_split() {
    let dir = tempfile::tempdir().unwrap();
    for args in [
        &["--parts", "2", "awari", "--pits", "2", "--stones", "3"][..],
        &["awari", "--pits", "2", "--stones", "3", "--parts", "2"],
    ] {
        let out = solve(dir.path(), args);
        assert!(!out.status.success(), "{args:?}");
        assert!(stderr(&out).contains("only --rules trysse and wari are solved in parts"), "{}", stderr(&out));
    }
    assert!(!dir.path().join("awari").exists(), "nothing is built");
    let out = solve(dir.path(), &["--parts", "2", "awari", "--rules", "trysse", "--pits", "2", "--seeds", "1"]);
    assert!(out.status.success() && stderr(&out).contains("solved in 2 parts"), "{}", stderr(&out));
}

/// A tier solved in parts keeps a file open for each part: a part count whose files the
/// process may not open is refused before the build is announced or anything written,
/// naming the limit and how to raise it. The limit is set in the child (`ulimit -n`), so
/// that the machine's own does not matter.
#[test]
fn parts_beyond_the_open_file_limit_are_refused_up_front() {
    let dir = tempfile::tempdir().unwrap();
    let under_limit = |limit: u32| {
        std::process::Command::new("sh")
            .arg("-c")
            .arg(format!("ulimit -n {limit} && exec \"$0\" --parts 200 thi --board primus --out \"$1\""))
            .arg(env!("CARGO_BIN_EXE_solve"))
            .arg(dir.path())
            .output()
            .unwrap()
    };
    let out = under_limit(64);
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(err.contains("200 parts") && err.contains("may open 64 files"), "{err}");
    assert!(err.contains("`ulimit -n 216`") && err.contains("at most 48"), "{err}");
    assert!(!err.contains("to build"), "refused before the build is announced: {err}");
    assert!(!dir.path().join("thi").exists(), "nothing is written");
    let out = under_limit(256);
    assert!(out.status.success() && stderr(&out).contains("solved in 200 parts"), "{}", stderr(&out));
}

/// Standard output that cannot be written is an error named on standard error (exit 1),
/// and a reader that stops early (`solve … | head`) ends the run quietly (141): neither
/// panics.
#[test]
fn output_that_cannot_be_written_is_no_panic() {
    let dir = tempfile::tempdir().unwrap();
    assert!(solve(dir.path(), &["thi", "--board", "primus"]).status.success());
    if let Ok(full) = std::fs::OpenOptions::new().write(true).open("/dev/full") {
        for json in [false, true] {
            let mut command = std::process::Command::new(env!("CARGO_BIN_EXE_solve"));
            command.args(["thi", "--board", "primus", "--out"]).arg(dir.path());
            if json {
                command.arg("--json");
            }
            let out = command.stdout(full.try_clone().unwrap()).output().unwrap();
            assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
            assert!(stderr(&out).contains("error: writing to standard output: No space left"), "{}", stderr(&out));
        }
    }
    // Quietly, with the status a shell gives a process its closed pipe ends; over a root,
    // `verify-table` ends the run, blaming no table.
    for command in ["thi --board primus --out", "verify-table"] {
        let out = with_a_stream_closed(command, dir.path(), Closed::Stdout);
        assert_eq!(out.status.code(), Some(141), "{command}: {}", stderr(&out));
        assert!(stderr(&out).is_empty(), "{command}: {}", stderr(&out));
    }
    // A closed standard error (`2>&1 >/dev/null | head -1`) stops nothing: the build
    // finishes, every tier written, and its answer is printed.
    let fresh = tempfile::tempdir().unwrap();
    let out = with_a_stream_closed("thi --board primus --out", fresh.path(), Closed::Stderr);
    assert!(out.status.success(), "{:?}", out.status);
    assert!(String::from_utf8_lossy(&out.stdout).contains("PRIMUS"), "{}", String::from_utf8_lossy(&out.stdout));
}

/// The stream of a run whose reader has gone.
enum Closed {
    Stdout,
    Stderr,
}

/// Runs `solve` with `command` and `path`, the `closed` stream's pipe closed at its
/// reading end before the run starts (so that its first write fails, however fast the
/// run: a pipe closed after the spawn would race a run that writes first), the other
/// one read.
fn with_a_stream_closed(command: &str, path: &std::path::Path, closed: Closed) -> std::process::Output {
    let (reader, writer) = std::io::pipe().unwrap();
    drop(reader);
    let mut run = std::process::Command::new(env!("CARGO_BIN_EXE_solve"));
    run.args(command.split(' ')).arg(path);
    match closed {
        Closed::Stdout => run.stdout(writer).stderr(std::process::Stdio::piped()),
        Closed::Stderr => run.stdout(std::process::Stdio::piped()).stderr(writer),
    };
    run.output().unwrap()
}

/// `--parts` given before the command and after it: one of the two would be dropped
/// silently, so the run is refused as `--threads` twice is.
#[test]
fn parts_given_twice_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let out = solve(dir.path(), &["--parts", "2", "thi", "--board", "primus", "--parts", "3"]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(stderr(&out).contains("--parts is given twice"), "{}", stderr(&out));
}
