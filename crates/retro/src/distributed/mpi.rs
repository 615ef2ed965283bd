//! The processes `mpirun` starts, talking through MPI (Open MPI, through rsmpi).

use super::{started_by_mpirun, Communicator, Processes, Shares};
use mpi::collective::SystemOperation;
use mpi::datatype::{Equivalence, Partition, PartitionMut};
use mpi::topology::SimpleCommunicator;
use mpi::traits::{Communicator as _, CommunicatorCollectives, Destination, Source};
use mpi::{Count, Threading};
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

/// Values a gather sends in one message: well within MPI's `int` counts.
const GATHER_MESSAGE: usize = 1 << 28;
/// Values an exchange sends to one process in one round, at most.
const EXCHANGE_ROUND: usize = 1 << 24;

/// MPI, started for this process: it ends (`MPI_Finalize`) when this is dropped, which
/// must be after the last collective step.
pub struct Session {
    processes: Processes,
    _universe: mpi::environment::Universe,
}

impl Session {
    /// The processes of the job.
    pub fn processes(&self) -> &Processes {
        &self.processes
    }
}

/// Why MPI could not be joined.
#[derive(Debug, thiserror::Error)]
pub enum JoinError {
    /// `MPI_Init_thread` failed, or MPI was started already.
    #[error("MPI could not be started in this process")]
    NotStarted,
    /// The MPI library does not let two threads of a process call it one after the other.
    #[error("the MPI library gives threading level {0:?}, and a build needs at least Serialized")]
    Threading(Threading),
}

/// Starts MPI if `mpirun` started this process ([`started_by_mpirun`]); `None` otherwise,
/// for a build of one process as without MPI.
pub fn join() -> Result<Option<Session>, JoinError> {
    if !started_by_mpirun() {
        return Ok(None);
    }
    let (universe, threading) = mpi::initialize_with_threading(Threading::Serialized).ok_or(JoinError::NotStarted)?;
    if threading < Threading::Serialized {
        return Err(JoinError::Threading(threading));
    }
    let world = World { communicator: universe.world(), sent: AtomicU64::new(0) };
    Ok(Some(Session { processes: Processes::new(world), _universe: universe }))
}

/// `MPI_COMM_WORLD`, and the bytes this process sent through it.
struct World {
    communicator: SimpleCommunicator,
    sent: AtomicU64,
}

// SAFETY: the communicator is a handle MPI owns; MPI was started with at least
// `Threading::Serialized`, and `Communicator`'s contract has one thread at a time (the
// one running the build) make the calls.
unsafe impl Send for World {}
// SAFETY: as for `Send`: no two threads call MPI through it at once.
unsafe impl Sync for World {}

impl World {
    fn gather<T: Equivalence + Copy>(&self, values: &mut [T], shares: &Shares) {
        let me = self.rank();
        for process in 1..self.size() {
            let range = shares.range(process);
            let range = range.start as usize..range.end as usize;
            if me == 0 {
                for chunk in values[range].chunks_mut(GATHER_MESSAGE) {
                    self.communicator.process_at_rank(process as i32).receive_into(chunk);
                }
            } else if me == process {
                for chunk in values[range].chunks(GATHER_MESSAGE) {
                    self.communicator.process_at_rank(0).send(chunk);
                    self.sent.fetch_add(std::mem::size_of_val(chunk) as u64, Relaxed);
                }
            }
        }
    }
}

/// Offsets of consecutive runs of `counts` values.
fn displacements(counts: &[Count]) -> Vec<Count> {
    counts.iter().scan(0, |at, &count| Some(std::mem::replace(at, *at + count))).collect()
}

impl Communicator for World {
    fn rank(&self) -> usize {
        self.communicator.rank() as usize
    }

    fn size(&self) -> usize {
        self.communicator.size() as usize
    }

    fn barrier(&self) {
        self.communicator.barrier();
    }

    fn max(&self, value: u64) -> u64 {
        let mut all = 0u64;
        self.communicator.all_reduce_into(&value, &mut all, SystemOperation::max());
        all
    }

    fn sum(&self, value: u64) -> u64 {
        let mut all = 0u64;
        self.communicator.all_reduce_into(&value, &mut all, SystemOperation::sum());
        all
    }

    fn exchange(&self, outgoing: Vec<Vec<u64>>) -> Vec<u64> {
        let (processes, me) = (self.size(), self.rank());
        // Rounds whose counts and offsets stay within MPI's `int`.
        let round = EXCHANGE_ROUND.min(i32::MAX as usize / processes.max(1));
        let mut sent = vec![0usize; processes];
        let mut received = Vec::new();
        loop {
            let counts: Vec<Count> =
                (0..processes).map(|p| (outgoing[p].len() - sent[p]).min(round) as Count).collect();
            let mut incoming = vec![0 as Count; processes];
            self.communicator.all_to_all_into(&counts[..], &mut incoming[..]);
            let send: Vec<u64> = (0..processes)
                .flat_map(|p| outgoing[p][sent[p]..sent[p] + counts[p] as usize].iter().copied())
                .collect();
            let mut recv = vec![0u64; incoming.iter().map(|&c| c as usize).sum()];
            let (send_at, recv_at) = (displacements(&counts), displacements(&incoming));
            self.communicator.all_to_all_varcount_into(
                &Partition::new(&send[..], &counts[..], &send_at[..]),
                &mut PartitionMut::new(&mut recv[..], &incoming[..], &recv_at[..]),
            );
            received.extend_from_slice(&recv);
            let to_others: usize = (0..processes).filter(|&p| p != me).map(|p| counts[p] as usize).sum();
            self.sent.fetch_add(to_others as u64 * 8, Relaxed);
            for (p, &count) in counts.iter().enumerate() {
                sent[p] += count as usize;
            }
            let left: usize = (0..processes).map(|p| outgoing[p].len() - sent[p]).sum();
            if self.sum(left as u64) == 0 {
                return received;
            }
        }
    }

    fn gather_u16(&self, values: &mut [u16], shares: &Shares) {
        self.gather(values, shares);
    }

    fn gather_u8(&self, values: &mut [u8], shares: &Shares) {
        self.gather(values, shares);
    }

    fn bytes_sent(&self) -> u64 {
        self.sent.load(Relaxed)
    }

    fn abort(&self, code: i32) {
        self.communicator.abort(code)
    }
}
