//! A proof checked without the search that found it: every move of its trees replayed
//! from the rules ([`Game::moves_decided`]), every leaf asked of the rules' end or of the
//! tables, every reply of the loser present, and no cycle in the proof of a win.

use super::search::on_big_stack;
use super::{root_question, trees_of, Goal, Node, ProofTree};
use retro::store::ProbeError;
use retro::{Game, Move, Tables, Turn, Value};
use thiserror::Error;

/// Why a proof does not hold.
#[derive(Debug, Error)]
pub enum CheckError {
    /// A table could not be read.
    #[error(transparent)]
    Probe(#[from] ProbeError),
    /// The trees are not those the value needs.
    #[error("a {value} is proven by {needed}, the proof holds {found}")]
    Trees {
        /// The outcome claimed.
        value: &'static str,
        /// The trees it needs.
        needed: String,
        /// The trees found.
        found: String,
    },
    /// A node of a tree fails.
    #[error("tree {tree}, node {node} (after moves {path}; position {position}): {why}")]
    Node {
        /// The tree's index in the file (from 0).
        tree: usize,
        /// The node's index in its tree (preorder, from 0).
        node: usize,
        /// The moves from the root to it, each its index among the decided moves.
        path: String,
        /// The position there.
        position: String,
        /// What fails.
        why: String,
    },
}

/// What a checked proof holds: its nodes, all trees together.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Checked {
    /// Nodes checked.
    pub nodes: u64,
}

/// Checks that `trees` prove that `root` of `game` is worth the outcome of `value`, the
/// leaves of built tiers probed in `tables`.
pub fn check<G: Game<Value = Value>>(
    game: &G,
    tables: &Tables<G>,
    root: &G::Position,
    value: Value,
    trees: &[ProofTree],
) -> Result<Checked, CheckError> {
    let needed = trees_of(value);
    let found: Vec<_> = trees.iter().map(|t| (t.prover, t.goal)).collect();
    if needed != found {
        let name = |t: &[(super::Side, Goal)]| format!("{t:?}");
        return Err(CheckError::Trees { value: value.outcome(), needed: name(&needed), found: name(&found) });
    }
    let mut nodes = 0;
    for (i, tree) in trees.iter().enumerate() {
        let (goal, want) = root_question(tree.prover, tree.goal);
        let mut checker = Checker {
            game,
            tables,
            tree: i,
            nodes: &tree.nodes,
            seen: Vec::new(),
            path: Vec::new(),
            cycles_draw: tree.goal == Goal::Win,
        };
        on_big_stack(|| checker.node(root, goal, want))?;
        if checker.seen.len() != tree.nodes.len() {
            return Err(checker
                .fails(root, format!("{} nodes past the end of the tree", tree.nodes.len() - checker.seen.len())));
        }
        nodes += tree.nodes.len() as u64;
    }
    Ok(Checked { nodes })
}

/// A node met: its position, whether the prover is to move there, and whether its
/// subtree is still being checked.
struct Seen<P> {
    position: P,
    want: bool,
    open: bool,
}

/// One tree being checked.
struct Checker<'a, G: Game> {
    game: &'a G,
    tables: &'a Tables<G>,
    tree: usize,
    nodes: &'a [Node],
    seen: Vec<Seen<G::Position>>,
    /// The moves from the root to the node being checked.
    path: Vec<u16>,
    /// Whether a cycle fails the tree: in the proof of a win, where a repetition draws.
    cycles_draw: bool,
}

impl<G: Game<Value = Value>> Checker<'_, G> {
    fn fails(&self, position: &G::Position, why: String) -> CheckError {
        let path = if self.path.is_empty() {
            "none".to_owned()
        } else {
            self.path.iter().map(ToString::to_string).collect::<Vec<_>>().join(" ")
        };
        CheckError::Node {
            tree: self.tree,
            node: self.seen.len().saturating_sub(1),
            path,
            position: position.to_string(),
            why,
        }
    }

    /// Checks the next node: that it answers `goal` at `position` as `want`s (yes where
    /// the prover moves, no where his opponent does).
    fn node(&mut self, position: &G::Position, goal: Goal, want: bool) -> Result<(), CheckError> {
        let id = self.seen.len();
        let Some(&node) = self.nodes.get(id) else {
            return Err(self.fails(position, "the tree ends before this node".to_owned()));
        };
        self.seen.push(Seen { position: position.clone(), want, open: true });
        let answer = if want { "yes" } else { "no" };
        let question = match goal {
            Goal::Win => "does the mover win",
            Goal::NotLose => "does the mover not lose",
        };
        match node {
            Node::End => match self.game.end_decided(position) {
                Some(v) if goal.holds(v) == want => {}
                Some(v) => {
                    return Err(self.fails(
                        position,
                        format!(
                            "the game ends here in a {} for the mover, not {answer} to \"{question}\"",
                            v.outcome()
                        ),
                    ))
                }
                None => return Err(self.fails(position, "the proof says the game ends here; it goes on".to_owned())),
            },
            Node::Table => self.tabled(position, goal, want)?,
            Node::Again(j) => self.again(position, want, j)?,
            Node::Chosen(i) => {
                if !want {
                    return Err(self
                        .fails(position, "the proof chooses a move for the player it proves nothing for".to_owned()));
                }
                let moves = self.moves(position, false)?;
                let Some(step) = moves.get(usize::from(i)) else {
                    return Err(self
                        .fails(position, format!("the chosen move {i} is not among the {} moves here", moves.len())));
                };
                self.child(i, step, goal, want)?;
            }
            Node::Replies(n) => {
                if want {
                    return Err(
                        self.fails(position, "the proof lists every move of the player it proves for".to_owned())
                    );
                }
                let moves = self.moves(position, true)?;
                if usize::from(n) != moves.len() {
                    return Err(
                        self.fails(position, format!("the proof answers {n} moves; the rules give {}", moves.len()))
                    );
                }
                for (i, step) in moves.iter().enumerate() {
                    self.child(i as u16, step, goal, want)?;
                }
            }
        }
        self.seen[id].open = false;
        Ok(())
    }

    /// The moves of a position the game does not end at, decided (all of them, where
    /// `all`).
    fn moves(&self, position: &G::Position, all: bool) -> Result<Vec<Move<G::Position>>, CheckError> {
        if self.game.end_decided(position).is_some() {
            return Err(self.fails(position, "the game ends here: there is no move".to_owned()));
        }
        let mut moves = Vec::new();
        let decided = self.game.moves_decided(position, &mut moves);
        if all && !decided {
            return Err(self.fails(position, "a move here is not decided within the rules' effort".to_owned()));
        }
        Ok(moves)
    }

    /// Checks the subtree of move `i`, `step`, of a node answering `goal` as `want`s.
    fn child(&mut self, i: u16, step: &Move<G::Position>, goal: Goal, want: bool) -> Result<(), CheckError> {
        let (goal, want) = match step.turn {
            Turn::Keeps => (goal, want),
            Turn::Passes => (goal.flip(), !want),
        };
        self.path.push(i);
        let result = self.node(&step.position, goal, want);
        self.path.pop();
        result
    }

    /// A leaf of a built tier: the table's value answers as `want`s.
    fn tabled(&self, position: &G::Position, goal: Goal, want: bool) -> Result<(), CheckError> {
        let tier = self.game.material_tier(position);
        if self.tables.table(tier).is_none() {
            return Err(self.fails(position, format!("the proof asks the table of tier {tier}, which is not open")));
        }
        let location = self.game.locate(position);
        let v = self.tables.probe(location.tier, location.rank)?;
        if goal.holds(v) != want {
            return Err(self.fails(position, format!("the table says {v} for the mover, which does not prove it")));
        }
        Ok(())
    }

    /// A reference to node `j`: an earlier node of the same position and side, and not
    /// one above this one in the proof of a win.
    fn again(&self, position: &G::Position, want: bool, j: u64) -> Result<(), CheckError> {
        let id = self.seen.len() - 1;
        let Some(earlier) = usize::try_from(j).ok().filter(|&j| j < id).map(|j| &self.seen[j]) else {
            return Err(self.fails(position, format!("a reference to node {j}, which does not come before this one")));
        };
        if earlier.position != *position || earlier.want != want {
            return Err(self.fails(position, format!("a reference to node {j}, which is another position")));
        }
        if earlier.open && self.cycles_draw {
            return Err(self.fails(position, format!("a cycle back to node {j}: a repetition draws, it does not win")));
        }
        Ok(())
    }
}
