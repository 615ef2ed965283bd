//! What every CLI test file needs: run `solve` with a table directory, read its JSON and
//! its error output.

use serde_json::Value as Json;
use std::path::Path;
use std::process::{Command, Output};

/// Runs `solve ARGS --out OUT`.
pub fn solve(out: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_solve")).args(args).arg("--out").arg(out).output().expect("run solve")
}

/// The one JSON object a successful run printed.
pub fn json(output: &Output) -> Json {
    assert!(output.status.success(), "solve failed: {}", String::from_utf8_lossy(&output.stderr));
    serde_json::from_slice(&output.stdout).expect("one JSON object")
}

/// What a run printed on standard error.
#[allow(dead_code)] // each test file is its own crate and uses a subset of these helpers
pub fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}
