//! THI` move generation and game ends, checked against results worked out by hand from
//! `shared/rules/thi.md`.
//!
//! Positions are written in the notation: rows from the top (row n, Black's first row)
//! down to row 1, squares from the a-file, each `-` or its counters bottom to top, then
//! the side to move. On a 3×3 board `"a3,b3,c3/a2,b2,c2/a1,b1,c1 w"`.
//!
//! Reminders used in the reasoning below: the i-th step drops the i-th counter from the
//! bottom; a White counter dropped on row n and a Black counter dropped on row 1 are borne
//! off whatever stands there; a step may not reverse the step before it; one-colour
//! stacks hold at most 3, mixed stacks at most 4.

use games::thi::moves::{self, outcome, Bonus, RuleSet, Rules};
use games::thi::notation::parse;
use games::thi::{Colour, Position, Thi};
use retro::{Game, Turn, Value};

const ORIGINAL: Rules = Rules { set: RuleSet::Original, bonus: Bonus::No };

/// Every rule set, without and with bonus moves.
fn all_rules() -> Vec<Rules> {
    RuleSet::ALL.into_iter().flat_map(|set| [Bonus::No, Bonus::Own].map(|bonus| Rules { set, bonus })).collect()
}

fn pos(text: &str) -> Position {
    parse(text).unwrap_or_else(|e| panic!("{text:?}: {e}"))
}

/// The moves of a position as (name, successor in notation, turn), in the generator's order.
fn moves_of(rules: Rules, text: &str) -> Vec<(String, String, Turn)> {
    let position = pos(text);
    moves::moves(rules, &position)
        .into_iter()
        .map(|(m, s)| (m.name(&position), s.position.to_string(), s.turn))
        .collect()
}

/// The same through `Thi::moves`, which also checks that the game is not over.
fn thi_moves(game: &Thi, text: &str) -> Vec<(String, String, Turn)> {
    let position = pos(text);
    game.named_moves(&position).into_iter().map(|(m, s)| (m.name(&position), s.position.to_string(), s.turn)).collect()
}

/// The moves starting on `square` (e.g. `"b2"`), for positions where other stacks also move.
fn moves_from(rules: Rules, text: &str, square: &str) -> Vec<(String, String, Turn)> {
    let prefix = format!("{square}:");
    moves_of(rules, text).into_iter().filter(|(name, _, _)| name.starts_with(&prefix)).collect()
}

fn expected(list: &[(&str, &str, Turn)]) -> Vec<(String, String, Turn)> {
    list.iter().map(|&(n, p, t)| (n.to_owned(), p.to_owned(), t)).collect()
}

fn names(list: &[(String, String, Turn)]) -> Vec<&str> {
    list.iter().map(|(n, _, _)| n.as_str()).collect()
}

use Turn::{Keeps, Passes};

// ---------------------------------------------------------------------------------------
// Single counters
// ---------------------------------------------------------------------------------------

#[test]
fn single_white_counter_in_the_middle() {
    // A lone counter walks one step in each of the four directions. North from b2 reaches
    // b3, White's bear-off row, so that counter leaves the game. Black's a3 is not
    // touched by any of these steps. Black is to move after each.
    let got = moves_of(ORIGINAL, "b,-,-/-,w,-/-,-,- w");
    let want = expected(&[
        ("b2:N", "b,-,-/-,-,-/-,-,- b", Passes),
        ("b2:E", "b,-,-/-,-,w/-,-,- b", Passes),
        ("b2:S", "b,-,-/-,-,-/-,w,- b", Passes),
        ("b2:W", "b,-,-/w,-,-/-,-,- b", Passes),
    ]);
    assert_eq!(got, want);
}

#[test]
fn single_white_counter_in_a_corner_and_on_an_edge() {
    // a1: south and west lead off the board, north and east remain.
    assert_eq!(
        moves_of(ORIGINAL, "b,-,-/-,-,-/w,-,- w"),
        expected(&[("a1:N", "b,-,-/w,-,-/-,-,- b", Passes), ("a1:E", "b,-,-/-,-,-/-,w,- b", Passes)])
    );
    // c2 (east edge): east is off the board; north lands on c3, row 3, and bears off.
    assert_eq!(
        moves_of(ORIGINAL, "b,-,-/-,-,w/-,-,- w"),
        expected(&[
            ("c2:N", "b,-,-/-,-,-/-,-,- b", Passes),
            ("c2:S", "b,-,-/-,-,-/-,-,w b", Passes),
            ("c2:W", "b,-,-/-,w,-/-,-,- b", Passes),
        ])
    );
}

#[test]
fn single_black_counter_in_the_middle_and_in_a_corner() {
    // Black bears off on row 1: b2:S removes the counter; b2:N puts it on b3, Black's own
    // first row, where it simply stands. White is to move after each.
    assert_eq!(
        moves_of(ORIGINAL, "-,-,-/-,b,-/w,-,- b"),
        expected(&[
            ("b2:N", "-,b,-/-,-,-/w,-,- w", Passes),
            ("b2:E", "-,-,-/-,-,b/w,-,- w", Passes),
            ("b2:S", "-,-,-/-,-,-/w,-,- w", Passes),
            ("b2:W", "-,-,-/b,-,-/w,-,- w", Passes),
        ])
    );
    // c3: north and east are off the board.
    assert_eq!(
        moves_of(ORIGINAL, "-,-,b/-,-,-/w,-,- b"),
        expected(&[("c3:S", "-,-,-/-,-,b/w,-,- w", Passes), ("c3:W", "-,b,-/-,-,-/w,-,- w", Passes)])
    );
}

// ---------------------------------------------------------------------------------------
// Stacks: turning, no reversal, merged paths, a four-step loop
// ---------------------------------------------------------------------------------------

#[test]
fn stack_of_two_turns_but_never_reverses() {
    // ww on b1, two steps. From b1: N→b2, E→c1, (S off), W→a1.
    //   after N (at b2): N→b3 bears the 2nd off; E→c2; W→a2; S would reverse.
    //   after E (at c1): N→c2; E and S off; W would reverse.
    //   after W (at a1): N→a2; W and S off; E would reverse.
    // All five boards differ, so five moves.
    let text = "-,-,b/-,-,-/-,ww,- w";
    let got = moves_of(ORIGINAL, text);
    assert_eq!(
        got,
        expected(&[
            ("b1:NN", "-,-,b/-,w,-/-,-,- b", Passes),
            ("b1:NE", "-,-,b/-,w,w/-,-,- b", Passes),
            ("b1:NW", "-,-,b/w,w,-/-,-,- b", Passes),
            ("b1:EN", "-,-,b/-,-,w/-,-,w b", Passes),
            ("b1:WN", "-,-,b/w,-,-/w,-,- b", Passes),
        ])
    );
    // The reversing paths N-S, E-W and W-E would give these boards; none is offered.
    for reversed in ["-,-,b/-,w,-/-,w,- b", "-,-,b/-,-,-/-,w,w b", "-,-,b/-,-,-/w,w,- b"] {
        assert!(got.iter().all(|(_, p, _)| p != reversed), "a reversing path gave {reversed}");
    }
}

#[test]
fn paths_to_the_same_position_are_one_move_named_by_the_first_path() {
    // ww on b2. b2:NE and b2:NW both bear the first counter off on b3 and the second on
    // c3 or a3: the same empty board, so one move, named NE (E before W). Likewise no
    // other pair coincides:
    //   EN: c2=w, 2nd off.  ES: c2=w, c1=w.  SE: b1=w, c1=w.  SW: b1=w, a1=w.
    //   WN: a2=w, 2nd off.  WS: a2=w, a1=w.
    assert_eq!(
        moves_of(ORIGINAL, "-,-,b/-,ww,-/-,-,- w"),
        expected(&[
            ("b2:NE", "-,-,b/-,-,-/-,-,- b", Passes),
            ("b2:EN", "-,-,b/-,-,w/-,-,- b", Passes),
            ("b2:ES", "-,-,b/-,-,w/-,-,w b", Passes),
            ("b2:SE", "-,-,b/-,-,-/-,w,w b", Passes),
            ("b2:SW", "-,-,b/-,-,-/w,w,- b", Passes),
            ("b2:WN", "-,-,b/w,-,-/-,-,- b", Passes),
            ("b2:WS", "-,-,b/w,-,-/w,-,- b", Passes),
        ])
    );
}

/// White: a1 (w) and b2 (bw: Black below, White on top); Black: c3 and the carried b.
const CARRIER_WHITE: &str = "-,-,b/-,bw,-/w,-,- w";

/// The moves of [`CARRIER_WHITE`], worked out by hand. `bonus` gives the turns under
/// bonus moves (White still has a1 after every move, so a bonus is never cut short).
///
/// a1 (square order first): N→a2, E→b1.
/// b2 "bw" drops b on step 1 and w on step 2:
///   N: b on b3 (Black's own first row, stays); then E→c3 or W→a3 bears the w off:
///      the same board, one move `b2:NE` (own counter off: bonus).
///   E: b on c2; then N→c3 bears w off (bonus), or S→c1 puts w there.
///   S: b on b1 = row 1, Black's bear-off row: White bears off the carried Black counter;
///      then E→c1 or W→a1 (onto a1's w: ww). No own counter off: no bonus.
///   W: b on a2; then N→a3 bears w off (bonus), or S→a1 (ww).
fn carrier_white_moves(bonus: bool) -> Vec<(String, String, Turn)> {
    let (side, turn) = if bonus { ("w", Keeps) } else { ("b", Passes) };
    let kept = |board: &str| format!("{board} {side}");
    let mut out = expected(&[("a1:N", "-,-,b/w,bw,-/-,-,- b", Passes), ("a1:E", "-,-,b/-,bw,-/-,w,- b", Passes)]);
    out.push(("b2:NE".into(), kept("-,b,b/-,-,-/w,-,-"), turn));
    out.push(("b2:EN".into(), kept("-,-,b/-,-,b/w,-,-"), turn));
    out.extend(expected(&[
        ("b2:ES", "-,-,b/-,-,b/w,-,w b", Passes),
        ("b2:SE", "-,-,b/-,-,-/w,-,w b", Passes),
        ("b2:SW", "-,-,b/-,-,-/ww,-,- b", Passes),
    ]));
    out.push(("b2:WN".into(), kept("-,-,b/b,-,-/w,-,-"), turn));
    out.push(("b2:WS".into(), "-,-,b/b,-,-/ww,-,- b".into(), Passes));
    out
}

#[test]
fn white_carries_a_black_counter_and_bears_it_off_on_his_own_first_row() {
    let got = moves_of(ORIGINAL, CARRIER_WHITE);
    assert_eq!(got, carrier_white_moves(false));
    // b2:SE and b2:SW removed the Black counter: Black is down to c3 alone.
    let se = pos(&got.iter().find(|(n, _, _)| n == "b2:SE").unwrap().1);
    assert_eq!(se.count(Colour::Black), 1);
    assert_eq!(se.count(Colour::White), 2);
}

/// The same seen from Black's chair ([`CARRIER_WHITE`] turned half round, colours
/// swapped): b2 "wb" (White below, Black on top) and c3; White a1.
///
/// b2 first (square 4), then c3 (square 8).
/// b2 "wb" drops w on step 1 and b on step 2:
///   N: w on b3 = row 3, White's bear-off row: Black bears White's counter off; then
///      E→c3 (b on b: bb) or W→a3. Different boards, two moves, no own counter off.
///   E: w on c2; then N→c3 (bb), or S→c1: b borne off (own counter: bonus).
///   S: w on b1 (White's own first row, stays); then E→c1 or W→a1 bears b off: the same
///      board, one move `b2:SE` (bonus).
///   W: w on a2; then N→a3, or S→a1: b borne off (bonus).
/// c3: S→c2, W→b3.
fn carrier_black_moves(bonus: bool) -> Vec<(String, String, Turn)> {
    let (side, turn) = if bonus { ("b", Keeps) } else { ("w", Passes) };
    let kept = |board: &str| format!("{board} {side}");
    let mut out = expected(&[
        ("b2:NE", "-,-,bb/-,-,-/w,-,- w", Passes),
        ("b2:NW", "b,-,b/-,-,-/w,-,- w", Passes),
        ("b2:EN", "-,-,bb/-,-,w/w,-,- w", Passes),
    ]);
    out.push(("b2:ES".into(), kept("-,-,b/-,-,w/w,-,-"), turn));
    out.push(("b2:SE".into(), kept("-,-,b/-,-,-/w,w,-"), turn));
    out.push(("b2:WN".into(), "b,-,b/w,-,-/w,-,- w".into(), Passes));
    out.push(("b2:WS".into(), kept("-,-,b/w,-,-/w,-,-"), turn));
    out.extend(expected(&[("c3:S", "-,-,-/-,wb,b/w,-,- w", Passes), ("c3:W", "-,b,-/-,wb,-/w,-,- w", Passes)]));
    out
}

#[test]
fn black_carries_a_white_counter_and_bears_it_off_on_his_own_first_row() {
    assert_eq!(moves_of(ORIGINAL, "-,-,b/-,wb,-/w,-,- b"), carrier_black_moves(false));
}

#[test]
fn four_step_path_may_return_to_its_emptied_start_square() {
    // bbww on a2 (White on top), alone on the board: four steps dropping b, b, w, w.
    // A b dropped on row 1 and a w dropped on row 3 are borne off. Every path, by hand:
    //   N(a3 b) E(b3 b) then E(c3 w off) S(c2 w)               NEES
    //                   or  S(b2 w) then E(c2) / S(b1) / W(a2)  NESE NESS NESW
    //   E(b2 b) N(b3 b) then E(c3 off) S(c2 w) / W(a3 off) S(a2 w)        ENES ENWS
    //           E(c2 b) then N(c3 off) W(b3 off) / S(c1 w) W(b1 w)        EENW EESW
    //           S(b1 off) then E(c1 w) N(c2 w) / W(a1 w) N(a2 w)          ESEN ESWN
    //   S(a1 off) E(b1 off) then N(b2 w) then N(b3 off) / E(c2) / W(a2)   SENN SENE SENW
    //                       or   E(c1 w) N(c2 w)                          SEEN
    // (Each branch has a single way on where only one is listed: the others leave the
    // board or reverse.)
    // NESW walks round b2's block and drops its last counter on a2, the square the stack
    // was lifted from. All fourteen boards differ.
    let rows: [(&str, &str); 14] = [
        ("a2:NEES", "b,b,-/-,-,w/-,-,-"),
        ("a2:NESE", "b,b,-/-,w,w/-,-,-"),
        ("a2:NESS", "b,b,-/-,w,-/-,w,-"),
        ("a2:NESW", "b,b,-/w,w,-/-,-,-"),
        ("a2:ENES", "-,b,-/-,b,w/-,-,-"),
        ("a2:ENWS", "-,b,-/w,b,-/-,-,-"),
        ("a2:EENW", "-,-,-/-,b,b/-,-,-"),
        ("a2:EESW", "-,-,-/-,b,b/-,w,w"),
        ("a2:ESEN", "-,-,-/-,b,w/-,-,w"),
        ("a2:ESWN", "-,-,-/w,b,-/w,-,-"),
        ("a2:SENN", "-,-,-/-,w,-/-,-,-"),
        ("a2:SENE", "-,-,-/-,w,w/-,-,-"),
        ("a2:SENW", "-,-,-/w,w,-/-,-,-"),
        ("a2:SEEN", "-,-,-/-,-,w/-,-,w"),
    ];
    let want: Vec<(String, String, Turn)> =
        rows.iter().map(|(n, b)| (n.to_string(), format!("{b} b"), Passes)).collect();
    assert_eq!(moves_of(ORIGINAL, "-,-,-/bbww,-,-/-,-,- w"), want);
}

// ---------------------------------------------------------------------------------------
// Height limits
// ---------------------------------------------------------------------------------------

#[test]
fn one_colour_limit_of_three_makes_a_step_illegal() {
    // w on b2 next to White's www on c2: b2:E would make wwww. The other three steps stay.
    assert_eq!(
        moves_from(ORIGINAL, "-,-,-/-,w,www/-,-,- w", "b2"),
        expected(&[
            ("b2:N", "-,-,-/-,-,www/-,-,- b", Passes),
            ("b2:S", "-,-,-/-,-,www/-,w,- b", Passes),
            ("b2:W", "-,-,-/w,-,www/-,-,- b", Passes),
        ])
    );
    // Onto Black's bbb the same step makes bbbw: mixed, 4 counters, legal.
    assert_eq!(
        moves_of(ORIGINAL, "-,-,-/-,w,bbb/-,-,- w"),
        expected(&[
            ("b2:N", "-,-,-/-,-,bbb/-,-,- b", Passes),
            ("b2:E", "-,-,-/-,-,bbbw/-,-,- b", Passes),
            ("b2:S", "-,-,-/-,-,bbb/-,w,- b", Passes),
            ("b2:W", "-,-,-/w,-,bbb/-,-,- b", Passes),
        ])
    );
}

#[test]
fn one_colour_limit_cuts_a_path_on_its_second_step() {
    // ww on a1, White's www on b2. a1:N puts w on a2, then N bears off (a3) but E onto
    // www is illegal. a1:E puts w on b1, then N onto www is illegal but E to c1 is fine.
    assert_eq!(
        moves_from(ORIGINAL, "-,-,-/-,www,-/ww,-,- w", "a1"),
        expected(&[("a1:NN", "-,-,-/w,www,-/-,-,- b", Passes), ("a1:EE", "-,-,-/-,www,-/-,w,w b", Passes)])
    );
}

#[test]
fn mixed_limit_of_four_makes_a_step_illegal() {
    // wbwb on c2 is full (4 mixed); a fifth counter is never allowed.
    assert_eq!(
        moves_of(ORIGINAL, "-,-,-/-,w,wbwb/-,-,- w"),
        expected(&[
            ("b2:N", "-,-,-/-,-,wbwb/-,-,- b", Passes),
            ("b2:S", "-,-,-/-,-,wbwb/-,w,- b", Passes),
            ("b2:W", "-,-,-/w,-,wbwb/-,-,- b", Passes),
        ])
    );
    // A counter borne off needs no room: b3 holds Black's full bbb, yet b2:N bears the
    // White counter off there ("whatever stands on the square").
    assert!(names(&moves_of(ORIGINAL, "-,bbb,-/-,w,wbwb/-,-,- w")).contains(&"b2:N"));
    // With three there (wbb) the step is legal and White takes control of c2.
    let step_east = ("b2:E".to_string(), "-,-,-/-,-,wbbw/-,-,- b".to_string(), Passes);
    assert!(moves_of(ORIGINAL, "-,-,-/-,w,wbb/-,-,- w").contains(&step_east));
}

// ---------------------------------------------------------------------------------------
// Bonus moves
// ---------------------------------------------------------------------------------------

#[test]
fn bonus_move_follows_bearing_off_ones_own_counter() {
    // Under every rule set the moves are the same; with bonus moves those that bear off
    // one of the mover's own counters keep the turn (White's b2:NE, b2:EN, b2:WN; Black's
    // b2:ES, b2:SE, b2:WS). Bearing off only an opponent's counter (White's b2:SE/SW,
    // Black's b2:NE/NW) earns nothing. The pass rule sets add a pass only in fixed2-pass.
    for rules in all_rules() {
        let pass_w = ("pass".to_string(), "-,-,b/-,bw,-/w,-,- b".to_string(), Passes);
        let pass_b = ("pass".to_string(), "-,-,b/-,wb,-/w,-,- w".to_string(), Passes);
        let mut want_w = carrier_white_moves(rules.bonus == Bonus::Own);
        let mut want_b = carrier_black_moves(rules.bonus == Bonus::Own);
        if rules.set == RuleSet::Fixed2Pass {
            want_w.push(pass_w);
            want_b.push(pass_b);
        }
        assert_eq!(moves_of(rules, CARRIER_WHITE), want_w, "{rules}");
        assert_eq!(moves_of(rules, "-,-,b/-,wb,-/w,-,- b"), want_b, "{rules}");
    }
}

/// `--bonus any`: bearing off any counter earns the bonus, the opponent's too (White's
/// b2:SE and b2:SW, Black's b2:NE and b2:NW above), and no move's position changes.
#[test]
fn a_bonus_for_any_counter_also_follows_bearing_off_the_opponents() {
    for set in RuleSet::ALL {
        let (own, any) = (Rules { set, bonus: Bonus::Own }, Rules { set, bonus: Bonus::Any });
        for (position, theirs) in [(CARRIER_WHITE, ["b2:SE", "b2:SW"]), ("-,-,b/-,wb,-/w,-,- b", ["b2:NE", "b2:NW"])] {
            let (own_moves, any_moves) = (moves_of(own, position), moves_of(any, position));
            assert_eq!(own_moves.len(), any_moves.len(), "{set:?}");
            for ((name, after, own_turn), (any_name, any_after, any_turn)) in own_moves.iter().zip(&any_moves) {
                // The same board; who moves next may differ.
                let board = |p: &str| p.rsplit_once(' ').map(|(b, _)| b.to_owned());
                assert_eq!((name, board(after)), (any_name, board(any_after)), "{set:?}");
                let want = if theirs.contains(&name.as_str()) { Keeps } else { *own_turn };
                assert_eq!(*any_turn, want, "{set:?} {position} {name}");
            }
        }
    }
}

#[test]
fn bearing_off_the_last_counter_ends_the_game_or_gives_a_bonus_turn_by_rule_set() {
    // w on b2 is White's last counter; b2:N bears it off.
    // original, original-pass, fixed1: the mover with no counter left has won at once,
    //   so no bonus turn: Black is to move and has lost.
    // fixed2, fixed2-pass: the bonus turn comes; White, to move with no counter, cannot
    //   move, the game ends, and White (0) has fewer counters than Black (1): White wins.
    let text = "-,-,b/-,w,-/-,-,- w";
    for set in RuleSet::ALL {
        let rules = Rules { set, bonus: Bonus::Own };
        let got = moves_of(rules, text);
        let (board, turn, value) = match set {
            RuleSet::Fixed2 | RuleSet::Fixed2Pass => ("-,-,b/-,-,-/-,-,- w", Keeps, Value::Win(0)),
            _ => ("-,-,b/-,-,-/-,-,- b", Passes, Value::Loss(0)),
        };
        assert_eq!(got[0], ("b2:N".to_string(), board.to_string(), turn), "{rules}");
        assert_eq!(outcome(rules, &pos(board)), Some(value), "{rules}");
        // The other three steps bear nothing off.
        assert_eq!(names(&got[1..4]), ["b2:E", "b2:S", "b2:W"], "{rules}");
        assert!(got[1..4].iter().all(|(_, p, t)| *t == Passes && p.ends_with(" b")), "{rules}");
    }
}

/// `--bonus any`, the opponent's last counter borne off: under the rule sets in which a
/// player with no counter left ends the game, the end comes before the bonus and the
/// finished game is shown with the opponent to move, as when the mover bears off his
/// own last counter; under `fixed2` the bonus turn comes.
#[test]
fn bearing_off_the_opponents_last_counter_ends_the_game_before_any_bonus() {
    // White: a1, and b2 carrying Black's only counter; b2:SE bears that counter off.
    let text = "-,-,-/-,bw,-/w,-,- w";
    for set in RuleSet::ALL {
        let rules = Rules { set, bonus: Bonus::Any };
        let got = moves_of(rules, text);
        let (_, after, turn) = got.iter().find(|(name, _, _)| name == "b2:SE").unwrap();
        let (board, want_turn, value) = match set {
            // White to move with Black's counters all gone: Black has won.
            RuleSet::Fixed2 | RuleSet::Fixed2Pass => ("-,-,-/-,-,-/w,-,w w", Keeps, None),
            _ => ("-,-,-/-,-,-/w,-,w b", Passes, Some(Value::Win(0))),
        };
        assert_eq!((after.as_str(), *turn), (board, want_turn), "{rules}");
        if let Some(value) = value {
            assert_eq!(outcome(rules, &pos(board)), Some(value), "{rules}");
        }
    }
}

#[test]
fn blocked_player_in_a_bonus_turn() {
    // White: w on b2 and a counter under Black's top on a2. b2:N bears White's own w off;
    // White keeps a counter (under a2), so the bonus turn comes. In it White controls no
    // stack and is blocked: original draws, fixed1 wins for White, fixed2 counts 1 against
    // 1 (draw), original-pass passes, fixed2-pass ends as fixed2 (a pass needs a move).
    let text = "-,-,-/wb,w,-/-,-,- w";
    let after = "-,-,-/wb,-,-/-,-,- w";
    for set in RuleSet::ALL {
        let rules = Rules { set, bonus: Bonus::Own };
        assert_eq!(moves_of(rules, text)[0], ("b2:N".to_string(), after.to_string(), Keeps), "{rules}");
        let (value, moves) = match set {
            RuleSet::Original => (Some(Value::Draw), vec![]),
            RuleSet::OriginalPass => (None, expected(&[("pass", "-,-,-/wb,-,-/-,-,- b", Passes)])),
            RuleSet::Fixed1 => (Some(Value::Win(0)), vec![]),
            RuleSet::Fixed2 | RuleSet::Fixed2Pass => (Some(Value::Draw), vec![]),
        };
        assert_eq!(outcome(rules, &pos(after)), value, "{rules}");
        assert_eq!(moves_of(rules, after), moves, "{rules}");
    }
}

// ---------------------------------------------------------------------------------------
// Passes
// ---------------------------------------------------------------------------------------

/// White has one counter, under Black's top on b2, and controls no stack: blocked.
/// Black has that b2 and a3. (White 1, Black 2.)
const WHITE_BLOCKED: &str = "b,-,-/-,wb,-/-,-,- w";

#[test]
fn original_pass_offers_a_pass_only_to_a_blocked_player() {
    let rules = Rules { set: RuleSet::OriginalPass, bonus: Bonus::No };
    // Blocked: the only move is the pass; nothing changes but the side to move.
    assert_eq!(moves_of(rules, WHITE_BLOCKED), expected(&[("pass", "b,-,-/-,wb,-/-,-,- b", Passes)]));
    let game = Thi::new(3, 3, rules).unwrap();
    assert_eq!(game.end(&pos(WHITE_BLOCKED)), None);
    assert_eq!(names(&thi_moves(&game, WHITE_BLOCKED)), ["pass"]);
    // Not blocked: no pass.
    assert!(moves_of(rules, CARRIER_WHITE).iter().all(|(n, _, _)| n != "pass"));
    // Without the pass option, a blocked player has no move at all.
    for set in [RuleSet::Original, RuleSet::Fixed1, RuleSet::Fixed2, RuleSet::Fixed2Pass] {
        assert!(moves_of(Rules { set, bonus: Bonus::No }, WHITE_BLOCKED).is_empty(), "{set:?}");
    }
}

#[test]
fn fixed2_pass_offers_a_pass_whenever_a_walk_exists() {
    let rules = Rules { set: RuleSet::Fixed2Pass, bonus: Bonus::No };
    let got = moves_of(rules, "b,-,-/-,w,-/-,-,- w");
    assert_eq!(names(&got), ["b2:N", "b2:E", "b2:S", "b2:W", "pass"]);
    assert_eq!(got[4], ("pass".to_string(), "b,-,-/-,w,-/-,-,- b".to_string(), Passes));
    // Plain fixed2 never passes.
    let plain = moves_of(Rules { set: RuleSet::Fixed2, bonus: Bonus::No }, "b,-,-/-,w,-/-,-,- w");
    assert_eq!(names(&plain), ["b2:N", "b2:E", "b2:S", "b2:W"]);
    // A pass in a bonus turn: after b2:N of the bonus position White moves again, and
    // may pass there too.
    let bonus = Rules { set: RuleSet::Fixed2Pass, bonus: Bonus::Own };
    let again = moves_of(bonus, "-,b,b/-,-,-/w,-,- w");
    assert_eq!(names(&again), ["a1:N", "a1:E", "pass"]);
}

/// 4×4, both players blocked: row 1 www everywhere, row 4 bbb everywhere, rows 2 and 3
/// full mixed stacks of 4 (row 2 with a White bottom counter, row 3 with a Black one).
/// Any first step lands on a full stack (illegal), or a row-2 stack's White bottom on a
/// row-1 www (wwww, illegal), or a row-3 stack's Black bottom on a row-4 bbb (illegal).
/// Nobody can bear off, so nobody can move. Tops alternate, so each side controls stacks.
/// White 12 + 10 + 6 = 28 counters, Black 12 + 6 + 10 = 28.
const BOTH_BLOCKED: &str = "bbb,bbb,bbb,bbb/bwbw,bbwb,bwbw,bbwb/wbwb,wwbw,wbwb,wwbw/www,www,www,www w";

#[test]
fn original_pass_both_players_blocked_in_turn_is_a_draw() {
    // The spec: "if both players are blocked in turn, draw". Each blocked player passes;
    // the two passes bring the position back, a repetition, which the solver scores as
    // a draw.
    let rules = Rules { set: RuleSet::OriginalPass, bonus: Bonus::No };
    let white = BOTH_BLOCKED;
    let black = BOTH_BLOCKED.replace(" w", " b");
    assert_eq!(moves_of(rules, white), expected(&[("pass", &black, Passes)]));
    assert_eq!(moves_of(rules, &black), expected(&[("pass", white, Passes)]));
    let game = Thi::new(4, 4, rules).unwrap();
    let values = retro::forward::solve_reachable(&game, &pos(white));
    assert_eq!(values.len(), 2);
    assert_eq!(values[&pos(white)], Value::Draw);
    assert_eq!(values[&pos(&black)], Value::Draw);
}

// ---------------------------------------------------------------------------------------
// Game ends, every rule set
// ---------------------------------------------------------------------------------------

#[test]
fn outcome_of_end_positions_under_every_rule_set() {
    use RuleSet::*;
    use Value::{Draw, Loss, Win};
    // Columns: original, original-pass, fixed1, fixed2, fixed2-pass.
    let cases: &[(&str, &str, [Option<Value>; 5])] = &[
        (
            // Blocked, fewer counters (1 against 2): original draws, original-pass plays
            // on (pass), fixed1 gives the blocked player the win, fixed2 counts: win.
            "blocked, White 1 Black 2",
            WHITE_BLOCKED,
            [Some(Draw), None, Some(Win(0)), Some(Win(0)), Some(Win(0))],
        ),
        (
            // Blocked (White's wwb is Black's), more counters (2 against 1): fixed2 loses.
            "blocked, White 2 Black 1",
            "-,-,-/-,wwb,-/-,-,- w",
            [Some(Draw), None, Some(Win(0)), Some(Loss(0)), Some(Loss(0))],
        ),
        (
            // Blocked, equal counts: fixed2 draws.
            "blocked, White 1 Black 1",
            "-,-,-/-,wb,-/-,-,- w",
            [Some(Draw), None, Some(Win(0)), Some(Draw), Some(Draw)],
        ),
        (
            // 5×5: White's only stack, w on b3, is boxed in by four full wbwb stacks on
            // a3, c3, b2, b4 (all middle rows, so no bear-off): blocked by the limits
            // although he controls a stack. White 1 + 8 = 9, Black 8: fixed2 loses.
            "blocked by full stacks, White 9 Black 8",
            "-,-,-,-,-/-,wbwb,-,-,-/wbwb,w,wbwb,-,-/-,wbwb,-,-,-/-,-,-,-,- w",
            [Some(Draw), None, Some(Win(0)), Some(Loss(0)), Some(Loss(0))],
        ),
        (
            // Both blocked (28 each): as a lone blocked player; fixed2 counts equal.
            "both blocked",
            BOTH_BLOCKED,
            [Some(Draw), None, Some(Win(0)), Some(Draw), Some(Draw)],
        ),
        (
            // The player to move has no counter, the one who just moved has: the player
            // to move bore all his off and wins (first three); fixed2: he cannot move,
            // the game ends, 0 against 1: he wins.
            "to move has none",
            "b,-,-/-,-,-/-,-,- w",
            [Some(Win(0)), Some(Win(0)), Some(Win(0)), Some(Win(0)), Some(Win(0))],
        ),
        (
            // The player who just moved has none left: he won (first three). In fixed2
            // the game only ends when the player to move cannot move; White can, so play
            // goes on.
            "opponent has none",
            "-,-,-/-,-,-/-,w,- w",
            [Some(Loss(0)), Some(Loss(0)), Some(Loss(0)), None, None],
        ),
        (
            // Both have none: the mover bore off his last counter (and the opponent's),
            // so he wins; in fixed2 nobody can move and 0 = 0 draws.
            "both none",
            "-,-,-/-,-,-/-,-,- w",
            [Some(Loss(0)), Some(Loss(0)), Some(Loss(0)), Some(Draw), Some(Draw)],
        ),
        (
            // Game in progress: nobody has won, White can move.
            "in progress",
            CARRIER_WHITE,
            [None, None, None, None, None],
        ),
    ];
    for (label, text, values) in cases {
        let position = pos(text);
        for (set, value) in [Original, OriginalPass, Fixed1, Fixed2, Fixed2Pass].into_iter().zip(values) {
            for bonus in [Bonus::No, Bonus::Own, Bonus::Any] {
                let rules = Rules { set, bonus };
                assert_eq!(outcome(rules, &position), *value, "{label} ({text}) under {rules}");
                // The same seen from the other chair: colours swapped, board turned.
                assert_eq!(outcome(rules, &position.turned()), *value, "{label} turned under {rules}");
                // A finished game has no moves.
                if value.is_some() {
                    // The index is not used by `moves`; the smallest one will do.
                    let game = Thi::new(position.size(), 1, rules).unwrap();
                    assert!(game.named_moves(&position).is_empty(), "{label} under {rules}");
                }
            }
        }
    }
}

// ---------------------------------------------------------------------------------------
// Properties over many positions
// ---------------------------------------------------------------------------------------

#[test]
fn no_counter_ever_stands_on_its_opponents_first_row_and_moves_are_distinct() {
    // Every position of the 3×3 tables with up to 3 counters a side, both sides to move:
    // successors are legal positions (no counter on its bear-off row, stacks within the
    // limits, which `parse` checks), distinct, with no counter added.
    for rules in all_rules() {
        let game = Thi::new(3, 3, rules).unwrap();
        for tier in game.all_tiers() {
            for rank in 0..game.tier_size(tier) {
                for orientation in 0..2 {
                    let p = game.position(retro::Location { tier, rank, orientation });
                    let list = game.named_moves(&p);
                    let mut seen = std::collections::HashSet::new();
                    for (m, s) in &list {
                        let q = &s.position;
                        assert!(q.misplaced_counter().is_none(), "{p} {} gives {q}", m.name(&p));
                        assert_eq!(parse(&q.to_string()).as_ref(), Ok(q));
                        assert!(seen.insert(q.clone()), "{p}: two moves give {q}");
                        for colour in [Colour::White, Colour::Black] {
                            assert!(q.count(colour) <= p.count(colour));
                        }
                    }
                }
            }
        }
    }
}
