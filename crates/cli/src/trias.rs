//! `solve trias`: Trias tables, the start's value, and position analysis.

use crate::answer::{self, Asking, FromTables, Subcommand};
use crate::options::{BuildFlags, ForceFlag, ProofArgs, QueryArgs};
use crate::printer::counted;
use anyhow::Result;
use clap::Args;
use games::trias::{Lap, LapEnd, Position, Trias};
use retro::Tables;
use tablebase::front::{self, Asked};
use tablebase::report::{PositionReport, ReachableReport};

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
                  solve trias --holes 12 --stones 4 --prove --proof t12.proof --time 600\n  \
                  solve trias --position \"0,0,0/0,0,1/1,2,0 S\" --explain\n  \
                  solve trias --position \"1,1,1,1/1,0,2,1/4,2,0,0 N\" --build"
)]
pub struct TriasArgs {
    /// Holes a row, 1 to 12 (the source's board has 12).
    #[arg(long, conflicts_with = "record")]
    holes: Option<usize>,
    /// Stones in every hole at the start (the source's game has 4).
    #[arg(long, conflicts_with = "record")]
    stones: Option<u32>,
    #[command(flatten)]
    query: QueryArgs,
    /// Show the laps of every legal move: where each was lifted, where its last stone
    /// fell and what happened there.
    #[arg(long)]
    explain: bool,
    #[command(flatten)]
    proof: ProofArgs,
    #[command(flatten)]
    pub force: ForceFlag,
}

pub fn run(args: TriasArgs, flags: BuildFlags) -> Result<()> {
    if let Some(file) = &args.query.record.record {
        return crate::record::replay::<Trias>(
            &crate::record::read(file)?,
            &Asking::of(&args.query),
            flags,
            &mut FromTables,
        );
    }
    let request = answer::request(&[
        ("holes", args.holes.map(|k| k.to_string())),
        ("stones", args.stones.map(|s| s.to_string())),
        ("position", args.query.position.clone()),
    ])?;
    if args.proof.prove {
        return crate::prove::run::<Trias>(&request, &Asking::of(&args.query), flags, &args.proof);
    }
    let mut answered = answer::answer::<Trias>(&request, &Asking::of(&args.query), flags)?;
    let position = answered.asked.position;
    let mut notes = Vec::new();
    if args.explain {
        answered.report.details = Some(front::trias::laps_details(&position));
        if !answered.report.moves.as_ref().is_some_and(Vec::is_empty) {
            notes.push("laps of each move (holes named as in the picture):".to_owned());
            notes.extend(laps_text(&position));
        }
    }
    answer::print(&answered, args.query.json, notes)
}

impl Subcommand for Trias {
    fn holds(position: &Position) -> String {
        counted(position.stones(), "stone", "stones")
    }

    fn picture(&self, position: &Position) -> String {
        position.picture()
    }

    fn mover(asked: &Asked<Trias>) -> Option<String> {
        Some(asked.position.to_move().name().to_owned())
    }

    /// The line ends with a player who cannot move, and loses.
    fn line_end(&self, asked: &Asked<Trias>, report: &PositionReport) -> Result<String> {
        let to_move = asked.position.to_move();
        let last = if report.line.len().is_multiple_of(2) { to_move } else { to_move.other() };
        Ok(format!("{} (to move) has no legal move and loses; {} wins", last.name(), last.other().name()))
    }

    /// A start's positions reachable, read from the tables' census cache, or counted and
    /// kept there.
    fn reachable(&self, tables: &Tables<Trias>, asked: &Asked<Trias>, _: &Asking) -> Result<Option<ReachableReport>> {
        let Some(stones) = asked.start else { return Ok(None) };
        let cache = tables.dir().join(format!("census-s{stones}.txt"));
        let census = crate::progress::census(self, tables, &asked.position, &cache)?;
        let (win, loss) = (Some(census.win), Some(census.loss));
        Ok(Some(ReachableReport { positions: census.positions, win, draw: None, loss }))
    }
}

/// The laps of every legal move of `position`, a line a move.
fn laps_text(position: &Position) -> Vec<String> {
    front::trias::laps(position)
        .iter()
        .map(|(name, laps, removed)| {
            let text: Vec<String> = laps.iter().map(|lap| lap_text(position, lap)).collect();
            format!("  {name}: {}; {removed} off the board", text.join("; "))
        })
        .collect()
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

impl crate::Run for TriasArgs {
    fn build_flags(&self) -> crate::options::CommandFlags<'_> {
        crate::options::CommandFlags { force: Some(&self.force), parts: None }
    }

    fn run(self, flags: BuildFlags) -> Result<()> {
        run(self, flags)
    }
}
