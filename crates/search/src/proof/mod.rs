//! A proof search above the tables, for outcome games ([`retro::Value`]): depth-first
//! proof-number search (df-pn) of two questions about a position, "does the mover win?"
//! and "does the mover not lose?", whose answers give its value, and the proof of that
//! value as a tree anyone can check ([`check`]) without this search.
//!
//! ## The questions
//! A node is a position and a question ([`Goal`]) about its mover. A move that keeps the
//! turn asks the child the same question; a move that passes it asks the child the other
//! question, negated: the mover wins if the opponent does not avoid losing, and avoids
//! losing if the opponent does not win. So a node is an OR of its moves, each move the
//! child's answer or its negation, and df-pn's numbers are those of a negamax tree: a
//! move's proof number is its child's proof number, or its disproof number where the
//! turn passes. The leaves are the rules' ends ([`Game::end_decided`]) and the positions
//! of built tiers, probed ([`Game::material_tier`] first). A position with a move the
//! rules could not decide within their effort ([`Game::moves_decided`]) may be proven by
//! a decided move but never disproven: its disproof number stays infinite.
//!
//! ## Repetitions
//! In a tier whose play can come back to a position, a position met again on the path is
//! a leaf worth a draw (what endless play is worth). What a node proves through such a
//! leaf holds on this path only when the repeated position lies above the node: each
//! answer carries the shallowest ply its repetitions met (`anchor`, as the tree search's
//! `search::tree` does), and only answers of a node at ply `k` with `anchor ≥ k` are
//! stored as solved; the others are kept by the parent for the one search of it. A node
//! whose repetitions all lie below it is a search rooted there, whose answer is its value
//! (the argument of [`crate::tree`], point 2).
//!
//! ## Threads, memory, and resuming
//! The two questions are searched on two threads sharing the transposition table; a
//! solved answer to one question proves what it implies of the other. A
//! thread whose question is answered while the value still needs the other joins the
//! other question, choosing among equal moves the other way round. The table holds at
//! most [`Budget::table_entries`] entries and drops the cheapest when full. Its entries
//! are what a stopped search leaves ([`Proven::table`]) and what a resumed one starts
//! from ([`prove`]'s `resumed`): kept in a proof file ([`mod@file`]).
//!
//! ## The proof
//! Once the value is known, its proof is taken from the table (re-searching a node whose
//! entry was dropped): for a win, one tree in which the winner's chosen move answers each
//! of his nodes and every reply of the loser's follows, down to ends and built tiers; for
//! a draw, two trees, one for each player not losing ([`ProofTree`]). A position met
//! again in a tree is written as a reference to its first node; a proof of a win has no
//! reference to a node above it (a cycle), since a cycle is a draw.

pub mod check;
mod extract;
pub mod file;
mod search;
mod table;

use retro::store::ProbeError;
use retro::{Game, Move, Tables, Value};
use search::Thread;
use thiserror::Error;

/// What a proof search may spend: the budget of every search; of its threads, 2 search
/// the two questions at once, 1 one after the other (more count as 2).
pub use crate::tree::{Budget, Stop};

/// A question about the mover of a position.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Goal {
    /// Does the mover win?
    Win,
    /// Does the mover not lose (a win or a draw)?
    NotLose,
}

impl Goal {
    /// The question a move that passes the turn asks of its child, negated.
    pub fn flip(self) -> Goal {
        match self {
            Goal::Win => Goal::NotLose,
            Goal::NotLose => Goal::Win,
        }
    }

    /// Whether a position of value `value` (for its mover) answers yes.
    pub fn holds(self, value: Value) -> bool {
        match self {
            Goal::Win => matches!(value, Value::Win(_)),
            Goal::NotLose => !matches!(value, Value::Loss(_)),
        }
    }

    /// Its code in proof files.
    pub fn code(self) -> u8 {
        match self {
            Goal::Win => 0,
            Goal::NotLose => 1,
        }
    }

    /// Inverse of [`Goal::code`].
    pub fn from_code(code: u8) -> Option<Goal> {
        match code {
            0 => Some(Goal::Win),
            1 => Some(Goal::NotLose),
            _ => None,
        }
    }
}

/// A proof or disproof number that no amount of search reaches: the node is solved the
/// other way, or (both infinite) neither way is open.
pub const INFINITE: u32 = u32::MAX;

/// A node's proof and disproof numbers, and once solved, the height of its proof: the
/// most plies the game lasts under it (to the end, or to a built tier's position, and on
/// by that table's distance).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Numbers {
    /// The least count of leaves whose proof would prove the node (0: proven).
    pub pn: u32,
    /// The least count of leaves whose disproof would disprove it (0: disproven).
    pub dn: u32,
    /// Plies of the proof, once solved.
    pub height: u16,
}

impl Numbers {
    /// Proven, with a proof of `height` plies.
    pub fn proven(height: u16) -> Numbers {
        Numbers { pn: 0, dn: INFINITE, height }
    }

    /// Disproven, with a disproof of `height` plies.
    pub fn disproven(height: u16) -> Numbers {
        Numbers { pn: INFINITE, dn: 0, height }
    }

    /// Whether it is proven or disproven.
    pub fn is_solved(self) -> bool {
        self.pn == 0 || self.dn == 0
    }
}

/// Which player a proof tree proves something for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Side {
    /// The player to move at the root.
    Mover,
    /// His opponent.
    Opponent,
}

/// One node of a proof tree, in preorder: a node's children follow it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Node {
    /// The rules end the game here, as the proof needs.
    End,
    /// The tables of a built tier value the position as the proof needs.
    Table,
    /// The prover's move: the index of his move (in the game's order of the decided
    /// moves), followed by its child's subtree.
    Chosen(u16),
    /// The opponent's position: his moves' count, followed by each move's subtree in
    /// the game's order.
    Replies(u16),
    /// The same position as the node of this index, proven there.
    Again(u64),
}

/// A proof that `prover` reaches `goal` from the root, as a tree of nodes in preorder.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProofTree {
    /// The player it proves something for.
    pub prover: Side,
    /// What it proves he reaches.
    pub goal: Goal,
    /// The nodes, the root's first.
    pub nodes: Vec<Node>,
}

/// The trees that prove `value` at a root: a win one tree (the mover's win), a loss one
/// (the opponent's), a draw two (each player not losing): their sides and goals.
pub fn trees_of(value: Value) -> Vec<(Side, Goal)> {
    match value {
        Value::Win(_) => vec![(Side::Mover, Goal::Win)],
        Value::Loss(_) => vec![(Side::Opponent, Goal::Win)],
        Value::Draw => vec![(Side::Mover, Goal::NotLose), (Side::Opponent, Goal::NotLose)],
    }
}

/// The question and the answer that a tree of `prover` and `goal` proves at the root: a
/// tree of the mover proves his question, one of the opponent disproves the other one.
pub fn root_question(prover: Side, goal: Goal) -> (Goal, bool) {
    match prover {
        Side::Mover => (goal, true),
        Side::Opponent => (goal.flip(), false),
    }
}

/// How a proof search stands, told a few times a second at most.
#[derive(Debug, Clone, Copy)]
pub struct Progress {
    /// Nodes searched in this run.
    pub nodes: u64,
    /// Seconds of this run.
    pub seconds: f64,
    /// The root's numbers for "the mover wins" and "the mover does not lose".
    pub questions: [Numbers; 2],
    /// Entries in the transposition table.
    pub entries: usize,
}

/// An entry of the transposition table as a proof file keeps it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Stored<P> {
    /// The position.
    pub position: P,
    /// The question.
    pub goal: Goal,
    /// Its numbers.
    pub numbers: Numbers,
    /// The move that proves it, once proven.
    pub best: Option<u16>,
    /// Nodes searched below it.
    pub work: u64,
}

/// What is proven of one move of the root, for its mover: outcomes, without distances
/// (each `Win(0)`, `Draw` or `Loss(0)`).
#[derive(Debug, Clone)]
pub struct MoveProven<P> {
    /// The move.
    pub step: Move<P>,
    /// The least outcome it is proven to be worth (a loss when nothing is proven).
    pub lower: Value,
    /// The most (a win when nothing is proven).
    pub upper: Value,
}

/// What a proof search proved of a position.
#[derive(Debug, Clone)]
pub struct Proven<P> {
    /// The value's outcome where proven, with the plies of its proof (the most the game
    /// lasts under it; for a draw, none).
    pub value: Option<Value>,
    /// The root's questions: `Some(answer)` where answered.
    pub answers: [Option<bool>; 2],
    /// The root's moves, each with what is proven of it.
    pub moves: Vec<MoveProven<P>>,
    /// The proof of the value, where it is proven.
    pub trees: Vec<ProofTree>,
    /// The transposition table where the value is not proven, to resume from.
    pub table: Vec<Stored<P>>,
    /// Nodes searched in this run.
    pub nodes: u64,
    /// Seconds of this run.
    pub seconds: f64,
    /// Why it stopped before the value was proven, if it did.
    pub stop: Option<Stop>,
}

/// Why a proof search failed.
#[derive(Debug, Error)]
pub enum ProofError {
    /// A table could not be read.
    #[error(transparent)]
    Probe(#[from] ProbeError),
    /// The proof of a proven value could not be taken from the search (a repetition on
    /// the path hid the proof a node had on another).
    #[error("the proof of node {node} could not be rebuilt: {why}")]
    Extract {
        /// The node's index in its tree.
        node: usize,
        /// What went wrong.
        why: &'static str,
    },
}

/// Proves what it can of `position` of `game` above `tables` (any set of its built tiers)
/// within `budget`, starting from the table entries `resumed` (a stopped search's);
/// `progress` hears how it stands a few times a second at most.
pub fn prove<G: Game<Value = Value>>(
    game: &G,
    tables: &Tables<G>,
    position: &G::Position,
    budget: Budget<'_>,
    resumed: Vec<Stored<G::Position>>,
    progress: &mut (dyn FnMut(&Progress) + Send),
) -> Result<Proven<G::Position>, ProofError> {
    let shared = search::Shared::new(budget, resumed);
    let mut main = Thread::new(game, tables, &shared, Some(progress), false);
    if let Some(v) = main.leaf_value(position)? {
        let node = if game.end_decided(position).is_some() { Node::End } else { Node::Table };
        let mut proven = leaf_proven(v, node, &shared);
        if node == Node::Table {
            proven.moves = search::root_moves(&mut main, position)?;
        }
        return Ok(proven);
    }
    let stop = search::on_threads(&mut main, position)?;
    let answers = shared.answers();
    let value = value_of(answers);
    let trees = match value {
        Some(v) => extract::trees(&mut main, position, v)?,
        None => Vec::new(),
    };
    let value = value.map(|v| with_height(v, shared.root()));
    main.report();
    Ok(Proven {
        value,
        answers,
        moves: search::root_moves(&mut main, position)?,
        table: if value.is_some() { Vec::new() } else { shared.stored() },
        trees,
        nodes: shared.nodes(),
        seconds: shared.seconds(),
        stop: if value.is_some() { None } else { stop },
    })
}

/// The proof of a root the rules end or a table values: one node.
fn leaf_proven<P: Clone + std::hash::Hash + Eq>(value: Value, node: Node, shared: &search::Shared<'_, P>) -> Proven<P> {
    let trees = trees_of(value).into_iter().map(|(prover, goal)| ProofTree { prover, goal, nodes: vec![node] });
    Proven {
        value: Some(value),
        answers: [Some(Goal::Win.holds(value)), Some(Goal::NotLose.holds(value))],
        moves: Vec::new(),
        trees: trees.collect(),
        table: Vec::new(),
        nodes: 0,
        seconds: shared.seconds(),
        stop: None,
    }
}

/// The outcome the answers to "the mover wins" and "the mover does not lose" give, with
/// no distance yet.
pub fn value_of(answers: [Option<bool>; 2]) -> Option<Value> {
    match answers {
        [Some(true), _] => Some(Value::Win(0)),
        [_, Some(false)] => Some(Value::Loss(0)),
        [Some(false), Some(true)] => Some(Value::Draw),
        _ => None,
    }
}

/// `value` with the height of its proof (a win's, or the disproof of "does not lose"
/// for a loss), from the root's numbers.
fn with_height(value: Value, root: [Numbers; 2]) -> Value {
    match value {
        Value::Win(_) => Value::Win(root[0].height),
        Value::Loss(_) => Value::Loss(root[1].height),
        Value::Draw => Value::Draw,
    }
}
