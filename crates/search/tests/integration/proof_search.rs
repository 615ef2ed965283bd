//! The proof search ([`search::proof`]) against the tables and the published starts: its
//! values are theirs; its proofs pass the checker, and damaged ones (a move removed, a
//! value changed, a file cut short or with a byte flipped) do not; a stopped search
//! resumed from its table finishes.

use games::thi::{Bonus, RuleSet, Rules, Setup, Thi};
use games::trias::Trias;
use retro::solve::Silent;
use retro::store::{self, BuildOptions};
use retro::{Game, Location, Tables, Value};
use search::proof::check::{check, CheckError};
use search::proof::file::{self, Body, Header, ProofFileError};
use search::proof::{prove, Budget, Node, ProofTree, Proven};
use std::path::Path;

fn build<G: Game>(game: &G, dir: &Path, tiers: &[G::Tier]) -> Tables<G> {
    store::build(game, dir, tiers, &Silent, &BuildOptions::default()).unwrap().0
}

fn proven<G: Game<Value = Value>>(game: &G, tables: &Tables<G>, p: &G::Position) -> Proven<G::Position> {
    prove(game, tables, p, Budget::default(), Vec::new(), &mut |_| {}).unwrap_or_else(|e| panic!("{p}: {e}"))
}

/// The outcome of a value: its distance dropped.
fn outcome(v: Value) -> &'static str {
    v.outcome()
}

/// Proves `p`, checks its value's outcome is `expected`'s and its proof holds; returns
/// the proof.
fn proves<G: Game<Value = Value>>(
    game: &G,
    tables: &Tables<G>,
    p: &G::Position,
    expected: Value,
) -> Proven<G::Position> {
    let found = proven(game, tables, p);
    let value = found.value.unwrap_or_else(|| panic!("{p}: not proven"));
    assert_eq!(outcome(value), outcome(expected), "{}: {p}", game.table_key());
    check(game, tables, p, value, &found.trees).unwrap_or_else(|e| panic!("{p}: {e}"));
    found
}

/// Every position of `tier`, every orientation, at most `most` of them spread evenly.
fn positions<G: Game>(game: &G, tier: G::Tier, most: u64) -> Vec<G::Position> {
    let size = game.tier_size(tier);
    let step = size.div_ceil(most).max(1);
    let mut out = Vec::new();
    for rank in (0..size).step_by(step as usize) {
        for orientation in 0..game.orientations() {
            out.push(game.position(Location { tier, rank, orientation }));
        }
    }
    out
}

/// Every Trias start of up to 3×5 with up to 2 stones a hole equals its published
/// value, proven above the tables of a few stones, and its proof holds.
#[test]
fn trias_starts_equal_the_published_values() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../data/golden/trias-starts.tsv");
    let text = std::fs::read_to_string(path).unwrap();
    let mut seen = 0;
    for line in text.lines().filter(|l| !l.starts_with('#')).skip(1) {
        let f: Vec<&str> = line.split('\t').collect();
        let (k, s): (usize, u32) = (f[0].parse().unwrap(), f[1].parse().unwrap());
        if k > 5 || s > 2 {
            continue;
        }
        seen += 1;
        let plies: u16 = f[3].parse().unwrap();
        let published = if f[2] == "win" { Value::Win(plies) } else { Value::Loss(plies) };
        let game = Trias::new(k, 4).unwrap();
        let dir = tempfile::tempdir().unwrap();
        let tables = build(&game, dir.path(), &game.tiers_up_to(4));
        let found = proves(&game, &tables, &game.start(s).unwrap(), published);
        if let Some(Value::Win(h) | Value::Loss(h)) = found.value {
            assert!(h >= plies, "3×{k} with {s}: a proof of {h} plies, the game lasts {plies}");
        }
    }
    assert_eq!(seen, 9, "3×1 to 3×5, 1 and 2 stones, but 3×5 with 2");
    // 3×5 with 2 stones, which the published starts leave out: the forward search's.
    let game = Trias::new(5, 30).unwrap();
    let start = game.start(2).unwrap();
    let oracle = retro::forward::solve_reachable(&game, &start)[&start];
    let dir = tempfile::tempdir().unwrap();
    let none = store::open(&game, dir.path(), &[]).unwrap();
    proves(&game, &none, &start, oracle);
}

/// Trias positions of a board whose tables are built whole, proven above the lowest
/// tiers only: each equals the tables.
#[test]
fn trias_positions_equal_the_tables() {
    let game = Trias::new(3, 8).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let full = build(&game, dir.path(), &game.tiers_up_to(8));
    let below = store::open(&game, dir.path(), &game.tiers_up_to(3)).unwrap();
    for tier in [5, 8] {
        for p in positions(&game, tier, 150) {
            proves(&game, &below, &p, full.value(&game, &p).unwrap());
        }
    }
}

fn thi(name: &str, set: RuleSet) -> Thi {
    Thi::for_setup(Setup::named(name).unwrap(), Rules { set, bonus: Bonus::No }).unwrap()
}

/// Proves `p` within `nodes` on `threads`: where it is proven, its value is the tables'
/// and its proof holds. Whether it was proven.
fn proves_within<G: Game<Value = Value>>(
    game: &G,
    (tables, full): (&Tables<G>, &Tables<G>),
    p: &G::Position,
    nodes: u64,
    threads: usize,
) -> bool {
    let budget = Budget { nodes: Some(nodes), threads, ..Budget::default() };
    let found = prove(game, tables, p, budget, Vec::new(), &mut |_| {}).unwrap();
    let Some(value) = found.value else { return false };
    assert_eq!(outcome(value), outcome(full.value(game, p).unwrap()), "{}: {p}", game.table_key());
    check(game, tables, p, value, &found.trees).unwrap_or_else(|e| panic!("{p}: {e}"));
    true
}

/// THI` PRIMUS and DUO under every rule set: the start with no table, and positions of
/// the top tier above the tables of the others, equal the tables wherever a few thousand
/// nodes prove them; draws by repetition take the search longest (a draw proven through a
/// repetition of a position above a node is not stored: the module comment of
/// `search::proof`), so only the starts known to finish within the budget must. Which
/// starts finish is counted on one thread; on two (checked too, wherever they finish),
/// the questions share the node budget as the threads happen to run, and which finish
/// varies from run to run (PRIMUS under `original` itself, now and then).
#[test]
fn thi_primus_and_duo_equal_the_tables() {
    let mut proven = Vec::new();
    for (name, sampled, nodes) in [("primus", 12, 100_000), ("duo", 4, 20_000)] {
        for set in RuleSet::ALL {
            let game = thi(name, set);
            let dir = tempfile::tempdir().unwrap();
            let all = game.all_tiers();
            let full = build(&game, dir.path(), &all);
            let none = store::open(&game, dir.path(), &[]).unwrap();
            let start = Setup::named(name).unwrap().start();
            let label = format!("{name} {}", set.name());
            if proves_within(&game, (&none, &full), &start, nodes, 1) {
                proven.push(label);
            }
            proves_within(&game, (&none, &full), &start, nodes, 2);
            let top = *all.last().unwrap();
            let below = store::open(&game, dir.path(), &game.child_tiers(top)).unwrap();
            for p in positions(&game, top, sampled) {
                proves_within(&game, (&below, &full), &p, 3_000, 2);
            }
        }
    }
    for start in ["primus original", "primus fixed1"] {
        assert!(proven.iter().any(|p| p == start), "{start} proven: {proven:?}");
    }
    // Fixed2 and fixed2-pass, draws by repetition, take 15,000 to 100,000 nodes or more.
    assert!(proven.len() >= 3, "{proven:?}");
}

/// The index just past the subtree that starts at `at`.
fn subtree_end(nodes: &[Node], at: usize) -> usize {
    match nodes[at] {
        Node::End | Node::Table | Node::Again(_) => at + 1,
        Node::Chosen(_) => subtree_end(nodes, at + 1),
        Node::Replies(n) => (0..n).fold(at + 1, |next, _| subtree_end(nodes, next)),
    }
}

/// A tree with the last reply of its first node of two replies or more removed.
fn reply_removed(tree: &ProofTree) -> Option<ProofTree> {
    let at = tree.nodes.iter().position(|n| matches!(n, Node::Replies(n) if *n >= 2))?;
    let Node::Replies(n) = tree.nodes[at] else { unreachable!() };
    let last = (0..n - 1).fold(at + 1, |next, _| subtree_end(&tree.nodes, next));
    let mut nodes = tree.nodes.clone();
    nodes.drain(last..subtree_end(&tree.nodes, last));
    nodes[at] = Node::Replies(n - 1);
    Some(ProofTree { nodes, ..tree.clone() })
}

/// The checker refuses a proof with a reply removed, a chosen move changed, or its value
/// changed, naming the node.
#[test]
fn damaged_proofs_are_refused() {
    let game = Trias::new(4, 8).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let tables = build(&game, dir.path(), &game.tiers_up_to(2));
    let start = game.start(2).unwrap();
    let found = proven(&game, &tables, &start);
    let value = found.value.unwrap();
    check(&game, &tables, &start, value, &found.trees).unwrap();
    let removed = reply_removed(&found.trees[0]).expect("a node of several replies");
    let e = check(&game, &tables, &start, value, &[removed]).unwrap_err();
    assert!(matches!(e, CheckError::Node { .. }), "{e}");
    let mut changed = found.trees[0].clone();
    let at = changed.nodes.iter().position(|n| matches!(n, Node::Chosen(_))).unwrap();
    changed.nodes[at] = Node::Chosen(40);
    let e = check(&game, &tables, &start, value, &[changed]).unwrap_err();
    assert!(e.to_string().contains("not among"), "{e}");
    let other = if matches!(value, Value::Win(_)) { Value::Loss(1) } else { Value::Win(1) };
    let e = check(&game, &tables, &start, other, &found.trees).unwrap_err();
    assert!(matches!(e, CheckError::Trees { .. }), "{e}");
    let mut flipped = found.trees.clone();
    flipped[0].prover = match flipped[0].prover {
        search::proof::Side::Mover => search::proof::Side::Opponent,
        search::proof::Side::Opponent => search::proof::Side::Mover,
    };
    assert!(check(&game, &tables, &start, other, &flipped).is_err());
}

fn header(game: &Trias, root: &str) -> Header {
    Header {
        game: "trias".into(),
        key: game.table_key(),
        root: root.into(),
        tiers: vec!["0".into()],
        nodes: 5,
        seconds: 0.5,
    }
}

/// A proof file reads back as written; one cut short, one with a byte flipped, one of
/// another root are refused.
#[test]
fn proof_files_read_back_and_damage_is_refused() {
    let game = Trias::new(3, 6).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let tables = build(&game, dir.path(), &game.tiers_up_to(2));
    let start = game.start(1).unwrap();
    let found = proven(&game, &tables, &start);
    let path = dir.path().join("p.proof");
    let head = header(&game, &start.to_string());
    let body: Body<games::trias::Position> = Body::Proven { value: found.value.unwrap(), trees: found.trees.clone() };
    file::write(&path, &head, &body).unwrap();
    let opened = file::open(&path).unwrap();
    assert_eq!(opened.header, head);
    assert_eq!(opened.body::<games::trias::Position>().unwrap(), body);
    opened.header.expect(&path, &head).unwrap();
    let e = opened.header.expect(&path, &header(&game, "1,1,1/1,1,1/1,1,0 S")).unwrap_err();
    assert!(matches!(e, ProofFileError::Mismatch { field: "root position", .. }), "{e}");
    let bytes = std::fs::read(&path).unwrap();
    for damaged in [bytes[..bytes.len() - 3].to_vec(), bytes[..40].to_vec(), {
        let mut b = bytes.clone();
        b[bytes.len() / 2] ^= 0x10;
        b
    }] {
        std::fs::write(&path, &damaged).unwrap();
        let e = file::open(&path).err().expect("refused");
        assert!(matches!(e, ProofFileError::Checksum { .. }), "{e}");
    }
    std::fs::write(&path, b"not a proof at all").unwrap();
    assert!(matches!(file::open(&path), Err(ProofFileError::NotProof { .. })));
}

/// A search stopped by its node budget keeps its table; a search resumed from it, on a
/// file, finishes with the same value and fewer nodes than one from nothing.
#[test]
fn a_stopped_search_resumes_from_its_file() {
    let game = Trias::new(8, 2).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let tables = build(&game, dir.path(), &game.tiers_up_to(2));
    let start = game.start(2).unwrap();
    let one = Budget { threads: 1, ..Budget::default() };
    let fresh = prove(&game, &tables, &start, one, Vec::new(), &mut |_| {}).unwrap();
    assert!(fresh.value.is_some() && fresh.nodes > 2000, "{} nodes", fresh.nodes);
    let budget = Budget { nodes: Some(fresh.nodes / 2), ..one };
    let stopped = prove(&game, &tables, &start, budget, Vec::new(), &mut |_| {}).unwrap();
    assert_eq!(stopped.stop, Some(search::proof::Stop::Nodes));
    assert!(stopped.value.is_none() && !stopped.table.is_empty());
    let path = dir.path().join("p.proof");
    file::write(&path, &header(&game, &start.to_string()), &Body::Searching(stopped.table)).unwrap();
    let Body::Searching(table) = file::open(&path).unwrap().body::<games::trias::Position>().unwrap() else {
        panic!("a search under way")
    };
    let resumed = prove(&game, &tables, &start, one, table, &mut |_| {}).unwrap();
    assert_eq!(resumed.value.map(outcome), fresh.value.map(outcome));
    assert!(resumed.nodes < fresh.nodes, "{} nodes resumed, {} fresh", resumed.nodes, fresh.nodes);
    check(&game, &tables, &start, resumed.value.unwrap(), &resumed.trees).unwrap();
}
