//! Awari's rules checked by hand, and the invariants the cyclic engine relies on.

use games::awari::{Awari, Board, BoardError};
use retro::{Game, Location, Move, Turn};

fn board(text: &str) -> Board {
    text.parse().unwrap()
}

/// The boards with a move to `b`, from the game's un-moves (each a capture-free move that
/// passes the turn).
fn parents_of(game: &Awari, b: &Board) -> Vec<Board> {
    let mut out = Vec::new();
    game.unmoves(b, &mut out);
    assert!(out.iter().all(|m| m.turn == Turn::Passes), "{b}: an un-move keeps the turn");
    out.into_iter().map(|m| m.position).collect()
}

/// The legal moves as (pit, board after, captured).
fn moves(b: &Board) -> Vec<(usize, String, u8)> {
    b.moves().iter().map(|&(p, s)| (p, s.board.to_string(), s.captured)).collect()
}

#[test]
fn a_lap_of_twelve_skips_the_emptied_pit() {
    // 12 stones: one in each of the 11 other pits, the 12th in pit 1 (the origin skipped).
    let b = board("12,0,0,0,0,0, 0,0,0,0,1,0");
    let after = b.sow(0);
    assert_eq!(after.captured, 0);
    assert_eq!(after.board.flipped().to_string(), "0,2,1,1,1,1,1,1,1,1,2,1");
    // 23 stones: two laps of 11, the last stone in pit 1 again.
    let after = board("23,0,0,0,0,0, 0,0,0,0,0,1").sow(0);
    assert_eq!(after.board.flipped().to_string(), "0,3,2,2,2,2,2,2,2,2,2,3");
}

#[test]
fn captures_go_backwards_while_two_or_three_on_the_opponents_side() {
    // Pit 6 (6th) sows into the opponent's pits 1 and 2: they make 2 and 3; both taken.
    let b = board("0,0,0,0,0,2, 1,2,0,0,0,1");
    assert_eq!(moves(&b), vec![(5, "0,0,0,0,0,1,0,0,0,0,0,0".to_owned(), 5)]);
    // A gap (a pit of 1) stops the chain.
    let b = board("0,0,0,0,0,3, 1,0,2,0,0,1");
    assert_eq!(moves(&b), vec![(5, "2,1,0,0,0,1,0,0,0,0,0,0".to_owned(), 3)]);
    // The chain stops at the end of the opponent's side, even if the mover's pit holds 2.
    let b = board("0,0,0,0,2,1, 1,0,0,0,0,1");
    assert_eq!(
        moves(&b),
        vec![(4, "0,0,0,0,0,1,0,0,0,0,0,2".to_owned(), 2), (5, "0,0,0,0,0,1,0,0,0,0,2,0".to_owned(), 2)]
    );
    // A last stone on the mover's own side captures nothing, even making 2.
    let b = board("0,0,0,0,1,1, 2,0,0,0,0,1");
    assert!(moves(&b).contains(&(4, "2,0,0,0,0,1,0,0,0,0,0,2".to_owned(), 0)));
}

#[test]
fn taking_every_stone_of_the_opponent_is_legal_only_when_forced() {
    // Pit 6 would capture the opponent's only stones (1 → 2); pit 1 does not: only pit 1.
    let b = board("1,0,0,0,0,1, 1,0,0,0,0,0");
    assert_eq!(moves(&b), vec![(0, "1,0,0,0,0,0,0,1,0,0,0,1".to_owned(), 0)]);
    // Forced: 17 stones in pit 6 fill every opponent pit to 2 and take all twelve.
    let b = board("0,0,0,0,0,17, 0,0,0,0,0,0");
    let all = moves(&b);
    assert_eq!(all, vec![(5, "0,0,0,0,0,0,1,1,1,1,1,0".to_owned(), 12)]);
    // The opponent then has no move: the mover of the finished game takes the rest.
    assert_eq!(board(&all[0].1).outcome(), Some(-5));
}

#[test]
fn a_starving_opponent_must_be_fed_if_possible() {
    // The opponent has nothing: pit 1 (1 stone) does not reach him, pit 6 does.
    let b = board("1,0,0,0,0,1, 0,0,0,0,0,0");
    assert_eq!(moves(&b), vec![(5, "1,0,0,0,0,0,1,0,0,0,0,0".to_owned(), 0)]);
    // No move feeds him: every move is legal, and each leaves him without a move.
    let b = board("1,1,0,0,0,0, 0,0,0,0,0,0");
    let all = moves(&b);
    assert_eq!(all.len(), 2);
    for (_, after, _) in all {
        assert_eq!(board(&after).outcome(), Some(-2));
    }
}

#[test]
fn a_player_without_stones_loses_the_rest() {
    assert_eq!(board("0,0,0,0,0,0, 1,2,0,0,0,4").outcome(), Some(-7));
    assert_eq!(board("0,0,0,0,0,0, 0,0,0,0,0,0").outcome(), Some(0));
    assert_eq!(board("0,0,0,0,0,1, 0,0,0,0,0,0").outcome(), None);
}

/// Every pit is counted, not only the first past the limit.
#[test]
fn too_many_stones_are_counted_in_full() {
    assert_eq!("49,1,0,0,0,0,0,0,0,0,0,0".parse::<Board>(), Err(BoardError::TooManyStones(50)));
    assert_eq!(
        "255,255,255,255,255,255,255,255,255,255,255,255".parse::<Board>().unwrap_err().to_string(),
        "3060 stones on the board; a board here holds at most 48"
    );
    let huge = u32::MAX.to_string();
    assert_eq!(
        format!("{huge},{huge},1,0").parse::<Board>(),
        Err(BoardError::TooManyStones(2 * u64::from(u32::MAX) + 1))
    );
}

#[test]
fn bad_notation_is_an_error() {
    for text in [
        "",
        "1",
        "1,2,3",
        "4,4,4,4,4,4,4,4,4,4,4,4,4",
        "4,4,4,4,4,4,4,4,4,4,4,4,4,4",
        "a,0,0,0,0,0,0,0,0,0,0,0",
        "49,0,0,0,0,0,0,0,0,0,0,0",
    ] {
        assert!(text.parse::<Board>().is_err(), "{text}");
    }
    assert!("10,10,10,10,10,0,0,0,0,0,0,0".parse::<Board>().is_err(), "50 stones");
    // Trysse's and Wari's captured counts, given to Awari: named as such, not miscounted.
    assert_eq!("2,2,2,2 0-0".parse::<Board>(), Err(BoardError::Captures("0-0".into())));
    assert!("2,2,2,é-0".parse::<Board>().is_err(), "a word starting with a wide character");
    assert_eq!(board("4 4 4 4 4 4 4 4 4 4 4 4"), Board::start(6, 4).unwrap());
    assert_eq!(board("4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4"), Board::start(6, 4).unwrap());
    // A pit left out is a slip, not a board of the counts that remain.
    assert_eq!("0,0,0,0,0,2,,1,2,0,0,0,1".parse::<Board>(), Err(BoardError::MissingCount));
    assert_eq!("0,0,0,0,0,1,0,0,0,0,0,1,".parse::<Board>(), Err(BoardError::MissingCount));
}

/// A small deterministic generator (xorshift) so the samples are the same every run.
fn samples(game: &Awari, tier: u8, count: u64) -> Vec<Board> {
    let size = game.tier_size(tier);
    let mut x = 0x9e37_79b9_7f4a_7c15u64 ^ tier as u64;
    (0..count.min(size))
        .map(|i| {
            if size <= count {
                return game.position(Location::at(tier, i));
            }
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            game.position(Location::at(tier, x % size))
        })
        .collect()
}

#[test]
fn ranks_moves_and_unmoves_agree() {
    let game = Awari::new(6, 24).unwrap();
    for tier in 0..=24u8 {
        for b in samples(&game, tier, 300) {
            let location = game.locate(&b);
            assert_eq!((location.tier, game.position(location)), (tier, b));
            let mut out: Vec<Move<Board>> = Vec::new();
            game.moves(&b, &mut out);
            assert_eq!(out.is_empty(), game.end(&b).is_some(), "{b}");
            for mv in &out {
                let child_tier = game.locate(&mv.position).tier;
                assert_eq!(child_tier as i16 + mv.gain, tier as i16, "{b} -> {}", mv.position);
                assert!(mv.gain == 0 || mv.gain >= 2);
                if mv.gain == 0 {
                    // Every in-tier child lists this board among its parents.
                    let parents = parents_of(&game, &mv.position);
                    assert!(parents.contains(&b), "{} does not list {b}", mv.position);
                }
            }
            // Every parent has a capture-free move to this board.
            for p in parents_of(&game, &b) {
                let mut out = Vec::new();
                game.moves(&p, &mut out);
                assert!(out.iter().any(|m| m.gain == 0 && m.position == b), "{p} has no move to {b}");
            }
        }
    }
}

#[test]
fn unmoves_find_every_parent_in_small_tiers() {
    // Exhaustive: every capture-free legal move of every board of a few stones, on every
    // board size, is found back, and nothing else.
    for (m, max) in [(1, 12), (2, 9), (3, 8), (4, 7), (5, 6), (6, 6)] {
        let game = Awari::new(m, max).unwrap();
        for tier in 0..=max as u8 {
            let mut expected = std::collections::HashMap::<Board, Vec<Board>>::new();
            for r in 0..game.tier_size(tier) {
                let b = game.position(Location::at(tier, r));
                for &(_, s) in b.moves().iter() {
                    if s.captured == 0 {
                        expected.entry(s.board).or_default().push(b);
                    }
                }
            }
            for r in 0..game.tier_size(tier) {
                let b = game.position(Location::at(tier, r));
                let mut got = parents_of(&game, &b);
                let listed = got.len();
                got.sort();
                got.dedup();
                assert_eq!(got.len(), listed, "m = {m}: {b} lists a parent twice");
                let mut want = expected.remove(&b).unwrap_or_default();
                want.sort();
                want.dedup();
                assert_eq!(got, want, "m = {m}: {b}");
            }
        }
    }
}

#[test]
fn sowing_on_one_pit_a_row_goes_back_and_forth() {
    // Two pits: every stone lands in the opponent's pit (the origin is skipped).
    assert_eq!((board("4,0").sow(0).board.to_string(), board("4,0").sow(0).captured), ("4,0".to_owned(), 0));
    let three = board("3,0").sow(0);
    assert_eq!((three.board.to_string(), three.captured), ("0,0".to_owned(), 3));
    // 1 stone onto 1 makes 2: taken, and with it everything the opponent had.
    assert_eq!(board("1,1").sow(0).captured, 2);
    // Forced (the only move), so legal; then the opponent has no move and loses the rest.
    assert_eq!(moves(&board("2,0")), vec![(0, "0,0".to_owned(), 2)]);
    assert_eq!(board("0,3").outcome(), Some(-3));
}

#[test]
fn laps_skip_the_origin_on_small_boards() {
    // m = 2: 3 stones exactly fill the other pits; the 4th skips the origin.
    assert_eq!(board("3,0, 0,0").sow(0).board.flipped().to_string(), "0,1,1,1");
    assert_eq!(board("4,0, 0,0").sow(0).board.flipped().to_string(), "0,2,1,1");
    // m = 3: 6 stones go round the 5 others and into pit 2 again; 11 make two laps.
    assert_eq!(board("6,0,0, 0,0,0").sow(0).board.flipped().to_string(), "0,2,1,1,1,1");
    assert_eq!(board("11,0,0, 0,0,0").sow(0).board.flipped().to_string(), "0,3,2,2,2,2");
    // m = 2: 5 stones from pit 2 go 3, 4, 1, (skip 2,) 3, 4: the last makes 2 in pit 4,
    // and pit 3 holds 2 too: 4 taken.
    let s = board("0,5, 0,0").sow(1);
    assert_eq!((s.board.flipped().to_string(), s.captured), ("1,0,0,0".to_owned(), 4));
}

#[test]
fn captures_on_small_boards_stop_at_a_gap_and_at_the_side_end() {
    // m = 3: the last stone makes 2 in pit 6; pit 5 holds 1: only 2 taken.
    let s = board("0,0,3, 1,0,1").sow(2);
    assert_eq!((s.board.flipped().to_string(), s.captured), ("0,0,0,2,1,0".to_owned(), 2));
    // m = 3: pits 4, 5, 6 all make 2 and are taken; the mover's pit 3 (2) is not.
    let s = board("5,1,1, 1,1,1").sow(0);
    assert_eq!((s.board.flipped().to_string(), s.captured), ("0,2,2,0,0,0".to_owned(), 6));
    // m = 3: 7 stones from pit 3 lap once: pit 5 ends with 3, pit 4 with 2: 5 taken; pit 6
    // (1) is past the last stone and stays.
    let s = board("0,0,7, 0,1,0").sow(2);
    assert_eq!((s.board.flipped().to_string(), s.captured), ("1,1,0,0,0,1".to_owned(), 5));
}

#[test]
fn awari_feeding_on_small_boards() {
    // m = 2: pit 2 would take the opponent's only stones; pit 1 keeps him fed: only pit 1.
    assert_eq!(moves(&board("1,1, 1,0")), vec![(0, "1,0,0,2".to_owned(), 0)]);
    // The grand slam is the only move: legal, and it captures.
    assert_eq!(moves(&board("0,1, 1,0")), vec![(1, "0,0,0,0".to_owned(), 2)]);
}

#[test]
fn boards_of_every_size_parse_and_print() {
    for text in ["1,2", "0,1,2,3", "1,1,1,1,1,1,1,1,1,1"] {
        assert_eq!(board(text).to_string(), text);
        assert_eq!(board(text).pits_per_row(), text.split(',').count() / 2);
    }
    assert_eq!(board("3 3 3 3 3 3"), Board::start(3, 3).unwrap());
    assert!(Board::start(0, 1).is_err());
    assert!(Board::start(7, 1).is_err());
    assert!(Board::start(6, 5).is_err(), "60 stones");
}
