//! The positions of one search handed out to tasks: each task takes the unsolved position
//! with the fewest tasks on it; the first task to answer for a position stops the others
//! on it, whose results are dropped (they stored nothing they had not proved); a task
//! that fails stops them all.

use super::{locked, Bounds, Halt, SearchError, Worker};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering::Relaxed};
use std::sync::Mutex;

/// Tasks on a position, its answer once found, and the bounds proven meanwhile.
struct Slot {
    tasks: usize,
    value: Option<i16>,
    bounds: Bounds,
}

/// The positions of one search, what each has so far, and what stops its tasks.
pub(super) struct Handout<'p, P> {
    pub(super) positions: &'p [P],
    slots: Mutex<Vec<Slot>>,
    /// Set for a position once answered, for all of them once everything stops.
    stops: Vec<AtomicBool>,
    /// Tasks on each position, as its workers read it (`slots` holds the same count).
    company: Vec<AtomicUsize>,
    failure: Mutex<Option<SearchError>>,
}

impl<'p, P> Handout<'p, P> {
    /// `positions`, each within its `widest` bounds, none taken yet.
    pub(super) fn new(positions: &'p [P], widest: impl Fn(&P) -> Bounds) -> Handout<'p, P> {
        Handout {
            positions,
            slots: Mutex::new(positions.iter().map(|p| Slot { tasks: 0, value: None, bounds: widest(p) }).collect()),
            stops: positions.iter().map(|_| AtomicBool::new(false)).collect(),
            company: positions.iter().map(|_| AtomicUsize::new(0)).collect(),
            failure: Mutex::new(None),
        }
    }

    /// The unsolved position with the fewest tasks on it, counted as taken; `None` when
    /// every position is answered or everything stopped.
    pub(super) fn take(&self) -> Option<usize> {
        let mut slots = locked(&self.slots);
        let open = (0..self.positions.len()).filter(|&i| slots[i].value.is_none());
        let i = open.min_by_key(|&i| slots[i].tasks)?;
        if self.stops[i].load(Relaxed) {
            return None; // a failure stopped everything
        }
        slots[i].tasks += 1;
        self.company[i].store(slots[i].tasks, Relaxed);
        Some(i)
    }

    /// A worker for a task on position `i`, publishing every `quota` nodes.
    pub(super) fn worker(&self, i: usize, quota: u64) -> Worker<'_> {
        Worker { nodes: 0, probes: 0, quota, stop: &self.stops[i], company: &self.company[i] }
    }

    /// A task on position `i` ended with `result` (`solved` hears of a value first
    /// found), having proved `proven` of it: whether everything stops (a failure).
    pub(super) fn finish(
        &self,
        i: usize,
        result: Result<i16, Result<Halt, SearchError>>,
        proven: Option<(i16, i16)>,
        solved: &(dyn Fn(usize, i16) + Sync),
    ) -> bool {
        let mut slots = locked(&self.slots);
        slots[i].tasks -= 1;
        self.company[i].store(slots[i].tasks, Relaxed);
        if let Some(proven) = proven {
            slots[i].bounds = slots[i].bounds.meet(proven);
        }
        match result {
            Ok(v) if slots[i].value.is_none() => {
                slots[i].value = Some(v);
                self.stops[i].store(true, Relaxed);
                solved(i, v);
            }
            Ok(_) | Err(Ok(Halt::Stopped)) => {}
            Err(Ok(_spent)) => self.stop_all(),
            Err(Err(e)) => {
                *locked(&self.failure) = Some(e);
                self.stop_all();
                return true;
            }
        }
        false
    }

    fn stop_all(&self) {
        self.stops.iter().for_each(|s| s.store(true, Relaxed));
    }

    /// Each position's answer: its value where found, else its bounds proven by its
    /// tasks and by `stored` (the transposition table); the failure, if a task failed.
    pub(super) fn answers(self, stored: impl Fn(&P) -> Option<(i16, i16)>) -> Result<Vec<Bounds>, SearchError> {
        if let Some(e) = self.failure.into_inner().unwrap_or_else(std::sync::PoisonError::into_inner) {
            return Err(e);
        }
        let slots = self.slots.into_inner().unwrap_or_else(std::sync::PoisonError::into_inner);
        let answer = |(position, slot): (&P, Slot)| match slot.value {
            Some(v) => Bounds { lower: v, upper: v },
            None => slot.bounds.meet(stored(position).unwrap_or((i16::MIN, i16::MAX))),
        };
        Ok(self.positions.iter().zip(slots).map(answer).collect())
    }
}
