//! `solve info` and `solve verify-table`: what a table file is, and whether its values hold.

use crate::memory;
use anyhow::{bail, Context, Result};
use clap::Args;
use games::thi::{RuleSet, Rules, Thi, ThiTier};
use retro::store::{open, tier_file};
use retro::table::{Table, ValueEncoding};
use retro::verify::verify_tier;
use std::path::{Path, PathBuf};
use std::time::Instant;

#[derive(Args)]
#[command(about = "Print what a table file is: game, rules, tier, size, encoding, checksum, writer")]
pub struct InfoArgs {
    /// A table file (`tier-*.tbl`).
    file: PathBuf,
}

#[derive(Args)]
#[command(
    about = "Re-check every stored value against the values of its successors",
    long_about = "Re-checks every stored value of a table (or of every table in a directory) \
                  against the best value over its successors, read from the same directory: the \
                  tables a tier depends on must be present. Reports the first wrong position in \
                  the game's notation, or how many positions were checked. Exits non-zero on any \
                  fault. Passing this check everywhere proves the tables hold the true values \
                  (see docs/architecture.md)."
)]
pub struct VerifyTableArgs {
    /// A table file, or a directory of them.
    path: PathBuf,
}

fn open_any(path: &Path) -> Result<Table> {
    // SAFETY: table files are only written by `write_table` (complete files renamed into
    // place, never rewritten); this command does not modify them while mapped.
    Ok(unsafe { Table::open_mapped(path, None) }?)
}

pub fn info(args: InfoArgs) -> Result<()> {
    let table = open_any(&args.file)?;
    let h = table.header();
    println!("file:            {}", args.file.display());
    println!("game and rules:  {}", h.identity.key);
    println!("tier:            {}", h.identity.tier);
    println!("positions:       {}", h.entries);
    println!("value encoding:  {}", h.identity.encoding.name());
    println!("bits/position:   {}", h.bits);
    if h.identity.encoding == ValueEncoding::OutcomeDistance {
        println!("max distance:    {} plies", h.max_distance);
    }
    println!("format version:  {}", h.version);
    println!("body checksum:   {:016x} (XXH3-64, verified)", h.body_checksum);
    println!("written by:      {}", h.writer);
    println!(
        "file size:       {} ({:.3} bytes/position)",
        memory::human(table.file_bytes() as f64),
        table.file_bytes() as f64 / h.entries.max(1) as f64
    );
    Ok(())
}

/// The THI` game a table key names: `thi size=N rules=R bonus=yes|no`.
fn thi_from_key(key: &str, max: u8) -> Result<Thi> {
    let mut size = None;
    let mut set = None;
    let mut bonus = None;
    let mut words = key.split_whitespace();
    if words.next() != Some("thi") {
        bail!("tables of `{key}` cannot be verified by this version (only THI` so far)");
    }
    for word in words {
        match word.split_once('=') {
            Some(("size", v)) => size = v.parse::<usize>().ok(),
            Some(("rules", v)) => set = RuleSet::from_name(v),
            Some(("bonus", v)) => bonus = Some(v == "yes"),
            _ => bail!("unknown field `{word}` in table key `{key}`"),
        }
    }
    let (Some(size), Some(set), Some(bonus)) = (size, set, bonus) else {
        bail!("table key `{key}` lacks size, rules or bonus");
    };
    Ok(Thi::new(size, max, Rules { set, bonus })?)
}

fn parse_tier(name: &str) -> Option<ThiTier> {
    let (h, l) = name.split_once('-')?;
    Some(ThiTier::new(h.parse().ok()?, l.parse().ok()?))
}

pub fn verify_table(args: VerifyTableArgs) -> Result<()> {
    let (dir, files) = if args.path.is_dir() {
        let mut files: Vec<PathBuf> = std::fs::read_dir(&args.path)
            .with_context(|| format!("reading {}", args.path.display()))?
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|x| x == "tbl"))
            .collect();
        files.sort();
        if files.is_empty() {
            bail!("{}: no table files (tier-*.tbl) here", args.path.display());
        }
        (args.path.clone(), files)
    } else {
        let dir = args.path.parent().map(Path::to_owned).unwrap_or_else(|| PathBuf::from("."));
        (dir, vec![args.path.clone()])
    };
    let mut tiers = Vec::new();
    let mut key = None;
    for file in &files {
        let table = open_any(file)?;
        let identity = &table.header().identity;
        if *key.get_or_insert_with(|| identity.key.clone()) != identity.key {
            bail!("{}: tables of different games or rules in one directory", file.display());
        }
        let tier = parse_tier(&identity.tier)
            .with_context(|| format!("{}: tier `{}` is not a THI` tier", file.display(), identity.tier))?;
        if tier_file(&dir, tier) != *file {
            bail!("{}: holds tier {tier}, but is not named {}", file.display(), tier_file(&dir, tier).display());
        }
        tiers.push(tier);
    }
    let key = key.expect("at least one file");
    let max = tiers.iter().map(|t| t.high).max().unwrap_or(0);
    let game = thi_from_key(&key, max)?;
    let tables = open(&game, &dir, &tiers).with_context(|| format!("opening the tables in {}", dir.display()))?;
    let started = Instant::now();
    let mut checked = 0u64;
    tiers.sort();
    for tier in tiers {
        checked += verify_tier(&game, &tables, tier)?;
    }
    println!(
        "verified {checked} positions in {} table(s) of `{key}` in {:.1} s: every stored value equals the best over its successors",
        files.len(),
        started.elapsed().as_secs_f64()
    );
    Ok(())
}
