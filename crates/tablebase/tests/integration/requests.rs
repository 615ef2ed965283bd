//! Any request, however malformed, gets an answer or an error from every game's request
//! parsing, never a panic: the server hands these functions whatever a client sends.

use proptest::prelude::*;
use std::path::Path;
use tablebase::query::{QueryError, Request};
use tablebase::registry::GAMES;

/// Text built from the characters the notations use, and some they do not.
fn text() -> impl Strategy<Value = String> {
    proptest::collection::vec(
        prop_oneof![
            Just(","),
            Just("/"),
            Just(" "),
            Just("-"),
            Just("w"),
            Just("b"),
            Just("s"),
            Just("n"),
            Just("S"),
            Just("N"),
            Just("0"),
            Just("1"),
            Just("3"),
            Just("9"),
            Just("255"),
            Just("99999999999"),
            Just("é"),
        ],
        0..40,
    )
    .prop_map(|parts| parts.concat())
}

/// Positions shaped like each game's notation, with counts that may be far too large.
fn shaped() -> impl Strategy<Value = String> {
    let count = prop_oneof![0u32..5, 0u32..300];
    let counts = move |n: std::ops::Range<usize>| proptest::collection::vec(count.clone(), n);
    let join = |v: Vec<u32>| v.iter().map(u32::to_string).collect::<Vec<_>>().join(",");
    prop_oneof![
        // THI`: n rows of n squares, no counter on its bear-off row
        (3usize..6).prop_flat_map(|n| {
            let square = |options: &'static [&'static str]| proptest::sample::select(options);
            let top = proptest::collection::vec(square(&["-", "b", "bb", "bbb"]), n);
            let middle = proptest::collection::vec(
                proptest::collection::vec(square(&["-", "w", "b", "wb", "www", "bbb", "wwwbbb"]), n),
                n - 2,
            );
            let bottom = proptest::collection::vec(square(&["-", "w", "ww", "www"]), n);
            (top, middle, bottom, prop_oneof![Just("w"), Just("b")]).prop_map(|(top, middle, bottom, side)| {
                let mut rows = vec![top.join(",")];
                rows.extend(middle.iter().map(|r| r.join(",")));
                rows.push(bottom.join(","));
                format!("{} {side}", rows.join("/"))
            })
        }),
        // Kalah
        (counts(1..9), counts(1..9), 0u32..100, 0u32..100, prop_oneof![Just("S"), Just("N")])
            .prop_map(move |(a, b, x, y, side)| format!("{}/{} {x}-{y} {side}", join(a), join(b))),
        // Trias
        (counts(1..7), counts(1..7), counts(1..7), prop_oneof![Just("S"), Just("N")])
            .prop_map(move |(a, b, c, side)| format!("{}/{}/{} {side}", join(a), join(b), join(c))),
        // Awari and Oware
        (counts(2..13), 0u32..60, 0u32..60).prop_map(move |(a, x, y)| format!("{} {x}-{y}", join(a))),
        counts(2..13).prop_map(join),
        // Njaka
        (
            proptest::collection::vec((0u32..40, prop_oneof![Just("s"), Just("n")]), 2..14),
            prop_oneof![Just("S"), Just("N")]
        )
            .prop_map(|(holes, side)| {
                let holes: Vec<String> = holes.iter().map(|(n, o)| format!("{n}{o}")).collect();
                format!("{} {side}", holes.join(","))
            }),
    ]
}

fn parameter() -> impl Strategy<Value = (String, String)> {
    let names = prop_oneof![
        Just("position"),
        Just("size"),
        Just("board"),
        Just("rules"),
        Just("bonus"),
        Just("pits"),
        Just("seeds"),
        Just("target"),
        Just("holes"),
        Just("stones"),
        Just("counters"),
        Just("variant"),
        Just("direction"),
        Just("max_line"),
    ];
    let values = prop_oneof![
        text(),
        shaped(),
        (0u64..300).prop_map(|n| n.to_string()),
        prop_oneof![
            Just("trias"),
            Just("primus"),
            Just("wari"),
            Just("trysse"),
            Just("standard"),
            Just("advanced"),
            Just("cw"),
            Just("yes")
        ]
        .prop_map(str::to_owned),
    ];
    (names.prop_map(str::to_owned), values)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(3000))]

    #[test]
    fn no_request_panics(params in proptest::collection::vec(parameter(), 0..5)) {
        if let Ok(request) = Request::new(params) {
            for game in GAMES {
                let _ = game.command(&request, Path::new("root"));
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(3000))]

    /// A position alone, the games' defaults for the rest: the path most requests take.
    #[test]
    fn no_position_panics(position in shaped(), start in 0u32..300) {
        for game in GAMES {
            let _ = game.command(&Request::new([("position", position.as_str())]).unwrap(), Path::new("root"));
        }
        for (name, parameter) in [("thi", "board"), ("kalah", "seeds"), ("awari", "seeds"), ("trias", "stones"), ("njaka", "counters")] {
            let game = tablebase::registry::game_named(name).unwrap();
            let start = start.to_string();
            let request = Request::new([(parameter, start.as_str()), ("holes", "3"), ("pits", "3")]).unwrap();
            let _ = game.command(&request, Path::new("root"));
        }
    }
}

/// The command named for THI` tables that are not built sets up a board holding the
/// position's counters: stacks on one row where they fit, else single counters on rows;
/// or the board asked for. Where that setup is past a 64-bit index, the position alone is
/// built up to its own counters; past that too it is impossible: no command builds it.
#[test]
fn a_thi_position_names_a_setup_that_holds_its_counters() {
    let thi = GAMES.iter().find(|g| g.name == "thi").expect("THI` is registered");
    let command = |size: usize, position: String| {
        let request = Request::new([("size", size.to_string().as_str()), ("position", &position)]).unwrap();
        thi.command(&request, Path::new("root")).map(|build| build.command)
    };
    let row = |size: usize, c: &str| vec![c; size].join(",");
    // Five on 5×5: one row of single counters, the start of `--height 1`.
    let five = format!("{}/{}/{}/{}/{} w", row(5, "b"), row(5, "-"), row(5, "-"), row(5, "-"), row(5, "w"));
    assert_eq!(command(5, five).unwrap(), "solve thi --size 5 --height 1 --rules original");
    // Seven on 4×4: stacks of two on the first row hold them.
    let seven = format!("{}/bbb,-,-,-/w,-,-,-/ww,ww,ww,- w", row(4, "b"));
    assert_eq!(command(4, seven).unwrap(), "solve thi --size 4 --height 2 --rules original");
    // The start of `--size 8 --rows 4`, 32 single counters a side: no index numbers it.
    // Given as a position, it is named as `solve thi --position` names it; asked as a
    // board, as the board.
    let rows = |c: &str| vec![row(8, c); 4].join("/");
    let error = command(8, format!("{}/{} w", rows("b"), rows("w"))).unwrap_err();
    assert!(
        matches!(&error, QueryError::BeyondIndex(m) if m.contains("this position's tables (8×8, up to 32 counters a side)")),
        "{error:?}"
    );
    let board = thi.command(&Request::new([("board", "8x8-rows4")]).unwrap(), Path::new("root")).unwrap_err();
    assert!(
        matches!(&board, QueryError::BeyondIndex(m) if m.contains("board 8x8-rows4 (8×8, 32 counters a side)")),
        "{board:?}"
    );
    // A position of as many counters that is no start (White has one fewer): its own
    // tables are named.
    let error = command(8, format!("{}/{} w", rows("b"), rows("w").replacen('w', "-", 1))).unwrap_err();
    assert!(
        matches!(&error, QueryError::BeyondIndex(m) if m.contains("this position's tables (8×8, up to 32 counters a side)")),
        "{error:?}"
    );
    // One counter a side on 8×8: its setup is past the index, its own counters are not.
    let two = format!("b,{}/{}/{} w", row(7, "-"), vec![row(8, "-"); 6].join("/"), row(8, "-").replacen('-', "w", 1));
    let expected = format!("solve thi --position \"{two}\" --rules original");
    assert_eq!(command(8, two).unwrap(), expected);
    // A named board asked for is named; QUADRAT is past the index.
    let quadrat = thi.command(&Request::new([("board", "quadrat")]).unwrap(), Path::new("root")).unwrap_err();
    assert!(matches!(&quadrat, QueryError::BeyondIndex(m) if m.contains("6×6")), "{quadrat:?}");
    let duo = thi.command(&Request::new([("board", "duo"), ("rules", "fixed1")]).unwrap(), Path::new("root")).unwrap();
    assert_eq!(duo.command, "solve thi --board duo --rules fixed1");
    // And where it writes them: the directory a damaged copy of them would be found in.
    assert_eq!(duo.dir, Path::new("root/thi/3x3-fixed1"));
}

/// A THI` board beside a position names the tables that answer it: the command builds
/// that board, a position it cannot hold is impossible, and a board past a 64-bit index
/// is refused with its size and the disk it would fill.
#[test]
fn a_thi_board_beside_a_position_names_its_tables() {
    let thi = GAMES.iter().find(|g| g.name == "thi").expect("THI` is registered");
    let command = |board: &str, position: &str| {
        let request = Request::new([("board", board), ("position", position)]).unwrap();
        thi.command(&request, Path::new("root")).map(|build| build.command)
    };
    // PRIMUS's start, and a position that is no start, from DUO's tables.
    for position in ["b,b,b/-,-,-/w,w,w w", "b,b,-/-,b,-/w,w,w w"] {
        assert_eq!(command("duo", position).unwrap(), "solve thi --board duo --rules original");
    }
    for (position, why) in [
        ("bb,bb,bb/-,-,-/ww,ww,ww w", "at most 3 per player"),
        ("b,b,b,b/-,-,-,-/-,-,-,-/w,w,w,w w", "4×4 board, these tables are for 3×3"),
    ] {
        let error = command("primus", position).unwrap_err();
        assert!(matches!(&error, QueryError::Impossible(m) if m.contains(why)), "{position}: {error:?}");
    }
    let one = "b,-,-,-,-,-/-,-,-,-,-,-/-,-,-,-,-,-/-,-,-,-,-,-/-,-,-,-,-,-/-,-,-,-,-,w w";
    let error = command("quadrat", one).unwrap_err();
    assert!(
        matches!(&error, QueryError::BeyondIndex(m) if m.contains("board quadrat (6×6, 12 counters a side) has about 6.021e20 positions")
            && m.contains("of disk")),
        "{error:?}"
    );
    // Alone, the same position is answered from the smallest setup holding it.
    let alone = thi.command(&Request::new([("position", one)]).unwrap(), Path::new("root")).unwrap();
    assert_eq!(alone.command, "solve thi --size 6 --height 1 --rules original");
}

/// The command named for Trias tables that are not built: the smallest start holding the
/// position; where that start's tables are past a 64-bit index, the position's own
/// (`--build`); past that too, beyond any index (`solve trias` searches above smaller
/// tables for them).
#[test]
fn a_trias_position_names_a_command_that_can_build_it() {
    let trias = GAMES.iter().find(|g| g.name == "trias").expect("Trias is registered");
    let command = |params: &[(&str, &str)]| {
        trias.command(&Request::new(params.iter().copied()).unwrap(), Path::new("root")).map(|build| build.command)
    };
    assert_eq!(command(&[("holes", "3"), ("stones", "2")]).unwrap(), "solve trias --holes 3 --stones 2");
    // Thirty stones on 3×9: the start of two a hole (54 stones) is past the index, the
    // position's own 30 are not.
    let thirty = "4,4,4,4,4,4,4,2,0/0,0,0,0,0,0,0,0,0/0,0,0,0,0,0,0,0,0 S";
    assert_eq!(command(&[("position", thirty)]).unwrap(), format!("solve trias --position \"{thirty}\" --build"));
    for params in [&[("holes", "12"), ("stones", "4")][..], &[("holes", "9"), ("stones", "2")]] {
        let error = command(params).unwrap_err();
        assert!(
            matches!(&error, QueryError::BeyondIndex(m) if m.contains("more positions than a 64-bit index can number")),
            "{params:?}: {error:?}"
        );
    }
}

/// THI`'s `bonus`: no, yes (the mover's own counters) or any, in any case; the command and
/// the directory follow it, and another word is refused naming the three.
#[test]
fn a_thi_bonus_is_no_yes_or_any() {
    let thi = GAMES.iter().find(|g| g.name == "thi").expect("THI` is registered");
    let build =
        |bonus: &str| thi.command(&Request::new([("board", "primus"), ("bonus", bonus)]).unwrap(), Path::new("root"));
    for (word, flag, dir) in [
        ("no", "", "3x3-original"),
        ("YES", " --bonus", "3x3-original-bonus"),
        ("any", " --bonus any", "3x3-original-bonus-any"),
    ] {
        let built = build(word).unwrap();
        assert_eq!(built.command, format!("solve thi --board primus --rules original{flag}"));
        assert_eq!(built.dir, Path::new("root/thi").join(dir));
    }
    let refused = build("maybe").unwrap_err();
    assert!(
        matches!(&refused, QueryError::Parameter { why, .. } if why.contains("no, yes (the mover's own counters) or any")),
        "{refused:?}"
    );
}
