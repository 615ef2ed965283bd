//! A build killed (`kill -9`) inside a tier resumes there when the same command runs
//! again, to the tables of an uninterrupted build; `solve info` shows the tier in progress.

use crate::common::{solve, stderr};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// Every file under `dir` whose name ends with `suffix`, by its path below `dir`.
fn files(dir: &Path, suffix: &str) -> BTreeMap<PathBuf, Vec<u8>> {
    fn walk(root: &Path, dir: &Path, suffix: &str, found: &mut BTreeMap<PathBuf, Vec<u8>>) {
        for entry in std::fs::read_dir(dir).into_iter().flatten().flatten() {
            let path = entry.path();
            if path.is_dir() {
                walk(root, &path, suffix, found);
            } else if path.to_string_lossy().ends_with(suffix) {
                // A file renamed away meanwhile is skipped.
                if let Ok(bytes) = std::fs::read(&path) {
                    found.insert(path.strip_prefix(root).unwrap().to_owned(), bytes);
                }
            }
        }
    }
    let mut found = BTreeMap::new();
    walk(dir, dir, suffix, &mut found);
    found
}

#[test]
fn a_build_killed_inside_a_tier_resumes_there_to_identical_tables() {
    let args = ["awari", "--stones", "11", "--checkpoint-every", "0"];
    let whole = tempfile::tempdir().unwrap();
    assert!(solve(whole.path(), &args).status.success());

    let dir = tempfile::tempdir().unwrap();
    let mut child = Command::new(env!("CARGO_BIN_EXE_solve"))
        .args(args)
        .arg("--out")
        .arg(dir.path())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    // Killed once a checkpoint of one of the two largest tiers is there.
    let started = Instant::now();
    let checkpoint = loop {
        let found = files(dir.path(), ".checkpoint");
        if let Some(path) =
            found.keys().find(|p| p.ends_with("tier-10.checkpoint") || p.ends_with("tier-11.checkpoint"))
        {
            break dir.path().join(path);
        }
        assert!(child.try_wait().unwrap().is_none(), "the build ended before it could be killed inside a tier");
        assert!(started.elapsed() < Duration::from_secs(120), "no checkpoint written");
        std::thread::sleep(Duration::from_millis(2));
    };
    child.kill().unwrap();
    child.wait().unwrap();

    let info = Command::new(env!("CARGO_BIN_EXE_solve")).arg("info").arg(dir.path()).output().unwrap();
    let said = String::from_utf8_lossy(&info.stdout);
    let tier = checkpoint.file_name().unwrap().to_string_lossy().replace(".checkpoint", "").replace("tier-", "");
    assert!(said.contains(&format!("tier {tier} in progress: ")), "{said}");
    // A directory where a build stopped inside its first tier holds no table yet: it is
    // listed all the same, with its tier in progress.
    let begun = tempfile::tempdir().unwrap();
    let first = begun.path().join("awari").join("m6");
    std::fs::create_dir_all(&first).unwrap();
    std::fs::copy(&checkpoint, first.join(checkpoint.file_name().unwrap())).unwrap();
    let info = Command::new(env!("CARGO_BIN_EXE_solve")).arg("info").arg(begun.path()).output().unwrap();
    let said = String::from_utf8_lossy(&info.stdout);
    assert!(info.status.success(), "{said}{}", String::from_utf8_lossy(&info.stderr));
    assert!(said.contains(&format!("{}: no tier finished yet", first.display())), "{said}");
    assert!(said.contains(&format!("tier {tier} in progress: ")), "{said}");

    let resumed = solve(dir.path(), &args);
    assert!(resumed.status.success(), "{}", stderr(&resumed));
    assert!(stderr(&resumed).contains(&format!("tier {tier}: resumed from its checkpoint (")), "{}", stderr(&resumed));
    let tables = files(dir.path(), ".tbl");
    assert_eq!(tables.len(), 12);
    assert_eq!(tables, files(whole.path(), ".tbl"));
    assert!(files(dir.path(), ".checkpoint").is_empty());
}
