//! `solve awari`: Oware on boards of 1 to 6 pits a row. Under the computer-science rules
//! (`--rules awari`): endgame tables by stones on the board, the exact score of any
//! position and of a small board's start. The target rule sets (`--rules trysse|wari`)
//! are in [`crate::oware`].

use crate::memory;
use crate::options::{BuildFlags, ForceFlag, LineLength, PartsFlag, TablesRoot};
use crate::printer::{counted, print_json, print_position, View};
use anyhow::{bail, Context, Result};
use clap::{Args, ValueEnum};
use games::awari::{published_count, Awari, Board, MAX_PITS, START_STONES};
use games::oware::TargetRules;
use retro::store;
use retro::{Game, Tables};
use serde_json::json;
use std::collections::BTreeMap;
use std::path::Path;
use std::time::Instant;
use tablebase::front::{self, Asked};
use tablebase::registry;
use tablebase::report::{LineEndKind, PositionReport, TablesOnlyReport, TablesReport, TierReport, SCHEMA};

/// The rule sets of the Oware family.
#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum RulesArg {
    /// Romein & Bal's computer-science rules: most stones at the end; exact scores.
    Awari,
    /// D. Elson's Trysse: first to capture the target (21 of 48) wins.
    Trysse,
    /// Michael Keller's Wari: first to the target (25 of 48) wins; a player who cannot
    /// feed ends the game, each taking the stones on his side.
    Wari,
}

#[derive(Args)]
#[command(
    about = "Oware: Awari endgame tables and scores, Trysse and Wari outcomes, on boards of 1 to 6 pits a row",
    long_about = "Solves Oware on a board of --pits M (1 to 6, default 6) pits a row under one of three rule \
                  sets (docs/rules/awari.md). All share the sowing (counterclockwise, the emptied pit skipped \
                  on laps of 2M or more) and the capture (the last stone making 2 or 3 on the opponent's side \
                  takes them, and so do the pits before it on that side holding 2 or 3).\n\n\
                  --rules awari (default), Romein & Bal's rules: a move that leaves the opponent no stone is \
                  allowed only when every move does; a player with no move loses the stones left to the \
                  opponent; a repeated position splits them. Values are the final difference (mover minus \
                  opponent) of the stones still on the board, from tables by stones on the board.\n  \
                  --stones K builds (or reuses) every table up to K stones under --out and reports, for \
                  each n, the table entries, the positions counted under the published rule (6 pits: the \
                  player who just moved has an empty pit) and the distribution of values.\n  \
                  --seeds S solves the start (S stones in every pit; tables up to 2·M·S stones): its value \
                  for South, who moves first, each opening move's score and the line. The real board (6 \
                  pits, 4 seeds) needs all 48 stones' tables, far beyond one machine.\n\n\
                  --rules trysse or wari: first to capture --target stones wins (default 21 of 48 for \
                  Trysse, scaled to ⌈21·N/48⌉ for N stones; N/2 + 1 for Wari). Values are win, draw or loss \
                  with the plies to the end; endless play is a draw. Give --seeds S for the start, or \
                  --position.\n\n\
                  --position: Awari takes 2M pit counts, the mover's row first, counterclockwise (the \
                  opponent's first pit follows the mover's last), separated by commas or spaces. Trysse and \
                  Wari add a space and the captured counts, the mover's first: `3,3,3,3,3,3 0-0`. It prints \
                  the value, every legal move's value, the best move and the line. Moves are named by the \
                  mover's pit, 1 to M in sowing order.",
    after_help = "Examples:\n  \
                  solve awari --stones 12\n  \
                  solve awari --pits 3 --seeds 3\n  \
                  solve awari --position \"0,0,1,2,0,3, 1,0,0,2,0,1\"\n  \
                  solve awari --rules trysse --pits 3 --seeds 3\n  \
                  solve awari --rules wari --pits 4 --seeds 2 --json\n  \
                  solve awari --rules wari --position \"0,2,1,3,0,1 5-6\""
)]
pub struct AwariArgs {
    /// Rule set.
    #[arg(long, value_enum, ignore_case = true, default_value = "awari")]
    pub(crate) rules: RulesArg,
    /// Pits per row, 1 to 6 (default: the --position's, else 6).
    #[arg(long)]
    pub(crate) pits: Option<usize>,
    /// Solve the start with this many stones in every pit.
    #[arg(long)]
    pub(crate) seeds: Option<u32>,
    /// Stones to capture to win (trysse and wari only).
    #[arg(long)]
    pub(crate) target: Option<u32>,
    /// Awari: build (or reuse) every table up to this many stones on the board (at most 48).
    #[arg(long)]
    pub(crate) stones: Option<u32>,
    /// Analyse this position (see the notation above).
    #[arg(long, allow_hyphen_values = true)]
    pub(crate) position: Option<String>,
    #[command(flatten)]
    pub(crate) tables: TablesRoot,
    /// Print one JSON object on standard output instead of text (progress still goes to
    /// standard error).
    #[arg(long)]
    pub(crate) json: bool,
    #[command(flatten)]
    pub(crate) line: LineLength,
    #[command(flatten)]
    pub force: ForceFlag,
    #[command(flatten)]
    pub parts: PartsFlag,
}

/// Pits per row: `--pits` (checked), the position's, or the real board's 6.
pub(crate) fn pits(given: Option<usize>, in_position: Option<usize>) -> Result<usize> {
    match (given, in_position) {
        (Some(m), _) if !(1..=MAX_PITS).contains(&m) => bail!("--pits {m}: boards have 1 to {MAX_PITS} pits a row"),
        (Some(m), Some(p)) if m != p => bail!("the position has {p} pits a row, but --pits says {m}"),
        (Some(m), _) | (None, Some(m)) => Ok(m),
        (None, None) => Ok(MAX_PITS),
    }
}

pub fn run(args: AwariArgs, flags: BuildFlags) -> Result<()> {
    match args.rules {
        RulesArg::Trysse => return crate::oware::run(TargetRules::Trysse, &args, flags),
        RulesArg::Wari => return crate::oware::run(TargetRules::Wari, &args, flags),
        RulesArg::Awari => {}
    }
    refuse_target_options(&args, flags)?;
    let position: Option<Board> = match &args.position {
        Some(text) => {
            Some(text.parse().with_context(|| format!("reading the position `{}`", games::echo::excerpt(text)))?)
        }
        None => None,
    };
    let m = pits(args.pits, position.map(|p| p.pits_per_row()))?;
    if let Some(seeds) = args.seeds {
        if args.stones.is_some() || position.is_some() {
            bail!("--seeds solves the start: give it without --stones and --position");
        }
        return start(m, seeds, &args, flags);
    }
    check_stones(args.stones, position.as_ref())?;
    let dir = registry::awari_dir(&args.tables.out, m);
    let stones_report = match args.stones {
        Some(k) => build_stones(&args, m, k, &dir, flags)?,
        None => None,
    };
    // With --json, a position's report is the one printed.
    if let Some(p) = position {
        return answer(&args, m, &p, &dir);
    }
    if let Some(report) = stones_report {
        print_json(&report)?;
    }
    Ok(())
}

/// Refuses the options of the target rule sets (`--target`, `--parts`) under Awari's own.
fn refuse_target_options(args: &AwariArgs, flags: BuildFlags) -> Result<()> {
    if let Some(t) = args.target {
        bail!("--target {t}: only --rules trysse and wari have a target (Awari: most stones at the end)");
    }
    if flags.parts.is_some() {
        bail!(
            "--parts: only --rules trysse and wari are solved in parts (the outcome engine); Awari's \
             scores are solved a whole tier at a time"
        );
    }
    Ok(())
}

/// Refuses a run without `--stones` or a position, `--stones` past the largest board, and
/// a position with more stones than `--stones` builds tables for.
fn check_stones(stones: Option<u32>, position: Option<&Board>) -> Result<()> {
    if stones.is_none() && position.is_none() {
        bail!(
            "give --seeds S to solve the start, --stones K to build tables, or --position to analyse one (see \
             `solve awari --help`)"
        );
    }
    if let Some(k) = stones {
        if k > START_STONES {
            bail!("--stones {k}: boards here hold at most {START_STONES} stones");
        }
    }
    if let (Some(k), Some(p)) = (stones, position) {
        if p.stones() > k {
            bail!(
                "the position has {}: it needs tables up to --stones {}",
                counted(p.stones(), "stone", "stones"),
                p.stones()
            );
        }
    }
    Ok(())
}

/// `--stones K`: builds (or reuses) every table of `m` pits a row up to `k` stones in
/// `dir` and prints each tier's counts as text, or, with `--json`, returns their report.
fn build_stones(args: &AwariArgs, m: usize, k: u32, dir: &Path, flags: BuildFlags) -> Result<Option<TablesOnlyReport>> {
    let game = Awari::new(m, k).context("indexing the boards")?;
    if let Some(e) = too_big(&game, k, dir, flags) {
        bail!("tables up to {k} stones {e}: lower --stones");
    }
    // Every tier up to k, not only those a k-stone board reaches (captures skip some).
    let (tables, report, seconds) = crate::build::tables(&game, dir, &game.tiers_up_to(k), flags)?;
    let tiers = tier_report(&game, &tables, k)?;
    if args.json {
        let tiers = tiers
            .iter()
            .map(|t| TierReport {
                tier: t.stones.to_string(),
                positions: t.entries,
                values: t.values.iter().map(|(v, c)| (v.to_string(), *c)).collect(),
                published_rule: t.published,
            })
            .collect();
        return Ok(Some(TablesOnlyReport {
            schema: SCHEMA,
            game: "awari".to_owned(),
            parameters: json!({"pits": m, "seeds": null, "stones": k}),
            rules: "awari".to_owned(),
            tables: TablesReport::new(&tables, &report, seconds, memory::peak_resident()),
            tiers,
        }));
    }
    print_tiers(&tiers)?;
    outln!(
        "tables: {} ({} built, {} reused) in {:.1} s, {} on disk ({:.3} bytes/position), peak memory {}",
        dir.display(),
        report.tiers_built,
        report.tiers_reused,
        seconds,
        memory::human(report.bytes as f64),
        report.bytes as f64 / report.positions.max(1) as f64,
        memory::peak_resident().map_or("unknown".to_owned(), |b| memory::human(b as f64)),
    )?;
    Ok(None)
}

/// `--position`: the value of `p` on `m` pits a row, every move's and the line, from the
/// tables already built in `dir` (the tiers it lacks are named, with the command that
/// builds them).
fn answer(args: &AwariArgs, m: usize, p: &Board, dir: &Path) -> Result<()> {
    let n = p.stones();
    let game = Awari::new(m, n).context("indexing the boards")?;
    let root = game.locate(p).tier;
    let pits = if m == MAX_PITS { String::new() } else { format!(" --pits {m}") };
    let command = format!("`solve awari{pits} --stones {n}{}`", tablebase::registry::out_flag(&args.tables.out));
    crate::build::require_built(&game, dir, root, &counted(n, "stone", "stones"), &command)?;
    // The tiers play can reach from here: a capture takes two or three stones, so some
    // tiers below are never met.
    let tiers = retro::order::tier_order(&game, &[root])?;
    let opened = Instant::now();
    let tables = store::open(&game, dir, &tiers).with_context(|| format!("opening {}", dir.display()))?;
    let build = retro::store::BuildReport { tiers_reused: tiers.len(), ..Default::default() };
    let seconds = opened.elapsed().as_secs_f64();
    let tables_report = TablesReport::new(&tables, &build, seconds, memory::peak_resident());
    // A start given as a position is the start all the same.
    let start_seeds = p.start_seeds();
    let asked = Asked { game: game.clone(), position: *p, start: start_seeds };
    let (out, _) = front::report(&game, &tables, &asked, args.line.max_line, tables_report, None)?;
    if args.json {
        print_json(&out)?;
        return Ok(());
    }
    let title = match start_seeds {
        Some(seeds) => start_title(m, seeds),
        None => format!("Awari, {m} pits a row: a position with {}", counted(p.stones(), "stone", "stones")),
    };
    print_text(&out, p, title)?;
    Ok(())
}

/// The title of the start of `m` pits a row with `seeds` in each, however it was asked for.
fn start_title(m: usize, seeds: u32) -> String {
    format!(
        "Awari {m}x{seeds}: {m} pits a row, {} in each ({}), South to move",
        counted(seeds, "stone", "stones"),
        counted(2 * m as u32 * seeds, "stone", "stones")
    )
}

/// The start of `m` pits a row with `seeds` in each: every table up to its stones, then
/// its value for South (the first player), each opening move and the line.
fn start(m: usize, seeds: u32, args: &AwariArgs, flags: BuildFlags) -> Result<()> {
    let total = (2 * m as u32).saturating_mul(seeds);
    if seeds == 0 || total > START_STONES {
        bail!(
            "--seeds {seeds}: {m} pits a row hold 1 to {} seeds a pit here ({START_STONES} stones)",
            START_STONES / (2 * m as u32)
        );
    }
    let board = Board::start(m, seeds)?;
    let game = Awari::new(m, total).context("indexing the boards")?;
    let dir = registry::awari_dir(&args.tables.out, m);
    if let Some(e) = too_big(&game, total, &dir, flags) {
        bail!(
            "the start of {m}x{seeds} has {total} stones: it needs every Awari table up to --stones {total}, \
             and those {e}"
        );
    }
    let (tables, report, seconds) = crate::build::tables(&game, &dir, &game.tiers_up_to(total), flags)?;
    let tables_report = TablesReport::new(&tables, &report, seconds, memory::peak_resident());
    let asked = Asked { game: game.clone(), position: board, start: Some(seeds) };
    let (out, _) = front::report(&game, &tables, &asked, args.line.max_line, tables_report, None)?;
    if args.json {
        print_json(&out)?;
    } else {
        print_text(&out, &board, start_title(m, seeds))?;
    }
    Ok(())
}

/// Why the tables up to `k` stones not yet in `dir` cannot be built here (as the end of a
/// sentence), if so.
fn too_big(game: &Awari, k: u32, dir: &Path, flags: BuildFlags) -> Option<String> {
    let need = crate::build::check_memory(game, dir, &game.tiers_up_to(k), flags).err()?;
    Some(format!("need {need}"))
}

/// One tier's line of the report.
struct TierLine {
    stones: u32,
    entries: u64,
    /// Under the published rule, for the real board only.
    published: Option<u64>,
    /// Positions by value for the player to move.
    values: BTreeMap<i16, u64>,
}

fn tier_report(game: &Awari, tables: &Tables<Awari>, k: u32) -> Result<Vec<TierLine>> {
    game.tiers_up_to(k)
        .into_iter()
        .map(|t| {
            let mut values = BTreeMap::new();
            for rank in 0..game.tier_size(t) {
                *values.entry(tables.probe(t, rank)?).or_insert(0u64) += 1;
            }
            let stones = t as u32;
            let published = (game.pits_per_row() == MAX_PITS).then(|| published_count(stones));
            Ok(TierLine { stones, entries: game.tier_size(t), published, values })
        })
        .collect()
}

fn print_tiers(tiers: &[TierLine]) -> Result<(), crate::printer::StdoutError> {
    outln!("{:>3} {:>15} {:>15}  values (score for the player to move: positions)", "n", "entries", "published rule")?;
    let count = |c: Option<u64>| c.map_or("-".to_owned(), |c| c.to_string());
    for t in tiers {
        let values: Vec<String> = t.values.iter().map(|(v, c)| format!("{v:+}:{c}")).collect();
        outln!("{:>3} {:>15} {:>15}  {}", t.stones, t.entries, count(t.published), values.join(" "))?;
    }
    outln!(
        "sum {:>15} {:>15}",
        tiers.iter().map(|t| t.entries).sum::<u64>(),
        count(tiers.iter().map(|t| t.published).sum::<Option<u64>>())
    )
}

/// Prints a report of `board` as text under `title`.
fn print_text(report: &PositionReport, board: &Board, title: String) -> Result<(), crate::printer::StdoutError> {
    let line_end = match report.line_end.kind {
        LineEndKind::Repetition => "a position repeats: the stones left are split".to_owned(),
        _ => "no move: the opponent takes the stones left".to_owned(),
    };
    let view = View {
        title,
        picture: format!("{}\nstones on the board: {}", picture(board), board.stones()),
        rules: None,
        mover: report.start.then(|| "South".to_owned()),
        line_end,
        notes: vec!["(scores: the final difference of the stones on the board, mover minus opponent)".to_owned()],
    };
    print_position(report, &view)
}

/// The board as across a table: the opponent's row right to left above the mover's.
pub(crate) fn picture(p: &Board) -> String {
    let c = p.cells();
    let m = p.pits_per_row();
    let row = |cells: &mut dyn Iterator<Item = &u8>| cells.map(|x| format!("{x:>3}")).collect::<String>();
    format!("opponent {}\nmover    {}", row(&mut c[m..].iter().rev()), row(&mut c[..m].iter()))
}
