//! Checkpoints: a tier's working state, saved now and then while it is solved, so that a
//! build stopped inside a tier (Ctrl-C, `kill -9`, a power cut) resumes there.
//!
//! Each engine solves a tier in steps after which its slots (one or two bytes a position)
//! are its whole state: blocks of ranks scanned, a level pushed (the outcome engine), a
//! threshold settled (the cyclic score engine), chunks evaluated (the acyclic engine).
//! At the end of a step the engine hands [`Checkpoints::reached`] where it stands and its
//! slots; every [`CHECKPOINT_EVERY`] (or as the build asks) they are written to
//! `tier-<tier>.checkpoint` beside the tables, atomically as a table is (a temporary file,
//! synced, renamed over the last one). A tier that starts with a checkpoint there resumes
//! from it ([`Checkpoints::resume`]): the slots read back, the step after it next. The
//! engines' results do not depend on the order their threads work in, so the finished
//! table is byte for byte the one an uninterrupted build writes.
//!
//! A checkpoint has a table's header ([`crate::table::Header`], under its own magic
//! number) and is checked as a table is: header and body checksums, the game's key, the
//! tier, the value coding, the positions, the slots' width, and the program that wrote it
//! (the slots' meaning is the engine's, not a stable format). One that fails a check is
//! reported, removed, and the tier starts from the beginning: never used for other rules.

use crate::error::SolveError;
use crate::solve::Observer;
use crate::table::{checkpoint_header, write_file, FileKind, Header, TableError, TableIdentity};
use memmap2::Mmap;
use rayon::prelude::*;
use std::cell::Cell;
use std::fs::File;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU16, AtomicU8, Ordering::Relaxed};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

/// How often a tier's state is written while it is solved, unless the build asks
/// otherwise.
pub const CHECKPOINT_EVERY: Duration = Duration::from_secs(300);

/// Bytes of the record before the slots in a checkpoint's body.
const RECORD: usize = 64;

/// Slots turned into bytes (and back) at a time.
const PIECE: usize = 1 << 20;

/// The file of `tier`'s checkpoint in the table directory `dir`.
pub fn checkpoint_file(dir: &Path, tier: impl std::fmt::Display) -> PathBuf {
    dir.join(format!("tier-{tier}.checkpoint"))
}

/// Which engine wrote a checkpoint, in which of its stages.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stage {
    /// The outcome engine's scan: `step` blocks of `of` scanned.
    OutcomeScan,
    /// The outcome engine's pushes: level `step` is next, `of` the highest waiting.
    OutcomePush,
    /// The acyclic engine: `step` chunks of `of` evaluated.
    Acyclic,
    /// The cyclic score engine's scan: `step` chunks of `of` scanned.
    CyclicScan,
    /// The cyclic score engine's thresholds: `step` is next, counting down from `of`.
    CyclicThreshold,
}

impl Stage {
    fn byte(self) -> u8 {
        match self {
            Stage::OutcomeScan => 1,
            Stage::OutcomePush => 2,
            Stage::Acyclic => 3,
            Stage::CyclicScan => 4,
            Stage::CyclicThreshold => 5,
        }
    }

    fn from_byte(byte: u8) -> Option<Stage> {
        Some(match byte {
            1 => Stage::OutcomeScan,
            2 => Stage::OutcomePush,
            3 => Stage::Acyclic,
            4 => Stage::CyclicScan,
            5 => Stage::CyclicThreshold,
            _ => return None,
        })
    }
}

/// Where a tier's solving stood at a checkpoint.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Progress {
    /// The engine and its stage.
    pub stage: Stage,
    /// How far into the stage (see [`Stage`]).
    pub step: u64,
    /// The stage's extent (see [`Stage`]).
    pub of: u64,
    /// The work units (positions) reported done.
    pub done: u64,
}

impl std::fmt::Display for Progress {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let Progress { step, of, .. } = *self;
        match self.stage {
            Stage::OutcomeScan => write!(f, "scanning, {step} of {of} blocks done"),
            Stage::OutcomePush => write!(f, "pushing level {step} (at most {of})"),
            Stage::Acyclic => write!(f, "{step} of {of} chunks evaluated"),
            Stage::CyclicScan => write!(f, "scanning, {step} of {of} chunks done"),
            Stage::CyclicThreshold => write!(f, "threshold {step} next, counting down from {of}"),
        }
    }
}

/// The slots an engine keeps a position, as a checkpoint stores them: little-endian.
pub trait SlotWord: Sync {
    /// Bits a slot.
    const BITS: u32;
    /// Appends the slot's bytes.
    fn put(&self, out: &mut Vec<u8>);
    /// Sets the slot from its bytes.
    fn set(&self, bytes: &[u8]);
}

impl SlotWord for AtomicU16 {
    const BITS: u32 = 16;
    fn put(&self, out: &mut Vec<u8>) {
        out.extend_from_slice(&self.load(Relaxed).to_le_bytes());
    }
    fn set(&self, bytes: &[u8]) {
        self.store(u16::from_le_bytes([bytes[0], bytes[1]]), Relaxed);
    }
}

impl SlotWord for AtomicU8 {
    const BITS: u32 = 8;
    fn put(&self, out: &mut Vec<u8>) {
        out.push(self.load(Relaxed));
    }
    fn set(&self, bytes: &[u8]) {
        self.store(bytes[0], Relaxed);
    }
}

/// A checkpoint read back and checked.
pub struct Saved {
    header: Header,
    progress: Progress,
    written: SystemTime,
    map: Mmap,
}

impl Saved {
    /// Opens and checks the checkpoint at `path`: its header and body checksums, and its
    /// record. What it is for is checked when a tier resumes from it
    /// ([`Checkpoints::resume`]).
    pub fn open(path: &Path) -> Result<Saved, TableError> {
        let io_err = |error| TableError::Io { path: path.to_owned(), error };
        crate::table::check_regular_file(path)?;
        let file = File::open(path).map_err(io_err)?;
        let len = file.metadata().map_err(io_err)?.len();
        if len == 0 {
            return Err(TableError::Empty { path: path.to_owned() });
        }
        // SAFETY: checkpoints are written only by a build under its lock on the directory,
        // by renaming a complete new file over the name, never in place; the map is read
        // while that lock is held (or, by `solve info`, only its header and record, once).
        let map = unsafe { Mmap::map(&file) }.map_err(io_err)?;
        let header = Header::decode_as(FileKind::Checkpoint, path, &map, len)?;
        let bad = |what: String| TableError::BadBody { path: path.to_owned(), what };
        let body = &map[header.body_offset as usize..];
        if xxhash_rust::xxh3::xxh3_64(body) != header.body_checksum {
            return Err(TableError::BodyChecksum { path: path.to_owned() });
        }
        let slot_bytes = header.entries.checked_mul(header.bits as u64 / 8);
        if !matches!(header.bits, 8 | 16) || slot_bytes.map(|b| b + RECORD as u64) != Some(header.body_len) {
            return Err(bad(format!("{} bytes for {} slots of {} bits", header.body_len, header.entries, header.bits)));
        }
        let u64_at = |o: usize| u64::from_le_bytes(body[o..o + 8].try_into().expect("eight bytes"));
        let stage = Stage::from_byte(body[0]).ok_or_else(|| bad(format!("unknown stage {}", body[0])))?;
        let progress = Progress { stage, step: u64_at(8), of: u64_at(16), done: u64_at(24) };
        let written = UNIX_EPOCH + Duration::from_secs(u64_at(32));
        Ok(Saved { header, progress, written, map })
    }

    /// Checks that the checkpoint is one of this program's for `identity`, a tier of
    /// `entries` positions, and slots of `bits`.
    fn check_for(&self, path: &Path, identity: &TableIdentity, entries: u64, bits: u32) -> Result<(), TableError> {
        crate::table::check_identity(path, &self.header, Some(identity))?;
        let mismatch = |field, found: String, expected: String| {
            Err(TableError::Mismatch { path: path.to_owned(), field, found, expected })
        };
        if self.header.entries != entries {
            return mismatch("positions", self.header.entries.to_string(), entries.to_string());
        }
        if self.header.bits != bits {
            return mismatch("slot bits", self.header.bits.to_string(), bits.to_string());
        }
        let writer = crate::table::writer_name();
        if self.header.writer != writer {
            return mismatch("writer", self.header.writer.clone(), writer);
        }
        Ok(())
    }

    /// Where the tier stood.
    pub fn progress(&self) -> Progress {
        self.progress
    }

    /// When the checkpoint was written.
    pub fn written(&self) -> SystemTime {
        self.written
    }

    /// The tier's positions.
    pub fn entries(&self) -> u64 {
        self.header.entries
    }

    /// The game, tier and value coding the checkpoint is for.
    pub fn identity(&self) -> &TableIdentity {
        &self.header.identity
    }

    /// Sets `slots` (as many as the tier has positions) to the saved ones.
    pub fn restore<S: SlotWord>(&self, slots: &[S]) {
        let width = S::BITS as usize / 8;
        let bytes = &self.map[self.header.body_offset as usize + RECORD..];
        debug_assert_eq!(bytes.len(), slots.len() * width);
        slots.par_chunks(PIECE).zip(bytes.par_chunks(PIECE * width)).for_each(|(slots, bytes)| {
            for (slot, bytes) in slots.iter().zip(bytes.chunks_exact(width)) {
                slot.set(bytes);
            }
        });
    }
}

/// What happened to a tier's checkpoint, for whoever shows the build's progress.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CheckpointEvent {
    /// The tier resumes from its checkpoint, which stood there.
    Resumed(Progress),
    /// The checkpoint left for the tier failed its checks (`why`): removed, and the tier
    /// starts from the beginning.
    Refused(String),
    /// A checkpoint was written, standing there.
    Written(Progress),
    /// A checkpoint could not be written (`why`: a full disk, say): the build goes on,
    /// resumable from the last one written.
    NotWritten(String),
}

/// How a build writes checkpoints: shared by the tiers it solves, each begun with
/// [`Checkpoints::begin`].
pub struct Checkpoints<'a> {
    /// The tier being solved: its checkpoint's file and what it is for; `None` keeps no
    /// checkpoints.
    tier: Option<(PathBuf, TableIdentity, u64)>,
    every: Duration,
    last: Cell<Instant>,
    /// The test hook: steps left before the build stops.
    steps_left: Cell<Option<u64>>,
    observer: &'a dyn Observer,
}

impl<'a> Checkpoints<'a> {
    /// Checkpoints written every `every` (zero: at every step); with `stop_after_steps`,
    /// the build stops ([`SolveError::Stopped`]) at that many steps' ends, counted over
    /// the tiers it solves (a test hook for builds stopped inside a tier).
    pub fn new(every: Duration, stop_after_steps: Option<u64>, observer: &'a dyn Observer) -> Checkpoints<'a> {
        Checkpoints {
            tier: None,
            every,
            last: Cell::new(Instant::now()),
            steps_left: Cell::new(stop_after_steps),
            observer,
        }
    }

    /// No checkpoints: for an engine run on its own.
    pub fn none(observer: &'a dyn Observer) -> Checkpoints<'a> {
        Checkpoints::new(Duration::MAX, None, observer)
    }

    /// A tier of `entries` positions starts: its checkpoint is `path`, and must be for
    /// `identity`.
    pub fn begin(&mut self, path: PathBuf, identity: TableIdentity, entries: u64) {
        self.tier = Some((path, identity, entries));
        self.last.set(Instant::now());
    }

    /// The checkpoint to resume the tier from, if one is there and passes its checks with
    /// slots of `S`, in a stage `accepts` takes: one that does not is reported, removed,
    /// and `None` starts the tier afresh.
    pub fn resume<S: SlotWord>(&self, accepts: impl Fn(Stage) -> bool) -> Option<Saved> {
        let (path, identity, entries) = self.tier.as_ref()?;
        if std::fs::symlink_metadata(path).is_err() {
            return None;
        }
        let checked = Saved::open(path).and_then(|saved| {
            saved.check_for(path, identity, *entries, S::BITS)?;
            match accepts(saved.progress.stage) {
                true => Ok(saved),
                false => Err(TableError::Mismatch {
                    path: path.to_owned(),
                    field: "engine",
                    found: format!("{:?}", saved.progress.stage),
                    expected: "the engine solving the tier".to_owned(),
                }),
            }
        });
        match checked {
            Ok(saved) => {
                self.observer.checkpoint(&CheckpointEvent::Resumed(saved.progress));
                self.observer.advanced(saved.progress.done);
                Some(saved)
            }
            Err(why) => {
                let _ = std::fs::remove_file(path);
                self.observer.checkpoint(&CheckpointEvent::Refused(why.to_string()));
                None
            }
        }
    }

    /// The engine stands at `progress`, `slots` its whole state: they are written if the
    /// interval has passed since the tier began or the last checkpoint. Stops the build
    /// here if the test hook says so.
    pub fn reached<S: SlotWord>(&self, progress: Progress, slots: &[S]) -> Result<(), SolveError> {
        let Some((path, identity, _)) = &self.tier else { return Ok(()) };
        if self.last.get().elapsed() >= self.every {
            let event = match write(path, identity, progress, slots) {
                Ok(()) => CheckpointEvent::Written(progress),
                Err(why) => CheckpointEvent::NotWritten(why.to_string()),
            };
            self.observer.checkpoint(&event);
            self.last.set(Instant::now());
        }
        match self.steps_left.get() {
            Some(0 | 1) => Err(SolveError::Stopped { tier: identity.tier.clone() }),
            Some(n) => {
                self.steps_left.set(Some(n - 1));
                Ok(())
            }
            None => Ok(()),
        }
    }

    /// The tier is solved and its table written: its checkpoint is of no more use.
    pub fn finish(&mut self) {
        if let Some((path, ..)) = self.tier.take() {
            let _ = std::fs::remove_file(path);
        }
    }
}

/// Writes the checkpoint of `identity`'s tier, standing at `progress` with `slots`, to
/// `path`, atomically.
fn write<S: SlotWord>(
    path: &Path,
    identity: &TableIdentity,
    progress: Progress,
    slots: &[S],
) -> Result<(), TableError> {
    let entries = slots.len() as u64;
    let body_len = RECORD as u64 + entries * (S::BITS as u64 / 8);
    let header = checkpoint_header(identity, S::BITS, entries, body_len);
    let written = SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |d| d.as_secs());
    write_file(path, header, |out| {
        let mut record = vec![0u8; RECORD];
        record[0] = progress.stage.byte();
        for (at, field) in [(8, progress.step), (16, progress.of), (24, progress.done), (32, written)] {
            record[at..at + 8].copy_from_slice(&field.to_le_bytes());
        }
        out(&record)?;
        let mut bytes = Vec::with_capacity(PIECE * S::BITS as usize / 8);
        slots.chunks(PIECE).try_for_each(|piece| {
            bytes.clear();
            piece.iter().for_each(|slot| slot.put(&mut bytes));
            out(&bytes)
        })
    })
    .map(|_| ())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solve::Silent;
    use crate::table::{write_table, Layout, Table, ValueEncoding};

    fn identity() -> TableIdentity {
        TableIdentity { key: "toy".into(), tier: "3".into(), encoding: ValueEncoding::Score }
    }

    #[test]
    fn a_checkpoint_reads_back_what_was_written_and_is_no_table() {
        let dir = tempfile::tempdir().unwrap();
        let path = checkpoint_file(dir.path(), 3);
        let mut checkpoints = Checkpoints::new(Duration::ZERO, None, &Silent);
        checkpoints.begin(path.clone(), identity(), 5);
        let slots: Vec<AtomicU16> = [7u16, 0, 0xFFFF, 300, 1].map(AtomicU16::new).into();
        let at = Progress { stage: Stage::CyclicThreshold, step: 4, of: 9, done: 5 };
        checkpoints.reached(at, &slots).unwrap();

        let saved = checkpoints.resume::<AtomicU16>(|stage| stage == Stage::CyclicThreshold).expect("resumed");
        assert_eq!(saved.progress(), at);
        let back: Vec<AtomicU16> = (0..5).map(|_| AtomicU16::new(0)).collect();
        saved.restore(&back);
        assert_eq!(back.iter().map(|s| s.load(Relaxed)).collect::<Vec<_>>(), [7, 0, 0xFFFF, 300, 1]);
        assert!(matches!(Table::open(&path, None), Err(TableError::BadMagic { .. })));

        // Another engine's slots, or its stages, are refused, and the file removed.
        assert!(checkpoints.resume::<AtomicU8>(|_| true).is_none());
        assert!(!path.exists());

        let table = dir.path().join("tier-3.tbl");
        write_table(&table, &identity(), &[1u16, 2, 3], Layout::Plain).unwrap();
        assert!(matches!(Saved::open(&table), Err(TableError::BadMagic { .. })));
        checkpoints.finish();
    }

    #[test]
    fn the_test_hook_stops_at_the_end_of_the_step_asked() {
        let dir = tempfile::tempdir().unwrap();
        let mut checkpoints = Checkpoints::new(Duration::MAX, Some(2), &Silent);
        checkpoints.begin(checkpoint_file(dir.path(), 3), identity(), 1);
        let slots = [AtomicU8::new(0)];
        let at = Progress { stage: Stage::Acyclic, step: 1, of: 3, done: 1 };
        assert_eq!(checkpoints.reached(at, &slots), Ok(()));
        assert_eq!(checkpoints.reached(at, &slots), Err(SolveError::Stopped { tier: "3".into() }));
        assert!(!checkpoint_file(dir.path(), 3).exists(), "none due in the interval");
    }

    /// Records the checkpoints' events.
    #[derive(Default)]
    struct Heard(std::sync::Mutex<Vec<CheckpointEvent>>);

    impl Observer for Heard {
        fn checkpoint(&self, event: &CheckpointEvent) {
            self.0.lock().unwrap().push(event.clone());
        }
    }

    #[test]
    fn a_checkpoint_that_cannot_be_written_is_said_and_the_build_goes_on() {
        let dir = tempfile::tempdir().unwrap();
        // A file where the checkpoint's directory would be.
        std::fs::write(dir.path().join("file"), b"").unwrap();
        let heard = Heard::default();
        let mut checkpoints = Checkpoints::new(Duration::ZERO, None, &heard);
        checkpoints.begin(dir.path().join("file").join("tier-3.checkpoint"), identity(), 1);
        let at = Progress { stage: Stage::OutcomePush, step: 2, of: 5, done: 1 };
        assert_eq!(checkpoints.reached(at, &[AtomicU16::new(1)]), Ok(()));
        let heard = heard.0.lock().unwrap();
        assert!(matches!(&heard[..], [CheckpointEvent::NotWritten(why)] if why.contains("cannot write")), "{heard:?}");
    }
}
