#![warn(missing_docs)]
//! Retrograde analysis of two-player games, tier by tier, in parallel.
//!
//! A [`Game`] splits its positions into tiers that play only leaves downwards and
//! numbers each tier's positions densely; its values are outcomes with distance or
//! scores ([`TableValue`]). [`store::build`] solves the tiers in dependency order
//! ([`order`]), each with the engine the game chooses for it ([`Engine`]: [`solve`],
//! [`acyclic`] or [`cyclic`]), and keeps each finished tier as one checked file ([`table`]);
//! a tier being solved is saved now and then ([`checkpoint`]), so that a build stopped
//! inside it resumes there. [`verify`] re-checks tables against
//! the rules, [`census`] counts what is reachable, and [`line`](mod@line) reads best play
//! back out.
//!
//! The cargo feature `testing` adds the scaffolding that tests of the engines and of the
//! games share, which a user of the library does not need: `kit` (the invariant checks
//! every game must pass), `toy` (a toy game with one variant per engine) and `forward`
//! (plain forward solvers, the oracles the tables are compared with).

pub mod acyclic;
mod blocks;
pub mod census;
pub mod checkpoint;
pub mod children;
mod coded;
pub mod cyclic;
pub mod distributed;
pub mod error;
#[cfg(feature = "testing")]
pub mod forward;
pub mod game;
#[cfg(feature = "testing")]
pub mod kit;
pub mod line;
pub mod memory;
pub mod order;
pub mod parents;
mod positioned;
mod prefetch;
pub mod solve;
pub mod store;
pub mod table;
#[cfg(feature = "testing")]
pub mod toy;
pub mod value;
pub mod verify;

pub use game::{Engine, Footprint, Game, Location, Move, Parent};
pub use prefetch::prefetch;
pub use store::Tables;
pub use value::{TableValue, Turn, Value};
