//! Text output of a position report: one layout for every game. The game's module gives
//! what only it knows (its title line, its picture, its player names); everything else
//! comes from the same [`PositionReport`] that `--json` prints.

use indicatif::HumanCount;
use retro::memory;
use serde::Serialize;
use tablebase::report::{LineEndKind, PositionReport, ReachableReport};

/// Standard output could not be written: a pipe closed early (`solve … | head`) or a full
/// disk. Returned, not panicked on as `println!` does; a closed pipe ends the run quietly
/// (status 141, as a process the pipe's signal ends).
#[derive(Debug, thiserror::Error)]
#[error("writing to standard output: {0}")]
pub struct StdoutError(pub std::io::Error);

/// Prints a report as one pretty JSON object on standard output.
pub fn print_json(report: &impl Serialize) -> Result<(), StdoutError> {
    let text = serde_json::to_string_pretty(report).map_err(|e| StdoutError(e.into()))?;
    outln!("{text}")
}

/// What a game adds to its report in text.
pub struct View {
    /// The first line: the game, board and setup.
    pub title: String,
    /// The board as a picture.
    pub picture: String,
    /// The rules in words, where they say more than the report's `rules` name (THI`'s
    /// bonus moves); `None` prints that name.
    pub rules: Option<String>,
    /// The player to move at the position, by name; `None` where the notation does not
    /// say which player he is (an Oware position other than the start).
    pub mover: Option<String>,
    /// How the principal line ends, in words (after "then: "), where it ends: the game
    /// over, or a repetition. Not read for a line cut by --max-line, which
    /// [`print_position`] describes itself, the same for every game.
    pub line_end: String,
    /// Lines printed last (a game's explanations).
    pub notes: Vec<String>,
}

/// `n`, its digits grouped, and its noun, singular for one: `1 tier`, `5,698 positions`.
pub fn counted(n: impl Into<u64>, one: &str, many: &str) -> String {
    let n = n.into();
    format!("{} {}", HumanCount(n), if n == 1 { one } else { many })
}

/// A count held as a float (it may pass `u64`): digits grouped up to a trillion,
/// `1.418e15` past it.
pub fn amount(n: f64) -> String {
    if n < 1e12 && n.fract() == 0.0 {
        HumanCount(n as u64).to_string()
    } else {
        format!("{n:.3e}")
    }
}

/// Prints `report` as text.
pub fn print_position(report: &PositionReport, view: &View) -> Result<(), StdoutError> {
    let t = &report.tables;
    outln!("{}", view.title)?;
    outln!(
        "tables: {} ({}: {} built, {} reused, {:.1} s; {}, {}, {:.2} bytes/position)",
        t.directory,
        counted(t.tiers as u64, "tier", "tiers"),
        t.tiers_built,
        t.tiers_reused,
        t.seconds,
        counted(t.positions, "position", "positions"),
        memory::human(t.bytes as f64),
        t.bytes as f64 / t.positions.max(1) as f64,
    )?;
    outln!("{}", view.picture)?;
    outln!("position: {}", report.position)?;
    outln!("rules: {}", view.rules.as_deref().unwrap_or(&report.rules))?;
    let mover = view.mover.as_deref().map_or("the player to move".to_owned(), |name| format!("{name} (to move)"));
    if report.over {
        outln!("the game is over: {} for {mover}", report.value)?;
    } else {
        outln!("value for {mover}: {}", report.value)?;
    }
    print_moves(report, view)?;
    print_line(report, view)?;
    if let Some(r) = &report.reachable {
        print_reachable(r)?;
    }
    if let Some(search) = report.details.as_ref().and_then(|d| d.get("search")).filter(|s| !s.is_null()) {
        print_search(search, report.value.is_exact())?;
    }
    for note in &view.notes {
        outln!("{note}")?;
    }
    Ok(())
}

/// Every move with its value, and the best.
fn print_moves(report: &PositionReport, view: &View) -> Result<(), StdoutError> {
    if let Some(moves) = report.moves.as_ref().filter(|m| !m.is_empty()) {
        outln!("moves (value for {}):", view.mover.as_deref().unwrap_or("the player to move"))?;
        let width = moves.iter().map(|m| m.name.chars().count()).max().unwrap_or(0).max(4);
        for m in moves {
            match m.captures {
                Some(c) if c > 0 => outln!("  {:<width$}  {}  (captures {c})", m.name, m.value)?,
                _ => outln!("  {:<width$}  {}", m.name, m.value)?,
            }
        }
    }
    match &report.best {
        Some(best) if report.value.is_exact() => outln!("best move: {best}")?,
        Some(best) => outln!("preferred move: {best} (not proven best)")?,
        None => {}
    }
    Ok(())
}

/// The principal line and how it ends.
fn print_line(report: &PositionReport, view: &View) -> Result<(), StdoutError> {
    if !report.value.is_exact() {
        return outln!("principal line: none (the value is not proven)");
    }
    if report.line.is_empty() {
        outln!("principal line: none")?;
    } else {
        // A move of the line is a ply, or in Kalah a whole turn (its extra moves joined).
        let moves = report.line.len();
        outln!("principal line ({}): {}", counted(moves as u64, "move", "moves"), report.line.join(" "))?;
    }
    let end = match report.line_end.kind {
        LineEndKind::Over | LineEndKind::Repetition => view.line_end.clone(),
        // Every game's cut alike: where --max-line stopped the line.
        LineEndKind::Cut => {
            format!("cut after {}, at {}", counted(report.line.len() as u64, "move", "moves"), report.line_end.position)
        }
    };
    outln!("  then: {end}")
}

/// What the search above the tables did (`details.search`, docs/json.md).
fn print_search(search: &serde_json::Value, exact: bool) -> Result<(), StdoutError> {
    let count = |key: &str| search[key].as_u64().unwrap_or(0);
    let seconds = search["seconds"].as_f64().unwrap_or(0.0);
    let stopped = match search["stopped"].as_str() {
        Some("time") => ", stopped by --time",
        Some("nodes") => ", stopped by --nodes",
        Some("asked") => ", stopped by Ctrl-C",
        _ => "",
    };
    outln!(
        "searched above the tables: {} in {seconds:.1} s ({}/s), {} probed{stopped}; {}",
        counted(count("nodes"), "node", "nodes"),
        HumanCount((count("nodes") as f64 / seconds.max(1e-9)) as u64),
        counted(count("probes"), "table position", "table positions"),
        if exact { "the value is proven" } else { "the value is bounded, not proven" }
    )
}

/// The positions reachable from the start, by value where the game counts them.
fn print_reachable(r: &ReachableReport) -> Result<(), StdoutError> {
    // Only the counts the game keeps (Trias has no draws, Kalah counts no values).
    let counts: Vec<String> = [(r.win, "won"), (r.draw, "drawn"), (r.loss, "lost")]
        .iter()
        .filter_map(|&(n, word)| n.map(|n| format!("{} {word}", HumanCount(n))))
        .collect();
    let positions = counted(r.positions, "position", "positions");
    if counts.is_empty() {
        outln!("reachable from the start: {positions}")
    } else {
        outln!("reachable from the start: {positions} ({} for the player to move)", counts.join(", "))
    }
}

#[cfg(test)]
mod tests {
    use super::{amount, counted};

    #[test]
    fn counts_group_their_digits_and_large_ones_turn_scientific() {
        assert_eq!(counted(1u64, "tier", "tiers"), "1 tier");
        assert_eq!(counted(5698u64, "position", "positions"), "5,698 positions");
        assert_eq!(amount(14_178_233_123.0), "14,178,233,123");
        assert_eq!(amount(3.483e15), "3.483e15");
    }
}
