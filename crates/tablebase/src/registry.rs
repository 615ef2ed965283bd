//! The games this tool knows, in one place: each game's name, where its tables live under
//! the `--out` root, and how a table key names it back. `solve info`, `solve
//! verify-table` and every game's subcommand find tables through here, so a new game
//! registers once ([`GAMES`]) and is found by every command that reads tables.

use crate::front::{self, BuildFailed, Built, FrontEnd};
use crate::query::{Database, QueryError, Request};
use games::awari::{Awari, MAX_PITS as AWARI_MAX_PITS};
use games::kalah::{Kalah, Rules as KalahRules};
use games::njaka::Njaka;
use games::oware::Oware;
use games::thi::{Bonus as ThiBonus, Rules as ThiRules, Thi};
use games::trias::Trias;
use retro::store::{open, BuildError};
use retro::verify::{verify_tier, VerifyError};
use retro::{Engine, Game};
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

/// How an entry opens a table directory (key, directory, tiers' names) for queries.
type Opener = fn(key: &str, dir: &Path, tiers: &[String]) -> Result<Box<dyn Database>, RegistryError>;

/// One game of the registry, made from its front end ([`GameEntry::of`]).
pub struct GameEntry {
    /// The game's name: its table keys' first word, its directory under the root, and its
    /// path in the API (`/api/{name}`).
    pub name: &'static str,
    /// What it is, in a line.
    pub summary: &'static str,
    /// The parameters a request of the game takes.
    pub parameters: &'static [&'static str],
    verify: fn(key: &str, dir: &Path, tiers: &[String]) -> Result<Verified, RegistryError>,
    sizes: fn(key: &str, tiers: &[String]) -> Result<Vec<u64>, RegistryError>,
    open: Opener,
    command: fn(&Request, &Path) -> Result<Build, QueryError>,
    build: fn(&Request, &Path, &dyn retro::solve::Observer, bool) -> Result<Built, BuildFailed>,
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
    /// The entry of the game whose front end is `F`.
    pub const fn of<F: FrontEnd>() -> GameEntry {
        GameEntry {
            name: F::NAME,
            summary: F::SUMMARY,
            parameters: F::PARAMETERS,
            verify: |key, dir, tiers| front::game_of_key::<F>(key, tiers).and_then(|(g, t)| verify_tiers(&g, dir, t)),
            sizes: |key, tiers| front::game_of_key::<F>(key, tiers).map(|(g, t)| sizes_of(&g, &t)),
            open: |key, dir, tiers| front::game_of_key::<F>(key, tiers).and_then(|(g, t)| g.open(key, dir, &t)),
            command: front::command::<F>,
            build: front::build::<F>,
            directory: |key, root| front::game_of_key::<F>(key, &[]).map(|(g, _)| g.directory(root)),
        }
    }

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

    /// Builds under `root` the tables that answer `request`, or finds them built
    /// ([`front::build`]): each tier solved told to `observer`, refused where they do not fit
    /// in memory unless `force`.
    pub fn build(
        &self,
        request: &Request,
        root: &Path,
        observer: &dyn retro::solve::Observer,
        force: bool,
    ) -> Result<Built, BuildFailed> {
        (self.build)(request, root, observer, force)
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

/// Every game, by the first word of its table keys: one line a game.
pub static GAMES: &[GameEntry] = &[
    GameEntry::of::<Thi>(),
    GameEntry::of::<Kalah>(),
    GameEntry::of::<Awari>(),
    GameEntry::of::<Oware>(),
    GameEntry::of::<Trias>(),
    GameEntry::of::<Njaka>(),
    #[cfg(feature = "toy")]
    GameEntry::of::<retro::toy::Toy<i16>>(),
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
    let direction = game.direction().name();
    out.join("njaka").join(format!("h{}-{}-{direction}", game.holes(), game.variant().name()))
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
            let key = format!("thi size={size} rules=original bonus=no mirror=folded");
            assert!(matches!(front::game_of_key::<Thi>(&key, &tiers), Err(RegistryError::BadKey { .. })), "{key}");
        }
        assert!(front::game_of_key::<Thi>("thi size=3 rules=original bonus=no mirror=folded", &tiers).is_ok());
        let far =
            front::game_of_key::<Thi>("thi size=9 rules=original bonus=no mirror=folded", &["255-255".to_owned()]);
        assert!(far.is_err(), "a tier of 510 counters");
        let kalah = "kalah pits=9 capture=empty skip-origin=no end=side-empty leftovers=owner must-leave-move=no";
        assert!(matches!(front::game_of_key::<Kalah>(kalah, &["4".to_owned()]), Err(RegistryError::BadKey { .. })));
    }

    #[test]
    fn a_key_is_read_only_as_its_game_writes_it() {
        let (thi, _) = front::game_of_key::<Thi>("thi size=3 rules=original bonus=no mirror=folded", &[]).unwrap();
        assert_eq!(thi.table_key(), "thi size=3 rules=original bonus=no mirror=folded");
        for other in
            ["thi rules=original size=3 bonus=no mirror=folded", "thi size=03 rules=original bonus=no mirror=folded"]
        {
            assert!(matches!(front::game_of_key::<Thi>(other, &[]), Err(RegistryError::BadKey { .. })), "{other}");
        }
        assert!(front::game_of_key::<Trias>("njaka holes=3", &[]).is_err());
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
