//! The engines test themselves on the toy game (`retro::toy`): one variant per engine,
//! each through the whole invariant kit, the verifier and an independent oracle, and a
//! few values worked by hand.

use retro::checkpoint::Checkpoints;
use retro::children::{ChildError, ChildTables};
use retro::kit::{
    check_against_oracle, check_ends, check_lines, check_locations, check_moves_and_unmoves, check_tables,
    check_tier_graph, outcome_oracle, sample_locations, score_oracle, WithoutUnmoves,
};
use retro::solve::{SlotPlacement, SolveError};
use retro::store::{build, BuildError, BuildOptions, Tables};
use retro::toy::{Pile, Toy};
use retro::{Engine, Game, Location, Move, Value};

const STONES: u8 = 7;

/// The position checks of the kit on every position, then the tables built to `STONES`.
fn checked_tables<G: Game<Position = Pile, Tier = u8>>(game: &G, dir: &std::path::Path) -> Tables<G> {
    let tiers: Vec<u8> = (0..=STONES).collect();
    let positions = check_locations(game, &sample_locations(game, &tiers, u64::MAX, 1));
    check_tier_graph(game, &tiers, &positions);
    assert_eq!(check_ends(game, &positions), 3, "the empty pile, on each of 3 cells");
    let (tables, report) = build(game, dir, &[STONES], &retro::solve::Silent, &Default::default()).unwrap();
    assert_eq!(report.tiers_built, tiers.len());
    assert_eq!(check_tables(game, &tables, &tiers), 3 * tiers.len() as u64);
    assert_eq!(check_lines(game, &tables, &positions, 100), positions.len());
    tables
}

fn pile(stones: u8, marker: u8) -> Pile {
    Pile { stones, marker }
}

#[test]
fn outcome_engine() {
    let game = Toy::outcome(3);
    let dir = tempfile::tempdir().unwrap();
    let tables = checked_tables(&game, dir.path());
    let (forward, backward) = check_moves_and_unmoves(&game, &game.positions(STONES));
    assert!(forward > 0 && backward > 0);
    assert_eq!(check_against_oracle(&game, &tables, &outcome_oracle(&game, &game.positions(STONES))), 24);
    // One stone, marker on 1: taking it empties the pile and passes; the opponent cannot
    // move and loses, so this is a win in 1.
    assert_eq!(tables.value(&game, &pile(1, 1)).unwrap(), Value::Win(1));
    // One stone, marker on 0: taking it keeps the turn on an empty pile, which loses;
    // shifting to cell 1 hands the opponent the win in 1 above, so this is a loss in 2.
    assert_eq!(tables.value(&game, &pile(1, 0)).unwrap(), Value::Loss(2));
}

/// Without un-moves the retrograde engines find parents from the moves: the same values.
#[test]
fn retrograde_engines_without_unmoves() {
    let dir = tempfile::tempdir().unwrap();
    let outcome = WithoutUnmoves(Toy::outcome(3));
    let tables = checked_tables(&outcome, &dir.path().join("outcome"));
    assert_eq!(check_moves_and_unmoves(&outcome, &outcome.0.positions(STONES)), (0, 0));
    let oracle = outcome_oracle(&outcome.0, &outcome.0.positions(STONES));
    assert_eq!(check_against_oracle(&outcome, &tables, &oracle), 24);
    let cyclic = WithoutUnmoves(Toy::cyclic_score(3));
    let tables = checked_tables(&cyclic, &dir.path().join("cyclic"));
    let oracle = score_oracle(&cyclic.0, &cyclic.0.positions(STONES));
    assert_eq!(check_against_oracle(&cyclic, &tables, &oracle), 24);
}

#[test]
fn score_engine_on_acyclic_tiers() {
    let game = Toy::score(3);
    let dir = tempfile::tempdir().unwrap();
    let tables = checked_tables(&game, dir.path());
    // No un-moves: the acyclic engine needs none, and the kit skips its tiers.
    assert_eq!(check_moves_and_unmoves(&game, &game.positions(STONES)), (0, 0));
    assert_eq!(check_against_oracle(&game, &tables, &score_oracle(&game, &game.positions(STONES))), 24);
    // Two stones, marker on the last cell (2, which the marker cannot leave): taking
    // both scores 2 and ends the game; taking one leaves the opponent the last, so 2.
    assert_eq!(tables.value(&game, &pile(2, 2)).unwrap(), 2);
}

/// The toy's score variant, altered: every gain multiplied by `gain`, the bound
/// `largest_code` declared on its codes (how the acyclic engine's slots of one byte, a
/// bound below 255, and of two are chosen); or with a bug: tier `hidden`'s table left out
/// of the child tiers every other tier declares, or every tier said to hold one position
/// fewer than it does (`short`: the last one, still reached by moves); its moves in the
/// toy's order or `reversed`.
struct Altered {
    toy: Toy<i16>,
    gain: i16,
    largest_code: Option<u16>,
    hidden: Option<u8>,
    short: bool,
    reversed: bool,
}

impl Altered {
    /// The toy's score variant on 3 cells, unaltered.
    fn score() -> Altered {
        Altered { toy: Toy::score(3), gain: 1, largest_code: None, hidden: None, short: false, reversed: false }
    }
}

impl Game for Altered {
    type Position = Pile;
    type Tier = u8;
    type Value = i16;

    fn table_key(&self) -> String {
        format!("{} gain={}", self.toy.table_key(), self.gain)
    }
    fn tier_size(&self, tier: u8) -> u64 {
        self.toy.tier_size(tier) - u64::from(self.short)
    }
    fn child_tiers(&self, tier: u8) -> Vec<u8> {
        self.toy.child_tiers(tier).into_iter().filter(|&t| Some(t) != self.hidden).collect()
    }
    fn locate(&self, p: &Pile) -> Location<u8> {
        self.toy.locate(p)
    }
    fn position(&self, l: Location<u8>) -> Pile {
        self.toy.position(l)
    }
    fn end(&self, p: &Pile) -> Option<i16> {
        self.toy.end(p)
    }
    fn moves(&self, p: &Pile, out: &mut Vec<Move<Pile>>) {
        let first = out.len();
        self.toy.moves(p, out);
        out[first..].iter_mut().for_each(|m| m.gain *= self.gain);
        if self.reversed {
            out[first..].reverse();
        }
    }
    fn engine(&self, tier: u8) -> Engine {
        self.toy.engine(tier)
    }
    fn largest_code(&self, _tier: u8) -> Option<u16> {
        self.largest_code
    }
}

/// Slots of one byte give the tables slots of two give, byte for byte; a code that does
/// not fit a byte, where the game's bound said it would, is refused and nothing is cut.
#[test]
fn acyclic_slots_of_one_byte_and_of_two() {
    let dir = tempfile::tempdir().unwrap();
    let files = |name: &str, game: &Altered| {
        let (tables, _) = build(game, &dir.path().join(name), &[STONES], &retro::solve::Silent, &Default::default())
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        let oracle = score_oracle(game, &game.toy.positions(STONES));
        assert_eq!(check_against_oracle(game, &tables, &oracle), 24, "{name}");
        (0..=STONES)
            .map(|t| std::fs::read(dir.path().join(name).join(format!("tier-{t}.tbl"))).unwrap())
            .collect::<Vec<_>>()
    };
    let in_bytes = Altered { largest_code: Some(2 * STONES as u16), ..Altered::score() };
    let in_words = Altered::score();
    assert_eq!(files("bytes", &in_bytes), files("words", &in_words));
    // The memory a build is checked against counts the slot's byte.
    assert_eq!(in_words.footprint(STONES).work - in_bytes.footprint(STONES).work, 1.0);
    // A finished table counts the bits its largest code packs into (codes up to 14: 4).
    let bound = in_bytes.footprint(STONES);
    assert_eq!((bound.table, bound.mapped), (0.5, 0.5));
    // Gains of 100 a stone: values past ±127, codes past a byte, in two-byte slots.
    files("large", &Altered { gain: 100, ..Altered::score() });
    let wrong = Altered { gain: 100, largest_code: Some(10), ..Altered::score() };
    match build(&wrong, &dir.path().join("wrong"), &[STONES], &retro::solve::Silent, &Default::default()) {
        Err(BuildError::Solve(SolveError::Range { tier, value })) => {
            assert_eq!(tier, "2");
            assert!(value.parse::<i16>().unwrap().unsigned_abs() >= 128, "{value}");
        }
        other => panic!("expected a value outside the slots' codes, got {:?}", other.err()),
    }
}

/// A game whose moves lead outside its declared tiers ends the acyclic engine's build with
/// an error naming the tier and the child, never a panic or a value read from elsewhere.
#[test]
fn acyclic_engine_refuses_moves_outside_the_tables() {
    let dir = tempfile::tempdir().unwrap();
    let solve = |name: &str, game: &Altered| match build(
        game,
        &dir.path().join(name),
        &[STONES],
        &retro::solve::Silent,
        &Default::default(),
    ) {
        Err(BuildError::Solve(SolveError::Child(e))) => e,
        other => panic!("{name}: expected a child error, got {:?}", other.err()),
    };
    let hidden = Altered { hidden: Some(0), ..Altered::score() };
    assert_eq!(solve("hidden", &hidden), ChildError::UnexpectedTier { tier: "1".into(), child: "0".into() });
    // One stone, marker on cell 1: taking it moves the marker to cell 2, past the short
    // tier 0's end; shifting the marker, to cell 2 past the short tier 1's. The first move
    // looked at fails.
    let short = |reversed| Altered { short: true, reversed, ..Altered::score() };
    let past_end = |child: &str| ChildError::RankOutOfRange { tier: "1".into(), child: child.into(), rank: 2 };
    assert_eq!(solve("short", &short(false)), past_end("0"));
    assert_eq!(solve("short-reversed", &short(true)), past_end("1"));
}

#[test]
fn cyclic_score_engine() {
    let game = Toy::cyclic_score(3);
    let dir = tempfile::tempdir().unwrap();
    let tables = checked_tables(&game, dir.path());
    let (forward, backward) = check_moves_and_unmoves(&game, &game.positions(STONES));
    assert!(forward > 0 && backward > 0);
    assert_eq!(check_against_oracle(&game, &tables, &score_oracle(&game, &game.positions(STONES))), 24);
    // One stone: whoever takes it scores 1 and ends the game, from any cell, and no one
    // gains by shifting instead: the value is 1 everywhere.
    for marker in 0..3 {
        assert_eq!(tables.value(&game, &pile(1, marker)).unwrap(), 1);
    }
}

#[test]
fn a_build_refuses_tables_of_another_variant() {
    // The same directory holding the outcome variant's tables is foreign to the score one.
    let dir = tempfile::tempdir().unwrap();
    build(&Toy::outcome(3), dir.path(), &[2], &retro::solve::Silent, &Default::default()).unwrap();
    assert!(build(&Toy::cyclic_score(3), dir.path(), &[2], &retro::solve::Silent, &Default::default()).is_err());
}

/// The outcome engine in parts: the toy's tiers of 3 positions in 2 parts give the
/// values they give whole; a game without un-moves is refused parts (the parents a scan
/// finds stay in memory), and a scratch file that cannot be made is an error naming it.
#[test]
fn outcome_engine_in_parts() {
    let game = Toy::outcome(3);
    let dir = tempfile::tempdir().unwrap();
    let options = BuildOptions { parts: Some(2), ..BuildOptions::default() };
    let (tables, _) = build(&game, dir.path(), &[STONES], &retro::solve::Silent, &options).unwrap();
    assert_eq!(check_against_oracle(&game, &tables, &outcome_oracle(&game, &game.positions(STONES))), 24);

    let without = WithoutUnmoves(Toy::outcome(3));
    let dir = tempfile::tempdir().unwrap();
    let refused = build(&without, dir.path(), &[STONES], &retro::solve::Silent, &options);
    assert!(matches!(refused, Err(BuildError::Solve(SolveError::PartsNeedUnmoves { .. }))), "{:?}", refused.err());

    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("no such directory").join("scratch");
    let placement = SlotPlacement::Scratch { file: file.clone(), parts: 2 };
    let finished = std::collections::BTreeMap::new();
    let children = ChildTables::new(0, Vec::new(), &finished);
    let silent = &retro::solve::Silent;
    match retro::solve::solve_tier(
        &game,
        0,
        &children,
        &placement,
        (silent, &Checkpoints::none(silent)),
        &Default::default(),
    ) {
        Err(SolveError::Scratch { tier, file: named, .. }) => assert_eq!((tier.as_str(), named), ("0", file)),
        other => panic!("expected a scratch-file error, got {:?}", other.err()),
    }
}
