//! Why an engine could not solve a tier: one error for the three engines, each raising
//! the faults its kind of tier can have.

use crate::children::ChildError;
use thiserror::Error;

/// Why an engine could not solve a tier.
#[derive(Debug, Error, PartialEq, Eq)]
pub enum SolveError {
    /// A lower tier could not be read.
    #[error(transparent)]
    Child(#[from] ChildError),
    /// A tier shared between processes asks what sharing does not do.
    #[error(transparent)]
    Distributed(#[from] crate::distributed::DistributedError),
    /// The build was stopped inside the tier, as its test hook asked
    /// ([`crate::checkpoint::Checkpoints::new`]).
    #[error("the build was stopped inside tier {tier}, as asked")]
    Stopped {
        /// The tier, by name.
        tier: String,
    },
    /// A position that is not over has no move: a bug in the game.
    #[error("tier {tier}: position {position} is not over but has no move")]
    NoMove {
        /// The tier, by name.
        tier: String,
        /// The position, in notation.
        position: String,
    },
    /// More positions than this machine can address.
    #[error("tier {tier} has {size} positions, more than this machine's address space allows")]
    TooLarge {
        /// The tier, by name.
        tier: String,
        /// Its positions.
        size: u64,
    },
    /// The scratch file of a tier solved in parts could not be made.
    #[error("tier {tier}: cannot make the scratch file {file} for its slots: {error}")]
    Scratch {
        /// The tier, by name.
        tier: String,
        /// The file.
        file: std::path::PathBuf,
        /// The cause (a full disk, say), as the system told it.
        error: String,
    },
    /// The memory for a tier's slots could not be had.
    #[error("tier {tier}: cannot get {bytes} bytes of memory for its slots: {error}")]
    Memory {
        /// The tier, by name.
        tier: String,
        /// The bytes asked for.
        bytes: u64,
        /// The cause, as the system told it.
        error: String,
    },
    /// A tier solved in parts needs its parents from un-moves: the parents a scan finds
    /// are held in memory, which is what parts are meant to spare.
    #[error("tier {tier}: solving a tier in parts needs a game that lists un-moves")]
    PartsNeedUnmoves {
        /// The tier, by name.
        tier: String,
    },
    /// Outcome engine: a game longer than the engine's distances.
    #[error("tier {tier}: a game lasts more than {limit} plies, beyond what the engine holds")]
    TooDeep {
        /// The tier, by name.
        tier: String,
        /// The longest distance held.
        limit: u16,
    },
    /// Acyclic engine: the moves inside the tier come back to a position.
    #[error("tier {tier}: the moves inside the tier come back to a position; this engine needs them acyclic")]
    Cycle {
        /// The tier, by name.
        tier: String,
    },
    /// Acyclic and cyclic engines: a value outside the codes the engine or table holds.
    #[error("tier {tier}: the value {value} does not fit the engine's codes")]
    Range {
        /// The tier, by name.
        tier: String,
        /// The value.
        value: String,
    },
    /// Cyclic engine: a move inside the tier gains or keeps the turn.
    #[error("tier {tier}: position {position} has a move inside the tier that gains or keeps the turn")]
    InTierGain {
        /// The tier, by name.
        tier: String,
        /// The position, in notation.
        position: String,
    },
    /// Cyclic engine: an un-move leads out of the tier (a bug in the game).
    #[error("tier {tier}: an un-move of {position} leaves the tier")]
    UnmoveOutsideTier {
        /// The tier, by name.
        tier: String,
        /// The position, in notation.
        position: String,
    },
    /// Cyclic engine: un-moves list a parent more often than it has moves here (a bug in
    /// the game).
    #[error("tier {tier}: un-moves list {position} as a parent more often than it has moves inside the tier")]
    UnmoveNotAMove {
        /// The tier, by name.
        tier: String,
        /// The position, in notation.
        position: String,
    },
    /// Outcome and cyclic engines: more distinct moves inside the tier from one position
    /// than the engine counts.
    #[error("tier {tier}: position {position} has more than {limit} distinct moves inside the tier")]
    TooManyChildren {
        /// The tier, by name.
        tier: String,
        /// The position, in notation.
        position: String,
        /// The most the engine counts.
        limit: u16,
    },
}
