//! `solve njaka`: the start's value, positions, both variants, the tables' commands, and
//! bad input.

use crate::common::{json, run_named_command, solve, stderr};

#[test]
fn starts_of_both_variants_are_solved() {
    let dir = tempfile::tempdir().unwrap();
    for advanced in [false, true] {
        let mut args = vec!["njaka", "--holes", "6", "--counters", "2", "--json"];
        if advanced {
            args.extend(["--variant", "advanced"]);
        }
        let report = json(&solve(dir.path(), &args));
        assert_eq!(report["game"], "njaka");
        assert_eq!(report["rules"], if advanced { "advanced" } else { "standard" });
        assert_eq!(report["parameters"]["holes"], 6);
        assert_eq!(report["start"], true);
        assert_eq!(report["value"]["kind"], "score");
        let best = report["moves"].as_array().unwrap().iter().map(|m| m["value"]["score"].as_i64().unwrap()).max();
        assert_eq!(best, report["value"]["score"].as_i64());
        assert!(["over", "repetition"].contains(&report["line_end"]["kind"].as_str().unwrap()));
    }
}

/// Two moves may reach one position with different captures (a hole's owner captures
/// while the mover sows): the line names the move it plays, not the first that reaches
/// its next position. Here both empty the board; 1 leaves South 4 counters down, 2 up.
#[test]
fn the_line_names_the_move_played_where_two_reach_one_position() {
    let dir = tempfile::tempdir().unwrap();
    let report = json(&solve(dir.path(), &["njaka", "--holes", "4", "--counters", "3", "--direction", "cw", "--json"]));
    let scores: Vec<_> = report["moves"].as_array().unwrap().iter().map(|m| m["value"]["score"].clone()).collect();
    assert_eq!(scores, [-1, 1], "{report}");
    assert_eq!(report["moves"][0]["position"], report["moves"][1]["position"], "{report}");
    assert_eq!(report["best"], "2");
    assert_eq!(report["line"], serde_json::json!(["2"]), "{report}");
}

/// The command a missing table is answered with builds exactly the tables missing, in
/// the directory asked for, whatever the variant and direction.
#[test]
fn the_command_named_for_missing_tables_builds_them() {
    let root = tempfile::tempdir().unwrap();
    let (dir, elsewhere) = (root.path().join("my tables"), root.path().join("cwd"));
    std::fs::create_dir_all(&elsewhere).unwrap();
    let args = ["njaka", "--position", "2s,2n,2s,2n S", "--variant", "advanced", "--direction", "cw"];
    let out = solve(&dir, &args);
    assert!(!out.status.success());
    let built = run_named_command(&stderr(&out), &elsewhere);
    assert!(built.status.success(), "{}", stderr(&built));
    let answer = solve(&dir, &args);
    assert!(answer.status.success(), "{}", stderr(&answer));
    // The picture says which way the counters go round it.
    let text = String::from_utf8_lossy(&answer.stdout);
    assert!(text.contains("sowing clockwise: bottom row right to left, top row left to right"), "{text}");
    assert!(std::fs::read_dir(&elsewhere).unwrap().next().is_none(), "built outside --out");
}

#[test]
fn a_position_is_analysed_from_the_tables_built() {
    let dir = tempfile::tempdir().unwrap();
    // Hole 1's three counters make a four in North's hole 3 on the way: North's set.
    let position = "3s,0s,3n,0n S";
    let out = solve(dir.path(), &["njaka", "--position", position]);
    assert!(!out.status.success());
    assert!(stderr(&out).contains("--build"), "{}", stderr(&out));
    let report = json(&solve(dir.path(), &["njaka", "--position", position, "--build", "--json"]));
    assert_eq!(report["position"], position);
    let one = report["moves"].as_array().unwrap().iter().find(|m| m["move"] == "1").unwrap();
    assert_eq!(one["position"], "0s,1s,0n,1n N");
    let text = solve(dir.path(), &["njaka", "--position", position]);
    assert!(text.status.success(), "{}", stderr(&text));
    assert!(String::from_utf8_lossy(&text.stdout).contains("South to move"));
    assert!(String::from_utf8_lossy(&text.stdout).contains("sowing counterclockwise: bottom row left to right"));
}

#[test]
fn njaka_tables_are_found_by_info_and_verify_table() {
    let dir = tempfile::tempdir().unwrap();
    assert!(solve(dir.path(), &["njaka", "--holes", "4", "--counters", "3", "--variant", "advanced"]).status.success());
    let root = dir.path().to_str().unwrap();
    let verify = std::process::Command::new(env!("CARGO_BIN_EXE_solve")).args(["verify-table", root]).output().unwrap();
    assert!(verify.status.success(), "{}", stderr(&verify));
    let info = std::process::Command::new(env!("CARGO_BIN_EXE_solve")).args(["info", root]).output().unwrap();
    assert!(String::from_utf8_lossy(&info.stdout).contains("njaka holes=4 variant=advanced direction=ccw"));
}

#[test]
fn bad_input_is_named() {
    let dir = tempfile::tempdir().unwrap();
    let cases: [(&[&str], &str); 5] = [
        (&["njaka", "--holes", "6"], "--position: give holes and counters (the start) or a position"),
        (&["njaka", "--holes", "5", "--counters", "1"], "5 holes"),
        (&["njaka", "--holes", "12", "--counters", "30"], "at most 255"),
        (&["njaka", "--position", "2s,2x,2n,2n S"], "hole 2"),
        (&["njaka", "--position", "2s,2n,2s,2n S"], "standard game South owns holes 1 to 2"),
    ];
    for (args, expected) in cases {
        let out = solve(dir.path(), args);
        assert!(!out.status.success(), "{args:?} succeeded");
        assert!(stderr(&out).contains(expected), "{args:?}: {}", stderr(&out));
    }
}

/// The board people play, whose tables would take terabytes: answered by a search above
/// the tables that fit, within --time, with the search's nodes and seconds.
#[test]
fn the_played_board_is_answered_by_a_search_above_the_tables() {
    let dir = tempfile::tempdir().unwrap();
    for variant in ["standard", "advanced"] {
        let args = ["njaka", "--holes", "12", "--counters", "4", "--variant", variant, "--time", "3", "--json"];
        let out = solve(dir.path(), &args);
        assert!(out.status.success(), "{variant}: {}", stderr(&out));
        let report = json(&out);
        assert!(["score", "bounds"].contains(&report["value"]["kind"].as_str().unwrap()), "{report}");
        assert!(report["details"]["search"]["nodes"].as_u64().unwrap() > 0, "{report}");
        assert!(report["details"]["search"]["seconds"].as_f64().unwrap() < 10.0, "{report}");
        assert_eq!(report["moves"].as_array().unwrap().len(), 6);
    }
}

#[test]
fn verify_checks_the_tables_built() {
    let dir = tempfile::tempdir().unwrap();
    let out = solve(dir.path(), &["njaka", "--holes", "4", "--counters", "2", "--verify"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(String::from_utf8_lossy(&out.stdout).contains("verified: every stored value"), "{}", stderr(&out));
    // Cyclic scores: the check is not a proof, and the command says so.
    assert!(stderr(&out).contains("necessary, not sufficient"), "{}", stderr(&out));
}
