//! Score games: tiers whose values are the score still to be gained, not win/loss.
//!
//! In a sowing game such as Kalah the value of a position is the final store difference,
//! and no rule depends on what the stores already hold; so a table keyed by the pits
//! alone holds the **store difference still to be gained by the player to move**, and a
//! full position's value is that plus the stores' current difference.
//!
//! A [`ScoreGame`] splits its positions into tiers (seeds in the pits) that moves never
//! leave except downwards, like [`crate::Game`]; the difference is what happens inside a
//! tier. Here the moves that stay in a tier must form a DAG (in Kalah, a move that keeps
//! every seed in the pits only carries seeds towards its mover's store along his own row,
//! so the seeds' total distance to their owners' stores strictly falls). Then no
//! retrograde un-moves and no fixpoint are needed: a tier is solved by a forward
//! depth-first evaluation with memoisation ([`solve`]), children in lower tiers being one
//! probe each, and a cycle inside a tier is reported, not looped on.
//!
//! A move's worth to its mover is its immediate gain plus the child's value seen from his
//! side: the child's value itself when he moves again (an extra turn), its negation when
//! the turn passes:
//!
//! ```text
//!   value(p) = max over moves (gain + child)   if the mover keeps the turn
//!                             (gain − child)   if the turn passes
//! ```
//!
//! Tables use the common file format ([`crate::table`]) with [`ValueEncoding::Score`]:
//! zigzag codes of the signed value ([`crate::value::score_code`]).

pub(crate) mod lower;
pub mod solve;
pub mod verify;

use crate::order::CycleError;
use crate::solve::Observer;
use crate::store::{build_tiers, open_tiers, BuildError, BuildOptions, BuildReport, ProbeError};
use crate::table::{Table, TableIdentity, ValueEncoding};
use crate::value::{code_score, Turn};
use std::collections::BTreeMap;
use std::fmt::{Debug, Display};
use std::hash::Hash;
use std::path::{Path, PathBuf};

pub use solve::{solve_tier, ScoreSolveError};
pub use verify::{verify_tier, ScoreVerifyError};

/// One move of a score game: where it leads, what it gains at once, and who moves next.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ScoreMove<P> {
    pub position: P,
    /// Score the mover banks with this move (stores: seeds sown into his own store and
    /// captured).
    pub gain: i16,
    pub turn: Turn,
}

impl<P> ScoreMove<P> {
    /// The move's worth to its mover, given the value of the position it leads to.
    #[inline]
    pub fn worth(&self, child: i16) -> i16 {
        match self.turn {
            Turn::Keeps => self.gain + child,
            Turn::Passes => self.gain - child,
        }
    }
}

/// A two-player game whose value is a score, split into tiers that play never leaves
/// except downwards. [`build`] needs the moves inside a tier to form a DAG (it reports a
/// cycle); a game whose moves cycle adds un-moves ([`crate::cyclic::CyclicScoreGame`])
/// and is built by [`crate::cyclic::build`]. Both give the same kind of tables.
///
/// Invariants (tested for Kalah in `games/tests/kalah_tables.rs`, Awari in
/// `games/tests/awari_rules.rs`):
/// 1. `locate(position(tier, rank)) == (tier, rank)` for every rank of every tier.
/// 2. Every move leads to the same tier or to one of `child_tiers(tier)`.
/// 3. For [`build`]: the moves that stay inside a tier never come back to a position.
/// 4. A position that is not over has at least one move.
pub trait ScoreGame: Sync {
    /// The position the tables are keyed by (for Kalah: the pits, seen from the mover).
    type Position: Clone + Debug + Send + Sync;
    type Tier: Copy + Eq + Ord + Hash + Debug + Display + Send + Sync;

    /// Names the game, its rules and parameters; written into every table header and
    /// checked when a table is opened.
    fn table_key(&self) -> String;

    /// Number of ranks in `tier`.
    fn tier_size(&self, tier: Self::Tier) -> u64;

    /// The tiers that a move from `tier` can reach, other than `tier` itself.
    fn child_tiers(&self, tier: Self::Tier) -> Vec<Self::Tier>;

    /// The tier and rank of a position.
    fn locate(&self, position: &Self::Position) -> (Self::Tier, u64);

    /// The position at a rank.
    fn position(&self, tier: Self::Tier, rank: u64) -> Self::Position;

    /// The position at `rank`, given the one at `rank − 1` (`previous`). Games whose rank
    /// order has a cheap successor override this; the default unranks.
    #[inline]
    fn next_position(&self, tier: Self::Tier, rank: u64, previous: &Self::Position) -> Self::Position {
        let _ = previous;
        self.position(tier, rank)
    }

    /// The score still to be gained by the player to move if the game is over here.
    fn outcome(&self, position: &Self::Position) -> Option<i16>;

    /// The legal moves of a position that is not over, appended to `out`.
    fn moves(&self, position: &Self::Position, out: &mut Vec<ScoreMove<Self::Position>>);
}

/// The tiers needed for `roots`, children first (see [`crate::order::tier_order_by`]).
pub fn score_tier_order<G: ScoreGame>(game: &G, roots: &[G::Tier]) -> Result<Vec<G::Tier>, CycleError> {
    crate::order::tier_order_by(roots, |t| game.child_tiers(t))
}

fn identity<G: ScoreGame>(game: &G, tier: G::Tier) -> TableIdentity {
    TableIdentity { key: game.table_key(), tier: tier.to_string(), encoding: ValueEncoding::Score }
}

/// The finished score tables of one game, by tier, memory-mapped.
pub struct ScoreTables<G: ScoreGame> {
    dir: PathBuf,
    tables: BTreeMap<G::Tier, Table>,
}

/// Builds (or reuses, after checking them) every tier needed for `roots` in `dir`.
pub fn build<G: ScoreGame>(
    game: &G,
    dir: &Path,
    roots: &[G::Tier],
    observer: &dyn Observer,
) -> Result<(ScoreTables<G>, BuildReport), BuildError> {
    build_with(game, dir, roots, observer, |t, done| Ok(solve_tier(game, t, &|c| done.get(&c), observer)?))
}

/// The build loop of score tables with a given tier solver (this engine's, or the
/// cyclic one's).
pub(crate) fn build_with<G: ScoreGame>(
    game: &G,
    dir: &Path,
    roots: &[G::Tier],
    observer: &dyn Observer,
    solve: impl FnMut(G::Tier, &BTreeMap<G::Tier, Table>) -> Result<Vec<u16>, BuildError>,
) -> Result<(ScoreTables<G>, BuildReport), BuildError> {
    let (tables, report) = build_tiers(
        dir,
        score_tier_order(game, roots)?,
        |t| identity(game, t),
        |t| game.tier_size(t),
        solve,
        observer,
        &BuildOptions::default(),
    )?;
    Ok((ScoreTables { dir: dir.to_owned(), tables }, report))
}

/// Opens the finished tables needed for `roots` without building anything.
pub fn open<G: ScoreGame>(game: &G, dir: &Path, roots: &[G::Tier]) -> Result<ScoreTables<G>, BuildError> {
    let tables = open_tiers(dir, score_tier_order(game, roots)?, |t| identity(game, t), |t| game.tier_size(t))?;
    Ok(ScoreTables { dir: dir.to_owned(), tables })
}

impl<G: ScoreGame> ScoreTables<G> {
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    pub fn table(&self, tier: G::Tier) -> Option<&Table> {
        self.tables.get(&tier)
    }

    pub fn tiers(&self) -> impl Iterator<Item = &G::Tier> {
        self.tables.keys()
    }

    /// The stored value at a tier and rank: the score still to be gained by the mover.
    #[inline]
    pub fn probe(&self, tier: G::Tier, rank: u64) -> Result<i16, ProbeError> {
        let table = self.tables.get(&tier).ok_or_else(|| ProbeError::MissingTier(tier.to_string()))?;
        let code = table.code(rank).ok_or_else(|| ProbeError::BadRank { tier: tier.to_string(), rank })?;
        Ok(code_score(code))
    }

    /// The value of a position: the score still to be gained by the player to move.
    pub fn value(&self, game: &G, position: &G::Position) -> Result<i16, ProbeError> {
        let (tier, rank) = game.locate(position);
        self.probe(tier, rank)
    }

    /// Positions covered and bytes on disk.
    pub fn size(&self) -> (u64, u64) {
        self.tables.values().fold((0, 0), |(p, b), t| (p + t.entries(), b + t.file_bytes()))
    }
}
