//! The processes a build is shared by: those `mpirun` started, where `solve` is compiled
//! with the cargo feature `mpi` (`retro::distributed`); else this one alone.

use retro::distributed::Processes;
use std::sync::OnceLock;

/// The processes of this run, set once by `main` before any command runs.
static PROCESSES: OnceLock<Processes> = OnceLock::new();

/// The processes every build of this run is shared by: this one alone unless `main`
/// joined others.
pub fn current() -> Processes {
    PROCESSES.get().cloned().unwrap_or_default()
}

/// Shares every build of this run between `processes`.
#[cfg(feature = "mpi")]
pub fn share_with(processes: Processes) {
    // `main` calls this once, before anything reads it.
    let _ = PROCESSES.set(processes);
}

/// Not a failure: a process of a shared build other than the first has built its shares
/// of the tables, and leaves answering to the first one.
#[derive(Debug, thiserror::Error)]
#[error("the tables are built; the first process answers")]
pub struct LeftToFirst;
