//! The finished lower tiers a score tier's moves can reach, probed with checks: both score
//! engines ([`super::solve`], [`crate::cyclic`]) look children up here.

use super::{ScoreGame, ScoreSolveError};
use crate::table::Table;

/// The child tiers' tables, in a short list: a map lookup per move shows in profiles.
pub(crate) struct LowerTables<'a, G: ScoreGame> {
    tier: G::Tier,
    tables: Vec<(G::Tier, &'a Table)>,
}

impl<'a, G: ScoreGame> LowerTables<'a, G> {
    /// The finished tables among `tier`'s child tiers (`lower` finds them).
    pub(crate) fn new(game: &G, tier: G::Tier, lower: &dyn Fn(G::Tier) -> Option<&'a Table>) -> Self {
        let tables = game.child_tiers(tier).into_iter().filter_map(|t| lower(t).map(|table| (t, table))).collect();
        LowerTables { tier, tables }
    }

    /// The value code at `rank` of the lower tier `child`; an error if `child` is not a
    /// finished child tier or the rank lies past its end.
    #[inline]
    pub(crate) fn code(&self, child: G::Tier, rank: u64) -> Result<u16, ScoreSolveError> {
        let table =
            self.tables.iter().find(|(t, _)| *t == child).map(|&(_, table)| table).ok_or_else(|| {
                ScoreSolveError::UnexpectedTier { tier: self.tier.to_string(), child: child.to_string() }
            })?;
        table.code(rank).ok_or_else(|| ScoreSolveError::RankOutOfRange {
            tier: self.tier.to_string(),
            child: child.to_string(),
            rank,
        })
    }
}
