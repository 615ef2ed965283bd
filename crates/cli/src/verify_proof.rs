//! `solve verify-proof FILE`: a proof file's proof checked without the search that found
//! it ([`search::proof::check`]): every move replayed from the rules, every leaf asked
//! of the rules or the tables (under `--out`).

use crate::options::{BuildFlags, TablesRoot};
use anyhow::{anyhow, bail, Result};
use clap::Args;
use games::thi::Thi;
use games::trias::Trias;
use retro::{store, Game, Value};
use search::proof::check::check;
use search::proof::file::{self, Body, Opened};
use std::path::PathBuf;
use std::str::FromStr;
use tablebase::front::{self, FrontEnd};

#[derive(Args)]
#[command(
    about = "Check a proof file: replay every move of its proof from the rules",
    long_about = "Checks the proof kept in FILE by `solve trias --prove --proof FILE` or `solve thi --prove \
                  --proof FILE`, independently of the search that found it: from the root it replays every \
                  move of the proof from the rules (the prover's chosen move at his turns, every move of \
                  his opponent at theirs) down to positions where the game ends or a table built under --out \
                  decides, and checks each of those as the proof needs. Prints \"proof holds\", or names the \
                  first node that fails and exits non-zero.",
    after_help = "Example:\n  solve trias --holes 4 --stones 2 --prove --proof t4.proof\n  solve verify-proof t4.proof"
)]
pub struct VerifyProofArgs {
    /// The proof file.
    file: PathBuf,
    #[command(flatten)]
    tables: TablesRoot,
}

fn run(args: VerifyProofArgs) -> Result<()> {
    let opened = file::open(&args.file)?;
    match opened.header.game.as_str() {
        "trias" => verify::<Trias>(&opened, &args),
        "thi" => verify::<Thi>(&opened, &args),
        other => bail!("{}: a proof of the game `{other}`, which this version does not prove", args.file.display()),
    }
}

/// Checks `opened`'s proof of a position of `F`.
fn verify<F>(opened: &Opened, args: &VerifyProofArgs) -> Result<()>
where
    F: FrontEnd + Game<Value = Value>,
    F::Position: FromStr,
{
    let header = &opened.header;
    let (game, tiers) = front::game_of_key::<F>(&header.key, &header.tiers)?;
    let root: F::Position = header
        .root
        .parse()
        .map_err(|_| anyhow!("{}: the root `{}` is not a position", args.file.display(), header.root))?;
    let Body::Proven { value, trees } = opened.body::<F::Position>()? else {
        bail!(
            "{}: a search under way, not a proof: run the command that wrote it again to continue it",
            args.file.display()
        )
    };
    let tables = store::open(&game, &game.directory(&args.tables.out), &tiers)?;
    let checked = check(&game, &tables, &root, value, &trees).map_err(|e| anyhow!("proof fails: {e}"))?;
    outln!(
        "proof holds: {} for the player to move in {root} ({} nodes checked, {} tree{})",
        value.outcome(),
        checked.nodes,
        trees.len(),
        if trees.len() == 1 { "" } else { "s" }
    )?;
    Ok(())
}

impl crate::Run for VerifyProofArgs {
    fn run(self, _flags: BuildFlags) -> Result<()> {
        run(self)
    }
}
