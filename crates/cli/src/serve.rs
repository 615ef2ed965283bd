//! `solve serve`: the tables under a root, answered over HTTP and explored in a browser.

use crate::printer::StdoutError;
use anyhow::{Context, Result};
use clap::Args;
use std::io::Write;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::time::Duration;

#[derive(Args)]
#[command(
    about = "Serve the tables over HTTP: a JSON API and a web page to explore positions",
    long_about = "Opens every table directory under --tables once (each file's header and checksum \
                  checked, as every command does), then answers over HTTP until Ctrl-C:\n\n  \
                  /                  a web page: pick a board, click moves, follow the best line, copy a link\n  \
                  /api/games         the games, boards and rules this server holds\n  \
                  /api/{game}?…      a position: its value, every move's value, the best line\n\n\
                  docs/api.md lists every parameter. A directory whose tables fail their checks, or \
                  renamed within a game's directory, or a second one of the same tables, is left out and \
                  named (also in /api/games); a board whose tables are not here answers \
                  404 with the command that builds them.\n\n\
                  A position of a board and rules served whose tier is not built (Kalah(4,3)'s \
                  start beside the tables of Kalah(4,2)) is answered by a search above the tables, \
                  as the commands search, within --search-ms: its value where the search proves \
                  it, else the bounds it proved. At most --searches run at once; a request for \
                  another is refused then (503, try again), not queued.\n\n\
                  The tables are read from their files while the server runs: never change a \
                  served file in place (a file truncated under it stops the server with SIGBUS). \
                  Stop the server, or rename new files over the old, and restart it.",
    after_help = "Examples:\n  \
                  solve thi --board trias && solve serve\n  \
                  solve serve --tables data --addr 0.0.0.0:8080\n  \
                  curl 'http://127.0.0.1:8080/api/thi?board=trias'"
)]
pub struct ServeArgs {
    /// The root of the tables (the directory given to --out when they were built).
    #[arg(long, default_value = crate::options::DEFAULT_TABLES_ROOT)]
    tables: PathBuf,
    /// Address and port to listen on, HOST:PORT: an IP address or a host name such as
    /// localhost (its first address); port 0: any free port, printed at start.
    #[arg(long, default_value = "127.0.0.1:8080", value_parser = listen_address)]
    addr: SocketAddr,
    /// Seconds a connection may take to send a request's headers (a new connection, or
    /// the next request on a kept-alive one) before it is closed.
    #[arg(long, value_name = "SECONDS", default_value_t = server::HEADER_TIMEOUT.as_secs(),
          value_parser = clap::value_parser!(u64).range(1..=3600))]
    header_timeout: u64,
    /// Milliseconds a search above the tables may take to answer one position (0: no
    /// search; such a position answers 404 with the command that builds its tables).
    #[arg(long, value_name = "MS", default_value_t = server::DEFAULT_SEARCH_TIME.as_millis() as u64,
          value_parser = clap::value_parser!(u64).range(0..=server::MAX_SEARCH_TIME.as_millis() as u64))]
    search_ms: u64,
    /// Searches above the tables run at once, each taking a core for up to --search-ms
    /// (and at most some 50 MB); a request past them is refused with 503.
    #[arg(long, value_name = "N", default_value_t = 1,
          value_parser = clap::value_parser!(u64).range(1..=server::MAX_SEARCHES as u64))]
    searches: u64,
}

/// `--addr`: an address as written, else a host name's first address.
fn listen_address(text: &str) -> Result<SocketAddr, String> {
    if let Ok(addr) = text.parse() {
        return Ok(addr);
    }
    let (_, port) = text.rsplit_once(':').ok_or("HOST:PORT, e.g. 127.0.0.1:8080 or localhost:8080")?;
    port.parse::<u16>().map_err(|_| format!("`{port}` is not a port (0 to 65535)"))?;
    let mut found = std::net::ToSocketAddrs::to_socket_addrs(text).map_err(|e| format!("cannot resolve it: {e}"))?;
    found.next().ok_or_else(|| "the host name has no address".to_owned())
}

pub fn run(args: ServeArgs) -> Result<()> {
    if !args.tables.exists() {
        anyhow::bail!(
            "{}: no such directory: build tables first (every command writes them under --out, `data` \
             by default: `solve thi --board trias`), or give --tables the directory they are in",
            args.tables.display()
        );
    }
    let library = server::Library::open(&args.tables, |dir, opened| match opened {
        Ok(holding) => errln!(
            "opened {}: `{}`, {} in {}",
            dir.display(),
            holding.key,
            crate::printer::counted(holding.tables.positions, "position", "positions"),
            crate::printer::counted(holding.tables.tiers as u64, "tier", "tiers")
        ),
        Err(error) => errln!("warning: left out {}: {error}", dir.display()),
    })?;
    let runtime = tokio::runtime::Builder::new_multi_thread().enable_all().build().context("starting the server")?;
    let header_timeout = Duration::from_secs(args.header_timeout);
    let searches = (args.search_ms > 0)
        .then(|| server::Searches { time: Duration::from_millis(args.search_ms), at_once: args.searches as usize });
    let connections = server::MAX_CONNECTIONS;
    runtime.block_on(server::serve(library, args.addr, header_timeout, connections, searches, |bound| {
        // Scripts and tests wait for this line; with standard output closed the server
        // still serves, and says where on standard error.
        let listening = format!("listening on http://{bound}/ (Ctrl-C stops)");
        if outln!("{listening}").and_then(|()| std::io::stdout().flush().map_err(StdoutError)).is_err() {
            errln!("{listening}");
        }
    }))?;
    errln!("stopped");
    Ok(())
}

impl crate::Run for ServeArgs {
    fn run(self, _: crate::options::BuildFlags) -> Result<()> {
        run(self)
    }
}
