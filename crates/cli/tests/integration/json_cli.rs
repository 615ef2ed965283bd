//! Every game's `--json` follows the one schema of `docs/json.md`: the same top-level
//! keys, values of the same shape, moves of the same shape.

use crate::common::{json, solve};
use serde_json::Value as Json;

/// The keys every position report has (`reachable` and `details` are optional).
const KEYS: [&str; 14] = [
    "schema",
    "game",
    "parameters",
    "rules",
    "position",
    "start",
    "to_move",
    "over",
    "value",
    "moves",
    "best",
    "line",
    "line_end",
    "tables",
];
const OPTIONAL: [&str; 2] = ["reachable", "details"];
const TABLE_KEYS: [&str; 9] = [
    "directory",
    "positions",
    "bytes",
    "tiers",
    "largest_tier",
    "tiers_built",
    "tiers_reused",
    "seconds",
    "peak_memory_bytes",
];

/// Checks the shape of a value: its kind's keys, and the outcome agreeing with a score.
fn check_value(value: &Json, kind: &str, context: &str) {
    assert_eq!(value["kind"], kind, "{context}: {value}");
    let keys: Vec<&str> = value.as_object().unwrap().keys().map(String::as_str).collect();
    match kind {
        "outcome" => {
            assert_eq!(keys.len(), 3, "{context}: {value}");
            assert!(value["plies"].is_u64() || (value["plies"].is_null() && value["outcome"] == "draw"), "{value}");
        }
        _ => {
            assert_eq!(keys.len(), 3, "{context}: {value}");
            let score = value["score"].as_i64().unwrap();
            let outcome = ["loss", "draw", "win"][(score.signum() + 1) as usize];
            assert_eq!(value["outcome"], outcome, "{context}: {value}");
        }
    }
}

fn check_report(report: &Json, game: &str, kind: &str) {
    let object = report.as_object().unwrap();
    for key in KEYS {
        assert!(object.contains_key(key), "{game}: no `{key}` in {report}");
    }
    for key in object.keys() {
        assert!(KEYS.contains(&key.as_str()) || OPTIONAL.contains(&key.as_str()), "{game}: unknown key `{key}`");
    }
    assert_eq!(report["schema"], 1);
    assert_eq!(report["game"], game);
    check_value(&report["value"], kind, game);
    for m in report["moves"].as_array().unwrap() {
        assert!(m["move"].is_string() && m["position"].is_string(), "{game}: {m}");
        check_value(&m["value"], kind, game);
    }
    assert!(report["line"].as_array().unwrap().iter().all(Json::is_string), "{game}");
    assert!(["over", "repetition", "cut"].contains(&report["line_end"]["kind"].as_str().unwrap()), "{game}");
    assert!(report["line_end"]["position"].is_string(), "{game}");
    let tables = report["tables"].as_object().unwrap();
    assert_eq!(tables.len(), TABLE_KEYS.len(), "{game}: {tables:?}");
    for key in TABLE_KEYS {
        assert!(tables.contains_key(key), "{game}: no tables.{key}");
    }
}

#[test]
fn every_game_reports_in_one_schema() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path();
    let runs: [(&[&str], &str, &str); 11] = [
        (&["thi", "--board", "primus", "--json"], "thi", "outcome"),
        (&["thi", "--board", "primus", "--position", "-,b,b/b,-,-/w,w,w w", "--json"], "thi", "outcome"),
        (&["kalah", "--pits", "3", "--seeds", "2", "--json"], "kalah", "score"),
        (&["awari", "--pits", "2", "--seeds", "2", "--json"], "awari", "score"),
        (&["awari", "--position", "1,1,1,0", "--json"], "awari", "score"),
        (&["awari", "--rules", "trysse", "--pits", "2", "--seeds", "2", "--json"], "oware", "outcome"),
        (&["awari", "--rules", "wari", "--position", "0,1,1,0 3-3", "--json"], "oware", "outcome"),
        (&["trias", "--holes", "3", "--stones", "1", "--json"], "trias", "outcome"),
        (&["trias", "--position", "0,0,0/0,0,1/1,2,0 S", "--explain", "--json"], "trias", "outcome"),
        (&["njaka", "--holes", "4", "--counters", "2", "--json"], "njaka", "score"),
        (&["njaka", "--holes", "4", "--counters", "2", "--variant", "advanced", "--json"], "njaka", "score"),
    ];
    for (args, game, kind) in runs {
        check_report(&json(&solve(out, args)), game, kind);
    }
}

/// With `--json`, standard output holds the report alone and the build still says on
/// standard error what it will do and how far it is (docs/json.md).
#[test]
fn json_builds_report_their_progress_on_standard_error() {
    let dir = tempfile::tempdir().unwrap();
    for (args, tier) in [
        (&["thi", "--board", "primus", "--json"][..], "tier 3-3 solved: 2,816 positions"),
        (&["kalah", "--pits", "3", "--seeds", "2", "--json"], "tier 4 solved: 126 positions"),
    ] {
        let out = solve(dir.path(), args);
        json(&out);
        let said = String::from_utf8_lossy(&out.stderr);
        assert!(
            said.contains(tier) && (said.contains("to build: ") || said.contains("positions to build")),
            "{args:?}: {said}"
        );
    }
}

/// A command that fails prints its error on standard error and no JSON (docs/json.md,
/// Errors).
#[test]
fn a_failing_command_prints_no_json() {
    let dir = tempfile::tempdir().unwrap();
    for args in [
        &["thi", "--board", "nonsense", "--json"][..],
        &["kalah", "--position", "4,4/4 0-0 S", "--json"],
        &["awari", "--position", "1,2,3", "--json"],
        &["trias", "--position", "1,2/3 S", "--json"],
    ] {
        let out = solve(dir.path(), args);
        assert!(!out.status.success(), "{args:?}");
        assert!(out.stdout.is_empty(), "{args:?}: {}", String::from_utf8_lossy(&out.stdout));
        assert!(!out.stderr.is_empty(), "{args:?}");
    }
}
