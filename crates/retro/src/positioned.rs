//! A table's body read by position (`pread`), a chunk at a time, each chunk checked the
//! first time it is read: how queries read tables unless they ask for a map.
//!
//! A map of a file that someone rewrites or truncates while it is open answers with the
//! new bytes, or kills the process with SIGBUS. Read by position, a truncated file is a
//! short read, an error; and a rewritten one is caught by checksums: when the table is
//! opened, its body is read once whole, its checksum checked against the header's, and the
//! checksum of every [`CHUNK`] bytes kept. A chunk read later is compared with the one its
//! bytes had then, and kept once it agrees, so every value comes from bytes that were
//! checked, and none from a file changed since.
//!
//! ```text
//! body:   | chunk 0 | chunk 1 | chunk 2 | … | last (shorter) |
//! sums:     s0        s1        s2            sN             XXH3-64 each, taken at open
//! loaded:   bytes     -         bytes         -              filled on first read, if the sum agrees
//! ```
//!
//! Memory: 8 bytes of sum and a 24-byte slot a chunk (0.2 % of the body), and the chunks
//! read so far, up to [`KEPT_AT_MOST`] a table: past it, a chunk is read and checked
//! again at every probe that needs it, so that a server asked about every position does
//! not come to hold every table whole (a map's pages the system could evict; these it
//! cannot).

use crate::table::TableError;
use std::borrow::Cow;
use std::fs::File;
use std::io;
use std::path::Path;
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};
use std::sync::OnceLock;
use xxhash_rust::xxh3::{xxh3_64, Xxh3};

/// Bytes of a chunk: what a probe reads and checks on its first visit. Small enough that
/// a cold query (a principal line of a few hundred probes) reads a few megabytes, large
/// enough that the sums and slots stay a fraction of a percent of the body.
pub const CHUNK: u64 = 16 << 10;

/// The most bytes of a table's chunks kept once read: far more than the chunks a query
/// reads (a few hundred), far less than the largest tables (gigabytes).
pub const KEPT_AT_MOST: u64 = 64 << 20;

/// Bytes read at a time when the body is read whole on opening: a few chunks, so that the
/// buffer of a small table is small and that of a large one stays in the cache.
const OPENING_READ: u64 = 16 * CHUNK;

/// A body read by position, its chunks checked on first read.
pub struct PositionedBody {
    file: File,
    offset: u64,
    len: u64,
    /// Each chunk's XXH3-64 as it was when the whole body's checksum held.
    sums: Box<[u64]>,
    loaded: Box<[OnceLock<Box<[u8]>>]>,
    /// Bytes of the chunks in `loaded`, and the most there may be.
    kept: AtomicU64,
    keep_at_most: u64,
}

impl PositionedBody {
    /// Reads the body of `len` bytes at `offset` of `file` once whole, checks it against
    /// `checksum` (the header's), and keeps the sum of every chunk.
    pub fn open(path: &Path, file: File, offset: u64, len: u64, checksum: u64) -> Result<PositionedBody, TableError> {
        PositionedBody::keeping(path, file, (offset, len, checksum), KEPT_AT_MOST)
    }

    /// [`PositionedBody::open`] keeping at most `keep_at_most` bytes of chunks.
    fn keeping(
        path: &Path,
        file: File,
        (offset, len, checksum): (u64, u64, u64),
        keep_at_most: u64,
    ) -> Result<PositionedBody, TableError> {
        let chunks = len.div_ceil(CHUNK) as usize;
        let mut sums = Vec::with_capacity(chunks);
        let mut whole = Xxh3::new();
        let mut buffer = vec![0u8; len.min(OPENING_READ) as usize];
        let mut at = 0u64;
        while at < len {
            let piece = &mut buffer[..(len - at).min(OPENING_READ) as usize];
            read_exact_at(&file, piece, offset + at).map_err(|error| match error.kind() {
                io::ErrorKind::UnexpectedEof => {
                    TableError::WrongLength { path: path.to_owned(), found: file_len(path), expected: offset + len }
                }
                _ => TableError::Io { path: path.to_owned(), error },
            })?;
            whole.update(piece);
            sums.extend(piece.chunks(CHUNK as usize).map(xxh3_64));
            at += piece.len() as u64;
        }
        if whole.digest() != checksum {
            return Err(TableError::BodyChecksum { path: path.to_owned() });
        }
        let loaded = (0..chunks).map(|_| OnceLock::new()).collect();
        Ok(PositionedBody { file, offset, len, sums: sums.into(), loaded, kept: AtomicU64::new(0), keep_at_most })
    }

    /// The body's length in bytes.
    pub fn len(&self) -> u64 {
        self.len
    }

    /// The bytes `start..end` of the body (a range inside it), from chunks checked on
    /// their first read: borrowed when they lie in one chunk.
    pub fn bytes(&self, path: &Path, start: u64, end: u64) -> Result<Cow<'_, [u8]>, TableError> {
        if start >= end {
            return Ok(Cow::Borrowed(&[]));
        }
        let (first, last) = (start / CHUNK, (end - 1) / CHUNK);
        if first == last {
            return Ok(match self.chunk(path, first)? {
                Cow::Borrowed(chunk) => Cow::Borrowed(&chunk[within(first, start, end)]),
                Cow::Owned(chunk) => Cow::Owned(chunk[within(first, start, end)].to_vec()),
            });
        }
        let mut out = Vec::with_capacity((end - start) as usize);
        for c in first..=last {
            out.extend_from_slice(&self.chunk(path, c)?[within(c, start, end)]);
        }
        Ok(Cow::Owned(out))
    }

    /// A reader of ranges in increasing order that keeps no chunk: for a pass over the
    /// whole body (the opening check of its blocks) that should leave no copy behind.
    pub fn in_order<'a>(&'a self, path: &'a Path) -> InOrder<'a> {
        InOrder { body: self, path, current: None }
    }

    /// Chunk `c`, read and checked on its first use and kept while the table keeps less
    /// than its most; past that, read and checked at each use.
    fn chunk(&self, path: &Path, c: u64) -> Result<Cow<'_, [u8]>, TableError> {
        let slot = &self.loaded[c as usize];
        if let Some(bytes) = slot.get() {
            return Ok(Cow::Borrowed(bytes));
        }
        let bytes = self.read_chunk(path, c)?;
        let size = bytes.len() as u64;
        if self.kept.fetch_add(size, Relaxed) + size > self.keep_at_most {
            self.kept.fetch_sub(size, Relaxed);
            return Ok(Cow::Owned(bytes));
        }
        // Two threads may read one chunk at once: both checked it, either copy serves.
        let mut spare = Some(bytes);
        let kept = slot.get_or_init(|| spare.take().unwrap_or_default().into_boxed_slice());
        if spare.is_some() {
            self.kept.fetch_sub(size, Relaxed);
        }
        Ok(Cow::Borrowed(kept))
    }

    /// Bytes of chunks kept.
    #[cfg(test)]
    fn kept(&self) -> u64 {
        self.kept.load(Relaxed)
    }

    /// Chunk `c` read from the file and compared with its sum at opening.
    fn read_chunk(&self, path: &Path, c: u64) -> Result<Vec<u8>, TableError> {
        let start = c * CHUNK;
        let mut bytes = vec![0u8; (self.len - start).min(CHUNK) as usize];
        read_exact_at(&self.file, &mut bytes, self.offset + start)
            .map_err(|error| short_or_io(path, error, self.offset + self.len))?;
        if xxh3_64(&bytes) != self.sums[c as usize] {
            return Err(TableError::Changed {
                path: path.to_owned(),
                what: format!(
                    "bytes {}..{} differ from the ones checked then",
                    self.offset + start,
                    self.offset + start + bytes.len() as u64
                ),
            });
        }
        Ok(bytes)
    }
}

/// Reads ranges of a body in increasing order, each chunk read once and checked.
pub struct InOrder<'a> {
    body: &'a PositionedBody,
    path: &'a Path,
    current: Option<(u64, Vec<u8>)>,
}

impl InOrder<'_> {
    /// The bytes `start..end` of the body, a range at or after the one read last.
    pub fn bytes(&mut self, start: u64, end: u64) -> Result<Vec<u8>, TableError> {
        let mut out = Vec::with_capacity(end.saturating_sub(start) as usize);
        let mut c = start / CHUNK;
        while c * CHUNK < end {
            if self.current.as_ref().is_none_or(|(held, _)| *held != c) {
                self.current = Some((c, self.body.read_chunk(self.path, c)?));
            }
            if let Some((_, chunk)) = &self.current {
                out.extend_from_slice(&chunk[within(c, start, end)]);
            }
            c += 1;
        }
        Ok(out)
    }
}

/// The part of chunk `c` that the body's range `start..end` covers, within the chunk.
fn within(c: u64, start: u64, end: u64) -> std::ops::Range<usize> {
    let base = c * CHUNK;
    (start.max(base) - base) as usize..(end.min(base + CHUNK) - base) as usize
}

/// The file's length now (0 if it cannot be read).
fn file_len(path: &Path) -> u64 {
    std::fs::metadata(path).map(|m| m.len()).unwrap_or(0)
}

/// A read that ended early means the file is shorter than it was when opened: said so;
/// any other error is the system's.
fn short_or_io(path: &Path, error: io::Error, expected: u64) -> TableError {
    if error.kind() == io::ErrorKind::UnexpectedEof {
        TableError::Changed {
            path: path.to_owned(),
            what: format!("it is {} bytes long, shorter than the {expected} it had then", file_len(path)),
        }
    } else {
        TableError::Io { path: path.to_owned(), error }
    }
}

#[cfg(unix)]
fn read_exact_at(file: &File, buffer: &mut [u8], offset: u64) -> io::Result<()> {
    std::os::unix::fs::FileExt::read_exact_at(file, buffer, offset)
}

#[cfg(windows)]
fn read_exact_at(file: &File, mut buffer: &mut [u8], mut offset: u64) -> io::Result<()> {
    use std::os::windows::fs::FileExt;
    while !buffer.is_empty() {
        match file.seek_read(buffer, offset) {
            Ok(0) => return Err(io::ErrorKind::UnexpectedEof.into()),
            Ok(n) => {
                buffer = &mut buffer[n..];
                offset += n as u64;
            }
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    /// A body of `chunks` whole chunks, each byte its chunk's number, written to a file.
    fn body_of(chunks: u8) -> (tempfile::NamedTempFile, Vec<u8>) {
        let bytes: Vec<u8> = (0..chunks).flat_map(|c| std::iter::repeat_n(c, CHUNK as usize)).collect();
        let mut file = tempfile::NamedTempFile::new().unwrap();
        file.write_all(&bytes).unwrap();
        (file, bytes)
    }

    #[test]
    fn chunks_past_the_most_kept_are_read_and_checked_at_each_use() {
        let (file, bytes) = body_of(6);
        let path = file.path();
        let whole = (0, bytes.len() as u64, xxh3_64(&bytes));
        let body = PositionedBody::keeping(path, File::open(path).unwrap(), whole, 2 * CHUNK).unwrap();
        for c in 0..6u64 {
            let read = body.bytes(path, c * CHUNK + 10, c * CHUNK + 20).unwrap();
            assert_eq!(&read[..], &bytes[(c * CHUNK + 10) as usize..(c * CHUNK + 20) as usize]);
        }
        assert_eq!(body.kept(), 2 * CHUNK, "kept past its most");
        // Across chunks, kept and not.
        assert_eq!(
            &body.bytes(path, CHUNK - 5, 3 * CHUNK + 5).unwrap()[..],
            &bytes[(CHUNK - 5) as usize..(3 * CHUNK + 5) as usize]
        );
        // Changed on disk: the kept chunks (0 and 1) answer from what was checked; the
        // others, read again, are refused.
        let mut changed = bytes.clone();
        changed.iter_mut().for_each(|b| *b = !*b);
        std::fs::write(path, &changed).unwrap();
        assert_eq!(&body.bytes(path, 0, 2 * CHUNK).unwrap()[..], &bytes[..2 * CHUNK as usize]);
        let err = body.bytes(path, 4 * CHUNK, 4 * CHUNK + 1).expect_err("a chunk changed on disk");
        assert!(matches!(err, TableError::Changed { .. }), "{err}");
    }
}
