//! Kalah's sowing, laps, extra turns, captures, end and leftover rules, checked by hand,
//! and the notation.

use games::kalah::notation::{self, NotationError};
use games::kalah::{Board, Capture, End, Leftovers, Position, PositionError, Rules, Side};

fn pos(text: &str) -> Position {
    notation::parse(text).unwrap_or_else(|e| panic!("{text}: {e}"))
}

/// Plays pit `pit` (1-based) and returns the notation of the result.
fn play(rules: Rules, text: &str, pit: usize) -> String {
    pos(text).play(&rules, pit).unwrap_or_else(|| panic!("{text}: pit {pit} is not legal")).to_string()
}

#[test]
fn notation_round_trips_and_names_the_start() {
    let start = Position::start(6, 4).unwrap();
    assert_eq!(start.to_string(), "4,4,4,4,4,4/4,4,4,4,4,4 0-0 S");
    for text in ["1,0,3/0,2,0 5-7 N", "0/0 3-3 S", "9,0,0,0,0,0,0,0/0,0,0,0,0,0,0,1 0-12 N"] {
        assert_eq!(pos(text).to_string(), text);
    }
}

#[test]
fn bad_notation_is_an_error() {
    assert!(matches!(notation::parse("4,4/4,4 0-0"), Err(NotationError::Shape(_))));
    assert!(matches!(notation::parse("4,4,4,4 0-0 S"), Err(NotationError::Shape(_))));
    assert!(matches!(notation::parse("4,4/4,4 0-0 W"), Err(NotationError::Side(_))));
    assert!(matches!(notation::parse("4,x/4,4 0-0 S"), Err(NotationError::Pit { row: "South", pit: 2, .. })));
    assert!(matches!(notation::parse("4,4/4,256 0-0 S"), Err(NotationError::Pit { row: "North", pit: 2, .. })));
    assert!(matches!(notation::parse("4,4/4,4 0:0 S"), Err(NotationError::Stores(_))));
    assert_eq!(
        notation::parse("4,4/4 0-0 S"),
        Err(NotationError::Position(PositionError::RowLengths { south: 2, north: 1 }))
    );
    assert_eq!(
        notation::parse("1,1,1,1,1,1,1,1,1/1,1,1,1,1,1,1,1,1 0-0 S"),
        Err(NotationError::Position(PositionError::Pits(9)))
    );
    assert_eq!(notation::parse("200,0/100,0 0-0 S"), Err(NotationError::Position(PositionError::Seeds(300))));
    // Stores count towards the game's seeds: a store near its type's limit would overflow.
    assert_eq!(
        notation::parse("2,2,2/2,2,2 65534-0 S"),
        Err(NotationError::Position(PositionError::GameSeeds { pits: 12, stores: 65534 }))
    );
    assert!(notation::parse("2,2,2/2,2,2 200-43 N").is_ok());
    for (text, stores) in [("65536-0", 65536), ("0-99999999999999999999", u32::MAX)] {
        assert_eq!(
            notation::parse(&format!("2,2,2/2,2,2 {text} S")),
            Err(NotationError::Position(PositionError::GameSeeds { pits: 12, stores })),
            "{text}"
        );
    }
    // A count past what is read is not shown as a number the user did not write.
    let past = notation::parse("2,2,2/2,2,2 99999999999-0 S").unwrap_err().to_string();
    assert!(past.contains("4294967295 or more in the stores"), "{past}");
    assert!(matches!(notation::parse("4,4/4,4 -1-0 S"), Err(NotationError::Stores(_))));
    assert_eq!(Position::start(6, 0), Err(PositionError::NoSeeds(0)));
    // Seeds a pit whose product with the pits passes 32 bits: refused, not wrapped to an
    // empty board.
    assert_eq!(Position::start(8, 1 << 28), Err(PositionError::Seeds(1 << 32)));
    assert_eq!(Position::start(1, 1 << 31), Err(PositionError::Seeds(1 << 32)));
}

#[test]
fn sowing_goes_round_counterclockwise_and_skips_the_opponents_store() {
    let r = Rules::EMPTY_CAPTURE;
    // South's pit 2 (4 seeds): pits 3, 4, store, then North's pit 1. North moves.
    assert_eq!(play(r, "4,4,4,4/4,4,4,4 0-0 S", 2), "4,0,5,5/5,4,4,4 1-0 N");
    // 10 seeds from South's pit 1 on 3 pits: 2, 3, store, N1, N2, N3, (North's store
    // skipped), S1 (the emptied origin: no skip under empty-capture), S2, S3, store.
    assert_eq!(play(r, "10,0,0/0,1,0 0-0 S", 1), "1,2,2/1,2,1 2-0 S");
    // North sows too: from North's pit 3 (of 3), 2 seeds: his store, then South's pit 1.
    assert_eq!(play(r, "1,1,1/1,1,2 0-0 N", 3), "2,1,1/1,1,0 0-1 S");
}

#[test]
fn last_seed_in_the_own_store_earns_another_turn() {
    let r = Rules::EMPTY_CAPTURE;
    // The famous opening 3-6 of Kalah(6,4): pit 3 ends in the store.
    let after3 = pos("4,4,4,4,4,4/4,4,4,4,4,4 0-0 S").play(&r, 3).unwrap();
    assert_eq!(after3.to_string(), "4,4,0,5,5,5/4,4,4,4,4,4 1-0 S");
    let after36 = after3.play(&r, 6).unwrap();
    assert_eq!(after36.to_string(), "4,4,0,5,5,0/5,5,5,5,4,4 2-0 N");
    let names: Vec<String> = pos("4,4,4,4,4,4/4,4,4,4,4,4 0-0 S")
        .turns(&r)
        .into_iter()
        .map(|(pits, _)| games::kalah::turn_name(&pits))
        .collect();
    assert!(names.contains(&"3-6".to_owned()) && names.contains(&"3-1".to_owned()));
    assert!(!names.contains(&"3".to_owned()), "3 alone is not a complete turn");
}

#[test]
fn a_lap_skips_the_origin_only_when_the_switch_says_so() {
    // 7 seeds from pit 1 of 3: 2, 3, store, N1, N2, N3, then the origin.
    let text = "7,0,0/0,1,0 0-0 S";
    // empty-capture: the last seed lands in the emptied origin, an empty pit: captures
    // itself and the opposite pit (North's pit 3, now 1 seed).
    assert_eq!(play(Rules::EMPTY_CAPTURE, text, 1), "0,1,1/1,2,0 3-0 N");
    // bassett: the origin is skipped, the last seed goes on to pit 2 (not empty).
    let bassett = Rules { must_leave_move: false, ..Rules::BASSETT };
    assert_eq!(play(bassett, text, 1), "0,2,1/1,2,1 1-0 N");
}

#[test]
fn each_capture_switch() {
    // South's pit 1 holds 1 seed, pit 2 is empty; North's pit 2 faces South's pit 2.
    let with_seeds = "1,0,5/1,3,1 0-0 S";
    let facing_empty = "1,0,5/1,0,1 0-0 S";
    let base = Rules::EMPTY_CAPTURE;
    let empty = Rules { capture: Capture::Empty, ..base };
    let standard = Rules { capture: Capture::Standard, ..base };
    let opposite = Rules { capture: Capture::OppositeOnly, ..base };
    // Seeds opposite: empty and standard take the seed and the 3 opposite.
    assert_eq!(play(empty, with_seeds, 1), "0,0,5/1,0,1 4-0 N");
    assert_eq!(play(standard, with_seeds, 1), "0,0,5/1,0,1 4-0 N");
    // opposite-only takes the 3, the last seed stays.
    assert_eq!(play(opposite, with_seeds, 1), "0,1,5/1,0,1 3-0 N");
    // Nothing opposite: empty still banks the lone seed; the others do nothing.
    assert_eq!(play(empty, facing_empty, 1), "0,0,5/1,0,1 1-0 N");
    assert_eq!(play(standard, facing_empty, 1), "0,1,5/1,0,1 0-0 N");
    assert_eq!(play(opposite, facing_empty, 1), "0,1,5/1,0,1 0-0 N");
    // A pit sown earlier in the same lap is not empty: no capture.
    assert_eq!(play(empty, "0,8,0/0,1,0 0-0 S", 2), "1,1,2/1,2,1 1-0 N");
}

#[test]
fn end_and_leftover_rules() {
    let side_empty = Rules::EMPTY_CAPTURE;
    // South empties his row into his store: the game ends, North keeps his 5.
    let p = pos("0,0,1/2,2,1 3-4 S").play(&side_empty, 3).unwrap();
    assert_eq!(p.to_string(), "0,0,0/2,2,1 4-4 S");
    assert_eq!(p.final_difference(&side_empty), Some(4 - 9));
    assert!(p.board().moves(&side_empty).is_empty());
    // Leftovers to nobody: the stores decide.
    let nobody = Rules { leftovers: Leftovers::None, ..side_empty };
    assert_eq!(p.final_difference(&nobody), Some(0));
    // no-move: South moved into his store and must move again with no seeds: over.
    let no_move = Rules { end: End::NoMove, ..side_empty };
    assert_eq!(p.final_difference(&no_move), Some(-5));
    // no-move: an empty opponent row does not end the game while the mover can move.
    let q = pos("0,2,1/0,0,0 3-4 S");
    assert_eq!(q.final_difference(&side_empty), Some(3 - 4 + 3));
    assert_eq!(q.final_difference(&no_move), None);
    assert_eq!(q.board().moves(&no_move).len(), 2);
}

#[test]
fn must_leave_a_move_forbids_starving_the_opponent_when_possible() {
    let r = Rules::BASSETT;
    // South's pit 4 (1 seed) ends in his empty pit 5 and captures the 3 seeds of North's
    // pit 1, his only ones (opposite-only): it starves North. Pit 1 (2 seeds) does not.
    let p = pos("2,0,0,1,0/3,0,0,0,0 0-0 S");
    let sown = p.board().sow(&r, 3).unwrap();
    assert!(sown.starves);
    let legal: Vec<usize> = p.board().moves(&r).into_iter().map(|(pit, _)| pit + 1).collect();
    assert_eq!(legal, vec![1]);
    let free = Rules { must_leave_move: false, ..r };
    assert_eq!(p.board().moves(&free).len(), 2);
    // When every move starves the opponent, they stay legal.
    let q = pos("0,0,0,0,1/0,0,0,0,0 0-0 S");
    assert_eq!(q.board().moves(&Rules { end: End::NoMove, ..r }).len(), 1);
}

#[test]
fn board_is_the_movers_view() {
    let p = pos("1,2,3/4,5,6 7-8 N");
    assert_eq!(p.board(), Board::new(&[4, 5, 6], &[1, 2, 3]));
    assert_eq!(p.store_difference(), 1);
    assert_eq!(p.to_move(), Side::North);
    assert_eq!(p.board().swapped().swapped(), p.board());
    let pic = notation::picture(&p);
    assert!(pic.contains("North to move"), "{pic}");
}

/// Swapping the rows (the board seen by the other player) on every row length, including
/// a full 16-cell board: the rows change places and nothing else changes.
#[test]
fn swapping_the_rows_on_every_board_size() {
    for m in 1..=8usize {
        let mine: Vec<u8> = (0..m as u8).map(|i| i * 3 + 1).collect();
        let theirs: Vec<u8> = (0..m as u8).map(|i| 200 - i).collect();
        let board = Board::new(&mine, &theirs);
        let swapped = board.swapped();
        assert_eq!(swapped, Board::new(&theirs, &mine), "{m} pits");
        assert_eq!(swapped.mine(), &theirs[..]);
        assert_eq!(swapped.theirs(), &mine[..]);
        assert_eq!(swapped.swapped(), board);
    }
}

/// Sowing against a plain seed-by-seed sowing written here, on random boards of every row
/// length, with piles large enough for several laps, under every capture rule, with and
/// without skipping the emptied pit.
#[test]
fn sowing_agrees_with_dropping_one_seed_at_a_time() {
    let mut draws = crate::draws::Draws::seeded(0x2545_f491_4f6c_dd1d);
    let mut next = |n: u64| draws.below(n);
    for round in 0..60_000 {
        let m = 1 + next(8) as usize;
        let mut cells = [0u8; 16];
        let mut total = 0u32;
        for cell in cells.iter_mut().take(2 * m) {
            // Mostly small piles, now and then one of a few laps.
            let seeds = if next(8) == 0 { next(60) } else { next(5) } as u8;
            if total + seeds as u32 <= 255 {
                *cell = seeds;
                total += seeds as u32;
            }
        }
        let board = Board::from_cells(&cells[..2 * m]);
        let pit = next(m as u64) as usize;
        let capture = [Capture::Standard, Capture::Empty, Capture::OppositeOnly][round % 3];
        let rules = Rules { capture, skip_origin: round % 2 == 1, ..Rules::STANDARD };
        let Some(sown) = board.sow(&rules, pit) else {
            assert_eq!(cells[pit], 0);
            continue;
        };
        // The move list sows each common row length through code compiled for it.
        if board.outcome(&rules).is_none() {
            let listed = board.moves(&rules).into_iter().find(|&(p, _)| p == pit);
            assert_eq!(listed, Some((pit, sown)), "{m} pits, {board:?}");
        }
        // Holes: 0..m the mover's pits, m his store, m+1..=2m the opponent's (cell h−1).
        let mut expected = cells;
        let mut seeds = expected[pit];
        expected[pit] = 0;
        let (mut hole, mut store) = (pit, 0i16);
        while seeds > 0 {
            hole = (hole + 1) % (2 * m + 1);
            if rules.skip_origin && hole == pit {
                continue;
            }
            if hole < m {
                expected[hole] += 1;
            } else if hole == m {
                store += 1;
            } else {
                expected[hole - 1] += 1;
            }
            seeds -= 1;
        }
        if hole < m && expected[hole] == 1 {
            let opposite = 2 * m - 1 - hole;
            let facing = expected[opposite];
            match capture {
                Capture::Empty => {
                    store += facing as i16 + 1;
                    (expected[hole], expected[opposite]) = (0, 0);
                }
                Capture::Standard if facing > 0 => {
                    store += facing as i16 + 1;
                    (expected[hole], expected[opposite]) = (0, 0);
                }
                Capture::OppositeOnly if facing > 0 => {
                    store += facing as i16;
                    expected[opposite] = 0;
                }
                Capture::Standard | Capture::OppositeOnly => {}
            }
        }
        let after = Board::from_cells(&expected[..2 * m]);
        let want = if hole == m { after } else { after.swapped() };
        let case = format!("{board} pit {} {rules:?}", pit + 1);
        assert_eq!((sown.board, sown.gain), (want, store), "{case}");
        assert_eq!(sown.turn == retro::Turn::Keeps, hole == m, "{case}");
        assert_eq!(sown.starves, expected[m..2 * m].iter().all(|&s| s == 0), "{case}");
    }
}

/// Every combination of the switches is named, and its name read back, so that a
/// report's `rules` can be asked for again; presets read by their own names.
#[test]
fn every_rules_name_reads_back() {
    for capture in [Capture::Empty, Capture::Standard, Capture::OppositeOnly] {
        for end in [End::SideEmpty, End::NoMove] {
            for leftovers in [Leftovers::Owner, Leftovers::None] {
                for (skip_origin, must_leave_move) in [(false, false), (false, true), (true, false), (true, true)] {
                    let rules = Rules { capture, skip_origin, end, leftovers, must_leave_move };
                    assert_eq!(Rules::from_name(&rules.name()), Ok(rules), "{}", rules.name());
                }
            }
        }
    }
    assert_eq!(Rules::from_name("Bassett"), Ok(Rules::BASSETT));
    for wrong in ["", "capture-empty", "capture-empty_skip-no_end-no-move_leftovers-owner_leave-maybe", "a_b_c_d_e"] {
        assert!(Rules::from_name(wrong).is_err(), "{wrong:?}");
    }
}

/// Boards of `pits` a row with cells below `below`, drawn from a seeded generator.
fn random_boards(count: usize, pits: usize, below: u64) -> Vec<Board> {
    let mut draws = crate::draws::Draws::seeded(0x5eed);
    let mut board = || Board::from_cells(&(0..2 * pits).map(|_| draws.below(below) as u8).collect::<Vec<_>>());
    (0..count).map(|_| board()).collect()
}

#[test]
fn a_board_packs_into_a_number_of_its_own_on_every_row_length() {
    use retro::Game;
    // Up to six pits a row: the cells themselves, at up to 255 seeds a cell.
    for pits in [4, 6] {
        let game = games::kalah::Kalah::new(pits, 0, Rules::EMPTY_CAPTURE).unwrap();
        for board in random_boards(5_000, pits, 255) {
            assert_eq!(game.packed(&board), Some(board.word()));
        }
    }
    // Seven and eight pits: the cells 6 bits each, back in their bytes.
    for pits in [7, 8] {
        let game = games::kalah::Kalah::new(pits, 0, Rules::EMPTY_CAPTURE).unwrap();
        for board in random_boards(5_000, pits, 64) {
            let packed = game.packed(&board).expect("every pit below 64");
            assert!(packed >> 96 == 0);
            let cells: Vec<u8> = (0..2 * pits).map(|c| (packed >> (6 * c) & 0x3f) as u8).collect();
            assert_eq!(cells, board.cells(), "{pits} pits");
        }
    }
    // Two boards of eight pits that share cells 0 to 11 and differ past them get numbers
    // of their own.
    let game = games::kalah::Kalah::new(8, 0, Rules::EMPTY_CAPTURE).unwrap();
    let a = Board::from_cells(&[3; 16]);
    let mut cells = [3; 16];
    cells[14] = 4;
    assert_ne!(game.packed(&a), game.packed(&Board::from_cells(&cells)));
}

#[test]
fn a_board_with_a_pit_of_64_seeds_on_a_long_row_has_no_number() {
    use retro::Game;
    let game = games::kalah::Kalah::new(8, 0, Rules::EMPTY_CAPTURE).unwrap();
    let mut cells = [1u8; 16];
    cells[9] = 64;
    assert_eq!(game.packed(&Board::from_cells(&cells)), None);
    cells[9] = 63;
    assert!(game.packed(&Board::from_cells(&cells)).is_some());
}

#[test]
fn a_boards_seeds_are_its_cells_summed() {
    for pits in 1..=8 {
        for board in random_boards(2_000, pits, 256) {
            assert_eq!(board.seeds(), board.cells().iter().map(|&c| u32::from(c)).sum::<u32>(), "{board:?}");
        }
        let full = Board::from_cells(&vec![255; 2 * pits]);
        assert_eq!(full.seeds(), 255 * 2 * pits as u32);
    }
}

#[test]
fn a_moves_child_holds_the_seeds_it_did_not_bank() {
    use retro::Game;
    for rules in Rules::PRESETS.map(|(_, r)| r) {
        for pits in [3, 6, 8] {
            let game = games::kalah::Kalah::new(pits, 0, rules).unwrap();
            let mut moves = Vec::new();
            for board in random_boards(3_000, pits, 9).iter().filter(|b| game.end(b).is_none()) {
                moves.clear();
                game.moves(board, &mut moves);
                for step in moves.iter().filter(|m| game.end(&m.position).is_none()) {
                    let tier = game.material_tier(board);
                    assert_eq!(game.material_tier_after(tier, step), game.material_tier(&step.position), "{board:?}");
                }
            }
        }
    }
}

/// A start of more seeds than a game holds is refused with its true count, never
/// wrapped to a small one: 16 pits of 2^28 seeds are 2^32 seeds, not none.
#[test]
fn a_start_too_large_is_refused_with_its_true_count() {
    let refused = Position::start(8, 1 << 28).unwrap_err();
    assert!(matches!(refused, PositionError::Seeds(4_294_967_296)), "{refused:?}");
    assert!(refused.to_string().contains("4294967296 seeds in the pits"), "{refused}");
    assert!(matches!(Position::start(3, 0), Err(PositionError::NoSeeds(0))));
}
