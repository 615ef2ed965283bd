//! `solve trias`: Trias tables, the start's value, and position analysis.

use crate::options::{BuildFlags, ForceFlag, QueryArgs};
use crate::printer::{counted, print_json, print_position, View};
use anyhow::{bail, Context, Result};
use clap::Args;
use games::trias::{self, Lap, LapEnd, Position, Trias, TriasError};
use retro::{memory, Game, Tables};
use tablebase::front::{self, Asked};
use tablebase::registry;
use tablebase::report::{PositionReport, ReachableReport, TablesReport};

#[derive(Args)]
#[command(
    about = "Trias: build tables, print the start's value, or analyse a position",
    long_about = "Builds the perfect-play tables of Trias on three rows of K holes (or reuses them if \
                  already built under --out), then prints the value of the start with S stones in \
                  every hole for South, who moves first: a win or a loss (Trias has no draws), with \
                  the plies to the end under perfect play (the winner hurries, the loser delays), \
                  every opening move with its value, the best move and the principal line.\n\n\
                  A tier is the number of stones on the board; every move takes at least one off, \
                  so the tables of a board serve every smaller setup and every position of the board \
                  with as many stones or fewer. --position answers from the tables already built \
                  and names the ones it lacks (--build builds them).\n\n\
                  Position notation: three rows as South sees the board, North's first, then the \
                  middle row, then South's, separated by `/`; each row the stones of its holes from \
                  South's left (file 1), separated by `,`; then a space and the player to move, `S` or \
                  `N`. The 3x4 start with 2 stones a hole is `2,2,2,2/2,2,2,2/2,2,2,2 S`.\n\n\
                  Moves are named by the file of the hole, counted from the mover's left: South's 1 \
                  is file 1, North's 1 is file K. In the picture and in --explain holes are named by \
                  row (N, M, S) and file from South's left.",
    after_help = "Examples:\n  \
                  solve trias --holes 3 --stones 1\n  \
                  solve trias --holes 4 --stones 2 --json\n  \
                  solve trias --position \"0,0,0/0,0,1/1,2,0 S\" --explain\n  \
                  solve trias --position \"1,1,1,1/1,0,2,1/4,2,0,0 N\" --build"
)]
pub struct TriasArgs {
    /// Holes a row, 1 to 12 (the source's board has 12).
    #[arg(long)]
    holes: Option<usize>,
    /// Stones in every hole at the start (the source's game has 4).
    #[arg(long)]
    stones: Option<u32>,
    #[command(flatten)]
    query: QueryArgs,
    /// Show the laps of every legal move: where each was lifted, where its last stone
    /// fell and what happened there.
    #[arg(long)]
    explain: bool,
    #[command(flatten)]
    pub force: ForceFlag,
}

/// The position asked about and, for a start, its stones a hole.
fn position(args: &TriasArgs) -> Result<(Position, Option<u32>)> {
    let given = match &args.query.position {
        Some(text) => Some(
            text.parse::<Position>()
                .with_context(|| format!("reading the position `{}`", games::echo::excerpt(text)))?,
        ),
        None => None,
    };
    match (given, args.holes, args.stones) {
        (Some(p), holes, stones) => {
            if let Some(k) = holes.filter(|&k| k != p.holes()) {
                bail!("--holes {k}, but the position has {} holes a row", p.holes());
            }
            if let Some(s) = stones {
                bail!(
                    "--stones {s} sets up a start; with --position the position fixes the stones (it has {})",
                    p.stones()
                );
            }
            Ok((p, p.start_stones()))
        }
        (None, Some(k), Some(s)) => {
            if s == 0 {
                bail!("--stones 0: the start needs at least one stone a hole");
            }
            let start = Position::start(k, s).ok_or_else(|| match Trias::new(k, 0) {
                Err(e) => anyhow::Error::new(e),
                Ok(_) => anyhow::anyhow!(
                    "3x{k} with {s} stones a hole is {} stones; boards here hold at most {}",
                    3 * k as u64 * s as u64,
                    trias::MAX_STONES
                ),
            })?;
            Ok((start, Some(s)))
        }
        (None, None, _) | (None, _, None) => {
            bail!("give --holes K and --stones S to solve a start, or --position (see `solve trias --help`)")
        }
    }
}

/// What the tables answering `position` are: the Trias tables of its board for every
/// number of stones up to its own.
fn needs(position: &Position) -> String {
    let (k, n) = (position.holes(), position.stones());
    let positions: f64 = (0..=n).map(|t| trias::tier_positions(k, t) as f64).sum();
    format!("this position needs the Trias tables of 3x{k} for every number of stones from 0 to {n}: about {positions:.3e} positions")
}

/// The game indexed up to `position`'s stones, if a 64-bit index numbers it.
fn game_for(position: &Position) -> Result<Trias> {
    match Trias::new(position.holes(), position.stones()) {
        Ok(game) => Ok(game),
        Err(TriasError::Index(_)) => bail!("{}, more than a 64-bit index can number", needs(position)),
        Err(e) => Err(e.into()),
    }
}

pub fn run(args: TriasArgs, flags: BuildFlags) -> Result<()> {
    let (position, stones) = position(&args)?;
    let dir = registry::trias_dir(&args.query.tables.out, position.holes());
    let game = game_for(&position)?;
    let root = game.locate(&position).tier;
    // A position asked without --build builds nothing: the tables it lacks are named, not
    // the memory building them would take.
    if args.query.position.is_some() && !args.query.build {
        let command = build_command(&args, &game, root, &position);
        crate::build::require_built(&game, &dir, root, &counted(root, "stone", "stones"), &command)?;
    }
    if let Err(need) = crate::build::check_memory(&game, &dir, &game.tiers_up_to(root as u32), flags) {
        bail!("{}: {need}", needs(&position));
    }
    let (tables, build, seconds) = crate::build::tables(&game, &dir, &[root], flags)?;
    if args.query.verify {
        crate::build::verify_tables(&game, &tables, root, args.query.json)?;
    }
    let reachable = match stones {
        Some(s) => Some(reachable(&game, &tables, &position, s)?),
        None => None,
    };
    let tables_report = TablesReport::new(&tables, &build, seconds, memory::peak_resident());
    let asked = Asked { game: game.clone(), position, start: stones };
    let (mut report, _) = front::report(&game, &tables, &asked, args.query.line.max_line, tables_report, reachable)?;
    if args.explain {
        report.details = Some(front::trias::laps_details(&position));
    }
    if args.query.json {
        print_json(&report)?;
        return Ok(());
    }
    print_text(&report, &game, &position, stones, args.explain)
}

/// The command that builds the tables of `position` (its tier `root` and those below):
/// the smallest start that holds them where a 64-bit index numbers it, else the position
/// with `--build`.
fn build_command(args: &TriasArgs, game: &Trias, root: u8, position: &Position) -> String {
    let k = game.holes();
    let per_hole = trias::stones_a_hole_holding(k, root as u32);
    if Trias::new(k, 3 * k as u32 * per_hole).is_ok() {
        format!(
            "`solve trias --holes {k} --stones {per_hole}{}` (every tier up to {} stones), or add --build to \
             build just these",
            registry::out_flag(&args.query.tables.out),
            3 * k as u32 * per_hole
        )
    } else {
        format!(
            "`solve trias --position \"{position}\"{} --build` (the start of {per_hole} a hole is past what a \
             64-bit index numbers)",
            registry::out_flag(&args.query.tables.out)
        )
    }
}

/// The positions reachable from the start of `stones` a hole, by value: read from the
/// tables' census cache, or counted and kept there.
fn reachable(game: &Trias, tables: &Tables<Trias>, start: &Position, stones: u32) -> Result<ReachableReport> {
    let cache = tables.dir().join(format!("census-s{stones}.txt"));
    let census = crate::progress::census(game, tables, start, &cache)?;
    Ok(ReachableReport { positions: census.positions, win: Some(census.win), draw: None, loss: Some(census.loss) })
}

/// Prints `report` of `position` (the start of `stones` a hole, if it is one) as text, with
/// the laps of every move if `explain`.
fn print_text(
    report: &PositionReport,
    game: &Trias,
    position: &Position,
    stones: Option<u32>,
    explain: bool,
) -> Result<()> {
    let plies = report.line.len();
    let last = if plies.is_multiple_of(2) { position.to_move() } else { position.to_move().other() };
    let mut notes = Vec::new();
    if explain && !report.moves.as_ref().is_some_and(Vec::is_empty) {
        notes.push("laps of each move (holes named as in the picture):".to_owned());
        for (name, laps, removed) in &front::trias::laps(position) {
            let text: Vec<String> = laps.iter().map(|lap| lap_text(position, lap)).collect();
            notes.push(format!("  {name}: {}; {removed} off the board", text.join("; ")));
        }
    }
    let title = match stones {
        Some(s) => format!(
            "Trias 3x{} with {} a hole ({} stones), South moves first",
            game.holes(),
            counted(s, "stone", "stones"),
            3 * game.holes() as u32 * s
        ),
        None => format!("Trias 3x{}, a position with {}", game.holes(), counted(position.stones(), "stone", "stones")),
    };
    let view = View {
        title,
        picture: position.picture(),
        rules: None,
        mover: Some(position.to_move().name().to_owned()),
        line_end: format!("{} (to move) has no legal move and loses; {} wins", last.name(), last.other().name()),
        notes,
    };
    print_position(report, &view)?;
    Ok(())
}

/// One lap in words: `S2 2 -> M3 occupied: relay`.
fn lap_text(position: &Position, lap: &Lap) -> String {
    let name = |cell| position.cell_name(cell);
    let end = match lap.end {
        LapEnd::Relay => "occupied: relay".to_owned(),
        LapEnd::Transfer(own) => format!("empty: onto {}", name(own)),
        LapEnd::Capture(hole, n) => format!("empty: captures {n} from {}", name(hole)),
        LapEnd::Removed => "empty: the stone leaves the board".to_owned(),
    };
    format!("{} {} -> {} {end}", name(lap.from), lap.stones, name(lap.last))
}
