//! `solve njaka`: tables of Njaka's Mancala Game, the start's value, and position analysis.

use crate::answer::{self, Asking, FromTables, Subcommand};
use crate::options::{BuildFlags, ForceFlag, QueryArgs};
use crate::printer::counted;
use anyhow::Result;
use clap::Args;
use games::njaka::{Direction, Njaka, Position, Variant};
use games::side::Side;
use tablebase::front::Asked;
use tablebase::report::{LineEndKind, PositionReport};

#[derive(Args)]
#[command(
    about = "Njaka's Mancala Game: build tables, print the start's value, or analyse a position",
    long_about = "Builds the perfect-play tables of Njaka's Mancala Game for two players on H holes in a \
                  circle (or reuses them if already built under --out), then prints the value of the start \
                  with S counters in every hole for South, who moves first: the difference in sets of four \
                  captured under perfect play, South minus North (endless play captures nothing more; the \
                  last set on the board is not counted), every opening move with its value, the best move \
                  and the principal line.\n\n\
                  Standard game: South owns holes 1 to H/2, North the rest. --variant advanced: the holes \
                  alternate, South's first, and a four taken by the last counter in an opponent's hole makes \
                  it the mover's. Sowing is counterclockwise (--direction cw for the other way).\n\n\
                  Position notation: the holes counterclockwise from hole 1, separated by `,`, each its \
                  counters and its owner (`s` or `n`); then a space and the player to move, `S` or `N`. The \
                  standard start on 4 holes with 2 counters is `2s,2s,2n,2n S`. Moves are named by the hole \
                  (1 to H), or `pass`.",
    after_help = "Examples:\n  \
                  solve njaka --holes 6 --counters 2\n  \
                  solve njaka --holes 6 --counters 2 --variant advanced --json\n  \
                  solve njaka --position \"3s,0s,3n,0n S\" --build"
)]
pub struct NjakaArgs {
    /// Holes in the circle, even, 2 to 12 (the source's board has 12).
    #[arg(long, conflicts_with = "record")]
    holes: Option<usize>,
    /// Counters in every hole at the start (the source's game has 4).
    #[arg(long, conflicts_with = "record")]
    counters: Option<u32>,
    /// Who owns the holes: `standard` (two halves, for the whole game) or `advanced`
    /// (alternate holes, ownership won by captures).
    #[arg(long, default_value = "standard", value_parser = variant, conflicts_with = "record")]
    variant: Variant,
    /// Which way sowing goes: `ccw` (counterclockwise, the source's) or `cw`.
    #[arg(long, default_value = "ccw", value_parser = direction, conflicts_with = "record")]
    direction: Direction,
    #[command(flatten)]
    query: QueryArgs,
    #[command(flatten)]
    pub force: ForceFlag,
}

fn variant(name: &str) -> Result<Variant, String> {
    Variant::from_name(name).ok_or_else(|| format!("`{name}`: standard or advanced"))
}

fn direction(name: &str) -> Result<Direction, String> {
    Direction::from_name(name).ok_or_else(|| format!("`{name}`: ccw or cw"))
}

pub fn run(args: NjakaArgs, flags: BuildFlags) -> Result<()> {
    if let Some(file) = &args.query.record.record {
        return crate::record::replay::<Njaka>(
            &crate::record::read(file)?,
            &Asking::of(&args.query),
            flags,
            &mut FromTables,
        );
    }
    let request = answer::request(&[
        ("holes", args.holes.map(|h| h.to_string())),
        ("counters", args.counters.map(|s| s.to_string())),
        ("variant", Some(args.variant.name().to_owned())),
        ("direction", Some(args.direction.name().to_owned())),
        ("position", args.query.position.clone()),
    ])?;
    let answered = answer::answer::<Njaka>(&request, &Asking::of(&args.query), flags)?;
    let notes = vec!["(values: sets of four still to be captured, the player minus his opponent)".to_owned()];
    answer::print(&answered, args.query.json, notes)
}

impl Subcommand for Njaka {
    fn holds(position: &Position) -> String {
        counted(position.counters(), "counter", "counters")
    }

    fn picture(&self, position: &Position) -> String {
        position.picture(self.direction())
    }

    fn mover(asked: &Asked<Njaka>) -> Option<String> {
        Some(if asked.position.to_move() == Side::South { "South" } else { "North" }.to_owned())
    }

    fn line_end(&self, _: &Asked<Njaka>, report: &PositionReport) -> Result<String> {
        Ok(match report.line_end.kind {
            LineEndKind::Repetition => format!(
                "the position after move {} comes back: play goes on for ever, nothing more captured",
                report.line_end.repeats_ply.unwrap_or(0)
            ),
            _ => "the game is over: one set or less on the board, or no one can move".to_owned(),
        })
    }
}

impl crate::Run for NjakaArgs {
    fn build_flags(&self) -> crate::options::CommandFlags<'_> {
        crate::options::CommandFlags { force: Some(&self.force), parts: None }
    }

    fn run(self, flags: BuildFlags) -> Result<()> {
        run(self, flags)
    }
}
