//! `solve awari`: Awari endgame tables (one per number of stones on the board) and the
//! exact score of any position, with every move's score and the line.

use crate::memory;
use crate::progress::BuildProgress;
use anyhow::{bail, Context, Result};
use clap::Args;
use games::awari::{published_count, Awari, Board, START_STONES};
use retro::cyclic;
use retro::score::{self, ScoreGame, ScoreTables};
use retro::store::tier_file;
use serde_json::json;
use std::collections::{BTreeMap, HashSet};
use std::path::{Path, PathBuf};
use std::time::Instant;

#[derive(Args)]
#[command(
    about = "Awari (Oware, computer-science rules): endgame tables by stones on the board, any position's score",
    long_about = "Builds Awari endgame tables, one per number of stones on the board, as Romein & Bal did, and \
                  answers what a position is worth.\n\n\
                  A table holds, for each arrangement of n stones in the 12 pits with a player to move, the \
                  final difference (mover minus opponent) of those n stones under perfect play; stones already \
                  captured do not change best play. A position that repeats splits the remaining stones \
                  equally (0). The rules (docs/rules/awari.md): sowing skips the emptied pit on laps of 12 or \
                  more; the last stone making 2 or 3 on the opponent's side captures, and so do the pits \
                  before it on that side holding 2 or 3; a move that leaves the opponent no stone is allowed \
                  only when every move does; a player with no move loses the stones left to the opponent.\n\n\
                  --stones K builds (or reuses) every table up to K stones under --out and reports, for \
                  each n, the table entries, the positions counted under the published rule (the player who \
                  just moved has an empty pit) and the distribution of values.\n\n\
                  --position takes 12 pit counts, the mover's six first, counterclockwise (so the \
                  opponent's first pit follows the mover's sixth), separated by commas or spaces, and prints \
                  its score, every legal move's score (stones it captures minus the opponent's score after \
                  it), the best move and the line. Moves are named by the mover's pit, 1 to 6 in sowing \
                  order. The tables up to the position's stones must be built (or give --stones).",
    after_help = "Examples:\n  \
                  solve awari --stones 12\n  \
                  solve awari --stones 12 --json\n  \
                  solve awari --position \"0,0,1,2,0,3, 1,0,0,2,0,1\"\n  \
                  solve awari --stones 16 --position \"4,0,0,2,1,0,0,3,0,0,5,1\" --json"
)]
pub struct AwariArgs {
    /// Build (or reuse) every table up to this many stones on the board (at most 48).
    #[arg(long)]
    stones: Option<u32>,
    /// Analyse this position (12 pit counts, the mover's first, counterclockwise).
    #[arg(long)]
    position: Option<String>,
    /// Directory holding the tables (created if missing).
    #[arg(long, default_value = "data")]
    out: PathBuf,
    /// Print one JSON object instead of text.
    #[arg(long)]
    json: bool,
    /// Longest line printed, in moves.
    #[arg(long, default_value_t = 200)]
    max_line: usize,
}

/// Working memory of a tier build per position: best exit, counter and value (a byte
/// each) and the 2-byte code written out.
const WORK_BYTES_PER_POSITION: f64 = 5.0;

/// Where the Awari tables live.
pub fn table_dir(out: &Path) -> PathBuf {
    out.join("awari").join("awari")
}

pub fn run(args: AwariArgs) -> Result<()> {
    let position: Option<Board> = match &args.position {
        Some(text) => Some(text.parse().with_context(|| format!("reading the position `{text}`"))?),
        None => None,
    };
    if args.stones.is_none() && position.is_none() {
        bail!("give --stones K to build tables, or --position to analyse one (see `solve awari --help`)");
    }
    if let Some(k) = args.stones {
        if k > START_STONES {
            bail!("--stones {k}: Awari has {START_STONES} stones");
        }
    }
    if let (Some(k), Some(p)) = (args.stones, &position) {
        if p.stones() > k {
            bail!("the position has {} stones: it needs tables up to --stones {}", p.stones(), p.stones());
        }
    }
    let dir = table_dir(&args.out);
    let mut out = json!({});
    if let Some(k) = args.stones {
        let (game, tables, seconds, report) = build(k, &dir, args.json)?;
        let tiers = tier_report(&game, &tables, k)?;
        if args.json {
            out = json!({
                "stones": k,
                "tables": dir.display().to_string(),
                "tiers": tiers.iter().map(|t| json!({
                    "stones": t.stones,
                    "entries": t.entries,
                    "published_rule": t.published,
                    "values": t.values.iter().map(|(v, c)| (v.to_string(), json!(c))).collect::<serde_json::Map<_, _>>(),
                })).collect::<Vec<_>>(),
                "entries": tiers.iter().map(|t| t.entries).sum::<u64>(),
                "published_rule": tiers.iter().map(|t| t.published).sum::<u64>(),
                "tiers_built": report.tiers_built,
                "tiers_reused": report.tiers_reused,
                "bytes": report.bytes,
                "build_seconds": seconds,
                "peak_memory_bytes": memory::peak_resident(),
            });
        } else {
            print_tiers(&tiers);
            println!(
                "tables: {} ({} built, {} reused) in {:.1} s, {} on disk ({:.3} bytes/position), peak memory {}",
                dir.display(),
                report.tiers_built,
                report.tiers_reused,
                seconds,
                memory::human(report.bytes as f64),
                report.bytes as f64 / report.positions.max(1) as f64,
                memory::peak_resident().map_or("unknown".to_owned(), |b| memory::human(b as f64)),
            );
        }
    }
    if let Some(p) = position {
        let n = p.stones();
        let game = Awari::new(n).context("indexing the boards")?;
        let tiers = game.tiers_up_to(n);
        if let Some(missing) = tiers.iter().find(|&&t| !tier_file(&dir, t).exists()) {
            bail!(
                "the position has {n} stones, but {} is missing (tier {missing}): build the tables with \
                 `solve awari --stones {n}` (--out {})",
                tier_file(&dir, missing).display(),
                args.out.display()
            );
        }
        let tables = score::open(&game, &dir, &tiers).with_context(|| format!("opening {}", dir.display()))?;
        let analysis = analyse(&game, &tables, &p, args.max_line)?;
        if args.json {
            out["position"] = json!(p.to_string());
            out["stones"] = json!(n);
            out["value"] = json!(analysis.value);
            out["moves"] = analysis
                .moves
                .iter()
                .map(|m| json!({"pit": m.pit, "captures": m.captured, "score": m.score, "leads_to": m.child.to_string()}))
                .collect();
            out["best"] = json!(analysis.best());
            out["line"] = json!(analysis.line.iter().map(|(pit, _)| pit).collect::<Vec<_>>());
            out["line_ends"] = json!(analysis.end);
        } else {
            print_analysis(&p, &analysis);
        }
    }
    if args.json {
        println!("{}", serde_json::to_string_pretty(&out)?);
    }
    Ok(())
}

fn build(k: u32, dir: &Path, quiet: bool) -> Result<(Awari, ScoreTables<Awari>, f64, retro::store::BuildReport)> {
    let game = Awari::new(k).context("indexing the boards")?;
    let tiers = game.tiers_up_to(k);
    let largest = game.tier_size(k as u8) as f64;
    if let Some(free) = memory::available() {
        let need = largest * WORK_BYTES_PER_POSITION;
        if need > free as f64 {
            bail!(
                "tables up to {k} stones need about {} of memory (largest tier {largest:.3e} positions); this \
                 machine has {} available: lower --stones",
                memory::human(need),
                memory::human(free as f64)
            );
        }
    }
    let to_build: u64 = tiers.iter().filter(|&&t| !tier_file(dir, t).exists()).map(|&t| game.tier_size(t)).sum();
    let progress = BuildProgress::new(to_build, quiet);
    let started = Instant::now();
    let (tables, report) = cyclic::build(&game, dir, &tiers, &progress)
        .with_context(|| format!("building tables in {}", dir.display()))?;
    progress.finish();
    Ok((game, tables, started.elapsed().as_secs_f64(), report))
}

/// One tier's line of the report.
struct TierLine {
    stones: u32,
    entries: u64,
    published: u64,
    /// Positions by value for the player to move.
    values: BTreeMap<i16, u64>,
}

fn tier_report(game: &Awari, tables: &ScoreTables<Awari>, k: u32) -> Result<Vec<TierLine>> {
    game.tiers_up_to(k)
        .into_iter()
        .map(|t| {
            let mut values = BTreeMap::new();
            for rank in 0..game.tier_size(t) {
                *values.entry(tables.probe(t, rank)?).or_insert(0u64) += 1;
            }
            let stones = t as u32;
            Ok(TierLine { stones, entries: game.tier_size(t), published: published_count(stones), values })
        })
        .collect()
}

fn print_tiers(tiers: &[TierLine]) {
    println!("{:>3} {:>15} {:>15}  values (score for the player to move: positions)", "n", "entries", "published rule");
    for t in tiers {
        let values: Vec<String> = t.values.iter().map(|(v, c)| format!("{v:+}:{c}")).collect();
        println!("{:>3} {:>15} {:>15}  {}", t.stones, t.entries, t.published, values.join(" "));
    }
    println!(
        "sum {:>15} {:>15}",
        tiers.iter().map(|t| t.entries).sum::<u64>(),
        tiers.iter().map(|t| t.published).sum::<u64>()
    );
}

/// One legal move and what it is worth to the mover.
struct MoveScore {
    /// 1..=6, the mover's pits in sowing order.
    pit: usize,
    captured: u8,
    child: Board,
    score: i32,
}

struct Analysis {
    value: i16,
    moves: Vec<MoveScore>,
    /// The line of best moves: pit and the board before it.
    line: Vec<(usize, Board)>,
    end: &'static str,
}

impl Analysis {
    fn best(&self) -> Option<usize> {
        self.moves.iter().find(|m| m.score == self.value as i32).map(|m| m.pit)
    }
}

fn move_scores(game: &Awari, tables: &ScoreTables<Awari>, p: &Board) -> Result<Vec<MoveScore>> {
    p.moves()
        .iter()
        .map(|&(pit, s)| {
            let child = tables.value(game, &s.board)?;
            Ok(MoveScore {
                pit: pit + 1,
                captured: s.captured,
                child: s.board,
                score: s.captured as i32 - child as i32,
            })
        })
        .collect()
}

fn analyse(game: &Awari, tables: &ScoreTables<Awari>, p: &Board, max_line: usize) -> Result<Analysis> {
    let value = tables.value(game, p)?;
    let moves = move_scores(game, tables, p)?;
    // The line: a best move each turn (the first in pit order), until the game ends, a
    // position comes back (the stones are then split), or the line is long enough.
    let mut line = Vec::new();
    let mut seen = HashSet::new();
    let mut at = *p;
    let end = loop {
        if at.outcome().is_some() {
            break "no move: the opponent takes the stones left";
        }
        if !seen.insert(at) {
            break "a position repeats: the stones left are split";
        }
        if line.len() >= max_line {
            break "cut at --max-line";
        }
        let v = tables.value(game, &at)? as i32;
        let best = move_scores(game, tables, &at)?
            .into_iter()
            .find(|m| m.score == v)
            .context("no move reaches the stored value: the tables are damaged")?;
        line.push((best.pit, at));
        at = best.child;
    };
    Ok(Analysis { value, moves, line, end })
}

fn print_analysis(p: &Board, a: &Analysis) {
    let c = p.cells();
    let row = |cells: &[u8]| cells.iter().map(|x| format!("{x:>3}")).collect::<String>();
    // The opponent's row printed right to left above the mover's, as across a board.
    let mut top: Vec<u8> = c[6..].to_vec();
    top.reverse();
    println!("opponent {}", row(&top));
    println!("mover    {}", row(&c[..6]));
    println!("stones on the board: {}", p.stones());
    println!("score for the player to move: {:+} (final difference of the stones on the board)", a.value);
    for m in &a.moves {
        println!("  pit {}: captures {}, score {:+}", m.pit, m.captured, m.score);
    }
    match a.best() {
        Some(pit) => println!("best move: pit {pit}"),
        None => println!("no move: the opponent takes the {} stones left", p.stones()),
    }
    let line: Vec<String> = a.line.iter().map(|(pit, _)| pit.to_string()).collect();
    println!("line: {} ({})", if line.is_empty() { "-".to_owned() } else { line.join(" ") }, a.end);
}

/// The game a table key names, for `solve verify-table`: `awari pits=6 rules=awari`.
pub fn game_from_key(key: &str, max_stones: u32) -> Result<Awari> {
    let expected = Awari::new(0)?.table_key();
    if key != expected {
        bail!("table key `{key}` is not one this version builds (`{expected}`)");
    }
    if max_stones > START_STONES {
        bail!("a tier of {max_stones} stones: Awari has {START_STONES}");
    }
    Ok(Awari::new(max_stones)?)
}
