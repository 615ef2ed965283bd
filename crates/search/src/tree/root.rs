//! The root of a search, as each thread searches it: iterations on a growing horizon,
//! each root move searched as a root of its own, the moves' bounds taken from and given
//! to the other threads after each.

use super::node::{Halt, Known, Searcher};
use super::scale::{child_window, worth_bounds, Scale, ABOVE, BELOW};
use super::{MoveBounds, Stop};
use retro::store::ProbeError;
use retro::Game;

/// The root of a search: its moves with their bounds, its own bounds, the horizon.
#[derive(Clone)]
pub(super) struct Root<P, V> {
    pub position: P,
    pub moves: Vec<MoveBounds<P, V>>,
    /// The table's value, where the root's tier is built.
    tabled: Option<V>,
    /// Some move not decided legal ([`Game::moves_decided`]): no upper bound below the
    /// widest.
    undecided: bool,
    pub lower: V,
    pub upper: V,
    pub horizon: u32,
}

/// How a thread's search of the root ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Ended {
    /// It ran to its end: the value exact and every move's as far as it goes.
    Done,
    /// The budget ran out, or the caller asked to stop.
    Stopped(Stop),
    /// Another thread ran to the end first.
    Overtaken,
}

/// What a thread's search of the root ended with, where not an answer of the root.
fn ended(halt: Halt) -> Result<Ended, ProbeError> {
    match halt {
        Halt::Stopped(stop) => Ok(Ended::Stopped(stop)),
        Halt::Overtaken => Ok(Ended::Overtaken),
        Halt::Probe(e) => Err(e),
        Halt::Superseded => unreachable!("a root move's search answers its supersession"),
    }
}

impl<P: Clone, V: Scale> Root<P, V> {
    pub fn new<G: Game<Position = P, Value = V>>(
        searcher: &mut Searcher<'_, G>,
        position: &P,
    ) -> Result<Self, ProbeError> {
        let tabled = match searcher.known(position)? {
            Some(Known::Over(v)) => {
                return Ok(Root {
                    position: position.clone(),
                    moves: Vec::new(),
                    tabled: Some(v),
                    undecided: false,
                    lower: v,
                    upper: v,
                    horizon: 0,
                })
            }
            Some(Known::Table(v)) => Some(v),
            None => None,
        };
        let mut steps = Vec::new();
        let decided = searcher.game.moves_decided(position, &mut steps);
        let mut moves = Vec::with_capacity(steps.len());
        for step in steps {
            let child = match searcher.known(&step.position)? {
                Some(Known::Over(v) | Known::Table(v)) => (v, v),
                None => {
                    let (lower, upper, _) = searcher.stored(&step.position);
                    (lower, upper)
                }
            };
            let (lower, upper) = worth_bounds(child, step.gain, step.turn);
            moves.push(MoveBounds { step, lower, upper });
        }
        searcher.shared.set_root(&moves);
        let (lower, upper) = searcher.widest(position);
        let mut root =
            Root { position: position.clone(), moves, tabled, undecided: !decided, lower, upper, horizon: 0 };
        root.combine();
        Ok(root)
    }

    /// Whether the root's value and every move's are exact: nothing left to search.
    pub fn is_settled(&self) -> bool {
        self.lower == self.upper && self.moves.iter().all(|m| m.lower == m.upper)
    }

    /// The root searched by one thread: its value, then its moves'; the other threads
    /// told to stop when it ends (or fails).
    pub fn search<G: Game<Position = P, Value = V>>(
        &mut self,
        searcher: &mut Searcher<'_, G>,
    ) -> Result<Ended, ProbeError> {
        let result = match self.deepen(searcher) {
            Ok(Ended::Done) => self.settle_moves(searcher),
            other => other,
        };
        if !matches!(result, Ok(Ended::Stopped(_) | Ended::Overtaken)) {
            searcher.shared.finish();
        }
        result
    }

    /// The root's bounds from its moves', and the table's value.
    pub fn combine(&mut self) {
        if let Some(lower) = self.moves.iter().map(|m| m.lower).max() {
            self.lower = self.lower.max(lower);
        }
        if let Some(upper) = self.moves.iter().map(|m| m.upper).max().filter(|_| !self.undecided) {
            self.upper = self.upper.min(upper);
        }
        if let Some(v) = self.tabled {
            (self.lower, self.upper) = (v, v);
        }
    }

    /// The moves' bounds intersected with the other threads', and the root's from them.
    pub fn merge<G: Game<Position = P, Value = V>>(&mut self, searcher: &Searcher<'_, G>) {
        searcher.shared.merge(&mut self.moves);
        self.combine();
    }

    /// The move with the greatest lower bound, the first of those in the game's order
    /// (with an exact value, a move of proven best worth).
    pub fn best(&self) -> Option<usize> {
        let most = self.moves.iter().map(|m| m.lower).max()?;
        self.moves.iter().position(|m| m.lower == most)
    }

    /// Moves in the order to search them: the best so far first.
    fn order(&self) -> Vec<usize> {
        let best = self.best();
        best.into_iter().chain((0..self.moves.len()).filter(|&i| Some(i) != best)).collect()
    }

    /// The next of the moves `left` (in the order to search them) to search, after the
    /// other threads' bounds are taken: one still `open`, and no other thread's if any
    /// is not; it leaves `left`.
    fn next<G: Game<Position = P, Value = V>>(
        &mut self,
        searcher: &Searcher<'_, G>,
        left: &mut Vec<usize>,
        open: impl Fn(&Self, &MoveBounds<P, V>) -> bool,
    ) -> Option<usize> {
        self.merge(searcher);
        left.retain(|&i| open(self, &self.moves[i]));
        let i = searcher.shared.claim(left)?;
        left.retain(|&j| j != i);
        Some(i)
    }

    /// Iterations on a growing horizon until the value is exact or the budget is spent.
    fn deepen<G: Game<Position = P, Value = V>>(
        &mut self,
        searcher: &mut Searcher<'_, G>,
    ) -> Result<Ended, ProbeError> {
        while self.lower != self.upper {
            self.horizon += 1;
            searcher.shown = (self.lower, self.upper, self.horizon);
            searcher.cut_off = false;
            let iteration = if V::NULL_WINDOWS { self.null_windows(searcher) } else { self.full_window(searcher) };
            self.merge(searcher);
            searcher.store(&self.position, self.lower, self.upper, None);
            if let Err(halt) = iteration {
                return ended(halt);
            }
            if !searcher.cut_off {
                debug_assert!(self.lower == self.upper, "a search with no cut-off is exact");
                break;
            }
        }
        Ok(Ended::Done)
    }

    /// Once the value is exact: iterations on a growing horizon that prove each move's
    /// own value (a report lists them all), until every one is exact or the budget is
    /// spent.
    fn settle_moves<G: Game<Position = P, Value = V>>(
        &mut self,
        searcher: &mut Searcher<'_, G>,
    ) -> Result<Ended, ProbeError> {
        while self.moves.iter().any(|m| m.lower != m.upper) {
            self.horizon += 1;
            searcher.shown = (self.lower, self.upper, self.horizon);
            searcher.cut_off = false;
            let mut left: Vec<usize> = (0..self.moves.len()).collect();
            while let Some(i) = self.next(searcher, &mut left, |_, m| m.lower != m.upper) {
                if let Err(halt) = self.search_move(searcher, i, (BELOW, ABOVE)) {
                    return ended(halt);
                }
            }
            if !searcher.cut_off {
                break;
            }
        }
        Ok(Ended::Done)
    }

    /// Searches move `i` as a root of its own, deciding `window` on its worth; its
    /// bounds narrowed by what that proves, and by what the other threads proved. A
    /// search the other threads' bounds decide first is left (its iteration then counts
    /// as cut off).
    fn search_move<G: Game<Position = P, Value = V>>(
        &mut self,
        searcher: &mut Searcher<'_, G>,
        i: usize,
        window: (i32, i32),
    ) -> Result<(), Halt> {
        let step = &self.moves[i].step;
        searcher.clear_path();
        searcher.watched = Some((i, window));
        let child_window = child_window::<V>(window, step.gain, step.turn);
        let found = searcher.node(&step.position, 0, self.horizon - 1, child_window);
        searcher.watched = None;
        searcher.shared.release(i);
        let result = match found {
            Ok(found) => {
                let (lower, upper) = worth_bounds((found.lower, found.upper), step.gain, step.turn);
                let m = &mut self.moves[i];
                (m.lower, m.upper) = (m.lower.max(lower), m.upper.min(upper));
                Ok(())
            }
            Err(Halt::Superseded) => {
                searcher.cut_off = true;
                Ok(())
            }
            Err(halt) => Err(halt),
        };
        self.merge(searcher);
        result
    }

    /// One iteration with the full window: each move searched for whether it beats the
    /// best lower bound so far.
    fn full_window<G: Game<Position = P, Value = V>>(&mut self, searcher: &mut Searcher<'_, G>) -> Result<(), Halt> {
        let floor = |root: &Self| root.moves.iter().map(|m| m.lower.scale()).max().unwrap_or(BELOW);
        let mut left = self.order();
        while let Some(i) =
            self.next(searcher, &mut left, |root, m| m.lower != m.upper && m.upper.scale() > floor(root))
        {
            self.search_move(searcher, i, (floor(self), ABOVE))?;
        }
        Ok(())
    }

    /// One iteration of MTD(f): null-window tests of whether the value reaches a
    /// target, each target the bound the last test proved, until the value is exact or
    /// a test is left undecided by the horizon.
    fn null_windows<G: Game<Position = P, Value = V>>(&mut self, searcher: &mut Searcher<'_, G>) -> Result<(), Halt> {
        let mut guess = self.moves.get(self.best().unwrap_or(0)).map_or(0, |m| m.lower.scale().max(self.lower.scale()));
        while self.lower != self.upper {
            let target = guess.clamp(self.lower.scale() + 1, self.upper.scale());
            match self.test(searcher, target)? {
                Some(true) => guess = self.lower.scale(),
                Some(false) => guess = self.upper.scale(),
                None => return Ok(()),
            }
        }
        Ok(())
    }

    /// Whether the value is at least `target`: `None` if the horizon left it open.
    fn test<G: Game<Position = P, Value = V>>(
        &mut self,
        searcher: &mut Searcher<'_, G>,
        target: i32,
    ) -> Result<Option<bool>, Halt> {
        let mut left = self.order();
        while let Some(i) =
            self.next(searcher, &mut left, |root, m| root.lower.scale() < target && m.upper.scale() >= target)
        {
            self.search_move(searcher, i, (target - 1, target))?;
        }
        if self.lower.scale() >= target {
            return Ok(Some(true));
        }
        let open = self.moves.iter().any(|m| m.upper.scale() >= target);
        Ok((!open).then_some(false))
    }
}
