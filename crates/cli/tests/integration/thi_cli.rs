//! The `solve thi` command as a user runs it.

use crate::common::{json, stderr};

use games::thi::{Bonus, RuleSet, Rules, Setup, Thi};
use retro::{forward, Game, Value};
use std::path::Path;
use std::process::{Command, Output};

/// `solve thi ARGS --out OUT`.
fn solve(out: &Path, args: &[&str]) -> Output {
    let args: Vec<&str> = std::iter::once("thi").chain(args.iter().copied()).collect();
    crate::common::solve(out, &args)
}

#[test]
fn primus_verdict_matches_an_independent_forward_search() {
    let dir = tempfile::tempdir().unwrap();
    // Bonus moves under both readings of whose counters earn them.
    for (rules, bonus) in
        [("original", Bonus::No), ("fixed1", Bonus::Own), ("fixed1", Bonus::Any), ("original", Bonus::Any)]
    {
        let mut args = vec!["--board", "primus", "--rules", rules, "--json"];
        match bonus {
            Bonus::No => {}
            Bonus::Own => args.push("--bonus"),
            Bonus::Any => args.extend(["--bonus", "any"]),
        }
        let report = json(&solve(dir.path(), &args));
        let set = RuleSet::from_name(rules).unwrap();
        let game = Thi::for_setup(Setup::named("primus").unwrap(), Rules { set, bonus }).unwrap();
        let oracle = forward::solve_reachable(&game, &Setup::named("primus").unwrap().start());
        let start = oracle[&Setup::named("primus").unwrap().start()];
        let count = |f: fn(&Value) -> bool| oracle.values().filter(|v| f(v)).count() as u64;
        assert_eq!(report["game"], "thi");
        assert_eq!(report["parameters"]["board"], "primus");
        assert_eq!(report["rules"], rules);
        assert_eq!(report["parameters"]["bonus"], bonus.name());
        assert_eq!(report["value"]["outcome"], start.outcome());
        assert_eq!(report["value"]["plies"], serde_json::json!(start.plies()));
        assert_eq!(report["details"]["claim_perfect_play_draws"], start == Value::Draw);
        assert_eq!(report["reachable"]["positions"], oracle.len() as u64);
        assert_eq!(report["reachable"]["win"], count(|v| matches!(v, Value::Win(_))));
        assert_eq!(report["reachable"]["draw"], count(|v| *v == Value::Draw));
        assert_eq!(report["reachable"]["loss"], count(|v| matches!(v, Value::Loss(_))));
        assert_eq!(report["tables"]["positions"], 5_698);
        assert!(report["tables"]["bytes"].as_u64().unwrap() > 0);
    }
}

#[test]
fn a_second_run_reuses_the_tables() {
    let dir = tempfile::tempdir().unwrap();
    let first = json(&solve(dir.path(), &["--board", "primus", "--json"]));
    assert_eq!(first["tables"]["tiers_reused"], 0);
    let second = json(&solve(dir.path(), &["--board", "primus", "--json"]));
    assert_eq!(second["tables"]["tiers_built"], 0);
    assert_eq!(second["value"], first["value"]);
    assert_eq!(second["reachable"], first["reachable"]);
}

#[test]
fn position_analysis_is_consistent() {
    let dir = tempfile::tempdir().unwrap();
    let report = json(&solve(
        dir.path(),
        &["--board", "primus", "--rules", "fixed1", "--position", "b,b,b/-,-,-/w,w,w w", "--json"],
    ));
    assert_eq!(report["position"], "b,b,b/-,-,-/w,w,w w");
    assert_eq!(report["to_move"], "white");
    let value = &report["value"];
    let moves = report["moves"].as_array().unwrap();
    assert!(!moves.is_empty());
    let best = moves.iter().find(|m| m["move"] == report["best"]).expect("best move listed");
    // The best move keeps the position's value, so the line to the end has its length.
    assert_eq!(best["value"], *value);
    let line = report["line"].as_array().unwrap();
    assert_eq!(line[0], report["best"]);
    assert_eq!(Some(line.len() as u64), value["plies"].as_u64());
    assert_eq!(report["line_end"]["kind"], "over");

    let text = solve(dir.path(), &["--board", "primus", "--rules", "fixed1", "--position", "b,b,b/-,-,-/w,w,w w"]);
    let text = String::from_utf8_lossy(&text.stdout);
    assert!(text.contains("White to move") && text.contains("best move:") && text.contains("principal line"));
}

/// The title of a position's report names what the position is, as its JSON does: a
/// setup only where it is that setup's start, and the tables when they are another's.
#[test]
fn a_position_is_titled_as_what_it_is() {
    let dir = tempfile::tempdir().unwrap();
    for (position, title, board) in [
        ("b,b,b/-,-,-/w,w,w w", "THI` PRIMUS (3×3, 3 counters each), rules: original; from the DUO tables", "primus"),
        ("bb,bb,bb/-,-,-/ww,ww,ww w", "THI` DUO (3×3, 6 counters each), rules: original\n", "duo"),
        ("b,b,-/-,b,-/w,w,w w", "THI` a position of the DUO tables (3×3), rules: original", ""),
    ] {
        let text = solve(dir.path(), &["--board", "duo", "--position", position]);
        assert!(text.status.success(), "{}", stderr(&text));
        assert!(String::from_utf8_lossy(&text.stdout).starts_with(title), "{}", String::from_utf8_lossy(&text.stdout));
        let report = json(&solve(dir.path(), &["--board", "duo", "--position", position, "--json"]));
        assert_eq!(report["parameters"]["board"].as_str().unwrap_or(""), board);
    }
}

#[test]
fn the_text_names_the_bonus_wherever_it_names_the_rules() {
    let dir = tempfile::tempdir().unwrap();
    for (bonus, rules) in [
        (&[][..], "original"),
        (&["--bonus"][..], "original with bonus moves"),
        (&["--bonus", "any"][..], "original with bonus moves for any counter borne off"),
    ] {
        let mut args = vec!["--board", "primus"];
        args.extend(bonus);
        let text = solve(dir.path(), &args);
        assert!(text.status.success(), "{}", stderr(&text));
        let text = String::from_utf8_lossy(&text.stdout);
        assert!(text.lines().next().unwrap().ends_with(&format!("rules: {rules}")), "{text}");
        assert!(text.lines().any(|line| line == format!("rules: {rules}")), "{text}");
    }
}
/// A position alone names its board: its own size, the smallest setup holding its
/// counters, and only the tiers it needs built, whatever setup is asked for.
#[test]
fn a_position_alone_builds_only_what_it_needs() {
    let dir = tempfile::tempdir().unwrap();
    let primus = json(&solve(dir.path(), &["--rules", "fixed1", "--position", "b,b,b/-,-,-/w,w,w w", "--json"]));
    assert_eq!(primus["tables"]["tiers_built"], 10, "{}", primus["tables"]);
    assert_eq!(primus["parameters"]["board"], "primus");
    // Asked of TRIAS, the same position still needs PRIMUS's tiers alone.
    let asked = ["--board", "trias", "--rules", "fixed1", "--position", "-,b,b/b,-,-/w,w,w w", "--json"];
    let trias = json(&solve(dir.path(), &asked));
    assert_eq!(trias["tables"]["tiers_built"], 0, "{}", trias["tables"]);
    let four = json(&solve(dir.path(), &["--position", "b,b,b,b/-,-,-,-/-,-,-,-/w,w,w,w w", "--json"]));
    assert_eq!(four["parameters"]["size"], 4);
    let text = solve(dir.path(), &["--position", "b,b,-,b/-,-,b,-/w,-,-,-/-,w,w,w b"]);
    let text = String::from_utf8_lossy(&text.stdout);
    assert!(text.starts_with("THI` a position of the 4x4-height1 tables (4×4), rules: original"), "{text}");
    // More counters than any setup of the board has: said as such, as the API says it.
    let ten = solve(dir.path(), &["--position", "b,-,-/w,-,-/www,www,www w"]);
    assert!(!ten.status.success());
    assert!(stderr(&ten).contains("10 counters of one colour: no setup of 3×3 has more than 9"), "{}", stderr(&ten));
    assert_eq!(four["tables"]["directory"], dir.path().join("thi/4x4-original").to_str().unwrap());
}

/// A position whose smallest setup no 64-bit index numbers (8×8, one counter a row) is
/// answered from tables up to its own counters, and its value is the forward search's.
#[test]
fn a_position_of_a_board_too_large_to_set_up_is_answered_from_its_own_counters() {
    let dir = tempfile::tempdir().unwrap();
    let text = "b,-,-,-,-,-,-,-/-,-,-,-,-,-,-,-/-,-,-,-,-,-,-,-/-,-,-,-,-,-,-,-/\
                -,-,-,-,-,-,-,-/-,-,-,-,-,-,-,-/-,-,-,w,-,-,-,-/-,-,-,-,-,-,-,w w";
    let report = json(&solve(dir.path(), &["--position", text, "--rules", "fixed2", "--json"]));
    let game = Thi::new(8, 2, Rules { set: RuleSet::Fixed2, bonus: Bonus::No }).unwrap();
    let position = games::thi::notation::parse(text).unwrap();
    let oracle = forward::solve_reachable(&game, &position);
    assert_eq!(report["value"]["outcome"], oracle[&position].outcome());
    assert_eq!(report["value"]["plies"], serde_json::json!(oracle[&position].plies()));
    assert_eq!(report["tables"]["directory"], dir.path().join("thi/8x8-fixed2").to_str().unwrap());
    let text = solve(dir.path(), &["--position", text, "--rules", "fixed2"]);
    let text = String::from_utf8_lossy(&text.stdout);
    assert!(text.starts_with("THI` a position of the 8×8 tables up to 2 counters a side, rules: fixed2"), "{text}");
    let empty = ["-,-,-,-,-,-,-,-"; 8].join("/") + " w";
    let text = solve(dir.path(), &["--position", &empty]);
    let text = String::from_utf8_lossy(&text.stdout);
    assert!(text.starts_with("THI` a position of the 8×8 table of the empty board, rules: original"), "{text}");
    // Past what any index numbers, the full tables' message names the position's tables;
    // without --no-search a search above the tables that fit answers.
    let many = "-,-,-,-,-,-,-,-/bbb,bbb,bbb,bbb,bbb,bbb,bbb,bbb/-,-,-,-,-,-,-,-/-,-,-,-,-,-,-,-/\
                -,-,-,-,-,-,-,-/-,-,-,-,-,-,-,-/www,www,www,www,www,www,www,www/-,-,-,-,-,-,-,- w";
    let searched = json(&solve(dir.path(), &["--position", many, "--nodes", "20000", "--json"]));
    assert!(searched["details"]["search"]["nodes"].as_u64().is_some_and(|n| n <= 20_000), "{searched}");
    let refused = solve(dir.path(), &["--position", many, "--no-search"]);
    assert!(!refused.status.success());
    assert!(
        stderr(&refused).contains("this position's tables (8×8, up to 24 counters a side) have about"),
        "{}",
        stderr(&refused)
    );
}

/// QUADRAT's start, whose tables no index numbers, is answered by the search above the
/// lowest tiers, with bounds where it proves no value; the article's claim is left to the
/// value (no table holds the start).
#[test]
fn the_quadrat_start_is_answered_by_a_search_above_the_tables() {
    let dir = tempfile::tempdir().unwrap();
    let out = solve(dir.path(), &["--board", "quadrat", "--time", "4", "--nodes", "50000", "--json"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let report = json(&out);
    assert_eq!(report["value"]["kind"], "bounds", "{report}");
    assert_eq!(report["details"]["search"]["stopped"], "nodes", "{report}");
    assert!(report["details"].get("claim_perfect_play_draws").is_none(), "{report}");
    assert!(report["moves"].as_array().is_some_and(|m| !m.is_empty()), "{report}");
}

#[test]
fn the_verifier_passes_on_primus() {
    let dir = tempfile::tempdir().unwrap();
    let out = solve(dir.path(), &["--board", "primus", "--rules", "original-pass", "--verify"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(String::from_utf8_lossy(&out.stdout).contains("verified"));
}

#[test]
fn bad_input_is_a_clear_error() {
    let dir = tempfile::tempdir().unwrap();
    let cases: [(&[&str], &str); 9] = [
        (&["--board", "nonsense"], "unknown board"),
        // Past what a 64-bit index numbers: how many positions, and the disk they would fill.
        (
            &["--board", "quadrat", "--no-search"],
            "board quadrat (6×6, 12 counters a side) has about 6.021e20 positions",
        ),
        // A custom setup's kind beside a named board: refused, not dropped for the board.
        (&["--board", "duo", "--height", "1"], "cannot be used with"),
        (&["--board", "primus", "--rows", "1"], "cannot be used with"),
        (&["--board", "primus", "--position", "b,b,b/-,-,-/w,w,w"], "expected `<rows> <side>`"),
        (&["--board", "primus", "--position", "b,b,w/-,-,-/w,w,w w"], "opponent's first row"),
        (&["--board", "primus", "--position", "bb,bb,bb/-,-,-/ww,ww,ww w"], "at most 3 per player"),
        (&["--size", "4", "--height", "2", "--no-search"], "of memory, "),
        (&["--size", "3", "--rows", "2"], "do not fit"),
    ];
    for (args, message) in cases {
        let out = solve(dir.path(), args);
        assert!(!out.status.success(), "{args:?} succeeded");
        assert!(stderr(&out).contains(message), "{args:?}: {}", stderr(&out));
        assert!(!stderr(&out).contains("panicked"), "{args:?}: {}", stderr(&out));
    }
}

#[test]
fn a_damaged_table_is_refused_not_reused() {
    let dir = tempfile::tempdir().unwrap();
    json(&solve(dir.path(), &["--board", "primus", "--json"]));
    let table = dir.path().join("thi/3x3-original/tier-2-1.tbl");
    let mut bytes = std::fs::read(&table).unwrap();
    let last = bytes.len() - 1;
    bytes[last] ^= 0x10;
    std::fs::write(&table, &bytes).unwrap();
    let out = solve(dir.path(), &["--board", "primus"]);
    assert!(!out.status.success());
    assert!(stderr(&out).contains("tier-2-1.tbl") && stderr(&out).contains("checksum"), "{}", stderr(&out));
    // The damaged file is left for the user to inspect, not silently rebuilt over.
    assert_eq!(std::fs::read(&table).unwrap(), bytes);
}

fn run(args: &[&std::ffi::OsStr]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_solve")).args(args).output().expect("run solve")
}

#[test]
fn info_and_verify_table_describe_and_check_files() {
    let dir = tempfile::tempdir().unwrap();
    json(&solve(dir.path(), &["--board", "primus", "--json"]));
    let tables = dir.path().join("thi/3x3-original");
    let file = tables.join("tier-2-1.tbl");
    let out = run(&["info".as_ref(), file.as_os_str()]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(text.contains("thi size=3 rules=original bonus=no") && text.contains("tier:            2-1"), "{text}");

    let out = run(&["verify-table".as_ref(), tables.as_os_str()]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(String::from_utf8_lossy(&out.stdout).contains("verified 5,698 positions"));

    // A forged table: one value changed and the checksums recomputed, so only the
    // verifier can tell.
    let table = retro::table::Table::open(&file, None).unwrap();
    let mut codes = table.codes().unwrap();
    let identity = table.header().identity.clone();
    drop(table);
    let rank = codes.iter().position(|&c| c == Value::Draw.code()).expect("a drawn position");
    codes[rank] = Value::Win(1).code();
    std::fs::remove_file(&file).unwrap();
    retro::table::write_table(&file, &identity, &codes, retro::table::Layout::Compact).unwrap();
    let out = run(&["verify-table".as_ref(), file.as_os_str()]);
    assert!(!out.status.success());
    assert!(stderr(&out).contains(&format!("tier 2-1, rank {rank}")), "{}", stderr(&out));
}

/// A table whose checksums hold but whose values are not the game's (every code 0xFFFF):
/// the analysis must not read a line out of it, but say the tables are damaged.
#[test]
fn a_consistent_checksum_over_wrong_values_is_reported_as_damage() {
    let dir = tempfile::tempdir().unwrap();
    json(&solve(dir.path(), &["--board", "primus", "--json"]));
    let setup = Setup::named("primus").unwrap();
    let game = Thi::for_setup(setup, Rules { set: RuleSet::Original, bonus: Bonus::No }).unwrap();
    let start = setup.start();
    let file = retro::store::tier_file(&dir.path().join("thi/3x3-original"), game.locate(&start).tier);
    let table = retro::table::Table::open(&file, None).unwrap();
    let identity = table.header().identity.clone();
    let codes = vec![0xFFFFu16; table.entries() as usize];
    drop(table);
    std::fs::remove_file(&file).unwrap();
    retro::table::write_table(&file, &identity, &codes, retro::table::Layout::Compact).unwrap();
    let out = solve(dir.path(), &["--board", "primus", "--position", &start.to_string()]);
    assert!(!out.status.success(), "{}", String::from_utf8_lossy(&out.stdout));
    assert!(stderr(&out).contains("the tables are damaged"), "{}", stderr(&out));
}

/// Merged paths make one move: each listed move leads to its own position, and its value
/// is the value of that position seen from the mover.
#[test]
fn every_listed_move_carries_the_value_of_its_own_position() {
    let dir = tempfile::tempdir().unwrap();
    // Paths that give the same board are one move (see the b2 check at the end).
    let position = "b,b,b/-,ww,-/w,-,- w";
    let report = json(&solve(dir.path(), &["--board", "primus", "--position", position, "--json"]));
    let moves = report["moves"].as_array().unwrap();
    let mut seen = std::collections::HashSet::new();
    for m in moves {
        assert!(seen.insert(m["position"].as_str().unwrap().to_owned()), "two moves lead to {}", m["position"]);
        let next =
            json(&solve(dir.path(), &["--board", "primus", "--position", m["position"].as_str().unwrap(), "--json"]));
        let there = match (next["value"]["outcome"].as_str().unwrap(), next["value"]["plies"].as_u64()) {
            ("win", Some(d)) => Value::Win(d as u16),
            ("loss", Some(d)) => Value::Loss(d as u16),
            _ => Value::Draw,
        };
        // No bonus moves here, so the turn always passes.
        let expected = there.before(retro::Turn::Passes);
        assert_eq!(m["value"]["outcome"], expected.outcome(), "{}", m["move"]);
        assert_eq!(m["value"]["plies"], serde_json::json!(expected.plies()), "{}", m["move"]);
    }
    // b2:NE and b2:NW both bear the two counters off on row 3: one move, named b2:NE.
    let names: Vec<&str> = moves.iter().map(|m| m["move"].as_str().unwrap()).collect();
    assert!(names.contains(&"b2:NE") && !names.contains(&"b2:NW"), "{names:?}");
}

/// Runs `solve thi --board duo` under a file-size limit of `kib` KiB, optionally with
/// SIGXFSZ ignored (then a write past the limit fails with EFBIG, as on a full disk;
/// otherwise the process is killed mid-write).
fn duo_with_file_limit(out: &Path, kib: u32, ignore_signal: bool) -> Output {
    let trap = if ignore_signal { "trap '' XFSZ; " } else { "" };
    Command::new("sh")
        .arg("-c")
        .arg(format!("{trap}ulimit -f {kib}; exec \"$0\" thi --board duo --out \"$1\""))
        .arg(env!("CARGO_BIN_EXE_solve"))
        .arg(out)
        .output()
        .expect("run sh")
}

/// Each table file's name and the checksum of its values (whatever the layout of its body).
fn table_checksums(dir: &Path) -> Vec<(String, u64)> {
    let mut out: Vec<(String, u64)> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "tbl"))
        .map(|p| {
            let table = retro::table::Table::open(&p, None).expect("every finished-looking file is whole");
            (p.file_name().unwrap().to_string_lossy().into_owned(), table.codes_checksum().unwrap())
        })
        .collect();
    out.sort();
    out
}

#[test]
fn a_full_disk_is_a_clear_error_and_a_killed_build_resumes_identically() {
    // Position queries build the tables without the reachable census, which is not at stake.
    let query = ["--board", "duo", "--position", "bb,bb,bb/-,-,-/ww,ww,ww w", "--json"];
    let clean = tempfile::tempdir().unwrap();
    json(&solve(clean.path(), &query));
    let expected = table_checksums(&clean.path().join("thi/3x3-original"));

    // Writes beyond 64 KiB fail: the build stops with an error naming the file.
    let full = tempfile::tempdir().unwrap();
    let out = duo_with_file_limit(full.path(), 64, true);
    assert!(!out.status.success());
    assert!(stderr(&out).contains(".tbl") && !stderr(&out).contains("panicked"), "{}", stderr(&out));
    let dir = full.path().join("thi/3x3-original");
    let partial = table_checksums(&dir);
    assert!(!partial.is_empty() && partial.len() < expected.len(), "{partial:?}");
    assert!(partial.iter().all(|p| expected.contains(p)), "a finished-looking file differs");
    assert!(!std::fs::read_dir(&dir).unwrap().any(|e| e.unwrap().file_name().to_string_lossy().ends_with(".tmp")));

    // Killed by the limit mid-write: what is left looks finished only if it is.
    let killed = tempfile::tempdir().unwrap();
    let out = duo_with_file_limit(killed.path(), 64, false);
    assert!(!out.status.success());
    let dir = killed.path().join("thi/3x3-original");
    assert!(table_checksums(&dir).iter().all(|p| expected.contains(p)));
    json(&solve(killed.path(), &query));
    assert_eq!(table_checksums(&dir), expected);
    // The tables the killed build left plain are stored compact now, as the clean ones.
    let bytes =
        |dir: &Path| -> u64 { std::fs::read_dir(dir).unwrap().map(|e| e.unwrap().metadata().unwrap().len()).sum() };
    assert_eq!(bytes(&dir), bytes(&clean.path().join("thi/3x3-original")));
}

#[test]
fn a_build_says_what_it_needs_before_it_starts() {
    let dir = tempfile::tempdir().unwrap();
    let out = solve(dir.path(), &["--board", "primus"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let said = stderr(&out);
    let line = said.lines().find(|l| l.starts_with("to build:")).unwrap_or_else(|| panic!("{said}"));
    for part in ["10 tiers", "positions", "of memory at the peak", "on disk", " thread", "free:"] {
        assert!(line.contains(part), "{part}: {line}");
    }
    // Built already: nothing to say.
    let again = solve(dir.path(), &["--board", "primus"]);
    assert!(!stderr(&again).contains("to build:"), "{}", stderr(&again));
    // From the full tables only, a refusal says what the build would need, and names --force.
    let out = solve(dir.path(), &["--size", "4", "--height", "2", "--no-search"]);
    for part in ["of memory, ", "of disk and roughly", " thread", "--force builds anyway"] {
        assert!(stderr(&out).contains(part), "{part}: {}", stderr(&out));
    }
}

#[test]
fn only_the_tables_still_to_build_can_make_a_build_too_big() {
    // THI` 4×4 with stacks of two does not fit here; with every table but the largest
    // in the directory, only that one counts.
    let dir = tempfile::tempdir().unwrap();
    let tables = dir.path().join("thi/4x4-original");
    std::fs::create_dir_all(&tables).unwrap();
    for high in 0..=8 {
        for low in 0..=high {
            if (high, low) != (8, 8) {
                std::fs::write(tables.join(format!("tier-{high}-{low}.tbl")), b"").unwrap();
            }
        }
    }
    let out = solve(dir.path(), &["--size", "4", "--height", "2", "--no-search"]);
    assert!(!out.status.success());
    let said = stderr(&out);
    assert!(
        said.contains("--force builds anyway") && said.contains(" positions to build, the largest tier 14,178,233,123"),
        "{said}"
    );
    // Every table there: nothing to build, so no refusal; these empty files are then
    // turned down as tables, by name.
    std::fs::write(tables.join("tier-8-8.tbl"), b"").unwrap();
    let out = solve(dir.path(), &["--size", "4", "--height", "2", "--no-search"]);
    assert!(!out.status.success());
    let said = stderr(&out);
    assert!(!said.contains("--force builds anyway"), "{said}");
    assert!(said.contains("tier-") && !said.contains("panicked"), "{said}");
}

#[test]
fn parts_say_so_and_build_the_same_tables() {
    let whole = tempfile::tempdir().unwrap();
    let value = json(&solve(whole.path(), &["--board", "primus", "--json"]));
    let split = tempfile::tempdir().unwrap();
    let out = crate::common::solve(split.path(), &["--parts", "3", "thi", "--board", "primus"]);
    let said = stderr(&out);
    assert!(out.status.success() && said.contains("solved in 3 parts from a scratch file"), "{said}");
    assert_eq!(json(&solve(split.path(), &["--board", "primus", "--json"]))["value"], value["value"]);
    let (whole, split) = (whole.path().join("thi/3x3-original"), split.path().join("thi/3x3-original"));
    assert_eq!(table_checksums(&split), table_checksums(&whole));
    let left: Vec<_> = std::fs::read_dir(&split)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|name| name.ends_with(".tmp"))
        .collect();
    assert!(left.is_empty(), "scratch files left behind: {left:?}");
    let out = crate::common::solve(&split, &["--parts", "0", "thi", "--board", "primus"]);
    assert!(!out.status.success() && stderr(&out).contains("--parts"), "{}", stderr(&out));
    // The flag may follow the command as well.
    let after = tempfile::tempdir().unwrap();
    let out = crate::common::solve(after.path(), &["thi", "--board", "primus", "--parts", "3"]);
    assert!(out.status.success() && stderr(&out).contains("solved in 3 parts from a scratch file"), "{}", stderr(&out));
    assert_eq!(table_checksums(&after.path().join("thi/3x3-original")), table_checksums(&whole));
}

/// `--census` counts a start's reachable positions: with a position it is refused rather
/// than ignored.
#[test]
fn census_with_a_position_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let out = crate::common::solve(
        dir.path(),
        &["thi", "--board", "primus", "--position", "-,b,b/b,-,-/w,w,w w", "--census"],
    );
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(stderr(&out).contains("--census"), "{}", stderr(&out));
}

/// Rule names, like board names, are read in any case.
#[test]
fn rule_and_board_names_are_read_in_any_case() {
    let dir = tempfile::tempdir().unwrap();
    let report = json(&solve(dir.path(), &["--board", "Primus", "--rules", "Fixed1", "--json"]));
    assert_eq!(report["rules"], "fixed1");
    assert_eq!(report["parameters"]["board"], "primus");
}

/// `--record`: a record of PRIMUS replayed, every move with its value, the first move that
/// loses the draw (found by walking the best line) marked, and nothing else; a move that
/// is not legal, a record of another game and a board flag beside it refused, named.
#[test]
fn a_record_is_replayed_with_every_move_valued_and_the_blunder_marked() {
    let dir = tempfile::tempdir().unwrap();
    let mut report = json(&solve(dir.path(), &["--board", "primus", "--json"]));
    let mut moves = Vec::new();
    let blunder = loop {
        let all = report["moves"].as_array().unwrap().clone();
        if let Some(lost) = all.iter().find(|m| m["value"]["outcome"] == "loss") {
            break lost["move"].as_str().unwrap().to_owned();
        }
        let best = all.iter().find(|m| m["move"] == report["best"]).unwrap();
        moves.push(best["move"].as_str().unwrap().to_owned());
        report = json(&solve(dir.path(), &["--position", best["position"].as_str().unwrap(), "--json"]));
    };
    moves.push(blunder.clone());
    let numbered: Vec<String> = moves.iter().enumerate().map(|(i, m)| format!("{}. {m}", i + 1)).collect();
    let record = dir.path().join("primus.txt");
    let header = "[Game \"thi\"]\n[Board \"size=3 bonus=no\"]\n[Rules \"original\"]\n[Start \"b,b,b/-,-,-/w,w,w w\"]\n";
    std::fs::write(&record, format!("{header}\n{}\n", numbered.join(" "))).unwrap();
    let out = solve(dir.path(), &["--record", record.to_str().unwrap()]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<&str> = text.lines().filter(|l| l.trim_start().starts_with(|c: char| c.is_ascii_digit())).collect();
    assert_eq!(lines.len(), moves.len(), "{text}");
    for (line, m) in lines.iter().zip(&moves) {
        assert!(line.contains(&format!(" {m} ")), "{line}");
        assert_eq!(line.contains("??"), *m == blunder, "{text}");
    }
    assert!(lines.last().unwrap().contains("?? the position was draw; best "), "{text}");

    let refused = |text: &str, args: &[&str], why: &str| {
        std::fs::write(&record, text).unwrap();
        let mut all = vec!["--record", record.to_str().unwrap()];
        all.extend(args);
        let out = solve(dir.path(), &all);
        assert!(!out.status.success());
        assert!(stderr(&out).contains(why), "{}", stderr(&out));
    };
    refused(&format!("{header}\n1. a1:S"), &[], "move 1 of the record, `a1:S`, is not legal at b,b,b/-,-,-/w,w,w w");
    refused("[Game \"kalah\"]\n[Start \"2,2/2,2 0-0 S\"]", &[], "the record is of the game `kalah`, not `thi`");
    refused(header, &["--board", "duo"], "cannot be used with");
    refused("[Game \"thi\"]\n1. a1:N", &[], "no [Start \"…\"] tag");
}

#[test]
fn a_proof_of_a_draw_holds_two_trees() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("p.proof");
    let file = file.to_str().unwrap();
    let proven =
        json(&crate::common::solve(dir.path(), &["thi", "--board", "primus", "--prove", "--proof", file, "--json"]));
    assert_eq!((proven["value"].as_str(), proven["plies"].as_u64()), (Some("draw"), None));
    let checked = crate::common::solve(dir.path(), &["verify-proof", file]);
    assert!(checked.status.success(), "{}", stderr(&checked));
    assert!(String::from_utf8_lossy(&checked.stdout).contains("(2 nodes checked, 2 trees)"));
}
