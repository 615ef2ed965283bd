//! A game's front end: everything the CLI, the server and the JSON know of a game beyond
//! its rules, written once per game (`front/<game>.rs`) and joined to the registry with
//! one line ([`crate::registry::GAMES`]).
//!
//! A front end names the game's parameters (one set of names for the CLI's flags, the
//! API's query and the JSON's `parameters`), reads a [`Request`] into the game and the
//! position it asks about ([`Asked`]), reads and writes its table key, says where its
//! tables live, which command builds them, what the page draws and what a report's header
//! says. The rest is here, once for every game: opening a directory of tables for queries
//! ([`open`]), answering a request from them ([`answer`]), and answering one of their board
//! and rules above them by a search ([`search_above`]).
//!
//! Each entry of [`FrontEnd`] is marked required or optional; an optional one has the
//! default most games want.

pub mod awari;
pub mod kalah;
pub mod key;
pub mod njaka;
pub mod oware;
pub mod thi;
#[cfg(feature = "toy")]
pub mod toy;
pub mod trias;

use crate::analysis::{position_report, searched_report, Header, NamedMoves, Reported};
use crate::query::{tables_error, Answer, Board, Chunk, Database, Holding, QueryError, Request, Start};
use crate::registry::{Build, RegistryError};
use crate::report::{PositionReport, ReachableReport, TablesReport, ValueReport};
use key::Key;
use retro::{store, Game, Location, Tables};
use search::tree::{Budget, Scale, Searched};
use std::path::{Path, PathBuf};
use std::time::Instant;

/// A request read: the game of its board and rules (indexed for no tiers: what it names,
/// not what tables hold), the position, and the start it is, if it is one.
#[derive(Debug, Clone)]
pub struct Asked<F: FrontEnd> {
    /// The board and rules asked about.
    pub game: F,
    /// The position asked about, as the user wrote it.
    pub position: F::Shown,
    /// The start the position is, by what names a start (stones a hole, a setup), if it
    /// is one, however it was asked for.
    pub start: Option<F::Start>,
    /// The start whose tables answer the position, where the request names one beside
    /// it (THI`'s `board` with a `position`); `None`: the tables the game picks for it.
    pub tables: Option<F::Start>,
}

/// What a front end says of a directory of its tables: its rules' name, the request
/// parameters that select them, and the starts they answer, each as a request's
/// parameters.
pub struct Described {
    /// The rules' name.
    pub rules: String,
    /// The parameters that select these tables.
    pub parameters: serde_json::Value,
    /// The starts these tables answer.
    pub starts: Vec<serde_json::Value>,
}

/// One game's front end, implemented by the game's type.
pub trait FrontEnd: Game<Value: Reported + Scale> + Send + Sync + Sized + 'static {
    /// Required. What names a start of the game: stones a hole, or a named setup.
    type Start: Copy + std::fmt::Debug + Send + Sync;
    /// Required. A position as users write and read it: the game's own for most games;
    /// Kalah's adds the stores, which its tables leave out.
    type Shown: Clone + std::fmt::Debug + std::fmt::Display + Send + Sync;

    /// Required. The game's name: its table keys' first word, its directory under the
    /// root, its path in the API (`/api/{name}`) and its subcommand.
    const NAME: &'static str;
    /// Required. What it is, in a line.
    const SUMMARY: &'static str;
    /// Required. The parameters a request of this game takes (`max_line` aside), as the
    /// API, the JSON and the CLI's flags name them.
    const PARAMETERS: &'static [&'static str];

    /// Required. The name a tier has in its table's file name, read back.
    fn tier_named(name: &str) -> Option<Self::Tier>;

    /// Required. The game a table key names, indexed for `tiers` (all this game's, as
    /// [`FrontEnd::tier_named`] read them); an error says what is wrong with the key.
    /// The key is then checked to be the game's own ([`Game::table_key`]), so that one
    /// key names one directory.
    fn from_key(key: &Key, tiers: &[Self::Tier]) -> Result<Self, String>;

    /// Required. Where this game's tables of this board and rules live under `root`.
    fn directory(&self, root: &Path) -> PathBuf;

    /// Required. Reads a request: its board and rules, and its position or start.
    fn asked(request: &Request) -> Result<Asked<Self>, QueryError>;

    /// Required. The `solve` command (without `--out`) that builds tables answering
    /// `asked`, and what it costs where that is far from small.
    fn command(asked: &Asked<Self>) -> Result<(String, Option<String>), QueryError>;

    /// Required. The game indexed for the tables that answer `asked`, and the tiers a
    /// command builds for it (with every tier they reach): its position's, or all of a
    /// start's board where the game's directories hold them whole. An error where no
    /// 64-bit index numbers them (no command builds them).
    fn answering(asked: &Asked<Self>) -> Result<(Self, Vec<Self::Tier>), QueryError>;

    /// Required. The game's position of a shown one.
    fn played(shown: &Self::Shown) -> Self::Position;

    /// Required. What `asked` is, in a line: the game, its board and rules, the start or a
    /// position (the page's heading and its list of starts, the CLI's title).
    fn title(asked: &Asked<Self>) -> String;

    /// Required. The board the page draws for `asked`'s position.
    fn board(asked: &Asked<Self>) -> Board;

    /// Required. What a report of `asked` says beyond the position's value: parameters,
    /// rules, who moves, the game's details (which may read `tables`).
    fn header(&self, asked: &Asked<Self>, tables: &Tables<Self>) -> Result<Header, retro::line::LineError>;

    /// Required. A position's moves with their names, in the game's order.
    fn named_moves(&self, position: &Self::Position) -> NamedMoves<Self::Position>;

    /// Required. What a directory of these tables holds, for `GET /api/games`.
    fn described(&self, tables: &Tables<Self>) -> Described;

    /// Optional. Adds what only this game reports of each move (`captures`) to `report`,
    /// whose moves are `position`'s in [`FrontEnd::named_moves`] order.
    fn annotate(&self, _position: &Self::Position, _report: &mut PositionReport) {}

    /// Optional. Opens the tables of `tiers` in `dir` for queries; the default answers
    /// every position of a built tier from the tables ([`answer`]), and every other of
    /// their board and rules by a search above them ([`search_above`]).
    fn open(self, key: &str, dir: &Path, tiers: &[Self::Tier]) -> Result<Box<dyn Database>, RegistryError> {
        open(self, key, dir, tiers)
    }
}

/// The whole report of `asked`'s position from `tables`, and the positions of its
/// principal line: what the CLI prints and the server sends.
pub fn report<F: FrontEnd>(
    game: &F,
    tables: &Tables<F>,
    asked: &Asked<F>,
    max_line: usize,
    tables_report: TablesReport,
    reachable: Option<ReachableReport>,
) -> Result<(PositionReport, Vec<String>), retro::line::LineError> {
    let header = game.header(asked, tables)?;
    let named = |p: &F::Position| game.named_moves(p);
    let position = F::played(&asked.position);
    let (mut report, line) =
        position_report(game, tables, &position, header, named, max_line, tables_report, reachable)?;
    game.annotate(&position, &mut report);
    Ok((report, line))
}

/// The whole report of `asked`'s position from a search above `tables` (`found`), and
/// the positions of its line: the value exact or bounded, each move's, the move the
/// search prefers, the line as far as proven, and the search's nodes and seconds in
/// `details.search`.
pub fn searched<F: FrontEnd>(
    game: &F,
    tables: &Tables<F>,
    asked: &Asked<F>,
    found: &Searched<F::Position, F::Value>,
    max_line: usize,
    tables_report: TablesReport,
) -> Result<(PositionReport, Vec<String>), retro::line::LineError> {
    let header = game.header(asked, tables)?;
    let named = |p: &F::Position| game.named_moves(p);
    let position = F::played(&asked.position);
    let (mut report, line) = searched_report(game, &position, found, header, named, max_line, tables_report);
    game.annotate(&position, &mut report);
    Ok((report, line))
}

/// Tables built for a request, or found built and checked: where they are and what they
/// hold.
#[derive(Debug, Clone)]
pub struct Built {
    /// Their directory.
    pub dir: PathBuf,
    /// What they hold, and what the build did.
    pub tables: TablesReport,
}

/// Why the tables a request asks of were not built.
#[derive(Debug, thiserror::Error)]
pub enum BuildFailed {
    /// The request itself is wrong.
    #[error(transparent)]
    Request(#[from] QueryError),
    /// The tiers still to build need more memory than this machine has.
    #[error(
        "the tables need about {need} of memory at the peak and this machine has {free} available (forcing \
         builds anyway)"
    )]
    TooBig {
        /// The memory they need, for people.
        need: String,
        /// The memory available, for people.
        free: String,
    },
    /// The build failed, or found a damaged table.
    #[error("building tables in {}: {error}", .dir.display())]
    Build {
        /// The tables' directory.
        dir: PathBuf,
        /// What failed.
        error: store::BuildError,
    },
}

/// Builds under `root` the tables that answer `request` (the tiers
/// [`FrontEnd::answering`] names and every tier they reach), or finds them built and
/// checks them, each tier solved told to `observer`; refused where the tiers still to
/// build need more memory than this machine has, unless `force`.
pub fn build<F: FrontEnd>(
    request: &Request,
    root: &Path,
    observer: &dyn retro::solve::Observer,
    force: bool,
) -> Result<Built, BuildFailed> {
    let (game, roots) = F::answering(&F::asked(request)?)?;
    let dir = game.directory(root);
    let failed = |error| BuildFailed::Build { dir: dir.clone(), error };
    let order = retro::order::tier_order(&game, &roots).map_err(|e| failed(e.into()))?;
    let todo: Vec<F::Tier> = order.into_iter().filter(|&t| !store::has_tier_file(&dir, t)).collect();
    if let (Err(big), false) = (retro::memory::check_build(&game, &todo, None), force) {
        let human = retro::memory::human;
        return Err(BuildFailed::TooBig { need: human(big.need.memory), free: human(big.free) });
    }
    let started = Instant::now();
    let (tables, report) =
        store::build(&game, &dir, &roots, observer, &store::BuildOptions::default()).map_err(failed)?;
    let seconds = started.elapsed().as_secs_f64();
    Ok(Built { tables: TablesReport::new(&tables, &report, seconds, retro::memory::peak_resident()), dir })
}

/// The command that builds tables answering `request` under `root`, and where.
pub fn command<F: FrontEnd>(request: &Request, root: &Path) -> Result<Build, QueryError> {
    let asked = F::asked(request)?;
    let (command, note) = F::command(&asked)?;
    Ok(Build { command, dir: asked.game.directory(root), note })
}

/// One directory of a game's tables, open for queries: the game indexed to the largest
/// tier there, its tables, and what they hold.
struct Served<F: FrontEnd> {
    game: F,
    tables: Tables<F>,
    holding: Holding,
}

impl<F: FrontEnd> Database for Served<F> {
    fn holding(&self) -> &Holding {
        &self.holding
    }

    fn query(&self, request: &Request) -> Result<Answer, QueryError> {
        answer(&self.game, &self.tables, &self.holding, request)
    }

    fn value(&self, request: &Request) -> Result<ValueReport, QueryError> {
        value(&self.game, &self.tables, request)
    }

    fn above(&self, request: &Request) -> bool {
        above(&self.game, &self.tables, request)
    }

    fn search(&self, request: &Request, budget: Budget<'_>) -> Result<Answer, QueryError> {
        search_above(&self.game, &self.tables, &self.holding, request, budget)
    }

    fn tiers(&self) -> Vec<(String, u64)> {
        tiers(&self.tables)
    }

    fn chunk(&self, tier: &str, ranks: std::ops::Range<u64>, positions: bool) -> Result<Chunk, QueryError> {
        chunk(&self.game, &self.tables, tier, ranks, positions)
    }
}

/// The tiers of `tables`, each by the name its file has, with its positions.
pub fn tiers<G: Game>(tables: &Tables<G>) -> Vec<(String, u64)> {
    tables.tables().map(|(tier, table)| (tier.to_string(), table.entries())).collect()
}

/// Ranks `ranks` (cut at the tier's end) of the tier of `tables` named `tier`, with their
/// values, and their positions in `game`'s notation if `positions`.
pub fn chunk<F: FrontEnd>(
    game: &F,
    tables: &Tables<F>,
    tier: &str,
    ranks: std::ops::Range<u64>,
    positions: bool,
) -> Result<Chunk, QueryError> {
    let held = F::tier_named(tier).filter(|&t| tables.table(t).is_some()).ok_or_else(|| {
        let names: Vec<String> = tables.tiers().map(ToString::to_string).collect();
        let tier = games::echo::excerpt(tier);
        QueryError::parameter(
            "tier",
            format!("`{tier}` is not a tier of these tables (they hold {})", names.join(", ")),
        )
    })?;
    let end = ranks.end.min(game.tier_size(held));
    let first = ranks.start.min(end);
    let mut chunk = Chunk { first, values: Vec::with_capacity((end - first) as usize), positions: Vec::new() };
    let mut previous: Option<F::Position> = None;
    for rank in first..end {
        chunk.values.push(tables.probe(held, rank).map_err(tables_error)?.report());
        if positions {
            let position = match &previous {
                Some(p) => game.next_position(held, rank, p),
                None => game.position(Location::at(held, rank)),
            };
            chunk.positions.push(position.to_string());
            previous = Some(position);
        }
    }
    Ok(chunk)
}

/// What `tables` (every table file checked) of `game`, opened in `elapsed` seconds,
/// hold, under `key`.
pub fn holding<F: FrontEnd>(game: &F, tables: &Tables<F>, key: &str, elapsed: f64) -> Holding {
    let Described { rules, parameters, starts } = game.described(tables);
    let build = store::BuildReport { tiers_reused: tables.tiers().count(), ..Default::default() };
    let report = TablesReport::new(tables, &build, elapsed, None);
    let starts = starts.into_iter().filter_map(start::<F>).collect();
    Holding { game: F::NAME, key: key.to_owned(), rules, parameters, starts, tables: report }
}

/// A start of a game's [`Described::starts`], with its title: the request its parameters
/// make, read as every request is (a start the game cannot read is left out).
fn start<F: FrontEnd>(parameters: serde_json::Value) -> Option<Start> {
    let pairs = parameters.as_object()?.iter().map(|(name, value)| match value {
        serde_json::Value::String(text) => (name.clone(), text.clone()),
        other => (name.clone(), other.to_string()),
    });
    let asked = F::asked(&Request::new(pairs).ok()?).ok()?;
    Some(Start { title: F::title(&asked), parameters })
}

/// Opens the tables of `tiers` of `game` in `dir` (every file checked) to answer every
/// position of a built tier.
pub fn open<F: FrontEnd>(
    game: F,
    key: &str,
    dir: &Path,
    tiers: &[F::Tier],
) -> Result<Box<dyn Database>, RegistryError> {
    let opened = Instant::now();
    let tables = store::open(&game, dir, tiers)?;
    let holding = holding(&game, &tables, key, opened.elapsed().as_secs_f64());
    Ok(Box::new(Served { game, tables, holding }))
}

/// The answer to `request` from `game`'s `tables`, which hold `holding`, or
/// [`QueryError::NotHere`] where it asks of another board or rules, or of a tier not
/// built.
pub fn answer<F: FrontEnd>(
    game: &F,
    tables: &Tables<F>,
    holding: &Holding,
    request: &Request,
) -> Result<Answer, QueryError> {
    let asked = F::asked(request)?;
    let built = tables.table(game.material_tier(&F::played(&asked.position))).is_some();
    if asked.game.table_key() != game.table_key() || !built {
        return Err(QueryError::NotHere);
    }
    let reported = report(game, tables, &asked, request.max_line()?, holding.tables.clone(), None);
    Ok(answer_of(&asked, holding, reported.map_err(tables_error)?))
}

/// The value of the position `request` asks of, from `game`'s `tables`, as [`answer`]'s
/// report gives it; [`QueryError::NotHere`] where it asks of another board or rules, or
/// of a tier not built.
pub fn value<F: FrontEnd>(game: &F, tables: &Tables<F>, request: &Request) -> Result<ValueReport, QueryError> {
    let asked = F::asked(request)?;
    let position = F::played(&asked.position);
    if asked.game.table_key() != game.table_key() || tables.table(game.material_tier(&position)).is_none() {
        return Err(QueryError::NotHere);
    }
    Ok(tables.value(game, &position).map_err(tables_error)?.report())
}

/// Whether `request` asks of `game`'s board and rules a position whose tier `tables` do
/// not hold: one a search above them answers ([`search_above`]).
pub fn above<F: FrontEnd>(game: &F, tables: &Tables<F>, request: &Request) -> bool {
    F::asked(request).is_ok_and(|asked| {
        asked.game.table_key() == game.table_key()
            && tables.table(game.material_tier(&F::played(&asked.position))).is_none()
    })
}

/// The answer to `request` by a search above `game`'s `tables` (which hold `holding`)
/// within `budget`: exact where the search proves the value, else its bounds (`docs/json.md`);
/// [`QueryError::NotHere`] where the request is not [`above`] them.
pub fn search_above<F: FrontEnd>(
    game: &F,
    tables: &Tables<F>,
    holding: &Holding,
    request: &Request,
    budget: Budget<'_>,
) -> Result<Answer, QueryError> {
    if !above(game, tables, request) {
        return Err(QueryError::NotHere);
    }
    let asked = F::asked(request)?;
    let max_line = request.max_line()?;
    let position = F::played(&asked.position);
    let found = search::tree::search(game, tables, &position, budget, &mut |_| {}).map_err(tables_error)?;
    let reported = searched(game, tables, &asked, &found, max_line, holding.tables.clone());
    Ok(answer_of(&asked, holding, reported.map_err(tables_error)?))
}

/// The answer of `asked` with its report and line from tables that hold `holding`.
fn answer_of<F: FrontEnd>(
    asked: &Asked<F>,
    holding: &Holding,
    (report, line_positions): (PositionReport, Vec<String>),
) -> Answer {
    Answer {
        report,
        board: F::board(asked),
        line_positions,
        title: F::title(asked),
        board_and_rules: holding.parameters.clone(),
    }
}

/// `n` and the noun for it, singular or plural as `n` asks (counts in titles are small).
pub fn counted(n: impl Into<u64>, one: &str, many: &str) -> String {
    let n = n.into();
    format!("{n} {}", if n == 1 { one } else { many })
}

/// The game of `key` indexed for `tiers` (named as in the files), each tier read.
pub fn game_of_key<F: FrontEnd>(key: &str, tiers: &[String]) -> Result<(F, Vec<F::Tier>), RegistryError> {
    let tiers = tiers
        .iter()
        .map(|t| F::tier_named(t).ok_or_else(|| RegistryError::BadTier { key: key.to_owned(), tier: t.clone() }))
        .collect::<Result<Vec<_>, _>>()?;
    let bad = |why: String| RegistryError::BadKey { key: key.to_owned(), why };
    let fields = Key::parse(key).map_err(bad)?;
    if fields.game() != F::NAME {
        return Err(bad(format!("not a key of {}", F::NAME)));
    }
    let game = F::from_key(&fields, &tiers).map_err(bad)?;
    // One key names one game: a key that reads but is not the game's own (fields in
    // another order, a value spelt otherwise) would name a second directory for it.
    if game.table_key() != key {
        return Err(bad(format!("not one this version builds (it writes `{}`)", game.table_key())));
    }
    Ok((game, tiers))
}
