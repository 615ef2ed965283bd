//! One tier's values on disk: writing (atomically) and reading (checked, then probed).
//!
//! # File layout (format versions 1 and 2), all integers little-endian
//!
//! ```text
//! offset size field
//!      0    8 magic            "MNCLTBL\n"
//!      8    2 format version   1 = the body packed plain, 2 = the body in blocks
//!     10    1 value encoding   1 = outcome and distance: code 0 draw,
//!                                2d+1 win in d plies, 2d+2 loss in d plies;
//!                                2 = score: zigzag code of a signed score
//!                                (0, -1, 1, -2, 2, … as 0, 1, 2, 3, 4, …)
//!     11    1 bits per entry   1..=32 (the plain width; in blocks, the widest code)
//!     12    4 descriptor bytes L
//!     16    8 entries          positions in the tier, one entry per rank
//!     24    8 body offset      header length, a multiple of 64
//!     32    8 body bytes       version 1: ceil(entries · bits / 8)
//!     40    8 body checksum    XXH3-64 of the body
//!     48    2 max distance     largest distance stored (0 for an all-draw tier)
//!     50    6 reserved         zero
//!     56    8 header checksum  XXH3-64 of bytes 0..56 followed by the descriptor
//!     64    L descriptor       UTF-8 lines `name=value`: `key=` the game's table key,
//!                              `tier=` the tier, `writer=` the program that wrote it
//!  64+L   … zero padding up to the body offset
//! offset  … body             version 1: entries packed end to end (see
//!                              `encoding::packed`); version 2: blocks of ranks, each
//!                              in the smallest of four forms, behind an index (see
//!                              `blocks.rs` and `coded.rs`)
//! ```
//!
//! Every field is checked when a table is opened, and the body checksum too, once, and a
//! blocked body's index and block headers; a probe after that is one unaligned load in a
//! plain body, two loads (the index, the block) and at most a short binary search or
//! the decoding of up to 63 codewords in blocks. A build writes plain bodies and stores
//! its finished tables compact ([`Layout`], [`compact_table`]).

use crate::blocks;
use crate::positioned::PositionedBody;
use crate::value::Value;
use encoding::{packed_get, packed_len, PackedSlice};
use memmap2::{Mmap, MmapMut};
use std::borrow::Cow;
use std::fs::{self, File};
use std::io::{self, Read, Seek, Write};
use std::path::{Path, PathBuf};
use std::sync::{Mutex, PoisonError};
use thiserror::Error;
use xxhash_rust::xxh3::{xxh3_64, Xxh3};

/// The first eight bytes of every table file.
pub const MAGIC: &[u8; 8] = b"MNCLTBL\n";
/// The first eight bytes of every checkpoint file ([`crate::checkpoint`]): the table's
/// header layout, so that a checkpoint is never opened as a table, nor a table as one.
pub const CHECKPOINT_MAGIC: &[u8; 8] = b"MNCLCKP\n";
/// The one format version of checkpoints.
pub const CHECKPOINT_VERSION: u16 = 1;
/// The newest format version this program writes; it reads every version from 1 to it.
pub const FORMAT_VERSION: u16 = BLOCKED_VERSION;
/// The format of a plain packed body.
const PLAIN_VERSION: u16 = 1;
/// The format of a body in blocks.
const BLOCKED_VERSION: u16 = 2;
const FIXED_HEADER: usize = 64;
const ALIGN: u64 = 64;
/// Longest descriptor accepted on reading: anything longer is not one of ours.
const MAX_DESCRIPTOR: u32 = 1 << 16;
/// Bytes read first when a table is opened by position: more than the header of any
/// table written here (a descriptor of a hundred bytes or so).
const HEADER_GUESS: u64 = 4096;

/// Why a table file cannot be used. Every variant names the file.
#[derive(Debug, Error)]
pub enum TableError {
    // The operating system's error is part of the message, not a separate source, so
    // that a report of the whole chain says it once.
    /// The file could not be read.
    #[error("{path}: {error}")]
    Io {
        /// The file.
        path: PathBuf,
        /// The cause.
        error: io::Error,
    },
    /// The file could not be written.
    #[error("{path}: cannot write the table: {error}")]
    Write {
        /// The file.
        path: PathBuf,
        /// The cause.
        error: io::Error,
    },
    /// The path is not a regular file (a directory, a FIFO, a device).
    #[error("{path}: is {kind}, not a table file")]
    NotAFile {
        /// The file.
        path: PathBuf,
        /// What it is instead.
        kind: &'static str,
    },
    /// The path is a symbolic link whose target is gone (tables kept on a disk not
    /// mounted): never replaced by a build, whose new table would leave the old one unused.
    #[error("{path}: a symbolic link to {target}, which is not there: restore it (or mount its disk), or remove the link to have the table built again")]
    DanglingLink {
        /// The link.
        path: PathBuf,
        /// Where it points.
        target: PathBuf,
    },
    /// The file is empty: a copy or a write cut off before it began.
    #[error("{path}: an empty file (0 bytes), not a table")]
    Empty {
        /// The file.
        path: PathBuf,
    },
    /// The file does not start as a table file does.
    #[error("{path}: not a table file (bad magic number)")]
    BadMagic {
        /// The file.
        path: PathBuf,
    },
    /// A format version this program does not read.
    #[error("{path}: format version {found}, this program reads versions 1 to {FORMAT_VERSION}")]
    UnsupportedVersion {
        /// The file.
        path: PathBuf,
        /// What the file holds.
        found: u16,
    },
    /// The file is shorter or longer than its header says.
    #[error("{path}: {}: {found} bytes, the header says {expected}", if found < expected { "truncated" } else { "too long" })]
    WrongLength {
        /// The file.
        path: PathBuf,
        /// What the file holds.
        found: u64,
        /// What was asked for or what the header says.
        expected: u64,
    },
    /// The header cannot be decoded.
    #[error("{path}: damaged header ({what})")]
    BadHeader {
        /// The file.
        path: PathBuf,
        /// What is wrong.
        what: String,
    },
    /// The header's checksum does not hold.
    #[error("{path}: header checksum mismatch: the header is damaged")]
    HeaderChecksum {
        /// The file.
        path: PathBuf,
    },
    /// The body's checksum does not hold.
    #[error("{path}: body checksum mismatch: the values are damaged")]
    BodyChecksum {
        /// The file.
        path: PathBuf,
    },
    /// A blocked body whose checksum holds but whose index or blocks are malformed: not
    /// written by this program.
    #[error("{path}: damaged body ({what})")]
    BadBody {
        /// The file.
        path: PathBuf,
        /// What is wrong.
        what: String,
    },
    /// A table of another game, tier or value coding than asked for.
    #[error("{path}: built for {field} `{found}`, but `{expected}` was asked for")]
    Mismatch {
        /// The file.
        path: PathBuf,
        /// Which part of its identity.
        field: &'static str,
        /// What the file holds.
        found: String,
        /// What was asked for or what the header says.
        expected: String,
    },
    /// A table read by position whose bytes are no longer those checked when it was
    /// opened: the file was rewritten or truncated in place while in use.
    #[error("{path}: changed since it was opened ({what}): no value is read from it; restore the file or rebuild the table, then open it again")]
    Changed {
        /// The file.
        path: PathBuf,
        /// What differs.
        what: String,
    },
    /// A table with another number of entries than its tier has positions.
    #[error("{path}: holds {found} entries, but tier {tier} has {expected} positions")]
    WrongEntryCount {
        /// The file.
        path: PathBuf,
        /// The tier, by name.
        tier: String,
        /// What was asked for or what the header says.
        expected: u64,
        /// What the file holds.
        found: u64,
    },
}

impl TableError {
    /// Whether the error is about the contents of an existing file (damaged, foreign or
    /// of the wrong size), which removing the file would let a build replace.
    pub fn is_bad_contents(&self) -> bool {
        !matches!(
            self,
            TableError::Io { .. }
                | TableError::Write { .. }
                | TableError::NotAFile { .. }
                | TableError::DanglingLink { .. }
        )
    }
}

/// What a file that is not a regular file is, in words.
pub fn kind_of(file_type: fs::FileType) -> &'static str {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if file_type.is_fifo() {
            return "a FIFO (named pipe)";
        }
        if file_type.is_socket() {
            return "a socket";
        }
        if file_type.is_block_device() || file_type.is_char_device() {
            return "a device";
        }
    }
    if file_type.is_dir() {
        "a directory"
    } else {
        "not a regular file"
    }
}

/// Checks that `path` is a regular file (or a link to one) before it is opened: opening
/// a FIFO would wait for a writer for ever, and a directory or device is no table.
pub fn check_regular_file(path: &Path) -> Result<(), TableError> {
    let metadata = fs::metadata(path).map_err(|error| match dangling_link(path) {
        Some(e) => e,
        None => TableError::Io { path: path.to_owned(), error },
    })?;
    if metadata.is_file() {
        Ok(())
    } else {
        Err(TableError::NotAFile { path: path.to_owned(), kind: kind_of(metadata.file_type()) })
    }
}

/// [`TableError::DanglingLink`] if `path` is a symbolic link whose target is not there.
pub fn dangling_link(path: &Path) -> Option<TableError> {
    let link = fs::symlink_metadata(path).ok()?;
    if !link.file_type().is_symlink() || path.exists() {
        return None;
    }
    let target = fs::read_link(path).ok()?;
    Some(TableError::DanglingLink { path: path.to_owned(), target })
}

/// What the codes of a table mean.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ValueEncoding {
    /// Win, loss or draw with the distance: see [`Value::code`].
    OutcomeDistance,
    /// A signed score, zigzag-coded: see [`crate::value::score_code`].
    Score,
}

impl ValueEncoding {
    fn byte(self) -> u8 {
        match self {
            ValueEncoding::OutcomeDistance => 1,
            ValueEncoding::Score => 2,
        }
    }

    fn from_byte(byte: u8) -> Option<ValueEncoding> {
        match byte {
            1 => Some(ValueEncoding::OutcomeDistance),
            2 => Some(ValueEncoding::Score),
            _ => None,
        }
    }

    /// The coding's name in messages.
    pub fn name(self) -> &'static str {
        match self {
            ValueEncoding::OutcomeDistance => "outcome and distance",
            ValueEncoding::Score => "score",
        }
    }
}

/// What a table must be to be used: the game's key, the tier and the value encoding.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TableIdentity {
    /// The game's table key (`Game::table_key`).
    pub key: String,
    /// The tier, by name.
    pub tier: String,
    /// How values are coded.
    pub encoding: ValueEncoding,
}

/// What a file with the tables' header holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FileKind {
    /// A finished tier's values ([`MAGIC`]).
    Table,
    /// A tier's working state, to resume its solving ([`CHECKPOINT_MAGIC`]): the body is
    /// the engine's record and its slots, [`Header::bits`] wide.
    Checkpoint,
}

impl FileKind {
    fn magic(self) -> &'static [u8; 8] {
        match self {
            FileKind::Table => MAGIC,
            FileKind::Checkpoint => CHECKPOINT_MAGIC,
        }
    }
}

/// The decoded header of a table file, or of a checkpoint's.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Header {
    /// A table or a checkpoint.
    pub kind: FileKind,
    /// The format version.
    pub version: u16,
    /// Bits a value in the body.
    pub bits: u32,
    /// Values in the body: the tier's positions.
    pub entries: u64,
    /// Where the body starts in the file.
    pub body_offset: u64,
    /// The body's length in bytes.
    pub body_len: u64,
    /// XXH3-64 of the body.
    pub body_checksum: u64,
    /// Outcome tables: the longest distance to the end of any position; 0 for scores.
    pub max_distance: u16,
    /// The game, tier and value coding the table is for.
    pub identity: TableIdentity,
    /// The program that wrote it.
    pub writer: String,
}

pub(crate) fn writer_name() -> String {
    format!("mancala-retro {}", env!("CARGO_PKG_VERSION"))
}

impl Header {
    fn descriptor(&self) -> String {
        format!("key={}\ntier={}\nwriter={}\n", self.identity.key, self.identity.tier, self.writer)
    }

    fn encode(&self) -> Vec<u8> {
        let descriptor = self.descriptor();
        let mut out = Vec::with_capacity(self.body_offset as usize);
        out.extend_from_slice(self.kind.magic());
        out.extend_from_slice(&self.version.to_le_bytes());
        out.push(self.identity.encoding.byte());
        out.push(self.bits as u8);
        out.extend_from_slice(&(descriptor.len() as u32).to_le_bytes());
        out.extend_from_slice(&self.entries.to_le_bytes());
        out.extend_from_slice(&self.body_offset.to_le_bytes());
        out.extend_from_slice(&self.body_len.to_le_bytes());
        out.extend_from_slice(&self.body_checksum.to_le_bytes());
        out.extend_from_slice(&self.max_distance.to_le_bytes());
        out.extend_from_slice(&[0u8; 6]);
        let checksum = header_checksum(&out, descriptor.as_bytes());
        out.extend_from_slice(&checksum.to_le_bytes());
        out.extend_from_slice(descriptor.as_bytes());
        out.resize(self.body_offset as usize, 0);
        out
    }

    /// Decodes and checks a table's header from the start of a file of `file_len` bytes.
    pub fn decode(path: &Path, bytes: &[u8], file_len: u64) -> Result<Header, TableError> {
        Header::decode_as(FileKind::Table, path, bytes, file_len)
    }

    /// Decodes and checks the header of a file of `kind` from the start of a file of
    /// `file_len` bytes.
    pub fn decode_as(kind: FileKind, path: &Path, bytes: &[u8], file_len: u64) -> Result<Header, TableError> {
        let bad = |what: &str| TableError::BadHeader { path: path.to_owned(), what: what.to_owned() };
        if file_len == 0 {
            return Err(TableError::Empty { path: path.to_owned() });
        }
        if bytes.len() < 8 || &bytes[..8] != kind.magic() {
            return Err(TableError::BadMagic { path: path.to_owned() });
        }
        if bytes.len() < FIXED_HEADER {
            return Err(TableError::WrongLength {
                path: path.to_owned(),
                found: file_len,
                expected: FIXED_HEADER as u64,
            });
        }
        let u16_at = |o: usize| u16::from_le_bytes(bytes[o..o + 2].try_into().unwrap());
        let u32_at = |o: usize| u32::from_le_bytes(bytes[o..o + 4].try_into().unwrap());
        let u64_at = |o: usize| u64::from_le_bytes(bytes[o..o + 8].try_into().unwrap());
        let version = u16_at(8);
        let versions = match kind {
            FileKind::Table => PLAIN_VERSION..=FORMAT_VERSION,
            FileKind::Checkpoint => CHECKPOINT_VERSION..=CHECKPOINT_VERSION,
        };
        if !versions.contains(&version) {
            return Err(TableError::UnsupportedVersion { path: path.to_owned(), found: version });
        }
        let descriptor_len = u32_at(12);
        if descriptor_len > MAX_DESCRIPTOR {
            return Err(bad("descriptor length out of range"));
        }
        let descriptor_end = FIXED_HEADER + descriptor_len as usize;
        if bytes.len() < descriptor_end {
            return Err(TableError::WrongLength {
                path: path.to_owned(),
                found: file_len,
                expected: descriptor_end as u64,
            });
        }
        let descriptor = &bytes[FIXED_HEADER..descriptor_end];
        if u64_at(56) != header_checksum(&bytes[..56], descriptor) {
            return Err(TableError::HeaderChecksum { path: path.to_owned() });
        }
        let encoding =
            ValueEncoding::from_byte(bytes[10]).ok_or_else(|| bad(&format!("unknown value encoding {}", bytes[10])))?;
        let bits = bytes[11] as u32;
        if !(1..=32).contains(&bits) {
            return Err(bad(&format!("{bits} bits per entry")));
        }
        let entries = u64_at(16);
        let body_offset = u64_at(24);
        let body_len = u64_at(32);
        if body_offset % ALIGN != 0 || body_offset < descriptor_end as u64 {
            return Err(bad("body offset"));
        }
        if entries.checked_mul(bits as u64).is_none()
            || (kind == FileKind::Table && version == PLAIN_VERSION && body_len != packed_len(entries, bits))
        {
            return Err(bad("body length does not match entries and width"));
        }
        if bytes[50..56].iter().any(|&b| b != 0) {
            return Err(bad("reserved bytes are not zero"));
        }
        let expected_len = body_offset.checked_add(body_len).ok_or_else(|| bad("body length"))?;
        if file_len != expected_len {
            return Err(TableError::WrongLength { path: path.to_owned(), found: file_len, expected: expected_len });
        }
        if bytes.len() as u64 >= body_offset && bytes[descriptor_end..body_offset as usize].iter().any(|&b| b != 0) {
            return Err(bad("padding after the descriptor is not zero"));
        }
        let text = std::str::from_utf8(descriptor).map_err(|_| bad("descriptor is not UTF-8"))?;
        let field = |name: &str| {
            text.lines()
                .find_map(|l| l.strip_prefix(name).and_then(|r| r.strip_prefix('=')))
                .map(str::to_owned)
                .ok_or_else(|| bad(&format!("descriptor has no `{name}`")))
        };
        Ok(Header {
            kind,
            version,
            bits,
            entries,
            body_offset,
            body_len,
            body_checksum: u64_at(40),
            max_distance: u16_at(48),
            identity: TableIdentity { key: field("key")?, tier: field("tier")?, encoding },
            writer: field("writer")?,
        })
    }
}

fn header_checksum(fixed: &[u8], descriptor: &[u8]) -> u64 {
    let mut all = Vec::with_capacity(fixed.len() + descriptor.len());
    all.extend_from_slice(fixed);
    all.extend_from_slice(descriptor);
    xxh3_64(&all)
}

/// How [`write_table`] lays out a table's body.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Layout {
    /// Packed plain (version 1): one load a probe. A build writes its tables so, since the
    /// tiers above probe them millions of times (THI` TRIAS: 50 % longer against blocks).
    Plain,
    /// In blocks (version 2) when they take at most half the bytes of the plain body,
    /// plain otherwise: a probe into blocks costs a second load, worth it only where the
    /// file shrinks a lot. Finished tables are stored so.
    Compact,
}

/// How much of a plain body's bytes blocks must save for a table to be stored in them: a
/// probe into blocks costs a second load and, in an entropy-coded block, decoding up to 63
/// codewords, so a table probed often is worth storing in blocks only where they shrink
/// it a lot.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct Saving(u8);

impl Saving {
    /// Half the bytes or more: what builds ask ([`Layout::Compact`]).
    pub const HALF: Saving = Saving(50);

    /// A saving of `percent` of the plain bytes (1 to 99).
    pub fn percent(percent: u8) -> Option<Saving> {
        (1..=99).contains(&percent).then_some(Saving(percent))
    }

    /// Whether a body of `blocked` bytes in blocks saves enough against a plain body of
    /// `plain` bytes.
    fn pays(self, blocked: u64, plain: u64) -> bool {
        blocked as u128 * 100 <= plain as u128 * (100 - self.0 as u128)
    }
}

/// Writes a table of value codes to `path` atomically: the bytes go to a temporary file
/// in the same directory, are flushed to disk, and only then renamed to `path`. A crash
/// or a full disk leaves at most a `*.tmp` file, never a file under the final name.
pub fn write_table<C: Copy + Into<u16> + Sync>(
    path: &Path,
    identity: &TableIdentity,
    codes: &[C],
    layout: Layout,
) -> Result<Header, TableError> {
    let max_code = codes.iter().map(|&c| c.into()).max().unwrap_or(0);
    let max_distance = match identity.encoding {
        ValueEncoding::OutcomeDistance => {
            codes.iter().filter_map(|&c| Value::from_code(c.into()).plies()).max().unwrap_or(0)
        }
        ValueEncoding::Score => 0,
    };
    let bits = encoding::bits_for(max_code as u64);
    let entries = codes.len() as u64;
    let plain_len = packed_len(entries, bits);
    let read = |b, out: &mut Vec<u16>| blocks::slice_block(codes, b, out);
    let plan = (layout == Layout::Compact)
        .then(|| blocks::Plan::new(entries, max_code, &read))
        .filter(|plan| Saving::HALF.pays(plan.len(), plain_len));
    let header = new_header(identity, bits, entries, max_distance, plan.as_ref().map(blocks::Plan::len));
    match plan {
        Some(plan) => write_file(path, header, |out| plan.write(&read, out)),
        // The body is packed and written a piece at a time: packed whole, a tier of
        // billions of positions held its codes and its body in memory at once (THI` 5×5:
        // 7.7 GB and 3.9 GB). Pieces of a multiple of 8 entries pack to whole bytes, so
        // they join into the same bit stream.
        None => write_file(path, header, |out| {
            codes
                .chunks(WRITE_PIECE)
                .try_for_each(|piece| out(&encoding::pack(piece.iter().map(|&c| c.into() as u32), bits)))
        }),
    }
}

/// The header of a table to be written: plain, or in blocks of `blocked` bytes.
fn new_header(identity: &TableIdentity, bits: u32, entries: u64, max_distance: u16, blocked: Option<u64>) -> Header {
    let descriptor_len = format!("key={}\ntier={}\nwriter={}\n", identity.key, identity.tier, writer_name()).len();
    Header {
        kind: FileKind::Table,
        version: if blocked.is_some() { BLOCKED_VERSION } else { PLAIN_VERSION },
        bits,
        entries,
        body_offset: ((FIXED_HEADER + descriptor_len) as u64).div_ceil(ALIGN) * ALIGN,
        body_len: blocked.unwrap_or(packed_len(entries, bits)),
        // Known once the body is written.
        body_checksum: 0,
        max_distance,
        identity: identity.clone(),
        writer: writer_name(),
    }
}

/// The header of a checkpoint of a tier of `entries` positions: slots of `bits` (8 or
/// 16) behind a record, `body_len` bytes in all.
pub(crate) fn checkpoint_header(identity: &TableIdentity, bits: u32, entries: u64, body_len: u64) -> Header {
    Header {
        kind: FileKind::Checkpoint,
        version: CHECKPOINT_VERSION,
        body_len,
        ..new_header(identity, bits, entries, 0, None)
    }
}

/// Writes `header` and the body `body` hands its `out` piece by piece to `path`
/// atomically (see [`write_table`]), the body's checksum filled in.
pub(crate) fn write_file(
    path: &Path,
    mut header: Header,
    body: impl FnOnce(&mut dyn FnMut(&[u8]) -> io::Result<()>) -> io::Result<()>,
) -> Result<Header, TableError> {
    let io_err = |error| TableError::Write { path: path.to_owned(), error };
    let dir = path.parent().unwrap_or(Path::new("."));
    fs::create_dir_all(dir).map_err(io_err)?;
    let file_name = path.file_name().and_then(|n| n.to_str()).unwrap_or("table");
    let temp = dir.join(format!(".{file_name}.{}.tmp", std::process::id()));
    let result = (|| -> io::Result<()> {
        let mut file = io::BufWriter::new(File::create(&temp)?);
        file.write_all(&header.encode())?;
        let mut checksum = Xxh3::new();
        let mut written = 0u64;
        body(&mut |piece| {
            checksum.update(piece);
            written += piece.len() as u64;
            file.write_all(piece)
        })?;
        if written != header.body_len {
            return Err(io::Error::other(format!("wrote {written} body bytes, {} planned", header.body_len)));
        }
        header.body_checksum = checksum.digest();
        file.seek(io::SeekFrom::Start(0))?;
        file.write_all(&header.encode())?;
        let file = file.into_inner().map_err(io::IntoInnerError::into_error)?;
        file.sync_all()?;
        fs::rename(&temp, path)?;
        // Make the rename itself durable.
        File::open(dir)?.sync_all()
    })();
    if let Err(source) = result {
        let _ = fs::remove_file(&temp);
        return Err(io_err(source));
    }
    Ok(header)
}

/// Rewrites a table in blocks when they save at least `saving` of the bytes its codes
/// take packed plain (builds ask [`Saving::HALF`]), and, for a table in blocks already,
/// when they take fewer bytes than its blocks do now (a block form added since it was
/// written); `Some` with the new header when it did (the `table` still maps the old file:
/// reopen the path to read the new one). Every 16th block of a plain table is tried
/// first, so that a table blocks would not shrink enough costs no pass over all its
/// values. The codes are read from the table block by block, never held all at once.
pub fn compact_table(table: &Table, saving: Saving) -> Result<Option<Header>, TableError> {
    let failed = Unread::default();
    let read = table_blocks(table, &failed);
    let Some(plan) = compaction(table, saving, &read, &failed)? else { return Ok(None) };
    let (entries, bits) = (table.entries(), table.header.bits);
    let header = new_header(&table.header.identity, bits, entries, table.header.max_distance, Some(plan.len()));
    let written = write_file(table.path(), header, |out| {
        plan.write(&read, out)?;
        // Never renamed into place with a block that could not be read.
        match failed.is_set() {
            true => Err(io::Error::other("a block could not be read")),
            false => Ok(()),
        }
    });
    match (written, failed.take()) {
        (Err(_), Some(unread)) => Err(*unread),
        (written, _) => written.map(Some),
    }
}

/// Whether [`compact_table`] would rewrite `table` under `saving`, judged without writing.
pub fn would_compact(table: &Table, saving: Saving) -> Result<bool, TableError> {
    let failed = Unread::default();
    let read = table_blocks(table, &failed);
    Ok(compaction(table, saving, &read, &failed)?.is_some())
}

/// The codes of `table` block by block, for [`blocks::Plan`]: a block that cannot be read
/// (a table read by position, changed since) reads as zeros, its error kept in `failed`
/// for the caller to return.
fn table_blocks<'a>(table: &'a Table, failed: &'a Unread) -> impl blocks::Codes + 'a {
    move |b: u64, out: &mut Vec<u16>| {
        let before = out.len();
        if let Err(e) = table.block_codes(b, out) {
            let n = table.entries().saturating_sub(b * blocks::BLOCK).min(blocks::BLOCK) as usize;
            out.truncate(before);
            out.resize(before + n, 0);
            failed.keep(e);
        }
    }
}

/// The blocks [`compact_table`] writes `table` in, if they pay, its codes read by `read`.
fn compaction(
    table: &Table,
    saving: Saving,
    read: &impl blocks::Codes,
    failed: &Unread,
) -> Result<Option<blocks::Plan>, TableError> {
    let plan = compaction_plan(table, saving, read);
    match failed.take() {
        Some(e) => Err(*e),
        None => Ok(plan),
    }
}

/// The first error of the reads of a pass over a table's blocks, which the pass itself
/// (encoding blocks on many threads) cannot return.
#[derive(Default)]
struct Unread(Mutex<Option<Box<TableError>>>);

impl Unread {
    fn keep(&self, e: Box<TableError>) {
        let mut first = self.0.lock().unwrap_or_else(PoisonError::into_inner);
        first.get_or_insert(e);
    }

    fn is_set(&self) -> bool {
        self.0.lock().unwrap_or_else(PoisonError::into_inner).is_some()
    }

    fn take(&self) -> Option<Box<TableError>> {
        self.0.lock().unwrap_or_else(PoisonError::into_inner).take()
    }
}

fn compaction_plan(table: &Table, saving: Saving, read: &impl blocks::Codes) -> Option<blocks::Plan> {
    let (entries, bits) = (table.entries(), table.header.bits);
    let max_code = ((1u64 << bits) - 1).min(u16::MAX as u64) as u16;
    if !table.is_blocked() {
        let sampled = blocks::block_count(entries).div_ceil(16);
        let sample = |b: u64, out: &mut Vec<u16>| read(16 * b, out);
        let sample_entries =
            (0..sampled).map(|b| entries.min((16 * b + 1) * blocks::BLOCK) - 16 * b * blocks::BLOCK).sum();
        if !saving.pays(blocks::Plan::new(sample_entries, max_code, &sample).len(), packed_len(sample_entries, bits)) {
            return None;
        }
    }
    let plan = blocks::Plan::new(entries, max_code, read);
    (saving.pays(plan.len(), packed_len(entries, bits)) && plan.len() < table.header.body_len).then_some(plan)
}

/// Reads from `file` into `buffer` until it is full or the file ends; the bytes read.
fn read_full(file: &mut File, buffer: &mut [u8]) -> std::io::Result<usize> {
    let mut got = 0;
    while got < buffer.len() {
        match file.read(&mut buffer[got..]) {
            Ok(0) => break,
            Ok(n) => got += n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(got)
}

/// Entries packed and written at a time by [`write_table`]: a multiple of 8.
const WRITE_PIECE: usize = 1 << 20;

enum Bytes {
    Mapped(Mmap),
    Owned(Vec<u8>),
    /// Anonymous memory, on huge pages where the system gives them.
    Held(MmapMut),
    /// The body alone, read from the file by position as probes ask.
    Positioned(PositionedBody),
}

impl Bytes {
    /// The whole file's bytes, where they are in memory.
    #[inline(always)]
    fn in_memory(&self) -> Option<&[u8]> {
        match self {
            Bytes::Mapped(m) => Some(m),
            Bytes::Owned(v) => Some(v),
            Bytes::Held(m) => Some(m),
            Bytes::Positioned(_) => None,
        }
    }
}

/// How a table's bytes are reached once it is opened.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Reading {
    /// Read by position as probes ask, each chunk checked on first read
    /// ([`Table::open_positioned`]): what queries use. A file changed or truncated in
    /// place while open is an error, never a value nor a crash.
    #[default]
    Positioned,
    /// Read whole into memory, on huge pages where the system gives them
    /// ([`Table::open_held`]): for tables probed at random millions of times (the tiers
    /// below one being solved, a search's leaves).
    Held,
    /// Mapped from the file ([`Table::open_mapped`]), so that the system may evict its
    /// pages: for a build that would not fit in memory otherwise, which asks for it
    /// (`--force`) and takes on the map's contract.
    Mapped,
}

/// An opened, checked table: probe it by rank.
pub struct Table {
    path: PathBuf,
    header: Header,
    bytes: Bytes,
}

impl Table {
    /// Opens `path` by reading it whole into memory, and checks it.
    pub fn open(path: &Path, expected: Option<&TableIdentity>) -> Result<Table, TableError> {
        let io_err = |error| TableError::Io { path: path.to_owned(), error };
        check_regular_file(path)?;
        let mut bytes = Vec::new();
        File::open(path).and_then(|mut f| f.read_to_end(&mut bytes)).map_err(io_err)?;
        Table::check(path, Bytes::Owned(bytes), expected)
    }

    /// Opens `path` by reading it whole into anonymous memory on transparent huge pages
    /// (where the system gives them), and checks it.
    ///
    /// For a table that the build of the tiers above probes at random: with its pages
    /// those of the file (4 KiB), nearly every probe of a table of hundreds of megabytes
    /// also misses the TLB, whose page walk a virtual machine's nested page tables make
    /// dearer; 2 MiB pages cover it with a few hundred entries. The memory is the
    /// process's own: the system cannot evict it as it can a file's pages.
    pub fn open_held(path: &Path, expected: Option<&TableIdentity>) -> Result<Table, TableError> {
        let io_err = |error| TableError::Io { path: path.to_owned(), error };
        check_regular_file(path)?;
        let mut file = File::open(path).map_err(io_err)?;
        let len = file.metadata().map_err(io_err)?.len();
        let Ok(len) = usize::try_from(len).map(|l| l.max(1)) else {
            return Err(io_err(std::io::Error::other("the file is larger than this machine's address space")));
        };
        let mut held = MmapMut::map_anon(len).map_err(io_err)?;
        // Only a hint: on 4 KiB pages the table works the same, more slowly.
        #[cfg(target_os = "linux")]
        let _ = held.advise(memmap2::Advice::HugePage);
        let got = read_full(&mut file, &mut held).map_err(io_err)?;
        if got < held.len() {
            // The file shrank since its length was read (or is empty): checked as it is.
            return Table::check(path, Bytes::Owned(held[..got].to_vec()), expected);
        }
        Table::check(path, Bytes::Held(held), expected)
    }

    /// Opens `path` through a memory map, and checks it.
    ///
    /// # Safety
    /// The file must not be modified or truncated, by this process or any other, while
    /// the returned table (or anything borrowed from it) is alive: a change would change
    /// memory that Rust assumes immutable, and a truncation would fault on access. Tables
    /// written by [`write_table`] are never rewritten in place (a rebuild writes a new
    /// file and renames it over the old name, which leaves the mapped file intact), so
    /// the contract holds unless someone edits table files by hand while they are in use.
    pub unsafe fn open_mapped(path: &Path, expected: Option<&TableIdentity>) -> Result<Table, TableError> {
        let io_err = |error| TableError::Io { path: path.to_owned(), error };
        check_regular_file(path)?;
        let file = File::open(path).map_err(io_err)?;
        let len = file.metadata().map_err(io_err)?.len();
        if len == 0 {
            // An empty file cannot be mapped; it is reported as what it is.
            return Table::check(path, Bytes::Owned(Vec::new()), expected);
        }
        // SAFETY: the caller upholds the contract above.
        let map = unsafe { Mmap::map(&file) }.map_err(io_err)?;
        Table::check(path, Bytes::Mapped(map), expected)
    }

    /// Opens `path` to be read by position ([`Reading::Positioned`]): its header and
    /// its whole body are read and checked now, as every opening does, and each chunk of
    /// the body is read again, and checked again, when a probe first needs it.
    pub fn open_positioned(path: &Path, expected: Option<&TableIdentity>) -> Result<Table, TableError> {
        let io_err = |error| TableError::Io { path: path.to_owned(), error };
        check_regular_file(path)?;
        let mut file = File::open(path).map_err(io_err)?;
        let len = file.metadata().map_err(io_err)?.len();
        let mut read_prefix = |bytes: u64| -> Result<Vec<u8>, TableError> {
            let mut prefix = vec![0u8; bytes.min(len) as usize];
            file.seek(io::SeekFrom::Start(0)).map_err(io_err)?;
            let got = read_full(&mut file, &mut prefix).map_err(io_err)?;
            prefix.truncate(got);
            Ok(prefix)
        };
        let mut prefix = read_prefix(HEADER_GUESS)?;
        // A descriptor longer than the guess (up to the longest accepted): read it whole.
        if let Some(descriptor) = prefix.get(12..16).and_then(|b| b.try_into().ok()).map(u32::from_le_bytes) {
            let header_end = FIXED_HEADER as u64 + u64::from(descriptor.min(MAX_DESCRIPTOR));
            if header_end > prefix.len() as u64 {
                prefix = read_prefix(header_end)?;
            }
        }
        let mut header = Header::decode(path, &prefix, len)?;
        if header.body_offset > prefix.len() as u64 {
            // Padding beyond the descriptor: read to the body, to check it too.
            prefix = read_prefix(header.body_offset)?;
            header = Header::decode(path, &prefix, len)?;
        }
        check_identity(path, &header, expected)?;
        let body = PositionedBody::open(path, file, header.body_offset, header.body_len, header.body_checksum)?;
        if header.version == BLOCKED_VERSION {
            check_blocks_in_order(path, &body, &header)?;
        }
        Ok(Table { path: path.to_owned(), header, bytes: Bytes::Positioned(body) })
    }

    /// Opens `path` as `reading` says.
    ///
    /// # Safety
    /// For [`Reading::Mapped`], the contract of [`Table::open_mapped`]; the others have none.
    pub unsafe fn open_as(
        path: &Path,
        expected: Option<&TableIdentity>,
        reading: Reading,
    ) -> Result<Table, TableError> {
        match reading {
            Reading::Positioned => Table::open_positioned(path, expected),
            Reading::Held => Table::open_held(path, expected),
            // SAFETY: the caller upholds the contract of `open_mapped`.
            Reading::Mapped => unsafe { Table::open_mapped(path, expected) },
        }
    }

    fn check(path: &Path, bytes: Bytes, expected: Option<&TableIdentity>) -> Result<Table, TableError> {
        let all = bytes.in_memory().unwrap_or_default();
        let header = Header::decode(path, all, all.len() as u64)?;
        check_identity(path, &header, expected)?;
        let body = &all[header.body_offset as usize..];
        if xxh3_64(body) != header.body_checksum {
            return Err(TableError::BodyChecksum { path: path.to_owned() });
        }
        if header.version == BLOCKED_VERSION {
            blocks::check(body, header.entries, header.bits)
                .map_err(|what| TableError::BadBody { path: path.to_owned(), what })?;
        }
        let table = Table { path: path.to_owned(), header, bytes };
        Ok(table)
    }

    /// Checks that the table holds `expected` entries, as its tier has positions.
    pub fn expect_entries(self, expected: u64) -> Result<Table, TableError> {
        if self.header.entries == expected {
            Ok(self)
        } else {
            Err(TableError::WrongEntryCount {
                path: self.path,
                tier: self.header.identity.tier,
                expected,
                found: self.header.entries,
            })
        }
    }

    /// The file.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Its decoded header.
    pub fn header(&self) -> &Header {
        &self.header
    }

    /// Values it holds.
    pub fn entries(&self) -> u64 {
        self.header.entries
    }

    /// Size of the file in bytes.
    pub fn file_bytes(&self) -> u64 {
        self.header.body_offset + self.header.body_len
    }

    /// How the table's bytes are reached: a table read whole into memory, held or not,
    /// is [`Reading::Held`].
    pub fn reading(&self) -> Reading {
        match self.bytes {
            Bytes::Positioned(_) => Reading::Positioned,
            Bytes::Owned(_) | Bytes::Held(_) => Reading::Held,
            Bytes::Mapped(_) => Reading::Mapped,
        }
    }

    /// The body, where it is in memory.
    #[inline(always)]
    fn body(&self) -> Option<&[u8]> {
        Some(&self.bytes.in_memory()?[self.header.body_offset as usize..])
    }

    /// A plain body's entries, where it is in memory.
    fn plain(&self) -> Option<PackedSlice<'_>> {
        // The header check made sure the body has exactly this length.
        PackedSlice::new(self.body()?, self.header.bits, self.header.entries)
    }

    /// Whether the body is stored in blocks (format version 2) rather than plain.
    pub fn is_blocked(&self) -> bool {
        self.header.version == BLOCKED_VERSION
    }

    /// Asks for the memory that [`Table::code`] of `rank` reads first to be fetched, so
    /// that a probe made a little later does not wait for it (nothing past the end, and
    /// nothing for a table read by position).
    #[inline(always)]
    pub fn prefetch(&self, rank: u64) {
        let Some(body) = self.body() else { return };
        let at =
            if self.is_blocked() { blocks::index_entry(rank) } else { (rank * self.header.bits as u64 / 8) as usize };
        crate::prefetch::prefetch_byte(body, at);
    }

    /// The code stored for `rank`, whatever its encoding, or `None` past the end; an
    /// error only from a table read by position whose file changed since it was opened
    /// (or cannot be read).
    #[inline(always)]
    pub fn code(&self, rank: u64) -> Result<Option<u16>, Box<TableError>> {
        let Some(body) = self.body() else { return self.read_code(rank) };
        Ok(if self.is_blocked() {
            blocks::get(body, self.header.entries, rank)
        } else {
            // The header check fixed the body's length: no view to validate per probe.
            packed_get(body, self.header.bits, self.header.entries, rank).map(|code| code.min(u16::MAX as u32) as u16)
        })
    }

    /// [`Table::code`] of a table read by position.
    #[cold]
    #[inline(never)]
    fn read_code(&self, rank: u64) -> Result<Option<u16>, Box<TableError>> {
        let Bytes::Positioned(body) = &self.bytes else { return Ok(None) };
        let (entries, bits) = (self.header.entries, self.header.bits as u64);
        if rank >= entries {
            return Ok(None);
        }
        if self.is_blocked() {
            let block = self.read_block(body, rank)?;
            return Ok(blocks::get_in_block(&block, blocks::block_ranks(entries, rank), rank % blocks::BLOCK));
        }
        // Eight entries fill whole bytes: the group of eight that holds `rank` starts a
        // byte, and its `bits` bytes (and the 8 a load reads past an entry) hold it.
        let group = rank - rank % 8;
        let start = group * bits / 8;
        let bytes = body.bytes(&self.path, start, (start + bits + 8).min(body.len()))?;
        let code = packed_get(&bytes, bits as u32, entries - group, rank % 8);
        Ok(code.map(|code| code.min(u16::MAX as u32) as u16))
    }

    /// The bytes of the block of `rank` of a blocked table read by position.
    fn read_block<'a>(&self, body: &'a PositionedBody, rank: u64) -> Result<Cow<'a, [u8]>, Box<TableError>> {
        let at = blocks::index_entry(rank) as u64;
        let entries = body.bytes(&self.path, at, at + 16)?;
        // The index was checked on opening, and these bytes with it.
        let (start, end) = blocks::block_span(&entries, self.header.entries).unwrap_or((0, 0));
        Ok(body.bytes(&self.path, start as u64, end as u64)?)
    }

    /// Appends the codes of block `b` (ranks `b·BLOCK..`, [`blocks::BLOCK`] of them or the
    /// rest) to `out`, whatever the layout.
    fn block_codes(&self, b: u64, out: &mut Vec<u16>) -> Result<(), Box<TableError>> {
        let (entries, bits) = (self.header.entries, self.header.bits);
        let first = b * blocks::BLOCK;
        let n = entries.saturating_sub(first).min(blocks::BLOCK);
        if let Some(body) = self.body() {
            if self.is_blocked() {
                blocks::decode_block(body, entries, b, out);
            } else {
                out.extend((first..first + n).map(|rank| self.code(rank).ok().flatten().unwrap_or(0)));
            }
            return Ok(());
        }
        let Bytes::Positioned(body) = &self.bytes else { return Ok(()) };
        if self.is_blocked() {
            blocks::decode_in_block(&self.read_block(body, first)?, n, out);
            return Ok(());
        }
        // A block's first rank starts a byte: BLOCK entries fill whole bytes.
        let start = first * bits as u64 / 8;
        let bytes = body.bytes(&self.path, start, start + packed_len(n, bits))?;
        let codes = PackedSlice::new(&bytes, bits, n)
            .ok_or_else(|| TableError::BadBody { path: self.path.clone(), what: format!("block {b} cut short") })?;
        out.extend(codes.iter().map(|c| c as u16));
        Ok(())
    }

    /// Every stored value code, in rank order.
    pub fn codes(&self) -> Result<Vec<u16>, Box<TableError>> {
        if let (Some(body), true) = (self.body(), self.is_blocked()) {
            return Ok(blocks::decode(body, self.header.entries));
        }
        if let Some(plain) = self.plain() {
            return Ok(plain.iter().map(|c| c as u16).collect());
        }
        let mut codes = Vec::with_capacity(self.header.entries as usize);
        for b in 0..blocks::block_count(self.header.entries) {
            self.block_codes(b, &mut codes)?;
        }
        Ok(codes)
    }

    /// XXH3-64 of the value codes in rank order, each as two little-endian bytes: what the
    /// table says, whatever the layout of its body, so two files of the same values in
    /// different formats have the same checksum.
    pub fn codes_checksum(&self) -> Result<u64, Box<TableError>> {
        let bytes: Vec<u8> = self.codes()?.iter().flat_map(|c| c.to_le_bytes()).collect();
        Ok(xxh3_64(&bytes))
    }
}

/// Checks that `header`'s game, value coding and tier are those `expected`, if given.
pub(crate) fn check_identity(path: &Path, header: &Header, expected: Option<&TableIdentity>) -> Result<(), TableError> {
    let Some(expected) = expected else { return Ok(()) };
    let mismatch = |field, found: &str, expected: &str| {
        Err(TableError::Mismatch {
            path: path.to_owned(),
            field,
            found: found.to_owned(),
            expected: expected.to_owned(),
        })
    };
    if header.identity.key != expected.key {
        return mismatch("game and rules", &header.identity.key, &expected.key);
    }
    if header.identity.encoding != expected.encoding {
        return mismatch("value encoding", header.identity.encoding.name(), expected.encoding.name());
    }
    if header.identity.tier != expected.tier {
        return mismatch("tier", &header.identity.tier, &expected.tier);
    }
    Ok(())
}

/// [`blocks::check`] of a body read by position, its blocks read in order and not kept.
fn check_blocks_in_order(path: &Path, body: &PositionedBody, header: &Header) -> Result<(), TableError> {
    let mut reader = body.in_order(path);
    let index_len = blocks::index_bytes(header.entries).min(body.len());
    let index = reader.bytes(0, index_len)?;
    // The check speaks in words; a read that fails inside it is kept whole, to be returned.
    let mut unread = None;
    let checked = blocks::check_with(&index, body.len(), header.entries, header.bits, |start, end| {
        reader.bytes(start, end).map(Cow::Owned).map_err(|e| {
            let words = e.to_string();
            unread = Some(e);
            words
        })
    });
    match (checked, unread) {
        (_, Some(e)) => Err(e),
        (Err(what), None) => Err(TableError::BadBody { path: path.to_owned(), what }),
        (Ok(()), None) => Ok(()),
    }
}
