//! Build progress: on a terminal one bar over all positions still to solve; otherwise
//! (standard error redirected to a file or a pipe) one plain line per tier solved.

use indicatif::{HumanCount, HumanDuration, ProgressBar, ProgressState, ProgressStyle};
use retro::census::{cached_census, CachedCensus, Census, Progress};
use retro::solve::Observer;
use retro::store::ProbeError;
use retro::{Game, Tables};
use std::io::IsTerminal;
use std::path::Path;
use std::sync::Mutex;
use std::time::Instant;

pub struct BuildProgress {
    bar: ProgressBar,
    /// When standard error is no terminal: the tier being solved, its positions and when it
    /// started, for its line once solved.
    lines: Option<Mutex<(u64, Instant)>>,
}

impl BuildProgress {
    /// A bar for `positions` positions; drawn on standard error when it is a terminal.
    pub fn new(positions: u64) -> BuildProgress {
        let bar = ProgressBar::new(positions);
        bar.set_style(
            ProgressStyle::with_template(
                "{spinner} solving tier {msg:>5} [{bar:30}] {human_pos}/{human_len} positions, {rate}/s, eta {guess}",
            )
            .unwrap_or_else(|_| ProgressStyle::default_bar())
            // Whole positions a second (the built-in `per_sec` shows four decimals).
            .with_key("rate", |state: &ProgressState, out: &mut dyn std::fmt::Write| {
                let _ = write!(out, "{}", HumanCount(state.per_sec() as u64));
            })
            // The first, smallest tiers go slower a position than the rest: an estimate
            // from them alone would say hours for a build of seconds.
            .with_key("guess", |state: &ProgressState, out: &mut dyn std::fmt::Write| {
                let _ = match state.len() {
                    Some(len) if state.pos() * 100 >= len => write!(out, "{}", HumanDuration(state.eta())),
                    _ => write!(out, "…"),
                };
            })
            .progress_chars("=> "),
        );
        let lines = (!std::io::stderr().is_terminal()).then(|| Mutex::new((0, Instant::now())));
        BuildProgress { bar, lines }
    }

    pub fn finish(&self) {
        self.bar.finish_and_clear();
    }

    /// A line above the bar, or alone where there is no bar.
    fn say(&self, line: String) {
        if self.lines.is_some() {
            errln!("{line}");
        } else {
            self.bar.println(line);
        }
    }
}

impl Observer for BuildProgress {
    fn tier_started(&self, tier: &str, work: u64) {
        self.bar.set_message(tier.to_owned());
        if let Some(lines) = &self.lines {
            *lines.lock().unwrap_or_else(|e| e.into_inner()) = (work, Instant::now());
        }
    }

    fn tier_finished(&self, tier: &str) {
        if let Some(lines) = &self.lines {
            let (positions, started) = *lines.lock().unwrap_or_else(|e| e.into_inner());
            errln!(
                "tier {tier} solved: {} in {:.1} s",
                crate::printer::counted(positions, "position", "positions"),
                started.elapsed().as_secs_f64()
            );
        }
    }

    fn not_compacted(&self, why: &str) {
        self.say(format!(
            "warning: {why}; it and the tables after it stay plain (correct, only larger) until a later build here, or `solve compact`, stores them compact"
        ));
    }

    fn compacting(&self, tables: usize) {
        if tables > 0 {
            let tables = crate::printer::counted(tables as u64, "table", "tables");
            self.say(format!("storing {tables} compact where that pays"));
        }
    }

    fn advanced(&self, units: u64) {
        self.bar.inc(units);
    }
}

/// A spinner with a message, for work of unknown length (drawn only on a terminal).
pub fn spinner(message: &str) -> ProgressBar {
    let bar = ProgressBar::new_spinner();
    bar.set_message(message.to_owned());
    bar.enable_steady_tick(std::time::Duration::from_millis(120));
    bar
}

/// The census of `start`, read from `cache` or counted and kept there ([`cached_census`]),
/// with a spinner following it from tier to tier; a count that could not be kept is
/// warned of.
pub fn census<G: Game>(game: &G, tables: &Tables<G>, start: &G::Position, cache: &Path) -> Result<Census, ProbeError> {
    let spinner = CensusSpinner::new();
    let counted = cached_census(game, tables, start, cache, &|at| spinner.show(at));
    spinner.0.finish_and_clear();
    let CachedCensus { census, not_saved } = counted?;
    if let Some(e) = not_saved {
        errln!("warning: the count could not be kept in {} ({e}): it is counted again next time", cache.display());
    }
    Ok(census)
}

/// The spinner of a reachable census, its message following the census from tier to tier.
struct CensusSpinner(ProgressBar);

impl CensusSpinner {
    const MESSAGE: &'static str = "counting the positions reachable from the start";

    fn new() -> CensusSpinner {
        CensusSpinner(spinner(Self::MESSAGE))
    }

    /// Shows how far the census is.
    fn show(&self, at: Progress) {
        self.0.set_message(format!(
            "{}: tier {} ({} of {} swept), {} positions so far",
            Self::MESSAGE,
            at.tier,
            at.swept,
            at.tiers,
            HumanCount(at.positions)
        ));
    }
}
