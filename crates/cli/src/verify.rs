//! `solve verify kalah`: recompute the published results and compare, side by side.

use crate::kalah::{build, with_search_progress};
use crate::options::{BuildFlags, ForceFlag, TablesRoot};
use anyhow::{bail, Context, Result};
use clap::{Args, Subcommand};
use games::kalah::{Position, Rules};
use search::kalah::{default_tt_bits, Plan};
use std::fs::{File, OpenOptions};
use std::path::{Path, PathBuf};
use std::time::Instant;

#[derive(Args)]
#[command(
    about = "Recompute published results and compare with them",
    long_about = "Recomputes every published value in a table of published results (by default \
                  data/published/<game>.tsv as built into this program, each row naming its source), prints computed and published \
                  values side by side, and exits non-zero if any disagree."
)]
pub struct VerifyArgs {
    #[command(subcommand)]
    game: VerifyGame,
}

#[derive(Subcommand)]
enum VerifyGame {
    /// Kalah(m, n): the outcome grid and margins of Irving, Donkers & Uiterwijk (2000).
    Kalah(VerifyKalahArgs),
    /// Kalah positions beyond the start: the margins of CMancala's opening book (standard
    /// rules), or any file of positions and their margins.
    KalahPositions(crate::verify_positions::VerifyPositionsArgs),
}

#[derive(Args)]
struct VerifyKalahArgs {
    /// The published results: tab-separated `m n rules outcome margin source` (default:
    /// the copy of data/published/kalah.tsv built into this program).
    #[arg(long)]
    published: Option<PathBuf>,
    /// Only instances with at most this many pits a row.
    #[arg(long, default_value_t = 6)]
    max_pits: usize,
    /// Only instances with at most this many seeds in all (2·m·n). The default, 40, checks
    /// 30 of the 35 published values; `--max-seeds 50` adds Kalah(4,6), (5,5) and (6,4);
    /// `--max-seeds 60 --endgame-seeds auto` all 35, by far the longest (its time and memory
    /// are in docs/results.md).
    #[arg(long, default_value_t = 40)]
    max_seeds: u32,
    /// Endgame tables up to this many seeds for instances too large for a full table
    /// (default 16, a small build; `auto` chooses from free memory, as `solve kalah` does).
    #[arg(long, default_value = "16", value_name = "SEEDS")]
    endgame_seeds: crate::kalah::EndgameSeeds,
    /// Transposition table of at most 2^B entries of 16 bytes, B from 4 to 36, one a board
    /// searched, its memory taken as the search fills it (default: 27, 2 GiB, or fewer
    /// where that would pass a quarter of the free memory).
    #[arg(long, value_parser = clap::value_parser!(u32).range(4..=36))]
    tt_bits: Option<u32>,
    #[command(flatten)]
    tables: TablesRoot,
    /// Compute the exact margin of every instance, also where only the outcome is
    /// published (by default those get the outcome alone: one or two null-window
    /// searches, far cheaper than the margin on the largest instances).
    #[arg(long)]
    margins: bool,
    #[command(flatten)]
    force: ForceFlag,
}

impl VerifyArgs {
    /// `--force`, given after the game.
    pub fn force(&self) -> &ForceFlag {
        match &self.game {
            VerifyGame::Kalah(a) => &a.force,
            VerifyGame::KalahPositions(a) => &a.force,
        }
    }
}

pub fn run(args: VerifyArgs, flags: BuildFlags) -> Result<()> {
    match args.game {
        VerifyGame::Kalah(a) => kalah(a, flags),
        VerifyGame::KalahPositions(a) => crate::verify_positions::run(a, flags),
    }
}

/// One published row.
struct Published {
    m: usize,
    n: u32,
    rules: String,
    outcome: char,
    margin: Option<i32>,
    source: String,
}

/// data/published/kalah.tsv, built in: `solve verify kalah` works from any directory.
const PUBLISHED_KALAH: &str = include_str!("../../../data/published/kalah.tsv");

/// The most a file of published results is read to: a few hundred rows take kilobytes.
const MAX_PUBLISHED_BYTES: u64 = 16 << 20;

/// The text of a file of published results, at most [`MAX_PUBLISHED_BYTES`] of it (a
/// pipe `<(yes)` never ends).
fn read_text(path: &Path) -> Result<String> {
    use std::io::Read as _;
    let mut text = String::new();
    open_published(path)?
        .take(MAX_PUBLISHED_BYTES + 1)
        .read_to_string(&mut text)
        .with_context(|| format!("reading {}", path.display()))?;
    if text.len() as u64 > MAX_PUBLISHED_BYTES {
        bail!(
            "{}: more than {} MiB, far more than a table of published results",
            path.display(),
            MAX_PUBLISHED_BYTES >> 20
        );
    }
    Ok(text)
}

/// The file of published results at `path`, opened: a regular file, or a pipe the shell
/// made (`--published <(…)`, `/dev/stdin` in a pipeline). Refused by what it is, as table
/// paths are: a FIFO on the file system (named pipe), whose opening would wait for a
/// writer for ever; a directory; a device or a socket. Judged on the file opened (opened
/// without waiting on a FIFO), so that nothing swapped in after a look is read.
fn open_published(path: &Path) -> Result<File> {
    let mut options = OpenOptions::new();
    options.read(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::custom_flags(&mut options, libc::O_NONBLOCK);
    let reading = || format!("reading {}", path.display());
    let file = options.open(path).with_context(reading)?;
    let file_type = file.metadata().with_context(reading)?.file_type();
    if file_type.is_file() {
        return Ok(file);
    }
    if let Some(pipe) = reopened_shell_pipe(&file) {
        return pipe.with_context(reading);
    }
    bail!("{}: is {}, not a file of published results", path.display(), retro::table::kind_of(file_type))
}

/// `file` opened again to be read as it blocks, if it is a pipe with no name on the file
/// system (one the shell made). Its reader then waits for the writer's lines, where the
/// file opened without waiting would find none yet.
#[cfg(target_os = "linux")]
fn reopened_shell_pipe(file: &File) -> Option<std::io::Result<File>> {
    use std::os::fd::AsRawFd as _;
    let this = PathBuf::from(format!("/proc/self/fd/{}", file.as_raw_fd()));
    // The system names a pipe without a path `pipe:[inode]`.
    let target = std::fs::read_link(&this).ok()?;
    target.to_str()?.starts_with("pipe:").then(|| File::open(&this))
}

/// Elsewhere a pipe's name is not known: every FIFO is refused.
#[cfg(not(target_os = "linux"))]
fn reopened_shell_pipe(_: &File) -> Option<std::io::Result<File>> {
    None
}

/// The rows `parse` reads from the file at `path`, or from the copy built into this
/// program (`built_in`, cited in errors as `name`); `parse` takes a text and its name.
pub(crate) fn read_rows<T>(
    path: Option<&Path>,
    built_in: &str,
    name: &str,
    parse: impl Fn(&str, &str) -> Result<Vec<T>>,
) -> Result<Vec<T>> {
    match path {
        Some(path) => parse(&read_text(path)?, &path.display().to_string()),
        None => parse(built_in, name),
    }
}

/// The rows of `text`, read from `name`.
fn parse(text: &str, name: &str) -> Result<Vec<Published>> {
    let mut rows = Vec::new();
    for (i, line) in text.lines().enumerate() {
        if line.starts_with('#') || line.starts_with("m\t") || line.trim().is_empty() {
            continue;
        }
        let at = format!("{name}:{}", i + 1);
        let f: Vec<&str> = line.split('\t').collect();
        let [m, n, rules, outcome, margin, source] = f[..] else {
            bail!("{at}: expected six tab-separated fields `m n rules outcome margin source`, found {}", f.len())
        };
        let number = |what: &str, text: &str| {
            text.trim().parse::<i64>().map_err(|_| anyhow::anyhow!("{at}: {what} {text:?} is not a whole number"))
        };
        let outcome = match outcome {
            "W" | "D" | "L" => outcome.chars().next().unwrap_or('?'),
            _ => bail!("{at}: outcome {outcome:?} is not W, D or L"),
        };
        let (m, n) = (number("m", m)?, number("n", n)?);
        let (Ok(m), Ok(n)) = (usize::try_from(m), u32::try_from(n)) else { bail!("{at}: Kalah({m},{n}) is no board") };
        // Checked here, so that a bad row is named by its line before anything is built.
        Position::start(m, n).with_context(|| format!("{at}: Kalah({m},{n})"))?;
        Rules::preset(rules).with_context(|| format!("{at}: rules"))?;
        let margin = match margin.trim() {
            "" => None,
            text => Some(i32::try_from(number("margin", text)?).with_context(|| format!("{at}: margin {text}"))?),
        };
        // A row whose margin contradicts its outcome is a fault of the file, not a claim
        // to check.
        if let Some(margin) = margin {
            let said = letter(margin);
            if said != outcome {
                bail!("{at}: outcome {outcome} with margin {margin:+}: a margin says {said}");
            }
        }
        rows.push(Published { m, n, rules: rules.to_owned(), outcome, margin, source: source.to_owned() });
    }
    if rows.is_empty() {
        bail!("{name}: no published values in it (rows of `m n rules outcome margin source`, tab-separated)");
    }
    Ok(rows)
}

fn letter(margin: i32) -> char {
    match margin.signum() {
        1 => 'W',
        0 => 'D',
        _ => 'L',
    }
}

fn kalah(args: VerifyKalahArgs, flags: BuildFlags) -> Result<()> {
    let rows = read_rows(args.published.as_deref(), PUBLISHED_KALAH, "data/published/kalah.tsv (built in)", parse)?;
    let tt_bits = args.tt_bits.unwrap_or_else(default_tt_bits);
    let within = |row: &&Published| row.m <= args.max_pits && 2 * row.m as u32 * row.n <= args.max_seeds;
    // Nothing to check is said before a table is printed, with nothing in it.
    if !rows.iter().any(|row| within(&row)) {
        bail!(
            "none of the {} published values is of at most {} pits and {} seeds (--max-pits, --max-seeds)",
            rows.len(),
            args.max_pits,
            args.max_seeds
        );
    }
    outln!(
        "{:<11} {:<14} {:>9} {:>9} {:>8} {:>9}  verdict",
        "instance",
        "rules",
        "published",
        "computed",
        "margin",
        "time (s)"
    )?;
    let (mut checked, mut disagreements) = (0, 0);
    for row in rows.iter().filter(within) {
        checked += 1;
        if !check_row(&args, flags, tt_bits, row)? {
            disagreements += 1;
        }
    }
    outln!("{checked} published values checked, {disagreements} disagreements")?;
    if disagreements > 0 {
        bail!("{disagreements} computed values disagree with the published ones");
    }
    Ok(())
}

/// Solves the start of one published row, from tables built as `flags` ask and a search
/// with a transposition table of 2^`tt_bits` entries: its outcome, and its margin where
/// one is published or `--margins` asks. Prints its line; returns whether it agrees.
fn check_row(args: &VerifyKalahArgs, flags: BuildFlags, tt_bits: u32, row: &Published) -> Result<bool> {
    // Bounded: every row passed `Position::start` when it was read.
    let total = 2 * row.m as u32 * row.n;
    let rules = Rules::preset(&row.rules)?;
    let started = Instant::now();
    let start = Position::start(row.m, row.n)?;
    let endgame_seeds = args.endgame_seeds.for_instance(row.m, total, tt_bits, &rules);
    let dir = tablebase::registry::kalah_dir(&args.tables.out, row.m, &rules);
    let solver = build(Plan::new(row.m, rules, endgame_seeds, total, &dir, tt_bits)?, flags)?;
    let search = solver.search(total)?;
    let (computed, margin) = with_search_progress(&solver, search.as_ref(), &start, Instant::now(), |_| {
        Ok(if row.margin.is_some() || args.margins {
            // The start's margin alone: one MTD(f) search, which proves the other
            // turns no better without valuing each exactly.
            let margin = solver.margin(search.as_ref(), &start)?;
            (letter(margin), Some(margin))
        } else {
            (solver.outcome(search.as_ref(), &start)?, None)
        })
    })?;
    let agrees = computed == row.outcome && (row.margin.is_none() || row.margin == margin);
    let published = match row.margin {
        Some(p) => format!("{} {p:+}", row.outcome),
        None => row.outcome.to_string(),
    };
    outln!(
        "{:<11} {:<14} {:>9} {:>9} {:>8} {:>9.1}  {}",
        format!("Kalah({},{})", row.m, row.n),
        row.rules,
        published,
        computed,
        margin.map_or("-".to_owned(), |m| format!("{m:+}")),
        started.elapsed().as_secs_f64(),
        if agrees { "agrees".to_owned() } else { format!("DISAGREES with {}", row.source) }
    )?;
    Ok(agrees)
}

impl crate::Run for VerifyArgs {
    fn build_flags(&self) -> crate::options::CommandFlags<'_> {
        crate::options::CommandFlags { force: Some(self.force()), parts: None }
    }

    fn run(self, flags: BuildFlags) -> Result<()> {
        run(self, flags)
    }
}
