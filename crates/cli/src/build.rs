//! Building (or reusing) the tables a command needs: said before it starts (positions,
//! memory, disk, time), refused when it does not fit unless `--force`, and shown with a
//! progress bar over the positions still to solve.

use crate::options::BuildFlags;
use crate::printer::{amount, counted};
use crate::progress::BuildProgress;
use anyhow::{bail, Context, Result};
use retro::memory::{self, TooBig};
use retro::store::{build, BuildReport, Tables};
use retro::Game;
use std::path::Path;
use std::time::Instant;

/// [`memory::check_build`] for the tiers of `tiers` not yet in `dir`, passed by `--force`:
/// when they do not fit, what they would need, as the end of a sentence ("… needs about
/// 58.8 GiB of memory, …"). Tables already built are used, whatever building them took.
pub fn check_memory<G: Game>(game: &G, dir: &Path, tiers: &[G::Tier], flags: BuildFlags) -> Result<(), String> {
    if flags.force {
        return Ok(());
    }
    memory::check_build(game, &not_built::<G>(dir, tiers), flags.parts).map_err(|big| refusal(&big))
}

/// The tiers of `tiers` with no table in `dir`.
pub fn not_built<G: Game>(dir: &Path, tiers: &[G::Tier]) -> Vec<G::Tier> {
    tiers.iter().copied().filter(|&t| !retro::store::has_tier_file(dir, t)).collect()
}

/// Why a build is refused: its memory, disk and time, and the memory there is.
fn refusal(big: &TooBig) -> String {
    let TooBig { need, largest, free } = big;
    format!(
        "about {} of memory, {} of disk and {} ({} positions to build, the largest tier {}{}); \
         this machine has {} available (--force builds anyway)",
        memory::human(need.memory),
        memory::human(need.disk),
        time_here(need.seconds),
        amount(need.positions),
        amount(*largest),
        in_parts(need),
        memory::human(*free)
    )
}

/// `, solved in 3 parts`, for a build with a tier too large for memory; else nothing.
fn in_parts(need: &memory::Need) -> String {
    match need.parts {
        1 => String::new(),
        n => format!(", solved in {n} parts from a scratch file"),
    }
}

/// Bytes free on the file system that holds `dir` (or would: its nearest existing parent).
fn free_disk(dir: &Path) -> Option<u64> {
    // A relative path's ancestors end at "", which does not exist: look from the
    // working directory.
    let dir = std::path::absolute(dir).ok()?;
    let existing = dir.ancestors().find(|d| d.exists())?;
    fs4::available_space(existing).ok()
}

/// What a build of `tiers` in `dir` still has to do, said on standard error: positions,
/// peak memory, new bytes on disk, a rough time; refused (unless `--force`) when memory or
/// disk are short.
fn announce<G: Game>(game: &G, dir: &Path, tiers: &[G::Tier], flags: BuildFlags) -> Result<()> {
    let todo = not_built::<G>(dir, tiers);
    if todo.is_empty() {
        return Ok(());
    }
    let (free_memory, free_disk) = (memory::available(), free_disk(dir));
    let need = memory::Need::of(game, &todo, free_memory, flags.parts);
    check_open_files(need.parts, flags.parts.is_some())?;
    let free = |bytes: Option<u64>| bytes.map_or("unknown".to_owned(), |b| memory::human(b as f64));
    errln!(
        "to build: {}, {} {}{}; about {} of memory at the peak, {} on disk, {} \
         (free: {} of memory, {} of disk)",
        counted(todo.len() as u64, "tier", "tiers"),
        amount(need.positions),
        if need.positions == 1.0 { "position" } else { "positions" },
        in_parts(&need),
        memory::human(need.memory),
        memory::human(need.disk),
        time_here(need.seconds),
        free(free_memory),
        free(free_disk),
    );
    check_disk(dir, need.disk, flags)
}

/// Files a build keeps open besides a split tier's parts: the standard streams, the
/// directory's lock, a table being written, with room to spare.
const FILES_BESIDE_PARTS: u64 = 16;

/// Refuses a build whose tiers in `parts` parts would open more files than this process
/// may: a tier in N parts keeps N files open at once (its scratch file and a spill file for
/// every part after the first), and would otherwise fail at its first tier, mid-build;
/// `parts_given`: whether `--parts` asked for them (its bound is then said).
fn check_open_files(parts: usize, parts_given: bool) -> Result<()> {
    let Some((soft, hard)) = open_file_limit() else { return Ok(()) };
    let needed = parts as u64 + FILES_BESIDE_PARTS;
    if parts <= 1 || needed <= soft {
        return Ok(());
    }
    let fewer = match soft.saturating_sub(FILES_BESIDE_PARTS) {
        most if parts_given && most >= 2 => format!("give --parts at most {most}, or "),
        _ => String::new(),
    };
    let hard = if needed > hard { format!("; {hard} is as high as it goes without root") } else { String::new() };
    bail!(
        "solving a tier in {parts} parts keeps {parts} files open at once (its scratch file and a spill file for \
         every part after the first) beside the {FILES_BESIDE_PARTS} a build needs, but this process may open \
         {soft} files: {fewer}raise the limit first (`ulimit -n {needed}`{hard})"
    )
}

/// The open-file limit of this process, soft and hard (`ulimit -n`, `ulimit -Hn`).
#[cfg(unix)]
fn open_file_limit() -> Option<(u64, u64)> {
    let mut limit = libc::rlimit { rlim_cur: 0, rlim_max: 0 };
    // SAFETY: `getrlimit` writes the limit it is given, and nothing else.
    let read = unsafe { libc::getrlimit(libc::RLIMIT_NOFILE, &mut limit) } == 0;
    read.then_some((limit.rlim_cur, limit.rlim_max))
}

/// Elsewhere the limit is not known here: the build says so if it meets it.
#[cfg(not(unix))]
fn open_file_limit() -> Option<(u64, u64)> {
    None
}

/// Refuses, unless `--force`, a build that will write about `bytes` into `dir` when the
/// file system there has less free: better said before than found at the last tier.
pub fn check_disk(dir: &Path, bytes: f64, flags: BuildFlags) -> Result<()> {
    if flags.force {
        return Ok(());
    }
    if let Some(free) = free_disk(dir).filter(|&f| bytes > f as f64) {
        // A place no directory can be made in (`/proc/…`) shows no free space: the
        // build would fail there whatever the space, so that is what is said.
        let existed = dir.ancestors().find(|a| a.exists()).map(Path::to_owned);
        if let Err(e) = std::fs::create_dir_all(dir) {
            bail!("cannot make the tables' directory {}: {e}", dir.display());
        }
        // A refused build leaves nothing behind: the directories just made go again.
        for made in dir.ancestors().take_while(|a| Some(*a) != existed.as_deref()) {
            let _ = std::fs::remove_dir(made);
        }
        bail!(
            "the tables need about {} on disk and {} has {} free (--force builds anyway)",
            memory::human(bytes),
            dir.display(),
            memory::human(free as f64)
        );
    }
    Ok(())
}

/// `seconds` of one thread's work spread over this build's threads, for people: `roughly
/// 12 min on 2 threads`.
pub fn time_here(seconds: f64) -> String {
    let threads = rayon::current_num_threads();
    format!("{} on {}", duration(seconds / threads as f64), counted(threads as u64, "thread", "threads"))
}

/// A duration for people: `40 s`, `12 min`, `3.5 h`.
fn duration(seconds: f64) -> String {
    match seconds {
        s if s < 1.0 => "under a second".to_owned(),
        s if s < 120.0 => format!("roughly {s:.0} s"),
        s if s < 7200.0 => format!("roughly {:.0} min", s / 60.0),
        s => format!("roughly {:.1} h", s / 3600.0),
    }
}

/// Checks every stored value of `root` and every tier below it against its successors
/// (`--verify`), and says so on standard output unless the output is JSON.
pub fn verify_tables<G: Game>(game: &G, tables: &Tables<G>, root: G::Tier, json: bool) -> Result<()> {
    let tiers = retro::order::tier_order(game, &[root])?;
    for &tier in &tiers {
        retro::verify::verify_tier(game, tables, tier)?;
    }
    if !json {
        outln!("verified: every stored value equals the best over its successors")?;
    }
    if tiers.iter().any(|&t| game.engine(t) == retro::Engine::CyclicScore) {
        // The local check can pass a consistent wrong labelling of a cycle: say so, as
        // `verify-table` does, rather than let the line above read as a proof.
        errln!("{CYCLES_NOTE}");
    }
    Ok(())
}

/// Said after a check of tiers with cycles inside them.
pub const CYCLES_NOTE: &str = "note: these tiers hold cycles; this check is necessary, not sufficient: a cycle \
                               of moves inside a tier admits a consistent wrong labelling (v, -v, v, ... instead \
                               of 0), which passes it (see docs/architecture.md, \"Scores with cycles\")";

/// Refuses a position whose tables in `dir` are not all there (`root` and every tier it
/// reaches), naming the tiers missing, the positions they hold, and `command`, which builds
/// them: a position is answered from the tables already built, never by building unasked
/// (a board's larger tiers can take hours). `has` says what the position holds ("7 stones").
pub fn require_built<G: Game>(game: &G, dir: &Path, root: G::Tier, has: &str, command: &str) -> Result<()> {
    // Files that cannot be reached are not missing ones.
    check_access(dir, false)?;
    let mut needed = retro::order::tier_order(game, &[root])?;
    needed.sort();
    let missing = not_built::<G>(dir, &needed);
    let positions: u64 = missing.iter().map(|&t| game.tier_size(t)).sum();
    let tiers = match &missing[..] {
        [] => return Ok(()),
        [one] => format!("tier {one} is"),
        [first, last] => format!("tiers {first} and {last} are"),
        [first @ .., last] if missing.len() <= 4 => {
            format!("tiers {} and {last} are", first.iter().map(ToString::to_string).collect::<Vec<_>>().join(", "))
        }
        // Not "tiers 0 to 9": a tier between that play cannot reach is not among them.
        [first, .., last] => format!("{} tiers, the lowest {first} and the highest {last}, are", missing.len()),
    };
    bail!(
        "this position has {has}; in {}, {tiers} missing ({}): build them with {command}",
        dir.display(),
        counted(positions, "position", "positions")
    )
}

/// The tables of `roots` and every tier they reach, in `dir`: finished tiers reused
/// (after their checks), the rest announced and solved with a bar, as `flags` ask.
/// Also returns the wall time in seconds.
pub fn tables<G: Game>(
    game: &G,
    dir: &Path,
    roots: &[G::Tier],
    flags: BuildFlags,
) -> Result<(Tables<G>, BuildReport, f64)> {
    let order = retro::order::tier_order(game, roots)?;
    check_access(dir, !not_built::<G>(dir, &order).is_empty())?;
    let processes = flags.shared_by.processes();
    // The first process of a shared build speaks for all of them.
    if processes.writes() {
        announce(game, dir, &order, flags)?;
    }
    let to_build: u64 =
        order.iter().filter(|&&t| !retro::store::has_tier_file(dir, t)).map(|&t| game.tier_size(t)).sum();
    let progress = BuildProgress::new(to_build);
    let started = Instant::now();
    let doing = if to_build == 0 { "opening the tables in" } else { "building tables in" };
    let observer: &dyn retro::solve::Observer = if processes.writes() { &progress } else { &retro::solve::Silent };
    let (tables, report) = build(game, dir, roots, observer, &flags.build_options())
        .with_context(|| format!("{doing} {}", dir.display()))?;
    progress.finish();
    if !processes.writes() {
        return Err(crate::processes::LeftToFirst.into());
    }
    Ok((tables, report, started.elapsed().as_secs_f64()))
}

/// [`retro::store::check_access`]: a table directory this user cannot read, or write in
/// where a tier is still to build, refused before the build is announced, with what to do.
pub fn check_access(dir: &Path, writes: bool) -> Result<()> {
    retro::store::check_access(dir, writes)
        .map_err(|e| anyhow::anyhow!("{e} (--out puts the tables in another directory; or fix its permissions)"))
}
