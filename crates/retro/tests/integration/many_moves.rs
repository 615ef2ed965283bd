//! The outcome engine on positions with more same-tier moves than a byte counts (300
//! each), with long distances and a drawn cycle, against the independent forward
//! solver, with and without un-moves.

use retro::kit::{check_against_oracle, check_moves_and_unmoves, check_tables, outcome_oracle, WithoutUnmoves};
use retro::store::build;
use retro::{Game, Location, Move, Turn, Value};

/// Positions of tier 1; tier 0 is one finished position, lost for its player to move.
const NODES: u64 = 620;
/// Nodes `0..EXITS` can move to tier 0 (a win in one).
const EXITS: u64 = 300;
/// Nodes from `RING` on move round a ring among themselves.
const RING: u64 = 600;

/// A node of a tier.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
struct Node(u8, u64);

impl std::fmt::Display for Node {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "node {} of tier {}", self.1, self.0)
    }
}

/// Every node of tier 1 from `EXITS` on moves to every exit node, so each has at least
/// 300 same-tier moves; a node of the chain `EXITS..RING` also moves to the node before
/// it, which makes the values alternate with distances growing to about 600 plies; the
/// ring's nodes can only hand the opponent a win or go round: draws.
struct Dense {
    /// Each node's parents.
    parents: Vec<Vec<u64>>,
}

impl Dense {
    fn new() -> Dense {
        let mut parents = vec![Vec::new(); NODES as usize];
        for node in 0..NODES {
            for target in Dense::targets(node) {
                parents[target as usize].push(node);
            }
        }
        Dense { parents }
    }

    fn targets(node: u64) -> Vec<u64> {
        let mut out = Vec::new();
        if node >= EXITS {
            out.extend(0..EXITS);
        }
        if node > EXITS && node < RING {
            out.push(node - 1);
        }
        if node >= RING {
            out.push(RING + (node - RING + 1) % (NODES - RING));
        }
        out
    }
}

impl Game for Dense {
    type Position = Node;
    type Tier = u8;
    type Value = Value;

    fn table_key(&self) -> String {
        "dense test graph".into()
    }
    fn tier_size(&self, tier: u8) -> u64 {
        if tier == 0 {
            1
        } else {
            NODES
        }
    }
    fn child_tiers(&self, tier: u8) -> Vec<u8> {
        if tier == 0 {
            vec![]
        } else {
            vec![0]
        }
    }
    fn locate(&self, p: &Node) -> Location<u8> {
        Location::at(p.0, p.1)
    }
    fn position(&self, l: Location<u8>) -> Node {
        Node(l.tier, l.rank)
    }
    fn end(&self, p: &Node) -> Option<Value> {
        (p.0 == 0).then_some(Value::Loss(0))
    }
    fn moves(&self, p: &Node, out: &mut Vec<Move<Node>>) {
        let step = |position| Move { position, gain: 0, turn: Turn::Passes };
        if p.1 < EXITS {
            out.push(step(Node(0, 0)));
        }
        out.extend(Dense::targets(p.1).into_iter().map(|t| step(Node(1, t))));
    }
    fn lists_unmoves(&self) -> bool {
        true
    }
    fn unmoves(&self, p: &Node, out: &mut Vec<Move<Node>>) {
        if p.0 == 1 {
            out.extend(self.parents[p.1 as usize].iter().map(|&n| Move {
                position: Node(1, n),
                gain: 0,
                turn: Turn::Passes,
            }));
        }
    }
}

fn all() -> Vec<Node> {
    (0..NODES).map(|n| Node(1, n)).chain([Node(0, 0)]).collect()
}

#[test]
fn counts_past_a_byte_and_long_distances() {
    let dense = Dense::new();
    check_moves_and_unmoves(&dense, &all());
    let oracle = outcome_oracle(&dense, &all());
    assert_eq!(oracle[&Node(1, 0)], Value::Win(1));
    assert_eq!(oracle[&Node(1, EXITS)], Value::Loss(2));
    assert_eq!(oracle[&Node(1, RING - 1)], Value::Win((RING - EXITS + 1) as u16));
    assert_eq!(oracle[&Node(1, RING)], Value::Draw);

    let dir = tempfile::tempdir().unwrap();
    let (tables, _) =
        build(&dense, &dir.path().join("unmoves"), &[1], &retro::solve::Silent, &Default::default()).unwrap();
    assert_eq!(check_against_oracle(&dense, &tables, &oracle), NODES as usize + 1);
    check_tables(&dense, &tables, &[0, 1]);

    let without = WithoutUnmoves(dense);
    let (tables, _) =
        build(&without, &dir.path().join("moves"), &[1], &retro::solve::Silent, &Default::default()).unwrap();
    assert_eq!(check_against_oracle(&without, &tables, &oracle), NODES as usize + 1);
}
