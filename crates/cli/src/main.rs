#![warn(missing_docs)]
//! `solve`: build perfect-play tables for mancala-family games and ask them questions.

/// `println!` that returns a [`printer::StdoutError`] instead of panicking when standard
/// output cannot be written.
macro_rules! outln {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        writeln!(std::io::stdout().lock(), $($arg)*).map_err($crate::printer::StdoutError)
    }};
}

/// `eprintln!` that goes on when standard error cannot be written (closed by `2>&1 |
/// head`, or on a full disk): a message nobody can read is no reason to stop a build.
macro_rules! errln {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let _ = writeln!(std::io::stderr().lock(), $($arg)*);
    }};
}

mod awari;
mod build;
mod kalah;
mod njaka;
use retro::memory;
mod oware;
mod printer;
mod progress;
mod query;
mod serve;
mod tables;
mod thi;
mod trias;
mod verify;
mod verify_positions;

use clap::{CommandFactory, FromArgMatches, Parser, Subcommand};
use printer::counted;
use std::io::ErrorKind;
use std::process::ExitCode;

#[derive(Parser)]
#[command(
    name = "solve",
    version,
    about = "Perfect-play solver and endgame-database builder for mancala-family games",
    long_about = "Builds perfect-play tables for mancala-family games by retrograde analysis, \
                  then answers what a position is worth, which move is best and how play goes on.\n\n\
                  Tables are kept under --out (default `data/`) and reused by later runs.\n\n\
                  Start with:  solve thi --board trias"
)]
struct Cli {
    /// Worker threads, at most four a core (default: one per core): more only slow a
    /// build, every idle thread searching all the others' queues for work.
    #[arg(long, global = true, value_parser = thread_count)]
    threads: Option<usize>,
    #[command(flatten)]
    force: build::ForceFlag,
    #[command(flatten)]
    parts: build::PartsFlag,
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
// No doc comments on the variants: they would replace the `about` and `long_about` that
// each subcommand's arguments declare (the notation and examples among them).
enum Command {
    Thi(thi::ThiArgs),
    Kalah(kalah::KalahArgs),
    Awari(awari::AwariArgs),
    Trias(trias::TriasArgs),
    Njaka(njaka::NjakaArgs),
    Verify(verify::VerifyArgs),
    Info(tables::InfoArgs),
    VerifyTable(tables::VerifyTableArgs),
    Compact(tables::CompactArgs),
    Serve(serve::ServeArgs),
}

impl Command {
    /// The build flags given after the command: `--force` on the commands that build
    /// tables, `--parts` on those whose games the outcome engine solves.
    fn build_flags(&self) -> (Option<&build::ForceFlag>, Option<&build::PartsFlag>) {
        match self {
            Command::Thi(args) => (Some(&args.force), Some(&args.parts)),
            Command::Awari(args) => (Some(&args.force), Some(&args.parts)),
            Command::Trias(args) => (Some(&args.force), None),
            Command::Kalah(args) => (Some(&args.force), None),
            Command::Njaka(args) => (Some(&args.force), None),
            Command::Verify(args) => (Some(args.force()), None),
            Command::Info(_) | Command::VerifyTable(_) | Command::Compact(_) | Command::Serve(_) => (None, None),
        }
    }
}

impl Cli {
    /// A build flag given before a command it does not apply to (after the command,
    /// the parser itself refuses it): accepted and ignored, it would let a user believe
    /// a build was split or forced.
    fn misplaced_flag(&self, name: &str) -> Option<String> {
        let (force, parts) = self.command.build_flags();
        if self.parts.given() && parts.is_none() {
            return Some(format!(
                "--parts does not apply to `solve {name}`: only thi and awari (--rules trysse or wari) solve their tiers in parts"
            ));
        }
        if self.force.given() && force.is_none() {
            return Some(format!("--force does not apply to `solve {name}`, which builds no tables"));
        }
        None
    }
}

/// Threads a core `--threads` allows at most. Past the cores, threads add no speed to a
/// build, only cost: an idle worker looks for work in every other worker's queue, and
/// each look walks the list of every thread, so the cost of a pool grows faster than the
/// square of its threads (Awari's tiers up to 12 stones, built in 1.8 s on two cores with
/// 64 threads, took 3.7 s with 256 and 106 s with 1024).
const THREADS_PER_CORE: usize = 4;

/// `--threads`: a number from 1 to [`THREADS_PER_CORE`] times the cores this process may
/// run on.
fn thread_count(text: &str) -> Result<usize, String> {
    let threads: usize = text.trim().parse().map_err(|_| format!("`{text}` is not a number of threads"))?;
    let cores = std::thread::available_parallelism().map_or(1, std::num::NonZero::get);
    let most = THREADS_PER_CORE * cores;
    match threads {
        0 => Err("at least one thread is needed".to_owned()),
        n if n > most => Err(format!(
            "at most {most} threads (four a core; this machine has {}): more only slow a build, every \
             idle thread searching all the others' queues for work",
            counted(cores as u64, "core", "cores")
        )),
        n => Ok(n),
    }
}

/// Whether `--threads` is given both before the command and after it: the parser refuses
/// it twice at one level, but across the two it would keep the later silently.
fn threads_given_twice(args: impl Iterator<Item = std::ffi::OsString>) -> bool {
    let given = args
        .take_while(|a| a != "--")
        .filter(|a| a.to_str().is_some_and(|a| a == "--threads" || a.starts_with("--threads=")))
        .count();
    given > 1
}

fn main() -> ExitCode {
    let matches = Cli::command().get_matches();
    let cli = Cli::from_arg_matches(&matches).unwrap_or_else(|e| e.exit());
    if let Some(message) = cli.misplaced_flag(matches.subcommand_name().unwrap_or_default()) {
        Cli::command().error(clap::error::ErrorKind::ArgumentConflict, message).exit();
    }
    if threads_given_twice(std::env::args_os()) {
        let message = "--threads is given twice, before the command and after it: give it once";
        Cli::command().error(clap::error::ErrorKind::ArgumentConflict, message).exit();
    }
    if let Some(threads) = cli.threads {
        if let Err(e) = rayon::ThreadPoolBuilder::new().num_threads(threads).build_global() {
            errln!("error: cannot start {threads} threads: {e}");
            return ExitCode::FAILURE;
        }
    }
    cli.force.apply();
    cli.parts.apply();
    let (force, parts) = cli.command.build_flags();
    if let Some(force) = force {
        force.apply();
    }
    if let Some(parts) = parts {
        parts.apply();
    }
    let result = match cli.command {
        Command::Thi(args) => thi::run(args),
        Command::Kalah(args) => kalah::run(args),
        Command::Awari(args) => awari::run(args),
        Command::Trias(args) => trias::run(args),
        Command::Njaka(args) => njaka::run(args),
        Command::Verify(args) => verify::run(args),
        Command::Info(args) => tables::info(args),
        Command::VerifyTable(args) => tables::verify_table(args),
        Command::Compact(args) => tables::compact(args),
        Command::Serve(args) => serve::run(args),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        // A reader that stopped early (`solve … | head`): quietly, with the status of a
        // process a closed pipe ends (128 + SIGPIPE), since the run did not finish (a
        // `verify` cut short has verified nothing).
        Err(e) if e.downcast_ref::<printer::StdoutError>().is_some_and(|s| s.0.kind() == ErrorKind::BrokenPipe) => {
            ExitCode::from(141)
        }
        Err(e) => {
            errln!("error: {e:#}");
            ExitCode::FAILURE
        }
    }
}
