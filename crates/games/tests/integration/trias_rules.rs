//! Trias's sowing, hand-checked: every kind of lap ending, the two-lap rule, North's
//! circuit and a sowing that never ends. Positions in the notation of
//! `games::trias::notation` (North's row, the middle row, South's row; files from South's
//! left).

use games::trias::{Illegal, Lap, LapEnd, Position, Side, Trias};
use retro::{Game, Value};

fn position(text: &str) -> Position {
    text.parse().unwrap_or_else(|e| panic!("{text}: {e}"))
}

/// The laps of a move, each as `from stones last end`, with cells named as on the board.
fn laps(text: &str, file: usize) -> (Vec<String>, u8) {
    let p = position(text);
    let (laps, removed) = p.laps(file).unwrap_or_else(|e| panic!("{text}, hole {file}: {e}"));
    let shown = laps
        .iter()
        .map(|&Lap { from, stones, last, end }| {
            let end = match end {
                LapEnd::Relay => "relay".to_owned(),
                LapEnd::Transfer(own) => format!("transfer to {}", p.cell_name(own)),
                LapEnd::Capture(hole, n) => format!("capture {n} from {}", p.cell_name(hole)),
                LapEnd::Removed => "removed".to_owned(),
            };
            format!("{} {stones} {} {end}", p.cell_name(from), p.cell_name(last))
        })
        .collect();
    (shown, removed)
}

/// The position after the move from `file`.
fn after(text: &str, file: usize) -> String {
    let p = position(text);
    let found = p.moves().find(|&(f, _)| f == file);
    found.unwrap_or_else(|| panic!("{text}: hole {file} is not a legal move")).1.to_string()
}

#[test]
fn a_lap_ending_in_an_occupied_hole_is_relayed() {
    // S2's two stones: S3, then M3, which held one: its two are sown on to M2 and M1;
    // M1 was empty, and file 1 is empty on both sides: that stone leaves the board.
    let start = "0,0,0/0,0,1/0,2,0 S";
    assert_eq!(laps(start, 2), (vec!["S2 2 M3 relay".to_owned(), "M3 2 M1 removed".to_owned()], 1));
    assert_eq!(after(start, 2), "0,0,0/0,1,0/0,0,1 N");
}

#[test]
fn a_lap_ending_in_the_middle_captures_the_opponents_hole_of_that_file() {
    // As above, but North's hole of file 1 holds three: they leave the board and the
    // last stone stays in M1.
    let start = "3,0,0/0,0,1/0,2,0 S";
    assert_eq!(laps(start, 2), (vec!["S2 2 M3 relay".to_owned(), "M3 2 M1 capture 3 from N1".to_owned()], 3));
    assert_eq!(after(start, 2), "0,0,0/1,1,0/0,0,1 N");
}

#[test]
fn a_last_stone_in_the_middle_moves_onto_the_own_hole_which_is_sown_on() {
    // M1 empty, N1 empty, S1 occupied: the stone joins S1's and those two are sown:
    // S2, S3 (occupied: relay), M3, M2 (occupied: relay), M1, S1, empty since the
    // transfer: the stone leaves the board.
    let start = "0,0,0/0,0,1/1,2,0 S";
    assert_eq!(
        laps(start, 2),
        (
            vec![
                "S2 2 M3 relay".to_owned(),
                "M3 2 M1 transfer to S1".to_owned(),
                "S1 2 S3 relay".to_owned(),
                "S3 2 M2 relay".to_owned(),
                "M2 2 S1 removed".to_owned(),
            ],
            1
        )
    );
    assert_eq!(after(start, 2), "0,0,0/1,0,1/0,1,0 N");
}

#[test]
fn a_last_stone_in_an_empty_outer_hole_leaves_the_board() {
    let start = "0,0,0/1,0,0/0,0,3 S";
    assert_eq!(laps(start, 3), (vec!["S3 3 M1 relay".to_owned(), "M1 2 S2 removed".to_owned()], 1));
    assert_eq!(after(start, 3), "0,0,0/0,1,1/1,0,0 N");
}

#[test]
fn a_hole_whose_first_lap_ends_the_move_is_not_a_move() {
    // Ends in the middle, both holes of the file empty.
    assert_eq!(position("0,0,0/0,0,0/0,0,1 S").laps(3), Err(Illegal::OneLap));
    // Ends in the middle opposite an occupied opponent's hole: a capture at once.
    assert_eq!(position("0,0,1/0,0,0/0,0,1 S").laps(3), Err(Illegal::OneLap));
    // Ends in an empty hole of the own row.
    assert_eq!(position("0,0,0/0,0,0/2,0,0 S").laps(1), Err(Illegal::OneLap));
    assert_eq!(position("0,0,0/0,0,0/2,0,0 S").laps(2), Err(Illegal::Empty));
    // With no move at all the player to move has lost.
    let stuck = position("0,0,1/0,0,0/0,0,1 S");
    assert_eq!(stuck.moves().count(), 0);
    let game = Trias::new(3, 2).unwrap();
    assert_eq!(game.end(&stuck), Some(Value::Loss(0)));
    assert_eq!(game.end(&position("0,0,0/0,0,1/0,2,0 S")), None);
}

#[test]
fn north_sows_his_row_right_to_left_then_the_middle_left_to_right() {
    // South's first example turned round: North's hole 2 (his file 2 from his left is
    // N2; his 1 is N3): N1, then M1 (occupied: relay), M2, M3; file 3 is empty on both
    // sides, so the last stone leaves.
    let start = "0,2,0/1,0,0/0,0,0 N";
    assert_eq!(laps(start, 2), (vec!["N2 2 M1 relay".to_owned(), "M1 2 M3 removed".to_owned()], 1));
    assert_eq!(after(start, 2), "1,0,0/0,1,0/0,0,0 S");
    // It is South's first example seen from the other side: the same board from the
    // mover, so the same rank in the tables.
    let south = position("0,0,0/0,0,1/0,2,0 S");
    assert_eq!(position(start).cells(), south.cells());
    let game = Trias::new(3, 3).unwrap();
    assert_eq!(game.locate(&position(start)).rank, game.locate(&south).rank);
}

#[test]
fn a_sowing_that_never_ends_is_not_a_move() {
    // One hole a row: S1's three stones go M1, S1, M1 (relay: S1, M1), M1 was empty,
    // N1 is empty and S1 holds two: the stone joins them and S1's three are sown again,
    // from the same board: for ever.
    assert_eq!(position("0/0/3 S").laps(1), Err(Illegal::Endless));
    // A longer cycle (ten laps before the board repeats) on two holes a row.
    assert_eq!(position("0,0/1,3/0,1 S").laps(2), Err(Illegal::Endless));
    assert_eq!(position("0,0/1,3/0,1 S").moves().count(), 0);
}

#[test]
fn an_endless_sowing_of_the_source_board_is_found_without_waiting_for_the_board_to_repeat() {
    // Hole 3's sowing never ends, but its board first repeats after about 1.2 × 10⁹
    // laps; seen from the lifted hole it repeats 24 times sooner, every lap a relay.
    let cells =
        [3, 1, 2, 0, 2, 8, 5, 6, 0, 2, 3, 0, 1, 5, 1, 0, 5, 4, 0, 12, 1, 3, 0, 2, 4, 0, 8, 0, 4, 6, 1, 0, 0, 1, 1, 3];
    let p = Position::from_cells(&cells, Side::South);
    assert_eq!(p.laps(3).map(|(laps, _)| laps.len()), Err(Illegal::Endless));
    assert_eq!(p.moves().map(|(file, _)| file).collect::<Vec<_>>(), [2, 5, 6, 8, 11]);
}

/// A board of the source's size where hole 1's sowing neither ends nor is proven endless
/// within billions of laps.
const UNDECIDED_HOLE_1: [u8; 36] =
    [8, 2, 8, 8, 1, 0, 1, 2, 1, 2, 9, 0, 1, 3, 2, 12, 0, 3, 0, 4, 12, 12, 2, 1, 2, 0, 2, 0, 0, 1, 6, 6, 6, 6, 1, 6];

#[test]
fn a_sowing_left_undecided_within_the_lap_limit_is_said_to_be() {
    let p = Position::from_cells(&UNDECIDED_HOLE_1, Side::South);
    let (moves, decided) = p.moves_decided();
    assert!(!decided);
    assert!(moves.iter().all(|&(file, _)| file != 1));
    // The other holes are decided as the exact walk decides them.
    for (file, after) in &moves {
        assert!(ends_by_the_plain_walk(&p, *file));
        assert_eq!(p.laps(*file).map(|(_, removed)| removed > 0), Ok(true));
        assert_eq!(after.to_move(), Side::North);
    }
    // Another hole is legal, so the mover is not out of moves either way.
    assert_eq!(p.end_decided(), None);
    // Nothing undecided where every sowing ends or is proven endless soon.
    let small = position("0,0/1,3/0,1 S");
    assert_eq!(small.moves_decided(), (Vec::new(), true));
    assert_eq!(small.end_decided(), Some(Value::Loss(0)));
}

/// Whether the sowing of `file` ends, found the plain way: every state "circuit, hole
/// to lift" is kept until one repeats.
fn ends_by_the_plain_walk(p: &Position, file: usize) -> bool {
    let k = p.holes();
    let circuit = 2 * k;
    let mut cells = p.cells().to_vec();
    let mut from = file - 1;
    let mut seen = std::collections::HashSet::new();
    let mut first = true;
    while seen.insert((cells[..circuit].to_vec(), from)) {
        let stones = cells[from] as usize;
        cells[from] = 0;
        let mut at = from;
        for _ in 0..stones {
            at = (at + 1) % circuit;
            cells[at] += 1;
        }
        let own = circuit - 1 - at;
        if cells[at] > 1 {
            from = at;
        } else if at >= k && cells[circuit + own] == 0 && cells[own] > 0 {
            cells[at] = 0;
            cells[own] += 1;
            from = own;
        } else {
            return !first;
        }
        first = false;
    }
    false
}

#[test]
fn legal_moves_agree_with_a_plain_walk_over_every_state() {
    // Many stones on few holes: where endless sowings, turned and unturned, are common.
    let mut draws = crate::draws::Draws::seeded(0x9e37_79b9_7f4a_7c15);
    let mut next = |bound: u64| draws.below(bound);
    let mut endless = 0;
    for _ in 0..20_000 {
        let k = 1 + next(4) as usize;
        let cells: Vec<u8> = (0..3 * k).map(|_| next(7) as u8).collect();
        let p = Position::from_cells(&cells, Side::South);
        let legal: Vec<usize> = p.moves().map(|(file, _)| file).collect();
        for file in (1..=k).filter(|&f| cells[f - 1] > 0) {
            let ends = ends_by_the_plain_walk(&p, file);
            assert_eq!(legal.contains(&file), ends, "{p}, hole {file}");
            endless += usize::from(p.laps(file) == Err(Illegal::Endless));
        }
    }
    assert!(endless > 100, "only {endless} endless sowings drawn");
}

#[test]
fn the_notation_round_trips_and_names_what_is_wrong() {
    for text in ["2,2,2,2/2,2,2,2/2,2,2,2 S", "0,12,0/1,0,0/0,0,3 N", "5/0/0 N"] {
        assert_eq!(position(text).to_string(), text);
    }
    for bad in ["2,2/2,2 S", "2,2/2,2/2 S", "2,2/2,x/2,2 S", "2,2/2,2/2,2 W", "2,2/2,2/2,2", "200,100/0,0/0,0 S"] {
        let error = bad.parse::<Position>().unwrap_err().to_string();
        assert!(!error.is_empty(), "{bad}");
    }
    let start = Trias::new(4, 24).unwrap().start(2).unwrap();
    assert_eq!(start.to_string(), "2,2,2,2/2,2,2,2/2,2,2,2 S");
}

/// Every hole is counted, however far past the limit the first ones go, in a type no
/// board's sum can overflow.
#[test]
fn too_many_stones_are_counted_in_full() {
    let error = |text: &str| text.parse::<Position>().unwrap_err().to_string();
    assert_eq!(error("255,0,0/0,0,1/1,2,0 S"), "259 stones on the board; a board here holds at most 255");
    let row = ["9"; 12].join(",");
    assert_eq!(error(&format!("{row}/{row}/{row} N")), "324 stones on the board; a board here holds at most 255");
    let huge = u64::MAX.to_string();
    assert_eq!(
        error(&format!("{huge},{huge}/1,0/0,0 S")),
        format!("{} stones on the board; a board here holds at most 255", 2 * u64::MAX as u128 + 1)
    );
}

#[test]
fn a_start_past_the_stones_a_board_holds_is_refused_however_large() {
    assert!(Position::start(3, 28).is_some());
    assert!(Position::start(3, 29).is_none());
    // 36 holes times 2^30 stones wraps to 0 in 32 bits.
    assert!(Position::start(12, 1 << 30).is_none());
}

/// A start is one however it was asked for: every hole alike and not empty, South to move.
#[test]
fn a_start_written_as_a_position_is_the_start() {
    assert_eq!(position("2,2,2/2,2,2/2,2,2 S").start_stones(), Some(2));
    assert_eq!(Position::start(4, 3).unwrap().start_stones(), Some(3));
    assert_eq!(position("2,2,2/2,2,2/2,2,2 N").start_stones(), None);
    assert_eq!(position("2,2,2/2,2,2/2,2,1 S").start_stones(), None);
    assert_eq!(position("0,0,0/0,0,0/0,0,0 S").start_stones(), None);
}
