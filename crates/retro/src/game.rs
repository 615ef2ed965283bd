//! What a game must give the engines, and the invariants it must keep.
//!
//! One trait serves every kind of value ([`TableValue`]): outcomes with distance
//! ([`crate::Value`]) and scores (`i16`, the difference still to be gained by the mover).
//! Each tier is solved by one of the [`Engine`]s, chosen per tier by [`Game::engine`].
//!
//! The invariants, tested for every game by `games`' invariant suites:
//! 1. `locate(position(loc)) == loc` for every location, and
//!    `position(locate(p))` is `p` itself (orientation included), or, in a game that
//!    folds a symmetry without an orientation to tell the images apart
//!    ([`Game::images`]), the image of `p` that the rank stands for.
//! 2. Every move leads to the same tier or to one of `child_tiers(tier)`; the tier
//!    graph is acyclic apart from each tier's own loops.
//! 3. A position where `end` is `None` has at least one move (the moves of a finished
//!    game are never asked for).
//! 4. Where `lists_unmoves` is true, `unmoves` lists, for a position `c`, exactly the
//!    positions `p` of the same tier, not over, such that `c` is among `moves(p)`, each
//!    with that move's turn (read by the [`Engine::Outcome`] and [`Engine::CyclicScore`]
//!    engines; without it they find the parents from the moves).
//! 5. Positions that are images under a symmetry of the rules have the same value.
//! 6. For [`Engine::Acyclic`]: the moves that stay inside a tier never come back to a
//!    position. For [`Engine::CyclicScore`]: a move inside a tier gains nothing and
//!    passes the turn.
//! 7. With two orientations, the position of orientation 1 at a rank is the image of the
//!    one of orientation 0 under a symmetry of the rules that is its own inverse: its
//!    moves lead to the same locations with the orientation flipped, with the same gains
//!    and turns (the reachable census expands such a pair once, `crate::census`).

use crate::value::{TableValue, Turn};
use std::fmt::{Debug, Display};
use std::hash::Hash;

/// Moves `moves[first..]` into `tier` go to `same_tier` as distinct `(rank, turn)` pairs,
/// sorted; the others stay in `moves`, in their order.
pub(crate) fn split_moves<T: Copy + Eq>(
    tier: T,
    moves: &mut Vec<Move<Location<T>>>,
    first: usize,
    same_tier: &mut Vec<(u64, Turn)>,
) {
    same_tier.clear();
    same_tier.extend(moves[first..].iter().filter(|m| m.position.tier == tier).map(|m| (m.position.rank, m.turn)));
    let mut i = 0;
    moves.retain(|m| {
        i += 1;
        i <= first || m.position.tier != tier
    });
    same_tier.sort_unstable();
    same_tier.dedup();
}

/// Moves `moves[first..]` into `tier` are taken out and counted, every one; the others
/// stay in `moves`, in their order. Returns the count.
pub(crate) fn count_same_tier<T: Copy + Eq>(tier: T, moves: &mut Vec<Move<Location<T>>>, first: usize) -> usize {
    let before = moves.len();
    let mut i = 0;
    moves.retain(|m| {
        i += 1;
        i <= first || m.position.tier != tier
    });
    before - moves.len()
}

/// Where a position lives: its tier, its dense rank inside the tier, and which of the
/// positions sharing that rank it is (0 for the one the tables are built on).
///
/// Games fold symmetric positions onto one rank (for example a colour swap with a board
/// turned round); `orientation` tells them apart again, so that
/// `(tier, rank, orientation)` names exactly one position.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Location<T> {
    /// The tier.
    pub tier: T,
    /// The rank inside the tier.
    pub rank: u64,
    /// Which of the positions sharing the rank (0: the one solved).
    pub orientation: u8,
}

impl<T> Location<T> {
    /// The location of orientation 0 (the one solved) at `rank` of `tier`.
    pub fn at(tier: T, rank: u64) -> Location<T> {
        Location { tier, rank, orientation: 0 }
    }
}

/// One move: where it leads (a position, or its location), what its mover banks at once
/// (always 0 in outcome games), and whether he moves again there.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Move<P> {
    /// The position the move leads to (or its location).
    pub position: P,
    /// Score the mover banks with this move (in sowing games: seeds sown into his own
    /// store and captured).
    pub gain: i16,
    /// Whether the mover moves again.
    pub turn: Turn,
}

/// A parent found by an un-move: where it lives, the turn of its move, and how many of
/// its counted same-tier moves the un-move stands for ([`Game::unmove_locations`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Parent<T> {
    /// The parent's location.
    pub location: Location<T>,
    /// Whether the parent's mover moves again after the move.
    pub turn: Turn,
    /// How many of the parent's counted same-tier moves this un-move accounts for: 1
    /// unless the game folds a symmetry into its ranks (then 0, 1 or 2, see
    /// [`Game::scan_moves`]).
    pub weight: u8,
}

/// The retrograde engine that solves a tier (see the crate's modules of the same names).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Engine {
    /// Outcomes with distance by retrograde analysis ([`crate::solve`]); parents from the game's
    /// un-moves where it lists them, else found from the moves ([`crate::parents`]).
    Outcome,
    /// Any kind of value, the moves inside a tier forming a DAG (or none staying in
    /// it): memoised depth-first evaluation ([`crate::acyclic`]).
    Acyclic,
    /// Scores whose moves inside a tier may cycle, endless play scoring 0: thresholds by
    /// retrograde analysis ([`crate::cyclic`]); parents as for [`Engine::Outcome`].
    CyclicScore,
}

impl Engine {
    /// The engine's name in messages.
    pub fn name(self) -> &'static str {
        match self {
            Engine::Outcome => "outcome",
            Engine::Acyclic => "acyclic",
            Engine::CyclicScore => "cyclic score",
        }
    }
}

/// Bytes a position costs while its tier is solved and once its table is finished.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Footprint {
    /// Working bytes a position of the tier being solved.
    pub work: f64,
    /// Bytes a position of a finished table on disk, at most.
    pub table: f64,
    /// Bytes a position of a finished table adds to the peak memory while later tiers are
    /// solved: its table's, mapped, unless the game reads so little of it that its pages
    /// are evicted as needed.
    pub mapped: f64,
    /// Positions solved a second by one thread, roughly: for the time a build is
    /// announced to take (measured on a 2-core machine, docs/performance.md).
    pub rate: f64,
}

impl Footprint {
    /// An engine's own cost. Outcome: a two-byte slot (see [`crate::solve`]); tables of
    /// 16-bit codes. Acyclic: the value slot, turned into the table's codes in place (the
    /// table is packed and written a piece at a time), two bytes here and narrowed by
    /// [`Footprint::of_tier`]. Cyclic score: a two-byte slot (best exit and counter, then
    /// the value), turned into the codes in place, and the frontier (measured: about 6 % of
    /// a tier at once, 8 bytes each). Parents found from moves ([`crate::parents`]) add
    /// about 40 bytes (measured 40 to 60) and halve the rate. Rates: THI` under the outcome
    /// engine, Trias under the acyclic one, Awari under the cyclic one.
    pub fn of(engine: Engine, lists_unmoves: bool) -> Footprint {
        let (work, table, rate) = match engine {
            Engine::Outcome => (2.0, 2.0, 0.8e6),
            Engine::Acyclic => (2.0, 2.0, 1.6e6),
            Engine::CyclicScore => (2.5, 2.0, 1.1e6),
        };
        if lists_unmoves || engine == Engine::Acyclic {
            Footprint { work, table, mapped: table, rate }
        } else {
            Footprint { work: work + 40.0, table, mapped: table, rate: rate / 2.0 }
        }
    }

    /// [`Footprint::of`] the engine `game` chooses for `tier`; for the acyclic engine,
    /// where the game bounds the tier's codes ([`Game::largest_code`]), a slot of one byte
    /// instead of two below 255, and the table at the bits its largest code packs into.
    /// Trias 3×6 with one stone a hole, whose tables were announced at a byte a position,
    /// was announced 12.7 GiB at the peak and took 6.9 GiB: its codes pack into 6 bits.
    pub fn of_tier<G: Game + ?Sized>(game: &G, tier: G::Tier) -> Footprint {
        let engine = game.engine(tier);
        let footprint = Footprint::of(engine, game.lists_unmoves());
        match game.largest_code(tier) {
            Some(code) if engine == Engine::Acyclic => {
                let work = if crate::acyclic::byte_slots(game, tier) { 1.0 } else { 2.0 };
                let table = f64::from(encoding::bits_for(code.into())) / 8.0;
                Footprint { work, table, mapped: table, ..footprint }
            }
            _ => footprint,
        }
    }
}

/// A two-player game of perfect information, split into tiers that play never leaves
/// except towards lower tiers.
pub trait Game: Sync {
    /// Displays in the game's text notation.
    type Position: Clone + Eq + Hash + Debug + Display + Send + Sync;
    /// A tier: what play never increases (material), ordered so children come first.
    type Tier: Copy + Eq + Ord + Hash + Debug + Display + Send + Sync;
    /// What the tables hold for a position: its value for the player to move.
    type Value: TableValue;

    /// **Required.** Names the game, its rules and its parameters; written into every
    /// table header and checked when a table is opened. Two games with equal keys must
    /// have equal tables.
    fn table_key(&self) -> String;

    /// **Required.** Number of ranks in `tier`.
    fn tier_size(&self, tier: Self::Tier) -> u64;

    /// **Required.** The tiers that a move from `tier` can reach, other than `tier` itself.
    fn child_tiers(&self, tier: Self::Tier) -> Vec<Self::Tier>;

    /// **Optional.** How many positions share one rank at most (orientations
    /// `0..orientations()`); 1 unless the game folds symmetric positions.
    fn orientations(&self) -> u8 {
        1
    }

    /// **Optional.** How many positions the one given stands for: 1 unless the game folds
    /// a symmetry into its ranks without an orientation to tell the images apart (THI`'s
    /// mirror), where a position that is not its own image stands for 2. The same for
    /// every orientation of a rank. The reachable census counts with it
    /// (`crate::census`).
    fn images(&self, position: &Self::Position) -> u64 {
        let _ = position;
        1
    }

    /// **Required.** The tier, rank and orientation of a position.
    fn locate(&self, position: &Self::Position) -> Location<Self::Tier>;

    /// **Optional.** The tier of a position from its material alone, without ranking it:
    /// `locate(p).tier` wherever the game's index numbers `p`, and defined as well for a
    /// position of more material than the index holds (a board people play, above the
    /// tables built). A search above the tables reads it at every node, to ask the tables
    /// only of positions whose tier is built (`search::tree`). Material past what the
    /// tier's type counts gives its greatest tier, one no table holds. The default
    /// locates.
    fn material_tier(&self, position: &Self::Position) -> Self::Tier {
        self.locate(position).tier
    }

    /// **Optional.** [`Game::material_tier`] of the position `step` leads to from a position
    /// of `tier`, asked only where the game goes on there. The window search
    /// (`search::window`) asks it of every child; a game whose moves change the material
    /// by what they bank says so without counting the child again. The default counts.
    fn material_tier_after(&self, tier: Self::Tier, step: &Move<Self::Position>) -> Self::Tier {
        let _ = tier;
        self.material_tier(&step.position)
    }

    /// **Required.** The position at a location. Orientation 0 is the one solved.
    fn position(&self, location: Location<Self::Tier>) -> Self::Position;

    /// **Optional.** The position at `rank`, given the one at `rank − 1` (`previous`).
    /// Games whose rank order has a cheap successor override this; the default unranks.
    #[inline]
    fn next_position(&self, tier: Self::Tier, rank: u64, previous: &Self::Position) -> Self::Position {
        let _ = previous;
        self.position(Location::at(tier, rank))
    }

    /// **Required.** The value for the player to move where the game is over, `None`
    /// where it goes on.
    fn end(&self, position: &Self::Position) -> Option<Self::Value>;

    /// **Required.** The legal moves of a position that is not over, appended to `out`.
    /// Order is the game's move order; several moves may lead to one position.
    fn moves(&self, position: &Self::Position, out: &mut Vec<Move<Self::Position>>);

    /// **Optional.** The moves of [`Game::moves`], in its order, written to the front of
    /// `out`; returns how many there are, which past `out.len()` says the position has
    /// more than `out` holds (those past it are not written). For a search that keeps a
    /// node's moves in an array of its own (the window search: a tenth of a Kalah node's
    /// instructions went to the vector); the default goes through [`Game::moves`].
    fn moves_into(&self, position: &Self::Position, out: &mut [Move<Self::Position>]) -> usize {
        let mut moves = Vec::new();
        self.moves(position, &mut moves);
        let n = moves.len();
        for (slot, m) in out.iter_mut().zip(moves) {
            *slot = m;
        }
        n
    }

    /// **Optional.** The moves of `moves`, in its order, with their positions located,
    /// appended to `out`. Games may override this to rank children without building them.
    fn move_locations(&self, position: &Self::Position, out: &mut Vec<Move<Location<Self::Tier>>>) {
        let mut moves = Vec::new();
        self.moves(position, &mut moves);
        out.extend(moves.iter().map(|m| Move { position: self.locate(&m.position), gain: m.gain, turn: m.turn }));
    }

    /// **Optional.** What the outcome engine's scan needs of the moves of `position` (in
    /// `tier`, not over): those that leave the tier, located, in move order, appended to
    /// `out`; and the count of same-tier moves the position waits on, returned.
    ///
    /// What is counted depends on how the engine finds a tier's parents:
    /// - A game that lists un-moves ([`Game::lists_unmoves`]) counts **every** same-tier
    ///   move, each path on its own even where several lead to one position: a push
    ///   counts a parent down once for each un-move that finds it, by the un-move's
    ///   weight ([`Game::unmove_locations`]), without sorting the parents to drop
    ///   repeats. The default counts them so; a game may count without ranking them and
    ///   leave `same_tier` empty.
    /// - Without un-moves, the parents come from the scan's same-tier children: the
    ///   default writes their distinct `(rank, turn)` pairs to `same_tier`, sorted, and
    ///   returns how many there are.
    ///
    /// The invariant kit checks the count against the located moves, and that the
    /// un-moves account for it exactly.
    fn scan_moves(
        &self,
        tier: Self::Tier,
        position: &Self::Position,
        out: &mut Vec<Move<Location<Self::Tier>>>,
        same_tier: &mut Vec<(u64, Turn)>,
    ) -> usize {
        let first = out.len();
        self.move_locations(position, out);
        if self.lists_unmoves() {
            same_tier.clear();
            count_same_tier(tier, out, first)
        } else {
            split_moves(tier, out, first, same_tier);
            same_tier.len()
        }
    }

    /// **Optional.** The positions of the same tier, not over, with a move to `position`,
    /// each with that move's turn (gain unused), appended to `out`: one entry for each
    /// such move, so a parent with two moves to `position` is listed twice. Read only
    /// where [`Game::lists_unmoves`] says so.
    fn unmoves(&self, position: &Self::Position, out: &mut Vec<Move<Self::Position>>) {
        let _ = (position, out);
    }

    /// **Optional.** The parents of [`Game::unmoves`], in its order, located, each with
    /// its move's turn and weight, appended to `out`; `scratch` is room for the default,
    /// which lists them there and locates them one by one, each of weight 1. Games may
    /// override this to rank a parent from what it shares with `position` instead of
    /// building it; the invariant kit checks the two agree on locations and turns.
    ///
    /// The engine pushes a rank's value from its orientation-0 position, and counts each
    /// parent found down by the weight. Summed over those un-moves, the weights of the
    /// parents at one rank must equal the same-tier moves of that rank's orientation-0
    /// position into the pushed rank, as [`Game::scan_moves`] counts them. Without a
    /// symmetry folded into the ranks, one un-move a move and weight 1 does that. A game
    /// that folds one without an orientation ([`Game::images`]) weighs an un-move by how
    /// its parent and the pushed position stand to the fold; the invariant kit checks the
    /// sums.
    fn unmove_locations(
        &self,
        position: &Self::Position,
        scratch: &mut Vec<Move<Self::Position>>,
        out: &mut Vec<Parent<Self::Tier>>,
    ) {
        scratch.clear();
        self.unmoves(position, scratch);
        out.extend(scratch.iter().map(|p| Parent { location: self.locate(&p.position), turn: p.turn, weight: 1 }));
    }

    /// **Optional.** Whether [`Game::unmoves`] lists the parents; `false` by default. The
    /// [`Engine::Outcome`] and [`Engine::CyclicScore`] engines push values to parents:
    /// without un-moves they find a tier's parents from its moves, during the scan they
    /// do anyway ([`crate::parents`]; about 8 bytes of memory a same-tier move and 8 a
    /// position). Un-moves are faster and lighter where a game can give them; a game
    /// whose moves are hard to undo (multi-lap sowing) needs none.
    fn lists_unmoves(&self) -> bool {
        false
    }

    /// **Optional.** The engine that solves `tier`; the default is the value kind's
    /// ([`TableValue::ENGINE`]). It must suit the value kind: building refuses one that
    /// does not.
    fn engine(&self, tier: Self::Tier) -> Engine {
        let _ = tier;
        Self::Value::ENGINE
    }

    /// **Optional.** What a position of `tier` costs in memory, for the check made before
    /// a build ([`crate::memory::check_build`]): its working bytes while the tier is
    /// solved, and its bytes in the finished table. The default is the engine's own
    /// ([`Footprint::of_tier`]); a game measured to need more (many parents found from moves)
    /// says so here.
    fn footprint(&self, tier: Self::Tier) -> Footprint {
        Footprint::of_tier(self, tier)
    }

    /// **Optional.** Bounds on the value of `position`, a position not over, that hold
    /// whatever is played: in a score game, what the material still in play allows (the
    /// mover can gain no more than all of it, nor lose more). `None` (the default): no
    /// bound beyond the value kind's own. A search above the tables gives a position it
    /// cuts off at its horizon these bounds (`search::tree`), so they must contain the
    /// position's value; the search's tests check that they contain every table value.
    fn value_bounds(&self, position: &Self::Position) -> Option<(Self::Value, Self::Value)> {
        let _ = position;
        None
    }

    /// **Optional.** The position as one number below 2^96, a different number for every
    /// position, where the game has one for it; `None` (the default) where it has not.
    /// The window search (`search::window`) keeps a position in its lockless
    /// transposition table by this number (an entry read back by its number alone is
    /// never another position's); a position without one is searched again each time it
    /// is met. Only acyclic score games are searched by that search.
    fn packed(&self, position: &Self::Position) -> Option<u128> {
        let _ = position;
        None
    }

    /// **Optional.** Bounds that contain the value of every position of `tier` where the
    /// game goes on, where the game knows them from the tier alone; `None` (the default)
    /// where it does not. The window search (`search::window`) takes them before
    /// [`Game::value_bounds`], at every node it may search: a tier's bounds are known
    /// without looking at the position again.
    fn tier_value_bounds(&self, tier: Self::Tier) -> Option<(Self::Value, Self::Value)> {
        let _ = tier;
        None
    }

    /// **Optional.** As [`Game::end`], for a search that must spend bounded work on a
    /// position: `None` also where the game could not decide, within a fixed effort,
    /// whether some move is legal (and so whether the mover has one). Only a game whose
    /// rules can take unbounded work to decide a move's legality (Trias's sowings, which
    /// may never end) overrides it, with [`Game::moves_decided`]; the tables keep the
    /// exact `end` and `moves`.
    fn end_decided(&self, position: &Self::Position) -> Option<Self::Value> {
        self.end(position)
    }

    /// **Optional.** As [`Game::moves`], within the effort of [`Game::end_decided`]: the
    /// moves decided legal, appended to `out`, and whether every move was decided. Where
    /// one was not, it may be legal with a value nobody knows: a search gives the
    /// position no upper bound below the widest.
    fn moves_decided(&self, position: &Self::Position, out: &mut Vec<Move<Self::Position>>) -> bool {
        self.moves(position, out);
        true
    }

    /// **Optional.** A bound on the value codes ([`TableValue::code`]) of `tier`'s
    /// positions, where the game knows one; `None` (the default) where it does not. The
    /// acyclic engine keeps one byte a position instead of two while it solves a tier
    /// whose bound is below 255, so that more of the tier and of the tables it probes
    /// stays in the cache. The bound only chooses that width: a code that does not fit
    /// a byte is refused ([`crate::solve::SolveError::Range`]), never cut.
    fn largest_code(&self, tier: Self::Tier) -> Option<u16> {
        let _ = tier;
        None
    }
}
