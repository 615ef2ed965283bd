//! `solve kalah`: Kalah(m, n) solved exactly: the start's margin, every opening move's,
//! the principal line; any position; full-game tables and the game-graph size.

use crate::answer::{self, Answered, Answerer, Asking, Subcommand};
use crate::memory;
use crate::options::{BuildFlags, ForceFlag, LineLength, RecordFile, SearchBudget, TablesRoot};
use crate::printer::counted;
use crate::progress::BuildProgress;
use anyhow::Result;
use clap::{Args, ValueEnum};
use games::kalah::board::Board;
use games::kalah::notation::{self, picture};
use games::kalah::{Kalah, Position, Rules};
use indicatif::HumanCount;
use search::kalah::solver::LARGE_INSTANCE;
use search::kalah::{auto_endgame_seeds, default_tt_bits, Margin, Plan, Search, Solver, SolverError, Turn};
use search::tree::Budget;
use std::time::Instant;
use tablebase::front::kalah::{self as kalah_front, solved_report, Solved, Solving};
use tablebase::front::{Asked, FrontEnd};
use tablebase::query::Request;
use tablebase::registry;
use tablebase::report::{PositionReport, ReachableReport, TablesReport};

#[derive(Clone, Copy, ValueEnum)]
pub enum Preset {
    /// Irving, Donkers & Uiterwijk 2000 (the published results): a last seed in an empty
    /// own pit always goes to the store with the opposite seeds; the game ends when a row
    /// is empty; leftovers go to their row's owner.
    EmptyCapture,
    /// Most programs: as empty-capture, but a capture needs seeds opposite.
    Standard,
    /// Mark Bassett's 1994 text read literally: captures take only the opposite seeds,
    /// laps skip the emptied pit, the game ends when the mover cannot move, leftovers go
    /// to nobody, and a move must leave the opponent a move if it can.
    Bassett,
}

impl Preset {
    fn rules(self) -> Rules {
        match self {
            Preset::EmptyCapture => Rules::EMPTY_CAPTURE,
            Preset::Standard => Rules::STANDARD,
            Preset::Bassett => Rules::BASSETT,
        }
    }
}

#[derive(Clone, Copy, ValueEnum)]
enum YesNo {
    Yes,
    No,
}

/// How many seeds the endgame tables hold: a number, or `auto`, chosen from free memory
/// and the instance (what `solve kalah` does when the option is left out).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EndgameSeeds {
    /// Chosen for the instance.
    Auto,
    /// Up to this many seeds in the pits.
    Up(u32),
}

impl std::str::FromStr for EndgameSeeds {
    type Err = String;
    fn from_str(text: &str) -> Result<EndgameSeeds, String> {
        match text {
            "auto" => Ok(EndgameSeeds::Auto),
            k => k.parse().map(EndgameSeeds::Up).map_err(|_| "a number of seeds, or `auto`".to_owned()),
        }
    }
}

impl EndgameSeeds {
    /// The seeds for an instance of `total` seeds on `m` pits a row.
    pub fn for_instance(self, m: usize, total: u32, tt_bits: u32, rules: &Rules) -> u32 {
        match self {
            EndgameSeeds::Up(k) => k.min(total),
            EndgameSeeds::Auto => auto_endgame_seeds(m, total, tt_bits, rules),
        }
    }
}

#[derive(Args)]
#[command(
    about = "Kalah(m, n): exact margins of the start, every opening move, any position",
    long_about = "Solves Kalah with M pits a row and N seeds in each pit: prints the first player's final \
                  store difference under perfect play (the margin), win/draw/loss, every opening move with \
                  its margin, and the principal line.\n\n\
                  Values come from endgame tables keyed by the pits alone (the store difference still to be \
                  gained), built under --out and reused by later runs, for every board of up to \
                  --endgame-seeds seeds in the pits. When the whole game fits (--table, or a small enough \
                  instance) every position is one table probe; otherwise an MTD(f) alpha-beta search with a \
                  transposition table runs from the position down to the tables, within --time (from the \
                  command's start; the automatic tables are those that build in a quarter of it) and --nodes. \
                  Where the budget ends the search first (or Ctrl-C does), the answer is the bounds it proved \
                  on the margin and on every move, marked not proven, and the move it prefers.\n\n\
                  Moves are named by the mover's pit, 1 to M from his left as he faces the board (pit M is \
                  next to his store). A move whose last seed lands in the mover's store earns another turn; \
                  the turn is written with the further choices joined by `-`, as the literature does: `3-6`; \
                  --max-line counts such a turn as one move.\n\n\
                  Position notation (--position): `<South pits>/<North pits> <South store>-<North store> <S|N>`, \
                  each row from its owner's pit 1, e.g. `4,4,4,4,4,4/4,4,4,4,4,4 0-0 S` (the start of \
                  Kalah(6,4)). South moves first.\n\n\
                  Rules: a preset (--rules), each switch of which may be changed on its own.",
    after_help = "Examples:\n  \
                  solve kalah --pits 4 --seeds 3\n  \
                  solve kalah --pits 6 --seeds 4 --json\n  \
                  solve kalah --pits 6 --seeds 6 --time 600\n  \
                  solve kalah --pits 4 --seeds 4 --table\n  \
                  solve kalah --pits 3 --seeds 3 --rules bassett\n  \
                  solve kalah --position \"0,3,1,0/2,0,0,4 10-9 N\""
)]
pub struct KalahArgs {
    /// Pits per row, 1 to 8 (default: the --position's, else 6).
    #[arg(long, conflicts_with = "record")]
    pits: Option<usize>,
    /// Seeds in each pit at the start (not with --position, which gives its own).
    #[arg(long, default_value_t = 4, conflicts_with_all = ["position", "record"])]
    seeds: u32,
    /// Rule preset.
    #[arg(long, value_enum, ignore_case = true, default_value = "empty-capture", conflicts_with = "record")]
    rules: Preset,
    /// Capture switch: empty, standard or opposite-only (overrides the preset's).
    #[arg(long)]
    capture: Option<String>,
    /// Skip the emptied pit on a lap of 2m+1 seeds or more (overrides the preset's).
    #[arg(long, value_enum, ignore_case = true)]
    skip_origin: Option<YesNo>,
    /// End switch: side-empty or no-move (overrides the preset's).
    #[arg(long)]
    end: Option<String>,
    /// Where seeds left in the pits at the end go: owner or none (overrides the preset's).
    #[arg(long)]
    leftovers: Option<String>,
    /// Forbid moves that leave the opponent's row empty while another move exists.
    #[arg(long, value_enum, ignore_case = true)]
    must_leave_move: Option<YesNo>,
    /// Analyse this position instead of the start (see the notation above).
    #[arg(long, allow_hyphen_values = true)]
    position: Option<String>,
    /// Build the full-game table (every board with up to 2·M·N seeds in the pits), report
    /// its size and the number of positions reachable from the start.
    #[arg(long, conflicts_with = "endgame_seeds")]
    table: bool,
    /// Build endgame tables up to this many seeds in the pits and search above them
    /// (default: as many as fit in half the free memory and a budget of boards: 17 for six
    /// pits; for instances of more than 50 seeds a larger budget, 24 for six pits; for
    /// instances of up to 40 seeds, a third of their seeds; under standard and bassett
    /// rules, at least the seeds less 32 within the larger budget: 16 for Kalah(8,3); of
    /// those, the most whose missing tiers build within a quarter of --time); `auto` says
    /// the same.
    #[arg(long, value_name = "SEEDS")]
    endgame_seeds: Option<EndgameSeeds>,
    /// Transposition table of at most 2^B entries of 16 bytes, B from 4 to 36, one a board
    /// searched, its memory taken as the search fills it (default: 27, 2 GiB, or fewer
    /// where that would pass a quarter of the free memory).
    #[arg(long, value_parser = clap::value_parser!(u32).range(4..=36))]
    tt_bits: Option<u32>,
    #[command(flatten)]
    tables: TablesRoot,
    /// Print one JSON object on standard output instead of text (progress still goes to
    /// standard error).
    #[arg(long)]
    json: bool,
    /// The value and the principal line only, not every move's exact margin: on large
    /// instances the worse moves' margins cost far more than the value (docs/results.md has
    /// both for Kalah(6,4) and (6,5)).
    #[arg(long, conflicts_with = "record")]
    value_only: bool,
    #[command(flatten)]
    line: LineLength,
    #[command(flatten)]
    search: SearchBudget,
    #[command(flatten)]
    record: RecordFile,
    #[command(flatten)]
    pub force: ForceFlag,
}

fn rules(args: &KalahArgs) -> Result<Rules> {
    let mut rules = args.rules.rules();
    if let Some(c) = &args.capture {
        rules.capture = Rules::parse_capture(c)?;
    }
    if let Some(e) = &args.end {
        rules.end = Rules::parse_end(e)?;
    }
    if let Some(l) = &args.leftovers {
        rules.leftovers = Rules::parse_leftovers(l)?;
    }
    if let Some(s) = args.skip_origin {
        rules.skip_origin = matches!(s, YesNo::Yes);
    }
    if let Some(s) = args.must_leave_move {
        rules.must_leave_move = matches!(s, YesNo::Yes);
    }
    Ok(rules)
}

/// Says on standard error what a solve of `seeds` seeds will need before it starts: the
/// endgame tables (their boards, size and the boards still to build) and, above them, the
/// transposition table, warning that a search of that many seeds may not finish.
fn announce(plan: &Plan, seeds: u32) {
    let to_build = match plan.positions_to_build() {
        0 => "all on disk".to_owned(),
        n => format!(
            "{} to build, {}",
            counted(n, "position", "positions"),
            crate::build::time_here(plan.build_seconds())
        ),
    };
    errln!(
        "{} in the pits; endgame tables up to {}: {}, about {} ({to_build})",
        counted(seeds, "seed", "seeds"),
        counted(plan.endgame_seeds(), "seed", "seeds"),
        counted(plan.table_positions(), "position", "positions"),
        memory::human(plan.table_bytes()),
    );
    if plan.searches() {
        errln!(
            "search above the tables: a transposition table of at most {}, its memory taken only as the search fills it",
            memory::human(plan.transposition_bytes() as f64)
        );
        if seeds > LARGE_INSTANCE {
            errln!(
                "a search of {seeds} seeds above {}-seed tables may not finish (more --endgame-seeds shortens it, \
                 if they fit)",
                plan.endgame_seeds()
            );
        }
    }
}

/// Builds (or reuses) the tables of `plan` with a progress bar, as `flags` ask.
pub fn build(plan: Plan, flags: BuildFlags) -> Result<Solver> {
    crate::build::check_disk(plan.dir(), plan.bytes_to_build(), flags)?;
    let progress = BuildProgress::new(plan.positions_to_build());
    let solver = plan.build(&progress, flags.build_options().checkpoint_every).map_err(naming_the_option)?;
    progress.finish();
    Ok(solver)
}

/// A memory refusal with the option that lowers the need.
fn naming_the_option(e: SolverError) -> anyhow::Error {
    let option = match e {
        SolverError::TablesTooBig { .. } => "--endgame-seeds",
        SolverError::TranspositionTooBig { .. } => "--tt-bits",
        _ => return e.into(),
    };
    anyhow::anyhow!("{e} (lower {option})")
}

/// How often a search prints its progress where no spinner is drawn.
const SEARCH_LOG_EVERY: std::time::Duration = std::time::Duration::from_secs(60);

/// The progress of `search` on `root`, in a line: its boards, their rate, the tables
/// probed, and the bounds on the root's margin proved so far, while they are apart.
fn progress_line(solver: &Solver, search: &Search, root: &Position, before: (u64, u64), started: Instant) -> String {
    let nodes = search.nodes() - before.0;
    let rate = nodes as f64 / started.elapsed().as_secs_f64().max(1e-3);
    let probes = search.probes() - before.1;
    let mut line =
        format!("searching: {} boards, {:.2} M/s, {} probes", HumanCount(nodes), rate / 1e6, HumanCount(probes));
    // An hour's search that is stopped still says what it had proved.
    if let Ok(Margin { lower, upper }) = solver.proved(search, root) {
        if lower < upper {
            line += &format!(", margin {lower:+} to {upper:+}");
        }
    }
    line
}

/// Runs `work` with a spinner counting the boards `search` searches meanwhile, if there is a
/// search, and the bounds on `root`'s margin proved so far; `work` may print lines on
/// standard error (above the spinner) through the function it is given, each with the
/// seconds since `since` (the command's start: the total a user waits, as the final
/// `time:` line counts it).
pub fn with_search_progress<T: Send>(
    solver: &Solver,
    search: Option<&Search>,
    root: &Position,
    since: Instant,
    work: impl FnOnce(&(dyn Fn(String) + Sync)) -> Result<T> + Send,
) -> Result<T> {
    let Some(search) = search else { return work(&|_| {}) };
    let spinner = crate::progress::spinner("searching");
    let started = Instant::now();
    // A search may serve several positions in turn: count only this work's boards.
    let before = (search.nodes(), search.probes());
    let done = std::sync::atomic::AtomicBool::new(false);
    let result = std::thread::scope(|scope| {
        let ticker = scope.spawn(|| {
            let mut logged = Instant::now();
            while !done.load(std::sync::atomic::Ordering::Relaxed) {
                let message = progress_line(solver, search, root, before, started);
                // Without a spinner drawn (a log, or a pipe), a line now and then says
                // the search is alive and how fast it goes.
                if spinner.is_hidden() && logged.elapsed() >= SEARCH_LOG_EVERY {
                    errln!("{message} ({:.0} s)", since.elapsed().as_secs_f64());
                    logged = Instant::now();
                }
                spinner.set_message(message);
                // Woken at once when the work is done: a short search should not wait.
                std::thread::park_timeout(std::time::Duration::from_millis(200));
            }
        });
        // On standard error even when the spinner is not drawn (not a terminal, or JSON
        // on standard output): a search of hours should say what it has found.
        let say = |line: String| {
            let line = format!("{line} ({:.1} s)", since.elapsed().as_secs_f64());
            if spinner.is_hidden() {
                errln!("{line}");
            } else {
                spinner.println(line);
            }
        };
        let result = work(&say);
        done.store(true, std::sync::atomic::Ordering::Relaxed);
        ticker.thread().unpark();
        result
    });
    spinner.finish_and_clear();
    result
}

fn outcome_word(margin: i32) -> &'static str {
    match margin.signum() {
        1 => "win",
        0 => "draw",
        _ => "loss",
    }
}

/// The seeds of the largest boards the endgame tables hold, for a position of `total`
/// seeds in the pits on `m` pits a row: all of them with `--table` or `--no-search`,
/// `--endgame-seeds`, none for a game already `over` (its value is what the stores and
/// rows hold), else as many as fit ([`auto_endgame_seeds`]) whose tiers missing from
/// the tables' directory build within a quarter of `--time`, by the build's estimate:
/// the search gets the rest. Tables built stay, so later runs search above larger ones.
fn endgame_seeds(sizing: &Sizing, asking: &Asking, m: usize, total: u32, rules: &Rules, over: bool) -> Result<u32> {
    Ok(match (sizing.whole_game(asking), sizing.endgame_seeds) {
        (true, _) => total,
        (false, Some(EndgameSeeds::Up(k))) => k.min(total),
        (false, _) if over => 0,
        (false, _) => {
            let dir = registry::kalah_dir(asking.out, m, rules);
            let allowed = BUILD_SHARE * asking.search.time * rayon::current_num_threads() as f64;
            let mut k = auto_endgame_seeds(m, total, sizing.tt_bits, rules);
            while k > 0 && Plan::new(m, *rules, k, total, &dir, sizing.tt_bits)?.build_seconds() > allowed {
                k -= 1;
            }
            k
        }
    })
}

/// The share of `--time` the automatic endgame tables may take to build, by the build's
/// own estimate, as for every game ([`crate::above`]).
const BUILD_SHARE: f64 = 0.25;

/// The budget of the search above the tables: what is left of `--time` since `started`,
/// `--nodes`, and Ctrl-C.
fn budget(search: &SearchBudget, started: Instant) -> Budget<'static> {
    let time = std::time::Duration::from_secs_f64(search.time).saturating_sub(started.elapsed());
    Budget { nodes: search.nodes, time: Some(time), stop: Some(crate::above::ctrl_c()), ..Budget::default() }
}

/// The budget past which a large instance is warned that its worse moves can take hours.
const HOURS_WARNED: std::time::Duration = std::time::Duration::from_secs(3600);

/// Solves `position` (with a spinner, from `started`): its margin, every turn's unless
/// `value_only`, and a line of at most `max_line` turns, within the search's budget.
fn solve(
    (solver, search): (&Solver, Option<&Search>),
    position: &Position,
    value_only: bool,
    max_line: usize,
    started: Instant,
) -> Result<Solved> {
    with_search_progress(solver, search, position, started, |say| {
        let heard = |t: &Turn| say(format!("move {}: {:+}", t.name, t.margin.lower));
        // Only where the budget would let it run that long.
        let long = search.is_some_and(|s| s.deadline().is_none_or(|end| end > Instant::now() + HOURS_WARNED));
        if !value_only && position.seeds_in_pits() > LARGE_INSTANCE && long {
            say("every move's exact margin: on an instance this large the worse moves can take hours \
                 (--value-only: the value and the line alone)"
                .to_string());
        }
        let solved = kalah_front::solve(solver, search, position, !value_only, max_line, &heard)?;
        match solved.margin.value() {
            Some(v) if value_only => say(format!("value: {v:+}")),
            _ => {}
        }
        Ok(solved)
    })
}

/// How Kalah's solver is sized, as its flags say: the whole game's table (`--table`),
/// the endgame tables' seeds, the transposition table, and whether every turn is
/// valued.
struct Sizing {
    table: bool,
    endgame_seeds: Option<EndgameSeeds>,
    tt_bits: u32,
    value_only: bool,
}

impl Sizing {
    /// Whether every board of a position's seeds is built: `--table`, or `--no-search`.
    fn whole_game(&self, asking: &Asking) -> bool {
        self.table || asking.search.no_search
    }

    /// Whether the endgame tables are chosen for the instance, and built a tier at a time
    /// within a share of `--time`.
    fn automatic(&self, asking: &Asking) -> bool {
        !self.whole_game(asking) && matches!(self.endgame_seeds, None | Some(EndgameSeeds::Auto))
    }
}

/// Kalah's answerer ([`Answerer`]): its endgame tables sized for its window search as
/// [`Sizing`] says, built or reused, and the position solved by whole turns above
/// them. The solver built for one request serves the next of the same board and rules
/// and no more seeds (a record's positions).
struct KalahSolver {
    sizing: Sizing,
    /// The solver and the seeds its search starts from.
    built: Option<(Solver, u32)>,
}

impl KalahSolver {
    /// The solver for `position` under `rules`: the one built already where it serves,
    /// else its endgame tables built (or reused) as sized, announced first, with the seeds
    /// a search must start from (none for a game already over).
    fn solver(
        &mut self,
        asking: &Asking,
        flags: BuildFlags,
        position: &Position,
        rules: Rules,
    ) -> Result<&(Solver, u32)> {
        let serves = |(solver, searched): &(Solver, u32)| {
            solver.game().rules() == &rules
                && solver.game().pits() == position.pits()
                && position.seeds_in_pits() <= *searched
        };
        if !self.built.as_ref().is_some_and(serves) {
            self.built = Some(self.build(asking, flags, position, rules)?);
        }
        Ok(self.built.as_ref().expect("built above"))
    }

    fn build(&self, asking: &Asking, flags: BuildFlags, position: &Position, rules: Rules) -> Result<(Solver, u32)> {
        let (m, total, tt_bits) = (position.pits(), position.seeds_in_pits(), self.sizing.tt_bits);
        // A finished game's value is what the stores and rows already hold: unless tables
        // are asked for, none is built for it, and nothing is searched.
        let over = position.final_difference(&rules).is_some();
        let endgame_seeds = endgame_seeds(&self.sizing, asking, m, total, &rules, over)?;
        let searched = if over { endgame_seeds } else { total };
        let plan = Plan::new(m, rules, endgame_seeds, searched, &registry::kalah_dir(asking.out, m, &rules), tt_bits)?;
        crate::build::check_access(plan.dir(), plan.positions_to_build() > 0)?;
        announce(&plan, total);
        let solver = if self.sizing.automatic(asking) && !over {
            build_within(plan, std::time::Duration::from_secs_f64(BUILD_SHARE * asking.search.time), flags)?
        } else {
            build(plan, flags)?
        };
        Ok((solver, searched))
    }
}

impl Answerer<Kalah> for KalahSolver {
    fn answer(&mut self, request: &Request, asking: &Asking, flags: BuildFlags) -> Result<Answered<Kalah>> {
        let started = Instant::now();
        let asked = Kalah::asked(request).map_err(answer::refusal)?;
        let (position, rules) = (asked.position, *asked.game.rules());
        let (value_only, table) = (self.sizing.value_only, self.sizing.table);
        let (solver, searched) = self.solver(asking, flags, &position, rules)?;
        let search = solver.search(*searched)?.map(|s| s.with_budget(budget(&asking.search, started)));
        let search_started = Instant::now();
        let solved = solve((solver, search.as_ref()), &position, value_only, asking.max_line, started)?;
        let reachable = (table && asked.start.is_some()).then(|| solver.game().reachable(&position));
        let solving = Solving {
            endgame_seeds: solver.endgame_seeds(),
            search: search.as_ref().map(|s| kalah_front::search_details(s, search_started.elapsed().as_secs_f64())),
            seconds: Some(started.elapsed().as_secs_f64()),
        };
        let tables = TablesReport::new(solver.tables(), &solver.report, solver.build_seconds, memory::peak_resident());
        let reachable = reachable.map(|r| ReachableReport { positions: r, win: None, draw: None, loss: None });
        let report = solved_report(&position, asked.start, &rules, &solved, &solving, tables, reachable);
        Ok(Answered { game: solver.game().clone(), asked, report })
    }
}

/// Builds the tables of `plan` a tier at a time while the next, at the rate measured so
/// far, ends within `allowed`: the build's estimate assumes idle cores (Kalah(6,6)'s
/// 24-seed tables, estimated at 35 s, took 427 s on busy ones, leaving the search a third
/// of its ten minutes).
fn build_within(plan: Plan, allowed: std::time::Duration, flags: BuildFlags) -> Result<Solver> {
    let started = Instant::now();
    let target = plan.endgame_seeds();
    // Tables already whole on disk cost nothing.
    let on_disk = |j: u32| plan.with_endgame_seeds(j).is_ok_and(|p| p.positions_to_build() == 0);
    let mut seeds = (0..=target).rev().find(|&j| on_disk(j)).unwrap_or(0);
    let mut solver = build(plan.with_endgame_seeds(seeds)?, flags)?;
    let (mut built, mut tiers) = (0u64, solver.report.tiers_built);
    while seeds < target {
        let next = plan.with_endgame_seeds(seeds + 1)?;
        let todo = next.positions_to_build();
        let elapsed = started.elapsed().as_secs_f64();
        if built > 0 && elapsed + todo as f64 * elapsed / built as f64 > allowed.as_secs_f64() {
            errln!(
                "endgame tables stopped at {}: the next tier, at the rate measured, would pass a quarter of --time",
                counted(seeds, "seed", "seeds")
            );
            break;
        }
        solver = build(next, flags)?;
        (built, seeds, tiers) = (built + todo, seeds + 1, tiers + solver.report.tiers_built);
    }
    // One report for the tiers of every step.
    let all = solver.report.tiers_built + solver.report.tiers_reused;
    (solver.report.tiers_built, solver.report.tiers_reused) = (tiers, all - tiers);
    solver.build_seconds = started.elapsed().as_secs_f64();
    Ok(solver)
}

/// The request `args` make, in the API's names: the rules by their name (a preset, or
/// the switches changed from it), the board, the start or the position.
fn request(args: &KalahArgs) -> Result<Request> {
    let rules = rules(args)?;
    answer::request(&[
        ("pits", args.pits.map(|m| m.to_string())),
        ("rules", Some(rules.name())),
        ("seeds", args.position.is_none().then(|| args.seeds.to_string())),
        ("position", args.position.clone()),
    ])
}

/// What the command line asks beyond the request: the tables' root, the output, the
/// line's length and the search's budget; the tables a position needs are always built.
fn asking(args: &KalahArgs) -> Asking<'_> {
    Asking::building(&args.tables.out, args.json, &args.line, args.search)
}

pub fn run(args: KalahArgs, flags: BuildFlags) -> Result<()> {
    let sizing = Sizing {
        table: args.table,
        endgame_seeds: args.endgame_seeds,
        tt_bits: args.tt_bits.unwrap_or_else(default_tt_bits),
        value_only: args.value_only,
    };
    let mut solver = KalahSolver { sizing, built: None };
    let asking = asking(&args);
    if let Some(file) = &args.record.record {
        return crate::record::replay::<Kalah>(&crate::record::read(file)?, &asking, flags, &mut solver);
    }
    let answered = solver.answer(&request(&args)?, &asking, flags)?;
    answer::print(&answered, args.json, notes(&answered.report))
}

impl Subcommand for Kalah {
    fn holds(board: &Board) -> String {
        format!("{} in the pits", counted(board.seeds(), "seed", "seeds"))
    }

    fn picture(&self, position: &Position) -> String {
        picture(position)
    }

    fn mover(asked: &Asked<Kalah>) -> Option<String> {
        Some(asked.position.to_move().name().to_owned())
    }

    /// The game is over at the line's end: its final store difference for the player to
    /// move there.
    fn line_end(&self, _: &Asked<Kalah>, report: &PositionReport) -> Result<String> {
        let last = notation::parse(&report.line_end.position)?;
        Ok(match last.final_difference(self.rules()) {
            Some(d) => {
                format!("game over: final store difference {d:+} for {} ({})", last.to_move().name(), outcome_word(d))
            }
            // A line cut by --max-line: the printer says where.
            None => String::new(),
        })
    }
}

/// The lines printed below a report: what the counts and the moves mean, how the
/// position was solved and in what time.
fn notes(report: &PositionReport) -> Vec<String> {
    let mut notes = Vec::new();
    if report.reachable.is_some() {
        // Printed right below the count it explains.
        notes.push("(a reachable position is its pits, its stores and the side to move)".to_owned());
    }
    if report.moves.is_none() {
        notes.push("moves: not valued one by one (--value-only)".to_owned());
    }
    let details = report.details.as_ref();
    let detail = |name: &str| details.map(|d| &d[name]);
    let boards = counted(detail("endgame_seeds").and_then(|v| v.as_u64()).unwrap_or(0), "seed", "seeds");
    notes.push(match detail("solved").and_then(|v| v.as_str()) {
        Some("strongly") if report.over => "solved strongly: the game is over here".to_owned(),
        Some("strongly") => {
            format!("solved strongly: every position of this game is one table probe (boards up to {boards})")
        }
        Some(_) => format!("solved weakly: MTD(f) search above the tables of boards up to {boards}"),
        None => format!(
            "not solved within the budget: MTD(f) search above the tables of boards up to {boards} proved the \
             bounds shown (more --time or --nodes, or larger tables, go further)"
        ),
    });
    notes.push(format!("time: {:.1} s", detail("seconds").and_then(|v| v.as_f64()).unwrap_or(0.0)));
    notes
}

impl crate::Run for KalahArgs {
    fn build_flags(&self) -> crate::options::CommandFlags<'_> {
        crate::options::CommandFlags { force: Some(&self.force), parts: None }
    }

    fn run(self, flags: BuildFlags) -> Result<()> {
        run(self, flags)
    }
}
