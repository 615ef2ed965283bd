//! `solve awari --rules trysse|wari`: first to capture the target wins. Tables of win,
//! draw or loss with the plies to the end, for every position of one board, stones in
//! play and target; the start's or any position's value, every move's and the line.

use crate::awari::{picture, pits, AwariArgs};
use crate::memory;
use crate::options::BuildFlags;
use crate::printer::{print_json, print_position, View};
use anyhow::{bail, Context, Result};
use games::oware::{Oware, Position, TargetRules};
use retro::Game;
use tablebase::front::{self, Asked};
use tablebase::registry;
use tablebase::report::{PositionReport, TablesReport};

pub fn run(rules: TargetRules, args: &AwariArgs, flags: BuildFlags) -> Result<()> {
    if let Some(k) = args.stones {
        bail!(
            "--stones {k} builds Awari's tables by stones on the board; {} tables depend on the stones in play and \
             the target: give --seeds (with --pits) or --position",
            rules.name()
        );
    }
    let position: Option<Position> = match &args.position {
        Some(text) => {
            Some(text.parse().with_context(|| format!("reading the position `{}`", games::echo::excerpt(text)))?)
        }
        None => None,
    };
    let m = pits(args.pits, position.map(|p| p.board.pits_per_row()))?;
    let game = Oware::new(rules, m, seeds(args.seeds, position.as_ref(), m)?, args.target)?;
    let position = match position {
        Some(p) => {
            game.check(&p)?;
            p
        }
        None => game.start(),
    };
    let dir = registry::oware_dir(&args.tables.out, &game);
    check_memory(&game, &dir, flags)?;
    let root = game.locate(&position).tier;
    let (tables, build, seconds) = crate::build::tables(&game, &dir, &[root], flags)?;
    let tables_report = TablesReport::new(&tables, &build, seconds, memory::peak_resident());
    let start = (position == game.start()).then_some(game.seeds());
    let asked = Asked { game: game.clone(), position, start };
    let (report, _) = front::report(&game, &tables, &asked, args.line.max_line, tables_report, None)?;
    if args.json {
        print_json(&report)?;
        return Ok(());
    }
    print_text(&report, &game, &position)
}

/// The stones in each pit of the start: `--seeds`, else those of `position`'s game on `m`
/// pits a row (its stones on the board and captured, which must make a start).
fn seeds(given: Option<u32>, position: Option<&Position>, m: usize) -> Result<u32> {
    match (given, position) {
        (Some(s), _) => Ok(s),
        (None, Some(p)) => {
            let per_pit = 2 * m as u32;
            if p.total() % per_pit != 0 || p.total() == 0 {
                bail!(
                    "the position holds {} stones (board and captures): not a start of {m} pits a row, which holds \
                     a multiple of {per_pit}",
                    p.total()
                );
            }
            Ok(p.total() / per_pit)
        }
        (None, None) => {
            bail!("give --seeds S to solve the start (with --pits M), or --position (see `solve awari --help`)")
        }
    }
}

/// Prints `report` of `position` as text.
fn print_text(report: &PositionReport, game: &Oware, position: &Position) -> Result<()> {
    let last: Position = report.line_end.position.parse()?;
    let line_end = match (game.end(&last), report.line_end.repeats_ply) {
        (Some(v), _) => format!("game over at {last}: a {} for the player to move", v.outcome()),
        (None, Some(ply)) => format!("repeats the position after ply {ply}: endless play, a draw"),
        // A line cut by --max-line: the printer says where.
        (None, None) => String::new(),
    };
    let view = View {
        title: describe(game),
        picture: format!(
            "{}\ncaptured: mover {}, opponent {}",
            picture(&position.board),
            position.mine,
            position.theirs
        ),
        rules: None,
        mover: report.start.then(|| "South".to_owned()),
        line_end,
        notes: Vec::new(),
    };
    print_position(report, &view)?;
    Ok(())
}

fn check_memory(game: &Oware, dir: &std::path::Path, flags: BuildFlags) -> Result<()> {
    let tiers = game.all_tiers();
    if let Err(need) = crate::build::check_memory(game, dir, &tiers, flags) {
        bail!("{} on {}x{} needs {need}", game.rules().name(), game.pits_per_row(), game.seeds());
    }
    Ok(())
}

fn describe(game: &Oware) -> String {
    format!(
        "{} {}x{}: {} pits a row, {} stones in each ({} stones), first to capture {} wins",
        game.rules().name(),
        game.pits_per_row(),
        game.seeds(),
        game.pits_per_row(),
        game.seeds(),
        game.total(),
        game.target()
    )
}
