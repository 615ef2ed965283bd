//! One search above the tables for every game ([`retro::Game`]): from any position, the
//! tables' value where a tier is built, the rules' where the game is over, and moves
//! expanded elsewhere ([`search`]).
//!
//! ## The search
//! Iterative deepening on a horizon: each iteration searches every move of the root
//! `horizon − 1` plies below it, by alpha-beta on **proven bounds**: a node answers a
//! pair `lower ≤ upper` that contains its value (an interval, not one number). A node
//! cut off at the horizon answers the widest bounds its value can have (the value kind's,
//! or the game's [`Game::value_bounds`]); a node cut by a move that proves the window's
//! upper end answers that move's lower bound and the widest upper one; a node whose moves
//! are all searched answers the greatest lower and the greatest upper bound of its moves'
//! worths. Outcome games search the root with the full window, score games by MTD(f)
//! (null windows, from the last iteration's bounds). A window only chooses what is worth
//! proving: the bounds hold whatever it is, so a search stopped at any point (a node
//! limit, a time limit, a flag set by the caller) still answers proven bounds.
//!
//! Each move of the root is searched as a root of its own (nothing before it on the
//! path), so that the bounds given for each move hold of that move whatever the path:
//! they are the worth of the move as the tables define it, not a worth that leans on a
//! repetition of the root.
//!
//! The transposition table holds, for a position, bounds that hold on every path (its
//! value as the tables define it) and the move that proved the lower one; entries never
//! say how deep they were searched, because a bound found near the horizon is as proven
//! as one found deep.
//!
//! ## Threads
//! A search runs on [`Budget::threads`] threads (rayon's pool size by default), each a
//! whole search of the root on its own path, sharing three things: the transposition
//! table (sharded behind locks, so that an entry is only ever read whole), the counts
//! and the node budget (taken a thousand nodes at a time), and the bounds proven on the
//! root's moves. After each root move it searches, a thread intersects its bounds on the
//! root's moves with the shared ones, both ways; it takes next the first move in its
//! order that no other thread is searching, or else the first, and leaves a move whose
//! window the shared bounds have decided. Nothing a thread takes from another is more
//! than a proven bound on a value that holds on every path, so the argument below holds
//! for each thread as it stands: every bound any thread proves contains the value, and
//! an exact value is the tables' whatever the threads did. Which bounds a stopped search
//! reaches, and its counts, vary from run to run; the first thread to finish the root
//! and its moves stops the others.
//!
//! ## Repetitions, and the graph-history interaction
//! In a tier whose moves can come back to a position (every engine but
//! [`retro::Engine::Acyclic`]), a position met again on the path from the search's root
//! is a leaf worth what endless play is worth ([`retro::TableValue::ENDLESS`]: a draw, or
//! 0 still to gain), unless the transposition table alone decides the window there.
//!
//! **Why the root's bounds contain its value.** Write `V` for the value the tables
//! define and `E` for `ENDLESS`. Take the tree a search looked at below a node `q` (any
//! node, on any path): its leaves are ends, probes and transposition bounds (intervals
//! containing `V` there), nodes cut off at the horizon (the widest bounds, containing
//! `V`), and repetitions (`E`, whatever the position's value). Read every value from the
//! side of `q`'s mover, `A`; `hi` is what the search answers with every leaf taken at its
//! end best for `A`, `lo` at its end worst for him.
//! 1. *`hi(q) ≥ min(V(q), E)` and `lo(q) ≤ max(V(q), E)`, on any path.* Let `A` play the
//!    moves the tables give (a move worth `V`). At every node of the tree those moves
//!    leave, `hi ≥ min(V, E)`, by induction from the leaves: a repetition gives `E`,
//!    other leaves contain `V`. In an outcome game a move's worth is its child's value a
//!    ply back, monotone and keeping a draw a draw, so it commutes with `min`. In a score
//!    game a repetition lies in a tier with cycles, where a move inside the tier gains
//!    nothing and passes the turn (invariant 6 of [`retro::game`]): it commutes with `min`
//!    too; a move out of the tier leads to a subtree where no position of the path above
//!    can come back (tiers only fall), a search of its own whose bounds contain `V` by
//!    induction on the tiers: a leaf here. The opponent's `V` is the least over all his
//!    moves, and a node cut after some of them answers the least over those. Likewise
//!    for `lo`.
//! 2. *At the root of a search, `lo ≤ V ≤ hi`.* If `V(root)` is worth more to `A` than
//!    endless play, he has moves that never come back to a position: in an outcome game
//!    the moves the tables give, which make the distance to the end fall at every ply of
//!    both players; in a score game, inside the root's tier, the cyclic engine's
//!    attractor for the threshold `V(root)` ([`retro::cyclic`]), whose ranks fall at
//!    every ply until an exit worth at least `V(root)`. The tree those moves leave, from
//!    the root, has no repetition leaf, so the induction of 1 gives `hi ≥ V`. If `V(root)`
//!    is worth at most `E`, 1 gives `hi ≥ min(V, E) = V`. `lo ≤ V` likewise, for the
//!    opponent. So a search with no cut-off answers `V` exactly, distances included.
//! 3. *Transpositions.* Intersecting a node's bounds with bounds that contain `V` there
//!    keeps the inequalities of 1 and 2 at that node, and so at the root.
//!
//! What a node proves is thus about its value if its subtree is a search of its own: if
//! no repetition below it met a position above it. Each answer carries the shallowest ply
//! of the path a repetition below met (`anchor`); bounds of a node at ply `k` with
//! `anchor ≥ k` are those of a search rooted there: they hold on every path, are stored,
//! and are intersected with what was stored. Bounds with `anchor < k` lean on the path
//! (the graph-history interaction): they are passed up, marked, and never intersected
//! with stored bounds; by 1 they still prove, on every path, an upper bound below `E`
//! (`hi < E` forces `V ≤ hi`) and a lower one above it, and only those are stored.

mod line;
mod node;
mod root;
pub mod scale;
mod shared;
mod table;

use node::Searcher;
use retro::line::LineError;
use retro::store::ProbeError;
use retro::{Game, Move, Tables};
use root::{Ended, Root};
pub use scale::Scale;
use shared::Shared;
use std::sync::atomic::AtomicBool;
use std::time::Duration;
use thiserror::Error;

/// What a search may spend, and how it is told to stop.
#[derive(Debug, Clone, Copy)]
pub struct Budget<'a> {
    /// Nodes searched at most (`None`: no limit).
    pub nodes: Option<u64>,
    /// Time at most (`None`: no limit), looked at every thousand nodes or so.
    pub time: Option<Duration>,
    /// Set by the caller (from a signal handler, another thread) to stop the search; it
    /// answers the bounds proven so far.
    pub stop: Option<&'a AtomicBool>,
    /// Positions the transposition table holds at most; past that, it takes no new one.
    pub table_entries: usize,
    /// Threads that search at once (0 is taken as 1), sharing the transposition table
    /// and `nodes`. The proof search ([`crate::proof`]) uses two at most, one a question;
    /// the window search ([`crate::window`]) takes its threads from `Search::with_threads`.
    pub threads: usize,
}

impl Default for Budget<'_> {
    /// No limit, a table of up to 2²² positions, and as many threads as rayon's pool
    /// has (one a core, or the `--threads` of the command line).
    fn default() -> Self {
        Budget { nodes: None, time: None, stop: None, table_entries: 1 << 22, threads: rayon::current_num_threads() }
    }
}

/// Why a search stopped before its value was exact.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stop {
    /// It searched as many nodes as its budget allowed.
    Nodes,
    /// Its time ran out.
    Time,
    /// The caller asked it to stop.
    Asked,
}

/// How a search stands, told to the caller a few times a second at most.
#[derive(Debug, Clone, Copy)]
pub struct Progress<V> {
    /// Nodes searched so far (positions not answered by the tables or the rules).
    pub nodes: u64,
    /// Nodes a second so far.
    pub nodes_per_second: f64,
    /// The root's proven lower bound so far.
    pub lower: V,
    /// The root's proven upper bound so far.
    pub upper: V,
    /// The horizon of the iteration under way, in plies from the root.
    pub horizon: u32,
    /// Positions valued by a table so far.
    pub probes: u64,
    /// Seconds since the search started.
    pub seconds: f64,
}

/// A move of the searched position, with proven bounds on its worth to the mover.
#[derive(Debug, Clone)]
pub struct MoveBounds<P, V> {
    /// The move: the position it leads to, its gain, its turn.
    pub step: Move<P>,
    /// The least the move can be worth.
    pub lower: V,
    /// The most it can be worth; equal to `lower` when proven exactly.
    pub upper: V,
}

/// What a search proved of a position.
#[derive(Debug, Clone)]
pub struct Searched<P, V> {
    /// The least the position can be worth to its mover.
    pub lower: V,
    /// The most; equal to `lower` when the value is proven.
    pub upper: V,
    /// Its moves in the game's order, each with proven bounds (none where the game is
    /// over).
    pub moves: Vec<MoveBounds<P, V>>,
    /// The index in `moves` of the move the search prefers: one of proven best worth when
    /// the value is exact, else the one with the greatest lower bound.
    pub best: Option<usize>,
    /// The principal line from the position, as far as proven values lead: each move of
    /// it makes the value of the position it is played from. Empty when the value is not
    /// exact; it ends where the game does, where a position repeats, or where the values
    /// known give no move on.
    pub line: Vec<Move<P>>,
    /// Nodes searched (positions not answered by the tables or the rules).
    pub nodes: u64,
    /// Positions valued by a table.
    pub probes: u64,
    /// The horizon of the last iteration, in plies.
    pub horizon: u32,
    /// Seconds the search took.
    pub seconds: f64,
    /// Why it stopped before the value was exact, if it did.
    pub stop: Option<Stop>,
}

impl<P, V: PartialEq> Searched<P, V> {
    /// Whether the value is proven exactly.
    pub fn is_exact(&self) -> bool {
        self.lower == self.upper
    }
}

/// Why a search failed.
#[derive(Debug, Error)]
pub enum SearchError {
    /// A table could not be read.
    #[error(transparent)]
    Probe(#[from] ProbeError),
    /// The principal line could not be read from the tables.
    #[error(transparent)]
    Line(#[from] LineError),
}

/// Searches `position` of `game` above `tables` (any set of its built tiers, none
/// included) within `budget`; `progress` hears how it stands a few times a second at
/// most. Only positions of the tiers in `tables` are located ([`Game::material_tier`] tells
/// which): the game's index need number no position above them.
pub fn search<G: Game>(
    game: &G,
    tables: &Tables<G>,
    position: &G::Position,
    budget: Budget<'_>,
    progress: &mut dyn FnMut(&Progress<G::Value>),
) -> Result<Searched<G::Position, G::Value>, SearchError>
where
    G::Value: Scale,
{
    let shared = Shared::new(budget.table_entries);
    let mut searcher = Searcher::new(game, tables, &shared, budget, Some(progress));
    let mut root = Root::new(&mut searcher, position)?;
    let stop = if root.is_settled() { None } else { on_threads(&mut searcher, &mut root)? };
    root.merge(&searcher);
    searcher.shown = (root.lower, root.upper, root.horizon);
    searcher.tell();
    searcher.report();
    let best = root.best();
    let line = match best {
        Some(i) if root.lower == root.upper => line::principal_line(&mut searcher, position, &root.moves[i].step)?,
        _ => Vec::new(),
    };
    // The probes of the root's moves and of the line, made on this thread alone.
    searcher.tell();
    Ok(Searched {
        lower: root.lower,
        upper: root.upper,
        best,
        line,
        moves: root.moves,
        nodes: shared.nodes(),
        probes: shared.probes(),
        horizon: root.horizon,
        seconds: searcher.seconds(),
        stop,
    })
}

/// The root searched on `budget.threads` threads at once, the caller's `searcher`'s
/// among them (it alone tells the progress), `root` at the deepest horizon any reached:
/// why the search stopped before the end, if no thread reached it. Every helper's
/// counts are told when it returns.
fn on_threads<G: Game>(
    searcher: &mut Searcher<'_, G>,
    root: &mut Root<G::Position, G::Value>,
) -> Result<Option<Stop>, ProbeError>
where
    G::Value: Scale,
{
    let (game, tables, shared, budget) = (searcher.game, searcher.tables, searcher.shared, searcher.budget);
    std::thread::scope(|scope| {
        let helpers: Vec<_> = (1..budget.threads.max(1))
            .map(|_| {
                let mut root = root.clone();
                scope.spawn(move || {
                    let mut helper = Searcher::new(game, tables, shared, budget, None);
                    let ended = root.search(&mut helper);
                    helper.tell();
                    (ended, root.horizon)
                })
            })
            .collect();
        let mut ends = vec![root.search(searcher)];
        for helper in helpers {
            let (ended, horizon) = helper.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic));
            ends.push(ended);
            root.horizon = root.horizon.max(horizon);
        }
        let ends = ends.into_iter().collect::<Result<Vec<_>, _>>()?;
        if ends.contains(&Ended::Done) {
            return Ok(None);
        }
        Ok(ends.into_iter().find_map(|end| match end {
            Ended::Stopped(stop) => Some(stop),
            _ => None,
        }))
    })
}
