//! How much memory this machine can give a build.

/// Bytes of memory available to a new allocation (Linux `MemAvailable`), if known.
pub fn available() -> Option<u64> {
    let text = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = text.lines().find(|l| l.starts_with("MemAvailable:"))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib * 1024)
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

/// What building some tiers costs, each position at its tier's [`crate::Game::footprint`].
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Need {
    /// Positions of the tiers built.
    pub positions: f64,
    /// Peak memory: the costliest tier's working bytes, and every finished table mapped
    /// ([`crate::Footprint::mapped`]).
    pub memory: f64,
    /// Bytes of the tables written.
    pub disk: f64,
    /// Seconds on one thread, roughly.
    pub seconds: f64,
}

impl Need {
    /// The cost of building `todo` (the tiers not built yet) of a build of `tiers`.
    pub fn of<G: crate::Game>(game: &G, todo: &[G::Tier], tiers: &[G::Tier]) -> Need {
        let memory: f64 = tiers.iter().map(|&t| game.tier_size(t) as f64 * game.footprint(t).mapped).sum();
        let mut need = Need { positions: 0.0, memory, disk: 0.0, seconds: 0.0 };
        let mut work = 0.0f64;
        for &t in todo {
            let (n, f) = (game.tier_size(t) as f64, game.footprint(t));
            need.positions += n;
            need.disk += n * f.table;
            need.seconds += n / f.rate;
            work = work.max(n * f.work);
        }
        need.memory += work;
        need
    }
}

/// Checks that building `todo`, the tiers of `tiers` not built yet, fits in the available
/// memory ([`Need`]); nothing to build always fits.
pub fn check_build<G: crate::Game>(game: &G, todo: &[G::Tier], tiers: &[G::Tier]) -> Result<(), TooBig> {
    if todo.is_empty() {
        return Ok(());
    }
    let largest = todo.iter().map(|&t| game.tier_size(t)).max().unwrap_or(0) as f64;
    let need = Need::of(game, todo, tiers);
    match available() {
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
