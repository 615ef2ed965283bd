#![warn(missing_docs)]
//! `solve`: build perfect-play tables for mancala-family games and ask them questions.

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
    /// Build even where the memory or disk a build needs looks larger than what is free
    /// (every build says what it needs before it starts). Finished tables are then read
    /// through their files' pages, which the system may evict, instead of being held in
    /// memory while the tiers above them are solved.
    #[arg(long, global = true)]
    force: bool,
    /// Solve every tier of the outcome engine (THI`, Trysse, Wari) from a scratch file
    /// beside the tables, its positions cut into N ranges set one after another (the
    /// parents a level finds outside the first range wait in a file a range): the memory
    /// of one range. By default only a tier whose two bytes a position exceed half the
    /// free memory (the control group's, where that is less) is split, into as many parts
    /// as it takes.
    #[arg(long, global = true, value_name = "N", value_parser = clap::value_parser!(u16).range(1..))]
    parts: Option<u16>,
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

fn main() -> ExitCode {
    let cli = Cli::parse();
    if let Some(threads) = cli.threads {
        if let Err(e) = rayon::ThreadPoolBuilder::new().num_threads(threads).build_global() {
            eprintln!("error: cannot start {threads} threads: {e}");
            return ExitCode::FAILURE;
        }
    }
    if cli.force {
        build::force();
    }
    if let Some(parts) = cli.parts {
        build::split_into(parts.into());
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
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::FAILURE
        }
    }
}
