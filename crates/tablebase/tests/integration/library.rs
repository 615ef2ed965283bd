//! Tables built through the registry, opened under a root as the server and the Python
//! package open them, and read a tier at a time: every rank's value is the one a query of
//! its position answers, and the one asked of it alone.

use std::path::Path;
use tablebase::front::BuildFailed;
use tablebase::library::Library;
use tablebase::query::{QueryError, Request};
use tablebase::registry::game_named;

/// A request of `game` with `pairs`.
fn request(pairs: &[(&str, &str)]) -> Request {
    Request::new(pairs.iter().copied()).unwrap()
}

/// Builds the tables of `pairs`' start of `game` under `root`.
fn build(root: &Path, game: &str, pairs: &[(&str, &str)]) {
    let entry = game_named(game).unwrap();
    entry.build(&request(pairs), root, &retro::solve::Silent, false).unwrap_or_else(|e| panic!("{game}: {e}"));
}

#[test]
fn every_rank_of_a_tier_has_the_value_its_position_is_answered() {
    let root = tempfile::tempdir().unwrap();
    let games: [(&str, &[(&str, &str)]); 6] = [
        ("thi", &[("board", "primus"), ("rules", "fixed1")]),
        ("kalah", &[("pits", "2"), ("seeds", "2")]),
        ("awari", &[("pits", "2"), ("seeds", "2")]),
        ("oware", &[("rules", "wari"), ("pits", "2"), ("seeds", "2")]),
        ("trias", &[("holes", "3"), ("stones", "1")]),
        ("njaka", &[("holes", "4"), ("counters", "1")]),
    ];
    for (game, pairs) in games {
        build(root.path(), game, pairs);
    }
    let library = Library::open(root.path(), |_, _| {}).unwrap();
    assert!(library.skipped().is_empty(), "{:?}", library.skipped());
    for (game, pairs) in games {
        let entry = game_named(game).unwrap();
        let database = library.databases(entry).next().unwrap_or_else(|| panic!("{game}: no tables"));
        let (tier, size) = database.tiers().pop().unwrap();
        let chunk = database.chunk(&tier, 0..size.min(300), true).unwrap();
        assert!(!chunk.values.is_empty(), "{game}: tier {tier} read");
        assert_eq!(chunk.values.len(), chunk.positions.len());
        let board: Vec<_> =
            pairs.iter().filter(|(name, _)| !["seeds", "stones", "counters", "board"].contains(name)).collect();
        for (position, value) in chunk.positions.iter().zip(&chunk.values) {
            // Kalah's tables hold boards: the position with even stores, South to move.
            let position = if game == "kalah" { format!("{position} 0-0 S") } else { position.clone() };
            let mut asked: Vec<(&str, &str)> = board.iter().map(|&&p| p).collect();
            asked.push(("position", &position));
            asked.push(("max_line", "0"));
            let answer = library.query(entry, &request(&asked)).unwrap_or_else(|e| panic!("{game} {position}: {e}"));
            assert_eq!(answer.report.value, *value, "{game} {position}");
            assert_eq!(library.value(entry, &request(&asked)).as_ref(), Ok(value), "{game} {position}");
        }
        let past = database.chunk(&tier, size..size + 10, false).unwrap();
        assert!(past.values.is_empty(), "{game}: nothing past the tier's end");
        assert!(matches!(database.chunk("no-such-tier", 0..1, false), Err(QueryError::Parameter { .. })));
    }
}

#[test]
fn a_build_refuses_a_bad_request_with_the_requests_error() {
    let root = tempfile::tempdir().unwrap();
    let entry = game_named("kalah").unwrap();
    let refused = entry.build(&request(&[("pits", "99"), ("seeds", "1")]), root.path(), &retro::solve::Silent, false);
    assert!(matches!(refused, Err(BuildFailed::Request(QueryError::Parameter { .. }))), "{refused:?}");
}
