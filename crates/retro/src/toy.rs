//! A toy game that exercises every engine, so that the engines test themselves (and the
//! worked example of `docs/adding-a-game.md`).
//!
//! A pile of stones and a marker on `cells` cells. A move either **takes** one or two
//! stones, which moves the marker one cell on, or **shifts** the marker one cell on.
//! Taking while the marker is on cell 0 earns another move. The game ends when the pile
//! is empty. Three variants, one per engine:
//! - [`Toy::outcome`]: the cells form a ring; whoever cannot move loses (normal play).
//!   Shifting round the ring makes cycles inside a tier ([`Engine::Outcome`]).
//! - [`Toy::score`]: each stone taken scores one; the cells form a line, the marker
//!   only advances, so a tier's moves form a DAG ([`Engine::Acyclic`]).
//! - [`Toy::cyclic_score`]: scores, on a ring: cycles inside a tier, endless play
//!   scoring 0 ([`Engine::CyclicScore`]).
//!
//! Tier = stones in the pile (a take lowers it), rank = the marker's cell.

use crate::game::{Engine, Game, Location, Move};
use crate::value::{Turn, Value};
use std::fmt;
use std::marker::PhantomData;

/// A position: stones left and the marker's cell.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Pile {
    /// Stones in the pile.
    pub stones: u8,
    /// The marker's cell.
    pub marker: u8,
}

impl fmt::Display for Pile {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} stones, marker on {}", self.stones, self.marker)
    }
}

/// The toy game; `V` is the kind of value its tables hold.
#[derive(Debug, Clone, Copy)]
pub struct Toy<V> {
    cells: u8,
    ring: bool,
    _value: PhantomData<V>,
}

impl Toy<Value> {
    /// Win or loss with distance, marker on a ring of `cells` (at least 2) cells.
    pub fn outcome(cells: u8) -> Toy<Value> {
        Toy { cells: cells.max(2), ring: true, _value: PhantomData }
    }
}

impl Toy<i16> {
    /// Stones taken score, marker on a line of `cells` (at least 2) cells.
    pub fn score(cells: u8) -> Toy<i16> {
        Toy { cells: cells.max(2), ring: false, _value: PhantomData }
    }

    /// Stones taken score, marker on a ring of `cells` (at least 2) cells.
    pub fn cyclic_score(cells: u8) -> Toy<i16> {
        Toy { cells: cells.max(2), ring: true, _value: PhantomData }
    }
}

impl<V> Toy<V> {
    /// Cells the marker moves on.
    pub fn cells(&self) -> u8 {
        self.cells
    }

    /// Whether the cells form a ring (the marker goes round) rather than a line.
    pub fn ring(&self) -> bool {
        self.ring
    }

    /// The cell after `cell`, if the marker may go there.
    fn shifted(&self, cell: u8) -> Option<u8> {
        match cell + 1 {
            next if next < self.cells => Some(next),
            _ if self.ring => Some(0),
            _ => None,
        }
    }

    /// Every position of every tier up to `stones`.
    pub fn positions(&self, stones: u8) -> Vec<Pile> {
        (0..=stones).flat_map(|s| (0..self.cells).map(move |marker| Pile { stones: s, marker })).collect()
    }

    fn key(&self, kind: &str) -> String {
        format!("toy kind={kind} cells={} ring={}", self.cells, if self.ring { "yes" } else { "no" })
    }

    fn children(&self, p: &Pile, score: bool, out: &mut Vec<Move<Pile>>) {
        let after_take = self.shifted(p.marker).unwrap_or(p.marker);
        for take in 1..=p.stones.min(2) {
            out.push(Move {
                position: Pile { stones: p.stones - take, marker: after_take },
                gain: if score { take as i16 } else { 0 },
                turn: if p.marker == 0 { Turn::Keeps } else { Turn::Passes },
            });
        }
        if let Some(marker) = self.shifted(p.marker) {
            out.push(Move { position: Pile { stones: p.stones, marker }, gain: 0, turn: Turn::Passes });
        }
    }

    fn parents(&self, p: &Pile, out: &mut Vec<Move<Pile>>) {
        if p.stones == 0 {
            return;
        }
        for cell in (0..self.cells).filter(|&c| self.shifted(c) == Some(p.marker)) {
            out.push(Move { position: Pile { stones: p.stones, marker: cell }, gain: 0, turn: Turn::Passes });
        }
    }
}

/// The entries both value kinds share.
macro_rules! toy_game {
    ($value:ty, $kind:expr, $score:expr, $end:expr) => {
        impl Game for Toy<$value> {
            type Position = Pile;
            type Tier = u8;
            type Value = $value;

            fn table_key(&self) -> String {
                self.key($kind)
            }
            fn tier_size(&self, _tier: u8) -> u64 {
                self.cells as u64
            }
            fn child_tiers(&self, tier: u8) -> Vec<u8> {
                (1..=tier.min(2)).map(|take| tier - take).collect()
            }
            fn locate(&self, p: &Pile) -> Location<u8> {
                Location::at(p.stones, p.marker as u64)
            }
            fn material_tier(&self, p: &Pile) -> u8 {
                p.stones
            }
            fn position(&self, l: Location<u8>) -> Pile {
                Pile { stones: l.tier, marker: l.rank as u8 }
            }
            fn end(&self, p: &Pile) -> Option<$value> {
                (p.stones == 0).then_some($end)
            }
            fn moves(&self, p: &Pile, out: &mut Vec<Move<Pile>>) {
                self.children(p, $score, out)
            }
            fn lists_unmoves(&self) -> bool {
                true
            }
            fn packed(&self, p: &Pile) -> Option<u128> {
                Some(u128::from(p.stones) | u128::from(p.marker) << 8)
            }

            fn unmoves(&self, p: &Pile, out: &mut Vec<Move<Pile>>) {
                self.parents(p, out)
            }
            fn engine(&self, _tier: u8) -> Engine {
                match ($score, self.ring) {
                    (false, _) => Engine::Outcome,
                    (true, false) => Engine::Acyclic,
                    (true, true) => Engine::CyclicScore,
                }
            }
        }
    };
}

toy_game!(Value, "outcome", false, Value::Loss(0));
toy_game!(i16, "score", true, 0);
