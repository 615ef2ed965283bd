//! The `solve awari` command as a user runs it.

use serde_json::Value as Json;
use std::path::Path;
use std::process::{Command, Output};

fn solve(out: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_solve")).args(args).arg("--out").arg(out).output().expect("run solve")
}

fn json(output: &Output) -> Json {
    assert!(output.status.success(), "solve failed: {}", String::from_utf8_lossy(&output.stderr));
    serde_json::from_slice(&output.stdout).expect("one JSON object")
}

#[test]
fn builds_reports_and_answers_positions() {
    let dir = tempfile::tempdir().unwrap();
    let built = json(&solve(dir.path(), &["awari", "--stones", "7", "--json"]));
    let tiers = built["tiers"].as_array().unwrap();
    assert_eq!(tiers.len(), 8);
    // C(7 + 11, 11) boards; those with every non-mover pit full are the 1-stone boards.
    assert_eq!(tiers[7]["entries"], 31824);
    assert_eq!(tiers[7]["published_rule"], 31824 - 12);
    let in_tier_7: u64 = tiers[7]["values"].as_object().unwrap().values().map(|v| v.as_u64().unwrap()).sum();
    assert_eq!(in_tier_7, 31824);

    // Mover's sixth pit reaches the opponent's first and second: 2 and 3 there, 5 taken;
    // the one stone left (the mover's) is then his, the opponent having no move.
    let p = json(&solve(dir.path(), &["awari", "--position", "0,0,0,0,0,2, 1,2,0,0,0,1", "--json"]));
    assert_eq!(p["stones"], 6);
    assert_eq!(p["moves"][0]["captures"], 5);
    assert_eq!(p["value"], p["moves"][0]["score"]);
    assert_eq!(p["best"], 6);

    // The text form names the best move and the line.
    let text = solve(dir.path(), &["awari", "--position", "0 0 0 0 0 1 0 0 0 0 0 1"]);
    let text = String::from_utf8_lossy(&text.stdout);
    assert!(text.contains("score for the player to move: +0"), "{text}");
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
