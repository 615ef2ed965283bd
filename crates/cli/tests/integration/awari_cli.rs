//! The `solve awari` command as a user runs it.

use crate::common::{json, solve, stderr};

use std::process::Command;

/// In a tier with cycles the first best move in order may go round a cycle that scores 0
/// while the position is worth more: the line leaves the tier instead, captures what the
/// value says, and the best move reported is the one it plays, even with no line asked.
#[test]
fn the_line_makes_the_value_and_its_first_move_is_the_best() {
    let dir = tempfile::tempdir().unwrap();
    json(&solve(dir.path(), &["awari", "--pits", "4", "--stones", "5", "--json"]));
    let position = "0,0,0,1,0,0,1,3";
    let p = json(&solve(dir.path(), &["awari", "--position", position, "--json"]));
    assert_eq!(p["value"]["score"], 1, "{p}");
    assert_eq!(p["line"][0], p["best"], "{p}");
    assert_ne!(p["line_end"]["kind"], "repetition", "a +1 made by endless play: {p}");
    let cut = json(&solve(dir.path(), &["awari", "--position", position, "--max-line", "0", "--json"]));
    assert_eq!(cut["best"], p["best"]);
    assert_eq!(cut["line"], serde_json::json!([]));
}

#[test]
fn builds_reports_and_answers_positions() {
    let dir = tempfile::tempdir().unwrap();
    let built = json(&solve(dir.path(), &["awari", "--stones", "7", "--json"]));
    let tiers = built["tiers"].as_array().unwrap();
    assert_eq!(tiers.len(), 8);
    // C(7 + 11, 11) boards; those with every non-mover pit full are the 1-stone boards.
    assert_eq!(tiers[7]["positions"], 31824);
    assert_eq!(tiers[7]["published_rule"], 31824 - 12);
    let in_tier_7: u64 = tiers[7]["values"].as_object().unwrap().values().map(|v| v.as_u64().unwrap()).sum();
    assert_eq!(in_tier_7, 31824);

    // Mover's sixth pit reaches the opponent's first and second: 2 and 3 there, 5 taken;
    // the one stone left (the mover's) is then his, the opponent having no move.
    let p = json(&solve(dir.path(), &["awari", "--position", "0,0,0,0,0,2, 1,2,0,0,0,1", "--json"]));
    assert_eq!(p["parameters"]["stones"], 6);
    assert_eq!(p["moves"][0]["captures"], 5);
    assert_eq!(p["value"], p["moves"][0]["value"]);
    assert_eq!(p["best"], "6");

    // The text form names the best move and the line.
    let text = solve(dir.path(), &["awari", "--position", "0 0 0 0 0 1 0 0 0 0 0 1"]);
    let text = String::from_utf8_lossy(&text.stdout);
    assert!(text.contains("value for the player to move: +0"), "{text}");
    assert!(text.contains("a position repeats"), "{text}");

    // Verify-table re-checks the directory.
    let tables = dir.path().join("awari").join("awari");
    let out = Command::new(env!("CARGO_BIN_EXE_solve")).arg("verify-table").arg(&tables).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
}

#[test]
fn positions_beyond_the_tables_and_bad_input_are_errors() {
    let dir = tempfile::tempdir().unwrap();
    solve(dir.path(), &["awari", "--stones", "3"]);
    let out = solve(dir.path(), &["awari", "--position", "4,0,0,0,0,0,0,0,0,0,0,1"]);
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("--stones 5"), "{}", String::from_utf8_lossy(&out.stderr));
    let out = solve(dir.path(), &["awari", "--stones", "3", "--position", "4,0,0,0,0,0,0,0,0,0,0,1"]);
    assert!(String::from_utf8_lossy(&out.stderr).contains("--stones 5"));
    for bad in ["1,2,3", "x,0,0,0,0,0,0,0,0,0,0,0", "40,9,0,0,0,0,0,0,0,0,0,0"] {
        let out = solve(dir.path(), &["awari", "--position", bad]);
        assert!(!out.status.success(), "{bad}");
        assert!(!String::from_utf8_lossy(&out.stderr).contains("panicked"), "{bad}");
    }
    let out = solve(dir.path(), &["awari", "--stones", "49"]);
    assert!(!out.status.success());
}

#[test]
fn small_boards_start_and_tables() {
    let dir = tempfile::tempdir().unwrap();
    let r = json(&solve(dir.path(), &["awari", "--pits", "2", "--seeds", "2", "--json"]));
    assert_eq!(
        (r["game"].as_str(), r["rules"].as_str(), r["parameters"]["pits"].as_u64(), r["parameters"]["seeds"].as_u64()),
        (Some("awari"), Some("awari"), Some(2), Some(2))
    );
    assert_eq!(r["parameters"]["stones"], 8);
    assert_eq!(r["value"]["kind"], "score");
    let best = r["moves"].as_array().unwrap().iter().map(|m| m["value"]["score"].as_i64().unwrap()).max().unwrap();
    assert_eq!(r["value"]["score"].as_i64(), Some(best), "the start's value is its best opening move's");
    let outcome = match best {
        v if v > 0 => "win",
        0 => "draw",
        _ => "loss",
    };
    assert_eq!(r["value"]["outcome"], outcome);
    assert!(dir.path().join("awari").join("awari-m2").join("tier-8.tbl").exists());
    // The small board's tables answer positions of its size, and verify.
    let p = json(&solve(dir.path(), &["awari", "--position", "1,1,1,0", "--json"]));
    assert_eq!(p["best"], "1", "pit 2 would take all the opponent has");
    let out = Command::new(env!("CARGO_BIN_EXE_solve"))
        .arg("verify-table")
        .arg(dir.path().join("awari").join("awari-m2"))
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    // --stones on a small board: no published counts (they are the real board's).
    let t = json(&solve(dir.path(), &["awari", "--pits", "3", "--stones", "4", "--json"]));
    assert_eq!(t["tiers"][4]["positions"], 126);
    assert!(t["tiers"][4]["published_rule"].is_null());
}

/// The real board's start (48 stones), whose tables are far past this machine, is
/// answered by a search above the tables that fit, within --time.
#[test]
fn the_real_board_start_is_answered_by_a_search() {
    let dir = tempfile::tempdir().unwrap();
    let out = solve(dir.path(), &["awari", "--seeds", "4", "--time", "3", "--json"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let report = json(&out);
    assert!(["score", "bounds"].contains(&report["value"]["kind"].as_str().unwrap()), "{report}");
    assert!(report["details"]["search"]["nodes"].as_u64().unwrap() > 0, "{report}");
}

#[test]
fn trysse_and_wari_solve_the_start_and_positions() {
    let dir = tempfile::tempdir().unwrap();
    let r = json(&solve(dir.path(), &["awari", "--rules", "trysse", "--pits", "3", "--seeds", "3", "--json"]));
    for (field, value) in [("game", "oware"), ("rules", "trysse")] {
        assert_eq!(r[field], value);
    }
    let parameters = &r["parameters"];
    assert_eq!(
        (parameters["pits"].as_u64(), parameters["seeds"].as_u64(), parameters["target"].as_u64()),
        (Some(3), Some(3), Some(8))
    );
    assert!(["win", "draw", "loss"].contains(&r["value"]["outcome"].as_str().unwrap()));
    assert_eq!(r["value"]["plies"].is_null(), r["value"]["outcome"] == "draw");
    let moves = r["moves"].as_array().unwrap();
    assert_eq!(moves.len(), 3);
    assert!(moves.iter().all(|m| m["value"]["outcome"].is_string() && m["move"].is_string()));
    assert!(r["tables"]["positions"].as_u64().unwrap() > 100_000);
    assert!(dir.path().join("oware").join("trysse-m3-s3-t8").join("tier-18.tbl").exists());

    // A position: notation with the captured counts; --pits and --seeds follow from it.
    // Pit 2 takes the opponent's only stone and brings the mover to 5, Wari's target on 8.
    let p = json(&solve(dir.path(), &["awari", "--rules", "wari", "--position", "0,1,1,0 3-3", "--json"]));
    let parameters = &p["parameters"];
    assert_eq!(
        (parameters["pits"].as_u64(), parameters["seeds"].as_u64(), parameters["target"].as_u64()),
        (Some(2), Some(2), Some(5))
    );
    assert_eq!(
        (p["over"].as_bool(), p["value"]["outcome"].as_str(), p["value"]["plies"].as_u64()),
        (Some(false), Some("win"), Some(1))
    );
    assert_eq!(p["best"], "2");
    let text = solve(dir.path(), &["awari", "--rules", "wari", "--position", "1,0,0,0 4-3"]);
    let text = String::from_utf8_lossy(&text.stdout);
    assert!(text.contains("the game is over: win"), "{text}");

    // The new tables pass the verifier.
    let out = Command::new(env!("CARGO_BIN_EXE_solve"))
        .arg("verify-table")
        .arg(dir.path().join("oware").join("wari-m2-s2-t5"))
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
}

#[test]
fn bad_pits_and_rule_combinations_are_errors() {
    let dir = tempfile::tempdir().unwrap();
    let cases: [(&[&str], &str); 9] = [
        (&["awari", "--pits", "0", "--seeds", "1"], "--pits: 0 is not in 1 to 6"),
        (&["awari", "--pits", "7", "--stones", "4"], "1 to 6 pits"),
        (&["awari", "--rules", "trysse", "--pits", "9", "--seeds", "1"], "--pits: 9 is not in 1 to 6"),
        (&["awari", "--target", "5", "--pits", "2", "--seeds", "2"], "only --rules trysse and wari"),
        (&["awari", "--rules", "wari", "--stones", "8"], "--seeds"),
        (&["awari", "--rules", "trysse", "--pits", "3"], "--seeds"),
        (&["awari", "--rules", "wari", "--pits", "2", "--seeds", "2", "--target", "9"], "between 1 and the 8"),
        (&["awari", "--pits", "3", "--position", "1,1,1,1"], "the position has 2 pits a row, the request 3"),
        (&["awari", "--rules", "trysse", "--pits", "2", "--seeds", "2", "--position", "2,2,2,2 1-0"], "9 stones"),
    ];
    for (args, message) in cases {
        let out = solve(dir.path(), args);
        assert!(!out.status.success(), "{args:?}");
        assert!(stderr(&out).contains(message), "{args:?}: {}", stderr(&out));
        assert!(!stderr(&out).contains("panicked"), "{args:?}");
    }
}

/// A position above the tables built is refused, naming the tiers it needs that are
/// missing and the command that builds them; the tiers play cannot reach are not asked for.
#[test]
fn a_position_beyond_the_tables_built_names_what_it_needs() {
    let dir = tempfile::tempdir().unwrap();
    assert!(solve(dir.path(), &["awari", "--pits", "3", "--stones", "2"]).status.success());
    let out = solve(dir.path(), &["awari", "--pits", "3", "--position", "1,1,1,1,1,0"]);
    assert!(!out.status.success());
    let error = stderr(&out);
    // Five stones reach three and two (a capture takes two or three), never four.
    assert!(error.contains("tiers 3 and 5 are missing (308 positions)"), "{error}");
    assert!(error.contains("solve awari --pits 3 --stones 5 --out"), "{error}");
    // The command it names builds what the position needs.
    let tables = json(&solve(dir.path(), &["awari", "--pits", "3", "--stones", "5", "--json"]));
    // No published index rule off the real board: null, not left out.
    assert!(tables["tiers"][5]["published_rule"].is_null() && tables["tiers"][5].get("published_rule").is_some());
    let answered = json(&solve(dir.path(), &["awari", "--pits", "3", "--position", "1,1,1,1,1,0", "--json"]));
    assert_eq!(answered["tables"]["tiers_built"], 0);
}

/// A match Aualé wrote (`crates/tablebase/tests/ogn/`).
fn aualé(name: &str) -> String {
    format!("{}/../tablebase/tests/ogn/{name}", env!("CARGO_MANIFEST_DIR"))
}

/// `--record` reads Aualé's OGN (its first tag `Variant`) as Wari: the match from its FEN
/// (North to move) replayed move by move, above the tables by a short search.
#[test]
fn an_ogn_match_of_aualé_is_replayed_as_wari() {
    let dir = tempfile::tempdir().unwrap();
    let budget = ["--time", "0.3", "--nodes", "200"];
    let out = solve(dir.path(), &[&["awari", "--record", &aualé("auale-fen.ogn")][..], &budget].concat());
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(
        text.starts_with("wari 6x4: 6 pits a row, 4 stones in each (48 stones), first to capture 25 wins\n"),
        "{text}"
    );
    assert!(text.contains("record of 12 moves, from 0,7,7,0,2,0,7,3,1,9,0,9 0-3\nNorth to move: "), "{text}");
    assert!(text.contains("\n   1. North  3 ") && text.contains("\n  12. South  2 "), "{text}");
}

/// Aualé's Abapa lets a grand slam capture nothing; Wari takes the stones: the replay
/// stops at the move whose captures are not the record's. A malformed match is refused
/// with its line.
#[test]
fn an_ogn_match_that_parts_from_wari_or_breaks_the_notation_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let budget = ["--time", "0.3", "--nodes", "200"];
    let out = solve(dir.path(), &[&["awari", "--record", &aualé("auale-grand-slam.ogn")][..], &budget].concat());
    assert!(!out.status.success());
    let error = stderr(&out);
    assert!(
        error.contains("move 6 of the record, South's pit 6, captures 2 stones under these rules; the record says 0"),
        "{error}"
    );
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("\n   5. North  6 "), "the moves before it are replayed: {text}");

    let bad = dir.path().join("bad.ogn");
    std::fs::write(&bad, "[Variant \"Oware Abapa\"]\n\n1. A b\n2. C+x d\n").unwrap();
    let out = solve(dir.path(), &["awari", "--record", bad.to_str().unwrap()]);
    assert!(!out.status.success());
    let error = stderr(&out);
    assert!(error.contains("is not an OGN match") && error.contains("line 4: `C+x` is not an OGN move"), "{error}");
}
