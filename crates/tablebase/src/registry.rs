//! The games this tool knows, in one place: each game's name, where its tables live under
//! the `--out` root, and how a table key names it back. `solve info`, `solve
//! verify-table` and every game's subcommand find tables through here, so a new game
//! registers once ([`GAMES`]) and is found by every command that reads tables.

use crate::query::{self, Database, QueryError, Request};
use games::awari::{Awari, MAX_PITS as AWARI_MAX_PITS, START_STONES};
use games::kalah::{self, Kalah, Rules as KalahRules};
use games::njaka::{Njaka, Variant as NjakaVariant};
use games::oware::Oware;
use games::thi::{self, Bonus as ThiBonus, RuleSet, Rules as ThiRules, Thi, ThiTier};
use games::trias::{Trias, MAX_HOLES as TRIAS_MAX_HOLES};
use retro::store::{open, BuildError};
use retro::verify::{verify_tier, VerifyError};
use retro::{Engine, Game};
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use thiserror::Error;

/// Why tables cannot be named or checked.
#[derive(Debug, Error)]
pub enum RegistryError {
    /// A table key of a known game that names no game this version builds.
    #[error("table key `{key}`: {why}")]
    BadKey {
        /// The key.
        key: String,
        /// What is wrong with it.
        why: String,
    },
    /// A table key whose first word is no game's.
    #[error("tables of `{0}` belong to no game this version knows (a table key begins with one of {names})", names = known_names())]
    UnknownGame(String),
    /// A tier name its game does not have.
    #[error("`{tier}` is not a tier of `{key}`")]
    BadTier {
        /// The game's table key.
        key: String,
        /// The tier's name.
        tier: String,
    },
    /// The tables could not be opened.
    #[error(transparent)]
    Open(#[from] BuildError),
    /// A stored value disagrees with its moves.
    #[error(transparent)]
    Verify(#[from] VerifyError),
}

/// What checking a directory of tables found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Verified {
    /// Positions checked.
    pub positions: u64,
    /// Whether passing the local check proves the values (false where a tier's moves
    /// cycle with scores: see `retro::verify`).
    pub complete: bool,
}

/// How a game opens a table directory (key, directory, tiers' names) for queries.
type Opener = fn(key: &str, dir: &Path, tiers: &[String]) -> Result<Box<dyn Database>, RegistryError>;

/// One game of the registry: each entry is required.
pub struct GameEntry {
    /// The game's name: its table keys' first word, its directory under the root, and its
    /// path in the API (`/api/{name}`).
    pub name: &'static str,
    /// What it is, in a line.
    pub summary: &'static str,
    /// Re-checks the tables of `tiers` (tier names as in the files) of a key of this game
    /// in `dir`.
    verify: fn(key: &str, dir: &Path, tiers: &[String]) -> Result<Verified, RegistryError>,
    /// The positions of each of `tiers` (tier names as in the files) of a key of this
    /// game: what its table must hold.
    sizes: fn(key: &str, tiers: &[String]) -> Result<Vec<u64>, RegistryError>,
    /// Opens the tables of `tiers` of a key of this game in `dir` for queries.
    open: Opener,
    /// What builds the tables a request asks of, under a root.
    command: fn(&Request, &Path) -> Result<Build, QueryError>,
    /// Where the tables of a key of this game belong under a root: the directory its
    /// commands read and write.
    directory: fn(key: &str, root: &Path) -> Result<PathBuf, RegistryError>,
}

/// What builds the tables a request asks of: the `solve` command (without `--out`) and
/// the directory under the root it writes them in.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Build {
    /// The command.
    pub command: String,
    /// The tables' directory.
    pub dir: PathBuf,
    /// What the command costs, where it is far from small, and what else answers the
    /// position; said after the command.
    pub note: Option<String>,
}

impl GameEntry {
    /// Re-checks every stored value of the tables of `tiers` in `dir`, all of key `key`,
    /// against the values of its moves.
    pub fn verify(&self, key: &str, dir: &Path, tiers: &[String]) -> Result<Verified, RegistryError> {
        (self.verify)(key, dir, tiers)
    }

    /// The positions of each of `tiers` (tier names as in the files) of key `key`: what
    /// its table must hold, as queries check on opening it; an error for a key or a tier
    /// this game does not have.
    pub fn tier_sizes(&self, key: &str, tiers: &[String]) -> Result<Vec<u64>, RegistryError> {
        (self.sizes)(key, tiers)
    }

    /// Opens the tables of `tiers` in `dir`, all of key `key`, to answer queries: every
    /// file's header and checksum checked, as when a game's command opens them.
    pub fn open(&self, key: &str, dir: &Path, tiers: &[String]) -> Result<Box<dyn Database>, RegistryError> {
        (self.open)(key, dir, tiers)
    }

    /// The `solve` command that builds the tables `request` asks of under `root`, and
    /// where (an error if the request itself is wrong).
    pub fn command(&self, request: &Request, root: &Path) -> Result<Build, QueryError> {
        (self.command)(request, root)
    }

    /// Where the tables of `key` belong under `root`: the directory this game's commands
    /// read and write them in.
    pub fn directory(&self, key: &str, root: &Path) -> Result<PathBuf, RegistryError> {
        (self.directory)(key, root)
    }
}

/// The first words of the registered games' table keys, for an error naming them.
fn known_names() -> String {
    GAMES.iter().map(|g| format!("`{}`", g.name)).collect::<Vec<_>>().join(", ")
}

/// Every game, by the first word of its table keys.
pub static GAMES: &[GameEntry] = &[
    GameEntry {
        name: "thi",
        summary: "THI` (Transporter), every board and rule set",
        verify: |key, dir, tiers| thi_game(key, tiers).and_then(|(g, t)| verify_tiers(&g, dir, t)),
        sizes: |key, tiers| thi_game(key, tiers).map(|(g, t)| sizes_of(&g, &t)),
        open: query::thi::open,
        command: query::thi::command,
        directory: |key, root| thi_game(key, &[]).map(|(g, _)| thi_dir(root, g.size(), g.rules())),
    },
    GameEntry {
        name: "kalah",
        summary: "Kalah(m, n) under its rule switches",
        verify: |key, dir, tiers| kalah_game(key, tiers).and_then(|(g, t)| verify_tiers(&g, dir, t)),
        sizes: |key, tiers| kalah_game(key, tiers).map(|(g, t)| sizes_of(&g, &t)),
        open: query::kalah::open,
        command: query::kalah::command,
        directory: |key, root| kalah_game(key, &[]).map(|(g, _)| kalah_dir(root, g.pits(), g.rules())),
    },
    GameEntry {
        name: "awari",
        summary: "Awari: Oware under the computer-science rules",
        verify: |key, dir, tiers| awari_game(key, tiers).and_then(|(g, t)| verify_tiers(&g, dir, t)),
        sizes: |key, tiers| awari_game(key, tiers).map(|(g, t)| sizes_of(&g, &t)),
        open: query::awari::open,
        command: query::awari::command,
        directory: |key, root| awari_game(key, &[]).map(|(g, _)| awari_dir(root, g.pits_per_row())),
    },
    GameEntry {
        name: "oware",
        summary: "Trysse and Wari: Oware, first to a target",
        verify: |key, dir, tiers| oware_game(key, tiers).and_then(|(g, t)| verify_tiers(&g, dir, t)),
        sizes: |key, tiers| oware_game(key, tiers).map(|(g, t)| sizes_of(&g, &t)),
        open: query::oware::open,
        command: query::oware::command,
        directory: |key, root| oware_game(key, &[]).map(|(g, _)| oware_dir(root, &g)),
    },
    GameEntry {
        name: "trias",
        summary: "Trias on three rows of k holes",
        verify: |key, dir, tiers| trias_game(key, tiers).and_then(|(g, t)| verify_tiers(&g, dir, t)),
        sizes: |key, tiers| trias_game(key, tiers).map(|(g, t)| sizes_of(&g, &t)),
        open: query::trias::open,
        command: query::trias::command,
        directory: |key, root| trias_game(key, &[]).map(|(g, _)| trias_dir(root, g.holes())),
    },
    GameEntry {
        name: "njaka",
        summary: "Njaka's Mancala Game, two players, standard or advanced",
        verify: |key, dir, tiers| njaka_game(key, tiers).and_then(|(g, t)| verify_tiers(&g, dir, t)),
        sizes: |key, tiers| njaka_game(key, tiers).map(|(g, t)| sizes_of(&g, &t)),
        open: query::njaka::open,
        command: query::njaka::command,
        directory: |key, root| njaka_game(key, &[]).map(|(g, _)| njaka_dir(root, &g)),
    },
];

/// The game of the registry named `name`.
pub fn game_named(name: &str) -> Option<&'static GameEntry> {
    GAMES.iter().find(|g| g.name == name)
}

/// Where the tables of `key` belong, if `dir` holds them under another name in a game's
/// directory (`thi/3x3-fixed1` holding `rules=original`): the commands that build and read
/// them look in the directory returned, so a renamed directory would answer for tables it
/// does not hold. A directory outside a game's directory (`mine/`, under any name) is not
/// judged. However `dir` is spelled (`.`, `..`, relative), the directory it names is.
pub fn misplaced(key: &str, dir: &Path) -> Option<PathBuf> {
    let game = game_of_key(key).ok()?;
    let belongs = game.directory(key, Path::new("")).ok()?;
    let dir = dir.canonicalize().unwrap_or_else(|_| dir.to_owned());
    let in_layout = dir.parent().and_then(Path::file_name).is_some_and(|name| name == game.name);
    (in_layout && !dir.ends_with(&belongs))
        .then(|| dir.parent().and_then(Path::parent).unwrap_or(Path::new("")).join(belongs))
}

/// The game a table key belongs to.
pub fn game_of_key(key: &str) -> Result<&'static GameEntry, RegistryError> {
    let word = key.split_whitespace().next().unwrap_or("");
    GAMES.iter().find(|g| g.name == word).ok_or_else(|| RegistryError::UnknownGame(key.to_owned()))
}

/// ` --out ROOT`, for the build commands a message names: `ROOT` quoted for a POSIX
/// shell where it holds anything but letters, digits and `/._-+,:@%`, so that the
/// command can be pasted as it stands.
pub fn out_flag(root: &Path) -> String {
    let root = root.display().to_string();
    let plain = !root.is_empty() && root.chars().all(|c| c.is_ascii_alphanumeric() || "/._-+,:@%".contains(c));
    if plain {
        format!(" --out {root}")
    } else {
        format!(" --out '{}'", root.replace('\'', "'\\''"))
    }
}

/// Where THI`'s tables of a board size and rules live under `out`.
pub fn thi_dir(out: &Path, size: usize, rules: ThiRules) -> PathBuf {
    let bonus = match rules.bonus {
        ThiBonus::No => "",
        ThiBonus::Own => "-bonus",
        ThiBonus::Any => "-bonus-any",
    };
    out.join("thi").join(format!("{size}x{size}-{}{bonus}", rules.set.name()))
}

/// Where Kalah's tables of `m` pits under `rules` live under `out`.
pub fn kalah_dir(out: &Path, m: usize, rules: &KalahRules) -> PathBuf {
    out.join("kalah").join(format!("m{m}-{}", rules.name()))
}

/// Where Awari's tables of `m` pits a row live under `out`: the real board's where they
/// always were.
pub fn awari_dir(out: &Path, m: usize) -> PathBuf {
    let name = if m == AWARI_MAX_PITS { "awari".to_owned() } else { format!("awari-m{m}") };
    out.join("awari").join(name)
}

/// Where the Trysse or Wari tables of a board, stones in play and target live under `out`.
pub fn oware_dir(out: &Path, game: &Oware) -> PathBuf {
    out.join("oware").join(format!(
        "{}-m{}-s{}-t{}",
        game.rules().name(),
        game.pits_per_row(),
        game.seeds(),
        game.target()
    ))
}

/// Where Trias's tables of `k` holes a row live under `out` (one directory for every
/// number of stones a hole: a tier's table does not depend on it).
pub fn trias_dir(out: &Path, k: usize) -> PathBuf {
    out.join("trias").join(format!("3x{k}"))
}

/// Where the tables of Njaka's game on a board, variant and direction live under `out`.
pub fn njaka_dir(out: &Path, game: &Njaka) -> PathBuf {
    let direction = if game.clockwise() { "cw" } else { "ccw" };
    out.join("njaka").join(format!("h{}-{}-{direction}", game.holes(), game.variant().name()))
}

fn bad(key: &str, why: impl ToString) -> RegistryError {
    RegistryError::BadKey { key: key.to_owned(), why: why.to_string() }
}

/// The fields of a table key `game name=value …`.
fn key_fields(key: &str) -> Result<HashMap<&str, &str>, RegistryError> {
    key.split_whitespace()
        .skip(1)
        .map(|w| w.split_once('=').ok_or_else(|| bad(key, format!("field `{w}` has no `=`"))))
        .collect()
}

fn field<'a>(fields: &HashMap<&str, &'a str>, name: &str, key: &str) -> Result<&'a str, RegistryError> {
    fields.get(name).copied().ok_or_else(|| bad(key, format!("no `{name}`")))
}

fn yes(value: &str, key: &str) -> Result<bool, RegistryError> {
    match value {
        "yes" => Ok(true),
        "no" => Ok(false),
        _ => Err(bad(key, format!("`{value}` is neither yes nor no"))),
    }
}

/// Parses every tier name, naming the first that is not one.
fn tiers_of<T>(key: &str, tiers: &[String], parse: impl Fn(&str) -> Option<T>) -> Result<Vec<T>, RegistryError> {
    tiers
        .iter()
        .map(|t| parse(t).ok_or_else(|| RegistryError::BadTier { key: key.to_owned(), tier: t.clone() }))
        .collect()
}

/// The positions of each of `tiers`.
fn sizes_of<G: Game>(game: &G, tiers: &[G::Tier]) -> Vec<u64> {
    tiers.iter().map(|&t| game.tier_size(t)).collect()
}

/// Opens the tables of `tiers` in `dir` and checks every stored value against its moves.
fn verify_tiers<G: Game>(game: &G, dir: &Path, tiers: Vec<G::Tier>) -> Result<Verified, RegistryError> {
    let tables = open(game, dir, &tiers)?;
    let complete = tiers.iter().all(|&t| game.engine(t) != Engine::CyclicScore);
    // Children before parents: a wrong value is then reported in its own tier, not in
    // the first parent above it that a file name sorts earlier (tier-10 before tier-6).
    let order: Vec<G::Tier> = match retro::order::tier_order(game, &tiers) {
        Ok(order) => order.into_iter().filter(|t| tiers.contains(t)).collect(),
        Err(_) => tiers,
    };
    let mut positions = 0;
    for tier in order {
        positions += verify_tier(game, &tables, tier)?;
    }
    Ok(Verified { positions, complete })
}

/// THI`: `thi size=N rules=R bonus=no|yes|any`, tiers `high-low`.
pub(crate) fn thi_game(key: &str, tiers: &[String]) -> Result<(Thi, Vec<ThiTier>), RegistryError> {
    let tiers = tiers_of(key, tiers, |t| {
        let (h, l) = t.split_once('-')?;
        Some(ThiTier::new(h.parse().ok()?, l.parse().ok()?))
    })?;
    let fields = key_fields(key)?;
    let size: usize = field(&fields, "size", key)?.parse().map_err(|e| bad(key, format!("board size: {e}")))?;
    // A key is read from disk: a side the index cannot hold is refused here, before a
    // board of it is ever laid out.
    if !(3..=thi::board::MAX_SIZE).contains(&size) {
        return Err(bad(key, format!("board side {size}: this version indexes 3 to {}", thi::board::MAX_SIZE)));
    }
    let rules = field(&fields, "rules", key)?;
    let set = RuleSet::from_name(rules).ok_or_else(|| bad(key, format!("unknown THI` rules `{rules}`")))?;
    let bonus = field(&fields, "bonus", key)?;
    let bonus = ThiBonus::from_name(bonus).ok_or_else(|| bad(key, format!("bonus `{bonus}`: yes, no or any")))?;
    let max = tiers.iter().map(|t| t.high).max().unwrap_or(0);
    let game = Thi::new(size, max, ThiRules { set, bonus }).map_err(|e| bad(key, e))?;
    Ok((game, tiers))
}

/// Kalah: `kalah pits=M capture=… skip-origin=… end=… leftovers=… must-leave-move=…`,
/// tiers by seeds in the pits.
pub(crate) fn kalah_game(key: &str, tiers: &[String]) -> Result<(Kalah, Vec<u16>), RegistryError> {
    let tiers: Vec<u16> = tiers_of(key, tiers, |t| t.parse().ok())?;
    let fields = key_fields(key)?;
    let pits: usize = field(&fields, "pits", key)?.parse().map_err(|e| bad(key, format!("pits: {e}")))?;
    let max_seeds = tiers.iter().copied().max().unwrap_or(0) as u32;
    if !(1..=kalah::board::MAX_PITS).contains(&pits) || max_seeds > kalah::board::MAX_SEEDS {
        return Err(bad(key, "a board this version cannot index"));
    }
    let rules = KalahRules {
        capture: KalahRules::parse_capture(field(&fields, "capture", key)?).map_err(|e| bad(key, e))?,
        skip_origin: yes(field(&fields, "skip-origin", key)?, key)?,
        end: KalahRules::parse_end(field(&fields, "end", key)?).map_err(|e| bad(key, e))?,
        leftovers: KalahRules::parse_leftovers(field(&fields, "leftovers", key)?).map_err(|e| bad(key, e))?,
        must_leave_move: yes(field(&fields, "must-leave-move", key)?, key)?,
    };
    let game = Kalah::new(pits, max_seeds, rules).map_err(|e| bad(key, e))?;
    Ok((game, tiers))
}

/// Awari: `awari pits=M rules=awari`, tiers by stones on the board.
pub(crate) fn awari_game(key: &str, tiers: &[String]) -> Result<(Awari, Vec<u8>), RegistryError> {
    let tiers: Vec<u8> = tiers_of(key, tiers, |t| t.parse().ok())?;
    let m = (1..=AWARI_MAX_PITS)
        .find(|&m| key == format!("awari pits={m} rules=awari"))
        .ok_or_else(|| bad(key, "not one this version builds (`awari pits=M rules=awari`)"))?;
    let max_stones = tiers.iter().copied().max().unwrap_or(0) as u32;
    if max_stones > START_STONES {
        return Err(bad(key, format!("a tier of {max_stones} stones: boards here hold at most {START_STONES}")));
    }
    let game = Awari::new(m, max_stones).map_err(|e| bad(key, e))?;
    Ok((game, tiers))
}

/// Trysse and Wari: the key of `games::oware::from_key`, tiers by stones on the board.
pub(crate) fn oware_game(key: &str, tiers: &[String]) -> Result<(Oware, Vec<u8>), RegistryError> {
    let tiers: Vec<u8> = tiers_of(key, tiers, |t| t.parse().ok())?;
    let game = games::oware::from_key(key).map_err(|e| bad(key, e))?;
    if let Some(t) = tiers.iter().find(|&&t| t as u32 > game.total()) {
        return Err(RegistryError::BadTier { key: key.to_owned(), tier: t.to_string() });
    }
    Ok((game, tiers))
}

/// Trias: `trias holes=K`, tiers by stones on the board.
pub(crate) fn trias_game(key: &str, tiers: &[String]) -> Result<(Trias, Vec<u8>), RegistryError> {
    let tiers: Vec<u8> = tiers_of(key, tiers, |t| t.parse().ok())?;
    let k = (1..=TRIAS_MAX_HOLES)
        .find(|&k| key == format!("trias holes={k}"))
        .ok_or_else(|| bad(key, "not one this version builds (`trias holes=K`, K = 1 to 12)"))?;
    let max_stones = tiers.iter().copied().max().unwrap_or(0) as u32;
    let game = Trias::new(k, max_stones).map_err(|e| bad(key, e))?;
    Ok((game, tiers))
}

/// Njaka: `njaka holes=H variant=standard|advanced direction=ccw|cw`, tiers by counters
/// on the board.
pub(crate) fn njaka_game(key: &str, tiers: &[String]) -> Result<(Njaka, Vec<u8>), RegistryError> {
    let tiers: Vec<u8> = tiers_of(key, tiers, |t| t.parse().ok())?;
    let fields = key_fields(key)?;
    let holes: usize = field(&fields, "holes", key)?.parse().map_err(|e| bad(key, format!("holes: {e}")))?;
    let variant = match field(&fields, "variant", key)? {
        "standard" => NjakaVariant::Standard,
        "advanced" => NjakaVariant::Advanced,
        other => return Err(bad(key, format!("unknown variant `{other}`"))),
    };
    let clockwise = match field(&fields, "direction", key)? {
        "ccw" => false,
        "cw" => true,
        other => return Err(bad(key, format!("unknown direction `{other}`"))),
    };
    let max = tiers.iter().copied().max().unwrap_or(0) as u32;
    let game = Njaka::new(holes, variant, clockwise, max).map_err(|e| bad(key, e))?;
    if game.table_key() != key {
        return Err(bad(key, "not one this version builds"));
    }
    Ok((game, tiers))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_game_is_found_by_its_keys_first_word() {
        for game in GAMES {
            assert_eq!(game_of_key(&format!("{} pits=3", game.name)).unwrap().name, game.name);
        }
        assert!(matches!(game_of_key("chess kings=2"), Err(RegistryError::UnknownGame(_))));
    }

    #[test]
    fn a_key_naming_a_board_the_index_cannot_hold_is_refused() {
        let tiers = ["3-3".to_owned()];
        for size in [0, 2, 10, 1000] {
            let key = format!("thi size={size} rules=original bonus=no");
            assert!(matches!(thi_game(&key, &tiers), Err(RegistryError::BadKey { .. })), "{key}");
        }
        assert!(thi_game("thi size=3 rules=original bonus=no", &tiers).is_ok());
        let far = thi_game("thi size=9 rules=original bonus=no", &["255-255".to_owned()]);
        assert!(far.is_err(), "a tier of 510 counters");
        let kalah = "kalah pits=9 capture=empty skip-origin=no end=side-empty leftovers=owner must-leave-move=no";
        assert!(matches!(kalah_game(kalah, &["4".to_owned()]), Err(RegistryError::BadKey { .. })));
    }

    #[test]
    fn a_root_is_quoted_only_where_a_shell_needs_it() {
        assert_eq!(out_flag(Path::new("data")), " --out data");
        assert_eq!(out_flag(Path::new("/tmp/t-1/x.y")), " --out /tmp/t-1/x.y");
        assert_eq!(out_flag(Path::new("my tables")), " --out 'my tables'");
        assert_eq!(out_flag(Path::new("it's")), " --out 'it'\\''s'");
        assert_eq!(out_flag(Path::new("$HOME")), " --out '$HOME'");
    }
}
