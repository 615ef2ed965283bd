//! `solve awari --rules trysse|wari`: first to capture the target wins. Tables of win,
//! draw or loss with the plies to the end, for every position of one board, stones in
//! play and target; the start's or any position's value, every move's and the line.

use crate::answer::{self, Asking, Subcommand};
use crate::awari::{picture, AwariArgs};
use crate::options::BuildFlags;
use crate::printer::counted;
use anyhow::{bail, Result};
use games::oware::{Oware, Position, TargetRules};
use retro::Game;
use tablebase::front::{Asked, FrontEnd};
use tablebase::report::PositionReport;

pub fn run(rules: TargetRules, args: &AwariArgs, flags: BuildFlags) -> Result<()> {
    if let Some(k) = args.stones {
        bail!(
            "--stones {k} builds Awari's tables by stones on the board; {} tables depend on the stones in play and \
             the target: give --seeds (with --pits) or --position",
            rules.name()
        );
    }
    let request = answer::request(&[
        ("rules", Some(rules.name().to_owned())),
        ("pits", args.pits.map(|m| m.to_string())),
        ("seeds", args.seeds.map(|s| s.to_string())),
        ("target", args.target.map(|t| t.to_string())),
        ("position", args.position.clone()),
    ])?;
    // A position's tables are built as a start's: every tier is one board's.
    let asking = Asking::building(&args.tables.out, args.json, &args.line, args.search);
    let answered = answer::answer::<Oware>(&request, &asking, flags)?;
    answer::print(&answered, args.json, Vec::new())
}

impl Subcommand for Oware {
    fn holds(position: &Position) -> String {
        counted(position.board.stones(), "stone", "stones")
    }

    fn picture(&self, position: &Position) -> String {
        format!("{}\ncaptured: mover {}, opponent {}", picture(&position.board), position.mine, position.theirs)
    }

    /// An Oware position is written from the mover's side and does not say who he is,
    /// but at the start.
    fn mover(asked: &Asked<Oware>) -> Option<String> {
        asked.start.map(|_| "South".to_owned())
    }

    fn line_end(&self, _: &Asked<Oware>, report: &PositionReport) -> Result<String> {
        let last = Oware::played(&report.line_end.position.parse()?);
        Ok(match (self.end(&last), report.line_end.repeats_ply) {
            (Some(v), _) => format!("game over at {last}: a {} for the player to move", v.outcome()),
            (None, Some(ply)) => format!("repeats the position after ply {ply}: endless play, a draw"),
            // A line cut by --max-line: the printer says where.
            (None, None) => String::new(),
        })
    }
}
