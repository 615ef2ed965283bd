//! How much memory this machine can give a build.

use std::path::Path;

/// Bytes of memory available to a new allocation, if known: the machine's (Linux
/// `MemAvailable`), or less where this process's control group has a smaller limit (a
/// container, a batch job), which would otherwise kill a build the machine could hold.
pub fn available() -> Option<u64> {
    let text = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = text.lines().find(|l| l.starts_with("MemAvailable:"))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    let machine = kib * 1024;
    Some(group_room().map_or(machine, |room| room.min(machine)))
}

/// What this process's control group may still take: its memory limit less its usage
/// (which counts its page cache, so this errs low), if it has a limit. Reads cgroup v2
/// (`memory.max`) and v1 (`memory.limit_in_bytes`).
fn group_room() -> Option<u64> {
    let text = std::fs::read_to_string("/proc/self/cgroup").ok()?;
    let read = |path: &Path| -> Option<u64> { std::fs::read_to_string(path).ok()?.trim().parse().ok() };
    text.lines().find_map(|line| {
        let mut fields = line.splitn(3, ':');
        let (_, controllers, group) = (fields.next()?, fields.next()?, fields.next()?);
        let group = group.trim_start_matches('/');
        let (limit, usage) = if controllers.is_empty() {
            let dir = Path::new("/sys/fs/cgroup").join(group);
            (dir.join("memory.max"), dir.join("memory.current"))
        } else if controllers.split(',').any(|c| c == "memory") {
            let dir = Path::new("/sys/fs/cgroup/memory").join(group);
            (dir.join("memory.limit_in_bytes"), dir.join("memory.usage_in_bytes"))
        } else {
            return None;
        };
        // No limit reads "max" (v2) or a number near 2^63 (v1): then the machine's counts.
        Some(read(&limit)?.saturating_sub(read(&usage)?))
    })
}

/// A build that does not fit in memory: what it would need, its largest tier's positions,
/// and the bytes available.
pub struct TooBig {
    /// What building the tiers not built yet would cost.
    pub need: Need,
    /// Positions of the largest tier to build.
    pub largest: f64,
    /// Bytes available.
    pub free: f64,
}

/// Bytes a position of a tier's checkpoint ([`crate::checkpoint`]): its slot, two bytes
/// at the most.
const CHECKPOINT_BYTES: f64 = 2.0;

/// What building some tiers costs, each position at its tier's [`crate::Game::footprint`].
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Need {
    /// Positions of the tiers built.
    pub positions: f64,
    /// Peak memory: of the tiers built, the most any takes while it is solved, its
    /// working bytes (one part's, for a tier solved in parts) with its child tiers'
    /// tables mapped ([`crate::Footprint::mapped`]), which it reads at random.
    pub memory: f64,
    /// Bytes of the tables written, and of the largest scratch file with its spill files
    /// and its tier's checkpoint while they are there.
    pub disk: f64,
    /// Seconds on one thread, roughly.
    pub seconds: f64,
    /// The most parts a tier is solved in (1: every tier whole, in memory; see
    /// [`crate::store::parts_for`]).
    pub parts: usize,
}

impl Need {
    /// The cost of building `todo` (the tiers not built yet) with `available` bytes of
    /// memory (unknown: every tier whole), or with every tier that can be split solved in
    /// `parts` parts, if given.
    pub fn of<G: crate::Game>(game: &G, todo: &[G::Tier], available: Option<u64>, parts: Option<usize>) -> Need {
        let mut need = Need { positions: 0.0, memory: 0.0, disk: 0.0, seconds: 0.0, parts: 1 };
        // What a tier holds on disk while it is solved, at the most.
        let mut transient = 0.0f64;
        for &t in todo {
            let (n, f) = (game.tier_size(t) as f64, game.footprint(t));
            let parts = match parts {
                _ if !splits(game, t) => 1,
                // No more parts than positions, as the engine cuts them.
                Some(parts) => parts.clamp(1, (n as usize).max(1)),
                None => crate::store::parts_for(n as u64, available),
            };
            let children: f64 =
                game.child_tiers(t).iter().map(|&c| game.tier_size(c) as f64 * game.footprint(c).mapped).sum();
            need.positions += n;
            need.disk += n * f.table;
            // Parts cost little time: a level's parents outside the first part are
            // written to a file and read back, not found again.
            need.seconds += n / f.rate;
            need.memory = need.memory.max(n * f.work / parts as f64 + children);
            need.parts = need.parts.max(parts);
            // Its checkpoint, two while a new one is written beside the last.
            let mut held = 2.0 * CHECKPOINT_BYTES * n;
            if parts > 1 {
                // The slots' file, and the parents spilled within a level.
                held += n * 2.0 + crate::solve::spill_bound(n as u64) as f64;
            }
            transient = transient.max(held);
        }
        need.disk += transient;
        need
    }
}

/// Whether a tier too large for memory can be solved in parts from a scratch file: the
/// outcome engine's, for a game that lists un-moves ([`crate::solve`]).
pub fn splits<G: crate::Game>(game: &G, tier: G::Tier) -> bool {
    game.engine(tier) == crate::Engine::Outcome && game.lists_unmoves()
}

/// Checks that building `todo`, the tiers not built yet, fits in the available memory
/// ([`Need`], with `parts` as there); nothing to build always fits.
pub fn check_build<G: crate::Game>(game: &G, todo: &[G::Tier], parts: Option<usize>) -> Result<(), TooBig> {
    if todo.is_empty() {
        return Ok(());
    }
    let largest = todo.iter().map(|&t| game.tier_size(t)).max().unwrap_or(0) as f64;
    let free = available();
    let need = Need::of(game, todo, free, parts);
    match free {
        Some(free) if need.memory > free as f64 => Err(TooBig { need, largest, free: free as f64 }),
        _ => Ok(()),
    }
}

/// A byte count for people: `1.5 GiB`.
pub fn human(bytes: f64) -> String {
    const UNITS: [&str; 7] = ["B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"];
    let mut value = bytes;
    let mut unit = 0;
    while value >= 1024.0 && unit + 1 < UNITS.len() {
        value /= 1024.0;
        unit += 1;
    }
    if value >= 1024.0 {
        return format!("{bytes:.1e} B");
    }
    if unit == 0 {
        format!("{value:.0} B")
    } else {
        format!("{value:.1} {}", UNITS[unit])
    }
}

/// Peak resident memory of this process so far (Linux `VmHWM`), in bytes.
pub fn peak_resident() -> Option<u64> {
    let text = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = text.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib * 1024)
}
