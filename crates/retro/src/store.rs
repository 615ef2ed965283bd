//! A directory of tier tables for one game key: finding, checking, building and probing.
//!
//! Each tier is the file `tier-<tier>.tbl` in the directory; the directory is chosen by
//! the caller (one per game key). A build solves the tiers in dependency order and skips
//! every tier whose file is already there and passes its checks; a file that is there but
//! damaged or built for something else stops the build with an error naming it, so
//! nothing is silently rebuilt over or reused.

use crate::checkpoint::{checkpoint_file, Checkpoints, CHECKPOINT_EVERY};
use crate::children::ChildTables;
use crate::distributed::Processes;
use crate::game::{Engine, Game};
use crate::order::{tier_order, CycleError};
use crate::solve::{Codes, Observer, SlotPlacement, SolveError};
use crate::table::{
    compact_table, dangling_link, Layout, Reading, Saving, Table, TableError, TableIdentity, ValueEncoding,
};
use crate::value::TableValue;
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::time::Duration;
use thiserror::Error;

/// What to do about a table file a build cannot use: a damaged one is rebuilt once
/// removed; one built for another game key (an older index, say) likely has company, so
/// the hint names its directory.
fn rebuild_hint(error: &TableError) -> String {
    let game = |key: &str| key.split_whitespace().next().unwrap_or("").to_owned();
    match error {
        TableError::Mismatch { field: "game and rules", found, expected, .. } if game(found) != game(expected) => {
            "\n  (a table of another game was put here: move it out to have this tier built again)".to_owned()
        }
        TableError::Mismatch { path, field: "game and rules", .. } => format!(
            "\n  (if another board's or rules' tables were moved here, move them back; if these come from an \
             older version, remove the directory {} to have them all rebuilt)",
            path.parent().unwrap_or(Path::new(".")).display()
        ),
        e if e.is_bad_contents() => "\n  (remove the file to have it rebuilt)".to_owned(),
        _ => String::new(),
    }
}

/// Why tables could not be built or opened.
#[derive(Debug, Error)]
pub enum BuildError {
    /// The tiers' children lead back to them.
    #[error(transparent)]
    Order(#[from] CycleError),
    /// An engine failed.
    #[error(transparent)]
    Solve(#[from] SolveError),
    // Not a `source`: the message says it all, once.
    /// A table file is damaged, foreign or unreadable.
    #[error("{0}{hint}", hint = rebuild_hint(.0))]
    Table(TableError),
    /// A tier the tables need has no file.
    #[error("the tables are missing tier {tier} ({path})")]
    MissingTier {
        /// The tier, by name.
        tier: String,
        /// The file.
        path: PathBuf,
    },
    /// The build stopped after this many tiers, as asked.
    #[error("the build was stopped after {0} tiers, as asked")]
    Stopped(usize),
    /// A file or directory could not be read or written.
    #[error("{path}: {error}")]
    Io {
        /// The file.
        path: PathBuf,
        /// The cause.
        error: std::io::Error,
    },
    /// Another build holds the directory.
    #[error("another build is writing tables in {0}; wait for it to finish")]
    Busy(PathBuf),
    /// The table directory refuses what a build must do there ([`check_access`]).
    #[error("cannot {action} the tables' directory {}: {why}", dir.display())]
    Access {
        /// The directory.
        dir: PathBuf,
        /// What it refuses: `read`, `write in` or `make`.
        action: &'static str,
        /// Why (`permission denied`), and where, for a directory to make.
        why: String,
    },
    /// The engine chosen cannot solve the game's kind of value.
    #[error("tier {tier}: the {engine} engine cannot solve values coded as {encoding}", engine = .engine.name(), encoding = .encoding.name())]
    EngineMismatch {
        /// The tier, by name.
        tier: String,
        /// The engine chosen.
        engine: Engine,
        /// The value coding of the game.
        encoding: ValueEncoding,
    },
}

impl From<TableError> for BuildError {
    fn from(error: TableError) -> BuildError {
        BuildError::Table(error)
    }
}

/// An exclusive claim on a table directory for one build, released when dropped (also
/// when the process dies: the operating system drops the lock with the file).
pub struct DirectoryLock {
    _file: std::fs::File,
}

/// Whether a file name in a table directory is a run's temporary file: `.tier-*.tmp` a
/// build's (a table being written, a scratch or spill file, the list of tables to store
/// compact being written), `.census-*.tmp` a census being saved. The next build that
/// claims the directory removes them.
pub fn is_temporary(name: &str) -> bool {
    (name.starts_with(".tier-") || name.starts_with(".census-")) && name.ends_with(".tmp")
}

/// Whether `dir` holds what interrupted runs leave behind: temporary files
/// ([`is_temporary`]), the checkpoint of a tier whose table is there, or a list of tables
/// to store compact that names none there; a directory that cannot be read holds none
/// this can clear.
fn holds_stale(dir: &Path) -> bool {
    let temporaries = std::fs::read_dir(dir).is_ok_and(|entries| {
        entries.flatten().any(|entry| {
            let name = entry.file_name();
            is_temporary(&name.to_string_lossy()) || is_finished_checkpoint(dir, &name.to_string_lossy())
        })
    });
    temporaries || stale_pending_list(dir)
}

/// Whether a file name in a table directory is the checkpoint of a tier whose table is
/// there: a build killed between writing the table and removing the checkpoint left it.
fn is_finished_checkpoint(dir: &Path, name: &str) -> bool {
    let tier = name.strip_prefix("tier-").and_then(|rest| rest.strip_suffix(".checkpoint"));
    tier.is_some_and(|tier| has_tier_file(dir, tier))
}

/// Whether the list of tables to store compact ([`COMPACTION_PENDING`]) is there (a file,
/// or a link in its place) and names no tier whose table is there: tables removed since,
/// which a build that solves them again stores compact anyway.
fn stale_pending_list(dir: &Path) -> bool {
    let listed = std::fs::symlink_metadata(dir.join(COMPACTION_PENDING))
        .is_ok_and(|found| found.is_file() || found.file_type().is_symlink());
    listed && pending_compaction(dir).is_empty()
}

/// Removes what interrupted runs left in `dir` ([`holds_stale`]); the caller holds the
/// directory's lock, so no build is writing any of it. A census being saved meanwhile by
/// a query (which takes no lock) loses only its cache.
fn clear_stale(dir: &Path) -> Result<(), BuildError> {
    let io = |error| BuildError::Io { path: dir.to_owned(), error };
    for entry in std::fs::read_dir(dir).map_err(io)? {
        let entry = entry.map_err(io)?;
        let name = entry.file_name();
        if is_finished_checkpoint(dir, &name.to_string_lossy()) {
            std::fs::remove_file(entry.path()).map_err(|error| BuildError::Io { path: entry.path(), error })?;
            continue;
        }
        if !is_temporary(&name.to_string_lossy()) {
            continue;
        }
        let path = entry.path();
        let is_dir = entry.file_type().is_ok_and(|kind| kind.is_dir());
        let removed = if is_dir { remove_temporary_directory(&path) } else { std::fs::remove_file(&path) };
        removed.map_err(|error| BuildError::Io { path, error })?;
    }
    if stale_pending_list(dir) {
        mark_pending_compaction(dir, BTreeSet::new())
            .map_err(|error| BuildError::Io { path: dir.join(COMPACTION_PENDING), error })?;
    }
    Ok(())
}

/// Removes a directory under a temporary file's name if it is empty. No run makes one: it
/// was made by hand or by another program, so what it holds may be someone's, which a
/// build must not delete; empty, it holds nothing to lose. `remove_dir` refuses a
/// directory that is not empty, so nothing put in it meanwhile is lost either.
fn remove_temporary_directory(path: &Path) -> std::io::Result<()> {
    std::fs::remove_dir(path).map_err(|error| match error.kind() {
        std::io::ErrorKind::DirectoryNotEmpty => std::io::Error::other(
            "a directory under the name of a build's temporary file, and not empty: no build makes one, so it \
             is left as it is: move it away or remove it, then build again",
        ),
        _ => error,
    })
}

/// Claims `dir` (created if missing) for a build, then clears what interrupted runs left
/// there (temporary files, a list of tables to store compact naming none there): with the
/// claim held, no other build is writing it.
pub fn lock_directory(dir: &Path) -> Result<DirectoryLock, BuildError> {
    let io = |error| BuildError::Io { path: dir.to_owned(), error };
    // What the system says of a file in the way ("File exists", "Not a directory") does
    // not say which: the nearest thing on the path that is not a directory.
    if let Some(blocking) = dir.ancestors().find(|a| a.exists() && !a.is_dir()) {
        return Err(BuildError::Io {
            path: blocking.to_owned(),
            error: std::io::Error::other("not a directory, where the tables' directory goes: move it away"),
        });
    }
    std::fs::create_dir_all(dir).map_err(io)?;
    let path = dir.join(".lock");
    let mut options = std::fs::OpenOptions::new();
    options.create(true).truncate(false).write(true);
    // Only a plain file: a link would have the build create or lock a file outside the
    // directory, and a FIFO would block the open for ever.
    let not_plain = |file_type: std::fs::FileType| {
        let kind = if file_type.is_symlink() { "a symbolic link" } else { crate::table::kind_of(file_type) };
        BuildError::Io {
            path: path.clone(),
            error: std::io::Error::other(format!("the build's lock file is {kind}: remove it")),
        }
    };
    let file = open_unfollowed(&mut options, &path).map_err(|error| match std::fs::symlink_metadata(&path) {
        Ok(found) if !found.is_file() => not_plain(found.file_type()),
        _ => BuildError::Io { path: path.clone(), error },
    })?;
    // A FIFO with a reader opens; the open file says what it is.
    let opened = file.metadata().map_err(|error| BuildError::Io { path: path.clone(), error })?;
    if !opened.is_file() {
        return Err(not_plain(opened.file_type()));
    }
    match file.try_lock() {
        Ok(()) => {}
        Err(std::fs::TryLockError::WouldBlock) => return Err(BuildError::Busy(dir.to_owned())),
        Err(std::fs::TryLockError::Error(error)) => return Err(BuildError::Io { path, error }),
    }
    clear_stale(dir)?;
    Ok(DirectoryLock { _file: file })
}

/// Checks that this process may use `dir` as a build must: reach the files in it and, if
/// the build `writes` (a tier is still to solve), list it and write in it, or make it if it
/// is not there. A build checks this before it says what it will do, so that a directory
/// it cannot use is named as such, not by the first file in it that fails to open. Only a
/// refusal (permissions, a read-only file system) is an error; anything else in the way is
/// left to the build, which names it.
pub fn check_access(dir: &Path, writes: bool) -> Result<(), BuildError> {
    let refused = |action, why| Err(BuildError::Access { dir: dir.to_owned(), action, why });
    match dir.try_exists() {
        Ok(true) if dir.is_dir() => {
            let read = if writes { Mode::List } else { Mode::Reach };
            if let Some(why) = refusal(dir, read) {
                return refused("read", why);
            }
            match writes.then(|| refusal(dir, Mode::Write)).flatten() {
                Some(why) => refused("write in", why),
                None => Ok(()),
            }
        }
        Ok(true) => Ok(()),
        Ok(false) if !writes => Ok(()),
        Ok(false) => {
            // A relative path's ancestors end at "", the working directory.
            let Some(parent) = dir.ancestors().skip(1).find(|a| a.as_os_str().is_empty() || a.exists()) else {
                return Ok(());
            };
            let parent = if parent.as_os_str().is_empty() { Path::new(".") } else { parent };
            match refusal(parent, Mode::Write) {
                Some(why) if parent.is_dir() => refused("make", format!("{why} in {}", parent.display())),
                _ => Ok(()),
            }
        }
        Err(error) if is_refusal(&error) => refused("read", error.kind().to_string()),
        Err(_) => Ok(()),
    }
}

/// What [`check_access`] asks of a directory.
#[derive(Clone, Copy)]
enum Mode {
    /// Reach the files in it (search permission).
    Reach,
    /// List it and reach its files.
    List,
    /// Make and remove files in it.
    Write,
}

/// Whether an error is the system refusing access, not something missing or in the way.
fn is_refusal(error: &std::io::Error) -> bool {
    use std::io::ErrorKind::{PermissionDenied, ReadOnlyFilesystem};
    matches!(error.kind(), PermissionDenied | ReadOnlyFilesystem)
}

/// Why this process may not do `mode` in the directory `dir` (`permission denied`, say),
/// as the system answers for its own user, groups and access lists; `None` if it may, or
/// if the system does not say.
#[cfg(unix)]
fn refusal(dir: &Path, mode: Mode) -> Option<String> {
    use std::os::unix::ffi::OsStrExt;
    let path = std::ffi::CString::new(dir.as_os_str().as_bytes()).ok()?;
    let bits = match mode {
        Mode::Reach => libc::X_OK,
        Mode::List => libc::R_OK | libc::X_OK,
        Mode::Write => libc::W_OK | libc::X_OK,
    };
    // SAFETY: `path` is a NUL-terminated string that lives across the call, which only
    // reads it.
    if unsafe { libc::access(path.as_ptr(), bits) } == 0 {
        return None;
    }
    let error = std::io::Error::last_os_error();
    is_refusal(&error).then(|| error.kind().to_string())
}

/// Elsewhere the build itself names what it may not do.
#[cfg(not(unix))]
fn refusal(_dir: &Path, _mode: Mode) -> Option<String> {
    None
}

/// How a build went.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct BuildReport {
    /// Tiers solved and written.
    pub tiers_built: usize,
    /// Tiers found built and checked.
    pub tiers_reused: usize,
    /// Positions of every tier.
    pub positions: u64,
    /// Their size on disk.
    pub bytes: u64,
}

/// The finished tables of one game, by tier, each read as it was opened ([`Reading`]).
pub struct Tables<G: Game> {
    dir: PathBuf,
    tables: BTreeMap<G::Tier, Table>,
}

/// File name of a tier's table.
pub fn tier_file(dir: &Path, tier: impl std::fmt::Display) -> PathBuf {
    dir.join(format!("tier-{tier}.tbl"))
}

/// Whether anything stands at `tier`'s table path in `dir` (a link whose target is gone
/// too): a tier a build does not solve again. Whether it is a sound table is checked when
/// it is opened.
pub fn has_tier_file(dir: &Path, tier: impl std::fmt::Display) -> bool {
    std::fs::symlink_metadata(tier_file(dir, tier)).is_ok()
}

/// What the table of `tier` must be: the game's key, the tier, the value kind's coding.
pub fn identity<G: Game>(game: &G, tier: G::Tier) -> TableIdentity {
    TableIdentity { key: game.table_key(), tier: tier.to_string(), encoding: G::Value::ENCODING }
}

/// Opens and checks the table of a tier of `entries` positions, read as `reading` says.
fn open_table(path: &Path, identity: &TableIdentity, entries: u64, reading: Reading) -> Result<Table, TableError> {
    // SAFETY: a table is mapped only by a build, under its lock on the directory, which no
    // other build writes meanwhile; every table is written by `write_table`, which renames
    // a complete new file into place and never rewrites one (see `Table::open_mapped`).
    // Nothing else here is mapped: queries read by position.
    unsafe { Table::open_as(path, Some(identity), reading) }?.expect_entries(entries)
}

/// What a build needs to know of a tier's table: what it must be, the positions it
/// holds, and how it is read while the tiers above it are solved.
pub struct TierFile {
    /// The game key, tier and value coding the file must carry.
    pub identity: TableIdentity,
    /// Positions of the tier.
    pub entries: u64,
    /// How the table is read while the build goes on: held in memory where the tiers
    /// above probe it at random, mapped where they read it sparsely or the build may not
    /// fit in memory otherwise.
    pub reading: Reading,
}

/// Options of a build.
#[derive(Debug, Clone, Default)]
pub struct BuildOptions {
    /// Stop (with [`BuildError::Stopped`]) after solving this many tiers, before the
    /// next one or, if none is left, before the tables are stored compact: a test hook
    /// for interrupted builds.
    pub stop_after: Option<usize>,
    /// Solve every tier of the outcome engine from a scratch file in this many parts,
    /// whatever its size (a test hook for tiers too large for memory; without it, only
    /// those are, see [`slot_placement`]).
    pub parts: Option<usize>,
    /// Keep the finished tables mapped from their files while the tiers above them are
    /// solved, so that the system can evict their pages: for a build that may not fit in
    /// memory. Otherwise the tables a game probes at random ([`crate::Footprint::mapped`]
    /// above zero) are held in memory on huge pages ([`Table::open_held`]), which the
    /// memory a build announces counts already.
    pub map_tables: bool,
    /// How often a tier being solved writes its checkpoint, from which a build stopped
    /// inside it resumes ([`crate::checkpoint`]); `None`: [`CHECKPOINT_EVERY`], zero: at
    /// every step of its engine.
    pub checkpoint_every: Option<Duration>,
    /// Stop (with [`SolveError::Stopped`]) at the end of this many steps of the engines,
    /// counted over the tiers solved: a test hook for builds stopped inside a tier.
    pub stop_inside: Option<u64>,
    /// How the tables the build returns are read once every tier is there: by position
    /// (the default: what queries need, safe from files changed under them), or held in
    /// memory for a search that probes them millions of times. A table the build held
    /// stays held.
    pub reading: Reading,
    /// The processes that build the tables together ([`crate::distributed`]): each tier's
    /// ranks shared between them, the first one writing the files, in a directory they all
    /// read. One process by default. A shared build writes no checkpoint inside a tier:
    /// it resumes from the finished tiers.
    pub processes: Processes,
}

/// The share of the available memory a tier's slots may take before the tier is solved
/// in parts from a scratch file: the rest is left to the pages of its children's tables,
/// which the scan and the pushes read at random.
pub const SLOTS_SHARE_OF_MEMORY: f64 = 0.5;

/// Parts a tier of the outcome engine is solved in: one for slots within
/// [`SLOTS_SHARE_OF_MEMORY`] of `available` bytes (or when that is unknown), else as many
/// as it takes for each part's slots to be within it.
pub fn parts_for(positions: u64, available: Option<u64>) -> usize {
    let slots = positions as f64 * 2.0;
    match available {
        Some(free) if slots > free as f64 * SLOTS_SHARE_OF_MEMORY => {
            (slots / (free as f64 * SLOTS_SHARE_OF_MEMORY).max(1.0)).ceil() as usize
        }
        _ => 1,
    }
}

/// Where the outcome engine keeps the slots of `tier` (of `positions` positions) while it
/// solves it in `dir`: in memory if they fit (see [`parts_for`]), else in a scratch file
/// beside the tables, in parts.
pub fn slot_placement(
    dir: &Path,
    tier: impl std::fmt::Display,
    positions: u64,
    options: &BuildOptions,
) -> SlotPlacement {
    let parts = options.parts.unwrap_or_else(|| parts_for(positions, crate::memory::available()));
    if options.parts.is_none() && parts == 1 {
        return SlotPlacement::Memory;
    }
    // A temporary file's name: a build that locks the directory removes it if a crash
    // left it behind.
    SlotPlacement::Scratch { file: dir.join(format!(".tier-{tier}.slots.tmp")), parts }
}

/// The build loop every engine shares. Tiers come in `order`, children first; each one
/// whose file exists is opened and checked (a damaged or foreign file is an error, never
/// rebuilt over); each other one is solved by `solve`, given the finished tables so far,
/// written atomically, and held in memory or mapped as `file` says. Once every tier is there, they are stored compact
/// ([`compact_table`]; a table left plain by an interrupted build too): the build itself
/// probes plain tables, the faster ones.
/// The directory is locked for the whole build, unless
/// every table is there already: then they are only opened and checked, which needs no
/// write access to the directory (tables on a read-only mount, or owned by another user).
pub fn build_tiers<T: Copy + Ord + std::fmt::Display>(
    dir: &Path,
    order: Vec<T>,
    file: impl Fn(T) -> TierFile,
    mut solve: impl FnMut(T, &BTreeMap<T, Table>, &Checkpoints<'_>) -> Result<Codes, BuildError>,
    observer: &dyn Observer,
    options: &BuildOptions,
) -> Result<(BTreeMap<T, Table>, BuildReport), BuildError> {
    let mut report = BuildReport::default();
    let every = options.checkpoint_every.unwrap_or(CHECKPOINT_EVERY);
    let mut checkpoints = Checkpoints::new(every, options.stop_inside, observer);
    let all_present =
        order.iter().try_fold(true, |all, &tier| Ok::<_, BuildError>(all && tier_present(&tier_file(dir, tier))?))?;
    // Read as the build needs only while tiers above them are solved (the build's memory
    // check counts them then); a run that only finishes a compaction reads them as asked.
    let reading = |f: &TierFile| if all_present { options.reading } else { f.reading };
    let open = |tier: T, f: &TierFile| open_table(&tier_file(dir, tier), &f.identity, f.entries, reading(f));
    // A map is the build's alone, under its lock: what it returns is read as asked, and
    // a table opened again once every tier is solved (stored compact) is opened so.
    let returned = |f: &TierFile| if reading(f) == Reading::Mapped { options.reading } else { reading(f) };
    let reopen = |tier: T| {
        let f = file(tier);
        open_table(&tier_file(dir, tier), &f.identity, f.entries, returned(&f))
    };
    let open_only = |order: Vec<T>| {
        let tables = open_tiers(dir, order, |t| file(t).identity, |t| file(t).entries, options.reading)?;
        let mut report = BuildReport::default();
        for table in tables.values() {
            report.tiers_reused += 1;
            report.positions += table.entries();
            report.bytes += table.file_bytes();
        }
        Ok((tables, report))
    };
    // Every tier there: only opened, unless a killed build left some of them to store
    // compact, or left temporary files (a spill file can be gigabytes), and the directory
    // can be claimed to finish or clear that (a read-only one, or one another build
    // holds, is answered from as it stands).
    let pending = pending_compaction(dir);
    let processes = &options.processes;
    let nothing_to_do = all_present && !order.iter().any(|t| pending.contains(&t.to_string())) && !holds_stale(dir);
    // Every process looks before the first one claims the directory and clears it; they
    // build if any of them saw something to do.
    if processes.sum(!nothing_to_do as u64) == 0 {
        return open_only(order);
    }
    let _lock = match claim(dir, processes) {
        Ok(lock) => lock,
        Err(_) if all_present => return open_only(order),
        Err(e) => return Err(e),
    };
    // Read again under the lock: another build may have finished some since.
    let pending = pending_compaction(dir);
    let mut tables: BTreeMap<T, Table> = BTreeMap::new();
    for tier in order {
        let path = tier_file(dir, tier);
        let f = file(tier);
        let table = if tier_present(&path)? {
            report.tiers_reused += 1;
            open(tier, &f)?
        } else {
            if options.stop_after == Some(report.tiers_built) {
                return Err(BuildError::Stopped(report.tiers_built));
            }
            observer.tier_started(&tier.to_string(), f.entries);
            // The processes of a shared build would each have to save their share at the
            // same step: they keep no checkpoint.
            if !processes.shared() {
                checkpoints.begin(checkpoint_file(dir, tier), f.identity.clone(), f.entries);
            }
            let sent = processes.bytes_sent();
            let mut codes = solve(tier, &tables, &checkpoints)?;
            codes.gather(processes, &processes.shares(f.entries));
            if processes.writes() {
                codes.write(&path, &f.identity, Layout::Plain)?;
            }
            drop(codes);
            if processes.shared() {
                observer.exchanged(&tier.to_string(), processes.sum(processes.bytes_sent() - sent));
                // The others read the table once it is written.
                processes.barrier();
            }
            checkpoints.finish();
            report.tiers_built += 1;
            observer.tier_finished(&tier.to_string());
            open(tier, &f)?
        };
        tables.insert(tier, table);
    }
    // What to store compact: after a build that solved tiers, every plain table (one an
    // older build left plain included); with nothing solved, those listed as left plain.
    // They are listed first, so that a build killed while compacting leaves them for a
    // later one to finish. A list that cannot be written costs only that (and only the
    // first process writes it).
    let to_compact: BTreeSet<String> = tables
        .iter()
        .map(|(t, table)| (t.to_string(), table))
        .filter(|(t, table)| !table.is_blocked() && (report.tiers_built > 0 || pending.contains(t)))
        .map(|(t, _)| t)
        .collect();
    if processes.writes() {
        let _ = mark_pending_compaction(dir, pending.union(&to_compact).cloned().collect());
    }
    if options.stop_after == Some(report.tiers_built) {
        return Err(BuildError::Stopped(report.tiers_built));
    }
    if !processes.writes() {
        // The first process stores the tables compact; the files these were opened from
        // stay readable through them.
        processes.barrier();
        let report = report_on(&tables, report);
        return Ok((tables, report));
    }
    observer.compacting(to_compact.len());
    let mut left_plain = BTreeSet::new();
    // Tables in blocks already are left as they are: re-coding them is `solve compact`'s
    // choice, not every build's.
    for (&tier, table) in tables.iter_mut().filter(|(t, _)| to_compact.contains(&t.to_string())) {
        // After one rewrite failed (a full disk, a directory not writable), the rest would
        // fail alike: they stay plain and listed.
        if !left_plain.is_empty() {
            left_plain.insert(tier.to_string());
            continue;
        }
        match compact_table(table, Saving::HALF) {
            Ok(Some(_)) => *table = reopen(tier)?,
            Ok(None) => {}
            // Compacting only saves room, and a rewrite that fails leaves the plain table
            // in place: a full disk here costs the saving, not the build. (A failure after
            // the rename, syncing the directory, leaves the new one: the file decides.)
            Err(why @ TableError::Write { .. }) => {
                let now = reopen(tier)?;
                if now.is_blocked() {
                    *table = now;
                } else {
                    observer.not_compacted(&why.to_string());
                    left_plain.insert(tier.to_string());
                }
            }
            Err(e) => return Err(e.into()),
        }
    }
    // Still listed: another run's tables, and this run's left plain.
    let ours: BTreeSet<String> = tables.keys().map(|t| t.to_string()).collect();
    let _ = mark_pending_compaction(dir, pending.difference(&ours).cloned().chain(left_plain).collect());
    for (&tier, table) in tables.iter_mut() {
        if table.reading() != returned(&file(tier)) {
            *table = reopen(tier)?;
        }
    }
    processes.barrier();
    let report = report_on(&tables, report);
    Ok((tables, report))
}

/// `report` with the positions and bytes of `tables` added.
fn report_on<T>(tables: &BTreeMap<T, Table>, mut report: BuildReport) -> BuildReport {
    for table in tables.values() {
        report.positions += table.entries();
        report.bytes += table.file_bytes();
    }
    report
}

/// Claims `dir` for a build ([`lock_directory`]): the first process of a shared build
/// does, and the others wait until it has cleared what interrupted runs left there. A
/// refusal is every process's: the others say the directory is busy.
fn claim(dir: &Path, processes: &Processes) -> Result<Option<DirectoryLock>, BuildError> {
    let lock = if processes.writes() { lock_directory(dir).map(Some) } else { Ok(None) };
    if processes.max(lock.is_err() as u64) == 0 {
        return lock;
    }
    lock.and(Err(BuildError::Busy(dir.to_owned())))
}

/// The file listing, a tier name a line, the tables a build is storing compact: written
/// before that step and removed once it is done, so that one left behind names the tables
/// a killed build (or a full disk) left plain for the next run to finish.
pub const COMPACTION_PENDING: &str = ".compaction-pending";

/// The tiers of `dir` whose compaction a build left unfinished ([`COMPACTION_PENDING`]),
/// those whose table is there.
pub fn pending_compaction(dir: &Path) -> BTreeSet<String> {
    let text = read_list(&dir.join(COMPACTION_PENDING)).unwrap_or_default();
    text.lines()
        .map(str::trim)
        .filter(|name| !name.is_empty() && std::fs::symlink_metadata(tier_file(dir, name)).is_ok())
        .map(str::to_owned)
        .collect()
}

/// The text of a list a build wrote: a plain file, at most a MiB. Checked on the open
/// file, so that nothing swapped in between a look and the open is read: a link, or a
/// FIFO that would block the read.
fn read_list(path: &Path) -> Option<String> {
    let file = open_unfollowed(std::fs::OpenOptions::new().read(true), path).ok()?;
    if !file.metadata().ok()?.is_file() {
        return None;
    }
    let mut text = String::new();
    std::io::Read::read_to_string(&mut std::io::Read::take(file, 1 << 20), &mut text).ok()?;
    Some(text)
}

/// Opens `path` without following a link there and without waiting on a FIFO, so that
/// what the open file is (its `metadata`) can be checked with nothing swapped in between a
/// look and the open.
fn open_unfollowed(options: &mut std::fs::OpenOptions, path: &Path) -> std::io::Result<std::fs::File> {
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::custom_flags(options, libc::O_NOFOLLOW | libc::O_NONBLOCK);
    options.open(path)
}

/// Lists `tiers` as waiting to be stored compact in `dir`, or removes the list when
/// there are none (`solve compact`, having done every table, clears it). Whatever else
/// stands under the list's name (a directory, say) is no list and is left alone.
pub fn mark_pending_compaction(dir: &Path, tiers: BTreeSet<String>) -> std::io::Result<()> {
    let path = dir.join(COMPACTION_PENDING);
    if tiers.is_empty() {
        return match std::fs::symlink_metadata(&path) {
            Ok(found) if found.is_file() || found.file_type().is_symlink() => std::fs::remove_file(path),
            _ => Ok(()),
        };
    }
    let text: String = tiers.iter().map(|t| format!("{t}\n")).collect();
    // Written beside it and renamed over it, so that a link standing there is replaced,
    // not followed out of the directory (a name `lock_directory` clears if left behind).
    let temp = dir.join(format!(".tier-compaction-pending.{}.tmp", std::process::id()));
    let mut file = std::fs::OpenOptions::new().write(true).create_new(true).open(&temp)?;
    let written = std::io::Write::write_all(&mut file, text.as_bytes()).and_then(|()| std::fs::rename(&temp, path));
    if written.is_err() {
        let _ = std::fs::remove_file(&temp);
    }
    written
}

/// Whether a tier's file is there. A symbolic link whose target is gone is an error, not
/// a missing tier ([`TableError::DanglingLink`]).
/// Whatever else stands in the way (a file where a directory goes, say) is named by what
/// comes next, which must write there.
fn tier_present(path: &Path) -> Result<bool, BuildError> {
    match dangling_link(path) {
        Some(e) => Err(e.into()),
        None => Ok(std::fs::symlink_metadata(path).is_ok()),
    }
}

/// Opens the finished, checked tables of every tier in `order`, read as `reading` says,
/// building nothing and writing nothing; `size` gives the positions of a tier, which its
/// table must hold.
pub fn open_tiers<T: Copy + Ord + std::fmt::Display>(
    dir: &Path,
    order: Vec<T>,
    identity: impl Fn(T) -> TableIdentity,
    size: impl Fn(T) -> u64,
    reading: Reading,
) -> Result<BTreeMap<T, Table>, BuildError> {
    let mut tables = BTreeMap::new();
    for tier in order {
        let path = tier_file(dir, tier);
        if !tier_present(&path)? {
            return Err(BuildError::MissingTier { tier: tier.to_string(), path });
        }
        tables.insert(tier, open_table(&path, &identity(tier), size(tier), reading)?);
    }
    Ok(tables)
}

/// The engine chosen for `tier`, if it can solve the game's kind of value.
fn engine<G: Game>(game: &G, tier: G::Tier) -> Result<Engine, BuildError> {
    let engine = game.engine(tier);
    let needs = match engine {
        Engine::Outcome => Some(ValueEncoding::OutcomeDistance),
        Engine::Acyclic => None,
        Engine::CyclicScore => Some(ValueEncoding::Score),
    };
    if needs.is_some_and(|needs| needs != G::Value::ENCODING) {
        return Err(BuildError::EngineMismatch { tier: tier.to_string(), engine, encoding: G::Value::ENCODING });
    }
    Ok(engine)
}

/// Solves one tier with the engine the game chooses for it, given the finished tables.
fn solve_tier<G: Game>(
    game: &G,
    tier: G::Tier,
    finished: &BTreeMap<G::Tier, Table>,
    (dir, options): (&Path, &BuildOptions),
    (observer, checkpoints): (&dyn Observer, &Checkpoints<'_>),
) -> Result<Codes, BuildError> {
    let children = ChildTables::new(tier, game.child_tiers(tier), finished);
    let processes = &options.processes;
    Ok(match engine(game, tier)? {
        Engine::Outcome => {
            // A game without un-moves keeps its tier whole (its parents are in memory
            // anyway), unless parts are asked for: then the engine says why not.
            let placement = if crate::memory::splits(game, tier) || options.parts.is_some() {
                let share = processes.shares(game.tier_size(tier)).each();
                slot_placement(dir, tier, share.min(game.tier_size(tier)), options)
            } else {
                SlotPlacement::Memory
            };
            crate::solve::solve_tier(game, tier, &children, &placement, (observer, checkpoints), processes)?
        }
        Engine::Acyclic => crate::acyclic::solve_tier(game, tier, &children, (observer, checkpoints), processes)?,
        Engine::CyclicScore => crate::cyclic::solve_tier(game, tier, &children, (observer, checkpoints), processes)?,
    })
}

/// Builds (or reuses, after checking them) every tier needed for `roots` in `dir`, each
/// solved by the engine [`Game::engine`] chooses for it. An engine that does not suit
/// the game's kind of value is refused before anything is written.
pub fn build<G: Game>(
    game: &G,
    dir: &Path,
    roots: &[G::Tier],
    observer: &dyn Observer,
    options: &BuildOptions,
) -> Result<(Tables<G>, BuildReport), BuildError> {
    let order = tier_order(game, roots)?;
    for &tier in &order {
        engine(game, tier)?;
    }
    let file = |t| TierFile {
        identity: identity(game, t),
        entries: game.tier_size(t),
        reading: if !options.map_tables && game.footprint(t).mapped > 0.0 { Reading::Held } else { Reading::Mapped },
    };
    let (tables, report) = build_tiers(
        dir,
        order,
        file,
        |t, done, checkpoints| solve_tier(game, t, done, (dir, options), (observer, checkpoints)),
        observer,
        options,
    )?;
    Ok((Tables { dir: dir.to_owned(), tables }, report))
}

/// Opens the finished tables needed for `roots` without building anything, read by
/// position.
pub fn open<G: Game>(game: &G, dir: &Path, roots: &[G::Tier]) -> Result<Tables<G>, BuildError> {
    let order = tier_order(game, roots)?;
    let tables = open_tiers(dir, order, |t| identity(game, t), |t| game.tier_size(t), Reading::Positioned)?;
    Ok(Tables { dir: dir.to_owned(), tables })
}

/// Why a position cannot be looked up.
#[derive(Debug, Error, PartialEq, Eq)]
pub enum ProbeError {
    /// A tier the tables need has no file.
    #[error("no table for tier {0} in these tables")]
    MissingTier(String),
    /// A rank past the end of its tier.
    #[error("rank {rank} is past the end of tier {tier}")]
    BadRank {
        /// The tier, by name.
        tier: String,
        /// The rank.
        rank: u64,
    },
    /// A table that could not be read (a table read by position whose file changed since
    /// it was opened): the message names the file. No value is given for it.
    #[error("{0}")]
    Unreadable(String),
    /// The game's tier graph has a cycle, so no order walks it parents first.
    #[error(transparent)]
    TierCycle(#[from] crate::order::CycleError),
    /// The census counts games with one or two orientations a rank (invariant 7).
    #[error("the reachable census handles one or two orientations a rank, not {0}")]
    Orientations(u8),
    /// The census was asked from a start that is not its own image under a symmetry the
    /// game folds without an orientation.
    #[error("the reachable census counts a position and its mirror image together, so it needs a start that is its own image; {0} is not")]
    AsymmetricStart(String),
}

impl From<Box<TableError>> for ProbeError {
    fn from(e: Box<TableError>) -> ProbeError {
        ProbeError::Unreadable(e.to_string())
    }
}

impl<G: Game> Tables<G> {
    /// The directory the tables are in.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// The table of `tier`, if it is among these.
    pub fn table(&self, tier: G::Tier) -> Option<&Table> {
        self.tables.get(&tier)
    }

    /// Every tier's table, lowest tier first.
    pub fn tables(&self) -> impl Iterator<Item = (&G::Tier, &Table)> {
        self.tables.iter()
    }

    /// The tiers these tables hold, lowest first.
    pub fn tiers(&self) -> impl Iterator<Item = &G::Tier> {
        self.tables.keys()
    }

    /// The stored value at a tier and rank, for the player to move.
    #[inline]
    pub fn probe(&self, tier: G::Tier, rank: u64) -> Result<G::Value, ProbeError> {
        let table = self.tables.get(&tier).ok_or_else(|| ProbeError::MissingTier(tier.to_string()))?;
        let code = table.code(rank)?.ok_or_else(|| ProbeError::BadRank { tier: tier.to_string(), rank })?;
        Ok(G::Value::from_code(code))
    }

    /// The value of a position for the player to move; [`ProbeError::MissingTier`] where
    /// its tier has no table here (found from its material first: a game indexed for the
    /// tiers built need number no position above them).
    pub fn value(&self, game: &G, position: &G::Position) -> Result<G::Value, ProbeError> {
        let tier = game.material_tier(position);
        if !self.tables.contains_key(&tier) {
            return Err(ProbeError::MissingTier(tier.to_string()));
        }
        let loc = game.locate(position);
        self.probe(loc.tier, loc.rank)
    }

    /// A checksum of the whole set: the tiers and their bodies' checksums.
    pub fn fingerprint(&self) -> u64 {
        let mut text = String::new();
        for (tier, table) in &self.tables {
            text.push_str(&format!("{tier}:{:016x};", table.header().body_checksum));
        }
        xxhash_rust::xxh3::xxh3_64(text.as_bytes())
    }

    /// Positions covered and bytes on disk.
    pub fn size(&self) -> (u64, u64) {
        self.tables.values().fold((0, 0), |(p, b), t| (p + t.entries(), b + t.file_bytes()))
    }
}
