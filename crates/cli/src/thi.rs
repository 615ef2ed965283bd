//! `solve thi`: THI` tables, the start's verdict, and position analysis.

use crate::answer::{self, Answered, Asking, FromTables, Subcommand};
use crate::options::{BuildFlags, ForceFlag, LineLength, PartsFlag, ProofArgs, RecordFile, SearchBudget, TablesRoot};
use crate::printer::counted;
use anyhow::{bail, Result};
use clap::{Args, ValueEnum};
use games::thi::{notation, Bonus, Colour, Position, RuleSet, Setup, Thi};
use retro::{Game, Tables};
use tablebase::front::thi::{shown, Start};
use tablebase::front::{Asked, FrontEnd};
use tablebase::report::{PositionReport, ReachableReport};

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

impl BonusArg {
    fn bonus(self) -> Bonus {
        match self {
            BonusArg::Own => Bonus::Own,
            BonusArg::Any => Bonus::Any,
        }
    }
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
                  solve thi --board quadrat --prove --proof quadrat.proof --time 600\n  \
                  solve thi --board trias --position \"bbb,bbb,bbb/-,-,-/www,www,www w\""
)]
pub struct ThiArgs {
    /// Named setup: primus, duo, trias (3×3, stacks of 1, 2, 3) or quadrat (6×6, two rows),
    /// or another by the name reports give it, NxN-heightH or NxN-rowsR (default: trias;
    /// with --position, the smallest setup of the position's board that holds its
    /// counters, or, where that setup is too large to number, tables up to the position's
    /// own counters).
    #[arg(long, conflicts_with_all = ["size", "height", "rows", "record"])]
    board: Option<String>,
    /// Board side for a custom setup (with --height or --rows).
    #[arg(long, requires = "setup_kind", conflicts_with = "record")]
    size: Option<usize>,
    /// Custom setup: a stack of K counters on every square of each first row.
    #[arg(long, group = "setup_kind", requires = "size")]
    height: Option<u8>,
    /// Custom setup: single counters on each player's first R rows.
    #[arg(long, group = "setup_kind", requires = "size")]
    rows: Option<u8>,
    /// Rule set.
    #[arg(long, value_enum, ignore_case = true, default_value = "original", conflicts_with = "record")]
    rules: RulesArg,
    /// Bonus moves: a move that bears off one of the mover's own counters earns him
    /// another move; `--bonus any`: one that bears off any counter, his or his
    /// opponent's (the source says "bears off one or several counters", not whose).
    #[arg(long, value_enum, ignore_case = true, num_args = 0..=1, default_missing_value = "own", value_name = "WHOSE", conflicts_with = "record")]
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
    #[arg(long, conflicts_with_all = ["position", "record"])]
    census: bool,
    #[command(flatten)]
    search: SearchBudget,
    #[command(flatten)]
    proof: ProofArgs,
    #[command(flatten)]
    record: RecordFile,
    #[command(flatten)]
    pub force: ForceFlag,
    #[command(flatten)]
    pub parts: PartsFlag,
}

/// Largest table whose reachable census runs without `--census`.
const CENSUS_UNASKED: u64 = 1_000_000_000;

pub fn run(args: ThiArgs, flags: BuildFlags) -> Result<()> {
    let request = answer::request(&[
        ("board", board(&args)?),
        ("rules", Some(args.rules.set().name().to_owned())),
        ("bonus", args.bonus.map(|b| b.bonus().name().to_owned())),
        ("position", args.position.clone()),
    ])?;
    // A position builds the tables it needs (its tier and those below), as a start does.
    let asking = Asking {
        verify: args.verify,
        census: args.census,
        ..Asking::building(&args.tables.out, args.json, &args.line, args.search)
    };
    if let Some(file) = &args.record.record {
        return crate::record::replay::<Thi>(&crate::record::read(file)?, &asking, flags, &mut FromTables);
    }
    if args.proof.prove {
        return crate::prove::run::<Thi>(&request, &asking, flags, &args.proof);
    }
    let answered = answer::answer::<Thi>(&request, &asking, flags)?;
    let notes = claim(&answered).into_iter().collect();
    answer::print(&answered, args.json, notes)
}

/// The board asked for, by the name reports give it: `--board`, or the setup of `--size`
/// with `--height` or `--rows` (checked here, so that what is wrong names those flags).
fn board(args: &ThiArgs) -> Result<Option<String>> {
    let setup = match (args.size, args.height, args.rows) {
        (None, ..) => return Ok(args.board.clone()),
        (Some(size), Some(height), None) => Setup::Height { size, height },
        (Some(size), None, Some(rows)) => Setup::Rows { size, rows },
        (Some(_), ..) => bail!("give --size with exactly one of --height or --rows"),
    };
    Ok(Some(setup.checked()?.name()))
}

/// After a start asked for by its board, whether the article's claim holds for it: that
/// perfect play draws (the report says it in `details`, for the server as for this
/// command).
fn claim(answered: &Answered<Thi>) -> Option<String> {
    let Some(Start { setup, named: true }) = answered.asked.start else { return None };
    let details = answered.report.details.as_ref();
    let holds = details.and_then(|d| d["claim_perfect_play_draws"].as_bool()) == Some(true);
    Some(format!(
        "claim \"perfect play always ends in a draw\": {} for {} under {}",
        if holds { "HOLDS" } else { "REFUTED" },
        setup.name(),
        answered.game.rules()
    ))
}

/// The setup whose tables answer `asked`, `game` being indexed for them: the board asked
/// for, else the smallest setup holding the position; `None` where that one is past a
/// 64-bit index and the tables reach the position's own counters alone.
fn answered_from(game: &Thi, asked: &Asked<Thi>) -> Option<Setup> {
    if let Some(Start { setup, .. }) = asked.tables.or(asked.start.filter(|s| s.named)) {
        return Some(setup);
    }
    let position = &asked.position;
    let counters = position.count(Colour::White).max(position.count(Colour::Black));
    let holding = Setup::holding(position.size(), counters).ok()?;
    (game.most_counters() == holding.counters()).then_some(holding)
}

impl Subcommand for Thi {
    fn holds(position: &Position) -> String {
        let [white, black] = position.counts();
        format!("{white} White and {black} Black counters")
    }

    fn picture(&self, position: &Position) -> String {
        position.picture()
    }

    fn mover(asked: &Asked<Thi>) -> Option<String> {
        Some(asked.position.to_move().name().to_owned())
    }

    fn line_end(&self, _: &Asked<Thi>, report: &PositionReport) -> Result<String> {
        let last = notation::parse(&report.line_end.position)?;
        Ok(match (self.end(&last), report.line_end.repeats_ply) {
            (Some(v), _) => format!("game over: a {} for {}, to move", v.outcome(), last.to_move().name()),
            (None, Some(ply)) => format!("repeats the position after ply {ply}: a draw by repetition"),
            // A line cut by --max-line: the printer says where.
            (None, None) => String::new(),
        })
    }

    /// A start asked for by its board: its positions reachable, by value, read from the
    /// tables' census cache, or counted and kept there where the tables are small or
    /// `--census` asks (above that, a search about as long as the build).
    fn reachable(&self, tables: &Tables<Thi>, asked: &Asked<Thi>, asking: &Asking) -> Result<Option<ReachableReport>> {
        let Some(Start { setup, named: true }) = asked.start else { return Ok(None) };
        let cache = tables.dir().join(format!("census-{}.txt", setup.name()));
        if !(asking.census || tables.size().0 <= CENSUS_UNASKED || cache.exists()) {
            if !asking.json {
                errln!("not counting the positions reachable from the start (--census counts them)");
            }
            return Ok(None);
        }
        let census = crate::progress::census(self, tables, &asked.position, &cache)?;
        let (win, draw, loss) = (Some(census.win), Some(census.draw), Some(census.loss));
        Ok(Some(ReachableReport { positions: census.positions, win, draw, loss }))
    }

    /// Like the report's parameters, the title describes the position: a setup only where
    /// it is that setup's start, and the tables it was answered from where they differ.
    fn heading(&self, asked: &Asked<Thi>) -> String {
        let (size, rules) = (asked.position.size(), self.rules());
        let tables = answered_from(self, asked);
        let answering = match tables {
            Some(setup) => shown(setup),
            // Tables "up to 0 counters" would read as a mistake: they hold the empty board alone.
            None if self.most_counters() == 0 => format!("{size}×{size} table of the empty board"),
            None => {
                format!("{size}×{size} tables up to {} a side", counted(self.most_counters(), "counter", "counters"))
            }
        };
        match asked.start.map(|s| s.setup) {
            Some(start) if Some(start) == tables => Thi::title(asked),
            Some(_) => format!("{}; from the {answering} tables", Thi::title(asked)),
            None if tables.is_none() => format!("THI` a position of the {answering}, rules: {rules}"),
            None => format!("THI` a position of the {answering} tables ({size}×{size}), rules: {rules}"),
        }
    }

    /// The rules with their bonus moves, which the report's name for them leaves out.
    fn rules_text(&self) -> Option<String> {
        Some(self.rules().to_string())
    }
}

impl crate::Run for ThiArgs {
    fn build_flags(&self) -> crate::options::CommandFlags<'_> {
        crate::options::CommandFlags { force: Some(&self.force), parts: Some(&self.parts) }
    }

    fn run(self, flags: BuildFlags) -> Result<()> {
        run(self, flags)
    }
}
