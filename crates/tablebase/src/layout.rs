//! Where tables are on disk: the root given to `--out`, with one directory a game below it
//! and one a board and rules below that (`data/thi/3x3-original/tier-9-9.tbl`), each
//! holding the tables of one key. `solve info`, `solve verify-table` and `solve serve` find
//! tables through here.

use crate::registry::{self, RegistryError};
use retro::store::tier_file;
use retro::table::{Table, TableError};
use std::path::{Path, PathBuf};
use thiserror::Error;

/// Why a directory's tables cannot be listed.
#[derive(Debug, Error)]
pub enum LayoutError {
    /// A directory or file could not be read.
    #[error("{path}: {cause}")]
    Read {
        /// What was read.
        path: PathBuf,
        /// Why it failed (in the message, not a `source`: printed once).
        cause: std::io::Error,
    },
    /// No table file at or below the path.
    #[error("{0}: no table files (tier-*.tbl) here or in the directories below")]
    NoTables(PathBuf),
    /// A table file failed its checks on opening.
    #[error("{cause}")]
    Table {
        /// The file.
        path: PathBuf,
        /// What is wrong with it (its message names the file; not a `source`: printed once).
        cause: retro::table::TableError,
    },
    /// Tables of two keys in one directory.
    #[error("{path}: its key is `{key}`, but {first} beside it holds `{first_key}`: tables of different games or rules in one directory")]
    MixedKeys {
        /// The file whose key differs.
        path: PathBuf,
        /// Its key.
        key: String,
        /// The directory's first file.
        first: PathBuf,
        /// That file's key.
        first_key: String,
    },
    /// A table under another tier's file name.
    #[error("{path}: holds tier {tier} of `{key}`, but is not named {expected}")]
    Misnamed {
        /// The file.
        path: PathBuf,
        /// The tier it holds.
        tier: String,
        /// The game, board and rules it was built for.
        key: String,
        /// The name it should have.
        expected: PathBuf,
    },
    /// Tables of a key or a tier no game here has.
    #[error("{path}: {cause}")]
    NotOfAGame {
        /// The file of the tier, or the directory where the key is at fault.
        path: PathBuf,
        /// What is wrong (in the message, not a `source`: printed once).
        cause: Box<RegistryError>,
    },
}

/// How deep below a root [`table_dirs`] looks: `<root>/<game>/<board-and-rules>` is two,
/// and one level more finds them under a directory that holds several roots.
const MAX_DEPTH: usize = 3;

/// The table directories at or below `root` (itself if it holds tables), sorted; an
/// error if there are none.
pub fn table_dirs(root: &Path) -> Result<Vec<PathBuf>, LayoutError> {
    let found = dirs_holding(root, &|name| name.ends_with(".tbl"))?;
    if found.is_empty() {
        return Err(LayoutError::NoTables(root.to_owned()));
    }
    Ok(found)
}

/// The directories at or below `root` where a build stopped inside its first tier: a
/// tier's checkpoint and no table yet, sorted (`solve info` lists them beside the
/// [`table_dirs`]).
pub fn dirs_begun(root: &Path) -> Result<Vec<PathBuf>, LayoutError> {
    let begun = dirs_holding(root, &|name| name.starts_with("tier-") && name.ends_with(".checkpoint"))?;
    let tables = dirs_holding(root, &|name| name.ends_with(".tbl"))?;
    Ok(begun.into_iter().filter(|dir| !tables.contains(dir)).collect())
}

/// The directories at or below `root`, to [`MAX_DEPTH`], holding a file whose name
/// `holds` accepts, sorted.
fn dirs_holding(root: &Path, holds: &dyn Fn(&str) -> bool) -> Result<Vec<PathBuf>, LayoutError> {
    fn walk(
        dir: &Path,
        depth: usize,
        holds: &dyn Fn(&str) -> bool,
        found: &mut Vec<PathBuf>,
    ) -> Result<(), LayoutError> {
        let read = |cause| LayoutError::Read { path: dir.to_owned(), cause };
        let mut subdirs = Vec::new();
        let mut held = false;
        for entry in std::fs::read_dir(dir).map_err(read)? {
            let entry = entry.map_err(read)?;
            let kind = entry.file_type().map_err(|cause| LayoutError::Read { path: entry.path(), cause })?;
            if kind.is_dir() {
                subdirs.push(entry.path());
            } else if holds(&entry.file_name().to_string_lossy()) {
                held = true;
            }
        }
        if held {
            found.push(dir.to_owned());
        }
        if depth < MAX_DEPTH {
            for sub in subdirs {
                walk(&sub, depth + 1, holds, found)?;
            }
        }
        Ok(())
    }
    let mut found = Vec::new();
    walk(root, 0, holds, &mut found)?;
    found.sort();
    Ok(found)
}

/// The tables to read at `path`: every `*.tbl` of a directory, or one file; with their
/// directory.
pub fn table_files(path: &Path) -> Result<(PathBuf, Vec<PathBuf>), LayoutError> {
    if !path.is_dir() {
        // A bare file name lies in the working directory: named `.`, not the empty path.
        let dir = path.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new("."));
        return Ok((dir.to_owned(), vec![path.to_owned()]));
    }
    let mut files = Vec::new();
    for entry in std::fs::read_dir(path).map_err(|cause| LayoutError::Read { path: path.to_owned(), cause })? {
        let file = entry.map_err(|cause| LayoutError::Read { path: path.to_owned(), cause })?.path();
        if file.extension().is_some_and(|x| x == "tbl") {
            files.push(file);
        }
    }
    files.sort();
    if files.is_empty() {
        return Err(LayoutError::NoTables(path.to_owned()));
    }
    Ok((path.to_owned(), files))
}

/// Opens a table file to be read by position, checking its header and checksum.
pub fn open_table(path: &Path) -> Result<Table, LayoutError> {
    Table::open_positioned(path, None).map_err(|cause| LayoutError::Table { path: path.to_owned(), cause })
}

/// The tables of one directory (or one file): their key and their tiers' names, every
/// file opened and checked, every file named after the tier it holds.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Directory {
    /// The directory.
    pub dir: PathBuf,
    /// The files read.
    pub files: Vec<PathBuf>,
    /// Their key (game, board and rules).
    pub key: String,
    /// The tiers they hold, by name.
    pub tiers: Vec<String>,
    /// Positions in all of them.
    pub positions: u64,
    /// Their bytes on disk.
    pub bytes: u64,
}

/// Reads the tables at `path` (a table directory or one file).
pub fn read_directory(path: &Path) -> Result<Directory, LayoutError> {
    let (dir, files) = table_files(path)?;
    let mut identities = Vec::with_capacity(files.len());
    let mut entries = Vec::with_capacity(files.len());
    let (mut positions, mut bytes) = (0, 0);
    for file in &files {
        let table = open_table(file)?;
        positions += table.entries();
        bytes += table.file_bytes();
        entries.push(table.entries());
        identities.push(table.header().identity.clone());
    }
    // Keys before names: a table of another game put in under a tier's name is first of
    // all another game's.
    let key = identities[0].key.clone();
    if let Some((file, other)) = files.iter().zip(&identities).find(|(_, identity)| identity.key != key) {
        return Err(LayoutError::MixedKeys {
            path: file.clone(),
            key: other.key.clone(),
            first: files[0].clone(),
            first_key: key,
        });
    }
    let mut tiers = Vec::with_capacity(files.len());
    for (file, identity) in files.iter().zip(identities) {
        misnamed(&dir, file, &identity.tier, &key)?;
        tiers.push(identity.tier);
    }
    check_sizes(&dir, &key, &files, &tiers, &entries)?;
    Ok(Directory { dir, files, key, tiers, positions, bytes })
}

/// An error unless each of `files`, holding `tiers[i]` of `key` in `entries[i]` entries,
/// is a tier of its game with as many entries as the tier has positions, as queries check
/// on opening it: a header forged with its checksums made valid passes every other check,
/// and every command refuses what queries refuse.
pub fn check_sizes(
    dir: &Path,
    key: &str,
    files: &[PathBuf],
    tiers: &[String],
    entries: &[u64],
) -> Result<(), LayoutError> {
    let refused = |path: &Path, cause| LayoutError::NotOfAGame { path: path.to_owned(), cause: Box::new(cause) };
    let game = registry::game_of_key(key).map_err(|cause| refused(dir, cause))?;
    let sizes = game.tier_sizes(key, tiers).map_err(|cause| {
        // Blamed on the first file whose tier alone is refused, if one is; else on the key.
        let blamed = files.iter().zip(tiers).find_map(|(file, tier)| {
            let alone = game.tier_sizes(key, std::slice::from_ref(tier)).err()?;
            Some(refused(file, alone))
        });
        blamed.unwrap_or_else(|| refused(dir, cause))
    })?;
    for (((file, tier), &found), expected) in files.iter().zip(tiers).zip(entries).zip(sizes) {
        if found != expected {
            let (path, tier) = (file.clone(), tier.clone());
            let cause = TableError::WrongEntryCount { path: path.clone(), tier, expected, found };
            return Err(LayoutError::Table { path, cause });
        }
    }
    Ok(())
}

/// An error if `file`, in `dir` and holding `tier` of `key`, is not named after its tier.
pub fn misnamed(dir: &Path, file: &Path, tier: &str, key: &str) -> Result<(), LayoutError> {
    // Every file lies in `dir`: its name alone says whether it is the tier's.
    let expected = tier_file(dir, tier);
    if expected.file_name() != file.file_name() {
        return Err(LayoutError::Misnamed {
            path: file.to_owned(),
            tier: tier.to_owned(),
            key: key.to_owned(),
            expected,
        });
    }
    Ok(())
}
