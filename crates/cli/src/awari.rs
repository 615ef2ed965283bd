//! `solve awari`: Oware on boards of 1 to 6 pits a row. Under the computer-science rules
//! (`--rules awari`): endgame tables by stones on the board, the exact score of any
//! position and of a small board's start. The target rule sets (`--rules trysse|wari`)
//! are in [`crate::oware`].

use crate::answer::{self, Asking, FromTables, Subcommand};
use crate::memory;
use crate::options::{BuildFlags, ForceFlag, LineLength, PartsFlag, RecordFile, SearchBudget, TablesRoot};
use crate::printer::{counted, print_json};
use anyhow::{bail, Context, Result};
use clap::{Args, ValueEnum};
use games::awari::{published_count, Awari, Board, MAX_PITS, START_STONES};
use games::oware::TargetRules;
use retro::{Game, Tables};
use serde_json::json;
use std::collections::BTreeMap;
use std::path::Path;
use tablebase::front::Asked;
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
    #[arg(long, value_enum, ignore_case = true, default_value = "awari", conflicts_with = "record")]
    pub(crate) rules: RulesArg,
    /// Pits per row, 1 to 6 (default: the --position's, else 6).
    #[arg(long, conflicts_with = "record")]
    pub(crate) pits: Option<usize>,
    /// Solve the start with this many stones in every pit.
    #[arg(long, conflicts_with = "record")]
    pub(crate) seeds: Option<u32>,
    /// Stones to capture to win (trysse and wari only).
    #[arg(long, conflicts_with = "record")]
    pub(crate) target: Option<u32>,
    /// Awari: build (or reuse) every table up to this many stones on the board (at most 48).
    #[arg(long, conflicts_with = "record")]
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
    pub(crate) search: SearchBudget,
    #[command(flatten)]
    pub(crate) record: RecordFile,
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
    if let Some(file) = &args.record.record {
        return replay(file, &args, flags);
    }
    match args.rules {
        RulesArg::Trysse => return crate::oware::run(TargetRules::Trysse, &args, flags),
        RulesArg::Wari => return crate::oware::run(TargetRules::Wari, &args, flags),
        RulesArg::Awari => {}
    }
    refuse_target_options(&args, flags)?;
    if args.seeds.is_some() && args.stones.is_some() {
        bail!("--seeds solves the start: give it without --stones");
    }
    if args.seeds.is_none() && args.position.is_none() {
        return tables_only(&args, flags);
    }
    if let Some(k) = args.stones {
        tables_up_to(&args, k, flags)?;
    }
    let request = answer::request(&[
        ("pits", args.pits.map(|m| m.to_string())),
        ("seeds", args.seeds.map(|s| s.to_string())),
        ("position", args.position.clone()),
    ])?;
    // A start builds its tables; a position is answered from those built (--stones).
    let asking = Asking {
        build: args.seeds.is_some(),
        ..Asking::building(&args.tables.out, args.json, &args.line, args.search)
    };
    let answered = answer::answer::<Awari>(&request, &asking, flags)?;
    let notes = vec!["(scores: the final difference of the stones on the board, mover minus opponent)".to_owned()];
    answer::print(&answered, args.json, notes)
}

/// `--record FILE`: an Awari, Trysse or Wari record (or an OGN match) replayed, each
/// position answered as `--position` answers it (Awari's from the tables built, Trysse's
/// and Wari's building theirs).
fn replay(file: &std::path::Path, args: &AwariArgs, flags: BuildFlags) -> Result<()> {
    let kept = crate::record::read(file)?;
    let asking = |build| Asking { build, ..Asking::building(&args.tables.out, false, &args.line, args.search) };
    match kept.record.game()? {
        "oware" => crate::record::replay::<games::oware::Oware>(&kept, &asking(true), flags, &mut FromTables),
        _ => crate::record::replay::<Awari>(&kept, &asking(false), flags, &mut FromTables),
    }
}

/// `--stones K` alone: every table up to K stones built, each tier's counts printed (or
/// their JSON report).
fn tables_only(args: &AwariArgs, flags: BuildFlags) -> Result<()> {
    let Some(k) = args.stones else {
        bail!(
            "give --seeds S to solve the start, --stones K to build tables, or --position to analyse one (see \
             `solve awari --help`)"
        );
    };
    if let Some(report) = tables_up_to(args, k, flags)? {
        print_json(&report)?;
    }
    Ok(())
}

/// `--stones K`: the tables up to K stones on `--pits` a row, built or reused, for a
/// position asked beside it too.
fn tables_up_to(args: &AwariArgs, k: u32, flags: BuildFlags) -> Result<Option<TablesOnlyReport>> {
    let position: Option<Board> = match &args.position {
        Some(text) => {
            Some(text.parse().with_context(|| format!("reading the position `{}`", games::echo::excerpt(text)))?)
        }
        None => None,
    };
    let m = pits(args.pits, position.map(|p| p.pits_per_row()))?;
    check_stones(k, position.as_ref())?;
    build_stones(args, m, k, &registry::awari_dir(&args.tables.out, m), flags)
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

/// Refuses `--stones` past the largest board, and a position with more stones than
/// `--stones` builds tables for.
fn check_stones(k: u32, position: Option<&Board>) -> Result<()> {
    if k > START_STONES {
        bail!("--stones {k}: boards here hold at most {START_STONES} stones");
    }
    if let Some(p) = position {
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

impl Subcommand for Awari {
    fn holds(board: &Board) -> String {
        counted(board.stones(), "stone", "stones")
    }

    fn picture(&self, board: &Board) -> String {
        format!("{}\nstones on the board: {}", picture(board), board.stones())
    }

    /// A position is written from the mover's side and does not say who he is, but at the
    /// start.
    fn mover(asked: &Asked<Awari>) -> Option<String> {
        asked.start.map(|_| "South".to_owned())
    }

    fn line_end(&self, _: &Asked<Awari>, report: &PositionReport) -> Result<String> {
        Ok(match report.line_end.kind {
            LineEndKind::Repetition => "a position repeats: the stones left are split".to_owned(),
            _ => "no move: the opponent takes the stones left".to_owned(),
        })
    }
}

/// The board as across a table: the opponent's row right to left above the mover's.
pub(crate) fn picture(p: &Board) -> String {
    let c = p.cells();
    let m = p.pits_per_row();
    let row = |cells: &mut dyn Iterator<Item = &u8>| cells.map(|x| format!("{x:>3}")).collect::<String>();
    format!("opponent {}\nmover    {}", row(&mut c[m..].iter().rev()), row(&mut c[..m].iter()))
}

impl crate::Run for AwariArgs {
    fn build_flags(&self) -> crate::options::CommandFlags<'_> {
        crate::options::CommandFlags { force: Some(&self.force), parts: Some(&self.parts) }
    }

    fn run(self, flags: BuildFlags) -> Result<()> {
        run(self, flags)
    }
}
