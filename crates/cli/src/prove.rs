//! `--prove`: the value of a start (or a position) proven by a proof-number search above
//! the lowest tiers whose tables fit ([`search::proof`]), within `--time` and `--nodes`,
//! its progress on standard error; Ctrl-C stops it. With `--proof FILE` the search is
//! kept in FILE and continued from it, and the proof, once found, is kept there for
//! `solve verify-proof` (format in docs/format.md).

use crate::above::{self, ctrl_c, ProgressLine, BUILD_SHARE};
use crate::answer::{self, Asking, Subcommand};
use crate::options::{BuildFlags, ProofArgs};
use crate::printer::print_json;
use anyhow::Result;
use indicatif::HumanCount;
use retro::{memory, Game, Move, Value};
use search::proof::file::{self, Body, Header};
use search::proof::{prove, Budget, MoveProven, Node, Progress, ProofTree, Proven, Side};
use serde::Serialize;
use std::path::Path;
use std::str::FromStr;
use std::time::{Duration, Instant};
use tablebase::front::{Asked, FrontEnd};
use tablebase::query::Request;

/// What `--prove` reports (`docs/json.md`, "A proof report").
#[derive(Serialize)]
struct ProofReport {
    game: &'static str,
    title: String,
    position: String,
    value: Option<&'static str>,
    plies: Option<u16>,
    moves: Vec<MoveReport>,
    nodes: u64,
    seconds: f64,
    total_nodes: u64,
    total_seconds: f64,
    proof: Option<ProofSize>,
    file: Option<String>,
    stopped: Option<&'static str>,
    tables: Vec<String>,
}

/// A move of the root and what is proven of it for the mover.
#[derive(Serialize)]
struct MoveReport {
    #[serde(rename = "move")]
    name: String,
    proven: &'static str,
}

/// A proof's size: its nodes, all trees together, and its file's bytes.
#[derive(Serialize)]
struct ProofSize {
    nodes: u64,
    bytes: Option<u64>,
}

/// Proves the value of `request`'s position as `asking` and `proof` ask.
pub fn run<F>(request: &Request, asking: &Asking, flags: BuildFlags, proof: &ProofArgs) -> Result<()>
where
    F: Subcommand + Game<Value = Value>,
    F::Position: FromStr,
{
    let started = Instant::now();
    let asked = F::asked(request).map_err(answer::refusal)?;
    let position = F::played(&asked.position);
    let mut header = Header {
        game: F::NAME.to_owned(),
        key: asked.game.table_key(),
        root: position.to_string(),
        tiers: Vec::new(),
        nodes: 0,
        seconds: 0.0,
    };
    let mut resumed = Vec::new();
    if let Some(path) = proof.proof.as_deref().filter(|p| p.exists()) {
        let opened = file::open(path)?;
        opened.header.expect(path, &header)?;
        if let Body::Proven { value, trees } = opened.body::<F::Position>()? {
            let report = kept::<F>(&asked, &position, &opened.header, value, &trees, path);
            return print(&report, asking.json);
        }
        if let Body::Searching(entries) = opened.body::<F::Position>()? {
            resumed = entries;
        }
        (header.nodes, header.seconds) = (opened.header.nodes, opened.header.seconds);
    }
    let (game, tiers) = above::tiers_that_fit(&asked, &position, asking, flags)?;
    let allowed = Duration::from_secs_f64(BUILD_SHARE * asking.search.time);
    let (tables, _, _) = above::build_within(&game, &game.directory(asking.out), &tiers, flags, allowed)?;
    let budget = Budget {
        nodes: asking.search.nodes,
        time: Some(Duration::from_secs_f64(asking.search.time).saturating_sub(started.elapsed())),
        stop: Some(ctrl_c()),
        table_entries: table_entries::<F::Position>(),
        threads: rayon::current_num_threads().min(2),
    };
    let mut line = ProgressLine::new();
    let found = prove(&game, &tables, &position, budget, resumed, &mut |p| line.show_text(progress_text(p)))?;
    line.finish();
    header.tiers = tables.tiers().map(ToString::to_string).collect();
    header.nodes += found.nodes;
    header.seconds += found.seconds;
    let bytes = match &proof.proof {
        Some(path) => Some(file::write(path, &header, &body(&found))?),
        None => None,
    };
    let mut report = searched::<F>(&asked, &position, &found, &header, proof.proof.as_deref());
    if let Some(size) = report.proof.as_mut() {
        size.bytes = bytes;
    }
    print(&report, asking.json)
}

/// Entries the search's table may hold: a quarter of the free memory, each entry
/// counted at twice its size (the map's room around it).
fn table_entries<P>() -> usize {
    let entry = 2 * (std::mem::size_of::<P>() + 48) as u64;
    let room = memory::available().unwrap_or(1 << 30) / 4;
    (room / entry).clamp(1 << 16, 1 << 28) as usize
}

/// The progress line: nodes, the root's numbers for both questions, the table, time.
fn progress_text(p: &Progress) -> String {
    let numbers = |n: search::proof::Numbers| match (n.pn, n.dn) {
        (0, _) => "yes".to_owned(),
        (_, 0) => "no".to_owned(),
        (pn, dn) => format!("pn {} dn {}", HumanCount(pn.into()), HumanCount(dn.into())),
    };
    let rate = if p.seconds > 0.0 { p.nodes as f64 / p.seconds } else { 0.0 };
    format!(
        "proof: {} nodes, {}/s, wins: {}, does not lose: {}, {} entries, {:.1} s",
        HumanCount(p.nodes),
        HumanCount(rate as u64),
        numbers(p.questions[0]),
        numbers(p.questions[1]),
        HumanCount(p.entries as u64),
        p.seconds
    )
}

/// What a proof file keeps of a search: its proof, or its table.
fn body<P: Clone>(found: &Proven<P>) -> Body<P> {
    match found.value {
        Some(value) => Body::Proven { value, trees: found.trees.clone() },
        None => Body::Searching(found.table.clone()),
    }
}

/// The name `game` gives each of `steps`, by the position it leads to.
fn names<F: FrontEnd>(game: &F, position: &F::Position, steps: &[&Move<F::Position>]) -> Vec<String> {
    let named = game.named_moves(position);
    let name = |step: &Move<F::Position>| {
        named.iter().find(|(_, m)| m.position == step.position).map_or_else(|| "?".to_owned(), |(n, _)| n.clone())
    };
    steps.iter().map(|s| name(s)).collect()
}

/// What is proven of a move, in words: an outcome, or the two it lies between.
fn proven_text(lower: Value, upper: Value) -> &'static str {
    match (lower.outcome(), upper.outcome()) {
        (low, high) if low == high => low,
        ("draw", "win") => "draw or win",
        ("loss", "draw") => "loss or draw",
        _ => "open",
    }
}

/// The report of a search run now.
fn searched<F: Subcommand>(
    asked: &Asked<F>,
    position: &F::Position,
    found: &Proven<F::Position>,
    header: &Header,
    path: Option<&Path>,
) -> ProofReport {
    let steps: Vec<&Move<F::Position>> = found.moves.iter().map(|m| &m.step).collect();
    let names = names(&asked.game, position, &steps);
    let moves = found
        .moves
        .iter()
        .zip(names)
        .map(|(m, name): (&MoveProven<F::Position>, String)| MoveReport { name, proven: proven_text(m.lower, m.upper) })
        .collect();
    let nodes: u64 = found.trees.iter().map(|t| t.nodes.len() as u64).sum();
    ProofReport {
        game: F::NAME,
        title: F::title(asked),
        position: position.to_string(),
        value: found.value.map(Value::outcome),
        plies: found.value.and_then(Value::plies),
        moves,
        nodes: found.nodes,
        seconds: found.seconds,
        total_nodes: header.nodes,
        total_seconds: header.seconds,
        proof: found.value.map(|_| ProofSize { nodes, bytes: None }),
        file: path.map(|p| p.display().to_string()),
        stopped: found.stop.map(|s| match s {
            search::proof::Stop::Nodes => "nodes",
            search::proof::Stop::Time => "time",
            search::proof::Stop::Asked => "asked",
        }),
        tables: header.tiers.clone(),
    }
}

/// The report of a proof kept in `path`, found by an earlier run: the moves its trees
/// prove ([`moves_of_trees`]).
fn kept<F: Subcommand>(
    asked: &Asked<F>,
    position: &F::Position,
    header: &Header,
    value: Value,
    trees: &[ProofTree],
    path: &Path,
) -> ProofReport {
    let mut steps = Vec::new();
    asked.game.moves_decided(position, &mut steps);
    let refs: Vec<&Move<F::Position>> = steps.iter().collect();
    let names = names(&asked.game, position, &refs);
    let proven = moves_of_trees(trees, steps.len());
    let moves = names.into_iter().zip(proven).map(|(name, proven)| MoveReport { name, proven }).collect();
    let bytes = std::fs::metadata(path).ok().map(|m| m.len());
    ProofReport {
        game: F::NAME,
        title: F::title(asked),
        position: position.to_string(),
        value: Some(value.outcome()),
        plies: value.plies(),
        moves,
        nodes: 0,
        seconds: 0.0,
        total_nodes: header.nodes,
        total_seconds: header.seconds,
        proof: Some(ProofSize { nodes: trees.iter().map(|t| t.nodes.len() as u64).sum(), bytes }),
        file: Some(path.display().to_string()),
        stopped: None,
        tables: header.tiers.clone(),
    }
}

/// What the root's nodes of `trees` prove of its `count` moves: the mover's chosen move
/// reaches his goal; every reply of the opponent's tree fails the mover's.
fn moves_of_trees(trees: &[ProofTree], count: usize) -> Vec<&'static str> {
    let (mut at_least_draw, mut at_most_draw) = (vec![false; count], vec![false; count]);
    let mut proven = vec!["open"; count];
    for tree in trees {
        match (tree.prover, tree.goal, tree.nodes.first()) {
            (Side::Mover, search::proof::Goal::Win, Some(&Node::Chosen(i))) => proven[usize::from(i)] = "win",
            (Side::Mover, _, Some(&Node::Chosen(i))) => at_least_draw[usize::from(i)] = true,
            (Side::Opponent, search::proof::Goal::Win, _) => proven.iter_mut().for_each(|p| *p = "loss"),
            (Side::Opponent, _, _) => at_most_draw.iter_mut().for_each(|p| *p = true),
            _ => {}
        }
    }
    for i in 0..count {
        proven[i] = match (at_least_draw[i], at_most_draw[i]) {
            (true, true) => "draw",
            (true, false) => "draw or win",
            (false, true) => "loss or draw",
            (false, false) => proven[i],
        };
    }
    proven
}

/// Prints `report` as JSON, or as text.
fn print(report: &ProofReport, json: bool) -> Result<()> {
    if json {
        print_json(report)?;
        return Ok(());
    }
    outln!("{}", report.title)?;
    match (report.value, report.plies) {
        (Some(value), Some(plies)) => outln!("proven: a {value} for the player to move, within {plies} plies")?,
        (Some(value), None) => outln!("proven: a {value} for the player to move")?,
        (None, _) => outln!("not proven (stopped by {})", report.stopped.unwrap_or("neither question's end"))?,
    }
    let moves: Vec<String> = report.moves.iter().map(|m| format!("{} {}", m.name, m.proven)).collect();
    if moves.is_empty() {
        outln!("moves: none, the game is over")?;
    } else {
        outln!("moves: {}", moves.join(", "))?;
    }
    outln!(
        "{} nodes in {:.1} s (all runs: {} nodes in {:.1} s), tables of {}",
        HumanCount(report.nodes),
        report.seconds,
        HumanCount(report.total_nodes),
        report.total_seconds,
        if report.tables.is_empty() { "no tier".to_owned() } else { format!("tiers {}", report.tables.join(" ")) }
    )?;
    if let Some(size) = &report.proof {
        let bytes = size.bytes.map(|b| format!(", {b} bytes")).unwrap_or_default();
        outln!("proof: {} nodes{bytes}", HumanCount(size.nodes))?;
    }
    if let Some(file) = &report.file {
        let kept = if report.value.is_some() { "the proof" } else { "the search, to continue" };
        outln!("{kept} kept in {file}")?;
    }
    Ok(())
}
