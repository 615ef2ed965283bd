//! The window search (MTD(f) above the tables) against the full tables: Kalah's instance
//! on one and on several threads, under every preset, and the toy game's acyclic scores.

use games::kalah::{Board, Kalah, Rules};
use retro::solve::Silent;
use retro::store::{self, BuildOptions};
use retro::{Game, Location, Tables};
use search::kalah::{Search, SearchError};
use search::tree::{Budget, Stop};

fn presets() -> [Rules; 3] {
    Rules::PRESETS.map(|(_, r)| r)
}

/// Kalah with `m` pits under `rules`, and its tables up to `seeds` built in a temporary
/// directory (kept alive by the caller: the tables are mapped from it).
fn built(m: usize, seeds: u32, rules: Rules) -> (Kalah, tempfile::TempDir, Tables<Kalah>) {
    let game = Kalah::new(m, seeds, rules).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let (tables, _) = store::build(&game, dir.path(), &[seeds as u16], &Silent, &BuildOptions::default()).unwrap();
    (game, dir, tables)
}

/// The same on several threads sharing each search (deferring busy children, stopping when
/// another thread has the answer): three threads on two cores, so that they interleave.
#[test]
fn search_on_several_threads_equals_the_full_tables() {
    for rules in presets() {
        let (game, _dir, tables) = built(3, 12, rules);
        for probe_seeds in [0, 6] {
            let search = Search::new(&game, &tables, probe_seeds, 10).unwrap().with_threads(3);
            for rank in 0..game.tier_size(12) {
                let board = game.position(Location::at(12, rank));
                let exact = tables.probe(12, rank).unwrap();
                assert_eq!(search.value(&board).unwrap(), exact, "{rules}, tables to {probe_seeds}: {board:?}");
                if rank % 5 == 0 {
                    assert!(search.at_least(&board, exact).unwrap(), "{rules}: {board:?}");
                    assert!(!search.at_least(&board, exact + 1).unwrap(), "{rules}: {board:?}");
                }
            }
            // Many boards at once, each announced once with its own value.
            for threads in [1, 3] {
                let search = Search::new(&game, &tables, probe_seeds, 10).unwrap().with_threads(threads);
                let boards: Vec<_> =
                    (0..game.tier_size(11)).step_by(7).map(|rank| game.position(Location::at(11, rank))).collect();
                let heard = std::sync::Mutex::new(vec![None; boards.len()]);
                let values = search
                    .values(&boards, &|i, v| assert_eq!(heard.lock().unwrap()[i].replace(v), None, "{i} heard twice"))
                    .unwrap();
                for (i, board) in boards.iter().enumerate() {
                    let Location { tier, rank, .. } = game.locate(board);
                    let exact = tables.probe(tier, rank).unwrap();
                    assert_eq!(
                        values[i].exact(),
                        Some(exact),
                        "{rules}, tables to {probe_seeds}, {threads} threads: {board:?}"
                    );
                    assert_eq!(heard.lock().unwrap()[i], Some(exact));
                }
            }
        }
    }
}

/// The weak search (MTD(f) above endgame tables, transposition cutoffs, null-window tests)
/// against the full tables: every board of a tier, under every preset, with the tables cut
/// at several depths and a transposition table small enough to be overwritten often.
#[test]
fn search_equals_the_full_tables_on_every_board_of_a_tier() {
    for rules in presets() {
        let (game, _dir, tables) = built(3, 12, rules);
        for probe_seeds in [0, 5, 9] {
            let search = Search::new(&game, &tables, probe_seeds, 10).unwrap();
            for tier in [10u16, 12] {
                for rank in 0..game.tier_size(tier) {
                    let board = game.position(Location::at(tier, rank));
                    let exact = tables.probe(tier, rank).unwrap();
                    assert_eq!(search.value(&board).unwrap(), exact, "{rules}, tables to {probe_seeds}: {board:?}");
                    assert_eq!(search.value_from(&board, 5).unwrap(), exact, "{rules}: {board:?} from 5");
                    if rank % 7 == 0 {
                        assert!(search.at_least(&board, exact).unwrap(), "{rules}: {board:?}");
                        assert!(!search.at_least(&board, exact + 1).unwrap(), "{rules}: {board:?}");
                    }
                }
            }
            if probe_seeds < 10 {
                assert!(search.nodes() > 0);
            }
        }
    }
}

/// The same on the longest rows (7 and 8 pits), whose sowing is not compiled for their
/// length: every board of a tier, the tables cut low.
#[test]
fn search_equals_the_full_tables_on_the_longest_rows() {
    for rules in presets() {
        for (m, seeds) in [(7, 5), (8, 4)] {
            let (game, _dir, tables) = built(m, seeds, rules);
            let search = Search::new(&game, &tables, 1, 12).unwrap();
            for rank in 0..game.tier_size(seeds as u16) {
                let board = game.position(Location::at(seeds as u16, rank));
                let exact = tables.probe(seeds as u16, rank).unwrap();
                assert_eq!(search.value(&board).unwrap(), exact, "{rules}, {m} pits: {board:?}");
            }
            assert!(search.nodes() > 0);
        }
    }
}

/// A transposition table that grows during the searches (its first part holds 2^17
/// entries; these searches visit a few hundred thousand boards), on one and on three
/// threads: every value stays exact.
#[test]
fn search_stays_exact_while_its_table_grows() {
    let (game, _dir, tables) = built(3, 16, Rules::EMPTY_CAPTURE);
    for threads in [1, 3] {
        let search = Search::new(&game, &tables, 0, 24).unwrap().with_threads(threads);
        let first = search.table_entries();
        for rank in 0..game.tier_size(16) {
            let board = game.position(Location::at(16, rank));
            assert_eq!(search.value(&board).unwrap(), tables.probe(16, rank).unwrap(), "{threads} threads: {board:?}");
        }
        assert!(search.table_entries() > first, "{} boards searched, the table never grew", search.nodes());
        assert!(search.table_entries() as u64 >= search.nodes().min(1 << 23));
    }
}

/// Tables missing a tier the search probes: every kind of search ends with the probe's
/// error (no hang, no panic, no value), on one thread and on three.
#[test]
fn a_missing_table_ends_every_search_with_its_error() {
    let game = Kalah::new(3, 16, Rules::EMPTY_CAPTURE).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let (tables, _) = store::build(&game, dir.path(), &[8], &Silent, &BuildOptions::default()).unwrap();
    let boards: Vec<_> = (0..game.tier_size(16))
        .step_by(97)
        .map(|rank| game.position(Location::at(16, rank)))
        .filter(|board| board.outcome(game.rules()).is_none())
        .collect();
    for threads in [1, 3] {
        // Tiers 9 and 10 were never built; each search starts with an empty transposition
        // table (a value found before the error would answer at once).
        let search = || Search::new(&game, &tables, 10, 16).unwrap().with_threads(threads);
        let missing = |e: SearchError| matches!(e, SearchError::Probe(retro::store::ProbeError::MissingTier(_)));
        assert!(search().values(&boards, &|_, _| {}).is_err_and(missing), "{threads} threads");
        // Boards whose searches meet the missing tiers (both rows full; checked here).
        for board in &[Board::new(&[3, 3, 2], &[3, 3, 2]), Board::new(&[2, 4, 2], &[3, 2, 3])] {
            assert!(search().value(board).is_err_and(missing), "{threads} threads: {board:?}");
            assert!(search().at_least(board, 0).is_err_and(missing), "{threads} threads: {board:?}");
        }
    }
}

/// The bounds a search leaves in its transposition table on a board always hold the exact
/// value, and are that value once it is searched: what a long search's progress shows.
#[test]
fn stored_bounds_hold_the_value() {
    for rules in presets() {
        let (game, _dir, tables) = built(3, 12, rules);
        for rank in (0..game.tier_size(12)).step_by(11) {
            let board = game.position(Location::at(12, rank));
            if board.outcome(&rules).is_some() {
                continue; // a finished board is answered, never searched
            }
            let exact = tables.probe(12, rank).unwrap();
            let search = Search::new(&game, &tables, 6, 16).unwrap().with_threads(1);
            assert_eq!(search.stored_bounds(&board), None, "nothing searched yet");
            // One null-window test proves one side; a test past the board's seeds is
            // settled by them alone and searches nothing.
            search.at_least(&board, exact + 1).unwrap();
            if exact + 1 > board.seeds() as i16 {
                assert_eq!(search.stored_bounds(&board), None, "{rules}: {board:?}: settled by its seeds");
                assert_eq!(search.nodes(), 1, "{rules}: {board:?}: settled by its seeds");
                continue;
            }
            let (lower, upper) = search.stored_bounds(&board).expect("the test stored its bound");
            assert!(
                lower <= exact && exact <= upper && upper <= exact,
                "{rules}: {board:?}: {lower}..{upper}, {exact}"
            );
            search.value(&board).unwrap();
            assert_eq!(search.stored_bounds(&board), Some((exact, exact)), "{rules}: {board:?}");
        }
    }
}

/// A search its budget ends answers bounds that hold the exact value, for one board and
/// for several at once, on one thread and on three, whatever the number of nodes allowed;
/// an answer that must be exact is refused with the budget's reason, never guessed.
#[test]
fn a_spent_budget_answers_bounds_that_hold_the_value() {
    let rules = Rules::STANDARD;
    let (game, _dir, tables) = built(3, 12, rules);
    let boards: Vec<_> = (0..game.tier_size(12))
        .step_by(37)
        .map(|rank| game.position(Location::at(12, rank)))
        .filter(|board| board.outcome(&rules).is_none())
        .collect();
    let exact = |board: &Board| {
        let Location { tier, rank, .. } = game.locate(board);
        tables.probe(tier, rank).unwrap()
    };
    let mut cut_short = 0;
    for threads in [1, 3] {
        for nodes in [1, 20, 300] {
            let budget = Budget { nodes: Some(nodes), ..Budget::default() };
            for board in &boards {
                let search = Search::new(&game, &tables, 4, 12).unwrap().with_threads(threads).with_budget(budget);
                let found = search.bounds(board, 0).unwrap();
                let v = exact(board);
                assert!(
                    found.lower <= v && v <= found.upper,
                    "{nodes} nodes, {threads} threads: {board:?}: {found:?} {v}"
                );
                if found.exact().is_none() {
                    cut_short += 1;
                    assert_eq!(search.spent(), Some(Stop::Nodes));
                    assert!(matches!(search.value(board), Err(SearchError::Spent(Stop::Nodes))));
                }
            }
            let search = Search::new(&game, &tables, 4, 12).unwrap().with_threads(threads).with_budget(budget);
            let found = search.values(&boards, &|_, _| {}).unwrap();
            for (board, found) in boards.iter().zip(found) {
                let v = exact(board);
                assert!(
                    found.lower <= v && v <= found.upper,
                    "{nodes} nodes, {threads} threads: {board:?}: {found:?} {v}"
                );
            }
        }
    }
    assert!(cut_short > boards.len(), "the budgets cut most searches short: {cut_short}");
}

/// A search asked to stop before it starts answers at once, saying so, with the bounds
/// the board's seeds allow.
#[test]
fn a_search_asked_to_stop_answers_at_once() {
    let (game, _dir, tables) = built(3, 12, Rules::EMPTY_CAPTURE);
    let board = Board::new(&[2, 2, 2], &[2, 2, 2]);
    let stop = std::sync::atomic::AtomicBool::new(true);
    let search =
        Search::new(&game, &tables, 4, 12).unwrap().with_budget(Budget { stop: Some(&stop), ..Budget::default() });
    let found = search.bounds(&board, 0).unwrap();
    assert_eq!(search.spent(), Some(Stop::Asked));
    assert!(found.lower < found.upper && found.lower >= -12 && found.upper <= 12, "{found:?}");
    assert!(search.nodes() <= 2, "{} nodes", search.nodes());
}

/// A solver's margin within a deadline, MTD(f) first and then bounds narrowed from both
/// ends, holds the exact margin the full tables give, on 12-seed boards of three pits (as
/// South to move, stores empty) and deadlines from none left to plenty.
#[test]
fn a_deadline_narrows_the_margin_to_bounds_that_hold_it() {
    use games::kalah::{Position, Side};
    use search::kalah::Solver;
    let rules = Rules::STANDARD;
    let (game, _dir, full) = built(3, 12, rules);
    let small_dir = tempfile::tempdir().unwrap();
    let (small, _) = store::build(&game, small_dir.path(), &[4], &Silent, &BuildOptions::default()).unwrap();
    let solver = Solver::from_tables(game.clone(), small);
    for rank in (0..game.tier_size(12)).step_by(13) {
        let board = game.position(Location::at(12, rank));
        if board.outcome(&rules).is_some() {
            continue;
        }
        let exact = i32::from(full.probe(12, rank).unwrap());
        let position = Position::new(board.mine(), board.theirs(), [0, 0], Side::South).unwrap();
        for micros in [0, 200, 2_000, 200_000] {
            let time = std::time::Duration::from_micros(micros);
            let budget = Budget { time: Some(time), ..Budget::default() };
            let search = Search::new(&game, solver.tables(), 4, 14).unwrap().with_budget(budget);
            let margin = solver.margin_bounds(Some(&search), &position).unwrap();
            assert!(margin.lower <= exact && exact <= margin.upper, "{board:?}, {micros} µs: {margin:?} {exact}");
        }
    }
}

/// Bounds narrowed from both ends with time enough reach the exact value, from no
/// MTD(f) at all, on one thread and on three.
#[test]
fn narrowing_from_both_ends_reaches_the_value() {
    let rules = Rules::BASSETT;
    let (game, _dir, tables) = built(3, 12, rules);
    for threads in [1, 3] {
        for rank in (0..game.tier_size(12)).step_by(17) {
            let board = game.position(Location::at(12, rank));
            let exact = tables.probe(12, rank).unwrap();
            let budget = Budget { time: Some(std::time::Duration::from_secs(3600)), ..Budget::default() };
            let search = Search::new(&game, &tables, 4, 14).unwrap().with_threads(threads).with_budget(budget);
            let found = search.narrowed(&board, std::time::Instant::now()).unwrap();
            assert_eq!(found.exact(), Some(exact), "{threads} threads: {board:?}: {found:?}");
        }
    }
}

/// The window search is the library's, not Kalah's: on the toy game's acyclic scores, above
/// tables of the lowest tiers or of none, every position's value equals its table's; and a
/// search made for fewer moves a node than a position has says so.
#[test]
fn the_window_search_of_any_acyclic_score_game_equals_its_tables() {
    use retro::toy::Toy;
    use search::window;
    let game = Toy::score(5);
    let dir = tempfile::tempdir().unwrap();
    let tiers: Vec<u8> = (0..=12).collect();
    let (full, _) = store::build(&game, dir.path(), &tiers, &Silent, &BuildOptions::default()).unwrap();
    for probe_up_to in [0, 3] {
        let below = store::open(&game, dir.path(), &tiers[..=probe_up_to as usize]).unwrap();
        for threads in [1, 3] {
            let search = window::Search::<_, 3>::new(&game, &below, probe_up_to, 10).unwrap().with_threads(threads);
            for p in game.positions(12) {
                let table = full.value(&game, &p).unwrap();
                assert_eq!(search.value(&p).unwrap(), table, "{p}, tables to {probe_up_to}, {threads} threads");
            }
        }
    }
    let narrow = window::Search::<_, 2>::new(&game, &full, 0, 10).unwrap();
    let three_moves = retro::toy::Pile { stones: 5, marker: 1 };
    assert!(matches!(narrow.value(&three_moves), Err(SearchError::Wide { moves: 3, most: 2 })));
}
