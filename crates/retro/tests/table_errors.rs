//! What the table errors say: the failure once, and removal only for a damaged file.

use retro::store::BuildError;
use retro::table::TableError;
use std::error::Error;
use std::path::PathBuf;

/// The message as `{:#}` of `anyhow` prints it: each error of the chain in turn.
fn chain(error: &dyn Error) -> String {
    let mut text = error.to_string();
    let mut source = error.source();
    while let Some(e) = source {
        text.push_str(&format!(": {e}"));
        source = e.source();
    }
    text
}

#[test]
fn a_failed_write_says_so_once_and_suggests_no_removal() {
    let full = std::io::Error::from_raw_os_error(28);
    let os = full.to_string();
    let error = BuildError::from(TableError::Write { path: PathBuf::from("t/tier-6-5.tbl"), error: full });
    let text = chain(&error);
    assert_eq!(text.matches(&os).count(), 1, "{text}");
    assert!(text.contains("cannot write") && !text.contains("remove the file"), "{text}");
}

#[test]
fn a_damaged_file_may_be_removed() {
    let error = BuildError::from(TableError::BodyChecksum { path: PathBuf::from("t/tier-6-5.tbl") });
    let text = chain(&error);
    assert!(text.contains("remove the file") && text.matches("checksum").count() == 1, "{text}");
}

#[test]
fn tables_of_another_game_key_name_their_directory() {
    let error = BuildError::from(TableError::Mismatch {
        path: PathBuf::from("data/thi/3x3-original/tier-6-5.tbl"),
        field: "game and rules",
        found: "thi size=3 rules=original bonus=no".into(),
        expected: "thi size=3 rules=original bonus=no mirror=folded".into(),
    });
    let text = chain(&error);
    assert!(text.contains("remove the directory data/thi/3x3-original"), "{text}");
}
