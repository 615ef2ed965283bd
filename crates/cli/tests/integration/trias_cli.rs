//! `solve trias`: the start's value, positions, laps, reuse of tables, and bad input.

use crate::common::{json, solve, stderr};

#[test]
fn the_start_is_solved_with_its_moves_and_line() {
    let dir = tempfile::tempdir().unwrap();
    let report = json(&solve(dir.path(), &["trias", "--holes", "3", "--stones", "1", "--json"]));
    assert_eq!(report["parameters"], serde_json::json!({ "holes": 3, "stones": 1 }));
    assert_eq!(report["start"], true);
    assert_eq!(report["to_move"], "south");
    assert_eq!(report["position"], "1,1,1/1,1,1/1,1,1 S");
    // Trias has no draws; the value and the line agree on the plies.
    let value = &report["value"];
    assert!(["win", "loss"].contains(&value["outcome"].as_str().unwrap()), "{value}");
    assert_eq!(value["plies"].as_u64().unwrap() as usize, report["line"].as_array().unwrap().len());
    assert_eq!(report["line_end"]["kind"], "over");
    let moves = report["moves"].as_array().unwrap();
    assert!(!moves.is_empty());
    assert!(moves.iter().any(|m| m["move"] == report["best"] && m["value"] == *value), "{report}");
    let reachable = &report["reachable"];
    assert_eq!(
        reachable["positions"].as_u64().unwrap(),
        reachable["win"].as_u64().unwrap() + reachable["loss"].as_u64().unwrap()
    );
    // Every tier up to 9 stones was built; a second run reuses them all.
    assert_eq!(report["tables"]["tiers_built"], 10);
    let again = json(&solve(dir.path(), &["trias", "--holes", "3", "--stones", "1", "--json"]));
    assert_eq!(
        (again["tables"]["tiers_built"].as_u64(), again["tables"]["tiers_reused"].as_u64()),
        (Some(0), Some(10))
    );
    assert_eq!(again["value"], *value);
}

#[test]
fn a_position_is_analysed_and_its_laps_explained() {
    let dir = tempfile::tempdir().unwrap();
    // South's hole 2: a relay, a transfer onto S1 and two more relays (games' trias_rules).
    let position = "0,0,0/0,0,1/1,2,0 S";
    let report = json(&solve(dir.path(), &["trias", "--position", position, "--explain", "--build", "--json"]));
    assert_eq!(report["position"], position);
    assert_eq!(report["start"], false);
    assert_eq!(report["parameters"]["stones"], serde_json::Value::Null);
    let moves = report["moves"].as_array().unwrap();
    let two = moves.iter().find(|m| m["move"] == "2").expect("hole 2 is a move");
    assert_eq!(two["position"], "0,0,0/1,0,1/0,1,0 N");
    let laps = &report["details"]["laps"];
    let two_laps = laps.as_array().unwrap().iter().find(|m| m["move"] == "2").unwrap();
    let ends: Vec<&str> = two_laps["laps"].as_array().unwrap().iter().map(|l| l["end"].as_str().unwrap()).collect();
    assert_eq!(ends, ["relay", "transfer", "relay", "relay", "removed"]);
    assert_eq!(two_laps["laps"][1]["to"], "S1");

    let text = solve(dir.path(), &["trias", "--position", position, "--explain"]);
    assert!(text.status.success(), "{}", stderr(&text));
    let text = String::from_utf8_lossy(&text.stdout);
    assert!(text.contains("S  1 2 0   <- South to move"), "{text}");
    assert!(text.contains("M3 2 -> M1 empty: onto S1"), "{text}");
}

#[test]
fn a_position_beyond_the_tables_built_names_what_it_needs() {
    let dir = tempfile::tempdir().unwrap();
    assert!(solve(dir.path(), &["trias", "--holes", "2", "--stones", "1"]).status.success());
    // Seven stones on 3x2: the tables stop at six.
    let position = "2,0/1,1/3,0 S";
    let out = solve(dir.path(), &["trias", "--position", position]);
    assert!(!out.status.success());
    let error = stderr(&out);
    assert!(error.contains("tier 7 is missing (792 positions)"), "{error}");
    assert!(error.contains("solve trias --holes 2 --stones 2 --out"), "{error}");
    // Within them it answers at once, building nothing.
    let within = json(&solve(dir.path(), &["trias", "--position", "2,0/1,0/3,0 S", "--json"]));
    assert_eq!(within["tables"]["tiers_built"], 0);
    // --build builds just the missing tier.
    let built = json(&solve(dir.path(), &["trias", "--position", position, "--build", "--json"]));
    assert_eq!((built["tables"]["tiers_built"].as_u64(), built["tables"]["tiers_reused"].as_u64()), (Some(1), Some(7)));
}

/// A position whose tables are too large to build here is answered by a search above
/// the tables that fit: without --build those already built (none here), with --build
/// those it builds within its time.
#[test]
fn a_position_too_large_to_build_here_is_searched() {
    let dir = tempfile::tempdir().unwrap();
    // The second is on a board past a 64-bit index at 30 stones (3x9, 2 a hole).
    let thirty = "4,4,4,4,4,4,4,2,0/0,0,0,0,0,0,0,0,0/0,0,0,0,0,0,0,0,0 S";
    for (position, build) in [("9,9,9/9,9,9/9,9,9 N", &[][..]), ("9,9,9/9,9,9/9,9,9 N", &["--build"]), (thirty, &[])] {
        let args = [&["trias", "--position", position, "--time", "2", "--json"][..], build].concat();
        let out = solve(dir.path(), &args);
        assert!(out.status.success(), "{args:?}: {}", stderr(&out));
        let report = json(&out);
        assert!(report["details"]["search"]["nodes"].as_u64().is_some(), "{report}");
        assert!(["outcome", "bounds"].contains(&report["value"]["kind"].as_str().unwrap()), "{report}");
    }
}

/// The source's board (3x12, 4 stones a hole) is answered within its node budget, with
/// proven bounds; `--no-search` refuses it, saying no index numbers its tables.
#[test]
fn the_source_board_is_searched_and_refused_from_full_tables_only() {
    let dir = tempfile::tempdir().unwrap();
    let source = ["trias", "--holes", "12", "--stones", "4"];
    let out = solve(dir.path(), &[&source[..], &["--time", "4", "--nodes", "200000", "--json"]].concat());
    assert!(out.status.success(), "{}", stderr(&out));
    let report = json(&out);
    assert_eq!(report["value"]["kind"], "bounds", "{report}");
    assert_eq!(report["details"]["search"]["stopped"], "nodes", "{report}");
    assert_eq!(report["moves"].as_array().map(Vec::len), Some(12), "{report}");
    let refused = solve(dir.path(), &[&source[..], &["--no-search"]].concat());
    assert!(!refused.status.success());
    assert!(stderr(&refused).contains("more positions than a 64-bit index can number"), "{}", stderr(&refused));
}

/// 3x5 with 1 stone a hole: its tables (1.6 × 10⁸ positions, 15 s to build) take longer
/// than a short search, which proves the start and every opening move as the tables do
/// (docs/results.md's row, built with `--no-search`).
#[test]
fn a_long_build_is_preceded_by_a_search_that_proves_the_start() {
    let dir = tempfile::tempdir().unwrap();
    let searched = json(&solve(dir.path(), &["trias", "--holes", "5", "--stones", "1", "--json"]));
    assert!(searched["details"]["search"]["nodes"].as_u64().is_some(), "{searched}");
    let short = |v: &serde_json::Value| format!("{}{}", &v["outcome"].as_str().unwrap()[..1], v["plies"]);
    assert_eq!(short(&searched["value"]), "l4");
    let moves: Vec<String> = searched["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| format!("{}: {}", m["move"].as_str().unwrap(), short(&m["value"])))
        .collect();
    assert_eq!(moves, ["1: l2", "2: l2", "3: l4", "4: l2", "5: l4"]);
}

/// The command a missing table names runs, even for a board with no stone, whose tables
/// a start of one stone a hole builds (no start has none).
#[test]
fn an_empty_board_names_a_command_that_builds_its_table() {
    let dir = tempfile::tempdir().unwrap();
    let out = solve(dir.path(), &["trias", "--position", "0,0/0,0/0,0 S"]);
    let error = stderr(&out);
    assert!(!out.status.success() && error.contains("this position has 0 stones"), "{error}");
    assert!(error.contains("`solve trias --holes 2 --stones 1 --out"), "{error}");
    assert!(solve(dir.path(), &["trias", "--holes", "2", "--stones", "1"]).status.success());
    assert!(solve(dir.path(), &["trias", "--position", "0,0/0,0/0,0 S"]).status.success());
}

#[test]
fn north_to_move_is_named_from_his_side() {
    let dir = tempfile::tempdir().unwrap();
    let report = json(&solve(dir.path(), &["trias", "--position", "0,2,0/1,0,0/0,0,0 N", "--build", "--json"]));
    assert_eq!(report["to_move"], "north");
    let moves: Vec<&str> = report["moves"].as_array().unwrap().iter().map(|m| m["move"].as_str().unwrap()).collect();
    assert_eq!(moves, ["2"]);
    assert_eq!(report["value"], serde_json::json!({ "kind": "outcome", "outcome": "win", "plies": 1 }));
}

#[test]
fn trias_tables_are_found_by_info_and_verify_table() {
    let dir = tempfile::tempdir().unwrap();
    assert!(solve(dir.path(), &["trias", "--holes", "2", "--stones", "2"]).status.success());
    let root = dir.path().to_str().unwrap();
    let verify = std::process::Command::new(env!("CARGO_BIN_EXE_solve")).args(["verify-table", root]).output().unwrap();
    assert!(verify.status.success(), "{}", stderr(&verify));
    assert!(String::from_utf8_lossy(&verify.stdout).contains("trias"), "{}", String::from_utf8_lossy(&verify.stdout));
    let info = std::process::Command::new(env!("CARGO_BIN_EXE_solve")).args(["info", root]).output().unwrap();
    assert!(info.status.success(), "{}", stderr(&info));
    assert!(String::from_utf8_lossy(&info.stdout).contains("trias holes=2"));
}

#[test]
fn bad_input_is_named() {
    let dir = tempfile::tempdir().unwrap();
    let cases: [(&[&str], &str); 8] = [
        (&["trias", "--holes", "3"], "--position: give holes and stones (the start) or a position"),
        // 36 holes times 2^30 stones: named as given, not wrapped to 32 bits.
        (&["trias", "--holes", "12", "--stones", "1073741824"], "--stones: 1073741824 is not in 1 to 255"),
        (&["trias", "--holes", "13", "--stones", "1"], "--holes: 13 is not in 1 to 12"),
        (&["trias", "--holes", "12", "--stones", "9"], "more than 255 stones"),
        (&["trias", "--holes", "3", "--stones", "0"], "--stones: 0 is not in 1 to 255"),
        (&["trias", "--position", "1,1/1,1/1,x S"], "file 2"),
        (&["trias", "--position", "1,1/1,1/1,1 S", "--holes", "3"], "the position has 2 holes a row, the request 3"),
        (&["trias", "--position", "1,1/1,1/1,1 S", "--stones", "1"], "give stones (the start) or a position, not both"),
        // The source's full board: far beyond any table.
    ];
    for (args, expected) in cases {
        let out = solve(dir.path(), args);
        assert!(!out.status.success(), "{args:?} succeeded");
        assert!(stderr(&out).contains(expected), "{args:?}: {}", stderr(&out));
    }
}

#[test]
fn verify_checks_the_tables_built() {
    let dir = tempfile::tempdir().unwrap();
    let out = solve(dir.path(), &["trias", "--holes", "3", "--stones", "1", "--verify"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(String::from_utf8_lossy(&out.stdout).contains("verified: every stored value"), "{}", stderr(&out));
    // Outcomes with distance: the check is a proof, with no caveat.
    assert!(!stderr(&out).contains("necessary, not sufficient"), "{}", stderr(&out));
}

/// The `--build` example of the README and `--help` shows what it is there to show: a
/// position with moves, a best one and a line (an early example was a finished game).
#[test]
fn the_build_example_shows_a_line() {
    let dir = tempfile::tempdir().unwrap();
    let help = solve(dir.path(), &["trias", "--help"]);
    let help = String::from_utf8_lossy(&help.stdout);
    let example =
        help.lines().find(|l| l.contains("solve trias --position") && l.ends_with("--build")).expect("an example");
    let position = example.split('"').nth(1).expect("a quoted position");
    let report = json(&solve(dir.path(), &["trias", "--position", position, "--build", "--json"]));
    assert_eq!(report["over"], false, "{report}");
    assert!(report["moves"].as_array().is_some_and(|m| m.len() > 1), "{report}");
    assert!(report["line"].as_array().is_some_and(|l| l.len() > 2), "{report}");
    let readme = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../../README.md")).unwrap();
    assert!(readme.contains(&format!("solve trias --position \"{position}\" --build")), "the README shows another");
}

/// The offset of the body of a proof file (docs/format.md): past the fixed fields and
/// the header's four texts.
fn proof_body_at(bytes: &[u8]) -> usize {
    let mut at = 27;
    for _ in 0..4 {
        let len = u32::from_le_bytes(bytes[at..at + 4].try_into().unwrap()) as usize;
        at += 4 + len;
    }
    at
}

/// `bytes` with their checksum made again, as a proof file's last eight bytes.
fn with_checksum(mut bytes: Vec<u8>) -> Vec<u8> {
    let len = bytes.len() - 8;
    let sum = xxhash_rust::xxh3::xxh3_64(&bytes[..len]);
    bytes[len..].copy_from_slice(&sum.to_le_bytes());
    bytes
}

#[test]
fn a_start_is_proven_kept_in_its_file_and_the_proof_checked() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("t.proof");
    let file = file.to_str().unwrap();
    // 3×6 with 1 stone a hole: a loss in 4 plies (data/golden/trias-starts.tsv), above
    // the tables built in a second.
    let prove = ["trias", "--holes", "6", "--stones", "1", "--prove", "--proof", file, "--time", "4", "--json"];
    let proven = json(&solve(dir.path(), &prove));
    assert_eq!(proven["value"], "loss", "{proven}");
    assert!(proven["plies"].as_u64().unwrap() >= 4);
    assert!(proven["proof"]["nodes"].as_u64().unwrap() > 1 && proven["proof"]["bytes"].as_u64().unwrap() > 0);
    let moves = proven["moves"].as_array().unwrap();
    assert_eq!(moves.len(), 6);
    assert!(moves.iter().all(|m| m["proven"] == "loss"), "{proven}");
    let checked = solve(dir.path(), &["verify-proof", file]);
    assert!(checked.status.success(), "{}", stderr(&checked));
    assert!(String::from_utf8_lossy(&checked.stdout).starts_with("proof holds: loss"));
    // A second run reads the proof from the file.
    let again = json(&solve(dir.path(), &prove));
    assert_eq!((again["value"].clone(), again["nodes"].as_u64()), (proven["value"].clone(), Some(0)));

    // The root's replies cut by one, and the value changed: refused, naming the node.
    let bytes = std::fs::read(file).unwrap();
    let at = proof_body_at(&bytes);
    let replies = at + 2 + 1 + 2 + 8;
    assert_eq!(bytes[replies..replies + 3], [3, 6, 0], "the loser's root lists his replies");
    let mut cut = bytes.clone();
    cut[replies + 1] -= 1;
    std::fs::write(file, with_checksum(cut)).unwrap();
    let refused = solve(dir.path(), &["verify-proof", file]);
    assert!(!refused.status.success());
    assert!(stderr(&refused).contains("proof fails: tree 0, node 0"), "{}", stderr(&refused));
    let mut changed = bytes.clone();
    changed[at] = 1;
    std::fs::write(file, with_checksum(changed)).unwrap();
    assert!(stderr(&solve(dir.path(), &["verify-proof", file])).contains("a win is proven by"));
    // A byte flipped or the file cut short: refused as damaged, by both commands.
    let mut flipped = bytes.clone();
    flipped[at + 20] ^= 4;
    for damaged in [flipped, bytes[..bytes.len() - 5].to_vec()] {
        std::fs::write(file, damaged).unwrap();
        for args in [&["verify-proof", file][..], &prove] {
            let refused = solve(dir.path(), args);
            assert!(!refused.status.success());
            assert!(
                stderr(&refused).contains("checksum mismatch: the file is damaged or cut short"),
                "{}",
                stderr(&refused)
            );
        }
    }
}

#[test]
fn a_stopped_proof_search_continues_from_its_file() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("t.proof");
    let file = file.to_str().unwrap();
    let prove = ["trias", "--holes", "12", "--stones", "1", "--prove", "--proof", file, "--time", "8", "--json"];
    let stopped = json(&solve(dir.path(), &[&prove[..], &["--nodes", "1"]].concat()));
    assert_eq!((stopped["value"].clone(), stopped["stopped"].clone()), (serde_json::Value::Null, "nodes".into()));
    let unfinished = solve(dir.path(), &["verify-proof", file]);
    assert!(stderr(&unfinished).contains("a search under way, not a proof"), "{}", stderr(&unfinished));
    let proven = json(&solve(dir.path(), &prove));
    assert_eq!(proven["value"], "loss");
    assert!(proven["total_nodes"].as_u64() > proven["nodes"].as_u64(), "{proven}");
    // Another board's command refuses the file.
    let other = solve(dir.path(), &["trias", "--holes", "11", "--stones", "1", "--prove", "--proof", file]);
    assert!(stderr(&other).contains("the proof is of game and rules `trias holes=12`"), "{}", stderr(&other));
    assert!(solve(dir.path(), &["verify-proof", file]).status.success());
}
