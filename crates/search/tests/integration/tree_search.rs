//! The search above the tables ([`search::tree`]) against the tables themselves, on every
//! position of boards small enough to build whole: (a) with every tier built its value
//! and each move's are exact and the tables'; (b) with the position's tier and some
//! above it not built, an unbounded search is exact and equal to the tables, each
//! move's bounds contain the move's worth, and the principal line makes the value ply
//! by ply; (c) with a budget of a few nodes, the bounds contain the value.

use retro::solve::Silent;
use retro::store::{self, BuildOptions};
use retro::toy::Toy;
use retro::{Game, Location, TableValue, Tables};
use search::tree::{search, Budget, Scale, Searched};
use std::path::Path;

/// Every position of `tiers`, every orientation.
fn every_position<G: Game>(game: &G, tiers: &[G::Tier]) -> Vec<G::Position> {
    let mut out = Vec::new();
    for &tier in tiers {
        for rank in 0..game.tier_size(tier) {
            for orientation in 0..game.orientations() {
                out.push(game.position(Location { tier, rank, orientation }));
            }
        }
    }
    out
}

/// At most `most` of `positions`, spread evenly over them.
fn spread<P: Clone>(positions: &[P], most: usize) -> Vec<P> {
    let step = positions.len().div_ceil(most.max(1)).max(1);
    positions.iter().step_by(step).cloned().collect()
}

fn unbounded<G: Game>(game: &G, tables: &Tables<G>, p: &G::Position) -> Searched<G::Position, G::Value>
where
    G::Value: Scale,
{
    search(game, tables, p, Budget::default(), &mut |_| {}).unwrap_or_else(|e| panic!("{p}: {e}"))
}

/// (a) With every tier built: the value and every move's worth exact and the tables'.
fn check_with_every_tier<G: Game>(game: &G, full: &Tables<G>, positions: &[G::Position])
where
    G::Value: Scale,
{
    for p in positions {
        let expected = full.value(game, p).unwrap();
        let found = unbounded(game, full, p);
        assert_eq!((found.lower, found.upper), (expected, expected), "{}: {p}", game.table_key());
        for m in &found.moves {
            let worth = G::Value::worth(full.value(game, &m.step.position).unwrap(), m.step.gain, m.step.turn);
            assert_eq!((m.lower, m.upper), (worth, worth), "{}: {p}, move to {}", game.table_key(), m.step.position);
        }
        assert_eq!(found.nodes, 0, "{p}: nothing to search");
    }
}

/// (b) With only `partial` built: an unbounded search is exact and the tables'
/// (`full`), each move's bounds contain its worth, the preferred move makes the value
/// and the line makes each position's value. Returns the nodes searched.
fn check_above_tables<G: Game>(game: &G, full: &Tables<G>, partial: &Tables<G>, positions: &[G::Position]) -> u64
where
    G::Value: Scale,
{
    let mut nodes = 0;
    for p in positions {
        let expected = full.value(game, p).unwrap();
        let found = unbounded(game, partial, p);
        let key = game.table_key();
        assert_eq!((found.lower, found.upper), (expected, expected), "{key}: {p}");
        assert_eq!(found.stop, None);
        nodes += found.nodes;
        check_moves(game, full, p, &found);
        if let Some(best) = found.best {
            let m = &found.moves[best];
            let worth = G::Value::worth(full.value(game, &m.step.position).unwrap(), m.step.gain, m.step.turn);
            assert_eq!(worth, expected, "{key}: {p}, the preferred move to {}", m.step.position);
            assert_eq!(found.line.first(), Some(&m.step), "{key}: {p}: the line starts with the preferred move");
        }
        let mut here = p.clone();
        for step in &found.line {
            let moves = retro::kit::moves_of(game, &here);
            assert!(moves.contains(step), "{key}: {p}: the line plays {} from {here}, not a move", step.position);
            let worth = G::Value::worth(full.value(game, &step.position).unwrap(), step.gain, step.turn);
            assert_eq!(worth, full.value(game, &here).unwrap(), "{key}: {p}: the line's move from {here}");
            here = step.position.clone();
        }
    }
    nodes
}

/// Every move's bounds contain its worth by the tables.
fn check_moves<G: Game>(game: &G, full: &Tables<G>, p: &G::Position, found: &Searched<G::Position, G::Value>)
where
    G::Value: Scale,
{
    for m in &found.moves {
        let worth = G::Value::worth(full.value(game, &m.step.position).unwrap(), m.step.gain, m.step.turn);
        assert!(
            m.lower <= worth && worth <= m.upper,
            "{}: {p}, move to {}: {worth} outside {}..={}",
            game.table_key(),
            m.step.position,
            m.lower,
            m.upper
        );
    }
}

/// (c) With a budget of a few nodes: the bounds contain the value, and each move's its
/// worth.
fn check_small_budgets<G: Game>(game: &G, full: &Tables<G>, partial: &Tables<G>, positions: &[G::Position])
where
    G::Value: Scale,
{
    for p in positions {
        let expected = full.value(game, p).unwrap();
        for most in [1, 2, 5, 20, 100] {
            let budget = Budget { nodes: Some(most), ..Budget::default() };
            let found = search(game, partial, p, budget, &mut |_| {}).unwrap();
            assert!(
                found.lower <= expected && expected <= found.upper,
                "{}: {p} with {most} nodes: {expected} outside {}..={}",
                game.table_key(),
                found.lower,
                found.upper
            );
            assert!(found.nodes <= most);
            check_moves(game, full, p, &found);
        }
    }
}

/// Builds every tier of `tiers` into `dir`.
fn build<G: Game>(game: &G, dir: &Path, tiers: &[G::Tier]) -> Tables<G> {
    store::build(game, dir, tiers, &Silent, &BuildOptions::default()).unwrap().0
}

/// The three checks on `positions` (every one for (a) and (b), `sampled` of them for
/// (c)), the partial tables being the tiers `below` and what they need. Returns the
/// nodes (b) searched.
fn check_game<G: Game>(
    game: &G,
    dir: &Path,
    all: &[G::Tier],
    below: &[G::Tier],
    positions: &[G::Position],
    sampled: usize,
) -> u64
where
    G::Value: Scale,
{
    let full = build(game, dir, all);
    let partial = store::open(game, dir, below).unwrap();
    check_with_every_tier(game, &full, &spread(positions, sampled));
    let nodes = check_above_tables(game, &full, &partial, positions);
    check_small_budgets(game, &full, &partial, &spread(positions, sampled));
    nodes
}

mod outcome {
    use super::*;
    use games::oware::{Oware, TargetRules};
    use games::thi::{Bonus, RuleSet, Rules, Setup, Thi, ThiTier};
    use games::trias::Trias;
    use retro::Value;

    #[test]
    fn toy_with_cycles_equals_its_tables_on_every_position() {
        for cells in [2, 3, 5] {
            let game = Toy::outcome(cells);
            let dir = tempfile::tempdir().unwrap();
            let all: Vec<u8> = (0..=9).collect();
            // Tiers 6 to 9 searched: within each, the marker goes round the ring.
            let positions = every_position(&game, &all[4..]);
            let nodes = check_game(&game, dir.path(), &all, &all[..4], &positions, 40);
            assert!(nodes > 0);
            // No tables at all.
            let none = store::open(&game, dir.path(), &[]).unwrap();
            let full = store::open(&game, dir.path(), &all).unwrap();
            check_above_tables(&game, &full, &none, &every_position(&game, &all[..7]));
        }
    }

    #[test]
    fn trias_equals_its_tables_on_every_position() {
        for (k, stones, cut) in [(2, 8, 4), (3, 6, 3)] {
            let game = Trias::new(k, stones).unwrap();
            let dir = tempfile::tempdir().unwrap();
            let all = game.tiers_up_to(stones);
            let positions = every_position(&game, &all[cut as usize..]);
            check_game(&game, dir.path(), &all, &all[..cut as usize], &positions, 300);
        }
    }

    #[test]
    fn a_move_left_undecided_keeps_the_upper_bound_open() {
        // Hole 1's sowing neither ends nor is proven endless within the lap limit
        // (`games/tests/integration/trias_rules.rs`): whatever the other moves are worth, the
        // mover might have a better one, so no upper bound below a win is proven.
        let cells = [
            8, 2, 8, 8, 1, 0, 1, 2, 1, 2, 9, 0, 1, 3, 2, 12, 0, 3, 0, 4, 12, 12, 2, 1, 2, 0, 2, 0, 0, 1, 6, 6, 6, 6, 1,
            6,
        ];
        let p = games::trias::Position::from_cells(&cells, games::trias::Side::South);
        let game = Trias::new(12, 0).unwrap();
        let dir = tempfile::tempdir().unwrap();
        let none = store::open(&game, dir.path(), &[]).unwrap();
        let found = search(&game, &none, &p, Budget { nodes: Some(20_000), ..Budget::default() }, &mut |_| {}).unwrap();
        assert!(!found.is_exact());
        assert_eq!(found.upper, Value::MOST);
        assert!(found.moves.len() < 12 && !found.moves.is_empty());
    }

    #[test]
    fn trias_starts_equal_the_forward_search() {
        // The forward search of the suite (`games/tests/integration/trias_tables.rs`): every start
        // small enough, searched with no table at all.
        for (k, s) in [(1, 1), (1, 2), (1, 3), (2, 1), (2, 2), (3, 1)] {
            let game = Trias::new(k, 3 * k as u32 * s).unwrap();
            let start = game.start(s).unwrap();
            let oracle = retro::kit::outcome_oracle(&game, &[start]);
            let dir = tempfile::tempdir().unwrap();
            let none = store::open(&game, dir.path(), &[]).unwrap();
            let found = unbounded(&game, &none, &start);
            assert_eq!((found.lower, found.upper), (oracle[&start], oracle[&start]), "3×{k} with {s}");
        }
    }

    /// PRIMUS under every rule set with bonus moves, and the original rules without
    /// them (a draw by endless play from the start). Searches that prove a draw by
    /// repetition without tables take longer under the other rule sets (seconds to
    /// minutes: the `speed` test below).
    /// Every start of `docs/results.md` (`data/golden/trias-starts.tsv`, which the suite's
    /// forward search checks), searched with no table, a second each at most: each is
    /// exact and the published value (Trias games are short).
    #[test]
    fn trias_published_starts_equal_the_search() {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../data/golden/trias-starts.tsv");
        let text = std::fs::read_to_string(path).unwrap();
        let mut exact = 0;
        for line in text.lines().filter(|l| !l.starts_with('#')).skip(1) {
            let f: Vec<&str> = line.split('\t').collect();
            let (k, s): (usize, u32) = (f[0].parse().unwrap(), f[1].parse().unwrap());
            let plies: u16 = f[3].parse().unwrap();
            let published = if f[2] == "win" { Value::Win(plies) } else { Value::Loss(plies) };
            let game = Trias::new(k, 3 * k as u32 * s).unwrap();
            let dir = tempfile::tempdir().unwrap();
            let none = store::open(&game, dir.path(), &[]).unwrap();
            let budget = Budget { time: Some(std::time::Duration::from_secs(1)), ..Budget::default() };
            let found = search(&game, &none, &game.start(s).unwrap(), budget, &mut |_| {}).unwrap();
            assert!(found.lower <= published && published <= found.upper, "3×{k} with {s}");
            exact += usize::from(found.is_exact());
        }
        assert_eq!(exact, 25, "every start is exact");
    }

    /// A start of more stones than the game's index numbers (3×12 with 4 stones a hole,
    /// 144 stones, on a game indexed to 6): with a few nodes, the search locates only
    /// positions of the tiers built and answers bounds on the start and on every move.
    #[test]
    fn a_start_past_the_index_is_searched_above_the_tables() {
        let game = Trias::new(12, 6).unwrap();
        let dir = tempfile::tempdir().unwrap();
        let tables = build(&game, dir.path(), &game.tiers_up_to(2));
        let start = game.start(4).unwrap();
        let budget = Budget { nodes: Some(2000), ..Budget::default() };
        let found = search(&game, &tables, &start, budget, &mut |_| {}).unwrap();
        assert_eq!(found.stop, Some(search::tree::Stop::Nodes));
        assert!(found.lower <= found.upper);
        assert_eq!(found.moves.len(), 12);
        assert!(found.moves.iter().all(|m| m.lower <= m.upper && m.lower <= found.upper));
    }

    /// With a game indexed only to the tables built (3×2 to 4 stones), a start of 6
    /// stones searched to the end is exact and the forward search's, which numbers no
    /// position.
    #[test]
    fn a_game_indexed_to_its_tables_answers_starts_above_them() {
        let game = Trias::new(2, 4).unwrap();
        let dir = tempfile::tempdir().unwrap();
        let tables = build(&game, dir.path(), &game.tiers_up_to(4));
        let start = game.start(1).unwrap();
        let oracle = retro::forward::solve_reachable(&game, &start)[&start];
        let found = unbounded(&game, &tables, &start);
        assert_eq!((found.lower, found.upper), (oracle, oracle));
        assert!(found.probes > 0, "the tables were probed");
    }

    fn thi_games() -> Vec<Thi> {
        let primus = Setup::named("primus").unwrap();
        let mut games: Vec<Thi> = RuleSet::ALL
            .into_iter()
            .map(|set| Thi::for_setup(primus, Rules { set, bonus: Bonus::Any }).unwrap())
            .collect();
        games.push(Thi::for_setup(primus, Rules { set: RuleSet::ALL[0], bonus: Bonus::No }).unwrap());
        games
    }

    #[test]
    fn thi_primus_equals_its_tables() {
        for game in thi_games() {
            let dir = tempfile::tempdir().unwrap();
            let all = game.all_tiers();
            let top = *all.last().unwrap();
            let below = game.child_tiers(top);
            // The top tier (three counters each) searched above the others.
            let positions = spread(&every_position(&game, &[top]), 60);
            check_game(&game, dir.path(), &all, &below, &positions, 30);
        }
    }

    /// Every rule set without bonus moves, on the tiers of up to two counters a side
    /// searched above the tables of fewer: play there goes round in cycles.
    #[test]
    fn thi_cycles_equal_the_tables() {
        let primus = Setup::named("primus").unwrap();
        for set in RuleSet::ALL {
            let game = Thi::for_setup(primus, Rules { set, bonus: Bonus::No }).unwrap();
            let dir = tempfile::tempdir().unwrap();
            let all = game.all_tiers();
            let full = build(&game, dir.path(), &all);
            for tier in [ThiTier::new(1, 1), ThiTier::new(2, 1), ThiTier::new(2, 2)] {
                let partial = store::open(&game, dir.path(), &game.child_tiers(tier)).unwrap();
                let positions = spread(&every_position(&game, &[tier]), 80);
                check_above_tables(&game, &full, &partial, &positions);
                check_small_budgets(&game, &full, &partial, &spread(&positions, 20));
            }
        }
    }

    /// A search asked to stop from another thread answers at once with bounds that hold,
    /// and its progress reports come a few times a second with counts that only grow.
    #[test]
    fn a_search_stops_when_asked_and_reports_its_progress() {
        let primus = Setup::named("primus").unwrap();
        let game = Thi::for_setup(primus, Rules { set: RuleSet::ALL[1], bonus: Bonus::No }).unwrap();
        let dir = tempfile::tempdir().unwrap();
        let none = store::open(&game, dir.path(), &[]).unwrap();
        let start = primus.start();
        let stop = std::sync::atomic::AtomicBool::new(false);
        let mut reports = Vec::new();
        let found = std::thread::scope(|scope| {
            scope.spawn(|| {
                std::thread::sleep(std::time::Duration::from_millis(700));
                stop.store(true, std::sync::atomic::Ordering::Relaxed);
            });
            let budget = Budget { stop: Some(&stop), ..Budget::default() };
            search(&game, &none, &start, budget, &mut |p| reports.push((p.nodes, p.seconds))).unwrap()
        });
        assert_eq!(found.stop, Some(search::tree::Stop::Asked));
        assert!(found.seconds < 5.0, "stopped after {} s", found.seconds);
        let value = retro::forward::solve_reachable(&game, &start)[&start];
        assert!(found.lower <= value && value <= found.upper);
        assert!((2..=10).contains(&reports.len()), "{} reports in {} s", reports.len(), found.seconds);
        assert!(reports.windows(2).all(|w| w[0].0 <= w[1].0 && w[0].1 <= w[1].1));
        assert_eq!(reports.last().unwrap().0, found.nodes);
    }

    #[test]
    fn thi_primus_starts_equal_the_forward_search() {
        for game in thi_games() {
            let start = Setup::named("primus").unwrap().start();
            let oracle = retro::forward::solve_reachable(&game, &start);
            let dir = tempfile::tempdir().unwrap();
            let none = store::open(&game, dir.path(), &[]).unwrap();
            let found = unbounded(&game, &none, &start);
            assert_eq!((found.lower, found.upper), (oracle[&start], oracle[&start]), "{}", game.table_key());
        }
    }

    #[test]
    fn oware_equals_its_tables() {
        for rules in TargetRules::ALL {
            for (m, seeds) in [(2, 2), (3, 2)] {
                let game = Oware::new(rules, m, seeds, None).unwrap();
                let dir = tempfile::tempdir().unwrap();
                let all = game.all_tiers();
                let cut = all.len() - 2;
                let positions = every_position(&game, &all[cut..]);
                check_game(&game, dir.path(), &all, &all[..cut], &spread(&positions, 600), 100);
                let none = store::open(&game, dir.path(), &[]).unwrap();
                let start = game.start();
                let oracle = retro::forward::solve_reachable(&game, &start);
                let found = unbounded(&game, &none, &start);
                assert_eq!((found.lower, found.upper), (oracle[&start], oracle[&start]), "{}", game.table_key());
                assert!(oracle.values().any(|v| *v != Value::Draw));
            }
        }
    }
}

mod score {
    use super::*;
    use games::awari::Awari;
    use games::kalah::{Kalah, Rules};
    use games::njaka::{Direction, Njaka, Variant};

    /// The game's bounds on a position contain its value, on every position given.
    fn check_value_bounds<G: Game<Value = i16>>(game: &G, tables: &Tables<G>, positions: &[G::Position]) {
        for p in positions.iter().filter(|p| game.end(p).is_none()) {
            let v = tables.value(game, p).unwrap();
            let (least, most) = game.value_bounds(p).expect("score games here bound their values");
            assert!(least <= v && v <= most, "{}: {p}: {v} outside {least}..={most}", game.table_key());
        }
    }

    #[test]
    fn toys_equal_their_tables_on_every_position() {
        for game in [Toy::score(4), Toy::cyclic_score(3), Toy::cyclic_score(5)] {
            let dir = tempfile::tempdir().unwrap();
            let all: Vec<u8> = (0..=9).collect();
            let positions = every_position(&game, &all[4..]);
            check_game(&game, dir.path(), &all, &all[..4], &positions, 40);
            let none = store::open(&game, dir.path(), &[]).unwrap();
            let full = store::open(&game, dir.path(), &all).unwrap();
            check_above_tables(&game, &full, &none, &every_position(&game, &all[..7]));
        }
    }

    #[test]
    fn kalah_equals_its_tables_on_every_position() {
        for rules in Rules::PRESETS.map(|(_, r)| r) {
            for (m, seeds, cut) in [(2, 8, 4), (3, 6, 3)] {
                let game = Kalah::new(m, seeds, rules).unwrap();
                let dir = tempfile::tempdir().unwrap();
                let all = game.tiers_up_to(seeds);
                let positions = every_position(&game, &all[cut..]);
                let full = build(&game, dir.path(), &all);
                check_value_bounds(&game, &full, &positions);
                check_game(&game, dir.path(), &all, &all[..cut], &positions, 200);
            }
        }
    }

    #[test]
    fn awari_equals_its_tables() {
        for (m, stones, cut) in [(1, 10, 5), (2, 7, 4), (3, 5, 3)] {
            let game = Awari::new(m, stones).unwrap();
            let dir = tempfile::tempdir().unwrap();
            let all = game.tiers_up_to(stones);
            let positions = every_position(&game, &all[cut..]);
            let full = build(&game, dir.path(), &all);
            check_value_bounds(&game, &full, &positions);
            check_game(&game, dir.path(), &all, &all[..cut], &spread(&positions, 500), 100);
            // No tables at all: every board of the smaller tiers.
            let none = store::open(&game, dir.path(), &[]).unwrap();
            check_above_tables(&game, &full, &none, &spread(&every_position(&game, &all[..cut + 1]), 200));
        }
    }

    #[test]
    fn njaka_equals_its_tables() {
        for (h, variant, counters) in [(2, Variant::Standard, 12), (4, Variant::Standard, 9), (4, Variant::Advanced, 8)]
        {
            for direction in [Direction::Counterclockwise, Direction::Clockwise] {
                let game = Njaka::new(h, variant, direction, counters).unwrap();
                let dir = tempfile::tempdir().unwrap();
                let all: Vec<u8> = (0..=counters as u8).collect();
                let cut = all.len() - 5;
                let positions = every_position(&game, &all[cut..]);
                let full = build(&game, dir.path(), &all);
                check_value_bounds(&game, &full, &positions);
                check_game(&game, dir.path(), &all, &all[..cut], &spread(&positions, 500), 100);
            }
        }
    }
}

/// The checks above on a representative board of each game, and searches stopped by
/// their budget, with the search on 1, 2 and 3 threads ([`Budget::default`] takes the
/// threads of the rayon pool it is called in): more threads than the machine's cores
/// interleave, and every exact value must still be the tables', every bound contain it.
mod threads {
    use super::*;
    use games::kalah::{Kalah, Rules};
    use games::njaka::{Direction, Njaka, Variant};
    use games::thi::{Bonus, RuleSet, Setup, Thi, ThiTier};
    use games::trias::Trias;
    use retro::Value;
    use std::time::Duration;

    /// `f` run where [`Budget::default`] gives `threads` threads.
    fn on<T: Send>(threads: usize, f: impl FnOnce() -> T + Send) -> T {
        rayon::ThreadPoolBuilder::new().num_threads(threads).build().unwrap().install(f)
    }

    #[test]
    fn the_default_budget_takes_the_pools_threads() {
        for threads in [1, 2, 3] {
            assert_eq!(on(threads, || Budget::default().threads), threads);
        }
    }

    #[test]
    fn outcome_games_equal_their_tables_on_every_thread_count() {
        for threads in [1, 2, 3] {
            on(threads, || {
                let game = Toy::outcome(5);
                let dir = tempfile::tempdir().unwrap();
                let all: Vec<u8> = (0..=9).collect();
                check_game(&game, dir.path(), &all, &all[..4], &every_position(&game, &all[4..]), 40);
                let game = Trias::new(3, 6).unwrap();
                let dir = tempfile::tempdir().unwrap();
                let all = game.tiers_up_to(6);
                let positions = spread(&every_position(&game, &all[3..]), 400);
                check_game(&game, dir.path(), &all, &all[..3], &positions, 60);
                let primus = Setup::named("primus").unwrap();
                let game =
                    Thi::for_setup(primus, games::thi::Rules { set: RuleSet::ALL[1], bonus: Bonus::No }).unwrap();
                let dir = tempfile::tempdir().unwrap();
                let full = build(&game, dir.path(), &game.all_tiers());
                let tier = ThiTier::new(2, 2);
                let partial = store::open(&game, dir.path(), &game.child_tiers(tier)).unwrap();
                let positions = spread(&every_position(&game, &[tier]), 40);
                check_above_tables(&game, &full, &partial, &positions);
                check_small_budgets(&game, &full, &partial, &spread(&positions, 10));
            });
        }
    }

    #[test]
    fn score_games_equal_their_tables_on_every_thread_count() {
        for threads in [1, 2, 3] {
            on(threads, || {
                let game = Toy::cyclic_score(5);
                let dir = tempfile::tempdir().unwrap();
                let all: Vec<u8> = (0..=9).collect();
                check_game(&game, dir.path(), &all, &all[..4], &every_position(&game, &all[4..]), 40);
                let game = Kalah::new(3, 6, Rules::EMPTY_CAPTURE).unwrap();
                let dir = tempfile::tempdir().unwrap();
                let all = game.tiers_up_to(6);
                check_game(&game, dir.path(), &all, &all[..3], &every_position(&game, &all[3..]), 100);
                let game = Njaka::new(4, Variant::Standard, Direction::Counterclockwise, 9).unwrap();
                let dir = tempfile::tempdir().unwrap();
                let all: Vec<u8> = (0..=9).collect();
                let positions = spread(&every_position(&game, &all[5..]), 300);
                check_game(&game, dir.path(), &all, &all[..5], &positions, 60);
            });
        }
    }

    /// Searches of a start no table holds, stopped by each kind of budget while every
    /// thread is busy: bounds that contain the start's value and each move's worth, and
    /// a node budget kept by all threads together.
    #[test]
    fn stopped_searches_on_several_threads_answer_bounds_that_hold() {
        let primus = Setup::named("primus").unwrap();
        let game = Thi::for_setup(primus, games::thi::Rules { set: RuleSet::ALL[1], bonus: Bonus::No }).unwrap();
        let dir = tempfile::tempdir().unwrap();
        let none = store::open(&game, dir.path(), &[]).unwrap();
        let start = primus.start();
        let values = retro::forward::solve_reachable(&game, &start);
        let stop = std::sync::atomic::AtomicBool::new(false);
        for threads in [2, 3] {
            let budgets = [
                Budget { nodes: Some(1_500), threads, ..Budget::default() },
                Budget { nodes: Some(300_000), threads, ..Budget::default() },
                Budget { time: Some(Duration::from_millis(300)), threads, ..Budget::default() },
                Budget { stop: Some(&stop), threads, ..Budget::default() },
            ];
            for budget in budgets {
                stop.store(false, std::sync::atomic::Ordering::Relaxed);
                let found = std::thread::scope(|scope| {
                    scope.spawn(|| {
                        std::thread::sleep(Duration::from_millis(300));
                        stop.store(true, std::sync::atomic::Ordering::Relaxed);
                    });
                    search(&game, &none, &start, budget, &mut |_| {}).unwrap()
                });
                let value = values[&start];
                assert!(found.lower <= value && value <= found.upper, "{threads} threads, {budget:?}");
                assert!(found.stop.is_some(), "{threads} threads, {budget:?}: the start is not proven so soon");
                assert!(budget.nodes.is_none_or(|most| found.nodes <= most));
                for m in &found.moves {
                    let worth = Value::worth(values[&m.step.position], m.step.gain, m.step.turn);
                    assert!(m.lower <= worth && worth <= m.upper, "{threads} threads, {budget:?}");
                }
            }
        }
    }

    /// A start searched to the end on 1, 2 and 3 threads: the same exact value (the
    /// forward search's), and every move's.
    #[test]
    fn a_start_has_one_value_on_every_thread_count() {
        let game = Trias::new(2, 12).unwrap();
        let start = game.start(2).unwrap();
        let values = retro::forward::solve_reachable(&game, &start);
        let dir = tempfile::tempdir().unwrap();
        let none = store::open(&game, dir.path(), &[]).unwrap();
        for threads in [1, 2, 3] {
            let budget = Budget { threads, ..Budget::default() };
            let found = search(&game, &none, &start, budget, &mut |_| {}).unwrap();
            assert_eq!((found.lower, found.upper), (values[&start], values[&start]), "{threads} threads");
            assert_eq!(found.stop, None);
            for m in &found.moves {
                let worth = Value::worth(values[&m.step.position], m.step.gain, m.step.turn);
                assert_eq!((m.lower, m.upper), (worth, worth), "{threads} threads");
            }
        }
    }
}

/// Nodes a second of the search on each game, printed, each search stopped after a
/// minute (the test profile is optimised:
/// `cargo test --release -p mancala-search --test tree_search -- --ignored --nocapture`).
mod speed {
    use super::*;
    use games::thi::{Bonus, RuleSet, Rules, Setup, Thi};
    use games::trias::Trias;

    fn measure<G: Game>(name: &str, game: &G, tables: &Tables<G>, p: &G::Position)
    where
        G::Value: Scale,
    {
        let budget = Budget { time: Some(std::time::Duration::from_secs(60)), ..Budget::default() };
        let found = search(game, tables, p, budget, &mut |_| {}).unwrap();
        println!(
            "{name}: {}..={} ({:?}) in {} nodes, {} probes, horizon {}, {:.3} s: {:.0} nodes/s",
            found.lower,
            found.upper,
            found.stop,
            found.nodes,
            found.probes,
            found.horizon,
            found.seconds,
            found.nodes as f64 / found.seconds
        );
    }

    #[test]
    #[ignore]
    fn nodes_per_second_above_tables() {
        use games::awari::Awari;
        use games::kalah::{Kalah, Position, Rules};
        use games::njaka::{Njaka, Variant};
        use games::oware::{Oware, TargetRules};
        let dir = tempfile::tempdir().unwrap();
        let kalah = Kalah::new(4, 24, Rules::EMPTY_CAPTURE).unwrap();
        let tables = build(&kalah, &dir.path().join("kalah"), &kalah.tiers_up_to(12));
        let start = Position::start(4, 3).unwrap().board();
        measure("Kalah(4,3), tables to 12 seeds", &kalah, &tables, &start);
        let awari = Awari::new(4, 24).unwrap();
        let tables = build(&awari, &dir.path().join("awari"), &awari.tiers_up_to(10));
        measure(
            "Awari 4 pits, 3 a pit, tables to 10 stones",
            &awari,
            &tables,
            &games::awari::Board::start(4, 3).unwrap(),
        );
        let njaka = Njaka::new(4, Variant::Standard, games::njaka::Direction::Counterclockwise, 16).unwrap();
        let tables = build(&njaka, &dir.path().join("njaka"), &(0..=8).collect::<Vec<u8>>());
        measure("Njaka 4 holes standard, 4 a hole, tables to 8", &njaka, &tables, &njaka.start(4).unwrap());
        let trias = Trias::new(3, 18).unwrap();
        let tables = build(&trias, &dir.path().join("trias"), &trias.tiers_up_to(9));
        measure("Trias 3×3 with 2 a hole, tables to 9 stones", &trias, &tables, &trias.start(2).unwrap());
        let oware = Oware::new(TargetRules::Trysse, 3, 3, None).unwrap();
        let all = oware.all_tiers();
        let tables = build(&oware, &dir.path().join("oware"), &all[..all.len() - 3]);
        measure("Trysse 3 pits, 3 a pit, top three tiers unbuilt", &oware, &tables, &oware.start());
    }

    #[test]
    #[ignore]
    fn nodes_per_second() {
        let dir = tempfile::tempdir().unwrap();
        let trias = Trias::new(3, 9).unwrap();
        let none = store::open(&trias, dir.path(), &[]).unwrap();
        measure("Trias 3×3 with 1, no tables", &trias, &none, &trias.start(1).unwrap());
        let primus = Setup::named("primus").unwrap();
        for set in RuleSet::ALL {
            for bonus in [Bonus::No, Bonus::Any] {
                let thi = Thi::for_setup(primus, Rules { set, bonus }).unwrap();
                let none = store::open(&thi, dir.path(), &[]).unwrap();
                measure(&format!("THI` primus {}, no tables", thi.table_key()), &thi, &none, &primus.start());
            }
        }
    }
}
