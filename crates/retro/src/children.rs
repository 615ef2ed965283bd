//! The finished child tiers a tier's moves can reach, probed with checks: every engine
//! looks its lower-tier children up here.

use crate::table::{Table, TableError};
use std::collections::BTreeMap;
use thiserror::Error;

/// Why a move's child could not be looked up.
#[derive(Debug, Error, PartialEq, Eq)]
pub enum ChildError {
    /// A move into a tier that is not among the child tiers: a bug in the game.
    #[error("tier {tier}: a move leads to tier {child}, which is neither this tier nor a finished child tier")]
    UnexpectedTier {
        /// The tier, by name.
        tier: String,
        /// The child tier, by name.
        child: String,
    },
    /// A move to a rank past its tier's end: a bug in the game.
    #[error("tier {tier}: a move leads to rank {rank} of tier {child}, past its end")]
    RankOutOfRange {
        /// The tier, by name.
        tier: String,
        /// The child tier, by name.
        child: String,
        /// The rank.
        rank: u64,
    },
    /// A child's table that could not be read (a table read by position whose file
    /// changed since it was opened): the message names the file.
    #[error("{0}")]
    Unreadable(String),
}

impl From<Box<TableError>> for ChildError {
    fn from(e: Box<TableError>) -> ChildError {
        ChildError::Unreadable(e.to_string())
    }
}

/// The child tiers' tables, in a short list scanned in order: a map lookup per move
/// shows in profiles.
pub struct ChildTables<'a, T> {
    tier: T,
    tables: Vec<(T, &'a Table)>,
}

impl<'a, T: Copy + Ord + std::fmt::Display> ChildTables<'a, T> {
    /// The tables among `finished` of `tier`'s child tiers `children`.
    pub fn new(tier: T, children: Vec<T>, finished: &'a BTreeMap<T, Table>) -> Self {
        let mut tables: Vec<(T, &Table)> =
            children.into_iter().filter_map(|t| finished.get(&t).map(|table| (t, table))).collect();
        tables.sort_by_key(|t| t.0);
        tables.dedup_by(|a, b| a.0 == b.0);
        ChildTables { tier, tables }
    }

    /// The table of the child tier `child`, if it is one.
    #[inline(always)]
    fn table(&self, child: T) -> Option<&'a Table> {
        // Largest tiers first: a move loses little material, so its child's tier is most
        // often one of the highest below this one (Kalah's tier 20 has 20 tables below it).
        self.tables.iter().rev().find(|(t, _)| *t == child).map(|&(_, table)| table)
    }

    /// Asks for what a probe of `rank` in the child tier `child` reads to be fetched
    /// ([`Table::prefetch`]); nothing if `child` is not a finished child tier.
    #[inline(always)]
    pub fn prefetch(&self, child: T, rank: u64) {
        if let Some(table) = self.table(child) {
            table.prefetch(rank);
        }
    }

    /// The table of the child tier `child`; an error if it is not a finished child tier.
    /// For an engine that prefetches a probe and makes it later: the table is found once.
    #[inline(always)]
    pub fn table_of(&self, child: T) -> Result<&'a Table, ChildError> {
        self.table(child)
            .ok_or_else(|| ChildError::UnexpectedTier { tier: self.tier.to_string(), child: child.to_string() })
    }

    /// The value code at `rank` of the child tier `child`; an error if `child` is not a
    /// finished child tier or the rank lies past its end.
    #[inline(always)]
    pub fn code(&self, child: T, rank: u64) -> Result<u16, ChildError> {
        self.table_of(child)?.code(rank)?.ok_or_else(|| ChildError::RankOutOfRange {
            tier: self.tier.to_string(),
            child: child.to_string(),
            rank,
        })
    }
}
