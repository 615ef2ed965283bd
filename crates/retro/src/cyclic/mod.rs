//! The cyclic score engine ([`crate::game::Engine::CyclicScore`]): score games whose
//! moves inside a tier form cycles (Awari), solved exactly by thresholds.
//!
//! A position's value `V ∈ [−n, n]` is the final difference, mover minus opponent, of the
//! `n` stones still on the board under perfect play; a game that never ends scores 0 (in
//! Awari a repeated position splits the remaining stones equally). Tiers are the stones
//! on the board. A position's moves are
//! - **exits**: they leave the tier (a capture), so the child's value is final, and are
//!   worth `gain − V(child)` to the mover when the turn passes, `gain + V(child)` when he
//!   moves again. A position with no move has its value fixed by the rules
//!   ([`crate::Game::end`]); the engine treats it as one exit of that worth.
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
//! ## Checking tables
//! [`crate::verify::verify_tier`] re-checks cyclic tables too, but here the local check is
//! **not complete on its own**: on a cycle whose positions' only moves are the cycle's
//! in-tier moves, any alternating values `v, −v, v, …` pass it, while the true value is 0
//! (endless play). A pass proves the tables are *a* fixpoint of the move equations, not
//! the right one; exactness rests on the attractor argument above and on the suite's
//! comparison with an independent solver on small boards (`games/tests/awari_tables.rs`).
//!
//! Tables use the common file format ([`crate::table`]) with [`crate::table::ValueEncoding::Score`]:
//! zigzag codes of the signed value ([`crate::value::score_code`]).

pub mod solve;

pub use solve::solve_tier;
