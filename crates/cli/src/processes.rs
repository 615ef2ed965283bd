//! The processes a build is shared by: those `mpirun` started, where `solve` is compiled
//! with the cargo feature `mpi` (`retro::distributed`); else this one alone. `main` joins
//! them once and passes them down with the build flags, never as a process-wide value.

use retro::distributed::Processes;

/// The processes a run's builds are shared by, as `main` joined them, handed to every
/// build with the build flags ([`crate::options::BuildFlags`]): this process alone by
/// default.
#[derive(Clone, Copy, Default)]
pub struct SharedBy(Option<&'static Processes>);

impl SharedBy {
    /// Builds shared by `processes`, for the rest of the run (MPI's world lives as long).
    #[cfg(feature = "mpi")]
    pub fn of(processes: Processes) -> SharedBy {
        SharedBy(Some(Box::leak(Box::new(processes))))
    }

    /// The processes: this one alone unless `main` joined others.
    pub fn processes(self) -> Processes {
        self.0.cloned().unwrap_or_default()
    }
}

/// Two are equal when they name the same processes (both this one alone, or one world).
impl PartialEq for SharedBy {
    fn eq(&self, other: &SharedBy) -> bool {
        match (self.0, other.0) {
            (None, None) => true,
            (Some(a), Some(b)) => std::ptr::eq(a, b),
            _ => false,
        }
    }
}

impl Eq for SharedBy {}

impl std::fmt::Debug for SharedBy {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.0 {
            None => write!(f, "SharedBy(this process alone)"),
            Some(p) => write!(f, "SharedBy(process {} of {})", p.rank(), p.size()),
        }
    }
}

/// Not a failure: a process of a shared build other than the first has built its shares
/// of the tables, and leaves answering to the first one.
#[derive(Debug, thiserror::Error)]
#[error("the tables are built; the first process answers")]
pub struct LeftToFirst;
