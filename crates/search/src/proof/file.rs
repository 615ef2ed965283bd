//! The proof file: what a proof search keeps between runs, and the proof it finds
//! (`docs/format.md`, "Proof files"). A header names the game, its table key, the root
//! and the tiers whose tables the search probed; the body is the transposition table of a
//! search under way, or the proof trees of a value proven; an XXH3-64 checksum of every
//! byte before it ends the file. Every field is checked on reading, and a file that
//! fails a check is refused with an error that names it.

use super::{Goal, Node, Numbers, ProofTree, Side, Stored};
use retro::Value;
use std::fmt::Display;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::str::FromStr;
use thiserror::Error;
use xxhash_rust::xxh3::xxh3_64;

/// The first bytes of every proof file.
pub const MAGIC: &[u8; 8] = b"MNCPROOF";
/// The format's version, raised whenever a field changes.
pub const FORMAT_VERSION: u16 = 1;

/// Why a proof file cannot be used.
#[derive(Debug, Error)]
pub enum ProofFileError {
    /// The file cannot be read or written.
    #[error("{}: {error}", path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// The cause.
        error: std::io::Error,
    },
    /// The file does not start as a proof file does.
    #[error("{}: not a proof file (it does not start with the proof files' magic bytes)", path.display())]
    NotProof {
        /// The file.
        path: PathBuf,
    },
    /// The file is of a format version this version does not read.
    #[error("{}: proof format version {found}; this version reads version {FORMAT_VERSION}", path.display())]
    Version {
        /// The file.
        path: PathBuf,
        /// The version it has.
        found: u16,
    },
    /// The checksum does not hold: the file is damaged or cut short.
    #[error("{}: checksum mismatch: the file is damaged or cut short", path.display())]
    Checksum {
        /// The file.
        path: PathBuf,
    },
    /// A field cannot be read though the checksum holds.
    #[error("{}: {what}", path.display())]
    Malformed {
        /// The file.
        path: PathBuf,
        /// What is wrong.
        what: String,
    },
    /// The file is of another game, board or position than the command asks about.
    #[error("{}: the proof is of {field} `{found}`, the command asks about `{expected}` (name another file)", path.display())]
    Mismatch {
        /// The file.
        path: PathBuf,
        /// The field that differs.
        field: &'static str,
        /// The file's.
        found: String,
        /// The command's.
        expected: String,
    },
}

/// What a proof file says of itself.
#[derive(Debug, Clone, PartialEq)]
pub struct Header {
    /// The game's name (`trias`, `thi`).
    pub game: String,
    /// The game's table key: board and rules.
    pub key: String,
    /// The root position, in the game's notation.
    pub root: String,
    /// The tiers whose tables the search probed, by name.
    pub tiers: Vec<String>,
    /// Nodes searched, over every run.
    pub nodes: u64,
    /// Seconds searched, over every run.
    pub seconds: f64,
}

impl Header {
    /// Refuses a file of another game, key or root than `expected`'s.
    pub fn expect(&self, path: &Path, expected: &Header) -> Result<(), ProofFileError> {
        let fields = [
            ("game", &self.game, &expected.game),
            ("game and rules", &self.key, &expected.key),
            ("root position", &self.root, &expected.root),
        ];
        for (field, found, wanted) in fields {
            if found != wanted {
                return Err(ProofFileError::Mismatch {
                    path: path.to_owned(),
                    field,
                    found: found.clone(),
                    expected: wanted.clone(),
                });
            }
        }
        Ok(())
    }
}

/// What a proof file holds after its header.
#[derive(Debug, Clone, PartialEq)]
pub enum Body<P> {
    /// A search under way: its transposition table.
    Searching(Vec<Stored<P>>),
    /// A value proven (its outcome), and its proof.
    Proven {
        /// The root's value: its outcome, with the plies of its proof for a win or loss.
        value: Value,
        /// The trees that prove it.
        trees: Vec<ProofTree>,
    },
}

/// Tags of the nodes of a tree.
const END: u8 = 0;
const TABLE: u8 = 1;
const CHOSEN: u8 = 2;
const REPLIES: u8 = 3;
const AGAIN: u8 = 4;

/// Writes `header` and `body` to `path` (through a temporary file renamed into place, so
/// a run stopped while writing leaves the file before it): the bytes written.
pub fn write<P: Display>(path: &Path, header: &Header, body: &Body<P>) -> Result<u64, ProofFileError> {
    let mut out = Vec::new();
    out.extend_from_slice(MAGIC);
    out.extend_from_slice(&FORMAT_VERSION.to_le_bytes());
    out.push(match body {
        Body::Searching(_) => 0,
        Body::Proven { .. } => 1,
    });
    out.extend_from_slice(&header.nodes.to_le_bytes());
    out.extend_from_slice(&header.seconds.to_le_bytes());
    for text in [&header.game, &header.key, &header.root, &header.tiers.join(" ")] {
        put_text(&mut out, text);
    }
    match body {
        Body::Searching(entries) => put_entries(&mut out, entries),
        Body::Proven { value, trees } => put_trees(&mut out, *value, trees),
    }
    let sum = xxh3_64(&out);
    out.extend_from_slice(&sum.to_le_bytes());
    let io = |error| ProofFileError::Io { path: path.to_owned(), error };
    let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    let temporary = path.with_file_name(format!(".{name}.tmp"));
    let mut file = std::fs::File::create(&temporary).map_err(io)?;
    file.write_all(&out).and_then(|()| file.sync_all()).map_err(io)?;
    std::fs::rename(&temporary, path).map_err(io)?;
    Ok(out.len() as u64)
}

fn put_text(out: &mut Vec<u8>, text: &str) {
    out.extend_from_slice(&(text.len() as u32).to_le_bytes());
    out.extend_from_slice(text.as_bytes());
}

fn put_entries<P: Display>(out: &mut Vec<u8>, entries: &[Stored<P>]) {
    out.extend_from_slice(&(entries.len() as u64).to_le_bytes());
    for e in entries {
        out.push(e.goal.code());
        out.extend_from_slice(&e.numbers.pn.to_le_bytes());
        out.extend_from_slice(&e.numbers.dn.to_le_bytes());
        out.extend_from_slice(&e.numbers.height.to_le_bytes());
        out.extend_from_slice(&e.best.unwrap_or(u16::MAX).to_le_bytes());
        out.extend_from_slice(&e.work.to_le_bytes());
        put_text(out, &e.position.to_string());
    }
}

fn put_trees(out: &mut Vec<u8>, value: Value, trees: &[ProofTree]) {
    out.extend_from_slice(&value.code().to_le_bytes());
    out.push(trees.len() as u8);
    for tree in trees {
        out.push(match tree.prover {
            Side::Mover => 0,
            Side::Opponent => 1,
        });
        out.push(tree.goal.code());
        out.extend_from_slice(&(tree.nodes.len() as u64).to_le_bytes());
        for node in &tree.nodes {
            match *node {
                Node::End => out.push(END),
                Node::Table => out.push(TABLE),
                Node::Chosen(i) => {
                    out.push(CHOSEN);
                    out.extend_from_slice(&i.to_le_bytes());
                }
                Node::Replies(n) => {
                    out.push(REPLIES);
                    out.extend_from_slice(&n.to_le_bytes());
                }
                Node::Again(j) => {
                    out.push(AGAIN);
                    out.extend_from_slice(&j.to_le_bytes());
                }
            }
        }
    }
}

/// A proof file read and checked up to its body, which is read for a game's positions
/// ([`Opened::body`]).
pub struct Opened {
    /// The file.
    pub path: PathBuf,
    /// Its header.
    pub header: Header,
    bytes: Vec<u8>,
    body_at: usize,
    proven: bool,
}

/// Bytes before the header's texts: magic, version, state, nodes, seconds.
const FIXED: usize = 8 + 2 + 1 + 8 + 8;

/// Reads `path`: its magic, version and checksum checked, its header read.
pub fn open(path: &Path) -> Result<Opened, ProofFileError> {
    let bytes = std::fs::read(path).map_err(|error| ProofFileError::Io { path: path.to_owned(), error })?;
    if bytes.len() < MAGIC.len() || &bytes[..MAGIC.len()] != MAGIC {
        return Err(ProofFileError::NotProof { path: path.to_owned() });
    }
    if bytes.len() < FIXED + 8 {
        return Err(ProofFileError::Checksum { path: path.to_owned() });
    }
    let version = u16::from_le_bytes([bytes[8], bytes[9]]);
    if version != FORMAT_VERSION {
        return Err(ProofFileError::Version { path: path.to_owned(), found: version });
    }
    let (data, sum) = bytes.split_at(bytes.len() - 8);
    if xxh3_64(data) != u64::from_le_bytes(sum.try_into().expect("8 bytes")) {
        return Err(ProofFileError::Checksum { path: path.to_owned() });
    }
    let mut reader = Reader { path, bytes: data, at: 10 };
    let proven = match reader.u8()? {
        0 => false,
        1 => true,
        state => return Err(reader.malformed(format!("state {state} is neither 0 (searching) nor 1 (proven)"))),
    };
    let nodes = reader.u64()?;
    let seconds = f64::from_le_bytes(reader.take(8)?.try_into().expect("8 bytes"));
    let game = reader.text()?;
    let key = reader.text()?;
    let root = reader.text()?;
    let tiers = reader.text()?.split_whitespace().map(str::to_owned).collect();
    let header = Header { game, key, root, tiers, nodes, seconds };
    let body_at = reader.at;
    let len = data.len();
    let mut bytes = bytes;
    bytes.truncate(len);
    Ok(Opened { path: path.to_owned(), header, bytes, body_at, proven })
}

impl Opened {
    /// Whether the file holds a proof (else a search under way).
    pub fn is_proven(&self) -> bool {
        self.proven
    }

    /// The body, its positions read in the game's notation.
    pub fn body<P: FromStr>(&self) -> Result<Body<P>, ProofFileError> {
        let mut reader = Reader { path: &self.path, bytes: &self.bytes, at: self.body_at };
        let body = if self.proven { read_trees(&mut reader)? } else { Body::Searching(read_entries(&mut reader)?) };
        if reader.at != self.bytes.len() {
            return Err(reader.malformed(format!("{} bytes past the end of the body", self.bytes.len() - reader.at)));
        }
        Ok(body)
    }
}

fn read_entries<P: FromStr>(reader: &mut Reader<'_>) -> Result<Vec<Stored<P>>, ProofFileError> {
    let count = reader.u64()?;
    let mut entries = Vec::with_capacity(count.min(1 << 20) as usize);
    for _ in 0..count {
        let goal = reader.u8()?;
        let goal = Goal::from_code(goal).ok_or_else(|| reader.malformed(format!("question code {goal}")))?;
        let pn = reader.u32()?;
        let dn = reader.u32()?;
        let height = reader.u16()?;
        let best = Some(reader.u16()?).filter(|&b| b != u16::MAX);
        let work = reader.u64()?;
        let text = reader.text()?;
        let position = text.parse().map_err(|_| reader.malformed(format!("`{text}` is not a position")))?;
        entries.push(Stored { position, goal, numbers: Numbers { pn, dn, height }, best, work });
    }
    Ok(entries)
}

fn read_trees<P>(reader: &mut Reader<'_>) -> Result<Body<P>, ProofFileError> {
    let code = reader.u16()?;
    let value = Value::from_code(code);
    let count = reader.u8()?;
    let mut trees = Vec::new();
    for _ in 0..count {
        let prover = match reader.u8()? {
            0 => Side::Mover,
            1 => Side::Opponent,
            side => return Err(reader.malformed(format!("side code {side}"))),
        };
        let goal = reader.u8()?;
        let goal = Goal::from_code(goal).ok_or_else(|| reader.malformed(format!("question code {goal}")))?;
        let len = reader.u64()?;
        let mut nodes = Vec::with_capacity(len.min(1 << 20) as usize);
        for _ in 0..len {
            nodes.push(match reader.u8()? {
                END => Node::End,
                TABLE => Node::Table,
                CHOSEN => Node::Chosen(reader.u16()?),
                REPLIES => Node::Replies(reader.u16()?),
                AGAIN => Node::Again(reader.u64()?),
                tag => return Err(reader.malformed(format!("node tag {tag}"))),
            });
        }
        trees.push(ProofTree { prover, goal, nodes });
    }
    Ok(Body::Proven { value, trees })
}

/// Reads the fields of a file whose checksum held.
struct Reader<'a> {
    path: &'a Path,
    bytes: &'a [u8],
    at: usize,
}

impl Reader<'_> {
    fn malformed(&self, what: String) -> ProofFileError {
        ProofFileError::Malformed { path: self.path.to_owned(), what: format!("{what} (at byte {})", self.at) }
    }

    fn take(&mut self, n: usize) -> Result<&[u8], ProofFileError> {
        let Some(bytes) = self.bytes.get(self.at..self.at + n) else {
            return Err(self.malformed("the body ends inside a field".to_owned()));
        };
        self.at += n;
        Ok(bytes)
    }

    fn u8(&mut self) -> Result<u8, ProofFileError> {
        Ok(self.take(1)?[0])
    }

    fn u16(&mut self) -> Result<u16, ProofFileError> {
        Ok(u16::from_le_bytes(self.take(2)?.try_into().expect("2 bytes")))
    }

    fn u32(&mut self) -> Result<u32, ProofFileError> {
        Ok(u32::from_le_bytes(self.take(4)?.try_into().expect("4 bytes")))
    }

    fn u64(&mut self) -> Result<u64, ProofFileError> {
        Ok(u64::from_le_bytes(self.take(8)?.try_into().expect("8 bytes")))
    }

    fn text(&mut self) -> Result<String, ProofFileError> {
        let len = self.u32()? as usize;
        let bytes = self.take(len)?.to_vec();
        String::from_utf8(bytes).map_err(|_| self.malformed("a text that is not UTF-8".to_owned()))
    }
}
