//! How much memory this machine can give a build.

/// Bytes of memory available to a new allocation (Linux `MemAvailable`), if known.
pub fn available() -> Option<u64> {
    let text = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = text.lines().find(|l| l.starts_with("MemAvailable:"))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib * 1024)
}

/// An outcome build that does not fit: the bytes it needs, its positions, its largest
/// tier's, and the bytes available.
pub struct TooBig {
    /// Bytes the build needs.
    pub need: f64,
    /// Positions of every tier.
    pub total: f64,
    /// Positions of the largest tier.
    pub largest: f64,
    /// Bytes available.
    pub free: f64,
}

/// Checks that building every tier of `tiers` fits in the available memory: the costliest
/// tier's working bytes and every finished table, each position at its tier's
/// [`crate::Game::footprint`].
pub fn check_build<G: crate::Game>(game: &G, tiers: &[G::Tier]) -> Result<(), TooBig> {
    let total: f64 = tiers.iter().map(|&t| game.tier_size(t) as f64).sum();
    let largest = tiers.iter().map(|&t| game.tier_size(t)).max().unwrap_or(0) as f64;
    let work = tiers.iter().map(|&t| game.tier_size(t) as f64 * game.footprint(t).work).fold(0.0, f64::max);
    let tables: f64 = tiers.iter().map(|&t| game.tier_size(t) as f64 * game.footprint(t).table).sum();
    let need = work + tables;
    match available() {
        Some(free) if need > free as f64 => Err(TooBig { need, total, largest, free: free as f64 }),
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
