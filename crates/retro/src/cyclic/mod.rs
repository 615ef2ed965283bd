//! Score games whose moves inside a tier form cycles (Awari): exact scores by thresholds.
//!
//! A position's value `V ∈ [−n, n]` is the final difference, mover minus opponent, of the
//! `n` stones still on the board under perfect play; a game that never ends scores 0 (in
//! Awari a repeated position splits the remaining stones equally). Tiers are the stones
//! on the board. A position's moves are
//! - **exits**: they leave the tier (a capture), so the child's value is final, and are
//!   worth `gain − V(child)` to the mover when the turn passes, `gain + V(child)` when he
//!   moves again. A position with no move has its value fixed by the rules
//!   ([`CyclicScoreGame::outcome`]); the engine treats it as one exit of that worth.
//! - **in-tier moves**: no gain, the turn passes, worth `−V(child)`.
//!
//! ## The method ([`solve`])
//! `best_exit(p)` is the largest exit worth of `p` (−∞ without exits). For a threshold
//! `t = 1..=n` every position plays two roles in a reachability game:
//! - the **X-state** "the mover needs ≥ t": it wins only by reaching, in finite time, an
//!   exit worth ≥ t to it (endless play gives 0 < t);
//! - the **Y-state** "the mover needs ≥ 1 − t": it also succeeds by endless play
//!   (0 ≥ 1 − t), so it fails only if forced, in finite time, into exits worth < 1 − t.
//!
//! An in-tier move leads from the X-state of `p` to the Y-state of the child (the child's
//! mover needs `−V ≥ … `: `−V(c) ≥ t ⇔ V(c) ≤ −t ⇔ V(c) < 1 − t`) and from a Y-state to the
//! child's X-state. The X-won set `W_t` is the attractor (least fixpoint) of
//! - X-state `p` is won if `best_exit(p) ≥ t` or some in-tier child's Y-state is lost;
//! - Y-state `q` is lost if `best_exit(q) ≤ −t` and every in-tier child's X-state is won.
//!
//! **Why exact.** This is the standard attractor of a two-player reachability game on a
//! finite graph: the positions from which X can force reaching a target exit in finitely
//! many moves, Y avoiding it as long as it can (and Y wins every infinite play). So
//! `p ∈ W_t ⇔ V(p) ≥ t` and `q ∈ L_t ⇔ V(q) ≤ −t`, where `V` is the minimax value with
//! endless play scored 0; this value exists because, for every threshold, the game is
//! determined (reachability games are), and the thresholds fix `V` exactly:
//! `V = max{t : p ∈ W_t}`, else `−max{t : p ∈ L_t}`, else 0. Both sets only **grow** as `t`
//! falls (a target `≥ t` contains every target `≥ t + 1`; `≤ −t` likewise), so the least
//! fixpoint at `t` is the closure of the one at `t + 1` together with the new seeds: one
//! incremental retrograde pass per tier serves all `n` thresholds, each position decided
//! once, each un-move followed once. A position is marked with the first (largest) `t`
//! at which it joins `W_t` (value `t`) or `L_t` (value `−t`); the rest are 0.
//!
//! Counters count **distinct** in-tier children, and un-moves give distinct parents, so a
//! child reached by two moves of the same parent is counted once on both sides.
//!
//! Tables use the common file format ([`crate::table`]) with [`ValueEncoding::Score`]:
//! zigzag codes of the signed value ([`crate::value::score_code`]).

pub mod solve;
pub mod verify;

use crate::order::CycleError;
use crate::score::ScoreMove;
use crate::solve::Observer;
use crate::store::{build_tiers, open_tiers, BuildError, BuildOptions, BuildReport, ProbeError};
use crate::table::{Table, TableIdentity, ValueEncoding};
use crate::value::code_score;
use std::collections::BTreeMap;
use std::fmt::{Debug, Display};
use std::hash::Hash;
use std::path::{Path, PathBuf};

pub use solve::{solve_tier, CyclicSolveError};
pub use verify::{verify_tier, CyclicVerifyError};

/// A two-player score game split into tiers that play never leaves except downwards,
/// whose moves inside a tier may form cycles (endless play scores 0).
///
/// Invariants (tested for Awari in `games/tests/awari_rules.rs`):
/// 1. `locate(position(tier, rank)) == (tier, rank)` for every rank of every tier.
/// 2. Every move leads to the same tier or to one of `child_tiers(tier)`; a move inside
///    the tier gains nothing and passes the turn.
/// 3. `unmoves(c)` lists exactly the positions of `c`'s tier that have a move to `c`.
/// 4. A position has moves exactly when `outcome` is `None`.
pub trait CyclicScoreGame: Sync {
    type Position: Clone + Debug + Send + Sync;
    type Tier: Copy + Eq + Ord + Hash + Debug + Display + Send + Sync;

    /// Names the game, its rules and parameters; written into every table header.
    fn table_key(&self) -> String;

    /// Number of ranks in `tier`.
    fn tier_size(&self, tier: Self::Tier) -> u64;

    /// The tiers that a move from `tier` can reach, other than `tier` itself.
    fn child_tiers(&self, tier: Self::Tier) -> Vec<Self::Tier>;

    fn locate(&self, position: &Self::Position) -> (Self::Tier, u64);

    fn position(&self, tier: Self::Tier, rank: u64) -> Self::Position;

    /// The value for the player to move if he has no move (the game is over).
    fn outcome(&self, position: &Self::Position) -> Option<i16>;

    /// The legal moves of a position that is not over, appended to `out`.
    fn moves(&self, position: &Self::Position, out: &mut Vec<ScoreMove<Self::Position>>);

    /// The positions of the same tier with a legal move to `position`, appended to `out`
    /// (duplicates allowed; the engine removes them).
    fn unmoves(&self, position: &Self::Position, out: &mut Vec<Self::Position>);
}

pub fn cyclic_tier_order<G: CyclicScoreGame>(game: &G, roots: &[G::Tier]) -> Result<Vec<G::Tier>, CycleError> {
    crate::order::tier_order_by(roots, |t| game.child_tiers(t))
}

fn identity<G: CyclicScoreGame>(game: &G, tier: G::Tier) -> TableIdentity {
    TableIdentity { key: game.table_key(), tier: tier.to_string(), encoding: ValueEncoding::Score }
}

/// The finished tables of one game, by tier, memory-mapped.
pub struct CyclicTables<G: CyclicScoreGame> {
    dir: PathBuf,
    tables: BTreeMap<G::Tier, Table>,
}

/// Builds (or reuses, after checking them) every tier needed for `roots` in `dir`.
pub fn build<G: CyclicScoreGame>(
    game: &G,
    dir: &Path,
    roots: &[G::Tier],
    observer: &dyn Observer,
) -> Result<(CyclicTables<G>, BuildReport), BuildError> {
    let (tables, report) = build_tiers(
        dir,
        cyclic_tier_order(game, roots)?,
        |t| identity(game, t),
        |t| game.tier_size(t),
        |t, done| Ok(solve_tier(game, t, &|c| done.get(&c), observer)?),
        observer,
        &BuildOptions::default(),
    )?;
    Ok((CyclicTables { dir: dir.to_owned(), tables }, report))
}

/// Opens the finished tables needed for `roots` without building anything.
pub fn open<G: CyclicScoreGame>(game: &G, dir: &Path, roots: &[G::Tier]) -> Result<CyclicTables<G>, BuildError> {
    let tables = open_tiers(dir, cyclic_tier_order(game, roots)?, |t| identity(game, t))?;
    Ok(CyclicTables { dir: dir.to_owned(), tables })
}

impl<G: CyclicScoreGame> CyclicTables<G> {
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    pub fn table(&self, tier: G::Tier) -> Option<&Table> {
        self.tables.get(&tier)
    }

    /// The stored value at a tier and rank, for the player to move.
    #[inline]
    pub fn probe(&self, tier: G::Tier, rank: u64) -> Result<i16, ProbeError> {
        let table = self.tables.get(&tier).ok_or_else(|| ProbeError::MissingTier(tier.to_string()))?;
        let code = table.code(rank).ok_or_else(|| ProbeError::BadRank { tier: tier.to_string(), rank })?;
        Ok(code_score(code))
    }

    /// The value of a position for the player to move.
    pub fn value(&self, game: &G, position: &G::Position) -> Result<i16, ProbeError> {
        let (tier, rank) = game.locate(position);
        self.probe(tier, rank)
    }

    /// Positions covered and bytes on disk.
    pub fn size(&self) -> (u64, u64) {
        self.tables.values().fold((0, 0), |(p, b), t| (p + t.entries(), b + t.file_bytes()))
    }
}
