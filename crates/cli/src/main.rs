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

mod above;
mod answer;
mod awari;
mod build;
mod kalah;
mod njaka;
use retro::memory;
mod options;
mod oware;
mod printer;
mod processes;
mod progress;
mod prove;
mod record;
mod serve;
mod tables;
mod thi;
mod trias;
mod verify;
mod verify_positions;
mod verify_proof;

use clap::{CommandFactory, FromArgMatches, Parser, Subcommand};
use options::{BuildFlags, CommandFlags, ForceFlag, PartsFlag};
use printer::counted;
use std::ffi::OsString;
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
    /// Worker threads of builds and searches, at most four a core (default: one per core):
    /// more only slow a build, every idle thread searching all the others' queues for work.
    #[arg(long, global = true, value_parser = thread_count)]
    threads: Option<usize>,
    #[command(flatten)]
    force: ForceFlag,
    #[command(flatten)]
    parts: PartsFlag,
    #[command(subcommand)]
    command: Command,
}

/// What each subcommand's arguments do: the build flags the command takes after its
/// name, and its run.
trait Run {
    /// `--force` on the commands that build tables, `--parts` on those whose games the
    /// outcome engine solves.
    fn build_flags(&self) -> CommandFlags<'_> {
        CommandFlags { force: None, parts: None }
    }

    /// Runs the command, its builds as `flags` ask.
    fn run(self, flags: BuildFlags) -> anyhow::Result<()>;
}

/// The subcommands, one line each: `Variant(arguments)`, the arguments implementing [`Run`].
macro_rules! commands {
    ($($variant:ident($args:ty)),* $(,)?) => {
        #[derive(Subcommand)]
        // No doc comments on the variants: they would replace the `about` and `long_about`
        // that each subcommand's arguments declare (the notation and examples among them).
        enum Command {
            $($variant($args)),*
        }

        impl Command {
            fn build_flags(&self) -> CommandFlags<'_> {
                match self {
                    $(Command::$variant(args) => args.build_flags()),*
                }
            }

            fn run(self, flags: BuildFlags) -> anyhow::Result<()> {
                match self {
                    $(Command::$variant(args) => args.run(flags)),*
                }
            }
        }
    };
}

commands! {
    Thi(thi::ThiArgs),
    Kalah(kalah::KalahArgs),
    Awari(awari::AwariArgs),
    Trias(trias::TriasArgs),
    Njaka(njaka::NjakaArgs),
    Verify(verify::VerifyArgs),
    VerifyProof(verify_proof::VerifyProofArgs),
    Info(tables::InfoArgs),
    VerifyTable(tables::VerifyTableArgs),
    Compact(tables::CompactArgs),
    Serve(serve::ServeArgs),
}

impl Cli {
    /// The command line `args` (the program's name first) read once: the command with its
    /// arguments, and the build flags given before and after it as one value
    /// ([`BuildFlags::read`]). Refused as the parser refuses, with a usage error: also a
    /// build flag misplaced or given twice, and `--threads` given twice.
    fn read(args: Vec<OsString>) -> Result<(Cli, BuildFlags), clap::Error> {
        let conflict = |message: String| Cli::command().error(clap::error::ErrorKind::ArgumentConflict, message);
        let matches = Cli::command().try_get_matches_from(&args)?;
        let cli = Cli::from_arg_matches(&matches)?;
        let name = matches.subcommand_name().unwrap_or_default();
        let flags = BuildFlags::read(name, (&cli.force, &cli.parts), cli.command.build_flags()).map_err(conflict)?;
        if threads_given_twice(&args) {
            return Err(conflict("--threads is given twice, before the command and after it: give it once".to_owned()));
        }
        Ok((cli, flags))
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
fn threads_given_twice(args: &[OsString]) -> bool {
    let given = args
        .iter()
        .take_while(|&a| a != "--")
        .filter(|a| a.to_str().is_some_and(|a| a == "--threads" || a.starts_with("--threads=")))
        .count();
    given > 1
}

fn main() -> ExitCode {
    let (cli, flags) = Cli::read(std::env::args_os().collect()).unwrap_or_else(|e| e.exit());
    if let Some(threads) = cli.threads {
        if let Err(e) = rayon::ThreadPoolBuilder::new().num_threads(threads).build_global() {
            errln!("error: cannot start {threads} threads: {e}");
            return ExitCode::FAILURE;
        }
    }
    // Under `mpirun`, MPI runs until this is dropped, after the command.
    #[cfg(feature = "mpi")]
    let (_session, flags) = match retro::distributed::mpi::join() {
        Ok(Some(session)) => {
            abort_on_panic();
            let shared_by = processes::SharedBy::of(session.processes().clone());
            (Some(session), BuildFlags { shared_by, ..flags })
        }
        Ok(None) => (None, flags),
        Err(e) => {
            errln!("error: {e}");
            return ExitCode::FAILURE;
        }
    };
    // Compiled without MPI, each process `mpirun` starts would build alone, all of them
    // in one directory.
    #[cfg(not(feature = "mpi"))]
    if retro::distributed::started_by_mpirun() {
        errln!("error: this `solve` was compiled without MPI: build it with `--features mpi` to run it under mpirun");
        return ExitCode::FAILURE;
    }
    let processes = flags.shared_by.processes();
    if processes.shared() && !shares_builds(&cli.command) {
        errln!("error: only `solve thi`, `awari`, `trias` and `njaka` share their builds under mpirun; run this command without it");
        return ExitCode::FAILURE;
    }
    let result = cli.command.run(flags);
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) if e.downcast_ref::<processes::LeftToFirst>().is_some() => ExitCode::SUCCESS,
        // A reader that stopped early (`solve … | head`): quietly, with the status of a
        // process a closed pipe ends (128 + SIGPIPE), since the run did not finish (a
        // `verify` cut short has verified nothing).
        Err(e) if e.downcast_ref::<printer::StdoutError>().is_some_and(|s| s.0.kind() == ErrorKind::BrokenPipe) => {
            ExitCode::from(141)
        }
        Err(e) if processes.shared() => {
            errln!("error (process {} of {}): {e:#}", processes.rank(), processes.size());
            // The other processes would wait for this one's part of the next step.
            processes.abort(1);
            ExitCode::FAILURE
        }
        Err(e) => {
            errln!("error: {e:#}");
            ExitCode::FAILURE
        }
    }
}

/// Whether `command` builds its tables through the flow that shares them between the
/// processes `mpirun` starts ([`build::tables`]). Kalah's solver builds its endgame tables
/// on its own, and the other commands build nothing.
fn shares_builds(command: &Command) -> bool {
    matches!(command, Command::Thi(_) | Command::Awari(_) | Command::Trias(_) | Command::Njaka(_))
}

/// Makes a panic end this process at once: unwinding would end MPI in it
/// (`MPI_Finalize`), which waits for the others, themselves waiting for this one in the
/// step it left; a process that dies is seen by `mpirun`, which ends the others and names it.
#[cfg(feature = "mpi")]
fn abort_on_panic() {
    let report = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        report(info);
        std::process::abort();
    }));
}

#[cfg(test)]
mod tests {
    use super::{BuildFlags, Cli};

    /// The build flags of `solve ARGS`, or the usage error, read as `main` reads them.
    fn flags(args: &[&str]) -> Result<BuildFlags, String> {
        let args = std::iter::once("solve").chain(args.iter().copied()).map(Into::into).collect();
        Cli::read(args).map(|(_, flags)| flags).map_err(|e| e.to_string())
    }

    #[test]
    fn build_flags_are_read_from_before_and_after_the_command() {
        let none = BuildFlags { force: false, parts: None, checkpoint_every: None, ..BuildFlags::default() };
        let both = BuildFlags { force: true, parts: Some(3), checkpoint_every: None, ..BuildFlags::default() };
        // Neither.
        assert_eq!(flags(&["thi", "--board", "primus"]), Ok(none));
        assert_eq!(flags(&["info", "data"]), Ok(none));
        // Before, after, and one at each place.
        assert_eq!(flags(&["--force", "--parts", "3", "thi", "--board", "primus"]), Ok(both));
        assert_eq!(flags(&["thi", "--board", "primus", "--force", "--parts", "3"]), Ok(both));
        assert_eq!(flags(&["--force", "awari", "--parts", "3"]), Ok(both));
        assert_eq!(flags(&["--parts", "3", "awari", "--force"]), Ok(both));
        // Where the command's subcommand takes it.
        assert_eq!(
            flags(&["verify", "kalah", "--force"]),
            Ok(BuildFlags { force: true, parts: None, checkpoint_every: None, ..BuildFlags::default() })
        );
        let every = BuildFlags { checkpoint_every: Some(60), ..none };
        assert_eq!(flags(&["--checkpoint-every", "60", "awari"]), Ok(every));
        assert_eq!(flags(&["kalah", "--checkpoint-every", "60"]), Ok(every));
        // --force at both places asks the same twice.
        assert_eq!(
            flags(&["--force", "kalah", "--force"]),
            Ok(BuildFlags { force: true, parts: None, checkpoint_every: None, ..BuildFlags::default() })
        );
    }

    #[test]
    fn build_flags_misplaced_or_given_twice_are_refused() {
        for (args, says) in [
            (&["--parts", "2", "kalah"][..], "--parts does not apply to `solve kalah`"),
            (&["--force", "info", "data"], "--force does not apply to `solve info`"),
            (&["--force", "serve"], "--force does not apply to `solve serve`"),
            (&["--parts", "2", "thi", "--parts", "3"], "--parts is given twice"),
            (&["--checkpoint-every", "9", "info", "data"], "--checkpoint-every does not apply to `solve info`"),
            (&["--checkpoint-every", "9", "thi", "--checkpoint-every", "9"], "--checkpoint-every is given twice"),
            (&["--threads", "1", "thi", "--threads", "1"], "--threads is given twice"),
            // After the command, the parser itself refuses a flag the command does not take.
            (&["kalah", "--parts", "2"], "unexpected argument '--parts'"),
        ] {
            let message = flags(args).expect_err("refused");
            assert!(message.contains(says), "{args:?}: {message}");
        }
    }
}
