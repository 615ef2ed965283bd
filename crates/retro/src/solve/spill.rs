//! The parents a level's pass finds outside the part it sets, kept in one file a part
//! until that part is set, so that a tier solved in parts lists each level's un-moves
//! once and not once a part.
//!
//! An edge is eight bytes, little-endian:
//!
//! ```text
//!   bits 63 … 17   16                          15              14 … 0
//!        parent    turn                        weight          the pushed position's
//!        rank      (1: the mover keeps it)     (1: weight 2)   value code (< 0x8000)
//! ```

use crate::error::SolveError;
use crate::value::Turn;
use std::fs::File;
use std::io::{Read, Seek, SeekFrom, Write};
use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};
use std::sync::Mutex;

/// Ranks an edge holds: below 2^47.
pub const MAX_RANKS: u64 = 1 << 47;

/// Edges read back at a time.
const CHUNK: usize = 1 << 20;

/// An edge: the parent's rank, the move's turn, the un-move's weight (1 or 2) and the
/// pushed child's value code (a decided one, below `0x8000`, so its top bit holds the
/// weight).
#[inline]
pub fn encode(parent: u64, turn: Turn, weight: u8, code: u16) -> u64 {
    debug_assert!(parent < MAX_RANKS && code < 0x8000 && (1..=2).contains(&weight));
    parent << 17 | ((turn == Turn::Keeps) as u64) << 16 | ((weight == 2) as u64) << 15 | code as u64
}

/// The parent's rank, the turn, the weight and the value code of an edge.
#[inline]
pub fn decode(edge: u64) -> (u64, Turn, u8, u16) {
    let turn = if edge >> 16 & 1 == 1 { Turn::Keeps } else { Turn::Passes };
    (edge >> 17, turn, 1 + (edge >> 15 & 1) as u8, edge as u16 & 0x7FFF)
}

/// One file of edges for each part of tier `tier` but the first (whose parents are set
/// as they are found); the files are removed when this is dropped.
pub struct Spill {
    tier: String,
    files: Vec<Mutex<File>>,
    paths: Vec<PathBuf>,
    /// Bytes appended to the files and not drained yet.
    held: AtomicU64,
    /// The same, file by file: a level's drain passes over the files nothing was
    /// appended to (most of them, when the parts are many and small).
    held_by_file: Vec<AtomicU64>,
    /// Bytes past which [`Spill::over_budget`] asks for the files to be drained.
    budget: u64,
}

impl Spill {
    /// Creates the files at `paths` (which must not exist), one for each part of `tier`
    /// after the first, to be drained when they hold more than `budget` bytes.
    pub fn create(tier: String, paths: Vec<PathBuf>, budget: u64) -> Result<Spill, SolveError> {
        let held_by_file = paths.iter().map(|_| AtomicU64::new(0)).collect();
        let mut spill =
            Spill { tier, files: Vec::new(), paths: Vec::new(), held: AtomicU64::new(0), held_by_file, budget };
        for path in paths {
            let file = std::fs::OpenOptions::new().read(true).write(true).create_new(true).open(&path);
            let file = file.map_err(|e| spill.error(&path, e))?;
            spill.paths.push(path);
            spill.files.push(Mutex::new(file));
        }
        Ok(spill)
    }

    /// A file that could not be made, written or read, named.
    fn error(&self, path: &std::path::Path, e: std::io::Error) -> SolveError {
        SolveError::Scratch { tier: self.tier.clone(), file: path.to_owned(), error: e.to_string() }
    }

    /// The parts, the first included.
    pub fn parts(&self) -> usize {
        self.paths.len() + 1
    }

    /// Appends `edges` to the file of `part` (not the first).
    pub fn append(&self, part: usize, edges: &[u64]) -> Result<(), SolveError> {
        let bytes: Vec<u8> = edges.iter().flat_map(|e| e.to_le_bytes()).collect();
        let mut file = self.files[part - 1].lock().unwrap_or_else(|p| p.into_inner());
        file.write_all(&bytes).map_err(|e| self.error(&self.paths[part - 1], e))?;
        self.held.fetch_add(bytes.len() as u64, Relaxed);
        self.held_by_file[part - 1].fetch_add(bytes.len() as u64, Relaxed);
        Ok(())
    }

    /// Whether the files hold more than their budget and should be drained.
    pub fn over_budget(&self) -> bool {
        self.held.load(Relaxed) > self.budget
    }

    /// Hands every edge of `part`'s file (not the first part's) to `apply`, a chunk at a
    /// time, then empties the file for the next level.
    pub fn drain(&self, part: usize, apply: impl FnMut(&[u64]) -> Result<(), SolveError>) -> Result<(), SolveError> {
        let mut failure = None;
        let read = self.read_all(part, apply, &mut failure);
        match (failure, read) {
            (Some(e), _) => Err(e),
            (None, read) => read.map_err(|e| self.error(&self.paths[part - 1], e)),
        }
    }

    /// [`Spill::drain`]'s reading: an error of `apply` stops it, kept in `failure`.
    fn read_all(
        &self,
        part: usize,
        mut apply: impl FnMut(&[u64]) -> Result<(), SolveError>,
        failure: &mut Option<SolveError>,
    ) -> std::io::Result<()> {
        let mut file = self.files[part - 1].lock().unwrap_or_else(|p| p.into_inner());
        let held = self.held_by_file[part - 1].load(Relaxed);
        if held == 0 {
            return Ok(());
        }
        file.seek(SeekFrom::Start(0))?;
        let mut bytes = vec![0u8; held.min(CHUNK as u64 * 8) as usize];
        let mut edges = Vec::with_capacity(bytes.len() / 8);
        loop {
            let mut filled = 0;
            while filled < bytes.len() {
                match file.read(&mut bytes[filled..])? {
                    0 => break,
                    n => filled += n,
                }
            }
            if filled == 0 {
                break;
            }
            if filled % 8 != 0 {
                return Err(std::io::Error::new(std::io::ErrorKind::UnexpectedEof, "a spilled edge cut short"));
            }
            edges.clear();
            edges.extend(bytes[..filled].chunks_exact(8).map(|b| u64::from_le_bytes(b.try_into().expect("8 bytes"))));
            if let Err(e) = apply(&edges) {
                *failure = Some(e);
                return Ok(());
            }
        }
        let drained = file.stream_position()?;
        file.set_len(0)?;
        file.seek(SeekFrom::Start(0))?;
        self.held.fetch_sub(drained, Relaxed);
        self.held_by_file[part - 1].fetch_sub(drained, Relaxed);
        Ok(())
    }
}

impl Drop for Spill {
    fn drop(&mut self) {
        // Left behind by a crash, they are removed by the next build that locks the
        // directory (their names are temporary files', `.tier-*.tmp`).
        for path in &self.paths {
            let _ = std::fs::remove_file(path);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_edge_keeps_its_parent_turn_and_value() {
        for (parent, turn, weight, code) in
            [(0, Turn::Passes, 1, 0), (MAX_RANKS - 1, Turn::Keeps, 2, 0x7FFF), (12345, Turn::Keeps, 1, 7)]
        {
            assert_eq!(decode(encode(parent, turn, weight, code)), (parent, turn, weight, code));
        }
    }

    #[test]
    fn a_part_gives_back_what_was_spilled_to_it_once() {
        let dir = tempfile::tempdir().unwrap();
        let paths = vec![dir.path().join("part-1")];
        let spill = Spill::create("t".into(), paths, 16).unwrap();
        spill.append(1, &[1, 2]).unwrap();
        spill.append(1, &[3]).unwrap();
        let mut seen = Vec::new();
        let mut read = |edges: &[u64]| {
            seen.extend_from_slice(edges);
            Ok(())
        };
        spill.drain(1, &mut read).unwrap();
        spill.drain(1, &mut read).unwrap();
        assert_eq!(seen, [1, 2, 3], "read once: a drained part is empty for the next level");
        spill.append(1, &[4, 5, 6]).unwrap();
        assert!(spill.over_budget(), "24 bytes held, 16 allowed");
        spill.drain(1, |_| Ok(())).unwrap();
        assert!(!spill.over_budget(), "nothing held once drained");
        // An error of the pushes stops the drain and is handed back as it was.
        spill.append(1, &[7]).unwrap();
        let stopped = spill.drain(1, |_| Err(SolveError::TooLarge { tier: "t".into(), size: 1 }));
        assert!(matches!(stopped, Err(SolveError::TooLarge { .. })));
        let files = dir.path().to_owned();
        drop(spill);
        assert_eq!(std::fs::read_dir(files).unwrap().count(), 0, "the files go with the spill");
    }
}
