//! A position whose tables are too large to build here (past the memory the build check
//! allows, or past what the game's index numbers): the lowest tiers whose build fits are
//! built, and a search above them answers it ([`search::tree`]) within `--time` and
//! `--nodes`, saying on standard error how its bounds tighten; Ctrl-C stops it, and the
//! answer is what it proved so far.

use crate::answer::{self, Answered, Asking, Subcommand};
use crate::build;
use crate::options::{BuildFlags, SearchBudget};
use anyhow::{anyhow, Result};
use indicatif::HumanCount;
use retro::store::{self, BuildReport};
use retro::{memory, Tables};
use search::tree::{search, Budget, Progress, Scale, Searched};
use std::io::IsTerminal;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};
use tablebase::analysis::Reported;
use tablebase::front::{self, Asked, FrontEnd};
use tablebase::query::Request;
use tablebase::report::{TablesReport, ValueReport};

/// The share of `--time` the tables built before the search may take, by the build's
/// own estimate.
pub const BUILD_SHARE: f64 = 0.25;

/// Set by Ctrl-C during a search: it stops and answers what it proved.
static STOP: AtomicBool = AtomicBool::new(false);

/// The flag Ctrl-C sets from now on (cleared now), for a search to stop at and answer
/// what it proved; the handler is installed on the first call.
pub fn ctrl_c() -> &'static AtomicBool {
    static HANDLER: std::sync::Once = std::sync::Once::new();
    STOP.store(false, Ordering::Relaxed);
    HANDLER.call_once(|| {
        if let Err(e) = ctrlc::set_handler(|| STOP.store(true, Ordering::Relaxed)) {
            errln!("Ctrl-C will not stop the search ({e})");
        }
    });
    &STOP
}

/// Seconds at most of the search tried before a long build ([`proven`]).
const SEARCH_FIRST: f64 = 10.0;

/// Answers `asked` by a search above the lowest tiers that fit (built first, for a start
/// or with `--build`; else those already built).
pub fn answer<F: Subcommand>(asked: Asked<F>, asking: &Asking, flags: BuildFlags) -> Result<Answered<F>>
where
    F::Value: Scale,
{
    Ok(searched_answer(asked, asking, flags)?.0)
}

/// `asked` answered by a search of at most [`SEARCH_FIRST`] seconds (and `--time`) where
/// it proves the value of the position and of every move; `None` where it does not, and
/// the full tables are built instead.
pub fn proven<F: Subcommand>(request: &Request, asking: &Asking, flags: BuildFlags) -> Result<Option<Answered<F>>>
where
    F::Value: Scale,
{
    let time = asking.search.time.min(SEARCH_FIRST);
    let first = Asking { search: SearchBudget { time, ..asking.search }, ..*asking };
    let asked = F::asked(request).map_err(answer::refusal)?;
    let started = Instant::now();
    let (answered, exact) = searched_answer(asked, &first, flags)?;
    if !exact {
        let seconds = started.elapsed().as_secs_f64();
        errln!("a search of {seconds:.1} s (at most {time} s) proved not every move: building the full tables");
    }
    Ok(exact.then_some(answered))
}

/// [`answer()`], and whether the search proved the value of the position and of every
/// move.
fn searched_answer<F: Subcommand>(asked: Asked<F>, asking: &Asking, flags: BuildFlags) -> Result<(Answered<F>, bool)>
where
    F::Value: Scale,
{
    let started = Instant::now();
    let position = F::played(&asked.position);
    let (game, tiers) = tiers_that_fit(&asked, &position, asking, flags)?;
    let dir = game.directory(asking.out);
    let allowed = Duration::from_secs_f64(BUILD_SHARE * asking.search.time);
    let (tables, built, seconds) = build_within(&game, &dir, &tiers, flags, allowed)?;
    let left = Duration::from_secs_f64(asking.search.time).saturating_sub(started.elapsed());
    let found = searched(&game, &tables, &position, asking.search, left)?;
    let tables_report = TablesReport::new(&tables, &built, seconds, memory::peak_resident());
    let (report, _) = front::searched(&game, &tables, &asked, &found, asking.max_line, tables_report)?;
    let exact = found.is_exact() && found.moves.iter().all(|m| m.lower == m.upper);
    Ok((Answered { game, asked, report }, exact))
}

/// The tables of `tiers` (lowest first, each with its children before it), built one
/// tier after another while the next one, at the rate measured so far, ends within
/// `allowed`: the build's own estimate of its time can be far off (Trias on 3×12).
/// Returns them, the build's report and its seconds.
pub fn build_within<G: retro::Game>(
    game: &G,
    dir: &std::path::Path,
    tiers: &[G::Tier],
    flags: BuildFlags,
    allowed: Duration,
) -> Result<(Tables<G>, BuildReport, f64)> {
    let started = Instant::now();
    let mut last = (store::open(game, dir, &[])?, BuildReport::default());
    let (mut built, mut solved) = (0, 0u64);
    for (i, &tier) in tiers.iter().enumerate() {
        let size = game.tier_size(tier);
        let elapsed = started.elapsed().as_secs_f64();
        let rate = if elapsed > 0.0 && solved > 0 { solved as f64 / elapsed } else { f64::INFINITY };
        let missing = !store::has_tier_file(dir, tier);
        if missing && elapsed + size as f64 / rate > allowed.as_secs_f64() {
            break;
        }
        let (tables, report, _) = build::tables(game, dir, &tiers[..=i], flags)?;
        built += report.tiers_built;
        solved += if missing { size } else { 0 };
        last = (tables, report);
    }
    let (tables, mut report) = last;
    report.tiers_reused = (report.tiers_built + report.tiers_reused).saturating_sub(built);
    report.tiers_built = built;
    Ok((tables, report, started.elapsed().as_secs_f64()))
}

/// The game indexed for the most of the lowest tiers below `position`'s (those of its
/// tier order, lowest first) whose tables fit, and those tiers: built already, or (where
/// `asking` builds) within the memory the build check allows and a share of the time.
pub fn tiers_that_fit<F: FrontEnd>(
    asked: &Asked<F>,
    position: &F::Position,
    asking: &Asking,
    flags: BuildFlags,
) -> Result<(F, Vec<F::Tier>)> {
    let root = asked.game.material_tier(position);
    let order = retro::order::tier_order(&asked.game, &[root])?;
    let key = asked.game.table_key();
    let fitting = |n: usize| fitting_game::<F>(&key, &order[..n], asking, flags);
    let none = fitting(0).ok_or_else(|| anyhow!("{}: no game of key `{key}` to search", F::title(asked)))?;
    // What fits grows no larger with more tiers: the largest prefix, by halving.
    let (mut most, mut best, mut past) = (0, none, order.len() + 1);
    while past - most > 1 {
        let mid = most + (past - most) / 2;
        match fitting(mid) {
            Some(game) => (most, best) = (mid, game),
            None => past = mid,
        }
    }
    Ok((best, order[..most].to_vec()))
}

/// The game of `key` indexed for `tiers`, if their tables fit: all built, or (where
/// `asking` builds) those missing within the memory the build check allows (`--force`:
/// any) and a quarter of `--time` by the build's estimate.
fn fitting_game<F: FrontEnd>(key: &str, tiers: &[F::Tier], asking: &Asking, flags: BuildFlags) -> Option<F> {
    let names: Vec<String> = tiers.iter().map(ToString::to_string).collect();
    let (game, _) = front::game_of_key::<F>(key, &names).ok()?;
    let dir = game.directory(asking.out);
    let todo = build::not_built::<F>(&dir, tiers);
    if todo.is_empty() {
        return Some(game);
    }
    if !asking.build {
        return None;
    }
    let need = memory::Need::of(&game, &todo, memory::available(), flags.parts);
    let memory = flags.force || memory::check_build(&game, &todo, flags.parts).is_ok();
    (memory && need.seconds <= BUILD_SHARE * asking.search.time).then_some(game)
}

/// The search of `position` above `tables` within `budget` (its time `left`), its
/// progress on standard error, Ctrl-C stopping it.
fn searched<F: FrontEnd>(
    game: &F,
    tables: &Tables<F>,
    position: &F::Position,
    budget: SearchBudget,
    left: Duration,
) -> Result<Searched<F::Position, F::Value>>
where
    F::Value: Scale,
{
    let budget = Budget { nodes: budget.nodes, time: Some(left), stop: Some(ctrl_c()), ..Budget::default() };
    let mut line = ProgressLine::new();
    let found = search(game, tables, position, budget, &mut |p| line.show(p))?;
    line.finish();
    Ok(found)
}

/// The search's progress on standard error: on a terminal one line rewritten a few
/// times a second; otherwise a line every few seconds.
pub struct ProgressLine {
    terminal: bool,
    last: Option<Instant>,
}

/// The least time between two lines when standard error is no terminal.
const LOG_EVERY: Duration = Duration::from_secs(5);

impl ProgressLine {
    pub fn new() -> ProgressLine {
        ProgressLine { terminal: std::io::stderr().is_terminal(), last: None }
    }

    fn show<V: Reported>(&mut self, p: &Progress<V>) {
        self.show_text(format!(
            "search: {} nodes, {}/s, horizon {}, value {}, {} probes, {:.1} s",
            HumanCount(p.nodes),
            HumanCount(p.nodes_per_second as u64),
            p.horizon,
            ValueReport::between(p.lower.report(), p.upper.report()),
            HumanCount(p.probes),
            p.seconds
        ));
    }

    /// Shows `line`: on a terminal at once, in place of the last; otherwise if the last
    /// was shown long enough ago.
    pub fn show_text(&mut self, line: String) {
        if self.terminal {
            use std::io::Write as _;
            let _ = write!(std::io::stderr().lock(), "\r{line}\x1b[K");
            self.last = Some(Instant::now());
        } else if self.last.is_none_or(|t| t.elapsed() >= LOG_EVERY) {
            errln!("{line}");
            self.last = Some(Instant::now());
        }
    }

    pub fn finish(&self) {
        if self.terminal && self.last.is_some() {
            errln!();
        }
    }
}
