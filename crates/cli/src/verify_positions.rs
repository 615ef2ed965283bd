//! `solve verify kalah-positions`: recompute published margins of single Kalah positions
//! (not only starts) and compare, one row a position.

use crate::kalah::{build, with_search_progress, EndgameSeeds};
use crate::options::{BuildFlags, ForceFlag, TablesRoot};
use crate::verify::read_rows;
use anyhow::{bail, Context, Result};
use clap::Args;
use games::kalah::{notation, Position, Rules};
use search::kalah::{default_tt_bits, Plan, Search, Solver};
use std::path::PathBuf;
use std::time::Instant;

#[derive(Args)]
pub struct VerifyPositionsArgs {
    /// The published margins: tab-separated `rules position margin best source`, the margin
    /// the final store difference for the player to move, `best` a pit (1 to m) whose
    /// sowing keeps that margin, or empty (default: the copy of
    /// data/published/kalah-positions.tsv built into this program: 725 positions of
    /// Kalah(6,3), (6,4) and (6,5) under standard rules from CMancala's opening book).
    #[arg(long)]
    published: Option<PathBuf>,
    /// Only positions of games with at most this many seeds in all (pits and stores). The
    /// default, 36, checks the 244 Kalah(6,3) rows of the built-in file in under a
    /// minute; 48 adds its 244 Kalah(6,4) rows (about half an hour on 2 cores, up to a
    /// minute and a half a position); 60 its Kalah(6,5) rows, each a search of many
    /// minutes over tables of 1.25 billion boards.
    #[arg(long, default_value_t = 36)]
    max_seeds: u32,
    /// Endgame tables up to this many seeds in the pits (default `auto`: chosen for each
    /// game's seeds from free memory, as `solve kalah` does).
    #[arg(long, default_value = "auto", value_name = "SEEDS")]
    endgame_seeds: EndgameSeeds,
    /// Transposition table of at most 2^B entries of 16 bytes, B from 4 to 36, one a board
    /// searched, its memory taken as the search fills it (default: 27, 2 GiB, or fewer
    /// where that would pass a quarter of the free memory).
    #[arg(long, value_parser = clap::value_parser!(u32).range(4..=36))]
    tt_bits: Option<u32>,
    #[command(flatten)]
    tables: TablesRoot,
    #[command(flatten)]
    pub force: ForceFlag,
}

/// One published row.
struct Published {
    rules: String,
    position: Position,
    margin: i32,
    /// A pit (1 to m) whose sowing keeps the margin, if the source names one, and the
    /// position after that sowing.
    best: Option<(usize, Position)>,
    source: String,
}

impl Published {
    /// Seeds in the game: the pits' and the stores'.
    fn seeds(&self) -> u32 {
        let [south, north] = self.position.stores();
        self.position.seeds_in_pits() + u32::from(south) + u32::from(north)
    }
}

/// What one set of tables and one search answer: pits a row, rules, seeds in all.
type Game<'a> = (usize, &'a str, u32);

/// data/published/kalah-positions.tsv, built in: the command works from any directory.
const PUBLISHED_POSITIONS: &str = include_str!("../../../data/published/kalah-positions.tsv");

/// The rows of `text`, read from `name`.
fn parse(text: &str, name: &str) -> Result<Vec<Published>> {
    let mut rows = Vec::new();
    for (i, line) in text.lines().enumerate() {
        if line.starts_with('#') || line.starts_with("rules\t") || line.trim().is_empty() {
            continue;
        }
        let at = format!("{name}:{}", i + 1);
        let f: Vec<&str> = line.split('\t').collect();
        let [rules, position, margin, best, source] = f[..] else {
            bail!("{at}: expected five tab-separated fields `rules position margin best source`, found {}", f.len())
        };
        let preset = Rules::preset(rules).with_context(|| format!("{at}: rules"))?;
        let position = notation::parse(position).with_context(|| format!("{at}: position"))?;
        let margin: i32 =
            margin.trim().parse().map_err(|_| anyhow::anyhow!("{at}: margin {margin:?} is not a whole number"))?;
        // A margin the position cannot reach (beyond what its stores already say, give or
        // take every seed left in the pits) is a fault of the file, not a claim to check.
        let (banked, left) = (position.store_difference(), position.seeds_in_pits() as i32);
        if (margin - banked).abs() > left {
            bail!(
                "{at}: margin {margin:+} is out of reach: the stores say {banked:+} with {left} seeds left in the pits"
            );
        }
        let best = match best.trim() {
            "" => None,
            text => {
                let pit: usize =
                    text.parse().map_err(|_| anyhow::anyhow!("{at}: best {text:?} is not a pit number"))?;
                // A move the position does not have is a fault of the file.
                let moves = position.board().moves(&preset);
                let Some(&(_, sown)) = moves.iter().find(|&&(i, _)| i + 1 == pit) else {
                    bail!("{at}: best {pit} is no move of the player to move (a pit 1 to m with seeds in it)");
                };
                Some((pit, position.after(sown)))
            }
        };
        rows.push(Published { rules: rules.to_owned(), position, margin, best, source: source.to_owned() });
    }
    if rows.is_empty() {
        bail!("{name}: no published margins in it (rows of `rules position margin best source`, tab-separated)");
    }
    Ok(rows)
}

pub fn run(args: VerifyPositionsArgs, flags: BuildFlags) -> Result<()> {
    let built_in = "data/published/kalah-positions.tsv (built in)";
    let rows = read_rows(args.published.as_deref(), PUBLISHED_POSITIONS, built_in, parse)?;
    let tt_bits = args.tt_bits.unwrap_or_else(default_tt_bits);
    let within: Vec<&Published> = rows.iter().filter(|row| row.seeds() <= args.max_seeds).collect();
    if within.is_empty() {
        bail!(
            "none of the {} published positions is of a game of at most {} seeds (--max-seeds)",
            rows.len(),
            args.max_seeds
        );
    }
    outln!(
        "{:<34} {:<14} {:>9} {:>9} {:>5} {:>9}  verdict",
        "position",
        "rules",
        "published",
        "computed",
        "best",
        "time (s)"
    )?;
    let (mut checked, mut disagreements) = (0, 0);
    for (game, rows) in &by_game(within) {
        disagreements += check_game(&args, flags, tt_bits, *game, rows)?;
        checked += rows.len();
    }
    outln!("{checked} published margins checked, {disagreements} disagreements")?;
    if disagreements > 0 {
        bail!("{disagreements} computed margins disagree with the published ones");
    }
    Ok(())
}

/// `rows` by the game they are of (pits a row, rules and seeds), in the file's order: one
/// set of tables and one search answer a game's rows, later positions reusing what
/// earlier ones searched.
fn by_game<'a>(rows: Vec<&'a Published>) -> Vec<(Game<'a>, Vec<&'a Published>)> {
    let mut games: Vec<(Game, Vec<&Published>)> = Vec::new();
    for row in rows {
        let game = (row.position.pits(), row.rules.as_str(), row.seeds());
        match games.iter_mut().find(|(g, _)| *g == game) {
            Some((_, rows)) => rows.push(row),
            None => games.push((game, vec![row])),
        }
    }
    games
}

/// Checks the `rows` of one game, a line each, from one set of tables (built as `flags`
/// ask) and one search with a transposition table of 2^`tt_bits` entries; returns how
/// many disagree.
fn check_game(
    args: &VerifyPositionsArgs,
    flags: BuildFlags,
    tt_bits: u32,
    game: Game,
    rows: &[&Published],
) -> Result<usize> {
    let (m, rules, seeds) = game;
    let rules = Rules::preset(rules)?;
    let endgame_seeds = args.endgame_seeds.for_instance(m, seeds, tt_bits, &rules);
    let dir = tablebase::registry::kalah_dir(&args.tables.out, m, &rules);
    let solver = build(Plan::new(m, rules, endgame_seeds, seeds, &dir, tt_bits)?, flags)?;
    let search = solver.search(seeds)?;
    let mut disagreements = 0;
    for row in rows {
        if !check_row(&solver, search.as_ref(), row)? {
            disagreements += 1;
        }
    }
    Ok(disagreements)
}

/// Checks one row: its margin, and its best move where it names one and the margin holds.
/// Prints its line; returns whether it agrees.
fn check_row(solver: &Solver, search: Option<&Search>, row: &Published) -> Result<bool> {
    let started = Instant::now();
    let (computed, keeps) = with_search_progress(solver, search, &row.position, started, |_| {
        let computed = solver.margin(search, &row.position)?;
        // The best move is tested only against a margin that holds: one
        // null-window test, does the position after its sowing keep the margin?
        let keeps = match &row.best {
            Some((_, next)) if computed == row.margin => {
                Some(solver.turn_at_least(search, &row.position, next, row.margin)?)
            }
            _ => None,
        };
        Ok((computed, keeps))
    })?;
    let verdict = match (computed == row.margin, keeps) {
        (true, None | Some(true)) => "agrees".to_owned(),
        (true, Some(false)) => format!("DISAGREES with {}: its best move loses some of the margin", row.source),
        (false, _) => format!("DISAGREES with {}", row.source),
    };
    outln!(
        "{:<34} {:<14} {:>9} {:>9} {:>5} {:>9.1}  {verdict}",
        row.position.to_string(),
        row.rules,
        format!("{:+}", row.margin),
        format!("{computed:+}"),
        match (&row.best, keeps) {
            (Some((pit, _)), Some(true)) => format!("{pit} ok"),
            (Some((pit, _)), _) => pit.to_string(),
            (None, _) => "-".to_owned(),
        },
        started.elapsed().as_secs_f64(),
    )?;
    Ok(verdict == "agrees")
}
