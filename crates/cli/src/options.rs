//! The options several commands share, each declared once and flattened into the
//! arguments of the commands that take it: where the tables are (`--out`), how long a
//! printed line may be (`--max-line`), the options of a position query ([`QueryArgs`]),
//! and the build flags (`--force`, `--parts`), which may also come before the command and
//! are read, from both places, into one [`BuildFlags`] that every build is given.

use clap::Args;
use retro::store::BuildOptions;
use std::path::PathBuf;
// The server's default for `max_line` too, so that a page and a command show the same line.
use tablebase::query::DEFAULT_MAX_LINE;

/// Where tables are kept when no `--out` (or `solve serve --tables`) says otherwise.
pub const DEFAULT_TABLES_ROOT: &str = "data";

/// `--out`, on every command that builds or reads a game's tables.
#[derive(Args)]
pub struct TablesRoot {
    /// Directory holding the tables (created if missing).
    #[arg(long, default_value = DEFAULT_TABLES_ROOT)]
    pub out: PathBuf,
}

/// `--max-line`, on every command that prints a principal line.
#[derive(Args)]
pub struct LineLength {
    /// Longest principal line printed, in moves (as the line lists them).
    #[arg(long, default_value_t = DEFAULT_MAX_LINE)]
    pub max_line: usize,
}

/// `--record`, on every game's command that answers positions through the shared flow
/// ([`crate::answer`]).
#[derive(Args)]
pub struct RecordFile {
    /// Replay the game kept in FILE (the text record the web page downloads, or an Oware
    /// match in Aualé's OGN, told by its first tag `Variant`; formats in docs/records.md),
    /// printing every move with its value and marking each that changed the value of the
    /// position it was played at. The board and rules are the record's.
    #[arg(long, value_name = "FILE", conflicts_with_all = ["position", "json"])]
    pub record: Option<PathBuf>,
}

/// The options of the games built on the tier-game API alone (`solve trias`, `solve
/// njaka`) for building tables and asking them about a position. THI`, Kalah and Awari
/// flatten the shared pieces ([`TablesRoot`], [`LineLength`]) beside options these do not
/// have (Kalah's search, Awari's stone counts, THI`'s setups).
#[derive(Args)]
pub struct QueryArgs {
    #[command(flatten)]
    pub tables: TablesRoot,
    /// Analyse this position instead of the start (see the notation above), from the
    /// tables already built under --out.
    #[arg(long, allow_hyphen_values = true)]
    pub position: Option<String>,
    /// With --position: build the tables it needs that are missing, instead of naming them.
    #[arg(long, requires = "position")]
    pub build: bool,
    /// Print one JSON object on standard output instead of text (progress still goes to
    /// standard error).
    #[arg(long)]
    pub json: bool,
    /// After building, check every stored value against its successors.
    #[arg(long)]
    pub verify: bool,
    #[command(flatten)]
    pub line: LineLength,
    #[command(flatten)]
    pub search: SearchBudget,
    #[command(flatten)]
    pub record: RecordFile,
}

/// `--time` and `--nodes`: what an answer may spend where the tables a position needs
/// are too large to build here, and a search above the tables that fit answers it.
#[derive(Args, Clone, Copy, Debug)]
pub struct SearchBudget {
    /// Where the tables a position needs are too large to build here: seconds the answer
    /// may take. The lowest tiers whose build fits in memory and in a quarter of this time
    /// are built, and a search above them takes the rest; its bounds tighten on a
    /// progress line, and Ctrl-C prints the best answer so far.
    #[arg(long, value_name = "SECONDS", default_value_t = 60.0, value_parser = seconds)]
    pub time: f64,
    /// With such a search: positions it may search at most.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    pub nodes: Option<u64>,
    /// Answer from the full tables only, however long they take to build, never by a
    /// search (where a build takes more than a few seconds, a short search is otherwise
    /// tried first, and a position whose tables do not fit is searched); a position whose
    /// tables do not fit is then refused, saying what they would need.
    #[arg(long, conflicts_with_all = ["time", "nodes"])]
    pub no_search: bool,
}

impl Default for SearchBudget {
    /// A minute, and no limit on the nodes.
    fn default() -> Self {
        SearchBudget { time: 60.0, nodes: None, no_search: false }
    }
}

/// `--prove` and `--proof`, on the commands of games whose values are outcomes (`solve
/// trias`, `solve thi`): a proof search instead of an answer, within `--time` and
/// `--nodes` ([`SearchBudget`]).
#[derive(Args, Clone, Debug, Default)]
pub struct ProofArgs {
    /// Prove the value of the start (or of --position) by a proof-number search above the
    /// tables that fit (built first, within a quarter of --time), within --time and
    /// --nodes, on two threads; its progress goes to standard error and Ctrl-C stops it.
    /// It reports the value where proven, the opening moves proven so far and the proof's
    /// size.
    #[arg(long, conflicts_with_all = ["record", "no_search"])]
    pub prove: bool,
    /// With --prove: keep the search in FILE, and continue from it if it is there (a
    /// search under way, or the proof once found; `solve verify-proof FILE` checks it).
    #[arg(long, value_name = "FILE", requires = "prove")]
    pub proof: Option<PathBuf>,
}

/// A positive number of seconds.
fn seconds(text: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(s) if s > 0.0 && s.is_finite() => Ok(s),
        _ => Err(format!("`{text}` is not a positive number of seconds")),
    }
}

/// `--force` and `--checkpoint-every`, on every command that builds tables, given before
/// the command (`solve --force thi …`) or after it (`solve thi --force …`); the commands
/// that only read tables do not list them.
#[derive(Args)]
pub struct ForceFlag {
    /// Build even where the memory or disk a build needs looks larger than what is free
    /// (every build says what it needs before it starts). Finished tables are then read
    /// through their files' pages, which the system may evict, instead of being held in
    /// memory while the tiers above them are solved.
    #[arg(long)]
    force: bool,
    /// Save the state of the tier being solved every SECONDS (default 300) beside the
    /// tables, so that the same command run again after Ctrl-C, kill -9 or a power cut
    /// resumes inside that tier; 0 saves it at every step of the engine.
    #[arg(long, value_name = "SECONDS")]
    checkpoint_every: Option<u64>,
}

/// `--parts`, on the commands whose games the outcome engine solves, before or after the
/// command as [`ForceFlag`].
#[derive(Args)]
pub struct PartsFlag {
    /// Solve every tier of the outcome engine (THI`, Trysse, Wari) from a scratch
    /// file beside the tables, its positions cut into N ranges set one after another (the
    /// parents a level finds outside the first range wait in a file a range): the memory
    /// of one range. A tier is cut into no more ranges than it has positions, and its N
    /// files are open at once: N may not pass the open-file limit (`ulimit -n`) less 16. By
    /// default only a tier whose two bytes a position exceed half the free memory (the
    /// control group's, where that is less) is split, into as many parts as it takes.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u16).range(1..))]
    parts: Option<u16>,
}

/// What the build flags ask of every build of one run, read once from where they were
/// given (before the command, after it, or both).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct BuildFlags {
    /// `--force`: build even where memory or disk look too small, finished tables mapped
    /// from their files rather than held in memory.
    pub force: bool,
    /// `--parts N`: the parts every tier of the outcome engine is solved in (`None`: as
    /// its size asks, [`retro::store::parts_for`]).
    pub parts: Option<usize>,
    /// `--checkpoint-every SECONDS`: how often the tier being solved is saved (`None`:
    /// [`retro::checkpoint::CHECKPOINT_EVERY`]).
    pub checkpoint_every: Option<u64>,
    /// The processes every build is shared by (`mpirun`; this one alone by default).
    pub shared_by: crate::processes::SharedBy,
}

/// The build flags one command takes after its name: `None` for a flag it does not take.
#[derive(Clone, Copy, Default)]
pub struct CommandFlags<'a> {
    /// `--force`, on the commands that build tables.
    pub force: Option<&'a ForceFlag>,
    /// `--parts`, on the commands whose games the outcome engine solves.
    pub parts: Option<&'a PartsFlag>,
}

impl BuildFlags {
    /// The options of every build: `--parts`; and with `--force`, finished tables mapped
    /// from their files rather than held in memory, so that a build past the memory there
    /// is can have their pages evicted.
    pub fn build_options(self) -> BuildOptions {
        BuildOptions {
            parts: self.parts,
            map_tables: self.force,
            checkpoint_every: self.checkpoint_every.map(std::time::Duration::from_secs),
            processes: self.shared_by.processes(),
            ..BuildOptions::default()
        }
    }

    /// The flags given before `solve {command}` (`before`) and after it (`after`) as one
    /// value. Refused, with the reason: a flag before a command that does not take it
    /// (after the command the parser itself refuses it; accepted and ignored, it would let
    /// a user believe a build was split or forced), and `--parts` at both places (one of
    /// the two would be dropped silently). `--force` at both places asks the same twice.
    pub fn read(command: &str, before: (&ForceFlag, &PartsFlag), after: CommandFlags) -> Result<BuildFlags, String> {
        let (force_before, parts_before) = (before.0.force, before.1.parts);
        if parts_before.is_some() && after.parts.is_none() {
            return Err(format!(
                "--parts does not apply to `solve {command}`: only thi and awari (--rules trysse or wari) solve \
                 their tiers in parts"
            ));
        }
        if force_before && after.force.is_none() {
            return Err(format!("--force does not apply to `solve {command}`, which builds no tables"));
        }
        let (every_before, every_after) = (before.0.checkpoint_every, after.force.and_then(|f| f.checkpoint_every));
        if every_before.is_some() && after.force.is_none() {
            return Err(format!("--checkpoint-every does not apply to `solve {command}`, which builds no tables"));
        }
        if every_before.is_some() && every_after.is_some() {
            return Err("--checkpoint-every is given twice, before the command and after it: give it once".to_owned());
        }
        let parts_after = after.parts.and_then(|p| p.parts);
        if parts_before.is_some() && parts_after.is_some() {
            return Err("--parts is given twice, before the command and after it: give it once".to_owned());
        }
        Ok(BuildFlags {
            force: force_before || after.force.is_some_and(|f| f.force),
            parts: parts_before.or(parts_after).map(usize::from),
            checkpoint_every: every_before.or(every_after),
            shared_by: crate::processes::SharedBy::default(),
        })
    }
}
