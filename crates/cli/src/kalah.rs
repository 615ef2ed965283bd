//! `solve kalah`: Kalah(m, n) solved exactly: the start's margin, every opening move's,
//! the principal line; any position; full-game tables and the game-graph size.

use crate::memory;
use crate::options::{BuildFlags, ForceFlag, LineLength, TablesRoot};
use crate::printer::{counted, print_json, print_position, View};
use crate::progress::BuildProgress;
use anyhow::{bail, Context, Result};
use clap::{Args, ValueEnum};
use games::kalah::notation::{self, picture};
use games::kalah::{Position, Rules};
use indicatif::HumanCount;
use search::kalah::solver::LARGE_INSTANCE;
use search::kalah::{auto_endgame_seeds, default_tt_bits, Plan, Search, Solver, SolverError, Turn};
use serde_json::json;
use std::time::Instant;
use tablebase::registry;
use tablebase::report::{
    LineEnd, LineEndKind, MoveReport, PositionReport, ReachableReport, TablesReport, ValueReport, SCHEMA,
};

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
                  transposition table runs from the position down to the tables.\n\n\
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
                  solve kalah --pits 4 --seeds 4 --table\n  \
                  solve kalah --pits 3 --seeds 3 --rules bassett\n  \
                  solve kalah --position \"0,3,1,0/2,0,0,4 10-9 N\""
)]
pub struct KalahArgs {
    /// Pits per row, 1 to 8 (default: the --position's, else 6).
    #[arg(long)]
    pits: Option<usize>,
    /// Seeds in each pit at the start (not with --position, which gives its own).
    #[arg(long, default_value_t = 4, conflicts_with = "position")]
    seeds: u32,
    /// Rule preset.
    #[arg(long, value_enum, ignore_case = true, default_value = "empty-capture")]
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
    /// rules, at least the seeds less 32 within the larger budget: 16 for Kalah(8,3));
    /// `auto` says the same.
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
    #[arg(long)]
    value_only: bool,
    #[command(flatten)]
    line: LineLength,
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
    let solver = plan.build(&progress).map_err(naming_the_option)?;
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

/// The bounds on the margin at `root` that `search` has proved so far, while they are
/// apart.
fn proved(search: &Search, root: &Position) -> Option<(i32, i32)> {
    let (lower, upper) = search.stored_bounds(&root.board())?;
    let difference = root.store_difference();
    (lower < upper).then(|| (difference + i32::from(lower), difference + i32::from(upper)))
}

/// Runs `work` with a spinner counting the boards `search` searches meanwhile, if there is a
/// search, and, for a `root` searched alone, the bounds on its margin proved so far;
/// `work` may print lines on standard error (above the spinner) through the function it
/// is given, each with the seconds since `since` (the command's start: the total a user
/// waits, as the final `time:` line counts it).
pub fn with_search_progress<T: Send>(
    search: Option<&Search>,
    root: Option<&Position>,
    since: Instant,
    work: impl FnOnce(&(dyn Fn(String) + Sync)) -> Result<T> + Send,
) -> Result<T> {
    let Some(search) = search else { return work(&|_| {}) };
    let spinner = crate::progress::spinner("searching");
    let started = Instant::now();
    // A search may serve several positions in turn: count only this work's boards.
    let before = search.nodes();
    let done = std::sync::atomic::AtomicBool::new(false);
    let result = std::thread::scope(|scope| {
        let ticker = scope.spawn(|| {
            let mut logged = Instant::now();
            while !done.load(std::sync::atomic::Ordering::Relaxed) {
                let nodes = search.nodes() - before;
                let rate = nodes as f64 / started.elapsed().as_secs_f64().max(1e-3);
                let mut message = format!("searching: {} boards, {:.2} M/s", HumanCount(nodes), rate / 1e6);
                // An hour's search that is stopped still says what it had proved.
                if let Some((lower, upper)) = root.and_then(|p| proved(search, p)) {
                    message += &format!(", margin {lower:+} to {upper:+}");
                }
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

/// The position asked about (`--position`, else the start of `--pits` and `--seeds`) and
/// its pits a row.
fn position(args: &KalahArgs) -> Result<(Position, usize)> {
    match &args.position {
        Some(text) => {
            let p =
                notation::parse(text).with_context(|| format!("reading position {:?}", games::echo::excerpt(text)))?;
            if let Some(m) = args.pits.filter(|&m| m != p.pits()) {
                bail!("--pits {m} disagrees with the position, which has {} pits a row", p.pits());
            }
            Ok((p, p.pits()))
        }
        None => {
            let m = args.pits.unwrap_or(6);
            Ok((Position::start(m, args.seeds)?, m))
        }
    }
}

/// The seeds of the largest boards the endgame tables hold, for a position of `total`
/// seeds in the pits on `m` pits a row: all of them with `--table`, `--endgame-seeds`,
/// none for a game already `over` (its value is what the stores and rows hold), else as
/// many as fit.
fn endgame_seeds(args: &KalahArgs, m: usize, total: u32, tt_bits: u32, rules: &Rules, over: bool) -> u32 {
    match (args.table, args.endgame_seeds) {
        (true, _) => total,
        (false, Some(EndgameSeeds::Up(k))) => k.min(total),
        (false, _) if over => 0,
        (false, _) => auto_endgame_seeds(m, total, tt_bits, rules),
    }
}

/// A position's value, its turns' (unless `--value-only`), and its principal line.
struct Answer {
    margin: i32,
    /// `None` with --value-only: not computed.
    turns: Option<Vec<Turn>>,
    line: Vec<String>,
    /// The positions along the line, the position first.
    positions: Vec<Position>,
}

/// Searches `position` (with a spinner, from `started`) for what `args` ask: its margin,
/// every turn's unless `--value-only`, and the line.
fn answer(
    args: &KalahArgs,
    solver: &Solver,
    search: Option<&Search>,
    position: &Position,
    started: Instant,
) -> Result<Answer> {
    // Only a search of the position alone narrows its own bounds as it goes.
    let root = args.value_only.then_some(position);
    with_search_progress(search, root, started, |say| {
        let (margin, turns) = if args.value_only {
            let margin = solver.margin(search, position)?;
            say(format!("value: {margin:+}"));
            (margin, None)
        } else {
            if position.seeds_in_pits() > LARGE_INSTANCE {
                say("every move's exact margin: on an instance this large the worse moves can take hours \
                     (--value-only: the value and the line alone)"
                    .to_string());
            }
            let (margin, turns) =
                solver.margin_and_turns(search, position, &|(name, _, v)| say(format!("move {name}: {v:+}")))?;
            (margin, Some(turns))
        };
        let (line, positions) = solver.principal_line(search, position, margin, args.line.max_line)?;
        Ok(Answer { margin, turns, line, positions })
    })
}

/// What `solve kalah` found for a position, and how.
struct Solved {
    /// Pits a row.
    m: usize,
    rules: Rules,
    /// Seeds of the largest boards in the endgame tables.
    endgame_seeds: u32,
    /// Whether the game is over at the position.
    over: bool,
    answer: Answer,
    /// Positions reachable from a start, counted with --table.
    reachable: Option<u64>,
    /// Boards searched, where a search ran.
    nodes: Option<u64>,
    seconds: f64,
}

impl Solved {
    /// Whether every position of the game is a table probe (or the game is over).
    fn strongly(&self, position: &Position) -> bool {
        self.over || self.endgame_seeds >= position.seeds_in_pits()
    }

    /// The last position of the principal line.
    fn line_end(&self) -> &Position {
        self.answer.positions.last().expect("a line starts with its position")
    }
}

pub fn run(args: KalahArgs, flags: BuildFlags) -> Result<()> {
    let rules = rules(&args)?;
    let (position, m) = position(&args)?;
    let total = position.seeds_in_pits();
    let tt_bits = args.tt_bits.unwrap_or_else(default_tt_bits);
    // A finished game's value is what the stores and rows already hold: unless tables
    // are asked for, none is built for it, and nothing is searched.
    let over = position.final_difference(&rules).is_some();
    let endgame_seeds = endgame_seeds(&args, m, total, tt_bits, &rules, over);
    let searched = if over { endgame_seeds } else { total };
    let started = Instant::now();
    let plan =
        Plan::new(m, rules, endgame_seeds, searched, &registry::kalah_dir(&args.tables.out, m, &rules), tt_bits)?;
    crate::build::check_access(plan.dir(), plan.positions_to_build() > 0)?;
    announce(&plan, total);
    let solver = build(plan, flags)?;
    let search = solver.search(searched)?;
    let answer = answer(&args, &solver, search.as_ref(), &position, started)?;
    let counts_reachable = args.table && position.start_seeds().is_some();
    let reachable = counts_reachable.then(|| solver.game().reachable(&position));
    let nodes = search.as_ref().map(|s| s.nodes());
    let seconds = started.elapsed().as_secs_f64();
    let solved = Solved { m, rules, endgame_seeds, over, answer, reachable, nodes, seconds };
    let tables = TablesReport::new(solver.tables(), &solver.report, solver.build_seconds, memory::peak_resident());
    let out = report(&solved, &position, tables);
    if args.json {
        print_json(&out)?;
        return Ok(());
    }
    print_text(&out, &solved, &position)
}

/// The report of `position` as `solved`, its tables as `tables` says.
fn report(solved: &Solved, position: &Position, tables: TablesReport) -> PositionReport {
    let Solved { m, rules, answer, .. } = solved;
    // The seeds a pit of a start, however it was given (--seeds, or its position).
    let start_seeds = position.start_seeds();
    let last = solved.line_end();
    PositionReport {
        schema: SCHEMA,
        game: "kalah".to_owned(),
        parameters: json!({"pits": m, "seeds": start_seeds}),
        rules: rules.name(),
        position: position.to_string(),
        start: start_seeds.is_some(),
        to_move: position.to_move().name().to_lowercase(),
        over: solved.over,
        value: ValueReport::score(answer.margin),
        // `None` with --value-only: not computed, which an empty list would not say.
        moves: answer.turns.as_ref().map(|turns| {
            turns
                .iter()
                .map(|(name, next, v)| MoveReport {
                    name: name.clone(),
                    value: ValueReport::score(*v),
                    position: next.to_string(),
                    captures: None,
                })
                .collect()
        }),
        best: answer.turns.as_ref().and_then(|turns| turns.iter().find(|t| t.2 == answer.margin).map(|t| t.0.clone())),
        line: answer.line.clone(),
        line_end: LineEnd {
            kind: if last.final_difference(rules).is_some() { LineEndKind::Over } else { LineEndKind::Cut },
            position: last.to_string(),
            repeats_ply: None,
        },
        tables,
        reachable: solved.reachable.map(|r| ReachableReport { positions: r, win: None, draw: None, loss: None }),
        details: Some(json!({
            "switches": rules.switches(),
            "endgame_seeds": solved.endgame_seeds,
            "solved": if solved.strongly(position) { "strongly" } else { "weakly" },
            "search_nodes": solved.nodes,
            "seconds": solved.seconds,
        })),
    }
}

/// Prints `report` of `position` as text, with the notes on how it was `solved`.
fn print_text(report: &PositionReport, solved: &Solved, position: &Position) -> Result<()> {
    let Solved { m, rules, .. } = solved;
    let last = solved.line_end();
    let view = View {
        // Kalah(m, n) names a start; a position has only its pits and its seeds.
        title: match position.start_seeds() {
            Some(n) => format!("Kalah({m},{n}), rules: {rules}"),
            None => format!(
                "Kalah, {m} pits a row, {} in the pits, rules: {rules}",
                counted(position.seeds_in_pits(), "seed", "seeds")
            ),
        },
        picture: picture(position),
        rules: None,
        mover: Some(position.to_move().name().to_owned()),
        line_end: match last.final_difference(rules) {
            Some(d) => {
                format!("game over: final store difference {d:+} for {} ({})", last.to_move().name(), outcome_word(d))
            }
            // A line cut by --max-line: the printer says where.
            None => String::new(),
        },
        notes: notes(solved, position),
    };
    print_position(report, &view)?;
    Ok(())
}

/// The lines printed below a report: what the counts and the moves mean, how the
/// position was solved and in what time.
fn notes(solved: &Solved, position: &Position) -> Vec<String> {
    let mut notes = Vec::new();
    if solved.reachable.is_some() {
        // Printed right below the count it explains.
        notes.push("(a reachable position is its pits, its stores and the side to move)".to_owned());
    }
    if solved.answer.turns.is_none() {
        notes.push("moves: not valued one by one (--value-only)".to_owned());
    }
    let boards = counted(solved.endgame_seeds, "seed", "seeds");
    notes.push(if solved.over {
        "solved strongly: the game is over here".to_owned()
    } else if solved.strongly(position) {
        format!("solved strongly: every position of this game is one table probe (boards up to {boards})")
    } else {
        format!(
            "solved weakly: MTD(f) search above the tables of boards up to {boards} ({})",
            counted(solved.nodes.unwrap_or(0), "node", "nodes")
        )
    });
    notes.push(format!("time: {:.1} s", solved.seconds));
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
