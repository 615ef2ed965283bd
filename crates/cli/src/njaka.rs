//! `solve njaka`: tables of Njaka's Mancala Game, the start's value, and position analysis.

use crate::options::{BuildFlags, ForceFlag, QueryArgs};
use crate::printer::{counted, print_json, print_position, View};
use anyhow::{bail, Context, Result};
use clap::Args;
use games::njaka::{Direction, Njaka, NjakaError, Position, Variant};
use games::side::Side;
use retro::{memory, Game};
use tablebase::front::{self, Asked};
use tablebase::registry;
use tablebase::report::{LineEndKind, PositionReport, TablesReport};

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
    #[arg(long)]
    holes: Option<usize>,
    /// Counters in every hole at the start (the source's game has 4).
    #[arg(long)]
    counters: Option<u32>,
    /// Who owns the holes: `standard` (two halves, for the whole game) or `advanced`
    /// (alternate holes, ownership won by captures).
    #[arg(long, default_value = "standard", value_parser = variant)]
    variant: Variant,
    /// Which way sowing goes: `ccw` (counterclockwise, the source's) or `cw`.
    #[arg(long, default_value = "ccw", value_parser = direction)]
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

/// The position asked about and, for a start, its counters a hole.
fn position(args: &NjakaArgs) -> Result<(Position, Option<u32>)> {
    match (&args.query.position, args.holes, args.counters) {
        (Some(text), holes, counters) => {
            let p: Position =
                text.parse().with_context(|| format!("reading the position `{}`", games::echo::excerpt(text)))?;
            if let Some(h) = holes.filter(|&h| h != p.holes()) {
                bail!("--holes {h}, but the position has {} holes", p.holes());
            }
            if let Some(s) = counters {
                bail!("--counters {s} sets up a start; with --position the position fixes the counters");
            }
            Ok((p, None))
        }
        (None, Some(h), Some(s)) => {
            if s == 0 {
                bail!("--counters 0: the start needs at least one counter a hole");
            }
            let game = Njaka::new(h, args.variant, args.direction, 0)?;
            Ok((game.start(s)?, Some(s)))
        }
        _ => bail!("give --holes H and --counters S to solve a start, or --position (see `solve njaka --help`)"),
    }
}

/// The game indexed up to `position`'s counters, if its tables can be built here.
fn game_for(args: &NjakaArgs, position: &Position, flags: BuildFlags) -> Result<Njaka> {
    let (h, n) = (position.holes(), position.counters());
    let game = match Njaka::new(h, args.variant, args.direction, n) {
        Ok(game) => game,
        Err(NjakaError::Index(_)) => {
            bail!("{h} holes with {}: more positions than a 64-bit index numbers", counted(n, "counter", "counters"))
        }
        Err(e) => return Err(e.into()),
    };
    game.check(position)?;
    let tiers = game.tiers_below(n);
    let dir = registry::njaka_dir(&args.query.tables.out, &game);
    if let Err(need) = crate::build::check_memory(&game, &dir, &tiers, flags) {
        bail!(
            "{h} holes with {} ({}) need the tables of {}: {need}",
            counted(n, "counter", "counters"),
            args.variant.name(),
            counted(tiers.len() as u64, "tier", "tiers")
        );
    }
    Ok(game)
}

pub fn run(args: NjakaArgs, flags: BuildFlags) -> Result<()> {
    let (position, counters) = position(&args)?;
    let game = game_for(&args, &position, flags)?;
    // A start given as a position is the start all the same.
    let counters = counters.or_else(|| game.start_counters(&position));
    let dir = registry::njaka_dir(&args.query.tables.out, &game);
    let root = game.locate(&position).tier;
    if args.query.position.is_some() && !args.query.build {
        let command = format!(
            "`solve njaka --position \"{position}\" --build --variant {} --direction {}{}`",
            args.variant.name(),
            args.direction.name(),
            registry::out_flag(&args.query.tables.out)
        );
        crate::build::require_built(&game, &dir, root, &counted(root, "counter", "counters"), &command)?;
    }
    let (tables, build, seconds) = crate::build::tables(&game, &dir, &[root], flags)?;
    if args.query.verify {
        crate::build::verify_tables(&game, &tables, root, args.query.json)?;
    }
    let tables_report = TablesReport::new(&tables, &build, seconds, memory::peak_resident());
    let (report, _) = front::report(
        &game,
        &tables,
        &Asked { game: game.clone(), position, start: counters },
        args.query.line.max_line,
        tables_report,
        None,
    )?;
    if args.query.json {
        print_json(&report)?;
        return Ok(());
    }
    print_text(&report, &game, &position, counters)
}

/// Prints `report` of `position` (the start of `counters` a hole, if it is one) as text.
fn print_text(report: &PositionReport, game: &Njaka, position: &Position, counters: Option<u32>) -> Result<()> {
    let line_end = match report.line_end.kind {
        LineEndKind::Repetition => format!(
            "the position after move {} comes back: play goes on for ever, nothing more captured",
            report.line_end.repeats_ply.unwrap_or(0)
        ),
        _ => "the game is over: one set or less on the board, or no one can move".to_owned(),
    };
    let title = match counters {
        Some(s) => format!(
            "Njaka's game ({}{}), {} holes with {} each, South moves first",
            game.variant().name(),
            if game.direction() == Direction::Clockwise { ", clockwise" } else { "" },
            game.holes(),
            counted(s, "counter", "counters")
        ),
        None => format!(
            "Njaka's game ({}), a position with {}",
            game.variant().name(),
            counted(position.counters(), "counter", "counters")
        ),
    };
    let view = View {
        title,
        picture: position.picture(game.direction()),
        rules: None,
        mover: Some(if position.to_move() == Side::South { "South" } else { "North" }.to_owned()),
        line_end,
        notes: vec!["(values: sets of four still to be captured, the player minus his opponent)".to_owned()],
    };
    print_position(report, &view)?;
    Ok(())
}
