#![warn(missing_docs)]
//! Retrograde analysis of two-player games, tier by tier, in parallel.
//!
//! A [`Game`] splits its positions into tiers that play only leaves downwards and
//! numbers each tier's positions densely; its values are outcomes with distance or
//! scores ([`TableValue`]). [`store::build`] solves the tiers in dependency order
//! ([`order`]), each with the engine the game chooses for it ([`Engine`]: [`solve`],
//! [`acyclic`] or [`cyclic`]), and keeps each finished tier as one checked file ([`table`]). [`verify`] re-checks tables against
//! the rules, [`forward`] is an independent solver for tests, [`census`] counts what is
//! reachable, and [`line`](mod@line) reads best play back out.

pub mod acyclic;
mod blocks;
pub mod census;
pub mod children;
mod coded;
pub mod cyclic;
pub mod error;
pub mod forward;
pub mod game;
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
pub mod toy;
pub mod value;
pub mod verify;

pub use game::{Engine, Footprint, Game, Location, Move, Parent};
pub use prefetch::prefetch;
pub use store::Tables;
pub use value::{TableValue, Turn, Value};
