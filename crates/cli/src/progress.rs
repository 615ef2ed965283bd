//! Build progress: on a terminal one bar over all positions still to solve; otherwise
//! (standard error redirected to a file or a pipe) one plain line per tier solved, and
//! within a long tier a line now and then saying how far it is.

use indicatif::{HumanCount, HumanDuration, ProgressBar, ProgressState, ProgressStyle};
use retro::census::{cached_census, CachedCensus, Census, Progress};
use retro::checkpoint::CheckpointEvent;
use retro::solve::Observer;
use retro::store::ProbeError;
use retro::{Game, Tables};
use std::io::IsTerminal;
use std::path::Path;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

pub struct BuildProgress {
    bar: ProgressBar,
    /// When standard error is no terminal: the tier being solved, for its lines.
    lines: Option<Mutex<TierLines>>,
    /// The tier being solved and when its last checkpoint was written, which the bar
    /// shows too.
    tier: Arc<Mutex<CurrentTier>>,
}

/// The tier being solved, by name, and when its last checkpoint was written.
#[derive(Default)]
struct CurrentTier {
    name: String,
    checkpoint: Option<Instant>,
}

impl CurrentTier {
    /// What the progress says of the last checkpoint: `, checkpoint 3 min ago`, or
    /// nothing before the first.
    fn checkpoint_note(&self) -> String {
        self.checkpoint.map_or_else(String::new, |at| format!(", checkpoint {} ago", span(at.elapsed())))
    }
}

/// The first line within a tier comes after a minute, the next ones at twice the gap
/// before, up to ten minutes: a log of a build of hours stays readable, one of minutes
/// still says something.
const FIRST_LINE: Duration = Duration::from_secs(60);
const LONGEST_GAP: Duration = Duration::from_secs(600);

/// What the lines of the tier being solved say.
struct TierLines {
    tier: String,
    /// Its work units (positions) and those done.
    work: u64,
    done: u64,
    started: Instant,
    /// Since `started`, when the next line is due, and the gap after it.
    due: Duration,
    gap: Duration,
}

impl TierLines {
    fn new(tier: &str, work: u64) -> TierLines {
        TierLines { tier: tier.to_owned(), work, done: 0, started: Instant::now(), due: FIRST_LINE, gap: FIRST_LINE }
    }

    /// The line due at `elapsed` into the tier, if one is.
    fn due_line(&mut self, elapsed: Duration) -> Option<String> {
        if elapsed < self.due || self.done >= self.work {
            return None;
        }
        self.gap = (self.gap * 2).min(LONGEST_GAP);
        self.due = elapsed + self.gap;
        Some(progress_line(&self.tier, self.done, self.work, elapsed))
    }
}

/// How far a tier is: `done` of `work` positions after `elapsed`, and the time left at
/// that rate.
fn progress_line(tier: &str, done: u64, work: u64, elapsed: Duration) -> String {
    let share = done as f64 / work.max(1) as f64;
    let left = match share > 0.0 {
        true => format!(", about {} to go at this rate", span(elapsed.mul_f64((1.0 - share) / share))),
        false => String::new(),
    };
    format!(
        "tier {tier}: {} of {} positions ({:.0} %) after {}{left}",
        HumanCount(done),
        HumanCount(work),
        share * 100.0,
        span(elapsed)
    )
}

/// A time span for a log line: seconds up to two minutes, then minutes, then hours and
/// minutes.
fn span(d: Duration) -> String {
    match d.as_secs() {
        s if s < 120 => format!("{s} s"),
        s if s < 7200 => format!("{} min", s / 60),
        s => format!("{} h {:02} min", s / 3600, s % 3600 / 60),
    }
}

impl BuildProgress {
    /// A bar for `positions` positions; drawn on standard error when it is a terminal.
    pub fn new(positions: u64) -> BuildProgress {
        let bar = ProgressBar::new(positions);
        let tier = Arc::new(Mutex::new(CurrentTier::default()));
        let shown = Arc::clone(&tier);
        bar.set_style(
            ProgressStyle::with_template(
                "{spinner} solving tier {msg:>5} [{bar:30}] {human_pos}/{human_len} positions, {rate}/s, eta {guess}{saved}",
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
            .with_key("saved", move |_: &ProgressState, out: &mut dyn std::fmt::Write| {
                let _ = write!(out, "{}", shown.lock().unwrap_or_else(|e| e.into_inner()).checkpoint_note());
            })
            .progress_chars("=> "),
        );
        let lines = (!std::io::stderr().is_terminal()).then(|| Mutex::new(TierLines::new("", 0)));
        BuildProgress { bar, lines, tier }
    }

    fn current_tier(&self) -> std::sync::MutexGuard<'_, CurrentTier> {
        self.tier.lock().unwrap_or_else(|e| e.into_inner())
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
        *self.current_tier() = CurrentTier { name: tier.to_owned(), checkpoint: None };
        self.bar.set_message(tier.to_owned());
        if let Some(lines) = &self.lines {
            *lines.lock().unwrap_or_else(|e| e.into_inner()) = TierLines::new(tier, work);
        }
    }

    fn tier_finished(&self, tier: &str) {
        if let Some(lines) = &self.lines {
            let lines = lines.lock().unwrap_or_else(|e| e.into_inner());
            errln!(
                "tier {tier} solved: {} in {:.1} s",
                crate::printer::counted(lines.work, "position", "positions"),
                lines.started.elapsed().as_secs_f64()
            );
        }
    }

    fn not_compacted(&self, why: &str) {
        self.say(format!(
            "warning: {why}; it and the tables after it stay plain (correct, only larger) until a later build here, or `solve compact`, stores them compact"
        ));
    }

    fn exchanged(&self, tier: &str, bytes: u64) {
        // A tier within one process's share sends nothing: not worth a line.
        if bytes == 0 {
            return;
        }
        self.say(format!(
            "tier {tier}: the processes sent each other {} ({bytes} bytes)",
            retro::memory::human(bytes as f64)
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
        if let Some(lines) = &self.lines {
            let mut lines = lines.lock().unwrap_or_else(|e| e.into_inner());
            lines.done += units;
            let elapsed = lines.started.elapsed();
            if let Some(line) = lines.due_line(elapsed) {
                drop(lines);
                errln!("{line}{}", self.current_tier().checkpoint_note());
            }
        }
    }

    fn checkpoint(&self, event: &CheckpointEvent) {
        let tier = self.current_tier().name.clone();
        match event {
            CheckpointEvent::Written(_) => self.current_tier().checkpoint = Some(Instant::now()),
            CheckpointEvent::Resumed(at) => self.say(format!("tier {tier}: resumed from its checkpoint ({at})")),
            CheckpointEvent::Refused(why) => {
                self.say(format!("warning: tier {tier}: its checkpoint is refused and removed ({why}); the tier starts again"))
            }
            CheckpointEvent::NotWritten(why) => self.say(format!(
                "warning: tier {tier}: a checkpoint could not be written ({why}); the build goes on, resumable from the last one written"
            )),
        }
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

#[cfg(test)]
mod tests {
    use super::{progress_line, CurrentTier, TierLines, FIRST_LINE, LONGEST_GAP};
    use std::time::{Duration, Instant};

    #[test]
    fn a_long_tier_says_how_far_it_is_at_growing_gaps() {
        let mut lines = TierLines::new("45", 1000);
        lines.done = 250;
        assert_eq!(lines.due_line(FIRST_LINE / 2), None);
        let minute = Duration::from_secs(60);
        let said: Vec<u64> = (1..=40u64).filter_map(|m| lines.due_line(minute * m as u32).map(|_| m)).collect();
        // After 1 minute, then gaps of 2, 4, 8 and 10 minutes.
        assert_eq!(said, [1, 3, 7, 15, 25, 35]);
        assert_eq!(lines.gap, LONGEST_GAP);
        // None once the work is counted done (the tier's own line follows).
        lines.done = 1000;
        assert_eq!(lines.due_line(minute * 100), None);
    }

    #[test]
    fn the_last_checkpoint_is_said_once_there_is_one() {
        let mut tier = CurrentTier { name: "45".to_owned(), checkpoint: None };
        assert_eq!(tier.checkpoint_note(), "");
        tier.checkpoint = Some(Instant::now() - Duration::from_secs(180));
        assert_eq!(tier.checkpoint_note(), ", checkpoint 3 min ago");
    }

    #[test]
    fn a_progress_line_gives_the_share_and_the_time_left() {
        let line = progress_line("45", 300_000_000, 1_200_000_000, Duration::from_secs(600));
        assert_eq!(
            line,
            "tier 45: 300,000,000 of 1,200,000,000 positions (25 %) after 10 min, about 30 min to go at this rate"
        );
        let line = progress_line("3-3", 0, 10, Duration::from_secs(90));
        assert_eq!(line, "tier 3-3: 0 of 10 positions (0 %) after 90 s");
        let line = progress_line("5-5", 1, 4, Duration::from_secs(3 * 3600 + 5 * 60));
        assert_eq!(line, "tier 5-5: 1 of 4 positions (25 %) after 3 h 05 min, about 9 h 15 min to go at this rate");
    }
}
