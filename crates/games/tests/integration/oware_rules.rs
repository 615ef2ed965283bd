//! Trysse and Wari checked by hand: feeding, captures, the target, and how each ends.

use games::oware::{NotationError, Oware, Position, PositionError, TargetRules};
use retro::{Game, Value};

/// Trysse and Wari on 2 pits a row with 2 stones each (8 stones): targets 4 and 5.
fn games() -> (Oware, Oware) {
    let trysse = Oware::new(TargetRules::Trysse, 2, 2, None).unwrap();
    let wari = Oware::new(TargetRules::Wari, 2, 2, None).unwrap();
    assert_eq!((trysse.target(), wari.target()), (4, 5));
    (trysse, wari)
}

fn pos(text: &str) -> Position {
    text.parse().unwrap()
}

/// The legal moves as (pit, position after, captured), positions in notation.
fn moves(game: &Oware, text: &str) -> Vec<(usize, String, u8)> {
    let p = pos(text);
    game.sowings(&p).into_iter().map(|(pit, s)| (pit, game.after(&p, s).to_string(), s.captured)).collect()
}

#[test]
fn default_targets() {
    // The source's on the real board; ours elsewhere (docs/rules/awari.md).
    assert_eq!(TargetRules::Trysse.default_target(48), 21);
    assert_eq!(TargetRules::Wari.default_target(48), 25);
    assert_eq!(TargetRules::Trysse.default_target(18), 8);
    assert_eq!(TargetRules::Wari.default_target(18), 10);
    assert_eq!(TargetRules::Trysse.default_target(2), 1);
    assert_eq!(Oware::new(TargetRules::Wari, 3, 3, Some(12)).unwrap().target(), 12);
    assert!(Oware::new(TargetRules::Wari, 3, 3, Some(19)).is_err());
    assert!(Oware::new(TargetRules::Wari, 3, 3, Some(0)).is_err());
    assert!(Oware::new(TargetRules::Wari, 7, 1, None).is_err());
    assert!(Oware::new(TargetRules::Wari, 6, 5, None).is_err());
}

#[test]
fn a_starving_opponent_must_be_fed_if_possible() {
    for game in [games().0, games().1] {
        // Pit 1 (1 stone) stays on the mover's side; pit 2 reaches the opponent: only pit 2.
        assert_eq!(moves(&game, "1,1,0,0 3-3"), vec![(1, "1,0,1,0 3-3".to_owned(), 0)]);
        // An opponent with stones: every non-empty pit.
        assert_eq!(moves(&game, "1,1,1,0 2-3").len(), 2);
    }
}

#[test]
fn taking_every_stone_of_the_opponent_is_allowed() {
    for game in [games().0, games().1] {
        // Pit 2 takes the opponent's only stone (1 → 2); pit 1 would keep him fed. Both legal.
        let all = moves(&game, "3,1,1,0 1-2");
        assert_eq!(all.len(), 2);
        assert!(all.contains(&(1, "0,0,3,0 2-3".to_owned(), 2)), "{all:?}");
        // The victim then begins his turn with no stone: a draw under both (the source's
        // Trysse rule, which Keller's Wari changes do not touch).
        assert_eq!(game.end(&pos("0,0,3,0 2-3")), Some(Value::Draw));
    }
}

#[test]
fn reaching_the_target_wins_at_once() {
    let (trysse, wari) = games();
    // Trysse (target 4): 3 captured, and a capture of 2 makes 5.
    assert_eq!(moves(&trysse, "0,1,1,0 3-3"), vec![(1, "0,0,0,0 3-5".to_owned(), 2)]);
    assert_eq!(trysse.end(&pos("0,0,0,0 3-5")), Some(Value::Loss(0)));
    // The opponent already holds the target: over, even with stones to play.
    assert_eq!(trysse.end(&pos("1,1,0,0 2-4")), Some(Value::Loss(0)));
    assert_eq!(wari.end(&pos("1,1,0,0 2-4")), None, "Wari's target is 5");
    assert_eq!(wari.end(&pos("1,0,0,0 2-5")), Some(Value::Loss(0)));
}

#[test]
fn trysse_plays_on_when_the_mover_cannot_feed_and_the_starved_player_draws() {
    // Target 5, so that 7 stones can be captured with nobody at it.
    let trysse = Oware::new(TargetRules::Trysse, 2, 2, Some(5)).unwrap();
    // The opponent has nothing and pit 1 (1 stone) cannot reach him: the move is played.
    assert_eq!(trysse.end(&pos("1,0,0,0 3-4")), None);
    assert_eq!(moves(&trysse, "1,0,0,0 3-4"), vec![(0, "0,0,0,1 4-3".to_owned(), 0)]);
    // Then he begins his turn with no stone: a draw.
    assert_eq!(trysse.end(&pos("0,0,0,1 4-3")), Some(Value::Draw));
}

#[test]
fn wari_ends_when_the_mover_cannot_feed_and_each_takes_his_own_side() {
    let (_, wari) = games();
    // Mover 3 + his stone = 4, opponent 4: nobody at 5, a draw.
    assert_eq!(wari.end(&pos("1,0,0,0 3-4")), Some(Value::Draw));
    // Mover 4 + 1 = 5 against 3: he reaches the target with more: a win.
    assert_eq!(wari.end(&pos("1,0,0,0 4-3")), Some(Value::Win(0)));
    // Two stones in pit 1 reach the opponent: he must feed him, and the game goes on.
    assert_eq!(wari.end(&pos("2,0,0,0 3-3")), None);
    // A player who begins his turn with no stone (after a capture of all he had): a draw
    // (the source; see docs/rules/awari.md).
    assert_eq!(wari.end(&pos("0,0,2,0 2-4")), Some(Value::Draw));
}

#[test]
fn a_larger_target_can_leave_the_split_short_of_it() {
    // Wari on 2x2 with target 6: 5 against 3 at the end is nobody's: a draw.
    let wari = Oware::new(TargetRules::Wari, 2, 2, Some(6)).unwrap();
    assert_eq!(wari.end(&pos("1,0,0,0 4-3")), Some(Value::Draw));
    assert_eq!(wari.end(&pos("2,0,0,0 4-2")), None);
}

#[test]
fn positions_parse_print_and_are_checked_against_the_game() {
    let (trysse, _) = games();
    assert_eq!(trysse.start().to_string(), "2,2,2,2 0-0");
    assert_eq!(pos(" 2 2 2 2   0-0 "), trysse.start());
    for bad in ["2,2,2,2", "2,2,2 0-0", "2,2,2,2 0", "2,2,2,2 a-0", "2,2,2,2 0-300", "40,9,0,0 0-0", "2,2,2,2 30-30"] {
        assert!(bad.parse::<Position>().is_err(), "{bad}");
    }
    // The captured counts are named whole, not an empty part before a stray `-`.
    assert_eq!("2,2,2,2 -1-0".parse::<Position>(), Err(NotationError::BadCount("-1-0".into())));
    assert_eq!(trysse.check(&pos("2,2,2,2 1-0")), Err(PositionError::Stones { found: 9, expected: 8 }));
    assert_eq!(trysse.check(&pos("1,1,1 2,2,1 0-0")), Err(PositionError::Pits { found: 3, expected: 2 }));
    assert_eq!(trysse.check(&pos("0,0,2,0 4-2")), Err(PositionError::MoverAtTarget { mine: 4, target: 4 }));
    assert_eq!(trysse.check(&pos("0,0,2,0 2-4")), Ok(()));
}

/// The stones on the board and both captured counts are counted in full, however large.
#[test]
fn too_many_stones_are_counted_in_full() {
    assert_eq!("2,2,2,2 300-300".parse::<Position>(), Err(NotationError::TooManyStones(608)));
    assert_eq!("2,2,2,2 0-300".parse::<Position>(), Err(NotationError::TooManyStones(308)));
    let huge = u32::MAX;
    assert_eq!(
        format!("0,0,0,1 {huge}-{huge}").parse::<Position>().unwrap_err().to_string(),
        format!("{} stones in all; a game here has at most 48", 2 * u64::from(huge) + 1)
    );
}

#[test]
fn ranks_cover_every_captured_count_below_the_target() {
    let (trysse, wari) = games();
    for game in [trysse, wari] {
        for tier in game.all_tiers() {
            for rank in 0..game.tier_size(tier) {
                let p = game.position(retro::Location { tier, rank, orientation: 0 });
                assert_eq!(p.total(), 8);
                assert!((p.mine as u32) < game.target(), "{p}");
                assert_eq!(game.locate(&p).rank, rank);
            }
        }
        // Tier 0: all 8 captured; the mover holds 0 to target − 1 of them.
        assert_eq!(game.tier_size(0), game.target() as u64);
        assert_eq!(game.tier_size(8), 165 /* C(11, 3) boards, nothing captured */);
    }
}

#[test]
fn table_keys_name_board_stones_rules_and_target() {
    let (trysse, wari) = games();
    assert_eq!(trysse.table_key(), "oware pits=2 stones=8 rules=trysse target=4");
    assert_eq!(wari.table_key(), "oware pits=2 stones=8 rules=wari target=5");
}
