//! Building (or reusing) the outcome tables a command needs, with a progress bar over the
//! positions still to solve.

use crate::progress::BuildProgress;
use anyhow::{Context, Result};
use retro::store::{build, BuildOptions, BuildReport, Tables};
use retro::Game;
use std::path::Path;
use std::time::Instant;

/// The tables of `root` and every tier below it, in `dir`: finished tiers reused (after
/// their checks), the rest solved with a bar (hidden when `hidden`). Also returns the
/// wall time in seconds.
pub fn outcome_tables<G: Game>(
    game: &G,
    dir: &Path,
    root: G::Tier,
    hidden: bool,
) -> Result<(Tables<G>, BuildReport, f64)> {
    let to_build: u64 = retro::order::tier_order(game, &[root])?
        .into_iter()
        .filter(|&t| !retro::store::tier_file(dir, t).exists())
        .map(|t| game.tier_size(t))
        .sum();
    let progress = BuildProgress::new(to_build, hidden);
    let started = Instant::now();
    let (tables, report) = build(game, dir, &[root], &progress, &BuildOptions::default())
        .with_context(|| format!("building tables in {}", dir.display()))?;
    progress.finish();
    Ok((tables, report, started.elapsed().as_secs_f64()))
}
