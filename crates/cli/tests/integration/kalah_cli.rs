//! The `solve kalah` and `solve verify kalah` commands as a user runs them.

use crate::common::{json, solve, stderr};

use games::kalah::{Position, Rules};
use std::collections::HashSet;
use std::io::Write as _;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// The published grid for m ≤ 3 and the m = 4 margins up to n = 3, recomputed.
#[test]
fn verify_reproduces_the_published_values_for_small_boards() {
    let dir = tempfile::tempdir().unwrap();
    let published = concat!(env!("CARGO_MANIFEST_DIR"), "/../../data/published/kalah.tsv");
    let out = solve(dir.path(), &["verify", "kalah", "--published", published, "--max-pits", "4", "--max-seeds", "24"]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text}\n{}", stderr(&out));
    assert!(text.contains("19 published values checked, 0 disagreements"), "{text}");
    assert!(text.contains("Kalah(4,3)  empty-capture       W +8         W       +8"), "{text}");
}

#[test]
fn verify_fails_on_a_disagreement() {
    let dir = tempfile::tempdir().unwrap();
    let wrong = dir.path().join("wrong.tsv");
    std::fs::write(&wrong, "m\tn\trules\toutcome\tmargin\tsource\n3\t3\tempty-capture\tW\t+4\ta test\n").unwrap();
    let out = solve(dir.path(), &["verify", "kalah", "--published", wrong.to_str().unwrap()]);
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stdout).contains("DISAGREES with a test"));
}

/// A file of published values that cannot be read is named by line and field, and a
/// run that would check nothing is an error, not "0 published values checked".
#[test]
fn verify_names_what_is_wrong_in_a_published_file() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("published.tsv");
    for (text, expected) in [
        ("3\t3\tempty-capture\tW\t-\tx\n", "published.tsv:1: margin \"-\" is not a whole number"),
        ("3\t3\tsomething\tW\t2\tx\n", "published.tsv:1: rules: unknown preset"),
        ("3\t3\tempty-capture\tW\t-4\tx\n", "published.tsv:1: outcome W with margin -4: a margin says L"),
        ("#\n9\t3\tempty-capture\tW\t2\tx\n", "published.tsv:2: Kalah(9,3)"),
        ("3\t3\tempty-capture\tW\n", "published.tsv:1: expected six tab-separated fields"),
        ("", "no published values in it"),
    ] {
        std::fs::write(&file, text).unwrap();
        let out = solve(dir.path(), &["verify", "kalah", "--published", file.to_str().unwrap()]);
        assert!(!out.status.success(), "{text:?}");
        assert!(stderr(&out).contains(expected), "{text:?}: {}", stderr(&out));
    }
    let out = solve(dir.path(), &["verify", "kalah", "--max-pits", "0"]);
    assert!(!out.status.success());
    assert!(out.stdout.is_empty(), "no table's header for nothing checked");
    assert!(stderr(&out).contains("none of the 35 published values"), "{}", stderr(&out));
    // A file is read no further than a file of results could be (here a sparse one).
    let huge = dir.path().join("huge.tsv");
    std::fs::File::create(&huge).unwrap().set_len(17 << 20).unwrap();
    let out = solve(dir.path(), &["verify", "kalah", "--published", huge.to_str().unwrap()]);
    assert!(!out.status.success());
    assert!(stderr(&out).contains("more than 16 MiB"), "{}", stderr(&out));
}

/// A published file that is no file is refused by what it is, the same way table paths
/// are: a FIFO on the file system (whose opening would wait for a writer for ever), a
/// directory, a device (which never ends). A pipe from the shell (`<(…)`, or standard
/// input in a pipeline) is read.
#[test]
fn verify_refuses_a_published_path_that_is_no_file() {
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("published.fifo");
    let made = Command::new("mkfifo").arg(&fifo).status().expect("run mkfifo");
    assert!(made.success());
    let fifo = fifo.to_str().unwrap();
    for command in ["kalah", "kalah-positions"] {
        for (path, kind) in [(fifo, "a FIFO"), (dir.path().to_str().unwrap(), "a directory"), ("/dev/zero", "a device")]
        {
            let args = ["verify", command, "--published", path, "--out", dir.path().to_str().unwrap()];
            let out = solve_within(Duration::from_secs(30), &args);
            assert_eq!(out.status.code(), Some(1), "{command} {path}: {}", stderr(&out));
            let expected = format!("{path}: is {kind}");
            assert!(stderr(&out).contains(&expected), "{command} {path}: {}", stderr(&out));
        }
    }
    let mut piped = Command::new(env!("CARGO_BIN_EXE_solve"))
        .args(["verify", "kalah", "--published", "/dev/stdin", "--out"])
        .arg(dir.path())
        .stdin(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    piped.stdin.take().unwrap().write_all(b"3\t3\tsomething\tW\t2\tx\n").unwrap();
    let out = piped.wait_with_output().unwrap();
    assert!(stderr(&out).contains("/dev/stdin:1: rules: unknown preset"), "{}", stderr(&out));
}

/// `solve ARGS`, given at most `limit`: a run still going then is killed and fails the
/// test, which would otherwise hang.
fn solve_within(limit: Duration, args: &[&str]) -> std::process::Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_solve"))
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let started = Instant::now();
    while child.try_wait().unwrap().is_none() {
        if started.elapsed() > limit {
            child.kill().unwrap();
            child.wait().unwrap();
            panic!("solve {args:?} still running after {limit:?}");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    child.wait_with_output().unwrap()
}

#[test]
fn json_report_of_the_start() {
    let dir = tempfile::tempdir().unwrap();
    let report = json(&solve(dir.path(), &["kalah", "--pits", "4", "--seeds", "2", "--json"]));
    assert_eq!(report["game"], "kalah");
    assert_eq!(report["parameters"]["pits"], 4);
    assert_eq!(report["parameters"]["seeds"], 2);
    assert_eq!(report["rules"], "empty-capture");
    assert_eq!(report["value"], serde_json::json!({"kind": "score", "outcome": "win", "score": 6}));
    let moves = report["moves"].as_array().unwrap();
    let best = moves.iter().map(|m| m["value"]["score"].as_i64().unwrap()).max().unwrap();
    assert_eq!(best, 6, "the start's value is its best opening move's");
    // Pit 3 of 4 with 2 seeds ends in the store: its turns are written `3-…`.
    assert!(moves.iter().any(|m| m["move"].as_str().unwrap().starts_with("3-")), "{moves:?}");
    assert!(!moves.iter().any(|m| m["move"] == "3"));
    assert!(!report["line"].as_array().unwrap().is_empty());
    // The value alone: the same margin and line, the moves not computed (null, not []).
    let alone = json(&solve(dir.path(), &["kalah", "--pits", "4", "--seeds", "2", "--json", "--value-only"]));
    assert_eq!(alone["value"]["score"], 6);
    assert!(alone["moves"].is_null(), "{alone}");
    assert_eq!(alone["line"], report["line"]);
    // `--endgame-seeds auto` is what leaving it out does, in both commands; anything
    // else but a number is refused before any output.
    let auto = json(&solve(dir.path(), &["kalah", "--pits", "4", "--seeds", "2", "--json", "--endgame-seeds", "auto"]));
    assert_eq!(auto["details"]["endgame_seeds"], report["details"]["endgame_seeds"]);
    assert_eq!(auto["value"], report["value"]);
    for command in [&["kalah"][..], &["verify", "kalah"]] {
        let out =
            Command::new(env!("CARGO_BIN_EXE_solve")).args(command).args(["--endgame-seeds", "many"]).output().unwrap();
        assert_eq!(out.status.code(), Some(2), "{command:?}");
        assert!(out.stdout.is_empty(), "{command:?}: {}", String::from_utf8_lossy(&out.stdout));
        assert!(stderr(&out).contains("a number of seeds, or `auto`"), "{}", stderr(&out));
    }
}

#[test]
fn full_table_reports_its_size_and_the_reachable_positions() {
    let dir = tempfile::tempdir().unwrap();
    let report = json(&solve(dir.path(), &["kalah", "--pits", "3", "--seeds", "2", "--table", "--json"]));
    // Boards of up to 12 seeds on 6 pits: C(18, 6).
    assert_eq!(report["tables"]["positions"], 18_564);
    assert_eq!(report["details"]["endgame_seeds"], 12);
    // An independent count: breadth first over full positions.
    let rules = Rules::EMPTY_CAPTURE;
    let start = Position::start(3, 2).unwrap();
    let mut seen = HashSet::from([start]);
    let mut work = vec![start];
    while let Some(p) = work.pop() {
        for pit in 1..=3 {
            if let Some(c) = p.play(&rules, pit) {
                if seen.insert(c) {
                    work.push(c);
                }
            }
        }
    }
    assert_eq!(report["reachable"]["positions"], seen.len() as u64);
    let out = solve(dir.path(), &["kalah", "--pits", "3", "--seeds", "2", "--table"]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(seen.len(), 2_965, "the count the text below is checked against");
    assert!(text.contains("\nreachable from the start: 2,965 positions\n"), "{text}");
}

#[test]
fn weak_search_agrees_with_the_full_table() {
    let dir = tempfile::tempdir().unwrap();
    for rules in ["empty-capture", "standard", "bassett"] {
        let full = json(&solve(dir.path(), &["kalah", "--pits", "4", "--seeds", "3", "--rules", rules, "--json"]));
        let weak = json(&solve(
            dir.path(),
            &[
                "kalah",
                "--pits",
                "4",
                "--seeds",
                "3",
                "--rules",
                rules,
                "--endgame-seeds",
                "10",
                "--tt-bits",
                "16",
                "--json",
            ],
        ));
        assert!(weak["details"]["search"]["nodes"].as_u64().unwrap() > 0);
        assert_eq!(weak["value"], full["value"], "{rules}");
        assert_eq!(weak["moves"], full["moves"], "{rules}");
        assert_keeps_the_margin(dir.path(), rules, &weak);
    }
}

/// Each turn of `report`'s principal line keeps the start's margin, by the margins of the
/// full table (every board of the instance, no search), and the line ends the game with
/// that margin. (Which best turn a searched line takes depends on the search: the lines
/// of two runs may differ, their margins may not.)
fn assert_keeps_the_margin(dir: &std::path::Path, rules: &str, report: &serde_json::Value) {
    let table_margin = |p: &Position| {
        let position = p.to_string();
        let args = ["kalah", "--position", &position, "--rules", rules, "--table", "--value-only", "--json"];
        json(&solve(dir, &args))["value"]["score"].as_i64().unwrap()
    };
    let switches = match rules {
        "empty-capture" => Rules::EMPTY_CAPTURE,
        "standard" => Rules::STANDARD,
        _ => Rules::BASSETT,
    };
    let mut p = games::kalah::notation::parse(report["position"].as_str().unwrap()).unwrap();
    let mut margin = report["value"]["score"].as_i64().unwrap();
    assert_eq!(table_margin(&p), margin, "{rules}: the start");
    for turn in report["line"].as_array().unwrap() {
        let turn = turn.as_str().unwrap();
        let mover = p.to_move();
        for pit in turn.split('-') {
            p = p.play(&switches, pit.parse().unwrap()).unwrap_or_else(|| panic!("{rules}: {turn} is not a turn"));
        }
        if p.to_move() != mover {
            margin = -margin;
        }
        match p.final_difference(&switches) {
            Some(d) => assert_eq!(d as i64, margin, "{rules}: the game ends after {turn} with another margin"),
            None => assert_eq!(table_margin(&p), margin, "{rules}: {turn} gives up some of the margin"),
        }
    }
    assert_eq!(report["line_end"]["kind"], "over", "{rules}: {report}");
}

#[test]
fn any_position_with_a_picture() {
    let dir = tempfile::tempdir().unwrap();
    let out = solve(dir.path(), &["kalah", "--position", "0,3,1,0/2,0,0,4 10-9 N"]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(text.contains("North to move") && text.contains("[ 10]"), "{text}");
    let report = json(&solve(dir.path(), &["kalah", "--position", "0,3,1,0/2,0,0,4 10-9 N", "--json"]));
    assert_eq!(report["parameters"]["pits"], 4);
    assert_eq!(report["to_move"], "north");
    // A finished game: its margin is the final store difference.
    let over = json(&solve(dir.path(), &["kalah", "--position", "0,0/1,2 5-4 S", "--json"]));
    assert_eq!(over["value"]["score"], 5 - 4 - 3);
    assert_eq!(over["moves"].as_array().unwrap().len(), 0);
}

#[test]
fn bad_input_is_a_clear_error() {
    let dir = tempfile::tempdir().unwrap();
    for (args, expected) in [
        (vec!["kalah", "--position", "4,4/4 0-0 S"], "both rows must be equally long"),
        (vec!["kalah", "--position", "4,4/4,4 0-0 X"], "side to move"),
        (vec!["kalah", "--pits", "3", "--position", "4,4/4,4 0-0 S"], "the position has 2 pits a row, the request 3"),
        (vec!["kalah", "--pits", "9"], "--pits: 9 is not in 1 to 8"),
        (vec!["kalah", "--pits", "3", "--seeds", "0"], "--seeds: 0 is not in 1 to 255"),
        // 16 pits times 2^28 seeds would be 2^32 seeds: refused as a request, as the API
        // refuses it, before any board is made.
        (vec!["kalah", "--pits", "8", "--seeds", "268435456"], "--seeds: 268435456 is not in 1 to 255"),
        (vec!["kalah", "--capture", "sometimes"], "capture switch"),
        (vec!["kalah", "--pits", "2", "--seeds", "1", "--table", "--endgame-seeds", "1"], "cannot be used with"),
        (vec!["kalah", "--position", "2,2/2,2 250-0 S"], "a game here has at most 255 in all"),
    ] {
        let out = solve(dir.path(), &args);
        assert!(!out.status.success(), "{args:?} succeeded");
        assert!(stderr(&out).contains(expected), "{args:?}: {}", stderr(&out));
    }
    let out = solve(dir.path(), &["kalah", "--rules", "nonsense"]);
    assert!(!out.status.success());
}

/// A damaged table stops the search with its file named and the way out, each said once
/// (the error's message holds its cause; the printer must not add it again).
#[test]
fn a_damaged_table_is_named_once() {
    let dir = tempfile::tempdir().unwrap();
    let args = ["kalah", "--pits", "3", "--seeds", "2", "--endgame-seeds", "6"];
    assert!(solve(dir.path(), &args).status.success());
    let tier = dir.path().join("kalah/m3-empty-capture/tier-5.tbl");
    let bytes = std::fs::read(&tier).unwrap();
    std::fs::write(&tier, &bytes[..bytes.len() / 2]).unwrap();
    let out = solve(dir.path(), &args);
    assert!(!out.status.success());
    let err = stderr(&out);
    assert_eq!(err.matches("tier-5.tbl: truncated").count(), 1, "{err}");
    assert_eq!(err.matches("remove the file to have it rebuilt").count(), 1, "{err}");
}

#[test]
fn verify_table_checks_kalah_score_tables() {
    let dir = tempfile::tempdir().unwrap();
    let out = solve(dir.path(), &["kalah", "--pits", "2", "--seeds", "3", "--table"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let tables = dir.path().join("kalah/m2-empty-capture");
    let out = Command::new(env!("CARGO_BIN_EXE_solve")).arg("verify-table").arg(&tables).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(String::from_utf8_lossy(&out.stdout).contains("every stored value equals"));
}

/// The published values up to 50 seeds: the default set plus Kalah(4,6), (5,5) and (6,4),
/// weakly solved above 18-seed tables; then the margin of Kalah(6,4) from the later
/// source. Minutes on 2 cores, so run on request:
/// `cargo test --release -p mancala-cli --test kalah_cli -- --ignored`.
#[test]
#[ignore]
fn verify_reproduces_the_published_values_up_to_fifty_seeds() {
    let dir = tempfile::tempdir().unwrap();
    let data = concat!(env!("CARGO_MANIFEST_DIR"), "/../../data/published");
    // The spec's table, then the later source (its Kalah(6,4) row; (6,5) has 60 seeds).
    for (file, checked) in [("kalah.tsv", 33), ("kalah-rawlings.tsv", 1)] {
        let published = format!("{data}/{file}");
        let args = ["verify", "kalah", "--published", &published, "--max-seeds", "50", "--endgame-seeds", "18"];
        let out = solve(dir.path(), &args);
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(out.status.success(), "{text}\n{}", stderr(&out));
        assert!(text.contains(&format!("{checked} published values checked, 0 disagreements")), "{text}");
    }
}

/// The 244 Kalah(6,3) positions of CMancala's opening book (standard rules, built in),
/// each margin recomputed by a search above the automatic tables.
#[test]
fn verify_positions_reproduces_the_opening_book_of_kalah_6_3() {
    let dir = tempfile::tempdir().unwrap();
    let out = solve(dir.path(), &["verify", "kalah-positions"]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text}\n{}", stderr(&out));
    assert!(text.contains("244 published margins checked, 0 disagreements"), "{text}");
    // South's opening `1` leaves North a margin of +14.
    assert!(text.contains("3,3,3,3,3,3/0,4,4,4,3,3 0-0 S      standard             +14       +14"), "{text}");
}

/// A wrong margin, or a best move that loses some of it, is a disagreement naming its
/// source; a margin the position cannot reach, a move it does not have, or a row of the
/// wrong shape, is a fault of the file, named by its line.
#[test]
fn verify_positions_fails_on_a_disagreement_and_names_a_bad_row() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("positions.tsv");
    let run = |text: &str| {
        std::fs::write(&file, text).unwrap();
        solve(dir.path(), &["verify", "kalah-positions", "--published", file.to_str().unwrap()])
    };
    let out = run("rules\tposition\tmargin\tbest\tsource\nstandard\t1,0/0,1 3-3 S\t+2\t\ta test\n");
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stdout).contains("DISAGREES with a test"), "{}", stderr(&out));
    // South's margin is −1, kept by pit 2 alone (pit 1 leaves −3).
    let out = run("standard\t1,2/1,1 0-0 S\t-1\t1\ta test\n");
    assert!(!out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("DISAGREES with a test: its best move loses some of the margin"), "{text}");
    let out = run("standard\t1,2/1,1 0-0 S\t-1\t2\ta test\n");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text}\n{}", stderr(&out));
    assert!(text.contains("2 ok") && text.contains("1 published margins checked, 0 disagreements"), "{text}");
    for (text, expected) in [
        ("standard\t1,0/0,1 3-3 S\t+9\t\tx\n", "positions.tsv:1: margin +9 is out of reach"),
        ("standard\t1,0/0,1 3-3 S\t+2\n", "positions.tsv:1: expected five tab-separated fields"),
        ("standard\t1,0/0,1 3-3 S\t0\t2\tx\n", "positions.tsv:1: best 2 is no move"),
        ("standard\t1,0/0,1 3-3\t+2\t\tx\n", "positions.tsv:1: position"),
        ("no-such\t1,0/0,1 3-3 S\t+2\t\tx\n", "positions.tsv:1: rules"),
    ] {
        let out = run(text);
        assert!(!out.status.success(), "{text}");
        assert!(stderr(&out).contains(expected), "{text}: {}", stderr(&out));
    }
}

/// The Kalah(6,4) rows of the opening book too (488 positions). About half an hour on 2
/// cores, so run on request:
/// `cargo test --release -p mancala-cli --test kalah_cli -- --ignored`.
#[test]
#[ignore]
fn verify_positions_reproduces_the_opening_book_of_kalah_6_4() {
    let dir = tempfile::tempdir().unwrap();
    let out = solve(dir.path(), &["verify", "kalah-positions", "--max-seeds", "48"]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text}\n{}", stderr(&out));
    assert!(text.contains("488 published margins checked, 0 disagreements"), "{text}");
}

/// The published values are built into the program: verify runs from any directory.
#[test]
fn verify_works_outside_the_repository() {
    let dir = tempfile::tempdir().unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_solve"))
        .args(["verify", "kalah", "--out"])
        .arg(dir.path().join("tables"))
        .current_dir(dir.path())
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text}\n{}", stderr(&out));
    assert!(text.contains("30 published values checked, 0 disagreements"), "{text}");
}

/// A finished game is answered from its stores and rows: no table of its seeds is built
/// and nothing is searched, however many seeds the rows hold.
#[test]
fn a_finished_game_builds_no_table_and_searches_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let out = solve(dir.path(), &["kalah", "--position", "0,0,0,0,0,0/10,10,10,10,10,10 0-0 S", "--json"]);
    let err = stderr(&out);
    assert!(out.status.success(), "{err}");
    assert!(!err.contains("transposition"), "{err}");
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    // North keeps the 60 seeds of his row (leftovers go to their owner).
    assert_eq!(report["value"]["score"], -60);
    assert_eq!(report["over"], true);
    assert_eq!(report["tables"]["positions"], 1, "tier 0 alone");
    assert_eq!(report["details"]["solved"], "strongly");
    assert_eq!(report["details"]["search"], serde_json::Value::Null);
}

/// How a value was found, said in words: a game over, every position a probe, or a
/// search; a line that plays on to the end does not make the position itself over.
#[test]
fn the_report_says_how_the_value_was_found() {
    let dir = tempfile::tempdir().unwrap();
    for (args, said) in [
        (&["kalah", "--position", "0,0,0/4,4,4 0-0 S"][..], "solved strongly: the game is over here"),
        (
            &["kalah", "--pits", "3", "--seeds", "3", "--table"],
            "solved strongly: every position of this game is one table probe",
        ),
        (&["kalah", "--pits", "3", "--seeds", "3", "--endgame-seeds", "10"], "solved weakly: MTD(f) search"),
    ] {
        let out = solve(dir.path(), args);
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(out.status.success(), "{args:?}: {}", stderr(&out));
        assert!(text.contains(said), "{args:?}: {text}");
        assert!(text.contains("then: game over"), "{args:?}: the line plays to the end: {text}");
    }
}

/// A position of many seeds says what it will need before building anything, and is
/// refused when that does not fit; more seeds than a pit holds are refused at once.
#[test]
fn a_huge_position_is_sized_first_and_refused_when_it_cannot_fit() {
    let dir = tempfile::tempdir().unwrap();
    // 2^36 entries of 16 bytes: 1 TiB of transposition table.
    let out = solve(dir.path(), &["kalah", "--position", "0,3,1,200/2,0,0,4 10-9 N", "--tt-bits", "36"]);
    let err = stderr(&out);
    assert!(!out.status.success(), "{err}");
    assert!(err.contains("210 seeds in the pits; endgame tables up to"), "{err}");
    assert!(err.contains("transposition table of at most 1.0 TiB"), "{err}");
    assert!(err.contains("may not finish"), "{err}");
    assert!(err.contains("does not fit") && err.contains("(lower --tt-bits)"), "{err}");
    assert!(std::fs::read_dir(dir.path()).unwrap().next().is_none(), "nothing built before the refusal");

    let out = solve(dir.path(), &["kalah", "--position", "0,3,1,250/2,0,0,4 10-9 N"]);
    assert!(!out.status.success());
    assert!(stderr(&out).contains("260 seeds in the pits: a pit holds at most 255"), "{}", stderr(&out));
}

/// A search its budget ends answers proven bounds, on the margin and on every move, each
/// holding the value the full table gives, the move it prefers and no line, and says why
/// it stopped: in JSON and in text.
#[test]
fn a_spent_budget_answers_bounds_that_hold_the_value() {
    let dir = tempfile::tempdir().unwrap();
    let full = json(&solve(dir.path(), &["kalah", "--pits", "4", "--seeds", "3", "--table", "--json"]));
    let budget = ["kalah", "--pits", "4", "--seeds", "3", "--endgame-seeds", "6", "--nodes", "50"];
    let bounded = json(&solve(dir.path(), &[&budget[..], &["--json"]].concat()));
    let holds = |value: &serde_json::Value, exact: &serde_json::Value| match value["kind"].as_str() {
        Some("bounds") => {
            let score = exact["score"].as_i64();
            value["lower"].as_i64() <= score && score <= value["upper"].as_i64()
        }
        _ => value == exact,
    };
    assert_eq!(bounded["value"]["kind"], "bounds", "{bounded}");
    assert!(holds(&bounded["value"], &full["value"]), "{bounded}");
    let (moves, exact) = (bounded["moves"].as_array().unwrap(), full["moves"].as_array().unwrap());
    assert_eq!(moves.len(), exact.len());
    for (m, e) in moves.iter().zip(exact) {
        assert_eq!((&m["move"], &m["position"]), (&e["move"], &e["position"]));
        assert!(holds(&m["value"], &e["value"]), "{m} {e}");
    }
    assert!(bounded["best"].is_string(), "{bounded}");
    assert_eq!(bounded["line"], serde_json::json!([]));
    assert_eq!(bounded["details"]["search"]["stopped"], "nodes", "{bounded}");
    assert_eq!(bounded["details"]["solved"], serde_json::Value::Null, "{bounded}");
    let nodes = bounded["details"]["search"]["nodes"].as_u64().unwrap();
    assert!(nodes <= 60, "{nodes} nodes for a budget of 50");

    let out = solve(dir.path(), &budget);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text}{}", stderr(&out));
    for said in [
        "preferred move:",
        "(not proven best)",
        "the value is not proven",
        "stopped by --nodes",
        "not solved within the budget",
    ] {
        assert!(text.contains(said), "{said}: {text}");
    }
}

/// `--no-search` answers from the full table, as `--table` does.
#[test]
fn no_search_answers_from_the_full_table() {
    let dir = tempfile::tempdir().unwrap();
    let report = json(&solve(dir.path(), &["kalah", "--pits", "3", "--seeds", "3", "--no-search", "--json"]));
    assert_eq!(report["details"]["solved"], "strongly", "{report}");
    assert_eq!(report["details"]["endgame_seeds"], 18, "{report}");
    assert_eq!(report["details"]["search"], serde_json::Value::Null, "{report}");
}

/// `--record` replays a Kalah game by whole turns, each valued as the full table values
/// it, a turn that loses margin marked; a turn that is not legal is named.
#[test]
fn a_record_is_replayed_turn_by_turn() {
    let dir = tempfile::tempdir().unwrap();
    let start = json(&solve(dir.path(), &["kalah", "--pits", "3", "--seeds", "2", "--table", "--json"]));
    let moves = start["moves"].as_array().unwrap();
    let worst = moves.iter().min_by_key(|m| m["value"]["score"].as_i64()).unwrap();
    assert!(worst["value"]["score"].as_i64() < start["value"]["score"].as_i64(), "{start}");
    let record = dir.path().join("kalah.txt");
    let header = "[Game \"kalah\"]\n[Board \"pits=3\"]\n[Rules \"empty-capture\"]\n[Start \"2,2,2/2,2,2 0-0 S\"]\n";
    std::fs::write(&record, format!("{header}\n1. {}\n", worst["move"].as_str().unwrap())).unwrap();
    let out = solve(dir.path(), &["kalah", "--record", record.to_str().unwrap()]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text}{}", stderr(&out));
    let line = text.lines().find(|l| l.trim_start().starts_with("1.")).unwrap();
    assert!(line.contains(&format!(" {} ", worst["move"].as_str().unwrap())), "{line}");
    assert!(line.contains("?? the position was"), "{line}");
    std::fs::write(&record, format!("{header}\n1. 9\n")).unwrap();
    let out = solve(dir.path(), &["kalah", "--record", record.to_str().unwrap()]);
    assert!(!out.status.success());
    assert!(stderr(&out).contains("move 1 of the record, `9`, is not legal at 2,2,2/2,2,2 0-0 S"), "{}", stderr(&out));
    let out = solve(dir.path(), &["kalah", "--record", record.to_str().unwrap(), "--pits", "4"]);
    assert!(stderr(&out).contains("cannot be used with"), "{}", stderr(&out));
}

/// A large instance is warned that its worse moves can take hours only where the budget
/// would let them (`--time` past an hour), not within the default minute.
#[test]
fn the_hours_warning_comes_only_with_hours_to_spend() {
    let dir = tempfile::tempdir().unwrap();
    let large = ["kalah", "--pits", "6", "--seeds", "5", "--endgame-seeds", "6", "--nodes", "2000"];
    let within = |time: &str| {
        let out = solve(dir.path(), &[&large[..], &["--time", time]].concat());
        assert!(out.status.success(), "{}", stderr(&out));
        stderr(&out).contains("can take hours")
    };
    assert!(!within("60"), "warned within a minute");
    assert!(within("86400"), "not warned with a day to spend");
}
