//! The proof of a value found, taken from the search: from the table where its entries
//! prove each node, re-searched where they were dropped or lean on another path.

use super::search::{combine, on_big_stack, Child, Halt, Thread};
use super::{root_question, trees_of, Goal, Node, ProofError, ProofTree, INFINITE};
use retro::{Game, Turn, Value};
use std::collections::HashMap;

/// The trees that prove `value` at `root`.
pub(super) fn trees<G: Game<Value = Value>>(
    thread: &mut Thread<'_, G>,
    root: &G::Position,
    value: Value,
) -> Result<Vec<ProofTree>, ProofError> {
    thread.unbounded = true;
    let result = on_big_stack(|| {
        trees_of(value)
            .into_iter()
            .map(|(prover, goal)| {
                let (question, want) = root_question(prover, goal);
                let mut taken = Taken { nodes: Vec::new(), ids: HashMap::new() };
                thread.path.clear();
                taken.node(thread, root, question, want, 0)?;
                Ok(ProofTree { prover, goal, nodes: taken.nodes })
            })
            .collect()
    });
    thread.unbounded = false;
    result
}

/// A tree being taken: its nodes so far, and the index of each position's node.
struct Taken<P> {
    nodes: Vec<Node>,
    ids: HashMap<P, u64>,
}

impl<P: Clone + std::hash::Hash + Eq + Send + Sync> Taken<P> {
    /// The subtree that answers `goal` at `position` as `want`s, at `ply` of the path.
    fn node<G: Game<Value = Value, Position = P>>(
        &mut self,
        thread: &mut Thread<'_, G>,
        position: &P,
        goal: Goal,
        want: bool,
        ply: usize,
    ) -> Result<(), ProofError> {
        let id = self.nodes.len();
        if let Some(v) = thread.leaf_value(position)? {
            if goal.holds(v) != want {
                return Err(ProofError::Extract { node: id, why: "a leaf answers the other way" });
            }
            let ended = thread.game.end_decided(position).is_some();
            self.nodes.push(if ended { Node::End } else { Node::Table });
            return Ok(());
        }
        self.ids.insert(position.clone(), id as u64);
        let children = self.settled(thread, position, goal, want, ply)?;
        let cycles = thread.game.engine(thread.game.material_tier(position)) != retro::Engine::Acyclic;
        if cycles {
            thread.path.insert(position.clone(), ply);
        }
        let result = self.below(thread, &children, want, ply);
        if cycles {
            thread.path.remove(position);
        }
        result
    }

    /// The node's move (`want`: the proving one) or moves, and their subtrees.
    fn below<G: Game<Value = Value, Position = P>>(
        &mut self,
        thread: &mut Thread<'_, G>,
        children: &[Child<P>],
        want: bool,
        ply: usize,
    ) -> Result<(), ProofError> {
        if want {
            let (_, _, best) = combine(children, true);
            let i = best.expect("a proven node has a proving move");
            self.nodes.push(Node::Chosen(i));
            return self.follow(thread, &children[usize::from(i)], want, ply);
        }
        self.nodes.push(Node::Replies(children.len() as u16));
        children.iter().try_for_each(|c| self.follow(thread, c, want, ply))
    }

    /// A move's subtree: a reference to its child's node where the tree has one.
    fn follow<G: Game<Value = Value, Position = P>>(
        &mut self,
        thread: &mut Thread<'_, G>,
        child: &Child<P>,
        want: bool,
        ply: usize,
    ) -> Result<(), ProofError> {
        if let Some(&id) = self.ids.get(&child.step.position) {
            self.nodes.push(Node::Again(id));
            return Ok(());
        }
        let want = if child.step.turn == Turn::Passes { !want } else { want };
        self.node(thread, &child.step.position, child.goal, want, ply + 1)
    }

    /// The moves of `position` as they answer `goal` the way `want`s: from the table, or
    /// where it does not say so, by a search of the node on this path.
    fn settled<G: Game<Value = Value, Position = P>>(
        &self,
        thread: &mut Thread<'_, G>,
        position: &P,
        goal: Goal,
        want: bool,
        ply: usize,
    ) -> Result<Vec<Child<P>>, ProofError> {
        let answered = |n: super::Numbers| if want { n.pn == 0 } else { n.dn == 0 };
        let (children, decided) = thread.children(position, goal)?;
        if answered(combine(&children, decided).0) {
            return Ok(children);
        }
        let node = self.nodes.len();
        let searched = thread.mid(position, goal, ply, (INFINITE, INFINITE)).map_err(|halt| match halt {
            Halt::Probe(e) => ProofError::Probe(e),
            Halt::Stopped(_) | Halt::Answered => ProofError::Extract { node, why: "the search stopped" },
        })?;
        if !answered(searched.numbers) {
            return Err(ProofError::Extract { node, why: "on this path a repetition answers it the other way" });
        }
        Ok(searched.children)
    }
}
