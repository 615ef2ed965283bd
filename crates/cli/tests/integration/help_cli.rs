//! Every `--help` text, kept as snapshots: a change that loses a subcommand's long text
//! (its notation, its examples) shows up as a failing snapshot.

use std::process::Command;

fn help(args: &[&str]) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_solve")).args(args).arg("--help").output().expect("run solve");
    assert!(out.status.success(), "{args:?} --help failed: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout).expect("UTF-8 help")
}

#[test]
fn solve_help() {
    insta::assert_snapshot!(help(&[]));
}

#[test]
fn thi_help_shows_the_position_notation() {
    let text = help(&["thi"]);
    assert!(text.contains("Position notation"), "{text}");
    insta::assert_snapshot!(text);
}

#[test]
fn kalah_help_shows_the_position_notation() {
    let text = help(&["kalah"]);
    assert!(text.contains("Position notation"), "{text}");
    insta::assert_snapshot!(text);
}

#[test]
fn awari_help_shows_the_position_notation() {
    let text = help(&["awari"]);
    assert!(text.contains("--position: Awari takes"), "{text}");
    insta::assert_snapshot!(text);
}

#[test]
fn trias_help_shows_the_position_notation() {
    let text = help(&["trias"]);
    assert!(text.contains("Position notation"), "{text}");
    insta::assert_snapshot!(text);
}

#[test]
fn njaka_help_shows_the_position_notation() {
    let text = help(&["njaka"]);
    assert!(text.contains("Position notation"), "{text}");
    insta::assert_snapshot!(text);
}

#[test]
fn verify_help() {
    let text = help(&["verify"]);
    assert!(text.contains("side by side"), "{text}");
    insta::assert_snapshot!(text);
}

#[test]
fn verify_kalah_help() {
    insta::assert_snapshot!(help(&["verify", "kalah"]));
}

#[test]
fn verify_proof_help() {
    insta::assert_snapshot!(help(&["verify-proof"]));
}

#[test]
fn info_help() {
    insta::assert_snapshot!(help(&["info"]));
}

#[test]
fn compact_help() {
    insta::assert_snapshot!(help(&["compact"]));
}

#[test]
fn verify_table_help() {
    let text = help(&["verify-table"]);
    // What the check proves, and where it proves less.
    assert!(text.contains("passing this check everywhere proves"), "{text}");
    assert!(text.contains("necessary, not sufficient"), "{text}");
    insta::assert_snapshot!(text);
}

#[test]
fn serve_help_lists_the_routes() {
    let text = help(&["serve"]);
    for route in ["/api/games", "/api/{game}", "docs/api.md", "--tables", "--addr", "--search-ms", "--searches"] {
        assert!(text.contains(route), "{route} missing from:\n{text}");
    }
}
