//! `solve kalah`: Kalah(m, n) solved exactly: the start's margin, every opening move's,
//! the principal line; any position; full-game tables and the game-graph size.

use crate::memory;
use crate::progress::BuildProgress;
use anyhow::{bail, Context, Result};
use clap::{Args, ValueEnum};
use games::kalah::notation::{self, picture};
use games::kalah::search::Search;
use games::kalah::{turn_name, Kalah, Position, Rules};
use retro::score::{self, ScoreGame, ScoreTables};
use serde_json::json;
use std::path::{Path, PathBuf};
use std::time::Instant;

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
                  the turn is written with the further choices joined by `-`, as the literature does: `3-6`.\n\n\
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
    #[arg(long, value_enum, default_value = "empty-capture")]
    rules: Preset,
    /// Capture switch: empty, standard or opposite-only (overrides the preset's).
    #[arg(long)]
    capture: Option<String>,
    /// Skip the emptied pit on a lap of 2m+1 seeds or more (overrides the preset's).
    #[arg(long, value_enum)]
    skip_origin: Option<YesNo>,
    /// End switch: side-empty or no-move (overrides the preset's).
    #[arg(long)]
    end: Option<String>,
    /// Where seeds left in the pits at the end go: owner or none (overrides the preset's).
    #[arg(long)]
    leftovers: Option<String>,
    /// Forbid moves that leave the opponent's row empty while another move exists.
    #[arg(long, value_enum)]
    must_leave_move: Option<YesNo>,
    /// Analyse this position instead of the start (see the notation above).
    #[arg(long, allow_hyphen_values = true)]
    position: Option<String>,
    /// Build the full-game table (every board with up to 2·M·N seeds in the pits), report
    /// its size and the number of positions reachable from the start.
    #[arg(long)]
    table: bool,
    /// Build endgame tables up to this many seeds in the pits and search above them
    /// (default: as many as fit in half the free memory and a build of about 8 s: 17 for
    /// six pits; for instances of more than 50 seeds about 5 minutes: 24 for six pits).
    #[arg(long)]
    endgame_seeds: Option<u32>,
    /// Transposition table of at most 2^B entries of 16 bytes (27: 2 GiB), reserved at once
    /// and used as the search grows, four entries per board searched (on Kalah(6,4) 2^27
    /// entries search 20 % fewer boards than 2^25).
    #[arg(long, default_value_t = 27, value_parser = clap::value_parser!(u32).range(4..=36))]
    tt_bits: u32,
    /// Directory holding the tables (created if missing).
    #[arg(long, default_value = "data")]
    out: PathBuf,
    /// Print one JSON object instead of text.
    #[arg(long)]
    json: bool,
    /// The value and the principal line only, not every move's exact margin: on large
    /// instances the worse moves' margins cost far more than the value (Kalah(6,5): the
    /// value in about 12 minutes on two cores, tables included; the opening moves' margins
    /// were not finished in 40 minutes).
    #[arg(long)]
    value_only: bool,
    /// Longest principal line printed, in turns.
    #[arg(long, default_value_t = 200)]
    max_line: usize,
}

/// Working memory of a tier build: one 2-byte value slot per board of the tier.
const WORK_BYTES_PER_POSITION: f64 = 2.0;
/// Table bytes per board (about 6 bits a value, memory-mapped).
const TABLE_BYTES_PER_POSITION: f64 = 0.8;
/// Boards an automatic endgame build may cover: about 8 s on 2 cores (Kalah(6, ·): every
/// board up to 17 seeds, 51.9 million). Measured on Kalah(6,4) from an empty directory,
/// tables included: 16 seeds 17.8 s for the value and about 47 s with every opening move,
/// 17 seeds 17.6 s and 45 s, 18 seeds 24.6 s and 53 s; Kalah(5,5)'s value: 21 seeds
/// 20.6 s, 22 seeds 21.5 s.
const AUTO_POSITIONS: u64 = 55_000_000;
/// The budget for instances of more than [`LARGE_INSTANCE`] seeds, where the search, not
/// the build, dominates: every board up to 24 seeds for six pits (1.25 billion, about 5
/// minutes on 2 cores), 31 for five. Measured: with 18-seed tables the win of Kalah(6,5)
/// was not proved in 15 minutes; with 24-seed tables it took 4 minutes of search.
const LARGE_AUTO_POSITIONS: u64 = 1_300_000_000;
/// Seeds in all above which an instance counts as large (Kalah(5,6) and (6,5) have 60).
const LARGE_INSTANCE: u32 = 50;

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

/// Where the tables of `m` pits under `rules` live.
pub fn table_dir(out: &Path, m: usize, rules: &Rules) -> PathBuf {
    out.join("kalah").join(format!("m{m}-{}", rules.name()))
}

/// A complete turn: its name (`3-6`), the position after it, and the margin it leaves the
/// mover.
pub type Turn = (String, Position, i32);

/// Tables up to some number of seeds, and a search above them.
pub struct Solver {
    game: Kalah,
    tables: ScoreTables<Kalah>,
    endgame_seeds: u32,
    tt_bits: u32,
    pub build_seconds: f64,
    pub report: retro::store::BuildReport,
}

impl Solver {
    /// Builds (or reuses) the tables for `m` pits up to `endgame_seeds` seeds.
    pub fn new(m: usize, rules: Rules, endgame_seeds: u32, out: &Path, quiet: bool, tt_bits: u32) -> Result<Solver> {
        let game = Kalah::new(m, endgame_seeds, rules).context("indexing the boards")?;
        let largest = game.tier_size(endgame_seeds as u16) as f64;
        if let Some(free) = memory::available() {
            let need = largest * WORK_BYTES_PER_POSITION;
            if need > free as f64 {
                bail!(
                    "tables up to {endgame_seeds} seeds need about {} of memory (largest tier {largest:.3e} boards); \
                     this machine has {} available: lower --endgame-seeds",
                    memory::human(need),
                    memory::human(free as f64)
                );
            }
        }
        let dir = table_dir(out, m, &rules);
        let to_build: u64 = game
            .tiers_up_to(endgame_seeds)
            .into_iter()
            .filter(|&t| !retro::store::tier_file(&dir, t).exists())
            .map(|t| game.tier_size(t))
            .sum();
        let progress = BuildProgress::new(to_build, quiet);
        let started = Instant::now();
        let (tables, report) = score::build(&game, &dir, &[endgame_seeds as u16], &progress)
            .with_context(|| format!("building tables in {}", dir.display()))?;
        progress.finish();
        Ok(Solver { game, tables, endgame_seeds, tt_bits, build_seconds: started.elapsed().as_secs_f64(), report })
    }

    pub fn game(&self) -> &Kalah {
        &self.game
    }

    pub fn tables(&self) -> &ScoreTables<Kalah> {
        &self.tables
    }

    /// The search for positions above the tables, if any is needed for `seeds`.
    pub fn search(&self, seeds: u32) -> Result<Option<Search<'_>>> {
        if seeds <= self.endgame_seeds {
            return Ok(None);
        }
        let bytes = (16u64 << self.tt_bits) as f64;
        // The map is lazy, but a long search touches all of it.
        if let Some(free) = memory::available().filter(|&free| bytes > free as f64) {
            bail!(
                "the transposition table (--tt-bits {}: {}) does not fit in the {} of memory available: \
                 lower --tt-bits",
                self.tt_bits,
                memory::human(bytes),
                memory::human(free as f64)
            );
        }
        let search = Search::new(&self.game, &self.tables, self.endgame_seeds, self.tt_bits)
            .with_context(|| format!("reserving the transposition table ({})", memory::human(bytes)))?
            .with_threads(rayon::current_num_threads());
        Ok(Some(search))
    }

    /// The final store difference for the player to move at `p`, under perfect play.
    pub fn margin(&self, search: Option<&Search>, p: &Position) -> Result<i32> {
        if let Some(d) = p.final_difference(self.game.rules()) {
            return Ok(d);
        }
        let board = p.board();
        let rest = match search {
            Some(s) if board.seeds() > self.endgame_seeds => s.value(&board)?,
            _ => self.tables.value(&self.game, &board)?,
        };
        Ok(p.store_difference() + rest as i32)
    }

    /// The margin at `p` and every turn's, the turns solved in parallel; `say` hears of
    /// each turn as it is solved. The margin is then searched on its own (nearly free: the
    /// turns' exact values are in the transposition table) and must equal the best turn's;
    /// a difference is an error, not an answer. (Searching it first, beside the turns,
    /// made Kalah(6,4) 4 s slower; `--value-only` is the fast way to the value alone.)
    pub fn margin_and_turns(
        &self,
        search: Option<&Search>,
        p: &Position,
        say: &(dyn Fn(String) + Sync),
    ) -> Result<(i32, Vec<Turn>)> {
        let turns = self.turns(search, p, &|(name, _, v): &Turn| say(format!("move {name}: {v:+}")))?;
        let margin = self.margin(search, p)?;
        if let Some(best) = turns.iter().map(|t| t.2).max() {
            if best != margin {
                bail!("internal error: the position's margin {margin:+} differs from its best turn's {best:+}");
            }
        }
        Ok((margin, turns))
    }

    /// Whether the mover at `p` ends at least `target` ahead under perfect play.
    pub fn margin_at_least(&self, search: Option<&Search>, p: &Position, target: i32) -> Result<bool> {
        let board = p.board();
        match search {
            Some(s) if p.final_difference(self.game.rules()).is_none() && board.seeds() > self.endgame_seeds => {
                let rest = target - p.store_difference();
                let seeds = board.seeds() as i32;
                if rest > seeds {
                    return Ok(false);
                }
                if rest <= -seeds {
                    return Ok(true);
                }
                Ok(s.at_least(&board, rest as i16)?)
            }
            _ => Ok(self.margin(search, p)? >= target),
        }
    }

    /// Win, draw or loss for the mover at `p` (`W`, `D`, `L`), by at most two null-window
    /// searches (is the margin at least 1? at least 0?) instead of the exact margin.
    ///
    /// Each test is one search from `p` (on every thread of `search`): splitting it over the
    /// turns was tried and was far slower (Kalah(6,4): 5.8 s instead of 0.2 s): a thread
    /// given a losing turn searches it to the end, while the single search proves the win
    /// through the best turn alone.
    pub fn outcome(&self, search: Option<&Search>, p: &Position) -> Result<char> {
        Ok(if self.margin_at_least(search, p, 1)? {
            'W'
        } else if self.margin_at_least(search, p, 0)? {
            'D'
        } else {
            'L'
        })
    }

    /// Whether the turn from `p` to `next` leaves the mover at `p` at least `target` ahead:
    /// the next mover's margin is at least `target` (the same player), or at most
    /// `−target` (the other).
    pub fn turn_at_least(&self, search: Option<&Search>, p: &Position, next: &Position, target: i32) -> Result<bool> {
        Ok(if next.to_move() == p.to_move() {
            self.margin_at_least(search, next, target)?
        } else {
            !self.margin_at_least(search, next, 1 - target)?
        })
    }

    /// Every complete turn from `p` with the margin it leaves the mover, in pit order; the
    /// searched ones side by side ([`Search::values`]), `solved` hearing of each turn as it
    /// is solved.
    pub fn turns(&self, search: Option<&Search>, p: &Position, solved: &(dyn Fn(&Turn) + Sync)) -> Result<Vec<Turn>> {
        let turns = p.turns(self.game.rules());
        let turn = |i: usize, v: i32| -> Turn {
            let (pits, next) = &turns[i];
            let mine = if next.to_move() == p.to_move() { v } else { -v };
            (turn_name(pits), *next, mine)
        };
        let mut margins = vec![None; turns.len()];
        let mut searched = Vec::new();
        for (i, (_, next)) in turns.iter().enumerate() {
            match search {
                Some(_)
                    if next.final_difference(self.game.rules()).is_none()
                        && next.board().seeds() > self.endgame_seeds =>
                {
                    searched.push(i)
                }
                _ => {
                    let v = self.margin(None, next)?;
                    solved(&turn(i, v));
                    margins[i] = Some(v);
                }
            }
        }
        if let Some(search) = search {
            let boards: Vec<_> = searched.iter().map(|&i| turns[i].1.board()).collect();
            let margin = |j: usize, rest: i16| turns[searched[j]].1.store_difference() + rest as i32;
            let rests = search.values(&boards, &|j, rest| solved(&turn(searched[j], margin(j, rest))))?;
            for (j, rest) in rests.into_iter().enumerate() {
                margins[searched[j]] = Some(margin(j, rest));
            }
        }
        Ok(margins.into_iter().enumerate().map(|(i, v)| turn(i, v.expect("every turn valued"))).collect())
    }
}

/// The largest K whose tables (every board up to K seeds) stay within the automatic
/// budget, at most `total`: at most [`AUTO_POSITIONS`] boards (a build of about 8 s on 2
/// cores; [`LARGE_AUTO_POSITIONS`] for instances of more than [`LARGE_INSTANCE`] seeds), and
/// the build's working memory (the largest tier's value slots, the
/// finished tables mapped, the transposition table) within half the free memory.
pub fn auto_endgame_seeds(m: usize, total: u32, tt_bits: u32) -> Result<u32> {
    let game = Kalah::new(m, total, Rules::EMPTY_CAPTURE)?;
    let free = memory::available().map_or(f64::INFINITY, |f| f as f64 / 2.0);
    let fits = |k: u32| {
        let positions = game.positions_up_to(k);
        let need = game.tier_size(k as u16) as f64 * WORK_BYTES_PER_POSITION
            + positions as f64 * TABLE_BYTES_PER_POSITION
            + (16u64 << tt_bits) as f64;
        let budget = if total > LARGE_INSTANCE { LARGE_AUTO_POSITIONS } else { AUTO_POSITIONS };
        positions <= budget && need <= free
    };
    let mut k = 0;
    while k < total && fits(k + 1) {
        k += 1;
    }
    Ok(k)
}

/// Runs `work` with a spinner counting the boards `search` has searched, if there is a
/// search and the output is not JSON; `work` may print lines on standard error (above the
/// spinner) through the function it is given.
pub fn with_search_progress<T: Send>(
    search: Option<&Search>,
    hidden: bool,
    work: impl FnOnce(&(dyn Fn(String) + Sync)) -> Result<T> + Send,
) -> Result<T> {
    let Some(search) = search else { return work(&|_| {}) };
    let spinner = crate::progress::spinner("searching", hidden);
    let started = Instant::now();
    let done = std::sync::atomic::AtomicBool::new(false);
    let result = std::thread::scope(|scope| {
        let ticker = scope.spawn(|| {
            while !done.load(std::sync::atomic::Ordering::Relaxed) {
                let nodes = search.nodes();
                let rate = nodes as f64 / started.elapsed().as_secs_f64().max(1e-3);
                spinner.set_message(format!("searching: {nodes} boards, {:.2} M/s", rate / 1e6));
                // Woken at once when the work is done: a short search should not wait.
                std::thread::park_timeout(std::time::Duration::from_millis(200));
            }
        });
        // On standard error even when the spinner is not drawn (not a terminal, or JSON
        // on standard output): a search of hours should say what it has found.
        let say = |line: String| {
            let line = format!("{line} ({:.1} s)", started.elapsed().as_secs_f64());
            if spinner.is_hidden() {
                eprintln!("{line}");
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

pub fn run(args: KalahArgs) -> Result<()> {
    let rules = rules(&args)?;
    let (position, m) = match &args.position {
        Some(text) => {
            let p =
                notation::parse(text).with_context(|| format!("reading position {:?}", games::echo::excerpt(text)))?;
            if let Some(m) = args.pits.filter(|&m| m != p.pits()) {
                bail!("--pits {m} disagrees with the position, which has {} pits a row", p.pits());
            }
            (p, p.pits())
        }
        None => {
            let m = args.pits.unwrap_or(6);
            (Position::start(m, args.seeds)?, m)
        }
    };
    let total = position.seeds_in_pits();
    let endgame_seeds = match (args.table, args.endgame_seeds) {
        (true, _) => total,
        (false, Some(k)) => k.min(total),
        (false, None) => auto_endgame_seeds(m, total, args.tt_bits)?,
    };
    let started = Instant::now();
    let solver = Solver::new(m, rules, endgame_seeds, &args.out, args.json, args.tt_bits)?;
    let search = solver.search(total)?;
    let (margin, turns, line) = with_search_progress(search.as_ref(), args.json, |say| {
        let (margin, turns) = if args.value_only {
            let margin = solver.margin(search.as_ref(), &position)?;
            say(format!("value: {margin:+}"));
            (margin, None)
        } else {
            if total > LARGE_INSTANCE {
                say("every move's exact margin: on an instance this large the worse moves can take hours \
                     (--value-only: the value and the line alone)"
                    .to_string());
            }
            let (margin, turns) = solver.margin_and_turns(search.as_ref(), &position, say)?;
            (margin, Some(turns))
        };
        let line = principal_line(&solver, search.as_ref(), &position, margin, args.max_line)?;
        Ok((margin, turns, line))
    })?;
    let reachable = if args.table && args.position.is_none() { Some(solver.game().reachable(&position)) } else { None };
    let seconds = started.elapsed().as_secs_f64();
    let (positions, bytes) = solver.tables().size();
    let strongly = endgame_seeds >= total;
    let mover = position.to_move();
    if args.json {
        // `null` with --value-only: not computed, which an empty list would not say.
        let moves: Option<Vec<_>> = turns.as_ref().map(|turns| {
            turns
                .iter()
                .map(|(name, next, v)| json!({"move": name, "margin": v, "leads_to": next.to_string()}))
                .collect()
        });
        let mut out = json!({
            "game": "kalah",
            "pits": m,
            "rules": rules.name(),
            "switches": rules.switches(),
            "position": position.to_string(),
            "to_move": mover.name().to_lowercase(),
            "margin": margin,
            "outcome": outcome_word(margin),
            "moves": moves,
            "line": line,
            "solved": if strongly { "strongly: every position is one table probe" } else { "weakly: search above the endgame tables" },
            "endgame_seeds": endgame_seeds,
            "table": {
                "positions": positions,
                "bytes": bytes,
                "directory": solver.tables().dir().display().to_string(),
                "tiers_built": solver.report.tiers_built,
                "tiers_reused": solver.report.tiers_reused,
                "build_seconds": solver.build_seconds,
            },
            "search_nodes": search.as_ref().map(|s| s.nodes()),
            "seconds": seconds,
            "peak_memory_bytes": memory::peak_resident(),
        });
        if args.position.is_none() {
            out["seeds"] = json!(args.seeds);
        }
        if let Some(r) = reachable {
            out["reachable"] = json!(r);
        }
        println!("{}", serde_json::to_string_pretty(&out)?);
        return Ok(());
    }
    match args.position {
        None => println!("Kalah({m},{}), rules: {rules}", args.seeds),
        Some(_) => {
            println!("{}", picture(&position));
            println!("position: {position}");
            println!("rules: {rules}");
        }
    }
    println!(
        "tables: {} (boards up to {endgame_seeds} seeds: {positions} positions, {}; {} tiers built, {} reused, {:.1} s)",
        solver.tables().dir().display(),
        memory::human(bytes as f64),
        solver.report.tiers_built,
        solver.report.tiers_reused,
        solver.build_seconds
    );
    if strongly {
        println!("solved strongly: every position of this game is one table probe");
    } else {
        println!("solved weakly: MTD(f) search above the tables ({} nodes)", search.as_ref().map_or(0, |s| s.nodes()));
    }
    if let Some(r) = reachable {
        println!("reachable from the start: {r} positions (pits, stores and side to move)");
    }
    match position.final_difference(&rules) {
        Some(d) => {
            println!("the game is over: final store difference {d:+} for {} ({})", mover.name(), outcome_word(d))
        }
        None => println!("value for {} (to move): {margin:+}, a {}", mover.name(), outcome_word(margin)),
    }
    match &turns {
        None => println!("moves: not valued one by one (--value-only)"),
        Some(turns) if !turns.is_empty() => {
            println!("moves (margin for {}):", mover.name());
            let best = turns.iter().map(|t| t.2).max().unwrap_or(margin);
            for (name, _, v) in turns {
                println!("  {name:<12} {v:+}{}", if *v == best { "  best" } else { "" });
            }
        }
        Some(_) => {}
    }
    println!("principal line ({} turns): {}", line.len(), line.join(" "));
    println!("time: {seconds:.1} s");
    Ok(())
}

/// Best play from `p` (worth `margin` to its mover), turn by turn: each turn the first in
/// pit order that keeps the margin. Each turn is tested with one null-window search (is
/// it worth at least the margin?), not solved exactly.
fn principal_line(
    solver: &Solver,
    search: Option<&Search>,
    p: &Position,
    margin: i32,
    max: usize,
) -> Result<Vec<String>> {
    let mut line = Vec::new();
    let mut p = *p;
    let mut margin = margin;
    while line.len() < max {
        let mut chosen = None;
        for (pits, next) in p.turns(solver.game().rules()) {
            if solver.turn_at_least(search, &p, &next, margin)? {
                chosen = Some((pits, next));
                break;
            }
        }
        let Some((pits, next)) = chosen else { break };
        line.push(turn_name(&pits));
        if next.to_move() != p.to_move() {
            margin = -margin;
        }
        p = next;
    }
    Ok(line)
}
