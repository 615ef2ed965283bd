//! A build's progress told to a Python callable, a few times a second at most: the
//! engines report from every worker thread, and a call into Python from each would
//! serialise them on the interpreter.

use pyo3::prelude::*;
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// How often the callable hears of a tier under way.
const EVERY: Duration = Duration::from_millis(250);

/// Calls `callback(tier, done, work)` as tiers are solved: at each tier's start and end,
/// and between as often as [`EVERY`].
pub struct Progress {
    callback: Py<PyAny>,
    tier: Mutex<(String, Instant)>,
    done: AtomicU64,
    work: AtomicU64,
    /// The first exception the callable raised, raised again once the build ends.
    failed: Mutex<Option<PyErr>>,
}

impl Progress {
    pub fn new(callback: Py<PyAny>) -> Progress {
        Progress {
            callback,
            tier: Mutex::new((String::new(), Instant::now())),
            done: AtomicU64::new(0),
            work: AtomicU64::new(0),
            failed: Mutex::new(None),
        }
    }

    /// The exception the callable raised, if it did.
    pub fn failure(self) -> Option<PyErr> {
        self.failed.into_inner().unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    fn tell(&self, tier: &str) {
        let (done, work) = (self.done.load(Relaxed), self.work.load(Relaxed));
        Python::attach(|py| {
            if let Err(e) = self.callback.call1(py, (tier, done.min(work), work)) {
                self.failed.lock().unwrap_or_else(|p| p.into_inner()).get_or_insert(e);
            }
        });
    }
}

impl retro::solve::Observer for Progress {
    fn tier_started(&self, tier: &str, work: u64) {
        self.done.store(0, Relaxed);
        self.work.store(work, Relaxed);
        *self.tier.lock().unwrap_or_else(|p| p.into_inner()) = (tier.to_owned(), Instant::now());
        self.tell(tier);
    }

    fn advanced(&self, units: u64) {
        self.done.fetch_add(units, Relaxed);
        // One thread tells at a time; the others go on with their work.
        let Ok(mut current) = self.tier.try_lock() else { return };
        if current.1.elapsed() >= EVERY {
            current.1 = Instant::now();
            let tier = current.0.clone();
            drop(current);
            self.tell(&tier);
        }
    }

    fn tier_finished(&self, tier: &str) {
        self.done.store(self.work.load(Relaxed), Relaxed);
        self.tell(tier);
    }
}
