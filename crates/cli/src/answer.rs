//! What every game's subcommand does once it has read its flags into a request (named as
//! the API names its parameters): the game's front end reads the request, the tables
//! that answer it are built (or, for a position asked without `--build`, named), checked
//! on `--verify`, and the report is made and printed, as JSON or as text. A game's own
//! module declares its flags, gives what only its text shows ([`Subcommand`]) and adds
//! what only it prints (Trias's laps, THI`'s claim).

use crate::above;
use crate::build::{self, require_built};
use crate::options::{BuildFlags, LineLength, QueryArgs, SearchBudget};
use crate::printer::{counted, print_json, print_position, View};
use anyhow::Result;
use retro::{memory, Tables};
use search::tree::Scale;
use std::path::Path;
use tablebase::front::{self, Asked, FrontEnd};
use tablebase::query::{QueryError, Request};
use tablebase::registry;
use tablebase::report::{PositionReport, ReachableReport, TablesReport};

/// What a game's text output shows beyond its front end; each entry is required unless
/// marked optional.
pub trait Subcommand: FrontEnd {
    /// What a position holds, as an error naming the tables it lacks says it ("7 stones").
    fn holds(position: &Self::Position) -> String;

    /// The position drawn as text.
    fn picture(&self, shown: &Self::Shown) -> String;

    /// The player to move, by name, where the notation says which player he is.
    fn mover(asked: &Asked<Self>) -> Option<String>;

    /// How `report`'s line ends, in words (not read for a line cut by `--max-line`).
    fn line_end(&self, asked: &Asked<Self>, report: &PositionReport) -> Result<String>;

    /// Optional. The positions reachable from a start, by value, where the game counts
    /// them (`asking`: whether `--census` asks for them, where a game leaves them out
    /// unasked).
    fn reachable(
        &self,
        _tables: &Tables<Self>,
        _asked: &Asked<Self>,
        _asking: &Asking,
    ) -> Result<Option<ReachableReport>> {
        Ok(None)
    }

    /// Optional. The title line, where it says more than the front end's
    /// ([`FrontEnd::title`]): the tables that answer, for a game whose position may be
    /// answered from a larger setup's.
    fn heading(&self, asked: &Asked<Self>) -> String {
        Self::title(asked)
    }

    /// Optional. The rules in words, where they say more than the report's name for them.
    fn rules_text(&self) -> Option<String> {
        None
    }
}

/// What the command line asks beyond the request: where the tables are, whether a
/// position may build the tables it lacks, whether to verify them, whether to count a
/// start's reachable positions however many, the output and the longest line.
pub struct Asking<'a> {
    /// The tables' root (`--out`).
    pub out: &'a Path,
    /// Whether tables a position lacks are built (`--build`) rather than named.
    pub build: bool,
    /// `--verify`.
    pub verify: bool,
    /// `--census` (THI`): a start's reachable positions counted, however many.
    pub census: bool,
    /// `--json`.
    pub json: bool,
    /// `--max-line`.
    pub max_line: usize,
    /// `--time`, `--nodes`: what a search above the tables may spend.
    pub search: SearchBudget,
}

impl<'a> Asking<'a> {
    /// What a subcommand with flags of its own asks: the tables under `out` built where
    /// missing, not verified, no census; the output, the line and the search as given.
    pub fn building(out: &'a Path, json: bool, line: &LineLength, search: SearchBudget) -> Asking<'a> {
        Asking { out, build: true, verify: false, census: false, json, max_line: line.max_line, search }
    }

    /// What [`QueryArgs`] ask: a start builds its tables, a position only with `--build`.
    pub fn of(query: &'a QueryArgs) -> Asking<'a> {
        Asking {
            out: &query.tables.out,
            build: query.build || query.position.is_none(),
            verify: query.verify,
            census: false,
            json: query.json,
            max_line: query.line.max_line,
            search: query.search,
        }
    }
}

/// A position answered: the game indexed for its tables, the request read and the
/// report.
pub struct Answered<F: FrontEnd> {
    /// The game, indexed for the tables.
    pub game: F,
    /// The request read.
    pub asked: Asked<F>,
    /// The report.
    pub report: PositionReport,
}

/// A request of the flags given, in the API's names, leaving out those not given.
pub fn request(pairs: &[(&str, Option<String>)]) -> Result<Request> {
    let given = pairs.iter().filter_map(|(name, value)| value.as_ref().map(|v| (*name, v.as_str())));
    Request::new(given).map_err(refusal)
}

/// A request refused, as the command line says it: a parameter by its flag.
pub fn refusal(error: QueryError) -> anyhow::Error {
    match error {
        QueryError::Parameter { .. } => anyhow::anyhow!(error.flag_message()),
        other => anyhow::Error::new(other),
    }
}

/// How a subcommand answers a request. A game is answered from its tables, or by a
/// search above those that fit ([`FromTables`]), unless it brings a solver of its own:
/// Kalah's sizes its endgame tables for its window search and answers by whole turns
/// (`crate::kalah`). The solver may keep what it built from one request to the next (a
/// record's positions).
pub trait Answerer<F: Subcommand> {
    /// Answers `request` as `asking` says, its builds given `flags`.
    fn answer(&mut self, request: &Request, asking: &Asking, flags: BuildFlags) -> Result<Answered<F>>;
}

/// The answer of every game without a solver of its own ([`answer`]).
pub struct FromTables;

impl<F: Subcommand> Answerer<F> for FromTables
where
    F::Value: Scale,
{
    fn answer(&mut self, request: &Request, asking: &Asking, flags: BuildFlags) -> Result<Answered<F>> {
        answer(request, asking, flags)
    }
}

/// Answers `request`: from its tables, built (or named) and checked if asked, where they
/// fit here; else by a search above the tables that do ([`above::answer`]).
pub fn answer<F: Subcommand>(request: &Request, asking: &Asking, flags: BuildFlags) -> Result<Answered<F>>
where
    F::Value: Scale,
{
    let asked = F::asked(request).map_err(refusal)?;
    // The processes of a shared build must all take the same path, and a search's depends
    // on the time each one gets: they build the full tables, as with `--no-search`.
    let no_search = asking.search.no_search || flags.shared_by.processes().shared();
    let (game, roots) = match F::answering(&asked) {
        Err(QueryError::BeyondIndex(_)) if !no_search => return above::answer(asked, asking, flags),
        answering => answering.map_err(refusal)?,
    };
    let cost = TablesCost::of(&game, &roots, asking, flags)?;
    match cost.memory {
        Err(need) if no_search => {
            let tiers = counted(cost.tiers as u64, "tier", "tiers");
            let command = F::command(&asked).map(|(command, _)| format!(" (`{command}`)")).unwrap_or_default();
            anyhow::bail!("{}: the tables of {tiers}{command} need {need}", F::title(&asked))
        }
        Err(_) => above::answer(asked, asking, flags),
        Ok(()) if asking.build && !no_search && cost.seconds > SEARCH_FIRST_PAST => {
            match above::proven::<F>(request, asking, flags)? {
                Some(answered) => Ok(answered),
                None => from_tables(asked, game, roots, asking, flags),
            }
        }
        Ok(()) => from_tables(asked, game, roots, asking, flags),
    }
}

/// Estimated seconds of a build past which a search is tried first
/// ([`above::proven`]): small games whose tables are large (Trias on 3×6 with 1 stone a
/// hole reaches a few hundred positions from its start, its tables hold 10⁹) are proven
/// by the search in seconds, while what builds in less is simply built.
const SEARCH_FIRST_PAST: f64 = 10.0;

/// What the tables of some roots cost here: their tiers, whether the missing ones fit in
/// memory (else what they need), and the seconds their build would take by its estimate.
struct TablesCost {
    tiers: usize,
    memory: Result<(), String>,
    seconds: f64,
}

impl TablesCost {
    fn of<F: FrontEnd>(game: &F, roots: &[F::Tier], asking: &Asking, flags: BuildFlags) -> Result<TablesCost> {
        let dir = game.directory(asking.out);
        let tiers = retro::order::tier_order(game, roots)?;
        let memory = build::check_memory(game, &dir, &tiers, flags);
        let need = memory::Need::of(game, &build::not_built::<F>(&dir, &tiers), memory::available(), flags.parts);
        let seconds = need.seconds / rayon::current_num_threads() as f64;
        Ok(TablesCost { tiers: tiers.len(), memory, seconds })
    }
}

/// Answers `asked` from the tables of `roots`: built (or, for a position asked without
/// `--build`, named), checked if asked, and the report made.
fn from_tables<F: Subcommand>(
    asked: Asked<F>,
    game: F,
    roots: Vec<F::Tier>,
    asking: &Asking,
    flags: BuildFlags,
) -> Result<Answered<F>> {
    let root = game.locate(&F::played(&asked.position)).tier;
    let dir = game.directory(asking.out);
    if !asking.build {
        let command = match F::command(&asked).map_err(refusal)? {
            (command, None) => format!("`{command}{}`", registry::out_flag(asking.out)),
            (command, Some(note)) => format!("`{command}{}` ({note})", registry::out_flag(asking.out)),
        };
        require_built(&game, &dir, root, &F::holds(&F::played(&asked.position)), &command)?;
    }
    let (tables, built, seconds) = build::tables(&game, &dir, &roots, flags)?;
    if asking.verify {
        build::verify_tables(&game, &tables, root, asking.json)?;
    }
    let reachable = game.reachable(&tables, &asked, asking)?;
    let tables_report = TablesReport::new(&tables, &built, seconds, memory::peak_resident());
    let (report, _) = front::report(&game, &tables, &asked, asking.max_line, tables_report, reachable)?;
    Ok(Answered { game, asked, report })
}

/// Prints `answered`'s report as JSON, or as text with `notes` last.
pub fn print<F: Subcommand>(answered: &Answered<F>, json: bool, notes: Vec<String>) -> Result<()> {
    let Answered { game, asked, report, .. } = answered;
    if json {
        print_json(report)?;
        return Ok(());
    }
    let view = View {
        title: game.heading(asked),
        picture: game.picture(&asked.position),
        rules: game.rules_text(),
        mover: F::mover(asked),
        line_end: game.line_end(asked, report)?,
        notes,
    };
    print_position(report, &view)?;
    Ok(())
}
