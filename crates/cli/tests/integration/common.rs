//! What every CLI test module needs: run `solve` with a table directory, read its JSON and
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
pub fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

/// Runs the `solve …` command an error message names between backticks, as a POSIX shell
/// would split it (double and single quotes), from `cwd`: what a user pastes.
pub fn run_named_command(error: &str, cwd: &Path) -> Output {
    let command =
        error.split('`').find(|part| part.starts_with("solve ")).unwrap_or_else(|| panic!("no command in {error}"));
    let mut words = Vec::new();
    let (mut word, mut quote, mut started) = (String::new(), None, false);
    for c in command.chars() {
        match (quote, c) {
            (None, '"' | '\'') => (quote, started) = (Some(c), true),
            (Some(q), c) if c == q => quote = None,
            (None, ' ') => {
                if started {
                    words.push(std::mem::take(&mut word));
                }
                started = false;
            }
            _ => {
                word.push(c);
                started = true;
            }
        }
    }
    if started {
        words.push(word);
    }
    assert_eq!(words[0], "solve", "{command}");
    Command::new(env!("CARGO_BIN_EXE_solve")).args(&words[1..]).current_dir(cwd).output().expect("run solve")
}
