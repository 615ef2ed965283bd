//! Njaka's sowing, hand-checked: fours captured on the way by their holes' owners, the
//! last counter's four captured by the mover (and in the advanced game the hole changing
//! hands), a relay, a pass and a sowing that never ends. Positions in the notation of
//! `games::njaka::notation` (holes counterclockwise from hole 1, each its counters and
//! owner; the player to move).

use games::njaka::{Direction, Illegal, Njaka, Position, Variant};
use retro::{Game, Move};

fn position(text: &str) -> Position {
    text.parse().unwrap_or_else(|e| panic!("{text}: {e}"))
}

fn standard(h: usize) -> Njaka {
    Njaka::new(h, Variant::Standard, Direction::Counterclockwise, 48).unwrap()
}

fn advanced(h: usize) -> Njaka {
    Njaka::new(h, Variant::Advanced, Direction::Counterclockwise, 48).unwrap()
}

/// The move from hole `hole` (1-based): the position after it and its gain for the mover.
fn play(game: &Njaka, text: &str, hole: usize) -> (String, i16) {
    let p = position(text);
    let (_, m, _) = game
        .named_moves(&p)
        .into_iter()
        .find(|(name, _, _)| *name == hole.to_string())
        .unwrap_or_else(|| panic!("{text}: hole {hole} is not a move"));
    let Move { position, gain, .. } = m;
    (position.to_string(), gain)
}

#[test]
fn a_four_made_on_the_way_goes_to_its_holes_owner() {
    // Hole 1's three counters: hole 2, hole 3 (North's: it makes four, North takes them),
    // hole 4, empty before: the move ends. North captured a set: -1 for South.
    assert_eq!(play(&standard(4), "3s,0s,3n,0n S", 1), ("0s,1s,0n,1n N".to_owned(), -1));
    // The same four in the mover's own hole is his.
    assert_eq!(play(&standard(4), "3s,3s,0n,0n S", 1), ("0s,0s,1n,1n N".to_owned(), 1));
    assert_eq!(play(&standard(6), "3s,3s,0s,0n,0n,0n S", 1), ("0s,0s,1s,1n,0n,0n N".to_owned(), 1));
}

#[test]
fn the_last_counter_making_four_is_the_movers() {
    // Hole 1's two counters: hole 2, then hole 3 (North's) makes four with the last one:
    // South takes them and the move ends.
    assert_eq!(play(&standard(4), "2s,0s,3n,0n S", 1), ("0s,1s,0n,0n N".to_owned(), 1));
    // In the advanced game the hole becomes South's.
    assert_eq!(play(&advanced(4), "2s,0n,3n,0s S", 1), ("0s,1n,0s,0s N".to_owned(), 1));
    // Not when it was already his.
    assert_eq!(play(&advanced(4), "2s,0n,3s,0n S", 1), ("0s,1n,0s,0n N".to_owned(), 1));
}

#[test]
fn a_last_counter_in_an_occupied_hole_is_sown_on() {
    // Hole 1's counter falls into hole 2 (one there): both are lifted and sown into holes
    // 3 and 4, empty: the move ends.
    assert_eq!(play(&standard(6), "1s,1s,0s,0n,0n,5n S", 1), ("0s,0s,1s,1n,0n,5n N".to_owned(), 0));
    // With one set or less on the board the game is over: no move at all.
    assert!(standard(4).named_moves(&position("1s,1s,0n,0n S")).is_empty());
}

#[test]
fn a_player_without_a_move_passes() {
    let game = standard(4);
    let p = position("0s,0s,2n,3n S");
    let moves = game.named_moves(&p);
    assert_eq!(moves.len(), 1);
    assert_eq!(moves[0].0, "pass");
    assert_eq!(moves[0].1.position.to_string(), "0s,0s,2n,3n N");
    assert_eq!(game.end(&p), None);
    // South has nothing to sow but North has: South passes, the game goes on.
    assert_eq!(game.end(&position("0s,0s,0n,5n S")), None);
    // One set or less left: over.
    assert_eq!(game.end(&position("1s,1s,1n,1n S")), Some(0));
}

#[test]
fn a_sowing_that_never_ends_is_not_a_move() {
    // Hole 2's two counters: holes 3 and 4 (relay of three: 1, 2, 3), hole 3 (relay of
    // two: 4, 1), hole 1 (relay of three: 2, 3, 4), … back to the same board.
    let p = position("1s,2s,0n,2n S");
    assert_eq!(p.sow(1, false, false).unwrap_err(), Illegal::Endless);
    assert!(standard(4).named_moves(&p).iter().all(|(name, _, _)| name != "2"));
}

/// Every hole is counted, however far past the limit the first ones go.
#[test]
fn too_many_counters_are_counted_in_full() {
    let error = |text: &str| text.parse::<Position>().unwrap_err().to_string();
    let board = [vec!["40s"; 6], vec!["40n"; 6]].concat().join(",");
    assert_eq!(error(&format!("{board} S")), "480 counters on the board; a board here holds at most 255");
    assert_eq!(error("255s,1s,2n,3n S"), "261 counters on the board; a board here holds at most 255");
}

#[test]
fn the_notation_round_trips_and_names_what_is_wrong() {
    for text in ["2s,2s,2n,2n S", "0s,12n,3s,1n N", "4s,4s,4s,4s,4s,4s,4n,4n,4n,4n,4n,4n S"] {
        assert_eq!(position(text).to_string(), text);
    }
    for bad in ["2s,2s,2n S", "2s,2x,2n,2n S", "2s,2s,2n,2n W", "2s,2s,2n,2n", "200s,100n S", "s,2n S"] {
        assert!(bad.parse::<Position>().is_err(), "{bad}");
    }
    // Owners in either case, as the player to move.
    assert_eq!(position("2S,2s,2N,2n s"), position("2s,2s,2n,2n S"));
    assert_eq!(standard(4).start(2).unwrap().to_string(), "2s,2s,2n,2n S");
    assert_eq!(advanced(4).start(2).unwrap().to_string(), "2s,2n,2s,2n S");
    // The standard game's positions keep its owners.
    assert!(standard(4).check(&position("2s,2n,2s,2n S")).is_err());
}
