//! `solve awari --rules trysse|wari`: first to capture the target wins. Tables of win,
//! draw or loss with the plies to the end, for every position of one board, stones in
//! play and target; the start's or any position's value, every move's and the line.

use crate::awari::{picture, pits, AwariArgs};
use crate::memory;
use anyhow::{bail, Context, Result};
use games::oware::{Oware, Position, TargetRules};
use retro::line::{best_move, move_values, principal_line, LineEnd};
use retro::store::BuildReport;
use retro::Tables;
use retro::{Game, Value};
use serde_json::json;
use tablebase::registry;
use tablebase::report::{
    print_json as print_json_report, LineEnd as ReportLineEnd, LineEndKind, MoveReport, PositionReport, TablesReport,
    SCHEMA,
};

/// Working memory of the outcome engine per position of the tier being solved (value,
/// pending count, worst lower distance: 2 bytes each; frontier entries, 16 bytes, at
/// most about one a position), and table bytes per position of every tier (mapped).
const WORK_BYTES_PER_POSITION: f64 = 6.0 + 16.0;
const TABLE_BYTES_PER_POSITION: f64 = 2.0;

pub fn run(rules: TargetRules, args: &AwariArgs) -> Result<()> {
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
    let seeds = match (args.seeds, position) {
        (Some(s), _) => s,
        (None, Some(p)) => {
            let per_pit = 2 * m as u32;
            if p.total() % per_pit != 0 || p.total() == 0 {
                bail!(
                    "the position holds {} stones (board and captures): not a start of {m} pits a row, which holds \
                     a multiple of {per_pit}",
                    p.total()
                );
            }
            p.total() / per_pit
        }
        (None, None) => {
            bail!("give --seeds S to solve the start (with --pits M), or --position (see `solve awari --help`)")
        }
    };
    let game = Oware::new(rules, m, seeds, args.target)?;
    let position = match position {
        Some(p) => {
            game.check(&p)?;
            p
        }
        None => game.start(),
    };
    check_memory(&game)?;
    let dir = registry::oware_dir(&args.out, &game);
    let root = game.locate(&position).tier;
    let (tables, report, seconds) = crate::build::outcome_tables(&game, &dir, root, args.json)?;
    let analysis = analyse(&game, &tables, &position, args.max_line)?;
    if args.json {
        print_json(&game, &position, &analysis, &tables, &report, seconds)
    } else {
        print_text(&game, &position, &analysis, &tables, &report, seconds);
        Ok(())
    }
}

fn check_memory(game: &Oware) -> Result<()> {
    let tiers = game.all_tiers();
    if let Err(big) = memory::check_outcome_build(game, &tiers, WORK_BYTES_PER_POSITION, TABLE_BYTES_PER_POSITION) {
        bail!(
            "{} on {}x{} needs about {} of memory ({:.3e} positions, the largest tier {:.3e}); this machine has {} \
             available",
            game.rules().name(),
            game.pits_per_row(),
            game.seeds(),
            memory::human(big.need),
            big.total,
            big.largest,
            memory::human(big.free)
        );
    }
    Ok(())
}

/// One legal move: the mover's pit (1..=m), what it captures, where it leads and its
/// value for the mover.
struct MoveValue {
    pit: usize,
    captured: u8,
    child: Position,
    value: Value,
}

struct Analysis {
    value: Value,
    over: Option<Value>,
    moves: Vec<MoveValue>,
    best: Option<usize>,
    /// The pits played along the line of best moves.
    line: Vec<usize>,
    /// The last position of the line.
    last: Position,
    end: LineEnd<Value>,
}

fn analyse(game: &Oware, tables: &Tables<Oware>, position: &Position, max_line: usize) -> Result<Analysis> {
    let value = tables.value(game, position)?;
    let over = game.end(position);
    let moves = if over.is_some() { Vec::new() } else { game.sowings(position) };
    let successors: Vec<_> = moves
        .iter()
        .map(|&(_, sown)| retro::Move { position: game.after(position, sown), gain: 0, turn: retro::Turn::Passes })
        .collect();
    let values = move_values(game, tables, &successors)?;
    let best = best_move(&values).map(|i| moves[i].0 + 1);
    let moves = moves
        .iter()
        .zip(&successors)
        .zip(values)
        .map(|((&(pit, sown), s), value)| MoveValue { pit: pit + 1, captured: sown.captured, child: s.position, value })
        .collect();
    let line = principal_line(game, tables, position, max_line)?;
    let pits: Vec<usize> = line.positions.windows(2).map(|w| pit_between(game, &w[0], &w[1])).collect::<Result<_>>()?;
    let last = *line.positions.last().expect("a line starts with its position");
    Ok(Analysis { value, over, moves, best, line: pits, last, end: line.end })
}

/// The pit (1..=m) whose move leads from `from` to `to`.
fn pit_between(game: &Oware, from: &Position, to: &Position) -> Result<usize> {
    game.sowings(from)
        .into_iter()
        .find(|&(_, sown)| game.after(from, sown) == *to)
        .map(|(pit, _)| pit + 1)
        .with_context(|| format!("no move leads from {from} to {to}: the line is broken"))
}

fn end_text(a: &Analysis) -> String {
    match a.end {
        LineEnd::Over(v) => format!("game over at {}: a {} for the player to move", a.last, v.outcome()),
        LineEnd::Cycle(i) => format!("repeats the position after ply {i}: endless play, a draw"),
        LineEnd::Cut => "cut at --max-line".to_owned(),
    }
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

fn print_text(
    game: &Oware,
    position: &Position,
    a: &Analysis,
    tables: &Tables<Oware>,
    report: &BuildReport,
    seconds: f64,
) {
    println!("{}", describe(game));
    println!("{}", picture(&position.board));
    println!("captured: mover {}, opponent {}", position.mine, position.theirs);
    let who = if *position == game.start() { "South (to move)" } else { "the player to move" };
    match a.over {
        Some(v) => println!("the game is over: {} for the player to move", v.outcome()),
        None => println!("value for {who}: {}", a.value),
    }
    for m in &a.moves {
        println!("  pit {}: captures {}, {}", m.pit, m.captured, m.value);
    }
    if let Some(pit) = a.best {
        println!("best move: pit {pit}");
    }
    let line: Vec<String> = a.line.iter().map(|p| p.to_string()).collect();
    println!("line ({} plies): {}", line.len(), if line.is_empty() { "-".to_owned() } else { line.join(" ") });
    println!("  then: {}", end_text(a));
    let (positions, bytes) = tables.size();
    println!(
        "tables: {} ({} tiers: {} built, {} reused; {} positions, {}) in {:.1} s",
        tables.dir().display(),
        report.tiers_built + report.tiers_reused,
        report.tiers_built,
        report.tiers_reused,
        positions,
        memory::human(bytes as f64),
        seconds
    );
}

fn print_json(
    game: &Oware,
    position: &Position,
    a: &Analysis,
    tables: &Tables<Oware>,
    report: &BuildReport,
    seconds: f64,
) -> Result<()> {
    let kind = match a.end {
        LineEnd::Over(_) => LineEndKind::Over,
        LineEnd::Cycle(_) => LineEndKind::Repetition,
        LineEnd::Cut => LineEndKind::Cut,
    };
    let repeats_ply = match a.end {
        LineEnd::Cycle(i) => Some(i),
        _ => None,
    };
    let rules = game.rules().name().to_owned();
    let out = PositionReport {
        schema: SCHEMA,
        game: rules.clone(),
        parameters: json!({"pits": game.pits_per_row(), "seeds": game.seeds(), "target": game.target()}),
        rules,
        position: position.to_string(),
        start: *position == game.start(),
        to_move: if *position == game.start() { "south" } else { "mover" }.to_owned(),
        over: a.over.is_some(),
        value: a.value.into(),
        moves: Some(
            a.moves
                .iter()
                .map(|m| MoveReport {
                    name: m.pit.to_string(),
                    value: m.value.into(),
                    position: m.child.to_string(),
                    captures: Some(m.captured as u32),
                })
                .collect(),
        ),
        best: a.best.map(|pit| pit.to_string()),
        line: a.line.iter().map(|pit| pit.to_string()).collect(),
        line_end: ReportLineEnd { kind, position: a.last.to_string(), repeats_ply },
        tables: TablesReport::new(tables, report, seconds, memory::peak_resident()),
        reachable: None,
        details: None,
    };
    print_json_report(&out)?;
    Ok(())
}
