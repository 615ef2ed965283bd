//! `solve thi`: THI` tables, the start's verdict, and position analysis.

use crate::memory;
use crate::options::{BuildFlags, ForceFlag, LineLength, PartsFlag, TablesRoot};
use crate::printer::{counted, print_json, print_position, View};
use anyhow::{bail, Context, Result};
use clap::{Args, ValueEnum};
use games::thi::{self, notation, Bonus, Colour, Position, RuleSet, Rules, Setup, Thi};
use retro::{Game, Tables};
use tablebase::front::thi::Start;
use tablebase::front::{self, Asked};
use tablebase::registry;
use tablebase::report::{PositionReport, ReachableReport, TablesReport};

#[derive(Clone, Copy, ValueEnum)]
enum RulesArg {
    /// The author's rules: bearing off all counters wins; a blocked player draws.
    Original,
    /// As original, but a blocked player passes; both blocked in turn is a draw.
    OriginalPass,
    /// Fixed game (1): a player who cannot move (borne off all, or blocked) wins.
    Fixed1,
    /// Fixed game (2): when the player to move cannot move, fewer counters on the board wins.
    Fixed2,
    /// As fixed2, and a player may pass whenever he has a legal move.
    Fixed2Pass,
}

impl RulesArg {
    fn set(self) -> RuleSet {
        match self {
            RulesArg::Original => RuleSet::Original,
            RulesArg::OriginalPass => RuleSet::OriginalPass,
            RulesArg::Fixed1 => RuleSet::Fixed1,
            RulesArg::Fixed2 => RuleSet::Fixed2,
            RulesArg::Fixed2Pass => RuleSet::Fixed2Pass,
        }
    }
}

#[derive(Clone, Copy, ValueEnum)]
enum BonusArg {
    /// For the mover's own counters borne off (what `--bonus` alone means).
    Own,
    /// For any counter borne off.
    Any,
}

#[derive(Args)]
#[command(
    about = "THI` (Transporter): build tables, print the start's verdict, or analyse a position",
    long_about = "Builds the perfect-play tables of THI` for a board and rule set (or reuses them if \
                  already built under --out), then prints the value of the start position for White, \
                  the number of plies to the end under perfect play, and whether the article's claim \
                  \"perfect play always ends in a draw\" holds.\n\n\
                  With --position, analyses that position instead: value, every move with its value, \
                  the best move and the principal line.\n\n\
                  Position notation: rows from the top (Black's first row) down, separated by `/`; \
                  squares from the a-file, separated by `,`; each square `-` (empty) or its counters \
                  bottom to top as `w`/`b`; then a space and the side to move (`w` or `b`). \
                  The TRIAS start is `bbb,bbb,bbb/-,-,-/www,www,www w`.",
    after_help = "Examples:\n  \
                  solve thi --board trias\n  \
                  solve thi --board duo --rules fixed1 --bonus --json\n  \
                  solve thi --size 4 --rows 1\n  \
                  solve thi --board trias --position \"bbb,bbb,bbb/-,-,-/www,www,www w\""
)]
pub struct ThiArgs {
    /// Named setup: primus, duo, trias (3×3, stacks of 1, 2, 3) or quadrat (6×6, two rows),
    /// or another by the name reports give it, NxN-heightH or NxN-rowsR (default: trias;
    /// with --position, the smallest setup of the position's board that holds its
    /// counters, or, where that setup is too large to number, tables up to the position's
    /// own counters).
    #[arg(long, conflicts_with_all = ["size", "height", "rows"])]
    board: Option<String>,
    /// Board side for a custom setup (with --height or --rows).
    #[arg(long, requires = "setup_kind")]
    size: Option<usize>,
    /// Custom setup: a stack of K counters on every square of each first row.
    #[arg(long, group = "setup_kind", requires = "size")]
    height: Option<u8>,
    /// Custom setup: single counters on each player's first R rows.
    #[arg(long, group = "setup_kind", requires = "size")]
    rows: Option<u8>,
    /// Rule set.
    #[arg(long, value_enum, ignore_case = true, default_value = "original")]
    rules: RulesArg,
    /// Bonus moves: a move that bears off one of the mover's own counters earns him
    /// another move; `--bonus any`: one that bears off any counter, his or his
    /// opponent's (the source says "bears off one or several counters", not whose).
    #[arg(long, value_enum, ignore_case = true, num_args = 0..=1, default_missing_value = "own", value_name = "WHOSE")]
    bonus: Option<BonusArg>,
    #[command(flatten)]
    tables: TablesRoot,
    /// Analyse this position instead of the start (see the notation above).
    #[arg(long, allow_hyphen_values = true)]
    position: Option<String>,
    /// Print one JSON object on standard output instead of text (progress still goes to
    /// standard error).
    #[arg(long)]
    json: bool,
    /// After building, check every stored value against its successors.
    #[arg(long)]
    verify: bool,
    #[command(flatten)]
    line: LineLength,
    /// Count the positions reachable from the start, by value (done anyway for tables of
    /// up to 10⁹ positions; above that a search about as long as the build). A start's
    /// count: not with --position.
    #[arg(long, conflicts_with = "position")]
    census: bool,
    #[command(flatten)]
    pub force: ForceFlag,
    #[command(flatten)]
    pub parts: PartsFlag,
}

/// Largest table whose reachable census runs without `--census`.
const CENSUS_UNASKED: u64 = 1_000_000_000;

/// The setup asked for; without one, the smallest holding `position`, or TRIAS.
fn setup(args: &ThiArgs, position: Option<&Position>) -> Result<Setup> {
    let setup = match (args.size, args.height, args.rows, &args.board, position) {
        (Some(size), Some(height), None, ..) => Setup::Height { size, height },
        (Some(size), None, Some(rows), ..) => Setup::Rows { size, rows },
        (Some(_), ..) => bail!("give --size with exactly one of --height or --rows"),
        (None, _, _, Some(board), _) => Setup::named(board)?,
        (None, _, _, None, Some(p)) => Setup::holding(p.size(), p.count(Colour::White).max(p.count(Colour::Black)))?,
        (None, _, _, None, None) => Setup::named("trias")?,
    };
    Ok(setup.checked()?)
}

/// The game of `setup` under `rules`, if its tables can be numbered, and the setup they
/// are of: for a position asked alone (`alone`, `setup` the smallest holding it), possibly
/// none, the tables indexed up to its own counters ([`Thi::answering`]).
fn game_for(setup: Setup, rules: Rules, alone: Option<&Position>) -> Result<(Thi, Option<Setup>)> {
    let found = match alone {
        Some(position) => Thi::answering(setup, position, rules),
        None => Thi::for_setup(setup, rules).map(|game| (game, Some(setup))),
    };
    if let Ok(found) = found {
        return Ok(found);
    }
    let (which, whose, size, counters) = match alone {
        Some(p) => {
            let (size, counters) = (p.size(), p.count(Colour::White).max(p.count(Colour::Black)) as u8);
            (
                format!("this position's tables ({size}×{size}, up to {counters} counters a side) have"),
                "the",
                size,
                counters,
            )
        }
        None => (format!("{} has", setup.name()), "its", setup.size(), setup.counters()),
    };
    let total = thi::index::estimated_positions(size, counters);
    bail!(
        "{which} about {total:.3e} positions: more than a 64-bit index can number; \
         {whose} tables would need about {} of disk and far more memory",
        memory::human(total * thi::TABLE_BYTES_PER_RANK)
    )
}

pub fn run(args: ThiArgs, flags: BuildFlags) -> Result<()> {
    let query = match &args.position {
        Some(text) => {
            Some(notation::parse(text).with_context(|| format!("reading position {:?}", games::echo::excerpt(text)))?)
        }
        None => None,
    };
    let setup = setup(&args, query.as_ref())?;
    let bonus = match args.bonus {
        None => Bonus::No,
        Some(BonusArg::Own) => Bonus::Own,
        Some(BonusArg::Any) => Bonus::Any,
    };
    let rules = Rules { set: args.rules.set(), bonus };
    let dir = registry::thi_dir(&args.tables.out, setup.size(), rules);
    let alone = query.as_ref().filter(|_| args.board.is_none() && args.size.is_none());
    let (game, answering) = match game_for(setup, rules, alone) {
        Err(e) if query.is_some() && alone.is_none() => {
            bail!("{e}; without --board or --size a position is answered from tables up to its own counters")
        }
        found => found?,
    };
    if let Some(position) = &query {
        game.check(position)?;
    }

    // A position needs its own tier and those below it, not the whole setup's.
    let root = game.locate(query.as_ref().unwrap_or(&setup.start())).tier;
    let needed = retro::order::tier_order(&game, &[root])?;
    if let Err(need) = crate::build::check_memory(&game, &dir, &needed, flags) {
        match query {
            Some(_) => bail!("the tables of this position need {need}"),
            None => bail!("{} needs {need}", setup.name()),
        }
    }
    let (tables, report, build_seconds) = crate::build::tables(&game, &dir, &[root], flags)?;

    if args.verify {
        crate::build::verify_tables(&game, &tables, root, args.json)?;
    }

    match query {
        Some(position) => analyse(&game, &tables, answering, &position, &args, &report, build_seconds),
        None => verdict(&game, &tables, setup, &args, &report, build_seconds),
    }
}

fn verdict(
    game: &Thi,
    tables: &Tables<Thi>,
    setup: Setup,
    args: &ThiArgs,
    report: &retro::store::BuildReport,
    build_seconds: f64,
) -> Result<()> {
    let rules = game.rules();
    let start = setup.start();
    let cache = tables.dir().join(format!("census-{}.txt", setup.name()));
    let reachable = if args.census || tables.size().0 <= CENSUS_UNASKED || cache.exists() {
        let census = crate::progress::census(game, tables, &start, &cache)?;
        Some(ReachableReport {
            positions: census.positions,
            win: Some(census.win),
            draw: Some(census.draw),
            loss: Some(census.loss),
        })
    } else {
        if !args.json {
            errln!("not counting the positions reachable from the start (--census counts them)");
        }
        None
    };
    let tables_report = TablesReport::new(tables, report, build_seconds, memory::peak_resident());
    let asked = Asked { game: game.clone(), position: start.clone(), start: Some(Start { setup, named: true }) };
    let (out, _) = front::report(game, tables, &asked, args.line.max_line, tables_report, reachable)?;
    if args.json {
        print_json(&out)?;
        return Ok(());
    }
    // A start's report says it (`FrontEnd::header`), for the server as for this command.
    let claim_holds = out.details.as_ref().and_then(|d| d["claim_perfect_play_draws"].as_bool()) == Some(true);
    let claim = format!(
        "claim \"perfect play always ends in a draw\": {} for {} under {}",
        if claim_holds { "HOLDS" } else { "REFUTED" },
        setup.name(),
        rules
    );
    print_text(game, &setup_title(setup, game), &start, &out, vec![claim])
}

/// A setup's name in a title: the article's boards in capitals, as it writes them; a
/// custom setup by its description (`4x4-height1`).
fn shown(setup: Setup) -> String {
    match setup.article_name() {
        Some(name) => name.to_uppercase(),
        None => setup.name(),
    }
}

/// A setup's title line: its name, board, counters and the rules.
fn setup_title(setup: Setup, game: &Thi) -> String {
    let (name, size) = (shown(setup), setup.size());
    format!("THI` {name} ({size}×{size}, {} counters each), rules: {}", setup.counters(), game.rules())
}

/// `setup`: the setup whose tables answer, `None` where the position is indexed up to
/// its own counters (see [`game_for`]).
fn analyse(
    game: &Thi,
    tables: &Tables<Thi>,
    setup: Option<Setup>,
    position: &Position,
    args: &ThiArgs,
    build: &retro::store::BuildReport,
    build_seconds: f64,
) -> Result<()> {
    let tables_report = TablesReport::new(tables, build, build_seconds, memory::peak_resident());
    // A setup's name only where the position is its start: the one asked for, or any
    // named one (the server names it too).
    let named = setup.filter(|s| *position == s.start()).or_else(|| Setup::of_start(position));
    let start = named.map(|setup| Start { setup, named: false });
    let asked = Asked { game: game.clone(), position: position.clone(), start };
    let (report, _) = front::report(game, tables, &asked, args.line.max_line, tables_report, None)?;
    if args.json {
        print_json(&report)?;
        return Ok(());
    }
    // Like the report's parameters, the title describes the position: a setup only where
    // it is that setup's start, and the tables it was answered from where they differ.
    let size = position.size();
    let answering = match setup {
        Some(setup) => shown(setup),
        // Tables "up to 0 counters" would read as a mistake: they hold the empty board alone.
        None if game.most_counters() == 0 => format!("{size}×{size} table of the empty board"),
        None => format!("{size}×{size} tables up to {} a side", counted(game.most_counters(), "counter", "counters")),
    };
    let title = match named {
        Some(start) if Some(start) == setup => setup_title(start, game),
        Some(start) => format!("{}; from the {answering} tables", setup_title(start, game)),
        None if setup.is_none() => format!("THI` a position of the {answering}, rules: {}", game.rules()),
        None => format!("THI` a position of the {answering} tables ({size}×{size}), rules: {}", game.rules()),
    };
    print_text(game, &title, position, &report, Vec::new())
}

/// Prints a report of `position` as text, `notes` last.
fn print_text(game: &Thi, title: &str, position: &Position, report: &PositionReport, notes: Vec<String>) -> Result<()> {
    let last = notation::parse(&report.line_end.position)?;
    let line_end = match (game.end(&last), report.line_end.repeats_ply) {
        (Some(v), _) => format!("game over: a {} for {}, to move", v.outcome(), last.to_move().name()),
        (None, Some(ply)) => format!("repeats the position after ply {ply}: a draw by repetition"),
        // A line cut by --max-line: the printer says where.
        (None, None) => String::new(),
    };
    let view = View {
        title: title.to_owned(),
        picture: position.picture(),
        rules: Some(game.rules().to_string()),
        mover: Some(position.to_move().name().to_owned()),
        line_end,
        notes,
    };
    print_position(report, &view)?;
    Ok(())
}

impl crate::Run for ThiArgs {
    fn build_flags(&self) -> crate::options::CommandFlags<'_> {
        crate::options::CommandFlags { force: Some(&self.force), parts: Some(&self.parts) }
    }

    fn run(self, flags: BuildFlags) -> Result<()> {
        run(self, flags)
    }
}
