//! `solve`: build perfect-play tables for mancala-family games and ask them questions.

mod awari;
mod build;
mod kalah;
use retro::memory;
mod oware;
mod progress;
mod tables;
mod thi;
mod verify;

use clap::{Parser, Subcommand};
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
    /// Worker threads (default: one per core).
    #[arg(long, global = true)]
    threads: Option<usize>,
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// THI` (Transporter): build tables, print the start's verdict, or analyse a position.
    Thi(thi::ThiArgs),
    /// Kalah(m, n): exact margins of the start and every opening move, or of any position.
    Kalah(kalah::KalahArgs),
    /// Oware: Awari tables and scores, Trysse and Wari outcomes, on boards of 1 to 6 pits a row.
    Awari(awari::AwariArgs),
    /// Recompute published results (`solve verify kalah`) and compare with them.
    Verify(verify::VerifyArgs),
    /// Print what a table file is: game, rules, tier, size, encoding, checksum, writer.
    Info(tables::InfoArgs),
    /// Re-check every stored value of a table file (or directory) against its successors.
    VerifyTable(tables::VerifyTableArgs),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    if let Some(threads) = cli.threads {
        if let Err(e) = rayon::ThreadPoolBuilder::new().num_threads(threads).build_global() {
            eprintln!("error: cannot start {threads} threads: {e}");
            return ExitCode::FAILURE;
        }
    }
    let result = match cli.command {
        Command::Thi(args) => thi::run(args),
        Command::Kalah(args) => kalah::run(args),
        Command::Awari(args) => awari::run(args),
        Command::Verify(args) => verify::run(args),
        Command::Info(args) => tables::info(args),
        Command::VerifyTable(args) => tables::verify_table(args),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::FAILURE
        }
    }
}
