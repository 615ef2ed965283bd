//! Kalah's index and score tables: rank round trips, the tables against a plain minimax
//! under every preset, and the table verifier.

use games::kalah::{Board, Kalah, Position, Rules};
use retro::solve::Silent;
use retro::store::{self, BuildOptions};
use retro::verify::verify_tier;
use retro::{Game, Location, Tables};
use std::collections::{HashMap, HashSet};

/// The final store difference for the player to move under perfect play, by plain
/// minimax over full positions (stores included), memoised; no tables, no ranks.
fn minimax(rules: &Rules, p: &Position, memo: &mut HashMap<Position, i32>) -> i32 {
    if let Some(d) = p.final_difference(rules) {
        return d;
    }
    if let Some(&v) = memo.get(p) {
        return v;
    }
    let mut best = i32::MIN;
    for pit in 1..=p.pits() {
        if let Some(child) = p.play(rules, pit) {
            let v = minimax(rules, &child, memo);
            best = best.max(if child.to_move() == p.to_move() { v } else { -v });
        }
    }
    assert!(best > i32::MIN, "{p}: not over, yet no move");
    memo.insert(*p, best);
    best
}

fn presets() -> [Rules; 3] {
    Rules::PRESETS.map(|(_, r)| r)
}

#[test]
fn ranks_round_trip_in_every_tier() {
    let game = Kalah::new(3, 12, Rules::EMPTY_CAPTURE).unwrap();
    for tier in game.tiers_up_to(12) {
        for rank in 0..game.tier_size(tier) {
            let board = game.position(Location::at(tier, rank));
            assert_eq!(board.seeds(), tier as u32);
            assert_eq!(game.locate(&board), Location::at(tier, rank));
        }
    }
    // Compositions of 12 into 6 parts: C(17, 5).
    assert_eq!(game.tier_size(12), 6188);
    // A board ranks the same whatever the index was built for.
    let bigger = Kalah::new(3, 30, Rules::EMPTY_CAPTURE).unwrap();
    let b = Board::new(&[1, 0, 4], &[2, 2, 3]);
    assert_eq!(game.locate(&b), bigger.locate(&b));
}

#[test]
fn moves_stay_in_the_tier_or_go_down() {
    for rules in presets() {
        let game = Kalah::new(3, 9, rules).unwrap();
        let mut moves = Vec::new();
        for tier in game.tiers_up_to(9) {
            for rank in 0..game.tier_size(tier) {
                moves.clear();
                let board = game.position(Location::at(tier, rank));
                if game.end(&board).is_none() {
                    game.moves(&board, &mut moves);
                    assert!(!moves.is_empty(), "{board:?}");
                }
                for mv in &moves {
                    assert!(game.locate(&mv.position).tier <= tier);
                    assert_eq!(mv.position.seeds() + mv.gain as u32, tier as u32, "seeds are kept");
                }
            }
        }
    }
}

#[test]
fn tables_equal_plain_minimax_under_every_preset() {
    for rules in presets() {
        for (m, n) in [(1, 1), (1, 5), (2, 2), (2, 4), (3, 2), (3, 3), (4, 2)] {
            let start = Position::start(m, n).unwrap();
            let total = 2 * m as u32 * n;
            let (game, _dir, tables) = built(m, total, rules);
            // Every position reachable from the start, stores and side included.
            let mut memo = HashMap::new();
            minimax(&rules, &start, &mut memo);
            let mut seen = HashSet::from([start]);
            let mut stack = vec![start];
            while let Some(p) = stack.pop() {
                for pit in 1..=m {
                    if let Some(c) = p.play(&rules, pit) {
                        if seen.insert(c) {
                            stack.push(c);
                        }
                    }
                }
            }
            for p in &seen {
                let table = tables.value(&game, &p.board()).unwrap() as i32 + p.store_difference();
                assert_eq!(table, minimax(&rules, p, &mut memo), "{rules}: Kalah({m},{n}) at {p}");
            }
            // Lines over the tables' boards, extra turns (`Turn::Keeps`) among their moves.
            let boards: Vec<_> = seen.iter().map(|p| p.board()).collect();
            assert_eq!(retro::kit::check_lines(&game, &tables, &boards, 1000), boards.len(), "{rules}: Kalah({m},{n})");
        }
    }
}

/// Kalah with `m` pits under `rules`, and its tables up to `seeds` built in a temporary
/// directory (kept alive by the caller: the tables are mapped from it).
fn built(m: usize, seeds: u32, rules: Rules) -> (Kalah, tempfile::TempDir, Tables<Kalah>) {
    let game = Kalah::new(m, seeds, rules).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let (tables, _) = store::build(&game, dir.path(), &[seeds as u16], &Silent, &BuildOptions::default()).unwrap();
    (game, dir, tables)
}

#[test]
fn tables_equal_minimax_on_every_board_of_a_tier() {
    // Not only reachable positions: every board with 7 seeds on 3 pits a row, and the
    // longest rows, whose sowing is not compiled for their length (docs/results.md gives
    // margins of Kalah(7, n) and (8, n)).
    for rules in presets() {
        for (m, seeds) in [(3, 7), (7, 6), (8, 5)] {
            let (game, _dir, tables) = built(m, seeds, rules);
            let mut memo = HashMap::new();
            for rank in 0..game.tier_size(seeds as u16) {
                let b = game.position(Location::at(seeds as u16, rank));
                let p = Position::new(b.mine(), b.theirs(), [0, 0], games::kalah::Side::South).unwrap();
                let table = tables.probe(seeds as u16, rank).unwrap() as i32;
                assert_eq!(table, minimax(&rules, &p, &mut memo), "{rules}: {p}");
            }
        }
    }
}

#[test]
fn tables_pass_the_verifier_and_a_rebuild_reuses_them() {
    for rules in presets() {
        let game = Kalah::new(4, 12, rules).unwrap();
        let dir = tempfile::tempdir().unwrap();
        let (tables, report) = store::build(&game, dir.path(), &[12], &Silent, &BuildOptions::default()).unwrap();
        assert_eq!(report.tiers_built, 13);
        assert_eq!(report.positions, game.positions_up_to(12));
        for tier in game.tiers_up_to(12) {
            verify_tier(&game, &tables, tier).unwrap_or_else(|e| panic!("{rules}: {e}"));
        }
        let (_, again) = store::build(&game, dir.path(), &[12], &Silent, &BuildOptions::default()).unwrap();
        assert_eq!((again.tiers_built, again.tiers_reused), (0, 13));
    }
}

#[test]
fn tables_of_other_rules_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let game = Kalah::new(2, 4, Rules::EMPTY_CAPTURE).unwrap();
    store::build(&game, dir.path(), &[4], &Silent, &BuildOptions::default()).unwrap();
    let other = Kalah::new(2, 4, Rules::STANDARD).unwrap();
    let err = store::build(&other, dir.path(), &[4], &Silent, &BuildOptions::default()).err().expect("refused");
    assert!(err.to_string().contains("game and rules"), "{err}");
}

/// Kalah asking for the outcome engine, which cannot solve score values.
struct KalahByTheOutcomeEngine(Kalah);

impl Game for KalahByTheOutcomeEngine {
    type Position = Board;
    type Tier = u16;
    type Value = i16;

    fn table_key(&self) -> String {
        self.0.table_key()
    }
    fn tier_size(&self, tier: u16) -> u64 {
        self.0.tier_size(tier)
    }
    fn child_tiers(&self, tier: u16) -> Vec<u16> {
        self.0.child_tiers(tier)
    }
    fn locate(&self, board: &Board) -> Location<u16> {
        self.0.locate(board)
    }
    fn position(&self, location: Location<u16>) -> Board {
        self.0.position(location)
    }
    fn end(&self, board: &Board) -> Option<i16> {
        self.0.end(board)
    }
    fn moves(&self, board: &Board, out: &mut Vec<retro::Move<Board>>) {
        self.0.moves(board, out)
    }
    fn engine(&self, _tier: u16) -> retro::Engine {
        retro::Engine::Outcome
    }
}

#[test]
fn an_engine_that_does_not_fit_the_values_is_refused_before_anything_is_written() {
    let dir = tempfile::tempdir().unwrap();
    let game = KalahByTheOutcomeEngine(Kalah::new(2, 4, Rules::EMPTY_CAPTURE).unwrap());
    let err = store::build(&game, dir.path(), &[4], &Silent, &BuildOptions::default()).err().expect("refused");
    assert!(matches!(err, store::BuildError::EngineMismatch { .. }), "{err}");
    assert!(err.to_string().contains("the outcome engine cannot solve values coded as score"), "{err}");
    assert!(!store::tier_file(dir.path(), 0).exists());
}

/// Kalah(3, ·) tables up to 18 seeds under every preset: `preset  tier  entries
/// codes-xxh3`, pinned in `data/golden/kalah-tables.tsv`. Regenerate with `UPDATE_GOLDEN=1`
/// only after a deliberate change of the index or the format, and say so in the commit.
#[test]
fn small_tables_match_their_golden_checksums() {
    use std::fmt::Write as _;
    let mut text = String::from(
        "# Kalah m=3 tables: checksums of the value codes (XXH3-64 of each code as two little-endian bytes, in rank order). Regenerate: UPDATE_GOLDEN=1 cargo test -p mancala-games --test kalah_tables\npreset\ttier\tentries\tcodes_xxh3\n",
    );
    for (name, rules) in Rules::PRESETS {
        let (_, _dir, tables) = built(3, 18, rules);
        for &tier in tables.tiers() {
            let table = tables.table(tier).unwrap();
            writeln!(text, "{name}\t{tier}\t{}\t{:016x}", table.entries(), table.codes_checksum().unwrap()).unwrap();
        }
    }
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../data/golden/kalah-tables.tsv");
    if std::env::var_os("UPDATE_GOLDEN").is_some() {
        std::fs::write(&path, &text).unwrap();
    }
    let golden = std::fs::read_to_string(&path).expect("data/golden/kalah-tables.tsv");
    assert!(golden == text, "tables differ from {}; diff against a fresh UPDATE_GOLDEN=1 run", path.display());
}

#[test]
fn next_position_steps_through_the_rank_order() {
    for m in [1, 2, 3, 6] {
        let game = Kalah::new(m, 9, Rules::EMPTY_CAPTURE).unwrap();
        for tier in game.tiers_up_to(9) {
            let mut board = game.position(Location::at(tier, 0));
            for rank in 1..game.tier_size(tier) {
                board = game.next_position(tier, rank, &board);
                assert_eq!(board, game.position(Location::at(tier, rank)), "m={m} tier {tier} rank {rank}");
            }
        }
    }
}
