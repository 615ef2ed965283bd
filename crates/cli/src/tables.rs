//! `solve info`, `solve verify-table` and `solve compact`: what a table file is, whether its
//! values hold, and storing it in fewer bytes.

use crate::memory;
use anyhow::{bail, Context, Result};
use clap::Args;
use retro::table::ValueEncoding;
use std::path::{Path, PathBuf};
use std::time::Instant;
use tablebase::{layout, registry};

#[derive(Args)]
#[command(
    about = "Print what a table file is: game, rules, tier, size, encoding, checksum, writer",
    long_about = "Prints what a table file is: game, rules, tier, size, encoding, checksum, writer.\n\n\
                  Given a directory instead (a table directory, or the root given to --out, with \
                  a directory for each game below it), prints one line per table directory \
                  found: its game and rules, its tiers, positions and bytes on disk. Every file \
                  is opened, its header and checksum checked, and its entries counted against \
                  its tier's positions, as queries check them. A tier whose build was stopped \
                  inside it gets a line from its checkpoint: how far it got, and when."
)]
pub struct InfoArgs {
    /// A table file (`tier-*.tbl`), a tier's checkpoint (`tier-*.checkpoint`), a table
    /// directory, or the root of several.
    file: PathBuf,
}

#[derive(Args)]
#[command(
    about = "Re-check every stored value against the values of its successors",
    long_about = "Re-checks every stored value of a table (or of every table in a directory, or \
                  in every table directory below the root given to --out) against the best value \
                  over its successors, read from the same directory: the tables a tier depends on \
                  must be present. Reports the first wrong position in \
                  the game's notation, or how many positions were checked. Exits non-zero on any \
                  fault. For outcomes with distances (THI`, Trias, Trysse, Wari) and for scores \
                  without cycles (Kalah), passing this check everywhere proves the tables hold the \
                  true values; for scores with cycles (Awari, Njaka) it is necessary, not \
                  sufficient, and the report says so (see docs/architecture.md)."
)]
pub struct VerifyTableArgs {
    /// A table file, a directory of them, or the root of several (the --out directory).
    path: PathBuf,
}

#[derive(Args)]
#[command(
    about = "Store finished tables compact: in blocks, where that halves a file (or --min-saving)",
    long_about = "Rewrites every table of a directory (or of every table directory below the root \
                  given to --out) whose values blocks would store in half the bytes or fewer \
                  (--min-saving sets another share): \
                  format version 2, blocks of 4096 positions, each stored as one value, a \
                  palette, a list of the positions that differ from the block's commonest \
                  value, or a prefix code built for the block (docs/format.md). Builds do this \
                  themselves once every tier is solved; this command is for tables written \
                  plain by an older version (a build killed while storing its tables compact is \
                  finished by the next build there, or by this command), for tables in blocks \
                  written before the prefix-code form existed (re-coded where that is \
                  smaller), and, with a smaller \
                  --min-saving, for storing or sending tables where most positions are won or \
                  lost (Awari, Kalah: about a third smaller). Every value is kept: each file \
                  is checked on opening, rewritten next to itself and renamed over the old \
                  one, so an interruption leaves the old file. A directory a build is writing, \
                  or whose tables are damaged, is named and left as it is, the others done; \
                  the exit status then says that one failed. A directory this command may not \
                  write (a read-only mount) fails only if a table there would be rewritten."
)]
pub struct CompactArgs {
    /// A table directory, or the root of several (the --out directory).
    path: PathBuf,
    /// Rewrite a table only if blocks save at least this percentage of its bytes (1 to 99).
    /// A probe into blocks is slower (a second load, and up to 63 codewords decoded in a
    /// coded block: 0.2–0.5 µs against 0.05 µs), which a build probing lower tiers, or a
    /// Kalah search, feels; the build's own choice is 50.
    #[arg(long, default_value_t = 50, value_name = "PERCENT", value_parser = clap::value_parser!(u8).range(1..=99))]
    min_saving: u8,
}

pub fn compact(args: CompactArgs) -> Result<()> {
    if !args.path.exists() {
        bail!("{}: no such directory (give a directory of tier-*.tbl files, or the --out root)", args.path.display());
    }
    let dirs = if args.path.is_dir() { layout::table_dirs(&args.path)? } else { Vec::new() };
    if dirs.is_empty() {
        bail!(
            "{}: no table directory here (give a directory of tier-*.tbl files, or the --out root)",
            args.path.display()
        );
    }
    let saving = retro::table::Saving::percent(args.min_saving).expect("clap keeps the percentage in 1..=99");
    // A directory a build holds, or a damaged one, is named and the others still done.
    let mut faults = 0;
    for dir in &dirs {
        if let Err(e) = compact_directory(dir, saving) {
            if e.downcast_ref::<crate::printer::StdoutError>().is_some() {
                return Err(e);
            }
            errln!("error: {}: {e:#}", dir.display());
            faults += 1;
        }
    }
    refuse_faults(faults, dirs.len(), "could not be compacted")
}

/// Whether a failure to claim a directory is the system refusing to write there (a
/// read-only mount, another owner's directory), not something in the way.
fn cannot_write(error: &retro::store::BuildError) -> bool {
    use std::io::ErrorKind::{PermissionDenied, ReadOnlyFilesystem};
    matches!(error, retro::store::BuildError::Io { error, .. } if matches!(error.kind(), PermissionDenied | ReadOnlyFilesystem))
}

/// Where no table of `dir` would be rewritten under `saving` and none is listed for
/// compaction: `Some` of the line saying so (or of a fault reading them).
fn nothing_to_rewrite(dir: &Path, saving: retro::table::Saving) -> Option<Result<()>> {
    let listed = !retro::store::pending_compaction(dir).is_empty();
    let layout::Directory { files, bytes, .. } = match layout::read_directory(dir) {
        Ok(d) => d,
        Err(e) => return Some(Err(e.into())),
    };
    let mut rewritten = false;
    for file in &files {
        let table = match layout::open_table(file) {
            Ok(table) => table,
            Err(e) => return Some(Err(e.into())),
        };
        match retro::table::would_compact(&table, saving) {
            Ok(would) => rewritten |= would,
            Err(cause) => return Some(Err(layout::LayoutError::Table { path: file.clone(), cause }.into())),
        }
    }
    (!rewritten && !listed).then(|| {
        outln!(
            "{}: 0 of {} rewritten, none would be ({} on disk; the directory is not writable)",
            dir.display(),
            crate::printer::counted(files.len() as u64, "table", "tables"),
            memory::human(bytes as f64)
        )
        .map_err(Into::into)
    })
}

/// Rewrites the tables of one directory in blocks where they save `saving`.
fn compact_directory(dir: &Path, saving: retro::table::Saving) -> Result<()> {
    let _lock = match retro::store::lock_directory(dir) {
        Ok(lock) => lock,
        // A directory that cannot be written (a read-only mount, another owner's) holding
        // nothing plain has nothing to rewrite: said as such, not as a failure.
        Err(e @ retro::store::BuildError::Io { .. }) if cannot_write(&e) => {
            return nothing_to_rewrite(dir, saving).ok_or(e)?
        }
        Err(e) => return Err(e.into()),
    };
    // One key, each file under its tier's name: what a build would accept.
    let layout::Directory { files, .. } = layout::read_directory(dir)?;
    let started = Instant::now();
    let (mut before, mut after, mut rewritten) = (0u64, 0u64, 0usize);
    for file in &files {
        let table = layout::open_table(file)?;
        before += table.file_bytes();
        match retro::table::compact_table(&table, saving)? {
            Some(header) => {
                rewritten += 1;
                after += header.body_offset + header.body_len;
            }
            None => after += table.file_bytes(),
        }
    }
    // Every table is done, those a killed build left plain included, where blocks had to
    // save as much as a build asks or less (a larger --min-saving leaves some of those).
    if saving <= retro::table::Saving::HALF {
        retro::store::mark_pending_compaction(dir, Default::default())
            .with_context(|| format!("removing {}", dir.join(retro::store::COMPACTION_PENDING).display()))?;
    }
    outln!(
        "{}: {rewritten} of {} rewritten in blocks, {} -> {} on disk ({:.1} s)",
        dir.display(),
        crate::printer::counted(files.len() as u64, "table", "tables"),
        memory::human(before as f64),
        memory::human(after as f64),
        started.elapsed().as_secs_f64()
    )?;
    Ok(())
}

/// `solve info` of a directory: a line for each table directory at or below `root`, and
/// for each where a build stopped inside its first tier; a directory that fails is named
/// and the others still listed.
fn info_directories(root: &Path) -> Result<()> {
    let begun = layout::dirs_begun(root)?;
    for dir in &begun {
        outln!("{}: no tier finished yet", dir.display())?;
        for line in tiers_in_progress(dir) {
            outln!("  {line}")?;
        }
    }
    let dirs = match layout::table_dirs(root) {
        Err(layout::LayoutError::NoTables(_)) if !begun.is_empty() => return Ok(()),
        dirs => dirs?,
    };
    let mut faults = 0;
    for dir in &dirs {
        // One key, each file under its tier's name, as a build would accept them.
        let (key, files, positions, bytes) = match layout::read_directory(dir) {
            Ok(layout::Directory { key, files, positions, bytes, .. }) => (key, files, positions, bytes),
            Err(e) => {
                errln!("error: {e}");
                faults += 1;
                continue;
            }
        };
        outln!(
            "{}: `{key}`, {}, {}, {}",
            dir.display(),
            crate::printer::counted(files.len() as u64, "tier", "tiers"),
            crate::printer::counted(positions, "position", "positions"),
            memory::human(bytes as f64)
        )?;
        for line in tiers_in_progress(dir) {
            outln!("  {line}")?;
        }
        let temporary = temporary_files(dir);
        if temporary > 0 {
            errln!(
                "note: {}: {} of an interrupted build (not tables; a build that writes here removes them, or \
                 delete them while none runs)",
                dir.display(),
                crate::printer::counted(temporary as u64, "temporary file", "temporary files")
            );
        }
        warn_misplaced(&key, dir);
    }
    refuse_faults(faults, dirs.len(), "failed the check")
}

/// A line for each tier of `dir` whose build stopped inside it, from its checkpoint: how
/// far it got and when, or why the next build will refuse the checkpoint.
fn tiers_in_progress(dir: &Path) -> Vec<String> {
    let Ok(entries) = std::fs::read_dir(dir) else { return Vec::new() };
    let mut names: Vec<String> = entries
        .filter_map(Result::ok)
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|name| name.starts_with("tier-") && name.ends_with(".checkpoint"))
        .collect();
    names.sort();
    names.iter().map(|name| checkpoint_line(&dir.join(name))).collect()
}

/// What the checkpoint at `path` says: `tier 9 in progress: …`.
fn checkpoint_line(path: &Path) -> String {
    match retro::checkpoint::Saved::open(path) {
        Ok(saved) => {
            let at = saved.progress();
            let ago =
                saved.written().elapsed().map_or_else(|_| "just now".to_owned(), |d| format!("{} s ago", d.as_secs()));
            format!(
                "tier {} in progress: {at}; {} of {} positions done; checkpoint written {ago}",
                saved.identity().tier,
                indicatif::HumanCount(at.done),
                indicatif::HumanCount(saved.entries()),
            )
        }
        Err(e) => format!("a checkpoint the next build will refuse and start its tier again: {e}"),
    }
}

/// The files a build killed while it wrote left in `dir`: no table, but bytes on disk.
fn temporary_files(dir: &Path) -> usize {
    std::fs::read_dir(dir)
        .map(|entries| {
            entries
                .filter_map(Result::ok)
                .filter(|e| retro::store::is_temporary(&e.file_name().to_string_lossy()))
                .count()
        })
        .unwrap_or(0)
}

pub fn info(args: InfoArgs) -> Result<()> {
    if args.file.is_dir() {
        return info_directories(&args.file);
    }
    if args.file.to_string_lossy().ends_with(".checkpoint") {
        return outln!("{}", checkpoint_line(&args.file)).map_err(Into::into);
    }
    let table = layout::open_table(&args.file)?;
    let h = table.header();
    let (dir, _) = layout::table_files(&args.file)?;
    let (file, tier) = (std::slice::from_ref(&args.file), std::slice::from_ref(&h.identity.tier));
    layout::check_sizes(&dir, &h.identity.key, file, tier, &[h.entries])?;
    outln!("file:            {}", args.file.display())?;
    outln!("game and rules:  {}", h.identity.key)?;
    outln!("tier:            {}", h.identity.tier)?;
    outln!("positions:       {}", indicatif::HumanCount(h.entries))?;
    outln!("value encoding:  {}", h.identity.encoding.name())?;
    let stored_bits = 8.0 * h.body_len as f64 / h.entries.max(1) as f64;
    if table.is_blocked() {
        outln!("bits/position:   {stored_bits:.3} stored in blocks ({} bits plain)", h.bits)?;
    } else {
        outln!("bits/position:   {} (packed plain)", h.bits)?;
    }
    if h.identity.encoding == ValueEncoding::OutcomeDistance {
        outln!("max distance:    {} plies", h.max_distance)?;
    }
    outln!("format version:  {}", h.version)?;
    outln!("body checksum:   {:016x} (XXH3-64, verified)", h.body_checksum)?;
    outln!("written by:      {}", h.writer)?;
    outln!(
        "file size:       {} ({:.3} bytes/position)",
        memory::human(table.file_bytes() as f64),
        table.file_bytes() as f64 / h.entries.max(1) as f64
    )?;
    if let Err(e) = layout::misnamed(&dir, &args.file, &h.identity.tier, &h.identity.key) {
        errln!("warning: {e}; builds and verify-table refuse it under this name");
    }
    warn_misplaced(&h.identity.key, &dir);
    Ok(())
}

/// Warns of sound tables of `key` in `dir` where no command looks for them (and `solve
/// serve` leaves them out).
fn warn_misplaced(key: &str, dir: &Path) {
    if let Some(belongs) = registry::misplaced(key, dir) {
        errln!(
            "warning: {}: these tables belong in {}; the commands that build and read them look there",
            dir.display(),
            belongs.display()
        );
    }
}

pub fn verify_table(args: VerifyTableArgs) -> Result<()> {
    if !args.path.is_dir() {
        return verify_files(&args.path);
    }
    let dirs = layout::table_dirs(&args.path)?;
    let mut faults = 0;
    for dir in &dirs {
        if let Err(e) = verify_files(dir) {
            // Output that cannot be written is no fault of the tables: it ends the run.
            if e.downcast_ref::<crate::printer::StdoutError>().is_some() {
                return Err(e);
            }
            errln!("error: {}: {e:#}", dir.display());
            faults += 1;
        }
    }
    refuse_faults(faults, dirs.len(), "failed the check")
}

/// An error if `faults` of the `dirs` table directories looked at `failed` (each already
/// named).
fn refuse_faults(faults: usize, dirs: usize, failed: &str) -> Result<()> {
    if faults > 0 {
        bail!("{faults} of {} {failed}", crate::printer::counted(dirs as u64, "table directory", "table directories"));
    }
    Ok(())
}

/// Checks one table file, or every table of one directory.
fn verify_files(path: &Path) -> Result<()> {
    // Every file's key must agree, and each must sit under its tier's file name.
    let layout::Directory { dir, files, key, tiers, .. } = layout::read_directory(path)?;
    warn_misplaced(&key, &dir);
    let started = Instant::now();
    let verified = registry::game_of_key(&key)?.verify(&key, &dir, &tiers)?;
    let checked = verified.positions;
    if !verified.complete {
        // With cycles inside a tier the local check can pass a consistent wrong
        // labelling of a cycle; say so rather than claim a proof.
        errln!("{}", crate::build::CYCLES_NOTE);
    }
    outln!(
        "{}: verified {} in {} of `{key}` in {:.1} s: every stored value equals the best over its successors",
        dir.display(),
        crate::printer::counted(checked, "position", "positions"),
        crate::printer::counted(files.len() as u64, "table", "tables"),
        started.elapsed().as_secs_f64()
    )?;
    Ok(())
}

impl crate::Run for InfoArgs {
    fn run(self, _: crate::options::BuildFlags) -> Result<()> {
        info(self)
    }
}

impl crate::Run for VerifyTableArgs {
    fn run(self, _: crate::options::BuildFlags) -> Result<()> {
        verify_table(self)
    }
}

impl crate::Run for CompactArgs {
    fn run(self, _: crate::options::BuildFlags) -> Result<()> {
        compact(self)
    }
}
