//! `--record FILE`: a game kept as text (`docs/records.md`, read by
//! [`tablebase::record`], or an Oware match in Aualé's OGN, read by [`tablebase::ogn`])
//! replayed from its first position, each position answered as `--position` answers it,
//! every move printed with its value and marked where it changed the position's value (a
//! win to a draw, a draw to a loss, a worse score).

use crate::answer::{self, Answerer, Asking, Subcommand};
use crate::options::BuildFlags;
use anyhow::{bail, Context, Result};
use std::path::Path;
use tablebase::front::{Asked, FrontEnd};
use tablebase::ogn::Ogn;
use tablebase::query::Request;
use tablebase::record::Record;
use tablebase::report::{MoveReport, Outcome, PositionReport, ValueReport};

/// A record as a file keeps it: the record, and what an OGN match states beside its moves
/// (the player to move first, what each move captured), for the replay to hold it to.
pub struct Kept {
    /// The record.
    pub record: Record,
    /// The player to move at the first position, where the file says (`South`, `North`).
    pub first: Option<String>,
    /// Stones each move captured, where the file says.
    pub captures: Option<Vec<u32>>,
}

/// The record in `file`: one of ours, or an OGN match (its first tag `Variant`) as one.
pub fn read(file: &Path) -> Result<Kept> {
    let text = std::fs::read_to_string(file).with_context(|| format!("cannot read the record {}", file.display()))?;
    if Ogn::is_ogn(&text) {
        let not_ogn = || format!("{} is not an OGN match (Aualé's Oware notation, docs/records.md)", file.display());
        let ogn = Ogn::read(&text).with_context(not_ogn)?;
        return Ok(Kept {
            record: ogn.record().with_context(not_ogn)?,
            first: Some(ogn.start()?.to_move.name().to_owned()),
            captures: Some(ogn.moves.iter().map(|m| m.captures).collect()),
        });
    }
    let record =
        Record::read(&text).with_context(|| format!("{} is not a record (docs/records.md)", file.display()))?;
    Ok(Kept { record, first: None, captures: None })
}

/// Replays `kept`, a record of the game `F`, each position answered by `answerer` as
/// `asking` asks (for most games from the tables, built or named, or searched above them).
pub fn replay<F: Subcommand>(
    kept: &Kept,
    asking: &Asking,
    flags: BuildFlags,
    answerer: &mut impl Answerer<F>,
) -> Result<()> {
    let requests = Requests::of::<F>(&kept.record)?;
    let title = F::title(&requests.asked::<F>(start(&kept.record)?)?);
    replay_with(kept, &title, |position| Ok(answerer.answer(&requests.at(position)?, asking, flags)?.report))
}

/// The requests a record of the game `F` makes: its board and rules, at any position.
pub struct Requests(Vec<(String, String)>);

impl Requests {
    /// The requests of `record`, which must be of the game `F`.
    pub fn of<F: FrontEnd>(record: &Record) -> Result<Requests> {
        let game = record.game()?;
        if game != F::NAME {
            bail!("the record is of the game `{game}`, not `{}`", F::NAME);
        }
        Ok(Requests(record.request()?))
    }

    /// The request of the record's board and rules at `position` (in notation).
    pub fn at(&self, position: &str) -> Result<Request> {
        let at = self.0.iter().map(|(n, v)| (n.as_str(), if n == "position" { position } else { v.as_str() }));
        Request::new(at).map_err(answer::refusal)
    }

    /// `position` asked of the record's board and rules, read as `F` reads a request.
    pub fn asked<F: FrontEnd>(&self, position: &str) -> Result<Asked<F>> {
        F::asked(&self.at(position)?).map_err(answer::refusal)
    }
}

/// Replays `kept` with `answer`, which reports a position given in notation: the hook
/// for a game that answers a position outside the shared flow (Kalah's search).
pub fn replay_with(kept: &Kept, title: &str, mut answer: impl FnMut(&str) -> Result<PositionReport>) -> Result<()> {
    let record = &kept.record;
    let mut report = answer(start(record)?)?;
    outln!("{title}")?;
    outln!("record of {}, from {}", counted_moves(record.moves.len()), report.position)?;
    let mut side = kept.first.clone().unwrap_or_else(|| mover(&report, None));
    outln!("{side} to move: {}", report.value)?;
    for (i, name) in record.moves.iter().enumerate() {
        let Some(played) = report.moves.iter().flatten().find(|m| m.name == *name) else {
            let legal: Vec<&str> = report.moves.iter().flatten().map(|m| m.name.as_str()).collect();
            bail!(
                "move {} of the record, `{name}`, is not legal at {} (legal: {})",
                i + 1,
                report.position,
                if legal.is_empty() { "none, the game is over".to_owned() } else { legal.join(" ") }
            );
        };
        if let Some(stated) = kept.captures.as_ref().map(|c| c[i]) {
            check_captures(i + 1, &side, played, stated)?;
        }
        outln!("{:>4}. {side:<6} {name:<8} {}{}", i + 1, played.value, verdict(played, &report))?;
        report = answer(&played.position)?;
        side = mover(&report, Some(&side));
    }
    let end = if report.over { "game over" } else { "to move" };
    outln!("end: {} ({side} {end}): {}", report.position, report.value)?;
    Ok(())
}

/// Whether move `number`, `played` by `side`, captured what the record states. Aualé's
/// Abapa, read as Wari, parts from it at a grand slam (a capture of every stone the
/// opponent has): Abapa's captures nothing, Wari's takes them all.
fn check_captures(number: usize, side: &str, played: &MoveReport, stated: u32) -> Result<()> {
    let here = played.captures.unwrap_or(0);
    if here != stated {
        bail!(
            "move {number} of the record, {side}'s pit {}, captures {here} stones under these rules; the record \
             says {stated} (Aualé's Oware Abapa, read as Wari, lets a grand slam, a capture of every stone the \
             opponent has, take nothing; Wari takes them)",
            played.name
        );
    }
    Ok(())
}

/// The record's first position (`Start`).
pub fn start(record: &Record) -> Result<&str> {
    record.tag("Start").context("the record has no [Start \"…\"] tag")
}

fn counted_moves(n: usize) -> String {
    if n == 1 {
        "1 move".to_owned()
    } else {
        format!("{n} moves")
    }
}

/// The player to move at `report`'s position, by name; where the position does not say
/// (Awari's and Oware's `mover`), the other one than `before`, South at the first.
fn mover(report: &PositionReport, before: Option<&str>) -> String {
    let other = |side: &str| match side {
        "South" => "North",
        "North" => "South",
        "White" => "Black",
        _ => "White",
    };
    match (report.to_move.as_str(), before) {
        ("mover", Some(before)) => other(before).to_owned(),
        ("mover", None) => "South".to_owned(),
        (side, _) => format!("{}{}", side[..1].to_uppercase(), &side[1..]),
    }
}

/// What a move did to the value of the position it was played at: nothing said where it
/// kept the outcome (or the score); else the value before it and a best move.
fn verdict(played: &MoveReport, before: &PositionReport) -> String {
    if !worse(&played.value, &before.value) {
        return String::new();
    }
    let best = before.moves.iter().flatten().find(|m| Some(&m.name) == before.best.as_ref());
    let best = best.map(|m| format!("; best {} ({})", m.name, m.value)).unwrap_or_default();
    format!("   ?? the position was {}{best}", before.value)
}

/// Whether `played` is worse for its player than `before`: a lesser outcome, or a lower
/// score. A slower win keeps the outcome; bounds prove nothing.
fn worse(played: &ValueReport, before: &ValueReport) -> bool {
    let rank = |o: Outcome| match o {
        Outcome::Win => 1,
        Outcome::Draw => 0,
        Outcome::Loss => -1,
    };
    match (played, before) {
        (ValueReport::Score { score: a, .. }, ValueReport::Score { score: b, .. }) => a < b,
        (ValueReport::Outcome { outcome: a, .. }, ValueReport::Outcome { outcome: b, .. }) => rank(*a) < rank(*b),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_move_is_worse_only_where_it_loses_an_outcome_or_a_score() {
        let win = |plies| ValueReport::Outcome { outcome: Outcome::Win, plies: Some(plies) };
        let draw = ValueReport::Outcome { outcome: Outcome::Draw, plies: None };
        assert!(worse(&draw, &win(3)));
        assert!(!worse(&win(9), &win(3)), "a slower win keeps the outcome");
        assert!(worse(&ValueReport::score(1), &ValueReport::score(2)));
        assert!(!worse(&ValueReport::score(2), &ValueReport::score(2)));
        let bounds = ValueReport::between(ValueReport::score(-2), ValueReport::score(4));
        assert!(!worse(&bounds, &ValueReport::score(2)), "bounds prove nothing");
    }
}
